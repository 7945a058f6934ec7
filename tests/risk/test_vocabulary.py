"""The ontology-generated review vocabulary: whole words, exposure vs allergy context, negation, false friends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.risk.vocabulary import Vocabulary


def test_filter_of_an_allergen_holds_its_names_in_five_languages_and_the_allergy_words(vocab: Vocabulary) -> None:
    kw = vocab.filter_keywords("PEANUT")
    assert {"peanut", "peanuts", "peanut butter", "arachide", "cacahuete", "erdnuss", "mani tostado"} <= set(kw)
    assert {"allergy", "allergic", "anaphylaxis", "epipen", "allergie", "alergia"} <= set(kw)
    assert "nut" not in vocab.names_for("PEANUT") and "nut" in vocab.names_for("TREE_NUTS")


def test_non_english_names_that_are_english_words_are_left_out(vocab: Vocabulary) -> None:
    wheat = vocab.names_for("WHEAT")
    assert "bread" in wheat and "pain" not in wheat and "pan" not in wheat
    assert "ei" not in vocab.names_for("EGG")


@pytest.mark.parametrize("text", [
    "We waited ten minutes for a donut.",
    "Minute steak and a doughnut, please.",
    "The nutmeg latte is nice.",
    "Coconuts? No, walnutty? No.",
])  # fmt: skip
def test_allergen_words_inside_other_words_are_never_found(vocab: Vocabulary, text: str) -> None:
    scan = vocab.scan(text)
    assert "PEANUT" not in scan.exposure and "TREE_NUTS" not in scan.concerned and "PEANUT" not in scan.concerned


def test_dishes_carrying_an_allergen_are_exposure_with_the_sentence(vocab: Vocabulary) -> None:
    scan = vocab.scan("Loved it. The peanut butter brownies are amazing! Try the pesto.")
    assert not scan.needs_extraction and scan.concerned == frozenset()
    assert [(m.term, m.ingredient_id, m.sentence) for m in scan.exposure["PEANUT"]] == [
        ("peanut butter", "peanut_butter", "The peanut butter brownies are amazing")
    ]
    assert [m.term for m in scan.exposure["TREE_NUTS"]] == ["pesto"]
    assert "MILK" in scan.exposure  # pesto carries milk (parmesan)


def test_a_name_inside_a_longer_name_counts_once(vocab: Vocabulary) -> None:
    scan = vocab.scan("peanut butter cups")
    assert [m.term for m in scan.exposure["PEANUT"]] == ["peanut butter"]
    assert "MILK" not in scan.exposure  # "butter" here is part of "peanut butter"


@pytest.mark.parametrize("text", [
    "A nut-free bakery.", "Everything is peanut free.", "They serve no peanuts at all.",
    "Made without any nuts.", "Gluten-free pasta and dairy free ice cream.",
])  # fmt: skip
def test_negated_or_free_names_are_not_exposure(vocab: Vocabulary, text: str) -> None:
    scan = vocab.scan(text)
    assert not {"PEANUT", "TREE_NUTS", "WHEAT", "GLUTEN", "MILK"} & set(scan.exposure)


def test_allergy_context_names_the_concerned_allergen_and_is_not_exposure(vocab: Vocabulary) -> None:
    scan = vocab.scan("I have a severe peanut allergy. They kept peanuts away from my plate. The cheese plate was great.")
    assert scan.needs_extraction
    assert scan.concerned == frozenset({"PEANUT"})
    assert "PEANUT" not in scan.exposure and [m.term for m in scan.exposure["MILK"]] == ["cheese"]
    assert scan.allergy_sentences == ("I have a severe peanut allergy",)


def test_allergen_words_that_are_not_ingredients(vocab: Vocabulary) -> None:
    assert vocab.scan("I'm celiac, so I asked.").concerned == frozenset({"GLUTEN"})
    assert "MILK" in vocab.scan("My dairy allergy was taken seriously.").concerned


def test_a_review_without_any_allergen_word_is_empty(vocab: Vocabulary) -> None:
    scan = vocab.scan("Great service and a cozy room.")
    assert (scan.needs_extraction, scan.concerned, scan.exposure) == (False, frozenset(), {})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("abcdeilnoprstu .,!-'") + [
    "nut", "peanut", "allergy", "donut", "minutes", "free", "no ", "cheese"]), max_size=30).map("".join))
def test_scan_never_fails_and_exposure_sentences_come_from_the_text(vocab: Vocabulary, text: str) -> None:
    scan = vocab.scan(text)
    for mentions in scan.exposure.values():
        for m in mentions:
            assert m.sentence in text
    for s in scan.allergy_sentences:
        assert s in text


@pytest.mark.parametrize("text", [
    "The sole reason I came back.", "The bass was too loud.", "Let's wrap up: spelt wrong on the menu.",
    "A bit tart. The porter was kind.", "Un pain to find parking; a pan of nachos? no.",
])  # fmt: skip
def test_everyday_senses_of_food_names_are_not_exposure(vocab: Vocabulary, text: str) -> None:
    assert not {"FISH", "WHEAT", "GLUTEN"} & set(vocab.scan(text).exposure)


def test_a_nut_allergy_concerns_peanuts_too_but_nut_dishes_are_tree_nut_exposure(vocab: Vocabulary) -> None:
    assert vocab.scan("I have a nut allergy.").concerned == frozenset({"PEANUT", "TREE_NUTS"})
    scan = vocab.scan("Their nut bread is great.")
    assert "TREE_NUTS" in scan.exposure and "PEANUT" not in scan.exposure
