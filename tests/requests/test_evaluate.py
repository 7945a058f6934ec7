"""Tree evaluation: the three-valued truth tables, explanations, ranking, the regex budget, and a hypothesis check
that evaluation never crashes and the short-circuit path always agrees with the full explanation."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinecheck.errors import EvaluationError
from dinecheck.requests import Engine, parse_request

VALUES = {"True": 1, "False": -1, None: 0}  # attribute value -> value of {"true": "True"}
KLEENE_AND = {(1, 1): 1, (1, 0): 0, (1, -1): -1, (0, 1): 0, (0, 0): 0, (0, -1): -1, (-1, 1): -1, (-1, 0): -1,
              (-1, -1): -1}
KLEENE_OR = {(1, 1): 1, (1, 0): 1, (1, -1): 1, (0, 1): 1, (0, 0): 0, (0, -1): 0, (-1, 1): 1, (-1, 0): 0,
             (-1, -1): -1}
KLEENE_NOT = {1: -1, 0: 0, -1: 1}


def cond(name):
    return {"aspect": name, "evidence": {"kind": "item_meta", "path": ["attributes", name], "true": "True"}}


@pytest.fixture
def table_ds(build):
    rows = []
    for i, (a, b) in enumerate(itertools.product(VALUES, VALUES)):
        attrs = {k: v for k, v in (("A", a), ("B", b)) if v is not None}
        rows.append({"business_id": f"r{i}", "attributes": attrs})
    return build(rows)


@pytest.mark.parametrize(("op", "table"), [("AND", KLEENE_AND), ("OR", KLEENE_OR)])
def test_binary_truth_tables(table_ds, op, table) -> None:
    req = parse_request({"id": "T", "structure": {"op": op, "args": [cond("A"), cond("B")]}})
    engine = Engine(table_ds)
    seen = set()
    for r, (a, b) in zip(table_ds.restaurants, itertools.product(VALUES, VALUES)):
        va, vb = VALUES[a], VALUES[b]
        assert engine.value(req, r) == table[(va, vb)]
        tree = engine.explain(req, r)
        assert [c.value for c in tree.children] == [va, vb]
        assert tree.value == table[(va, vb)]
        seen.add((va, vb))
    assert len(seen) == 9


def test_not_truth_table(table_ds) -> None:
    req = parse_request({"id": "T", "structure": {"op": "NOT", "args": [cond("A")]}})
    engine = Engine(table_ds)
    for r, (a, _) in zip(table_ds.restaurants, itertools.product(VALUES, VALUES)):
        assert engine.value(req, r) == KLEENE_NOT[VALUES[a]]


def test_match_needs_exactly_plus_one(table_ds) -> None:
    req = parse_request({"id": "T", "structure": {"op": "OR", "args": [cond("A"), cond("B")]}})
    matched = [r.business_id for r in Engine(table_ds).matches(req)]
    # OR is +1 when either is "True": (T,*) and (*,T) -> r0, r1, r2, r3, r6
    assert matched == ["r0", "r1", "r2", "r3", "r6"]


def test_explain_tree_and_rank(build) -> None:
    ds = build([{"business_id": "x", "attributes": {"A": "True", "B": "False"}},
                {"business_id": "y", "attributes": {"A": "True", "B": "True"}},
                {"business_id": "z", "attributes": {}}])
    req = parse_request({"id": "T", "structure": {"op": "AND", "args": [
        cond("A"), {"op": "NOT", "args": [cond("B")]}]}})
    engine = Engine(ds)
    tree = engine.explain(req, ds.restaurants[0])
    assert tree.to_dict() == {
        "pointer": "/structure", "op": "AND", "value": 1, "args": [
            {"pointer": "/structure/args/0", "aspect": "A", "value": 1, "condition": "attribute attributes.A is 'True'",
             "rule": "true: value matches 'True'", "evidence": {"path": ["attributes", "A"], "value": "True"}},
            {"pointer": "/structure/args/1", "op": "NOT", "value": 1, "args": [
                {"pointer": "/structure/args/1/args/0", "aspect": "B", "value": -1,
                 "condition": "attribute attributes.B is 'True'", "rule": "true: value differs from 'True'",
                 "evidence": {"path": ["attributes", "B"], "value": "False"}}]}]}
    ranked = engine.rank(req)
    assert [(x.restaurant.business_id, x.value, x.leaves_true, x.n_leaves) for x in ranked] == [
        ("x", 1, 2, 2), ("z", 0, 0, 2), ("y", -1, 1, 2)]  # a leaf under NOT holds when it is -1


def test_a_slow_search_is_a_clear_error(build) -> None:
    # \p{Ll} is regex-module syntax, which the static check does not analyse: the per-search timeout stops it
    ds = build([{"business_id": "x"}], [{"business_id": "x", "text": "a" * 5000 + "!"}])
    req = parse_request({"id": "EVIL", "structure": {"op": "AND", "args": [
        {"aspect": "evil", "evidence": {"kind": "review_text", "pattern": "(\\p{Ll}+)+\\d"}}]}})
    with pytest.raises(EvaluationError) as info:
        Engine(ds, regex_timeout_s=0.05).matches(req)
    assert info.value.location == "request EVIL /structure/args/0 (evil)"
    assert info.value.reason == ("pattern '(\\\\p{Ll}+)+\\\\d' stopped on review rv0 of restaurant x: one search ran "
                                 "longer than 0.05 s; use a simpler pattern")


def test_equal_evidence_is_evaluated_once_across_requests(build) -> None:
    ds = build([{"business_id": "x"}], [{"business_id": "x", "text": "latte"}])
    ev = {"kind": "review_text", "pattern": "latte"}
    r1 = parse_request({"id": "A", "structure": {"op": "AND", "args": [{"aspect": "a", "evidence": ev}]}})
    r2 = parse_request({"id": "B", "structure": {"op": "OR", "args": [{"aspect": "b", "evidence": dict(ev)}]}})
    engine = Engine(ds)
    calls = []
    original = engine.index.matching
    engine.index.matching = (  # type: ignore[method-assign]
        lambda p, r: calls.append((p, r.business_id)) or original(p, r))
    matched = engine.match_all([r1, r2])
    assert {k: [r.business_id for r in v] for k, v in matched.items()} == {"A": ["x"], "B": ["x"]}
    assert len(engine._evaluators) == 1
    assert calls == [("latte", "x")]  # one search for both requests


# ------------------------------------------------------------------ hypothesis: random valid structures never crash
ATTR_VALUES = st.sampled_from(["True", "False", "None", "u'free'", "u'no'", "'quiet'", "2",
                               "{'hipster': True, 'casual': False}", "{'a': False}", "[1, 'x']", "{broken"])
HOURS = st.sampled_from(["8:0-15:0", "18:0-2:0", "0:0-0:0", "", "closed", "9:30-9:0"])
TEXTS = st.sampled_from(["Great latte and cozy seats", "quiet place to work", "LOUD music", "", "café crème",
                         "Kale \u212a salad"])
NAMES = st.sampled_from(["Alice", "Bob", "Carol", None])

EVIDENCE = st.one_of(
    st.builds(lambda k, v, key: {"kind": "item_meta", "path": ["attributes", k], key: v},
              st.sampled_from(["A", "B", "Amb"]), ATTR_VALUES,
              st.sampled_from(["true", "false", "not_true", "contains", "not_contains", "neutral"])),
    st.builds(lambda k: {"kind": "item_meta", "path": ["attributes", k, "hipster"]}, st.sampled_from(["A", "Amb"])),
    st.builds(lambda w, m: {"kind": "item_meta_hours", "path": ["hours", "Friday"], "true": w, "missing": m},
              HOURS, st.sampled_from([-1, 0, 1])),
    st.builds(lambda p: {"kind": "review_text", "pattern": p},
              st.sampled_from(["latte", "cozy|quiet", "caf[eé]", "^quiet", "k", "work$", "(a|b)*c"])),
    st.builds(lambda p, f, pc, m: {"kind": "review_text", "pattern": p,
                                   "weight_by": {"field": f, "credibility_percentile": pc},
                                   "min_credible_matches": m},
              st.sampled_from(["latte", "o"]), st.sampled_from([["user", "fans"], ["user", "elite"], ["useful"]]),
              st.integers(0, 100), st.integers(1, 3)),
    st.builds(lambda p, fr, h, m: {"kind": "review_text", "pattern": p,
                                   "social_filter": {"friends": fr, "hops": h}, "min_matches": m},
              st.sampled_from(["latte", "a"]), st.lists(st.sampled_from(["Alice", "Bob", "Zed"]), min_size=1,
                                                        max_size=2), st.integers(1, 2), st.integers(1, 2)),
    st.builds(lambda path, op, agg, c: {"kind": "review_meta", "path": path, "op": op, "agg": agg, "count": c,
                                        **({"value": 3} if op != "not_empty" else {})},
              st.sampled_from([["user", "elite"], ["stars"], ["useful"]]),
              st.sampled_from(["not_empty", "gte", "lte"]), st.sampled_from(["any", "all", "count"]),
              st.integers(0, 3)),
)


def _node(children):
    return st.one_of(
        st.builds(lambda op, args: {"op": op, "args": args}, st.sampled_from(["AND", "OR"]),
                  st.lists(children, min_size=1, max_size=3)),
        st.builds(lambda a: {"op": "NOT", "args": [a]}, children),
    )


LEAF = st.builds(lambda e: {"aspect": "c", "evidence": e}, EVIDENCE)
TREE = st.recursive(LEAF, _node, max_leaves=8).map(lambda n: n if "op" in n else {"op": "AND", "args": [n]})

RESTAURANT = st.builds(
    lambda a, b, amb, h: {"attributes": {k: v for k, v in (("A", a), ("B", b), ("Amb", amb)) if v is not None},
                          "hours": {"Friday": h} if h is not None else None},
    st.one_of(st.none(), ATTR_VALUES), st.one_of(st.none(), ATTR_VALUES), st.one_of(st.none(), ATTR_VALUES),
    st.one_of(st.none(), HOURS))
REVIEW = st.builds(lambda t, n, fans, elite, useful, stars: {
    "text": t, "useful": useful, "stars": stars,
    "user": {"name": n, "fans": fans, "elite": elite}},
    TEXTS, NAMES, st.integers(0, 50), st.lists(st.sampled_from(["2019", "None", ""]), max_size=3),
    st.one_of(st.none(), st.integers(0, 9)), st.one_of(st.none(), st.sampled_from([1.0, 3.0, 5.0])))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(tree=TREE, restaurants=st.lists(RESTAURANT, min_size=1, max_size=3),
       reviews=st.lists(st.tuples(st.integers(0, 2), REVIEW), max_size=6))
def test_random_valid_structures_evaluate_consistently(build, tree, restaurants, reviews) -> None:
    rows = [{"business_id": f"r{i}", **r} for i, r in enumerate(restaurants)]
    revs = [{"business_id": f"r{i % len(rows)}", **rv} for i, rv in reviews]
    ds = build(rows, revs, {"Alice": ["Bob"], "Carol": ["Alice"]})
    req = parse_request({"id": "H", "structure": tree})
    engine = Engine(ds)
    matched = {r.business_id for r in engine.matches(req)}
    for r in ds.restaurants:
        full = engine.explain(req, r)
        assert full.value in (-1, 0, 1)
        assert engine.value(req, r) == full.value
        assert (full.value == 1) == (r.business_id in matched)
        _check_kleene(full)


def _check_kleene(node) -> None:
    if node.op is None:
        return
    vals = [c.value for c in node.children]
    if node.op == "AND":
        assert node.value == (-1 if -1 in vals else 0 if 0 in vals else 1)
    elif node.op == "OR":
        assert node.value == (1 if 1 in vals else 0 if 0 in vals else -1)
    else:
        assert node.value == -vals[0]
    for c in node.children:
        _check_kleene(c)
