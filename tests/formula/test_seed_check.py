"""The static check: one failing seed per rule, asserting the exact pointer and message; the G1a-v2 seed passes."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from dinecheck.errors import Problem, SeedError, SpecError
from dinecheck.formula import check_seed, compile_seed, load_seed
from tests.conftest import shared_file


def base_seed() -> dict[str, Any]:
    return {
        "task_name": "tiny",
        "filter": {"keywords": ["nut"]},
        "extract": {
            "fields": [
                {"name": "severity", "type": "enum", "values": {"none": "no", "mild": "a bit", "severe": "a lot"}},
                {"name": "who", "type": "enum", "values": {"none": "n/a", "firsthand": "me", "secondhand": "them"}},
            ]
        },
        "compute": [
            {"name": "HURT", "op": "define_filter", "extraction": {"who": "firsthand", "severity": {"in": ["mild", "severe"]}}},
            {"name": "N", "op": "count", "where": {"$HURT": True, "meta.year": {">=": 2020}}},
            {"name": "W", "op": "sum", "expr": "5 - meta.stars", "where": {"extraction.severity": "severe"}},
            {"name": "LAST", "op": "max", "field": "meta.year", "default": 2000},
            {"name": "CUISINE", "op": "lookup", "source": "context.categories", "table": {"Thai": 2, "Pizza": 1},
             "match": "substring_max", "default": 1},
            {"name": "SCORE", "op": "expr", "expr": "N * CUISINE + W / 10 + (2025 - LAST) * 0"},
            {"name": "VERDICT", "op": "case", "source": "SCORE", "rules": [{"when": "< 2", "then": "low"}, {"else": "high"}]},
        ],
        "output": ["SCORE", "VERDICT"],
    }  # fmt: skip


def run_check(mutate: Callable[[dict[str, Any]], Any]) -> list[tuple[str, str, str]]:
    seed = base_seed()
    mutate(seed)
    return [(p.severity, p.pointer, p.reason) for p in check_seed(seed).problems]


def test_base_seed_is_valid() -> None:
    result = check_seed(base_seed())
    assert result.problems == [] and result.ok and result.seed is not None


def test_g1a_v2_seed_is_valid_with_one_warning(shared_data) -> None:
    raw = json.loads(shared_file(shared_data, "g1a_allergy/g1a_v2_seed.json").read_text())
    result = check_seed(raw)
    assert result.ok
    assert result.problems == [Problem("/compute/16", "step 'N_OLD' is computed but no output depends on it", "warning")]


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(seed: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        cur: Any = seed
        for p in parents:
            cur = cur[int(p)] if isinstance(cur, list) else cur[p]
        if isinstance(cur, list):
            cur[int(last)] = value
        else:
            cur[last] = value

    return mutate


def _del(path: str) -> Callable[[dict[str, Any]], None]:
    def mutate(seed: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        cur: Any = seed
        for p in parents:
            cur = cur[int(p)] if isinstance(cur, list) else cur[p]
        del cur[last]

    return mutate


RULES: list[tuple[str, Callable[[dict[str, Any]], Any], list[tuple[str, str, str]]]] = [
    ("unknown top-level key", _set("tasks", 1), [("error", "/tasks", "unknown top-level key 'tasks'")]),
    ("missing top-level key", _del("filter"), [("error", "/filter", "missing required key 'filter'")]),
    ("empty keywords", _set("filter/keywords", []), [("error", "/filter/keywords", "List should have at least 1 item after validation, not 0")]),
    ("keyword type", _set("filter/keywords", ["ok", 3]), [("error", "/filter/keywords/1", "expected a string, got a number")]),
    ("duplicate extract field", _set("extract/fields/1/name", "severity"),
     [("error", "/extract/fields/1/name", "duplicate extract field 'severity'"),
      ("error", "/compute/0/extraction/who", "extraction field 'who' is not declared in extract.fields")]),
    ("unknown op", _set("compute/2/op", "summ"),
     [("error", "/compute/2/op", "unknown op 'summ' (did you mean 'sum'?); expected one of define_filter, count, sum, max, min, lookup, expr, const, case")]),
    ("missing op parameter", _del("compute/2/expr"), [("error", "/compute/2/expr", "missing parameter 'expr' for op 'sum'")]),
    ("extra op parameter", _set("compute/5/exprs", "1"),
     [("error", "/compute/5/exprs", "unknown parameter 'exprs' for op 'expr' (did you mean 'expr'?); allowed: name, op, expr, description")]),
    ("bad parameter type", _set("compute/4/match", "fuzzy"),
     [("error", "/compute/4/match", "expected 'exact', 'substring_first' or 'substring_max', got a string")]),
    ("duplicate step name", _set("compute/2/name", "N"), None),  # checked separately (cascades)
    ("reserved step name", _set("compute/6/name", "max"), None),
    ("unknown name", _set("compute/5/expr", "N * CUISIN"),
     [("error", "/compute/5/expr", "unknown name 'CUISIN' (did you mean 'CUISINE'?); it must be defined by an earlier step")]),
    ("forward reference", _set("compute/2/expr", "SCORE"),
     [("error", "/compute/2/expr", "'SCORE' is defined later, at /compute/5; a step can only use earlier steps")]),
    ("self reference", _set("compute/5/expr", "SCORE + 1"), [("error", "/compute/5/expr", "step 'SCORE' refers to itself")]),
    ("self reference in case source", _set("compute/6/source", "VERDICT"), None),
    ("unknown filter", _set("compute/1/where", {"$HURTS": True}),
     [("error", "/compute/1/where/$HURTS", "unknown filter '$HURTS' (did you mean 'HURT'?); it must be defined by an earlier step")]),
    ("filter condition not boolean", _set("compute/1/where", {"$HURT": "yes"}),
     [("error", "/compute/1/where/$HURT", "a filter condition must be true or false, got a string")]),
    ("filter used as a value", _set("compute/5/expr", "HURT + 1"),
     [("error", "/compute/5/expr", "'HURT' is a filter, not a value; use it as a where key: '$HURT': true")]),
    ("undeclared extraction field", _set("compute/2/where", {"extraction.severty": "mild"}),
     [("error", "/compute/2/where/extraction.severty", "'extraction.severty' is not declared in extract.fields (did you mean 'severity'?)")]),
    ("undeclared bare field in define_filter", _set("compute/0/extraction", {"whom": "firsthand"}),
     [("error", "/compute/0/extraction/whom", "extraction field 'whom' is not declared in extract.fields (did you mean 'who'?)")]),
    ("enum typo in where", _set("compute/2/where", {"extraction.severity": "sever"}),
     [("error", "/compute/2/where/extraction.severity", "'sever' is not a value of extraction.severity (did you mean 'severe'?); expected one of none, mild, severe")]),
    ("enum typo in an 'in' list", _set("compute/0/extraction", {"severity": {"in": ["mild", "sevee"]}}),
     [("error", "/compute/0/extraction/severity/in/1", "'sevee' is not a value of extraction.severity (did you mean 'severe'?); expected one of none, mild, severe")]),
    ("enum typo in an expression", _set("compute/2/expr", "1 if extraction.who == 'firsthnd' else 0"),
     [("error", "/compute/2/expr", "'firsthnd' is not a value of extraction.who (did you mean 'firsthand'?); expected one of none, firsthand, secondhand")]),
    ("ordering on an enum field", _set("compute/2/where", {"extraction.severity": {">": "mild"}}),
     [("error", "/compute/2/where/extraction.severity/>", "'>' cannot be used on the enum field extraction.severity; use a literal or 'in'")]),
    ("unknown where operator", _set("compute/1/where", {"meta.year": {"==": 2020}}),
     [("error", "/compute/1/where/meta.year/==", "unknown operator '==' (a plain literal means equality); expected one of in, >=, >, <=, <, !=")]),
    ("empty operator object", _set("compute/1/where", {"meta.year": {}}),
     [("error", "/compute/1/where/meta.year", "an operator object needs at least one of in, >=, >, <=, <, !=")]),
    ("bad where key", _set("compute/1/where", {"year": 2020}),
     [("error", "/compute/1/where/year", "invalid where key 'year'; expected extraction.FIELD, meta.FIELD, context.FIELD or $FILTER")]),
    ("where literal type", _set("compute/1/where", {"meta.stars": "five"}),
     [("error", "/compute/1/where/meta.stars", "meta.stars is a number, but it is compared with a string 'five'")]),
    ("unknown meta field", _set("compute/2/expr", "5 - meta.star"),
     [("error", "/compute/2/expr", "unknown review field 'meta.star' (did you mean 'stars'?)")]),
    ("unknown context field", _set("compute/4/source", "context.category"),
     [("error", "/compute/4/source", "unknown restaurant field 'context.category' (did you mean 'categories'?)")]),
    ("per-review name outside an aggregate", _set("compute/5/expr", "N + meta.stars"),
     [("error", "/compute/5/expr", "'meta.stars' is a per-review value; it can only be used inside sum/max/min or a where")]),
    ("expression syntax", _set("compute/5/expr", "N ** 2"),
     [("error", "/compute/5/expr", "invalid expression: column 3: '**' (power) is not part of the expression language; use multiplication")]),
    ("non-boolean condition", _set("compute/5/expr", "1 if N else 0"),
     [("error", "/compute/5/expr", "the condition of 'if' must be a boolean, but it is a number (column 3)")]),
    ("comparing a string with a number", _set("compute/5/expr", "1 if context.name > 3 else 0"),
     [("error", "/compute/5/expr", "comparing a string with a number with '>' (column 19)")]),
    ("sum of a non-number", _set("compute/2/expr", "meta.text"),
     [("error", "/compute/2/expr", "sum needs a number for each review, but the expression is a string")]),
    ("case when not boolean", _set("compute/6", {"name": "VERDICT", "op": "case", "rules": [{"when": "SCORE", "then": 1}, {"else": 0}]}),
     [("error", "/compute/6/rules/0/when", "a 'when' must be a boolean condition, but it is a number")]),
    ("case suffix without operator", _set("compute/6/rules/0/when", "2"),
     [("error", "/compute/6/rules/0/when", "invalid condition: column 1: a 'when' with a 'source' must start with a comparison operator (==, !=, <, <=, >, >=), found '2'")]),
    ("case suffix type", _set("compute/6/rules/0/when", "== 'low'"),
     [("error", "/compute/6/rules/0/when", "comparing the source (a number) with a string")]),
    ("case else not last", _set("compute/6/rules", [{"else": "high"}, {"when": "< 2", "then": "low"}]),
     [("error", "/compute/6/rules/0", "'else' must be the last rule; the rules after it are never used"),
      ("warning", "/compute/6/rules", "the last rule is not 'else': if no rule matches, running the seed fails")]),
    ("case rule shape", _set("compute/6/rules/0", {"when": "< 2"}),
     [("error", "/compute/6/rules/0/then", "missing required key 'then' in a case rule")]),
    ("case without else is a warning", _set("compute/6/rules", [{"when": "< 2", "then": "low"}, {"when": ">= 2", "then": "high"}]),
     [("warning", "/compute/6/rules", "the last rule is not 'else': if no rule matches, running the seed fails")]),
    ("lookup source must be a name", _set("compute/4/source", "context.categories + 1"),
     [("error", "/compute/4/source", "a source must be a single name (a step name or context.X)")]),
    ("lookup source of the wrong type", _set("compute/4/source", "N"),
     [("error", "/compute/4/source", "a lookup source must be a string (or a list of strings), but it is a number")]),
    ("substring_max with a non-numeric value", _set("compute/4/table", {"Thai": "hot", "Pizza": 1}),
     [("error", "/compute/4/table/Thai", "substring_max needs numeric table values, got a string")]),
    ("unknown output", _set("output", ["SCORE", "VERDCT"]),
     [("error", "/output/1", "unknown step 'VERDCT' (did you mean 'VERDICT'?)")]),
    ("filter as output", _set("output", ["SCORE", "VERDICT", "HURT"]),
     [("error", "/output/2", "'HURT' is a filter, not a value; it cannot be an output")]),
    ("output listed twice", _set("output", ["SCORE", "VERDICT", "SCORE"]), [("warning", "/output/2", "'SCORE' is listed twice")]),
    ("unused step", _set("output", ["VERDICT"]), []),  # SCORE feeds VERDICT: nothing unused
]


@pytest.mark.parametrize(("rule", "mutate", "expected"), [r for r in RULES if r[2] is not None], ids=[r[0] for r in RULES if r[2] is not None])
def test_each_rule(rule: str, mutate: Callable[[dict[str, Any]], Any], expected: list[tuple[str, str, str]]) -> None:
    assert run_check(mutate) == expected


def test_not_an_object() -> None:
    assert [(p.pointer, p.reason) for p in check_seed([1, 2]).problems] == [("", "a seed must be a JSON object, got a list")]


def test_duplicate_step_name() -> None:
    problems = run_check(_set("compute/2/name", "N"))
    assert ("error", "/compute/2/name", "duplicate step name 'N' (first defined at /compute/1)") in problems
    assert ("error", "/compute/5/expr", "unknown name 'W'; it must be defined by an earlier step") in problems


def test_reserved_step_name() -> None:
    assert run_check(_set("compute/6/name", "max"))[0] == ("error", "/compute/6/name", "'max' is a reserved word and cannot name a step")


def test_self_reference_in_a_case_source() -> None:
    assert run_check(_set("compute/6/source", "VERDICT")) == [("error", "/compute/6/source", "step 'VERDICT' refers to itself")]


def test_string_verdict_used_in_arithmetic() -> None:
    def mutate(seed: dict[str, Any]) -> None:
        seed["compute"].append({"name": "BAD", "op": "expr", "expr": "VERDICT * 2"})
        seed["output"].append("BAD")

    assert run_check(mutate) == [("error", "/compute/7/expr", "'*' needs numbers, but an operand is a string (column 9)")]


def test_filter_key_naming_a_value_step() -> None:
    assert run_check(_set("compute/2/where", {"$N": True})) == [
        ("error", "/compute/2/where/$N", "'$N' must name a define_filter step, but 'N' is a count step")
    ]


def test_unused_step_warning() -> None:
    def mutate(seed: dict[str, Any]) -> None:
        seed["compute"].append({"name": "SPARE", "op": "const", "value": 1})

    assert run_check(mutate) == [("warning", "/compute/7", "step 'SPARE' is computed but no output depends on it")]


def test_all_problems_are_listed_at_once() -> None:
    def mutate(seed: dict[str, Any]) -> None:
        seed["compute"][2]["where"] = {"extraction.severity": "sever"}
        seed["compute"][3]["op"] = "maxx"
        seed["compute"][5]["expr"] = "N +"
        seed["output"].append("NOPE")

    pointers = [p[1] for p in run_check(mutate)]
    assert pointers == ["/compute/2/where/extraction.severity", "/compute/3/op", "/compute/5/expr", "/output/2"]


def test_compile_seed_raises_seed_error_with_every_problem() -> None:
    seed = base_seed()
    seed["compute"][5]["expr"] = "SCORE"
    seed["output"].append("NOPE")
    with pytest.raises(SeedError) as exc:
        compile_seed(seed)
    assert [p.pointer for p in exc.value.problems] == ["/compute/5/expr", "/output/2"]
    assert str(exc.value) == "/compute/5/expr: step 'SCORE' refers to itself (and 1 more)"


# ---------------------------------------------------------------------------------------------------------- hostile seeds


def test_hostile_seed_expressions(tmp_path) -> None:
    seed = base_seed()
    marker = tmp_path / "pwned"
    seed["compute"][5]["expr"] = f"__import__('os').system('touch {marker}')"
    seed["compute"][2]["expr"] = "().__class__"
    seed["compute"][3]["field"] = "10**10**10"
    seed["compute"][6] = {"name": "VERDICT", "op": "expr", "expr": "(" * 50_000 + "1" + ")" * 50_000}
    problems = run_check(lambda s: s.update(seed))
    assert problems == [
        ("error", "/compute/2/expr", "invalid expression: column 1: empty parentheses: expected an expression"),
        ("error", "/compute/3/field", "invalid expression: column 3: '**' (power) is not part of the expression language; use multiplication"),
        ("error", "/compute/5/expr", "invalid expression: column 1: unknown function '__import__'; only max, min, abs, log and sqrt can be called"),
        ("error", "/compute/6/expr", "String should have at most 10000 characters"),
    ]
    assert not marker.exists()


def test_hostile_seed_files(tmp_path) -> None:
    big = tmp_path / "big.json"
    seed = base_seed()
    seed["task_name"] = "x" * (20 * 1024 * 1024)
    big.write_text(json.dumps(seed))
    with pytest.raises(SpecError) as exc:
        load_seed(big)
    assert str(exc.value) == f"{big}: the seed file is {big.stat().st_size} bytes; the limit is 1000000"

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SpecError) as exc:
        load_seed(deep)
    assert str(exc.value) == f"{deep}: the seed JSON is nested too deeply"

    bad = tmp_path / "bad.json"
    bad.write_text('{"task_name": "x",\n  "filter": }')
    with pytest.raises(SpecError) as exc:
        load_seed(bad)
    assert str(exc.value) == f"{bad}:2:13: invalid JSON (Expecting value)"

    selfref = tmp_path / "self.json"
    seed = copy.deepcopy(base_seed())
    seed["compute"][5]["expr"] = "SCORE * 2"
    selfref.write_text(json.dumps(seed))
    with pytest.raises(SeedError) as exc:
        load_seed(selfref)
    assert str(exc.value) == f"{selfref}: /compute/5/expr: step 'SCORE' refers to itself"


def test_too_many_steps() -> None:
    steps = [{"name": f"S{i}", "op": "const", "value": i} for i in range(100_000)]
    problems = run_check(_set("compute", steps))
    assert problems == [("error", "/compute", "the seed has 100000 steps; the limit is 500")]


def test_20mb_string_in_a_seed_given_as_data() -> None:
    problems = run_check(_set("compute/5/expr", "'" + "x" * (20 * 1024 * 1024) + "'"))
    assert problems == [("error", "/compute/5/expr", "String should have at most 10000 characters")]


# ---------------------------------------------------------------------------------------------------------- fuzzing

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(
        ["", "N", "W", "HURT", "$HURT", "meta.year", "extraction.who", "mild", "< 2", "N +", "count", "else", "in", ">="]
    ),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["name", "op", "expr", "where", "rules", "when", "then", "else", "in", "source", "table", "x"]),
        children, max_size=3,
    ),
    max_leaves=8,
)  # fmt: skip


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=250, deadline=None)
@given(st.data())
def test_check_never_crashes_on_mutated_seeds(data: st.DataObject) -> None:
    seed = base_seed()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(seed)[1:]))
        cur: Any = seed
        for p in path[:-1]:
            cur = cur[p]
        cur[path[-1]] = data.draw(_json)
    result = check_seed(seed)
    assert all(isinstance(p, Problem) and p.reason for p in result.problems)
    if result.ok:
        compile_seed(seed)  # a seed that passes the check must compile


# -- non-finite numbers (issue 10, item 5) ------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_a_non_finite_const_or_table_value_is_an_error(bad: float) -> None:
    def mutate(seed: dict[str, Any]) -> None:
        seed["compute"].append({"name": "K", "op": "const", "value": bad})
        seed["compute"][4]["table"]["Thai"] = bad
        seed["output"].append("K")

    errors = [p for p in run_check(mutate) if p[0] == "error"]
    reason = "NaN and Infinity are not numbers a seed may hold (JSON has no such values)"
    assert ("error", "/compute/4/table/Thai", reason) in errors
    assert ("error", "/compute/7/value", reason) in errors


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_seed_check_rejects_nan_literals_in_the_file(cli, tmp_path, token: str) -> None:
    seed = base_seed()
    seed["compute"].insert(0, {"name": "K", "op": "const", "value": "PLACEHOLDER"})
    seed["output"].append("K")
    f = tmp_path / "seed.json"
    f.write_text(json.dumps(seed).replace('"PLACEHOLDER"', token))
    r = cli("seed", "check", f)
    assert (r.code, r.out) == (2, "")
    assert r.err == f"error: {f}: {token} is not a number JSON allows (NaN and Infinity are not JSON)\n"


def test_seed_check_reports_an_overflowing_const(cli, tmp_path) -> None:
    seed = base_seed()
    seed["compute"].insert(0, {"name": "K", "op": "const", "value": 1})
    seed["output"].append("K")
    f = tmp_path / "seed.json"
    f.write_text(json.dumps(seed).replace('"value": 1}', '"value": 1e999}'))
    r = cli("seed", "check", f, "--json")
    assert r.code == 2
    problems = json.loads(r.out)["problems"]
    assert {"severity": "error", "pointer": "/compute/0/value",
            "reason": "NaN and Infinity are not numbers a seed may hold (JSON has no such values)"} in problems
