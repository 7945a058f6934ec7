"""Readings of pasted label text (``pasted.readings``) and the three false-SAFE paths of issue 8, end to end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.pasted import readings
from dinecheck.allergens.pipeline import check_label

KNOWN = {"peanuts", "peanut", "peanut butter", "sugar", "salt"}


def known(key: str) -> bool:
    return key in KNOWN


@pytest.fixture(scope="module")
def onto():
    return load_data_dir()


def test_plain_ascii_text_has_one_reading_unchanged() -> None:
    primary, alt = readings("sugar, salt", known)
    assert primary.text == "sugar, salt" and primary.index is None and alt is None


def test_a_word_hyphenated_across_a_line_is_joined_and_the_hyphen_kept_in_the_alternative() -> None:
    primary, alt = readings("sugar, pea-\nnuts", known)
    assert primary.text == "sugar, peanuts"
    assert alt is not None and alt.text == "sugar, pea-nuts"
    assert primary.raw_span((7, 14)) == (7, 16)  # "peanuts" covers "pea-\nnuts" in the raw text


def test_crlf_hyphen_break_is_joined_too() -> None:
    assert readings("pea-\r\nnut butter", known)[0].text == "peanut butter"


def test_inline_markup_inside_a_word_is_removed() -> None:
    assert readings("sugar, <b>pea</b>nuts", known)[0].text == "sugar, <b>peanuts"
    assert readings("sugar, pea<!-- -->nuts", known)[0].text == "sugar, peanuts"


def test_a_block_tag_between_letters_is_a_separator_unless_the_joined_word_is_known() -> None:
    primary, alt = readings("sugar, pea<br>nuts", known)
    assert primary.text == "sugar, pea<br>nuts" and alt is not None and alt.text == "sugar, peanuts"
    assert readings("sugar<br>salt", known)[1] is None  # "sugarsalt" is no word: only the separator reading


def test_entities_and_cjk_punctuation() -> None:
    primary, _ = readings("Sucre&amp;sel，farine、eau；cr&egrave;me", known)
    assert primary.text == "Sucre&sel,farine,eau;crème"
    assert primary.raw_span((17, 20)) == (21, 24)  # "eau" after the decoded entity


def test_a_line_break_inside_a_known_name_is_a_space() -> None:
    primary, alt = readings("Peanut\nbutter", known)
    assert primary.text == "Peanut butter" and alt is not None and alt.text == "Peanut\nbutter"
    assert readings("sugar\nsalt", known)[1] is None  # "sugar salt" names nothing: the line break separates


# --- the three false-SAFE paths (pipeline level; the CLI level is in tests/cli/test_allergens_cli.py) -----------


@pytest.mark.parametrize("text", ["sugar, pea-\nnuts", "sugar, pea-\r\nnut butter", "sugar, <b>pea</b>nuts",
                                  "sugar, pea<br>nuts", "sugar, pea<!-- -->nuts", "sugar, PEA-\nNUTS"])  # fmt: skip
def test_a_peanut_word_broken_by_a_line_or_markup_is_never_safe(text: str, onto) -> None:
    r = check_label(text, ["PEANUT"], onto)
    assert r.verdict != "SAFE"
    assert [f.code for f in r.findings] == ["PEANUT"]
    a, b = r.findings[0].span
    assert "pea" in text[a:b].lower()


@pytest.mark.parametrize("text", ["sugar, pea-\nnuts", "sugar, <b>pea</b>nuts", "sugar, pea<!-- -->nuts"])
def test_a_word_joined_across_a_line_or_inline_markup_is_definite(text: str, onto) -> None:
    assert check_label(text, ["PEANUT"], onto).verdict == "AVOID"


@pytest.mark.parametrize("text", ["Does not contain peanuts, milk, eggs, soy", "Free from peanuts, milk and eggs",
                                  "Ne contient pas d'arachides, lait", "Ohne Erdnüsse, Milch",
                                  "Sin cacahuetes, leche", "Senza arachidi, latte"])  # fmt: skip
@pytest.mark.parametrize("code", ["FISH", "PEANUT", "MILK", "SESAME"])
def test_a_claim_only_label_is_never_safe(text: str, code: str, onto) -> None:
    r = check_label(text, [code], onto)
    assert r.verdict == "VERIFY"
    assert not any(f.level.value in ("DEFINITE", "DERIVED") for f in r.findings)  # claim objects are no ingredients


def test_a_claim_next_to_a_real_list_still_allows_safe(onto) -> None:
    r = check_label("Ingredients: rice, salt. Free from peanuts, milk and eggs.", ["FISH"], onto)
    assert r.verdict == "SAFE"
    assert check_label("Ingredients: rice, salt. Free from peanuts, milk and eggs.", ["MILK"], onto).verdict == "VERIFY"


def test_a_line_break_inside_peanut_butter_is_peanut_butter_with_butter_held_possible(onto) -> None:
    r = check_label("Peanut\nbutter", ["PEANUT", "MILK"], onto)
    levels = {f.code: f.level.value for f in r.findings}
    assert levels == {"PEANUT": "DERIVED", "MILK": "POSSIBLE"}
    assert r.findings[0].token == "Peanut butter" and r.findings[0].span == (0, 13)


@settings(max_examples=60, deadline=None)
@given(
    split=st.integers(1, 6),
    breaker=st.sampled_from(["-\n", "-\r\n", "<b></b>", "</b>", "<br>", "<!-- x -->", "<span>", "\u00ad"]),
    left=st.sampled_from(["sugar, ", "salt; ", "", "water (", "rice flour, "]),
    right=st.sampled_from(["", ", salt", ")", ". may contain nothing"]),
)
def test_any_break_inside_peanuts_is_never_safe(split: int, breaker: str, left: str, right: str, onto) -> None:
    word = "peanuts"
    text = left + word[:split] + breaker + word[split:] + right
    assert check_label(text, ["PEANUT"], onto).verdict != "SAFE", text


def test_words_run_together_at_a_case_change_are_read_when_every_part_is_known(onto) -> None:
    r = check_label("SucreFarine de blé, sel", ["WHEAT"], onto)
    assert r.verdict == "AVOID" and r.unmatched == ()
    assert r.findings[0].token == "SucreFarine de blé" and "run together" in r.findings[0].explanation
    assert check_label("McZorblax spice", ["WHEAT"], onto).verdict == "VERIFY"  # parts unknown: stays unknown


def test_unknown_words_get_suggestions_that_never_change_the_verdict(onto) -> None:
    r = check_label("sugar, xantham gum", ["PEANUT"], onto)
    assert r.verdict == "VERIFY" and r.unmatched == ("xantham gum",)
    assert any(reason.startswith("did you mean 'xanthan gum'") for reason in r.review_reasons)


@pytest.mark.parametrize("unit", ["pea<br>nuts, ", "pea-\nnuts\n", "x<b>y</b>z ", "a&amp;b，", "Peanut\nbutter\n"])
def test_hostile_pasted_input_finishes_and_keeps_spans_inside_the_text(unit: str, onto) -> None:
    text = (unit * (99_000 // len(unit)))[:99_000]
    r = check_label(text, ["PEANUT", "MILK"], onto)
    assert all(0 <= f.span[0] <= f.span[1] <= len(text) for f in r.findings if f.span is not None)
    assert all(0 <= h.span[0] <= h.span[1] <= len(text) for h in r.risk_phrases)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([*"ab-\n\r<>/&;，、 brpeanut!", "<br>", "<b>", "&amp;", "\u00ad"]), max_size=30))
def test_readings_of_any_text_map_back_inside_it(pieces: list[str]) -> None:
    text = "".join(pieces)
    primary, alt = readings(text, known)
    for reading in (primary, alt):
        if reading is None or reading.index is None:
            continue
        assert len(reading.index) == len(reading.text)
        assert all(0 <= i < len(text) for i in reading.index)
        if reading.text:
            a, b = reading.raw_span((0, len(reading.text)))
            assert 0 <= a <= b <= len(text)


def test_a_hyphen_and_a_space_between_two_halves_of_a_known_word_join_them() -> None:
    """A line break lost in pasting ("con- tain"): joined in the primary reading when the joined word is known,
    kept in the alternative; a hyphen that stands for a word left out ("mono- and") is never joined."""
    primary, alternative = readings("sugar, pea- nuts", known)
    assert primary.text == "sugar, peanuts" and alternative is not None and alternative.text == "sugar, pea- nuts"
    assert primary.why == ("a word hyphenated across a lost line break",)
    primary, _alt = readings("Spices (con- tain celery)", known, lambda key: key == "contain")
    assert primary.text == "Spices (contain celery)"
    assert readings("mono- and diglycerides", known, lambda key: True) == readings("mono- and diglycerides", known)
    assert readings("salt- pepper", known)[1] is None  # "saltpepper" is no known word: nothing to join


def test_a_word_hyphenated_across_a_lost_line_break_is_read(onto) -> None:
    assert check_label("Spice and herb extracts (con- tain celery), salt", ["PEANUT"], onto).verdict == "SAFE"
    assert check_label("sugar, natural vanilla flav- ouring", ["PEANUT"], onto).verdict == "SAFE"
    assert check_label("sugar, pea- nuts", ["PEANUT"], onto).verdict == "AVOID"
    # the reading kept as written still names what it names: "egg- plant" joined is eggplant, "egg" stays POSSIBLE
    assert check_label("sugar, mi- lk", ["MILK"], onto).verdict == "AVOID"
    # the joined word with the rest of its item is a name: "es- senza di senape" is no "senza" (without) claim
    assert check_label("Rice, water, es- senza di senape", ["MUSTARD"], onto).verdict == "AVOID"


def test_a_word_decoded_in_the_wrong_character_set_is_read_as_mended(onto) -> None:
    """UTF-8 read as Windows-1252 ("PurÃ©e", "Ã€ conserver"): the primary reading holds the word ftfy mends, the
    alternative the text as written; spans still point into the raw text."""
    raw = "Sugar, Garlic PurÃ©e, PurÃ©e de noisettes"
    primary, alternative = readings(raw, known)
    assert primary.text == "Sugar, Garlic Purée, Purée de noisettes" and alternative is not None
    assert alternative.text == raw and primary.why == ("text decoded in the wrong character set",)
    a = primary.text.index("Purée de")
    start, end = primary.raw_span((a, a + len("Purée de noisettes")))
    assert raw[start:end] == "PurÃ©e de noisettes"
    assert check_label(raw, ["TREE_NUTS"], onto).verdict == "AVOID"
    assert check_label("Sucre, sel. Ã€ conserver dans un endroit frais et sec.", ["TREE_NUTS"], onto).verdict == "SAFE"
    assert readings("Crème fraîche, Müsli, naïve", known)[1] is None  # accents rightly decoded are left alone
