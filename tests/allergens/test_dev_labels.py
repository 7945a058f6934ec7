"""The shipped ontology + pipeline on the real labels of ../shared/data/allergen_labels/dev.jsonl.

* Recall: every allergen and trace the label lists is detected (GLUTEN also accepts WHEAT and vice versa,
  SHELLFISH/MOLLUSCS accept each other) — 100%, except the TAG_CONFLICTS below, where the source's tag names an
  allergen that the label text does not mention at all (the test prints any of them that becomes detected).
* Zero SAFE verdicts for any single-allergen profile a label lists (same exceptions).
* Measured figures (SAFE share of clean labels, token match rate) are not pinned here: ``bench/allergens_eval.py``
  prints them per fixed half of dev.jsonl (``docs/allergens_measurement.md``).
"""

from __future__ import annotations

import json

import pytest

from dinecheck.allergens.declared import Declaration, declaration_from
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.pipeline import PROFILE_ALL, check_label

from ..conftest import shared_file  # noqa: TID252 - the shared-data helper of the test suite

EQUIVALENT = {"GLUTEN": {"GLUTEN", "WHEAT"}, "WHEAT": {"GLUTEN", "WHEAT"}, "SHELLFISH": {"SHELLFISH", "MOLLUSCS"},
              "MOLLUSCS": {"SHELLFISH", "MOLLUSCS"}}  # fmt: skip

# a label listing the key is never SAFE for any of these profiles
COUNTED_WITH = {"WHEAT": {"WHEAT", "GLUTEN"}, "SHELLFISH": {"SHELLFISH", "MOLLUSCS"}, "MOLLUSCS": {"MOLLUSCS", "SHELLFISH"}}

# (label id, allergen) → why the label text cannot support the source's tag. These pairs are exempt from the recall
# and the no-false-SAFE checks (and listed in docs/allergens.md); everything else must hold at 100%.
TAG_CONFLICTS: dict[tuple[str, str], str] = {
    # the source's own tag errors: the text names no such allergen at all
    ("offapi-040", "EGG"): "'SARDINES (SPRATTUS SPRATTUS, CLUPEA HARENGUS), WATER, SALT.' — no egg",
    ("offapi-060", "GLUTEN"): "'PEANUTS, SUGAR, PALM OIL, SALT, MOLASSES' — no cereal",
    ("offapi-060", "TREE_NUTS"): "'PEANUTS, SUGAR, PALM OIL, SALT, MOLASSES' — peanuts are not tree nuts",
    ("offapi-106", "FISH"): "'ORGANIC EXTRA VIRGIN OLIVE OIL.' — no fish",
    ("offapi-142", "GLUTEN"): "vegetables, butter, cream, salt, pepper extract — no cereal",
    # traces known to the producer/source but printed nowhere in the text (no "may contain" statement)
    ("gs1-002", "GLUTEN"): "mustard label without any traces statement",
    ("gs1-023", "PEANUT"): "eel label without any traces statement",
    ("gs1-023", "SOY"): "eel label without any traces statement",
    ("offcsv-049", "TREE_NUTS"): "tomato sauce without any traces statement",
    ("offcsv-063", "MILK"): "tea drink without any traces statement",
    ("offcsv-063", "SOY"): "tea drink without any traces statement",
    ("offcsv-065", "SOY"): "konjac without any traces statement",
    ("offcsv-082", "MOLLUSCS"): "vegetable soup without any traces statement",
}
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
    print(f"\ndev.jsonl recall: {total - len(missed)}/{total} listed allergens and traces detected "
          f"(+{len(TAG_CONFLICTS)} tag conflicts exempt; of those now detected: {conflicts_detected})")  # fmt: skip
    assert missed == []


def test_no_safe_verdict_for_a_listed_allergen(dev, onto) -> None:
    """Nor for the profile of an allergen counted with it (a label listing MOLLUSCS is never SAFE for SHELLFISH, one
    listing WHEAT never SAFE for GLUTEN; a GLUTEN label may be barley, rightly SAFE for a WHEAT profile)."""
    false_safe = []
    for label in dev:
        for code in sorted(listed(label)):
            if (label["id"], code) in TAG_CONFLICTS:
                continue
            for profile in sorted(COUNTED_WITH.get(code, {code})):
                if check_label(label["ingredients_text"], [profile], onto).verdict == "SAFE":
                    false_safe.append((label["id"], profile))
    print(f"\ndev.jsonl false SAFE (single-allergen profiles): {len(false_safe)}")
    assert false_safe == []


def _declaration(label: dict) -> Declaration:
    return declaration_from(label, label["id"])


def test_with_the_declarations_every_listed_allergen_is_found_and_never_safe(dev, onto) -> None:
    """What `dinecheck allergens check --input dev.jsonl` does: the record's declared allergens/traces count too, so
    no pair needs an exemption — the tag conflicts above included."""
    missed, false_safe = [], []
    for label in dev:
        decl = _declaration(label)
        found = {f.code for f in check_label(label["ingredients_text"], PROFILE_ALL, onto, decl).findings}
        for code in sorted(listed(label)):
            if not EQUIVALENT.get(code, {code}) & found:
                missed.append((label["id"], code))
            if check_label(label["ingredients_text"], [code], onto, decl).verdict == "SAFE":
                false_safe.append((label["id"], code))
    total = sum(len(listed(x)) for x in dev)
    print(f"\ndev.jsonl with declarations: recall {total - len(missed)}/{total}, false SAFE {len(false_safe)}")
    assert missed == [] and false_safe == []
