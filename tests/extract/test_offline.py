"""Tests of the offline extractor: protocol, determinism, evidence with its cue, and behaviour on language phenomena.

Every sentence here was written for the test (none comes from a labelled set or a review); expected labels follow
the seeds' value descriptions. No test pins a measured accuracy.
"""

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
from dinecheck.extract.offline_rules import compile_rules
from dinecheck.extract.offline_text import MAX_TEXT_CHARS

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

DIET_FIELDS = [
    FieldSpec(name="topic", values={
        "none": "No dietary need is discussed (e.g. only a dish such as a veggie pizza or soy sauce is named)",
        "plant_based": "The dietary need discussed is vegan, vegetarian or plant-based eating",
        "gluten_free": "The dietary need discussed is gluten-free eating or celiac disease",
        "dairy_free": "The dietary need discussed is dairy-free eating or lactose intolerance",
        "allergy": "The dietary need discussed is a food allergy (e.g. nuts, shellfish)",
    }),
    FieldSpec(name="outcome", values={
        "none": "No judgement of how the dietary need was served",
        "good": "Served well: suitable options were available or praised, or staff were helpful",
        "poor": "Served poorly: options were lacking or disappointing (e.g. 'no gluten free options')",
        "incident": "Someone got sick from food that did not fit the dietary need",
    }),
    FieldSpec(name="whose", values={
        "none": "No dietary need is discussed",
        "firsthand": "The need concerns the reviewer or their own party (e.g. 'I am vegan', 'my celiac son')",
        "secondhand": "Reported of other people (e.g. 'I heard', 'a friend told me')",
        "general": "A general statement about the menu (e.g. 'lots of vegan options') with no specific experience",
    }),
]  # fmt: skip


def _one(fields: list[FieldSpec], text: str) -> dict[str, str]:
    r = OfflineExtractor().extract(fields, [ReviewInput("b", "r", text)])[0]
    assert r.ok, r.error
    return r.values


def _labels(fields: list[FieldSpec], texts: list[str]) -> list[dict[str, str]]:
    return [_one(fields, t) for t in texts]


# --- protocol and guarantees ------------------------------------------------------------------------------------

TEXTS = [
    "I have a peanut allergy and I broke out in hives after the satay.",
    "Great tacos and friendly staff.",
    "The waiter rolled his eyes when I mentioned my nut allergy.",
]


def test_protocol_factory_stats_and_order() -> None:
    ex = make_extractor("offline")
    assert isinstance(ex, OfflineExtractor) and isinstance(ex, Extractor)
    assert ex.name == "offline"
    reviews = [ReviewInput("biz", f"r{i}", t) for i, t in enumerate(TEXTS)]
    res = ex.extract(G1A_FIELDS, reviews)
    assert [r.review_id for r in res] == ["r0", "r1", "r2"]
    assert all(r.business_id == "biz" and r.status == "ok" and r.error is None for r in res)
    assert ex.stats.as_dict() == {
        "reviews": 3, "calls": 0, "cache_hits": 0, "retries": 0, "tokens_in": 0, "tokens_out": 0, "cost": 0.0,
    }  # fmt: skip
    assert ex.extract(G1A_FIELDS, []) == []
    ex.close()


def test_deterministic_across_instances_and_order() -> None:
    reviews = [ReviewInput("b", f"r{i}", t) for i, t in enumerate(TEXTS)]
    a = OfflineExtractor().extract(G1A_FIELDS, reviews)
    ex = OfflineExtractor()
    assert ex.extract(G1A_FIELDS, reviews) == a
    assert list(reversed(ex.extract(G1A_FIELDS, list(reversed(reviews))))) == a


def test_every_non_null_label_carries_its_verbatim_sentence_and_cue() -> None:
    text = "Lovely patio. I have a peanut allergy and I broke out in hives after the satay! We left early."
    r = OfflineExtractor().extract(G1A_FIELDS, [ReviewInput("b", "r", text)])[0]
    assert r.values == {"incident_severity": "moderate", "account_type": "firsthand", "safety_interaction": "none"}
    assert set(r.evidence) == {"incident_severity", "account_type"}
    ev = r.evidence["incident_severity"]
    assert ev.quote == "I have a peanut allergy and I broke out in hives after the satay!" and ev.verified
    assert ev.cue == "hive (example)"
    assert r.evidence["account_type"].cue is not None and r.evidence["account_type"].cue.startswith("I (voice:")


