"""The expression language: every operator and function, laziness, strict typing, bounds, hostile input, round trip."""

from __future__ import annotations

import math
import time
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.errors import ExpressionError
from dinecheck.formula import expr as E
from dinecheck.formula.expr import Fault, evaluate, parse, to_source


def ev(text: str, values: dict | None = None, review: object = None, context: dict | None = None):
    return evaluate(parse(text), values or {}, review, context)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2", 3),
        ("7 - 10", -3),
        ("3 * 4", 12),
        ("1 / 4", 0.25),
        ("-3", -3),
        ("+3", 3),
        ("- -3", 3),
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 4 - 3", 3),
        ("12 / 3 / 2", 2.0),
        ("-2 * 3", -6),
        ("1 == 1", True),
        ("1 == 1.0", True),
        ("1 != 2", True),
        ("1 < 2", True),
        ("2 <= 2", True),
        ("3 > 4", False),
        ("4 >= 5", False),
        ("'a' < 'b'", True),
        ("'x' == 'x'", True),
        ("'1' == 1", False),
        ("true == 1", False),
        ("true and false", False),
        ("true or false", True),
        ("not true", False),
        ("not false and false", False),
        ("true or false and false", True),
        ("1 if true else 2", 1),
        ("1 if false else 2", 2),
        ("1 if false else 2 if false else 3", 3),
        ("max(1, 5, 3)", 5),
        ("min(4, 2.5)", 2.5),
        ("abs(-7)", 7),
        ("log(1)", 0.0),
        ("sqrt(16)", 4.0),
        ("max(0.1, min(1.0, 1.3))", 1.0),
        ("True", True),
        ("False", False),
        (".5 + 1e1", 10.5),
        ("'it\\'s' == \"it's\"", True),
    ],
)
def test_operators_and_functions(text: str, expected: object) -> None:
    got = ev(text)
    assert got == expected and type(got) is type(expected)


def test_log_is_natural() -> None:
    assert ev("log(10)") == pytest.approx(math.log(10), abs=1e-15)


def test_names_from_every_namespace() -> None:
    review = SimpleNamespace(meta={"stars": 2, "useful": 3}, extraction={"sev": "mild"})
    values = {"N": 4}
    assert ev("(5 - meta.stars) + log(meta.useful + 1) + N", values, review) == pytest.approx(3 + math.log(4) + 4)
    assert ev("extraction.sev == 'mild'", values, review) is True
    assert ev("context.stars * 2", {}, None, {"stars": 4.5}) == 9.0


def test_if_else_is_lazy_and_short_circuits() -> None:
    assert ev("N / D if D > 0 else 0", {"N": 3, "D": 0}) == 0
    assert ev("false and 1 / 0 > 1") is False
    assert ev("true or log(0) > 1") is True


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 / 0", "division by zero (1 / 0)"),
        ("log(0)", "log() of a non-positive number (0)"),
        ("log(-1)", "log() of a non-positive number (-1)"),
        ("sqrt(-4)", "sqrt() of a negative number (-4)"),
        ("'a' + 'b'", "'+' needs a number, got string 'a'"),
        ("'ab' * 3", "'*' needs a number, got string 'ab'"),
        ("true + 1", "'+' needs a number, got boolean True"),
        ("-'a'", "unary '-' needs a number, got string 'a'"),
        ("1 and true", "'and' needs a boolean (true/false), got number 1"),
        ("not 0", "'not' needs a boolean (true/false), got number 0"),
        ("1 if 1 else 2", "the condition of 'if' needs a boolean (true/false), got number 1"),
        ("1 < 'a'", "cannot compare number 1 < string 'a'"),
        ("max(1, 'a')", "max() needs a number, got string 'a'"),
        ("1e300 * 10", "the product is out of range; numbers are limited to ±1e300"),
        ("9000000000000000000 * 9000000000000000000 * 9000000000000000000 * 9000000000000000000 * 9000000000000000000"
         " * 9000000000000000000 * 9000000000000000000 * 9000000000000000000 * 9000000000000000000 * 9000000000000000000"
         " * 9000000000000000000 * 9000000000000000000 * 9000000000000000000 * 9000000000000000000 * 9000000000000000000"
         " * 9000000000000000000 * 9000000000000000000", "the product is out of range; numbers are limited to ±1e300"),
    ],
)
def test_runtime_faults(text: str, message: str) -> None:
    with pytest.raises(Fault) as exc:
        ev(text)
    assert exc.value.reason == message


