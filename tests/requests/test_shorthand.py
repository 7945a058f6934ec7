"""Shorthand: parsing, printing, the round trip (hypothesis), and comparison with a request structure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.errors import ShorthandError
from dinecheck.requests import parse_request
from dinecheck.requests.shorthand import Hop, Name, Op, compare, from_structure, names_agree, parse, to_text


def test_parse_examples() -> None:
    assert parse("AND(a, OR(b, c))") == Op("AND", (Name("a"), Op("OR", (Name("b"), Name("c")))))
    assert parse("1HOP(['Alice'], 'cozy')") == Hop(1, ("Alice",), "cozy")
    assert parse(' 2HOP( ["Bob", \'Ann\' ] , "rec|dat" ) ') == Hop(2, ("Bob", "Ann"), "rec|dat")
    assert parse("NOT(x)") == Op("NOT", (Name("x"),))
    assert parse("AND") == Name("AND")  # an operator word without '(' is a name
    assert parse("OR(AND, 'two words')") == Op("OR", (Name("AND"), Name("two words")))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AND(a, b", "shorthand column 9: expected ')', found end of text"),
        ("AND(a,, b)", "shorthand column 7: unexpected ','"),
        ("AND(a) b", "shorthand column 8: unexpected text after the expression: 'b'"),
        ("1HOP('Alice', 'x')", "shorthand column 6: expected '[', found \"'\""),
        ("1HOP(['Alice'], 'x", "shorthand column 17: unterminated string"),
        ("NOT(a, b)", "shorthand column 1: NOT takes exactly one argument, got 2"),
        ("", "shorthand column 1: unexpected end of text"),
        ("AND(" * 100 + "a" + ")" * 100, "shorthand column 261: nested deeper than 64 levels"),
    ],
)
def test_parse_errors(text, message) -> None:
    with pytest.raises(ShorthandError) as info:
        parse(text)
    assert str(info.value) == message


def test_print_quotes_what_needs_quoting() -> None:
    tree = Op("AND", (Name("plain_name"), Name("has space"), Hop(2, ("O'Neil",), "a\\b")))
    assert to_text(tree) == "AND(plain_name, 'has space', 2HOP(['O\\'Neil'], 'a\\\\b'))"
    assert parse(to_text(tree)) == tree


NAME = st.text(min_size=0, max_size=8)
SH = st.recursive(
    st.one_of(st.builds(Name, NAME),
              st.builds(Hop, st.integers(1, 999), st.lists(NAME, max_size=3).map(tuple), NAME)),
    lambda kids: st.one_of(
        st.builds(Op, st.sampled_from(["AND", "OR"]), st.lists(kids, min_size=1, max_size=4).map(tuple)),
        st.builds(lambda k: Op("NOT", (k,)), kids)),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(SH)
def test_round_trip(tree) -> None:
    text = to_text(tree)
    assert parse(text) == tree
    assert to_text(parse(text)) == text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_parse_never_crashes(text) -> None:
    try:
        tree = parse(text)
    except ShorthandError:
        return
    assert parse(to_text(tree)) == tree


def leaf(aspect, **ev):
    return {"aspect": aspect, "evidence": {"kind": "review_text", "pattern": aspect, **ev}}


def structure(s):
    return parse_request({"id": "R", "structure": s}).structure


def test_from_structure_collapses_a_social_root() -> None:
    s = structure({"op": "AND", "args": [leaf("social_cozy", social_filter={"friends": ["Alice"], "hops": 1})]})
    assert to_text(from_structure(s)) == "1HOP(['Alice'], 'social_cozy')"
    s = structure({"op": "AND", "args": [leaf("a"), {"op": "OR", "args": [leaf("b"), leaf("c")]}]})
    assert to_text(from_structure(s)) == "AND(a, OR(b, c))"


def test_compare_accepts_abbreviated_names() -> None:
    s = structure({"op": "AND", "args": [leaf("takeout_no"), {"op": "OR", "args": [
        {"op": "AND", "args": [leaf("romantic_reviews"), leaf("coffee_reviews")]},
        {"op": "AND", "args": [leaf("espresso_reviews"), leaf("latte_reviews")]}]}]})
    assert compare("AND(takeout_no, OR(AND(romantic, coffee), AND(espresso, latte)))", s) == []


def test_compare_reports_shape_and_name_disagreements() -> None:
    s = structure({"op": "AND", "args": [leaf("a_x"), {"op": "OR", "args": [leaf("b"), leaf("c"), leaf("d")]}]})
    assert compare("AND(a_x, OR(b, c))", s) == [
        "/structure/args/1: shorthand has OR with 2 argument(s), the structure has OR with 3"]
    assert compare("AND(zzz, OR(b, c, d))", s) == ["/structure/args/0: shorthand names 'zzz', the structure's aspect "
                                                   "is 'a_x'"]
    assert compare("OR(a_x, AND(b, c, d))", s) == [
        "/structure: shorthand has OR with 2 argument(s), the structure has AND with 2"]
    assert compare("AND(a_x, OR(b, c", s) == ["shorthand does not parse: shorthand column 17: expected ')', found "
                                              "end of text"]
    social = structure({"op": "AND", "args": [leaf("cozy", social_filter={"friends": ["Alice"], "hops": 2})]})
    assert compare("2HOP(['Alice'], 'cozy')", social) == []
    assert compare("1HOP(['Alice'], 'cozy')", social) == [
        "/structure: shorthand has 1HOP(['Alice'], 'cozy'), the structure has 2HOP(['Alice'], 'cozy')"]


@pytest.mark.parametrize(("a", "b", "ok"), [("romantic", "romantic_reviews", True), ("cozy", "social_cozy", True),
                                              ("no_tv", "no_tv", True), ("tv", "wifi", False),
                                              ("hours_friday", "friday_hours_late", True)])
def test_names_agree(a, b, ok) -> None:
    assert names_agree(a, b) is ok