def test_field_without_null_value_is_invalid_not_defaulted() -> None:
    fields = [FieldSpec(name="mood", values={"happy": "Reviewer was happy", "angry": "Reviewer was angry"})]
    res = OfflineExtractor().extract(fields, [ReviewInput("b", "r1", "The soup came with bread.")])
    assert res[0].status == "invalid" and res[0].values == {}
    assert res[0].error == "field 'mood': no cue fired and no value means 'none'; the offline extractor cannot choose"
    assert _one(fields, "I was so angry about the wait.") == {"mood": "angry"}


def test_labels_do_not_depend_on_hash_seed() -> None:
    code = (
        "import json, sys; sys.path.insert(0, '.');"
        "from tests.extract.test_offline import G1A_FIELDS, DIET_FIELDS, TEXTS;"
        "from dinecheck.extract.base import ReviewInput;"
        "from dinecheck.extract.offline import OfflineExtractor;"
        "rs = [ReviewInput('b', str(i), t) for i, t in enumerate(TEXTS * 2)];"
        "r = OfflineExtractor().extract(G1A_FIELDS, rs) + OfflineExtractor().extract(DIET_FIELDS, rs);"
        "print(json.dumps([(x.values, {k: (e.quote, e.cue) for k, e in x.evidence.items()}) for x in r]))"
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
    texts = TEXTS + ["If you have a nut allergy, be careful here.", "I heard a diner had an allergic reaction here."]
    for text in texts:
        a, b = _one(G1A_FIELDS, text), _one(renamed, text)
        assert b == {new: vmap[a[f.name]] for f, (new, vmap) in zip(G1A_FIELDS, renames, strict=True)}


# --- precision first: the domain gate and abstention --------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "My first reaction was pure shock at the prices.",  # emotional "reaction", no allergy
        "Bug bites all over my legs, itchy and swollen after sitting on the patio.",  # symptoms, no allergy
        "The walnut brownie and the peanut butter cookie were both great.",  # dish names
        "We waited forty minutes for a table.",  # "nut" inside another word
        "I threw up after the oysters, the food was bad.",  # sickness that is not called an allergy
        "I did not have any allergic reaction, thankfully.",  # negated
    ],
)
def test_no_allergy_label_without_explicit_allergy_evidence(text: str) -> None:
    assert _one(G1A_FIELDS, text) == {
        "incident_severity": "none", "account_type": "none", "safety_interaction": "none",
    }  # fmt: skip


def test_allergy_phenomena() -> None:
    got = _labels(G1A_FIELDS, [
        "I have a severe shellfish allergy. My throat started closing and I had to use my EpiPen.",
        "I heard a customer had an allergic reaction here and ended up in the ER.",
        "If you have a nut allergy, be careful here.",
        "The waiter rolled his eyes when I mentioned my nut allergy.",
        "I asked about my sesame allergy and the server checked with the chef; it worked out perfectly.",
    ])  # fmt: skip
    assert got == [
        {"incident_severity": "severe", "account_type": "firsthand", "safety_interaction": "none"},
        {"incident_severity": "severe", "account_type": "secondhand", "safety_interaction": "none"},
        {"incident_severity": "none", "account_type": "hypothetical", "safety_interaction": "none"},
        {"incident_severity": "none", "account_type": "none", "safety_interaction": "negative"},
        {"incident_severity": "none", "account_type": "none", "safety_interaction": "positive"},
    ]


def test_stating_the_condition_without_an_event_is_a_concern() -> None:
    assert _one(G1A_FIELDS, "I have a dairy allergy, so I ordered the salad.")["account_type"] == "hypothetical"
    assert _one(G1A_FIELDS, "I'm allergic to shellfish and I broke out in hives.")["account_type"] == "firsthand"
    assert _one(G1A_FIELDS, "My sister has a dairy allergy.")["account_type"] == "none"  # not the speaker
    assert _one(G1A_FIELDS, "Do I have a nut allergy?")["account_type"] == "none"  # a question asserts nothing


def test_betrayal_needs_the_emphasized_claim() -> None:
    claimed = "The server assured me the curry had no peanuts. I still had an allergic reaction an hour later."
    unclaimed = "The server brought the curry. I had an allergic reaction an hour later."
    assert _one(G1A_FIELDS, claimed)["safety_interaction"] == "betrayal"
    assert _one(G1A_FIELDS, unclaimed)["safety_interaction"] == "none"