def test_missing_review_value_is_a_fault_not_a_default() -> None:
    review = SimpleNamespace(meta={"useful": None}, extraction={})
    with pytest.raises(Fault, match="'\\+' needs a number, got null None"):
        ev("meta.useful + 1", {}, review)
    with pytest.raises(Fault, match="meta.stars is a per-review value"):
        ev("meta.stars + 1")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the expression is empty"),
        ("1 +", "column 4: unexpected end of the expression"),
        ("(1 + 2", "column 7: expected ')', found the end of the expression"),
        ("1 2", "column 3: unexpected '2'"),
        ("2 ** 3", "column 3: '**' (power) is not part of the expression language; use multiplication"),
        ("7 // 2", "column 3: '//' (floor division) is not part of the expression language; use '/'"),
        ("a = 1", "column 3: '=' is not an operator; write '==' to compare"),
        ("a % 2", "column 3: unexpected character '%'"),
        ("a && b", "column 3: unexpected character '&'; write 'and', 'or', 'not'"),
        ("foo(1)", "column 1: unknown function 'foo'; only max, min, abs, log and sqrt can be called"),
        ("max(1)", "column 1: max() takes at least 2 arguments, got 1"),
        ("abs(1, 2)", "column 1: abs() takes exactly 1 argument, got 2"),
        ("x.y", "column 2: attribute access is not allowed ('x.'); only extraction., meta. and context. names exist"),
        ("meta.user.name", "column 10: nested fields are not supported ('meta.user.')"),
        ("meta", "column 1: 'meta' must be followed by '.' and a field name"),
        ("meta.", "column 6: expected a field name after 'meta.'"),
        ("1 < 2 < 3", "column 7: comparisons cannot be chained; combine them with 'and'"),
        ("1 if true", "column 10: expected 'else' after the condition, found the end of the expression"),
        ("'abc", "column 1: unterminated string literal"),
        ("'a\\qb'", "column 3: unknown escape \\q in string literal"),
        ("12abc", "column 1: invalid number literal '12a'"),
        ("1e999", "column 1: number literal 1e999 is out of range (at most 1e300)"),
        ("99999999999999999999", "column 1: integer literal 99999999999999999999 is out of range (below 2**63)"),
        ("$IS_INCIDENT", "column 1: filters ($NAME) can only be used as 'where' keys, not inside expressions"),
        ("x[0]", "column 2: unexpected character '['"),
        ("lambda: 1", "column 7: unexpected character ':'"),
        ("else", "column 1: unexpected keyword 'else'"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ExpressionError) as exc:
        parse(text)
    assert str(exc.value) == message


