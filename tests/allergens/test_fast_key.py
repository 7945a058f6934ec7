"""The ASCII fast path of the lookup key (:func:`dinecheck.allergens.tokenize.fast_lookup_key`) equals
:func:`dinecheck.allergens.text.lookup_key` exactly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.text import lookup_key
from dinecheck.allergens.tokenize import fast_lookup_key

ASCII = "".join(map(chr, range(128)))


def test_every_ascii_character_and_pair() -> None:
    for a in ASCII:
        assert fast_lookup_key(a) == lookup_key(a), repr(a)
        for b in ASCII:
            assert fast_lookup_key(a + b) == lookup_key(a + b), repr(a + b)


def test_examples() -> None:
    assert fast_lookup_key("  Soy_Lecithin -  E322\t(`Bio`)\x1f ") == "soy lecithin e322 ('bio')"
    assert fast_lookup_key("Crème fraîche") == lookup_key("Crème fraîche") == "creme fraiche"  # not ASCII: delegated


@settings(deadline=None, max_examples=400)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_random_ascii_text(text: str) -> None:
    assert fast_lookup_key(text) == lookup_key(text)


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=20))
def test_any_text(text: str) -> None:
    assert fast_lookup_key(text) == lookup_key(text)