def test_hypothetical_and_figurative_clauses_do_not_fire() -> None:
    assert _one(G1A_FIELDS, "If I had a nut allergy I would have broken out in hives.")["incident_severity"] == "none"
    assert _one(G1A_FIELDS, "Kidding, my nut allergy gave me hives of joy.")["incident_severity"] == "none"


# --- a diet task: X-free is a mention, dish names are not, examples with a kind are slots -----------------------


def test_x_free_is_a_topic_mention_not_a_negation() -> None:
    assert _one(DIET_FIELDS, "The gluten-free pasta was delicious.") == {
        "topic": "gluten_free", "outcome": "good", "whose": "none",
    }  # fmt: skip
    assert _one(DIET_FIELDS, "They have a dairy free cheese now.")["topic"] == "dairy_free"


def test_dish_names_listed_by_the_null_value_are_not_the_subject() -> None:
    assert _one(DIET_FIELDS, "The veggie pizza was great, and so was the soy sauce.") == {
        "topic": "none", "outcome": "none", "whose": "none",
    }  # fmt: skip


def test_an_example_naming_one_kind_stands_for_every_kind() -> None:
    assert _one(DIET_FIELDS, "There are no gluten free options at all.")["outcome"] == "poor"
    assert _one(DIET_FIELDS, "Sadly there are no vegan options.")["outcome"] == "poor"


def test_topic_is_the_kind_the_review_says_most_about() -> None:
    text = "I'm vegan. The vegan chili and the vegan cookies were great, and they even have a gluten-free bun."
    assert _one(DIET_FIELDS, text)["topic"] == "plant_based"


def test_whose_experience_follows_the_voice_and_abstains_otherwise() -> None:
    got = _labels(DIET_FIELDS, [
        "I am vegan and I ordered the tofu bowl, which was amazing.",
        "Lots of vegan options.",
        "My celiac son loved the gluten free pancakes.",
        "A vegan cafe.",
    ])  # fmt: skip
    assert [g["whose"] for g in got] == ["firsthand", "general", "firsthand", "none"]
    assert [g["topic"] for g in got] == ["plant_based", "plant_based", "gluten_free", "plant_based"]


def test_incident_needs_someone_getting_sick_and_praise_is_never_one() -> None:
    sick = "I ordered the vegetarian burger and it had bacon in it. I got sick that night."
    praise = "I ordered the vegetarian burger and it was incredible. Best vegan food in town."
    assert _one(DIET_FIELDS, sick)["outcome"] == "incident"
    assert _one(DIET_FIELDS, praise)["outcome"] == "good"


# --- other domains: it works from the seed alone ------------------------------------------------------------------

NOISE = [FieldSpec(name="noise_level", values={
    "none": "No noise mentioned",
    "loud": "Too loud to talk ('could not hear', 'had to shout')",
    "quiet": "Pleasantly quiet (calm, peaceful)",
})]  # fmt: skip


def test_noise_seed_with_a_perspective_field() -> None:
    fields = NOISE + [FieldSpec(name="source", values={
        "none": "No noise complaint",
        "own_visit": "Reviewer's own visit ('we could not hear each other')",
        "hearsay": "Reported by others ('I heard it gets loud')",
    })]  # fmt: skip
    rules = compile_rules(fields)
    assert rules.fields[1].kind == "perspective"
    assert [v.perspective for v in rules.fields[1].values] == ["self", "reported"]
    got = _labels(fields, [
        "The music was so loud we had to shout across the table.",
        "My coworker told me it gets really noisy on Fridays, so we went on a Tuesday.",
        "Great tacos and friendly staff.",
        "We could barely hear each other over the music.",
        "A calm, peaceful spot for a quiet dinner.",
    ])  # fmt: skip
    assert got == [
        {"noise_level": "loud", "source": "own_visit"},
        {"noise_level": "loud", "source": "hearsay"},
        {"noise_level": "none", "source": "none"},
        {"noise_level": "loud", "source": "own_visit"},
        {"noise_level": "quiet", "source": "own_visit"},
    ]


def test_compiled_rules_come_from_the_descriptions() -> None:
    rules = compile_rules(G1A_FIELDS)
    assert {c.concept for c in rules.domain} == {"allergic", "allergy"}  # shared by two null descriptions
    sev, acc, saf = rules.fields
    assert (sev.kind, acc.kind, saf.kind) == ("content", "perspective", "content")
    assert [c.label() for c in saf.gate][:1] == ["staff"]  # the participant of "No staff interaction …"
    assert [c.label() for c in saf.values[2].required[0]][:3] == ["claim", "assure", "promise"]  # "CLAIMED"
    diet = compile_rules(DIET_FIELDS)
    assert [f.kind for f in diet.fields] == ["subject", "content", "perspective"]
    assert [c.label() for c in diet.fields[0].masks] == ["veggie pizza", "soy sauce"]