# ---------------------------------------------------------------------------------------------------------- hostile


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("__import__('os').system('touch /tmp/dinecheck-pwned')",
         "column 1: unknown function '__import__'; only max, min, abs, log and sqrt can be called"),
        ("().__class__", "column 1: empty parentheses: expected an expression"),
        ("(1).__class__", "column 4: attribute access is not allowed"),
        ("10**10**10", "column 3: '**' (power) is not part of the expression language; use multiplication"),
        ("(" * 50_000 + "1" + ")" * 50_000, "the expression is 100001 characters long; the limit is 10000"),
        ("(" * 4_000 + "1" + ")" * 4_000, "column 65: the expression is nested more than 64 levels deep"),
        ("-" * 5_000 + "1", "column 64: the expression is nested more than 64 levels deep"),
        ("not " * 2_000 + "true", "column 253: the expression is nested more than 64 levels deep"),
        ("+".join(["1"] * 300), "the expression tree is more than 200 levels high; split it into several steps"),
        ("'" + "x" * 20_000_000 + "'", "the expression is 20000002 characters long; the limit is 10000"),
    ],
)
def test_hostile_expressions_end_in_a_clear_error(text: str, message: str) -> None:
    start = time.perf_counter()
    with pytest.raises(ExpressionError) as exc:
        parse(text)
    assert str(exc.value) == message
    assert time.perf_counter() - start < 5  # a generous sanity bound; the point is the error, not the timing


def test_no_side_effects_from_hostile_text(tmp_path) -> None:
    marker = tmp_path / "pwned"
    with pytest.raises(ExpressionError):
        ev(f"__import__('os').system('touch {marker}')")
    assert not marker.exists()


# ---------------------------------------------------------------------------------------------------------- round trip


def test_printer_examples() -> None:
    cases = {
        "(5 - meta.stars) + log(meta.useful + 1)": "5 - meta.stars + log(meta.useful + 1)",
        "a - (b - c)": "a - (b - c)",
        "(a if b else c) if d else e": "(a if b else c) if d else e",
        "not (a and b)": "not (a and b)",
        "-(a + b)": "-(a + b)",
        "(a < b) == c": "(a < b) == c",
        "'x\\ny'": "'x\\ny'",
    }
    for src, printed in cases.items():
        assert to_source(parse(src)) == printed
        assert parse(printed) == parse(src)


_idents = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True).filter(lambda s: s not in E.KEYWORDS | set(E.NAMESPACES))
_leaf = st.one_of(
    st.integers(min_value=0, max_value=10**12).map(E.Num),
    st.floats(min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False).map(E.Num),
    st.text(max_size=8).map(E.Str),
    st.booleans().map(E.Bool),
    _idents.map(lambda n: E.Name(None, n)),
    st.tuples(st.sampled_from(E.NAMESPACES), _idents).map(lambda t: E.Name(t[0], t[1])),
)


def _extend(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.tuples(st.sampled_from(["-", "+", "not"]), children).map(lambda t: E.Unary(t[0], t[1])),
        st.tuples(st.sampled_from([*E.ARITHMETIC, *E.COMPARISONS, "and", "or"]), children, children).map(
            lambda t: E.Binary(*t)
        ),
        st.tuples(children, children, children).map(lambda t: E.IfElse(*t)),
        st.tuples(st.sampled_from(["abs", "log", "sqrt"]), children).map(lambda t: E.Call(t[0], (t[1],))),
        st.tuples(st.sampled_from(["max", "min"]), st.lists(children, min_size=2, max_size=4)).map(
            lambda t: E.Call(t[0], tuple(t[1]))
        ),
    )


_trees = st.recursive(_leaf, _extend, max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(_trees)
def test_print_then_parse_gives_the_same_ast(tree: E.Node) -> None:
    # Python-level unary minus on a literal is printed as "-<literal>" and parsed back as Unary: the same tree.
    if E.height(tree) > E.MAX_HEIGHT:
        return
    assert parse(to_source(tree)) == tree


_alphabet = st.sampled_from(list("abcxyz_019 .,()+-*/<>=!'\"\\$%&|[]{}:\n\té") + ["if", "else", "and", "or", "not", "max", "meta", "**"])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_alphabet, max_size=40).map("".join)))
def test_parser_never_crashes(text: str) -> None:
    try:
        tree = parse(text)
    except ExpressionError as exc:
        assert str(exc)
        return
    assert parse(to_source(tree)) == tree
    try:
        evaluate(tree, {}, SimpleNamespace(meta={}, extraction={}), {})
    except Fault as f:
        assert f.reason
