"""The seed keyword filter's two match modes and the whole-word phrase matcher shared with ``risk``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.errors import SeedError
from dinecheck.formula import compile_seed
from dinecheck.formula.filter import KeywordFilter, PhraseMatcher, fold


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a nut allergy", True),
        ("Nut-free bakery", True),
        ("NUT.", True),
        ("we waited ten minutes", False),
        ("a glazed donut", False),
        ("nutmeg latte", False),
        ("peanuts", False),
    ],
)
def test_word_mode_matches_whole_words_only(text: str, expected: bool) -> None:
    assert KeywordFilter(["nut"], "word").matches(text) is expected


def test_substring_mode_is_still_the_default() -> None:
    kf = KeywordFilter(["nut"])
    assert kf.match == "substring"
    assert kf.matches("a glazed donut") and kf.matches("ten minutes")


def test_word_mode_phrases_match_across_hyphens_and_case() -> None:
    kf = KeywordFilter(["peanut butter", "EpiPen"], "word")
    assert kf.found("PEANUT-BUTTER cookies; used my epipen") == ["peanut butter", "epipen"]
    assert kf.found("peanut buttery") == []


def test_fold_keeps_one_character_per_character() -> None:
    text = "Crème brûlée – naïve İstanbul café’s"
    assert len(fold(text)) == len(text)
    assert fold("Crème-Brûlée") == "creme brulee"
    assert fold("café’s") == "cafe's"


@given(st.lists(st.sampled_from(["nut", "pea", "egg", "milk", "a b"]), min_size=1, max_size=4),
       st.text(alphabet="nutpeagmilkb -.,A", max_size=40))
def test_word_mode_equals_the_regex_definition(keywords: list[str], text: str) -> None:
    expected = any(re.search(rf"(?<![^\W_]){re.escape(fold(k))}(?![^\W_])", fold(text)) for k in keywords)
    assert KeywordFilter(keywords, "word").matches(text) == expected


@given(st.text(max_size=60))
def test_phrase_hits_point_at_the_keyword_in_the_original_text(text: str) -> None:
    m = PhraseMatcher([("nut", 1), ("egg", 2)])
    for h in m.iter_hits(text):
        assert fold(text[h.start : h.end]) == h.keyword
        assert h.start == 0 or not fold(text)[h.start - 1].isalnum()


def test_seed_filter_match_word_is_used_by_the_engine(g1a: Path) -> None:
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text())
    plain = compile_seed(seed)
    seed["filter"]["match"] = "word"
    worded = compile_seed(seed)
    assert plain.keyword_filter.matches("ten minutes") and not worded.keyword_filter.matches("ten minutes")


def test_seed_filter_match_rejects_other_values(g1a: Path) -> None:
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text())
    seed["filter"]["match"] = "regex"
    with pytest.raises(SeedError) as exc:
        compile_seed(seed)
    assert "/filter/match" in str(exc.value) and "'substring' or 'word'" in str(exc.value)
