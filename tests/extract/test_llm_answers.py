"""Pure parts of the LLM extractor: prompt and answer schema, cache keys, answer validation, quote verification."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.extract.answers import check_answer, normalize_for_match, quote_is_verbatim
from dinecheck.extract.base import Evidence, FieldSpec, ReviewInput
from dinecheck.extract.prompt import (
    PROMPT_VERSION,
    answer_schema,
    extraction_messages,
    fields_fingerprint,
    repair_messages,
    review_cache_key,
)

FIELDS = [
    FieldSpec(name="severity", values={"none": "No reaction", "mild": "Stomach upset", "severe": "Anaphylaxis, ER"}),
    FieldSpec(name="staff", values={"none": "No staff talk", "positive": "Staff accommodated"}),
]
R1 = ReviewInput("b1", "r1", "My  son had HIVES after the satay.\nStaff were kind.", {"stars": 2.0, "date": "2021-03-04", "user_id": "u9"})
R2 = ReviewInput("b1", "r2", "Great noodles, no problems.", {"stars": 5.0})


def entry(rid: str, severity: str = "none", staff: str = "none", evidence: dict | None = None) -> dict:
    return {"review_id": rid, "severity": severity, "staff": staff, "evidence": evidence or {"severity": "", "staff": ""}}


# -- prompt -------------------------------------------------------------------------------------------------------
def test_prompt_holds_fields_values_descriptions_text_and_selected_meta_only():
    msgs = extraction_messages(FIELDS, [R1])
    assert [m["role"] for m in msgs] == ["system", "user"]
    user = msgs[1]["content"]
    for f in FIELDS:
        assert f'Field "{f.name}"' in user
        for value, desc in f.values.items():
            assert f'"{value}": {desc}' in user
    assert json.dumps(R1.text)[1:-1] in user  # the text, JSON-escaped
    assert '"stars": 2.0' in user and '"date": "2021-03-04"' in user
    assert "u9" not in user  # metadata outside PROMPT_META_KEYS is not shown
    assert '"review_id": "r1"' in user


def test_answer_schema_enumerates_values_and_review_ids():
    schema = answer_schema(FIELDS, ["r1", "r2"])
    item = schema["properties"]["reviews"]["items"]
    assert item["properties"]["severity"]["enum"] == ["none", "mild", "severe"]
    assert item["properties"]["staff"]["enum"] == ["none", "positive"]
    assert item["properties"]["review_id"]["enum"] == ["r1", "r2"]
    assert item["required"] == ["review_id", "severity", "staff", "evidence"]
    assert item["additionalProperties"] is False
    assert item["properties"]["evidence"]["required"] == ["severity", "staff"]


def test_repair_messages_show_problems_and_only_the_ids_to_redo():
    orig = extraction_messages(FIELDS, [R1, R2])
    msgs = repair_messages(orig, "{bad", ["review r2: field 'staff' is missing"], ["r2"])
    assert msgs[:2] == orig
    assert msgs[2] == {"role": "assistant", "content": "{bad"}
    assert "field 'staff' is missing" in msgs[3]["content"]
    assert '{"review_id": "r2"}' in msgs[3]["content"] and '"r1"' not in msgs[3]["content"]


def test_cache_key_covers_model_version_fields_text_and_shown_meta_but_not_the_review_id():
    base = review_cache_key("m", FIELDS, R1)
    assert len(base) == 64
    assert review_cache_key("m", FIELDS, ReviewInput("other", "other-id", R1.text, R1.meta)) == base
    assert review_cache_key("m", FIELDS, ReviewInput("b1", "r1", R1.text, {**R1.meta, "user_id": "zz"})) == base
    assert review_cache_key("m2", FIELDS, R1) != base
    assert review_cache_key("m", FIELDS, ReviewInput("b1", "r1", R1.text + " ", R1.meta)) != base
    assert review_cache_key("m", FIELDS, ReviewInput("b1", "r1", R1.text, {**R1.meta, "stars": 3.0})) != base
    changed = [FIELDS[0], FieldSpec(name="staff", values={"none": "No staff talk", "positive": "Staff helped"})]
    assert review_cache_key("m", changed, R1) != base
    assert fields_fingerprint(changed) != fields_fingerprint(FIELDS)
    assert PROMPT_VERSION


# -- answer validation --------------------------------------------------------------------------------------------
def test_valid_batch_answer_with_verified_quotes():
    ans = {
        "reviews": [
            entry("r1", "mild", "positive", {"severity": "my son had hives", "staff": "Staff were kind"}),
            entry("r2"),
        ]
    }
    chk = check_answer(json.dumps(ans), FIELDS, [R1, R2])
    assert chk.invalid == {} and chk.missing == []
    assert chk.valid["r1"].values == {"severity": "mild", "staff": "positive"}
    assert chk.valid["r1"].evidence == {
        "severity": Evidence("my son had hives", True),
        "staff": Evidence("Staff were kind", True),
    }
    assert chk.valid["r2"].values == {"severity": "none", "staff": "none"}
    assert chk.valid["r2"].evidence == {}


def test_a_quote_that_is_not_in_the_review_makes_it_invalid():
    ans = {"reviews": [entry("r1", "mild", "positive", {"severity": "my son had hives", "staff": "the manager hugged us"})]}
    chk = check_answer(json.dumps(ans), FIELDS, [R1])
    assert chk.valid == {}
    assert chk.invalid == {"r1": ["field 'staff': the quote \"the manager hugged us\" does not occur in this review's text"]}


def test_swapped_ids_make_every_entry_of_the_answer_invalid():
    # r1's labels are sent under r2's id and r2's (all none) under r1's
    ans = {"reviews": [entry("r2", "mild", "none", {"severity": "my son had hives"}), entry("r1")]}
    chk = check_answer(json.dumps(ans), FIELDS, [R1, R2])
    assert chk.valid == {} and chk.missing == []
    reason = "the answer mixed up review ids (a quote under r2 is from r1), so none of its entries can be trusted"
    assert chk.invalid == {
        "r2": ["field 'severity': the quote \"my son had hives\" does not occur in this review's text", reason],
        "r1": [reason],
    }


def test_out_of_enum_and_missing_field_are_problems_never_defaults():
    ans = {"reviews": [entry("r1", "deadly"), {"review_id": "r2", "severity": "none", "evidence": {}}]}
    chk = check_answer(json.dumps(ans), FIELDS, [R1, R2])
    assert chk.valid == {}
    assert chk.invalid == {
        "r1": ["field 'severity' has \"deadly\", which is not one of 'none', 'mild', 'severe'"],
        "r2": ["field 'staff' is missing"],
    }
    assert chk.problems()[0].startswith("review r1: field 'severity'")


def test_missing_reviews_and_foreign_ids():
    ans = {"reviews": [entry("r2"), entry("r99", "mild")]}
    chk = check_answer(json.dumps(ans), FIELDS, [R1, R2])
    assert list(chk.valid) == ["r2"] and chk.missing == ["r1"] and chk.invalid == {}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "the answer is empty"),
        ("   ", "the answer is empty"),
        ('{"reviews": [', "the answer is not valid JSON (Expecting value)"),
        ('["just", "strings"]', None),
        ('{"labels": []}', 'the answer is not an object with a "reviews" list'),
        ("[" * 100000 + "]" * 100000, "the answer is not valid JSON (nested too deeply)"),
    ],
)
def test_unusable_answers_make_every_review_invalid(content, reason):
    chk = check_answer(content, FIELDS, [R1, R2])
    assert chk.valid == {}
    if reason is None:  # a list of non-objects: nothing answered
        assert chk.missing == ["r1", "r2"]
    else:
        assert chk.invalid == {"r1": [reason], "r2": [reason]}


def test_fenced_json_and_single_object_answers_are_accepted():
    fenced = "```json\n" + json.dumps({"reviews": [entry("r2")]}) + "\n```"
    assert list(check_answer(fenced, FIELDS, [R2]).valid) == ["r2"]
    assert list(check_answer(json.dumps(entry("r2")), FIELDS, [R2]).valid) == ["r2"]


@pytest.mark.parametrize("second", [entry("r2"), entry("r2", "mild")])
def test_an_id_echoed_twice_is_invalid_even_when_both_entries_agree(second):
    chk = check_answer(json.dumps({"reviews": [entry("r2"), second, entry("r1")]}), FIELDS, [R1, R2])
    assert chk.invalid == {"r2": ["the answer has more than one entry for this review (each id must appear exactly once)"]}
    assert list(chk.valid) == ["r1"]


@pytest.mark.parametrize("evidence", [None, {"severity": ""}, {"severity": '""'}, {"severity": 7}])
def test_non_none_value_without_quote_is_invalid(evidence):
    obj = {"review_id": "r1", "severity": "mild", "staff": "none"}
    if evidence is not None:
        obj["evidence"] = evidence
    chk = check_answer(json.dumps({"reviews": [obj]}), FIELDS, [R1])
    assert chk.valid == {}
    assert chk.invalid == {"r1": ["field 'severity' is 'mild' but has no quote from this review"]}


# -- quotes -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("quote", "ok"),
    [
        ("my son had hives", True),
        ("MY SON   HAD\nhives after", True),
        ('"my son had hives"', True),
        ("hives after the satay...", True),
        ("staff were kind.", True),
        ("my daughter had hives", False),
        ("", False),
        ('""', False),
    ],
)
def test_quote_verification_is_whitespace_and_case_insensitive(quote, ok):
    assert quote_is_verbatim(quote, R1.text) is ok


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=200), st.data())
def test_any_substring_with_changed_case_and_spacing_verifies(text, data):
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    piece = text[i:j]
    if not normalize_for_match(piece.strip("\"'“”‘’«» ").removesuffix("...").removesuffix("…")):
        return
    mangled = " ".join(piece.split()).upper() if data.draw(st.booleans()) else piece
    # Upper-casing can change length for some characters (ß → SS); casefold maps both to the same string.
    assert quote_is_verbatim(mangled, text) or normalize_for_match(mangled) != normalize_for_match(piece)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=300), st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
       lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=10), c, max_size=4), max_leaves=20).map(json.dumps)))
def test_check_answer_never_crashes_and_accounts_for_every_review(content):
    chk = check_answer(content, FIELDS, [R1, R2])
    assert sorted([*chk.valid, *chk.invalid, *chk.missing]) == ["r1", "r2"]
    for ans in chk.valid.values():
        assert all(ans.values[f.name] in f.values for f in FIELDS)
