"""Edit-distance helpers of :mod:`dinecheck.allergens.suggest`."""

from __future__ import annotations

from rapidfuzz.distance import OSA

from dinecheck.allergens.suggest import one_edit_variants


def test_one_edit_variants_are_every_string_one_edit_away() -> None:
    variants = one_edit_variants("oat")
    assert {"at", "ot", "oa", "boat", "oats", "oak", "eat", "goat", "aot", "ota"} <= variants and "oat" not in variants
    assert all(OSA.distance("oat", v) == 1 for v in variants)
    # 3 deletions, 2 swaps, 3 × 25 changes, 4 × 26 insertions of which "ooat", "oaat", "oatt" are each made twice
    assert len(variants) == 3 + 2 + 3 * 25 + 4 * 26 - 3
