"""Pattern safety (issue 10, item 4): the static backtracking check and the per-request / per-run regex budget."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.errors import EvaluationError, RequestError
from dinecheck.requests import Engine, parse_request
from dinecheck.requests.patterns import backtracking_risk
from tests.requests.conftest import build_dataset

NESTED = "nested quantifiers: a quantified part repeats inside another quantifier ({})"
OVERLAP = "a quantifier repeats alternatives that can start with the same character (alternatives 1 and 2)"


@pytest.mark.parametrize(
    ("pattern", "risk"),
    [
        ("(a|aa)+$", OVERLAP),
        ("(?:ab|a)*c", OVERLAP),
        ("(nut|nuts)+", OVERLAP),
        ("(Ab|ac)+x", OVERLAP),  # case-insensitive: A and a overlap
        ("(a+)+$", NESTED.format("+")),
        ("(\\w+\\s?)+!", NESTED.format("+")),
        ("(\\d*)*x", NESTED.format("*")),
        ("((ab)+c){2,}", NESTED.format("{2,}")),
        # linear or bounded: accepted
        ("peanut|tree nut", None),
        ("\\bnuts?\\b", None),
        ("(cat|dog)+", None),
        ("(ab?)+", None),
        ("(a{3})+", None),
        ("(x|\\w)*", None),  # one character class: deterministic
        ("colou?r", None),
        ("gluten[- ]free|celiac", None),
        (".*x.*y", None),  # polynomial, not exponential: bounded by the budget instead
        ("\\p{Ll}+", None),  # regex-module syntax is not analysed (the budget bounds it)
    ],
)
def test_backtracking_risk(pattern: str, risk: str | None) -> None:
    assert backtracking_risk(pattern) == risk


@given(st.lists(st.text("abcdefghijklmnopqrstuvwxyz0123456789 ", min_size=1, max_size=12), min_size=1, max_size=6))
def test_literal_alternations_are_always_safe(words: list[str]) -> None:
    assert backtracking_risk("|".join(words)) is None


@given(st.sampled_from(["a", "\\w", ".", "[a-z]", "(?:ab|c)"]), st.sampled_from(["+", "*", "{2,}"]),
       st.sampled_from(["+", "*", "{1,9}"]))
def test_a_variable_quantifier_inside_a_repeated_group_is_always_flagged(atom: str, inner: str, outer: str) -> None:
    assert backtracking_risk(f"(?:{atom}{inner}x?){outer}") == NESTED.format(outer)


def test_a_request_with_a_risky_pattern_is_rejected_when_loaded() -> None:
    with pytest.raises(RequestError) as ei:
        parse_request({"id": "EVIL", "structure": {"op": "AND", "args": [
            {"aspect": "evil", "evidence": {"kind": "review_text", "pattern": "(a|aa)+$"}}]}}, "r.jsonl:1")
    assert ei.value.location == "r.jsonl:1 request EVIL /structure/args/0/evidence/pattern"
    assert ei.value.reason == f"the pattern can take exponential time on some texts: {OVERLAP}; rewrite it"


def test_requests_validate_names_the_request_and_pattern(cli, tmp_path) -> None:
    from dinecheck.sample import sample_dir

    f = tmp_path / "r.jsonl"
    f.write_text('{"id": "EVIL", "structure": {"op": "AND", "args": [{"aspect": "e", "evidence": '
                 '{"kind": "review_text", "pattern": "(a|aa)+$"}}]}}\n')
    r = cli("requests", "validate", "--data", sample_dir(), "--requests", f)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith(f"error: {f}:1 request EVIL /structure/args/0/evidence/pattern: the pattern can take exponential time")


# -- the budget: total work per request and per run ---------------------------------------------------------------
SLOW = ".*x.*y.*z\\d"  # passes the static check; each search is quick, many of them are not


def many_reviews(n_restaurants: int = 20, per: int = 100):
    rs = [{"business_id": f"b{i}"} for i in range(n_restaurants)]
    revs = [{"business_id": f"b{i}", "text": "x" * 400 + "y" * 200} for i in range(n_restaurants) for _ in range(per)]
    return build_dataset(rs, revs)


def req(rid: str, pattern: str):
    return parse_request({"id": rid, "structure": {"op": "AND", "args": [
        {"aspect": "p", "evidence": {"kind": "review_text", "pattern": pattern}}]}})


def test_the_request_budget_bounds_the_total_over_all_reviews() -> None:
    ds = many_reviews()
    engine = Engine(ds, regex_timeout_s=1.0, regex_request_budget_s=0.05, regex_run_budget_s=100.0)
    with pytest.raises(EvaluationError) as ei:
        engine.match_all([req("SLOWREQ", SLOW)])
    assert ei.value.location == "request SLOWREQ /structure/args/0 (p)"
    assert ei.value.reason.startswith(f"pattern {SLOW!r} stopped on review rv")
    assert ei.value.reason.endswith(": the request's regex budget of 0.05 s is used up; use a simpler pattern")
    assert engine.index.budget.spent["SLOWREQ"] <= 0.05 + 0.02  # at most one search past the line


def test_the_run_budget_bounds_the_total_over_all_requests() -> None:
    ds = many_reviews()
    engine = Engine(ds, regex_timeout_s=1.0, regex_request_budget_s=1.0, regex_run_budget_s=0.1)
    requests = [req(f"R{i}", SLOW.replace("x", "x" * (i + 1), 1)) for i in range(5)]
    with pytest.raises(EvaluationError) as ei:
        engine.match_all(requests)
    assert ei.value.reason.endswith(": the run's regex budget of 0.1 s is used up; use a simpler pattern")
    assert ei.value.location.startswith("request R") and ei.value.location.endswith(" /structure/args/0 (p)")
    assert engine.index.budget.spent_run <= 0.1 + 0.02


def test_cheap_runs_stay_far_inside_the_budget() -> None:
    ds = many_reviews(5, 20)
    engine = Engine(ds)
    assert [r.business_id for r in engine.matches(req("OK", "x+y"))] == [f"b{i}" for i in range(5)]
    assert engine.index.budget.spent_run < 1.0
