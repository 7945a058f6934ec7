"""Tests of the review reader: sentences and offsets, lemmas, negation scope, irrealis clauses, voice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.extract.offline_text import lemma, split_sentences, tokenize


def _negated(text: str) -> list[str]:
    return [t.lower for t in tokenize(text) if t.negated]


def _irrealis(text: str) -> set[str]:
    return {t.lower for s in split_sentences(text) for t in s.words if t.irrealis}


def test_lemmas_join_inflections() -> None:
    assert [lemma(w) for w in ("allergies", "vegans", "swelling", "accommodated", "children", "reactions")] == [
        "allergy", "vegan", "swell", "accommodate", "child", "reaction",
    ]  # fmt: skip
    assert lemma("er") == "er" and lemma("911") == "911"


def test_negation_scope_stops_at_a_boundary_and_after_three_words() -> None:
    assert _negated("I did not like the soup, but the bread was good.") == ["like", "the", "soup"]
    assert _negated("There are no gluten free options here") == ["gluten", "free", "options"]
    assert _negated("Nobody on the staff cared about it at all") == ["on", "the", "staff", "cared", "about", "it", "at", "all"]
    assert _negated("We could barely hear each other") == ["hear", "each", "other"]


def test_x_free_is_not_a_negation() -> None:
    assert _negated("The gluten-free pasta and the nut free cake") == []
    assert [t.lemma for t in tokenize("gluten-free") if t.is_word] == ["gluten", "free"]


def test_irrealis_is_marked_per_clause() -> None:
    assert _irrealis("If you have an allergy, ask first.") == {"if", "you", "have", "an", "allergy", "ask", "first"}
    assert _irrealis("I asked if it had nuts.") == set()  # an indirect question
    assert _irrealis("The waiter said it would be safe.") == set()  # reported, not hypothetical
    assert _irrealis("He wouldn't change the dish.") == set()  # a refusal that happened
    assert _irrealis("I would avoid it, the food was fine.") == {"i", "would", "avoid", "it"}
    assert _irrealis("At another restaurant I got sick.") == {"at", "another", "restaurant", "i", "got", "sick"}


def test_sentence_voice_and_offsets() -> None:
    text = "I heard it gets loud. My coworker told me so!  Lots of options.\nDon't go here if you're vegan."
    ss = split_sentences(text)
    assert [text[s.start : s.end] for s in ss] == [
        "I heard it gets loud.", "My coworker told me so!", "Lots of options.", "Don't go here if you're vegan.",
    ]  # fmt: skip
    assert [s.reported for s in ss] == [True, True, False, False]
    assert [s.first_person for s in ss] == [True, True, False, False]
    assert [s.addressed for s in ss] == [False, False, False, True]
    assert split_sentences("I'm only kidding about the hives.")[0].figurative


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=300))
def test_sentences_are_verbatim_non_overlapping_slices(text: str) -> None:
    last = 0
    for s in split_sentences(text):
        assert last <= s.start < s.end <= len(text)
        assert text[s.start : s.end].strip() == text[s.start : s.end]
        last = s.end
