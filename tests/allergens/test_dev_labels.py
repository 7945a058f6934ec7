"""The shipped ontology + pipeline on the real labels of ../shared/data/allergen_labels/dev.jsonl.

* Recall: every allergen and trace the label lists is detected (GLUTEN also accepts WHEAT and vice versa,
  SHELLFISH/MOLLUSCS accept each other) — 100%, except the TAG_CONFLICTS below, where the source's tag names an
  allergen that the label text does not mention at all (checked: each of them is in fact undetected; when the
  pipeline starts detecting one, the entry must be removed).
* Zero SAFE verdicts for any single-allergen profile a label lists (same exceptions).
* Token match rate ≥ 95% on the English and French labels.
* The share of labels listing no allergen and no trace that come out SAFE for the full profile is printed and held
  to a floor, so a regression fails.
"""

from __future__ import annotations

import json

import pytest

from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.pipeline import PROFILE_ALL, check_label

from ..conftest import shared_file  # noqa: TID252 - the shared-data helper of the test suite

EQUIVALENT = {"GLUTEN": {"GLUTEN", "WHEAT"}, "WHEAT": {"GLUTEN", "WHEAT"}, "SHELLFISH": {"SHELLFISH", "MOLLUSCS"},
              "MOLLUSCS": {"SHELLFISH", "MOLLUSCS"}}  # fmt: skip

# (label id, allergen) → why the text cannot support the source's tag
TAG_CONFLICTS: dict[tuple[str, str], str] = {
    ("offapi-040", "EGG"): "text is 'SARDINES (SPRATTUS SPRATTUS, CLUPEA HARENGUS), WATER, SALT.' — no egg",
    ("offapi-060", "GLUTEN"): "text is 'PEANUTS, SUGAR, PALM OIL, SALT, MOLASSES' — no cereal",
    ("offapi-060", "TREE_NUTS"): "text is 'PEANUTS, SUGAR, PALM OIL, SALT, MOLASSES' — peanuts are not tree nuts",
    ("offapi-106", "FISH"): "text is 'ORGANIC EXTRA VIRGIN OLIVE OIL.' — no fish",
}
SAFE_SHARE_FLOOR = 0.0  # raised to the measured value once the ontology data is complete (see docs/allergens.md)
MATCH_RATE_FLOOR = 0.95


@pytest.fixture(scope="module")
def dev(shared_data):
    path = shared_file(shared_data, "allergen_labels/dev.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def onto():
    return load_data_dir()


def listed(label: dict) -> set[str]:
    return set(label["allergens"]) | (set(label["traces"]) if label["traces_known"] else set())


def test_every_listed_allergen_and_trace_is_detected(dev, onto) -> None:
    missed = []
    conflicts_detected = []
    for label in dev:
        found = {f.code for f in check_label(label["ingredients_text"], PROFILE_ALL, onto).findings}
        for code in sorted(listed(label)):
            hit = bool(EQUIVALENT.get(code, {code}) & found)
            if (label["id"], code) in TAG_CONFLICTS:
                if hit:
                    conflicts_detected.append((label["id"], code))
            elif not hit:
                missed.append((label["id"], code))
    total = sum(len(listed(x)) for x in dev) - len(TAG_CONFLICTS)
    print(f"\ndev.jsonl recall: {total - len(missed)}/{total} listed allergens and traces detected")
    assert missed == []
    assert conflicts_detected == [], "now detected: remove these from TAG_CONFLICTS"


def test_no_safe_verdict_for_a_listed_allergen(dev, onto) -> None:
    false_safe = []
    for label in dev:
        for code in sorted(listed(label)):
            if (label["id"], code) in TAG_CONFLICTS:
                continue
            if check_label(label["ingredients_text"], [code], onto).verdict == "SAFE":
                false_safe.append((label["id"], code))
    print(f"\ndev.jsonl false SAFE (single-allergen profiles): {len(false_safe)}")
    assert false_safe == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_token_match_rate(lang: str, dev, onto) -> None:
    processed = matched = 0
    for label in dev:
        if label["lang"] == lang:
            r = check_label(label["ingredients_text"], PROFILE_ALL, onto)
            processed += r.tokens_processed
            matched += r.tokens_matched
    rate = matched / processed
    print(f"\ndev.jsonl token match rate ({lang}): {matched}/{processed} = {rate:.3f}")
    assert rate >= MATCH_RATE_FLOOR


def test_share_of_clean_labels_that_are_safe(dev, onto) -> None:
    clean = [x for x in dev if not x["allergens"] and not (x["traces_known"] and x["traces"])]
    safe = [x["id"] for x in clean if check_label(x["ingredients_text"], PROFILE_ALL, onto).verdict == "SAFE"]
    share = len(safe) / len(clean)
    print(f"\ndev.jsonl labels with no listed allergen/trace that are SAFE for ALL: {len(safe)}/{len(clean)} = {share:.3f}")
    assert share >= SAFE_SHARE_FLOOR
