"""Evidence levels, counts, deciding reviews, quotes and summaries from per-review facts (pure)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.risk.build import allergy_scorer
from dinecheck.risk.evidence import LEVELS, MIN_RELEVANT, AllergenEvidence, ReviewFacts, summarize

CTX = {"categories": "Thai, Restaurants"}


def talk(rid: str, sev: str = "none", acc: str = "none", inter: str = "none", *, codes: frozenset[str] = frozenset({"PEANUT"}),
         status: str = "ok", year: int = 2021, quote: str = "I have a peanut allergy") -> ReviewFacts:
    return ReviewFacts(rid, year, 2.0, 3, True, codes, {}, status,
                       {"incident_severity": sev, "account_type": acc, "safety_interaction": inter} if status == "ok" else {},
                       {"incident_severity": quote} if sev != "none" else {}, (quote,))  # fmt: skip


def plain(rid: str, exposure: Mapping[str, tuple[tuple[str, str], ...]] | None = None) -> ReviewFacts:
    return ReviewFacts(rid, 2020, 4.0, 0, False, frozenset(), exposure or {})


def one(facts: list[ReviewFacts], code: str = "PEANUT") -> AllergenEvidence:
    return summarize("b1", CTX, facts, [code], allergy_scorer())[code]


def test_no_relevant_review_is_insufficient_evidence_never_low_risk() -> None:
    e = one([plain("r1"), plain("r2")])
    assert (e.level, e.relevant_reviews, e.reviews_read, e.review_ids) == ("insufficient_evidence", 0, 2, ())
    assert e.summary == "no review about a peanut allergy (2 read)"
    assert e.score is not None and "cuisine prior alone" in e.score.computed_from


def test_firsthand_reactions_are_incidents_with_years_and_quotes() -> None:
    e = one([talk("r1", "moderate", "firsthand", year=2019, quote="I got hives"), talk("r2", "severe", "firsthand", year=2021),
             talk("r3", "mild", "hypothetical")])  # fmt: skip
    assert e.level == "incidents_reported"
    assert [(i.review_id, i.severity, i.year) for i in e.incidents] == [("r1", "moderate", 2019), ("r2", "severe", 2021)]
    assert e.review_ids == ("r1", "r2") and e.relevant_reviews == 3
    assert e.summary == "2 firsthand reactions (moderate/severe; 2019, 2021)"
    assert e.quotes[0].kind == "incident" and e.quotes[0].text == "I got hives"
    assert e.contract_json()["incidents"] == 2


def test_claimed_safe_then_reaction_is_an_incident_even_without_severity() -> None:
    e = one([talk("r1", inter="betrayal")])
    assert e.level == "incidents_reported" and e.staff["claimed_safe_then_reaction"] == 1 and e.review_ids == ("r1",)


def test_exposure_makes_handles_allergen_and_names_the_dishes() -> None:
    ex = {"PEANUT": (("peanut butter", "The peanut butter brownies rock"),)}
    e = one([plain("r1", ex), plain("r2", {"PEANUT": (("satay", "Satay was great"),)}), talk("r3", inter="positive")])
    assert e.level == "handles_allergen" and e.exposure_mentions == 2 and e.review_ids == ("r1", "r2")
    assert (e.relevant_reviews, e.allergy_reviews) == (3, 1)
    assert e.summary == "reviews mention peanut butter, satay (2 reviews); staff accommodated once"


def test_accommodation_needs_more_accommodated_than_dismissed() -> None:
    assert one([talk("r1", inter="positive"), talk("r2", inter="positive"), talk("r3", inter="negative")]).level == "accommodating"
    e = one([talk("r1", inter="positive"), talk("r2", inter="negative")])
    assert e.level == "no_reports" and e.summary.startswith("staff accommodated once; staff dismissive once")


def test_no_reports_needs_enough_relevant_reviews() -> None:
    few = one([talk(f"r{i}", acc="hypothetical") for i in range(MIN_RELEVANT - 1)])
    assert few.level == "insufficient_evidence" and few.summary.startswith("only 1 review about a peanut allergy")
    enough = one([talk(f"r{i}", acc="hypothetical") for i in range(MIN_RELEVANT)])
    assert enough.level == "no_reports" and enough.relevant_reviews == MIN_RELEVANT


def test_failed_extractions_are_unread_never_no_problem() -> None:
    e = one([talk("r1", status="error"), talk("r2", status="invalid")])
    assert (e.level, e.relevant_reviews, e.unread_reviews) == ("insufficient_evidence", 0, 2)
    assert "2 allergy reviews could not be read" in e.summary


def test_allergy_talk_about_another_allergen_is_not_relevant() -> None:
    e = one([talk("r1", "severe", "firsthand", codes=frozenset({"SHELLFISH"}))])
    assert e.level == "insufficient_evidence" and e.incidents == ()


def test_score_is_the_g1a_formula_over_relevant_reviews() -> None:
    e = one([talk("r1", "mild", "firsthand", year=2024)])
    assert e.score is not None
    # G1a-v2 by hand: base 2.0 + mild weight 2*(1.5-1.0) × trajectory 1.3 (all recent) × decay 1-0.15 (1 year old)
    # × credibility (5-2 stars)+log(3+1 useful) + cuisine impact Thai 2.0 × 0.5 (no silence penalty)
    expected = 2.0 + 1.0 * 1.3 * 0.85 * (3 + math.log(4)) + 1.0
    assert e.score.value == pytest.approx(expected, abs=1e-6)
    assert e.score.computed_from.startswith("G1a-v2 formula (0–20, higher = riskier) over 1 review about a peanut allergy")


def test_json_round_trip() -> None:
    e = one([talk("r1", "mild", "secondhand"), plain("r2", {"PEANUT": (("peanuts", "Peanuts on top"),)})])
    assert AllergenEvidence.from_json(e.to_json()) == e
    assert set(e.contract_json()) == {"level", "summary", "reviews_read", "relevant_reviews", "incidents",
                                      "exposure_mentions", "review_ids"}  # fmt: skip


facts_st = st.builds(
    talk, st.text("abc", min_size=1, max_size=3),
    st.sampled_from(["none", "mild", "moderate", "severe"]), st.sampled_from(["none", "firsthand", "secondhand", "hypothetical"]),
    st.sampled_from(["none", "positive", "negative", "betrayal"]), status=st.sampled_from(["ok", "ok", "error"]),
)  # fmt: skip


@given(st.lists(facts_st, max_size=8))
def test_a_level_is_always_decided_and_low_risk_needs_relevant_reviews(facts: list[ReviewFacts]) -> None:
    e = one(facts)
    assert e.level in LEVELS
    if e.level in ("no_reports", "accommodating"):
        assert e.relevant_reviews >= 1 and not e.incidents
    if e.relevant_reviews == 0:
        assert e.level == "insufficient_evidence"
    if any(f.status == "ok" and f.values["account_type"] in ("firsthand", "secondhand")
           and f.values["incident_severity"] != "none" for f in facts):  # fmt: skip
        assert e.level == "incidents_reported"