# --- robustness (untrusted input) ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_ok_enum_labels_and_verbatim_quotes(text: str) -> None:
    for fields in (G1A_FIELDS, DIET_FIELDS):
        r = OfflineExtractor().extract(fields, [ReviewInput("b", "r", text)])[0]
        assert r.status == "ok"
        for f in fields:
            assert r.values[f.name] in f.values
        for ev in r.evidence.values():
            assert ev.quote in text and ev.cue


words = st.sampled_from(
    "no not staff loud quiet I my heard told concern without AND BUT hives allergy reaction ER ( ) ' , e.g. "
    "vegan gluten-free free other general menu options".split()
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.from_regex(r"[a-z]{1,8}", fullmatch=True), st.lists(words, max_size=12).map(" ".join),
            min_size=1, max_size=5,
        ),
        min_size=1, max_size=3,
    ),
    st.lists(words, max_size=40).map(" ".join),
)  # fmt: skip
def test_arbitrary_field_specs_compile_and_label_within_the_enum(specs: list[dict[str, str]], text: str) -> None:
    fields = [FieldSpec(name=f"f{i}", values=v) for i, v in enumerate(specs)]
    r = label_review(compile_rules(fields), ReviewInput("b", "r", text))
    if r.status == "ok":
        assert all(r.values[f.name] in f.values for f in fields)
    else:
        assert r.status == "invalid" and r.values == {} and "no cue fired" in (r.error or "")


def test_long_input_is_cut_not_exhausting() -> None:
    text = ("The patio is nice and the tea is hot. " * 600) + "I have a nut allergy and had to use my EpiPen."
    assert len(text) > MAX_TEXT_CHARS
    assert _one(G1A_FIELDS, text)["incident_severity"] == "none"  # the EpiPen sentence lies beyond the cut
    assert _one(G1A_FIELDS, text[-60:])["incident_severity"] == "severe"


def test_g1a_reviews_all_labelled_within_the_enum(g1a: Path) -> None:
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text(encoding="utf-8"))
    fields = [FieldSpec(**f) for f in seed["extract"]["fields"]]
    reviews = [json.loads(x) for x in (g1a / "reviews.jsonl").read_text(encoding="utf-8").splitlines()[:300]]
    res = OfflineExtractor().extract(fields, [ReviewInput(o["business_id"], o["review_id"], o["text"]) for o in reviews])
    assert len(res) == 300 and all(r.ok for r in res)
    for r, o in zip(res, reviews, strict=True):
        for name, ev in r.evidence.items():
            assert r.values[name] != "none" and ev.quote in o["text"] and ev.cue


TERSE_DIET = [
    FieldSpec(name="topic", values={
        "none": "No dietary restriction discussed", "plant_based": "Vegan or vegetarian diet",
        "gluten_free": "Gluten-free or celiac needs", "allergy": "Food allergy (nuts, shellfish, etc.)",
    }),
    FieldSpec(name="outcome", values={
        "none": "No accommodation outcome described",
        "accommodated": "The restaurant successfully accommodated the dietary need",
        "refused": "Staff refused or were dismissive",
        "incident": "Customer was served food violating their restriction or got sick",
    }),
]  # fmt: skip


def test_acts_of_every_visit_and_the_place_are_no_evidence() -> None:
    rules = compile_rules(TERSE_DIET)
    assert rules.fields[0].kind == "subject"  # named by its field ("topic"), even without a shared word in values
    outcome = {v.name: {c.concept for a in v.alternatives for cl in a.clauses for c in cl} for v in rules.fields[1].values}
    assert "serve" not in outcome["incident"] and "food" not in outcome["incident"]
    assert "restaurant" not in outcome["accommodated"] and "refuse" in outcome["refused"]
    assert _one(TERSE_DIET, "I was served a vegan bowl and the food was fine.")["outcome"] == "none"
    assert _one(TERSE_DIET, "The vegan menu was tiny and the server refused to swap the cheese.")["outcome"] == "refused"
    assert _one(TERSE_DIET, "They happily accommodated my gluten-free order.")["outcome"] == "accommodated"
