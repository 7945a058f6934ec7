"""Suggestions for unknown label words: close known names with their canonical ingredient, none for nonsense."""

from __future__ import annotations

from dinecheck.web.suggest import Suggester


def test_a_typo_gets_the_known_name(sample_state):
    suggester = Suggester(sample_state.ontology())
    assert suggester.suggest("peanutts").names == (("peanuts", "peanut"), ("peanut", "peanut"))
    assert suggester.suggest("Mlk").names == (("milk", "milk"), ("melk", "milk"))  # the Dutch name leads to milk too


def test_nonsense_gets_nothing(sample_state):
    assert Suggester(sample_state.ontology()).suggest("qzxv").names == ()
    assert Suggester(sample_state.ontology()).suggest("  ").names == ()
