"""Building evidence over datasets: G1a and the mini fixture with the offline and replay extractors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dinecheck import load_dataset, make_extractor
from dinecheck.allergens.ontology import ALLERGEN_CODES
from dinecheck.errors import ExtractionError
from dinecheck.extract.base import ExtractionResult, ExtractionStats
from dinecheck.risk.build import EvidenceIndex, allergy_fields, build_evidence, provenance_of
from dinecheck.risk.evidence import LEVELS

IN_WORD = re.compile(r"\w(?:nut|peanut)|(?:nut|peanut)(?!s\b)\w", re.IGNORECASE)


@pytest.fixture(scope="module")
def g1a_offline(g1a: Path) -> tuple[object, EvidenceIndex]:
    ds, _ = load_dataset(g1a)
    index, report = build_evidence(ds, make_extractor("offline"))
    assert report.restaurants == 100 and report.reviews == 2500
    return ds, index


def test_g1a_every_restaurant_and_allergen_has_a_level(g1a_offline) -> None:
    _, index = g1a_offline
    assert len(index.by_restaurant) == 100
    for per in index.by_restaurant.values():
        assert tuple(per) == ALLERGEN_CODES
        assert all(e.level in LEVELS and e.reviews_read == 25 for e in per.values())


def test_g1a_no_incident_from_allergen_words_inside_other_words(g1a_offline) -> None:
    ds, index = g1a_offline
    texts = {r.review_id: r.text for rs in ds.reviews.values() for r in rs}
    for per in index.by_restaurant.values():
        for code in ("PEANUT", "TREE_NUTS"):
            e = per[code]
            if e.level != "incidents_reported":
                continue
            for rid in e.review_ids:  # a deciding review names the allergen as a whole word
                words = {w.lower() for w in re.findall(r"[A-Za-z]+", texts[rid])}
                assert words & {"nut", "nuts", "peanut", "peanuts", "almond", "almonds", "walnut", "walnuts", "pecan",
                                "pecans", "cashew", "cashews", "pistachio", "pistachios", "hazelnut", "hazelnuts"}, rid
    # and no review whose only nut/peanut occurrences are inside other words is relevant or exposure
    only_inside = {rid for rid, t in texts.items() if IN_WORD.search(t) and not re.search(r"\b(nuts?|peanuts?)\b", t, re.IGNORECASE)}
    assert only_inside, "the G1a data has such reviews (minutes, donut)"
    for per in index.by_restaurant.values():
        for code in ("PEANUT",):
            assert not set(per[code].review_ids) & only_inside


def test_g1a_dish_mentions_make_handles_allergen(g1a_offline) -> None:
    ds, index = g1a_offline
    texts = {r.review_id: r.text for rs in ds.reviews.values() for r in rs}
    handles = [e for per in index.by_restaurant.values() for e in per.values() if e.level == "handles_allergen"]
    assert handles
    for e in handles:
        assert e.exposure_mentions == len(e.review_ids) >= 1 and e.exposure_terms
        assert e.relevant_reviews >= e.exposure_mentions
        for q in e.quotes:
            assert q.text in texts[q.review_id]


def test_g1a_no_relevant_review_is_never_a_low_risk_level(g1a_offline) -> None:
    _, index = g1a_offline
    for per in index.by_restaurant.values():
        for e in per.values():
            if e.relevant_reviews == 0:
                assert e.level == "insufficient_evidence" and e.review_ids == ()
                assert "safe" not in e.summary.lower() and "low risk" not in e.summary.lower()


def test_mini_with_offline_extractor_levels_that_do_not_depend_on_the_extractor(mini: Path) -> None:
    ds, _ = load_dataset(mini)
    index, _ = build_evidence(ds, make_extractor("offline"), codes=("PEANUT", "TREE_NUTS"))
    per = index.by_restaurant
    assert per["rm-bakery"]["PEANUT"].level == "handles_allergen"
    assert per["rm-bakery"]["PEANUT"].exposure_terms == ("peanut butter",)
    assert per["rm-bakery"]["TREE_NUTS"].exposure_terms == ("almond",)
    for code in ("PEANUT", "TREE_NUTS"):  # "minutes", "donut", "nutmeg" only
        assert per["rm-donut"][code].level == "insufficient_evidence"
        assert per["rm-donut"][code].summary == f"no review about a {'peanut' if code == 'PEANUT' else 'tree nuts'} allergy (3 read)"
    assert per["rm-unknown"]["PEANUT"].level == "insufficient_evidence"


def test_mini_with_replayed_labels_every_level(mini: Path) -> None:
    ds, _ = load_dataset(mini)
    index, report = build_evidence(ds, make_extractor(f"replay:{mini / 'labels.jsonl'}"), codes=("PEANUT",))
    assert (report.allergy_reviews, report.extracted, report.failed) == (5, 5, 0)
    levels = {b: per["PEANUT"].level for b, per in index.by_restaurant.items()}
    assert levels == {
        "rm-bakery": "handles_allergen", "rm-donut": "insufficient_evidence", "rm-careful": "incidents_reported",
        "rm-aware": "accommodating", "rm-quiet": "no_reports", "rm-unknown": "insufficient_evidence",
    }  # fmt: skip
    careful = index.by_restaurant["rm-careful"]["PEANUT"]
    assert careful.summary == ("1 firsthand reaction (moderate; 2020); staff said a dish was safe and the diner reacted "
                               "once")  # fmt: skip
    assert careful.review_ids == ("rm-careful-r0",)


def test_missing_replay_labels_are_unread(mini: Path, tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("")
    ds, _ = load_dataset(mini)
    index, report = build_evidence(ds, make_extractor(f"replay:{tmp_path / 'empty.jsonl'}"), codes=("PEANUT",))
    assert report.failed == 5
    careful = index.by_restaurant["rm-careful"]["PEANUT"]
    assert (careful.level, careful.unread_reviews) == ("insufficient_evidence", 1)


class _Short:
    name = "short"

    def __init__(self) -> None:
        self.stats = ExtractionStats()

    def extract(self, fields, reviews):  # type: ignore[no-untyped-def]
        return [ExtractionResult(r.business_id, r.review_id, "ok", {}) for r in reviews][:-1]

    def close(self) -> None:
        pass


def test_an_extractor_returning_too_few_results_is_an_error(mini: Path) -> None:
    ds, _ = load_dataset(mini)
    with pytest.raises(ExtractionError, match="returned 4 results for 5 reviews"):
        build_evidence(ds, _Short(), codes=("PEANUT",))


def test_provenance_names_the_extractor_source_and_fields(mini: Path) -> None:
    p = provenance_of(make_extractor(f"replay:{mini / 'labels.jsonl'}"), allergy_fields())
    assert re.fullmatch(r"replay:labels\.jsonl:[0-9a-f]{12}", p)
    assert provenance_of(make_extractor("offline"), allergy_fields()).startswith("offline:")


def test_allergy_seed_of_an_allergen_is_a_runnable_word_filter_seed(mini: Path) -> None:
    from dinecheck.formula import compile_seed
    from dinecheck.risk.build import allergy_seed

    seed = compile_seed(allergy_seed("PEANUT"))
    assert seed.seed.filter.match == "word" and "peanut butter" in seed.seed.filter.keywords
    ds, _ = load_dataset(mini)
    assert seed.filter_reviews(ds.reviews_of("rm-donut")) == []
    assert [r.review_id for r in seed.filter_reviews(ds.reviews_of("rm-bakery"))] == ["rm-bakery-r0"]
