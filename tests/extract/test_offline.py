"""Tests of the offline extractor: protocol, determinism, evidence, seed-only genericity, cues, measured accuracy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.extract.base import Extractor, FieldSpec, ReviewInput
from dinecheck.extract.factory import make_extractor
from dinecheck.extract.offline import OfflineExtractor, label_review
from dinecheck.extract.offline_cues import FIGURATIVE_STEM, MAX_TEXT_CHARS, split_sentences, stem, tokenize
from dinecheck.extract.offline_rules import compile_rules, is_null_value
from tests.conftest import shared_file

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ITEMS = [json.loads(x) for x in (FIXTURES / "offline_labelled.jsonl").read_text(encoding="utf-8").splitlines()]
FRESH = [json.loads(x) for x in (FIXTURES / "offline_fresh.jsonl").read_text(encoding="utf-8").splitlines()]
FRESH2 = [json.loads(x) for x in (FIXTURES / "offline_fresh2.jsonl").read_text(encoding="utf-8").splitlines()]
FRESH2_TUNED = FRESH2[0::2]  # odd lines: used for tuning
FRESH2_HELD_OUT = FRESH2[1::2]  # even lines: never used for tuning
TUNED = [it for i, it in enumerate(ITEMS, 1) if i % 4 != 0]
HELD_OUT = [it for i, it in enumerate(ITEMS, 1) if i % 4 == 0]

G1A_FIELDS = [
    FieldSpec(name="incident_severity", values={
        "none": "No allergic reaction described",
        "mild": "Minor symptoms (stomach upset, mild discomfort)",
        "moderate": "Visible symptoms (hives, swelling, needed medication)",
        "severe": "Life-threatening (anaphylaxis, EpiPen, ER visit)",
    }),
    FieldSpec(name="account_type", values={
        "none": "No incident mentioned",
        "firsthand": "Personal experience ('I had', 'my child experienced')",
        "secondhand": "Reported by someone else ('I heard', 'friend told me')",
        "hypothetical": "Concern without actual incident",
    }),
    FieldSpec(name="safety_interaction", values={
        "none": "No staff interaction about allergies",
        "positive": "Staff asked about allergies AND successfully accommodated",
        "negative": "Staff dismissive or refused to accommodate",
        "betrayal": "Staff CLAIMED safe BUT customer still had reaction",
    }),
]  # fmt: skip


def _inputs(items: list[dict]) -> list[ReviewInput]:
    return [ReviewInput("biz", it["review_id"], it["text"], {}) for it in items]


def _label(fields: list[FieldSpec], texts: list[str]) -> list[dict[str, str]]:
    res = OfflineExtractor().extract(fields, [ReviewInput("b", f"r{i}", t) for i, t in enumerate(texts)])
    assert all(r.ok for r in res)
    return [r.values for r in res]


# --- protocol and basic guarantees ------------------------------------------------------------------------------


def test_protocol_and_factory() -> None:
    ex = make_extractor("offline")
    assert isinstance(ex, OfflineExtractor)
    assert isinstance(ex, Extractor)
    assert ex.name == "offline"
    res = ex.extract(G1A_FIELDS, _inputs(ITEMS[:5]))
    assert [r.review_id for r in res] == [it["review_id"] for it in ITEMS[:5]]
    assert all(r.business_id == "biz" and r.status == "ok" and r.error is None for r in res)
    assert ex.stats.as_dict() == {
        "reviews": 5, "calls": 0, "cache_hits": 0, "retries": 0, "tokens_in": 0, "tokens_out": 0, "cost": 0.0,
    }  # fmt: skip
    ex.extract(G1A_FIELDS, _inputs(ITEMS[5:7]))
    assert ex.stats.reviews == 7
    assert ex.extract(G1A_FIELDS, []) == []
    ex.close()


def test_deterministic_across_instances_and_calls() -> None:
    a = OfflineExtractor().extract(G1A_FIELDS, _inputs(ITEMS))
    ex = OfflineExtractor()
    b = ex.extract(G1A_FIELDS, _inputs(ITEMS))
    c = ex.extract(G1A_FIELDS, list(reversed(_inputs(ITEMS))))
    assert a == b
    assert list(reversed(c)) == a


def test_evidence_is_the_verbatim_firing_sentence() -> None:
    for it, r in zip(ITEMS, OfflineExtractor().extract(G1A_FIELDS, _inputs(ITEMS)), strict=True):
        assert set(r.values) == {f.name for f in G1A_FIELDS}
        for f in G1A_FIELDS:
            assert r.values[f.name] in f.values
            if r.values[f.name] == "none":
                assert f.name not in r.evidence
            else:
                ev = r.evidence[f.name]
                assert ev.verified is True and ev.quote and ev.quote in it["text"]
    r = OfflineExtractor().extract(G1A_FIELDS, _inputs([ITEMS[3]]))[0]  # lab04: EpiPen, ER, "nut-free" claim
    assert r.values == {"incident_severity": "severe", "account_type": "firsthand", "safety_interaction": "betrayal"}
    assert r.evidence["incident_severity"].quote == (
        "Halfway through my throat started closing up and I had to use my EpiPen."
    )
    assert r.evidence["safety_interaction"].quote == (
        "The server told me the curry was completely nut-free, so I ordered it."
    )


def test_field_without_null_value_is_invalid_not_defaulted() -> None:
    fields = [FieldSpec(name="mood", values={"happy": "Reviewer was happy", "angry": "Reviewer was angry"})]
    res = OfflineExtractor().extract(fields, [ReviewInput("b", "r1", "The soup came with bread.")])
    assert res[0].status == "invalid" and res[0].values == {}
    assert res[0].error == "field 'mood': no cue fired and no value means 'none'; the offline extractor cannot choose"
    ok = OfflineExtractor().extract(fields, [ReviewInput("b", "r2", "I was so angry about the wait.")])[0]
    assert ok.status == "ok" and ok.values == {"mood": "angry"}


# --- genericity: it works from the seed alone -------------------------------------------------------------------


def test_renamed_fields_and_values_give_the_same_labels() -> None:
    renames = [
        ("sev", {"none": "nil", "mild": "low", "moderate": "mid", "severe": "high"}),
        ("who", {"none": "nil", "firsthand": "me", "secondhand": "them", "hypothetical": "maybe"}),
        ("staff_io", {"none": "nil", "positive": "good", "negative": "bad", "betrayal": "lied"}),
    ]
    renamed = [
        FieldSpec(name=new, values={vmap[k]: d for k, d in f.values.items()})
        for f, (new, vmap) in zip(G1A_FIELDS, renames, strict=True)
    ]
    orig = OfflineExtractor().extract(G1A_FIELDS, _inputs(ITEMS))
    other = OfflineExtractor().extract(renamed, _inputs(ITEMS))
    for a, b in zip(orig, other, strict=True):
        mapped = {new: vmap[a.values[f.name]] for f, (new, vmap) in zip(G1A_FIELDS, renames, strict=True)}
        assert b.values == mapped


def test_null_value_found_by_negated_description() -> None:
    fields = [FieldSpec(name="x", values={"nothing_here": "Not mentioned", "loud": "Too loud ('had to shout')"})]
    assert compile_rules(fields).fields[0].null == "nothing_here"
    assert is_null_value("absent", "whatever") and is_null_value("v", "No staff interaction")
    assert not is_null_value("loud", "Too loud")


NOISE = [FieldSpec(name="noise_level", values={
    "none": "No noise mentioned",
    "loud": "Too loud to talk ('could not hear', 'had to shout')",
    "quiet": "Pleasantly quiet (calm, peaceful)",
})]  # fmt: skip


def test_noise_complaint_seed_gets_sensible_labels() -> None:
    texts = [
        "The music was so loud we had to shout across the table.",
        "A calm, peaceful spot for a quiet dinner with great pasta.",
        "Great tacos and friendly staff.",
        "It was not loud at all, we could talk easily.",
        "We could barely hear each other over the music.",
        "If it gets loud, ask for the back room.",
    ]
    got = [v["noise_level"] for v in _label(NOISE, texts)]
    assert got == ["loud", "quiet", "none", "none", "loud", "none"]


def test_noise_seed_with_a_perspective_field() -> None:
    fields = NOISE + [FieldSpec(name="source", values={
        "none": "No noise complaint",
        "own_visit": "Reviewer's own visit ('we could not hear each other')",
        "hearsay": "Reported by others ('I heard it gets loud')",
    })]  # fmt: skip
    rules = compile_rules(fields)
    assert rules.fields[1].is_perspective
    assert [v.perspective for v in rules.fields[1].values] == ["self", "reported"]
    got = _label(fields, [
        "The music was so loud we had to shout across the table.",
        "My coworker told me it gets really noisy on Fridays, so we went on a Tuesday.",
        "Great tacos and friendly staff.",
    ])  # fmt: skip
    assert got == [
        {"noise_level": "loud", "source": "own_visit"},
        {"noise_level": "loud", "source": "hearsay"},
        {"noise_level": "none", "source": "none"},
    ]


def test_service_and_price_seed_without_a_shared_domain() -> None:
    fields = [
        FieldSpec(name="service_speed", values={
            "none": "Speed of service not mentioned",
            "slow": "Long wait for food or table (waited 30+ minutes, slow service)",
            "fast": "Quick service (food came out fast, prompt)",
        }),
        FieldSpec(name="value", values={
            "none": "No mention of prices",
            "overpriced": "Too expensive for what you get (pricey, rip-off)",
            "good_value": "Fair or cheap prices (affordable, good deal)",
        }),
    ]  # fmt: skip
    assert compile_rules(fields).domain == ()
    got = _label(fields, [
        "We waited almost an hour for our food and the service was painfully slow.",
        "Food came out fast and the prices were very affordable.",
        "The pasta was a total rip-off at 30 dollars, and we waited 45 minutes.",
        "Lovely decor.",
        "Service was not slow at all.",
        "If the service were faster I would come back.",
    ])  # fmt: skip
    assert [(g["service_speed"], g["value"]) for g in got] == [
        ("slow", "none"), ("fast", "good_value"), ("slow", "overpriced"), ("none", "none"), ("none", "none"),
        ("none", "none"),
    ]  # fmt: skip


def test_labels_do_not_depend_on_hash_seed() -> None:
    code = (
        "import json, sys; sys.path.insert(0, '.');"
        "from tests.extract.test_offline import G1A_FIELDS, ITEMS, FRESH, FRESH2, _inputs;"
        "from dinecheck.extract.offline import OfflineExtractor;"
        "r = OfflineExtractor().extract(G1A_FIELDS, _inputs(ITEMS + FRESH + FRESH2));"
        "print(json.dumps([(x.values, {k: e.quote for k, e in x.evidence.items()}) for x in r]))"
    )
    root = Path(__file__).resolve().parents[2]
    outs = {
        subprocess.run(
            [sys.executable, "-c", code], cwd=root, env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True, text=True, check=True, timeout=60,
        ).stdout
        for seed in ("1", "2")
    }  # fmt: skip
    assert len(outs) == 1 and outs.pop().startswith("[[{")


def test_compiled_g1a_rules_come_from_descriptions() -> None:
    rules = compile_rules(G1A_FIELDS)
    assert sorted(c.key for c in rules.domain) == ["allerg", "react"]  # shared by ≥ 2 fields' descriptions
    sev, acc, saf = rules.fields
    assert (sev.null, acc.null, saf.null) == ("none", "none", "none")
    assert not sev.is_perspective and acc.is_perspective and not saf.is_perspective
    assert [v.perspective for v in acc.values] == ["self", "reported", "irrealis"]
    assert [c.key for c in acc.values[2].absent] == ["incident"]
    negative = saf.values[1]
    assert ("accommodat", True) in {c.ident for c in negative.distinctive}  # "refused to accommodate"
    assert [len(v.clauses) for v in saf.values] == [2, 1, 2]  # AND / BUT split the descriptions
    assert [[c.key for c in v.required] for v in saf.values] == [[], [], ["claim"]]  # "Staff CLAIMED safe"
    assert [c.key for c in saf.values[2].distinctive if c.role] == ["customer"]  # a participant, not evidence


# --- language cues -----------------------------------------------------------------------------------------------


def test_negation_scope_and_free_suffix() -> None:
    toks = {t.lower: t.negated for t in tokenize("They didn't have any nuts, but the cake was nut-free")}
    assert toks["nuts"] is True and toks["cake"] is False and toks["nut"] is True and toks["free"] is False
    toks2 = {t.lower: t.negated for t in tokenize("no problems at all with dinner tonight")}
    assert toks2["problems"] is True and toks2["tonight"] is False
    toks3 = {t.lower: t.negated for t in tokenize("No one in our party had any reaction, even with my allergy")}
    assert toks3["reaction"] is True and toks3["allergy"] is False  # a negated subject negates its clause


def test_sentence_cues() -> None:
    s = split_sentences(
        "I heard a guy got hives. If you have allergies, be careful! I asked if it had nuts. "
        "My friend told me it was good. A kid got sick."
    )
    assert [x.reported for x in s] == [True, False, False, True, False]
    assert [x.irrealis for x in s] == [False, True, False, False, False]
    assert [x.first_person for x in s] == [True, False, True, True, False]
    assert s[4].third_party is True


def _irrealis_words(text: str) -> set[str]:
    return {t.lower for s in split_sentences(text) for t in s.words if t.irrealis}


def test_irrealis_is_marked_per_clause() -> None:
    assert _irrealis_words("I always carry my EpiPen, and I didn't need it.") == {
        "i", "always", "carry", "my", "epipen",
    }  # fmt: skip
    assert _irrealis_words("I had hives, which happens whenever I eat dairy.") == {
        "which", "happens", "whenever", "i", "eat", "dairy",
    }  # fmt: skip
    assert _irrealis_words("The waiter said it would be safe.") == set()  # reported future, not a hypothesis
    assert _irrealis_words("I asked if it had nuts.") == set()  # indirect question
    assert _irrealis_words("Hi. If you have allergies, be careful here.") == {
        "if", "you", "have", "allergies", "be", "careful", "here",
    }  # fmt: skip
    assert _irrealis_words("I had a reaction at another place, so I was nervous.") == {
        "i", "had", "a", "reaction", "at", "another", "place",
    }  # fmt: skip
    assert len(_irrealis_words("This gave me hives, figuratively speaking.")) == 6


def test_emotional_reaction_gets_its_own_stem() -> None:
    def stems(text: str) -> list[str]:
        return [t.stem for s in split_sentences(text) for t in s.words if t.lower.startswith("react")]

    assert stems("My first reaction when the bill came was pure shock.") == [FIGURATIVE_STEM]
    assert stems("Their reaction was total disbelief.") == [FIGURATIVE_STEM]
    assert stems("My reaction to the first sip? Pure joy.") == [FIGURATIVE_STEM]
    assert stems("I had a reaction and went into anaphylactic shock.") == ["react"]
    assert stems("I had a reaction? Yes, hives.") == ["react"]


def test_refusal_with_wont_is_an_event_not_a_hypothesis() -> None:
    assert _irrealis_words("The waiter wouldn't tell me, and won't change it.") == set()
    assert _irrealis_words("I wouldn't risk it.") == {"i", "wouldn't", "risk", "it"}
    assert _irrealis_words("It won't be safe.") == {"it", "won't", "be", "safe"}


def test_stemmer() -> None:
    assert {stem(w) for w in ("allergy", "allergies", "allergic", "allergens")} == {"allerg"}
    assert stem("accommodating") == stem("accommodated") == stem("accommodation") == "accommodat"
    assert stem("they") == "they" and stem("success") == "success"


def test_labels_on_specific_language_phenomena() -> None:
    got = _label(G1A_FIELDS, [
        "I'm not allergic to anything and the burger was great.",
        "If you have a peanut allergy I would avoid this place.",
        "My sister told me a customer had hives after the satay here because of his nut allergy.",
        "I broke out in hives from my shellfish allergy and had to take Benadryl.",
        "She had no reaction at all to the dish, my allergy was fine.",
        "No one in our party had any reaction, even with my peanut allergy.",
        "Do not come here with a nut allergy.",
    ])  # fmt: skip
    assert [g["account_type"] for g in got] == [
        "none", "hypothetical", "secondhand", "firsthand", "none", "none", "hypothetical",
    ]  # fmt: skip
    assert [g["incident_severity"] for g in got] == ["none", "none", "moderate", "moderate", "none", "none", "none"]


def test_labels_on_avoidance_claims_and_participants() -> None:
    got = _label(G1A_FIELDS, [
        "My first reaction when the check came was pure shock. The nut brown ale was fine though.",
        "Dairy-free here: the staff checked every sauce with the chef and we had zero problems.",
        "The pesto the waiter swore was nut-free left me with stomach cramps all night.",
        "My friend swears the satay gave her hives, even though she told them about her peanut allergy.",
        "The waiter was friendly, but the nut-free cookie gave me hives; I have a peanut allergy.",
        "Felt queasy after the satay because of my peanut allergy. I did not tell the staff, so that is on me.",
        "After reading about a kid who needed an EpiPen here, I am staying away with my peanut allergy.",
        "The manager wouldn't change anything for my sesame allergy.",
        "I can't imagine bringing my son with a nut allergy here.",
        "Customers here are lovely. I have a nut allergy and the waiter told us the cake was safe.",
    ])  # fmt: skip
    assert [tuple(g.values()) for g in got] == [
        ("none", "none", "none"),  # emotional "reaction"
        ("none", "none", "positive"),  # "dairy-free" names the domain without the word allergy
        ("mild", "firsthand", "betrayal"),  # the reaction clause is evidenced by the severity field's finding
        ("moderate", "secondhand", "none"),  # the friend's "swears" and "she told them" are no staff claim
        ("moderate", "firsthand", "none"),  # "nut-free" without anyone CLAIMING it
        ("mild", "firsthand", "none"),  # the speaker's own "did not tell" is no refusal by the staff
        ("severe", "secondhand", "none"),  # "reading about" reports
        ("none", "none", "negative"),  # a refusal that happened
        ("none", "hypothetical", "none"),  # dread
        ("none", "none", "none"),  # "customers" alone evidences no reaction
    ]


# --- robustness (untrusted input) ------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_ok_enum_labels_and_verbatim_quotes(text: str) -> None:
    r = OfflineExtractor().extract(G1A_FIELDS, [ReviewInput("b", "r", text)])[0]
    assert r.status == "ok"
    for f in G1A_FIELDS:
        assert r.values[f.name] in f.values
    for ev in r.evidence.values():
        assert ev.quote in text


words = st.sampled_from(
    "no not staff loud quiet I my heard told concern without AND BUT hives allergy reaction ER ( ) ' , safe".split()
)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.from_regex(r"[a-z]{1,8}", fullmatch=True),
        st.lists(words, max_size=12).map(" ".join),
        min_size=1,
        max_size=5,
    ),
    st.lists(words, max_size=40).map(" ".join),
)
def test_arbitrary_field_specs_compile_and_label_within_the_enum(values: dict[str, str], text: str) -> None:
    field = FieldSpec(name="f", values=values)
    r = label_review(compile_rules([field]), ReviewInput("b", "r", text))
    if r.status == "ok":
        assert r.values["f"] in values
    else:
        assert r.status == "invalid" and r.values == {} and "field 'f'" in (r.error or "")


def test_long_input_is_cut_not_exhausting() -> None:
    text = ("I broke out in hives from my nut allergy. " * 2000) + "I had to use my EpiPen."
    r = OfflineExtractor().extract(G1A_FIELDS, [ReviewInput("b", "r", text)])[0]
    assert len(text) > MAX_TEXT_CHARS
    assert r.values["incident_severity"] == "moderate"  # the EpiPen sentence lies beyond the cut


# --- measured accuracy (thresholds = what bench/offline_eval.py measured; a regression fails) --------------------


def _prf(items: list[dict]) -> dict[tuple[str, str], tuple[float | None, float | None]]:
    res = OfflineExtractor().extract(G1A_FIELDS, _inputs(items))
    out = {}
    for f in G1A_FIELDS:
        for v in f.values:
            tp = sum(1 for it, r in zip(items, res, strict=True) if it["labels"][f.name] == v == r.values[f.name])
            pred = sum(1 for r in res if r.values[f.name] == v)
            gold = sum(1 for it in items if it["labels"][f.name] == v)
            out[(f.name, v)] = (tp / pred if pred else None, tp / gold if gold else None)
    return out


# minimum (precision, recall) per value, as measured on 2026-11-25 after the fresh2 tuning (see
# docs/offline_extractor.md); floors only ever go up
PERFECT = {(f.name, v): (1.0, 1.0) for f in G1A_FIELDS for v in f.values}
TUNED_FLOOR = {
    **PERFECT, ("safety_interaction", "none"): (0.95, 1.0), ("safety_interaction", "positive"): (1.0, 0.83),
}  # fmt: skip
HELD_OUT_FLOOR = dict(PERFECT)


@pytest.mark.parametrize(("items", "floor"), [(TUNED, TUNED_FLOOR), (HELD_OUT, HELD_OUT_FLOOR)], ids=["tuned", "held"])
def test_precision_recall_do_not_regress(items: list[dict], floor: dict) -> None:
    got = _prf(items)
    assert set(got) == set(floor)
    for key, (p_min, r_min) in floor.items():
        p, r = got[key]
        if p_min is not None:
            assert p is not None and p >= p_min, (key, p)
        assert r is not None and r >= r_min, (key, r)


# the fresh batches, measured before any tuning on them (accuracy per field): reviews 1–28 0.82 / 0.71 / 0.64,
# reviews 29–52 1.00 / 0.79 / 0.71, reviews 53–60 1.00 / 1.00 / 0.88 (not tuned on); reviews 1–52 were used for
# tuning afterwards, so these floors are development numbers
FRESH_FLOOR = {
    **PERFECT, ("account_type", "none"): (0.92, 1.0), ("account_type", "hypothetical"): (1.0, 0.8),
    ("safety_interaction", "none"): (0.88, 0.93), ("safety_interaction", "positive"): (0.88, 0.72),
    ("safety_interaction", "negative"): (1.0, 0.87), ("safety_interaction", "betrayal"): (0.88, 1.0),
}  # fmt: skip

# the third batch (40 reviews, tests/fixtures/offline_fresh2.jsonl), measured once before any change it prompted:
# accuracy 0.88 / 0.62 / 0.47 (odd lines 0.95 / 0.75 / 0.55, even lines 0.80 / 0.50 / 0.40). Then only the odd
# lines were used for tuning; the even lines are the held-out estimate.
FRESH2_TUNED_FLOOR = dict(PERFECT)
FRESH2_HELD_OUT_FLOOR = {
    ("incident_severity", "none"): (0.9, 0.81), ("incident_severity", "mild"): (1.0, 1.0),
    ("incident_severity", "moderate"): (0.75, 1.0), ("incident_severity", "severe"): (0.5, 0.5),
    ("account_type", "none"): (0.75, 0.75), ("account_type", "firsthand"): (0.62, 0.83),
    ("account_type", "secondhand"): (1.0, 0.66), ("account_type", "hypothetical"): (0.5, 0.33),
    ("safety_interaction", "none"): (0.8, 0.88), ("safety_interaction", "positive"): (1.0, 1.0),
    ("safety_interaction", "negative"): (1.0, 0.5), ("safety_interaction", "betrayal"): (0.5, 0.66),
}  # fmt: skip


@pytest.mark.parametrize(
    ("items", "floor"),
    [(FRESH, FRESH_FLOOR), (FRESH2_TUNED, FRESH2_TUNED_FLOOR), (FRESH2_HELD_OUT, FRESH2_HELD_OUT_FLOOR)],
    ids=["fresh", "fresh2-tuned", "fresh2-held"],
)
def test_precision_recall_on_the_fresh_batches_do_not_regress(items: list[dict], floor: dict) -> None:
    got = _prf(items)
    assert set(got) == set(floor)
    for key, (p_min, r_min) in floor.items():
        p, r = got[key]
        assert p is not None and p >= p_min, (key, p)
        assert r is not None and r >= r_min, (key, r)


def test_fresh2_is_balanced_between_its_halves() -> None:
    assert len(FRESH2) == 40 and len({it["review_id"] for it in FRESH2}) == 40
    assert not {it["review_id"] for it in FRESH2} & {it["review_id"] for it in ITEMS + FRESH}
    for f in G1A_FIELDS:
        for half in (FRESH2_TUNED, FRESH2_HELD_OUT):
            assert {it["labels"][f.name] for it in half} == set(f.values)


def test_labelled_set_covers_every_value_and_is_large_enough() -> None:
    assert len(ITEMS) >= 40 and len({it["review_id"] for it in ITEMS}) == len(ITEMS)
    for f in G1A_FIELDS:
        assert {it["labels"][f.name] for it in ITEMS} == set(f.values)


def test_g1a_false_positive_rate_and_positives(shared_data: Path) -> None:
    root = shared_data / "g1a_allergy"
    seed = json.loads(shared_file(shared_data, "g1a_allergy/g1a_v2_seed.json").read_text(encoding="utf-8"))
    fields = [FieldSpec(**f) for f in seed["extract"]["fields"]]
    assert fields == G1A_FIELDS
    keywords = [k.lower() for k in seed["filter"]["keywords"]]
    reviews = {}
    for line in (root / "reviews.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        reviews[r["review_id"]] = r
    recorded = [json.loads(x) for x in (root / "recorded_extractions.jsonl").read_text(encoding="utf-8").splitlines()]
    res = OfflineExtractor().extract(
        fields, [ReviewInput(r["business_id"], r["review_id"], reviews[r["review_id"]]["text"]) for r in recorded]
    )
    fp = {f.name: 0 for f in fields}
    none = {f.name: 0 for f in fields}
    filtered = 0
    for rec, r in zip(recorded, res, strict=True):
        if not any(k in reviews[rec["review_id"]]["text"].lower() for k in keywords):
            continue
        filtered += 1
        for name, want in rec["extraction"].items():
            if want == "none":
                none[name] += 1
                fp[name] += r.values[name] != "none"
            elif name != "safety_interaction":  # the one incident is found exactly (moderate, firsthand)
                assert r.values[name] == want
    assert filtered == 253
    assert fp == {"incident_severity": 0, "account_type": 2, "safety_interaction": 1}
    assert all(fp[n] / none[n] <= 0.02 for n in fp)
