"""The executor: G1a-v2 reproduction, every op, where operators, incomplete extraction, traces, run-time faults."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.dataset import load_dataset
from dinecheck.errors import EvaluationError, ExtractionError
from dinecheck.extract.base import ExtractionResult, ExtractionStats, FieldSpec, ReviewInput
from dinecheck.extract.replay import ReplayExtractor
from dinecheck.formula import ReviewRecord, compile_seed, load_seed
from dinecheck.formula.filter import KeywordFilter
from tests.conftest import shared_file


def assert_same_outputs(got: dict[str, Any], expected: dict[str, Any]) -> None:
    assert set(got) == set(expected)
    for k, v in expected.items():
        g = got[k]
        if isinstance(v, str) or isinstance(g, str):
            assert g == v, k
        else:
            assert type(g) is type(v) and math.isclose(g, v, rel_tol=0, abs_tol=1e-9), (k, g, v)


def test_g1a_v2_with_replay_reproduces_the_expected_file(shared_data) -> None:
    root = shared_file(shared_data, "g1a_allergy/g1a_v2_seed.json").parent
    ds, _ = load_dataset(root)
    compiled = compile_seed(load_seed(root / "g1a_v2_seed.json"))
    results = compiled.run_many(
        [(r, ds.reviews_of(r.business_id)) for r in ds.restaurants], ReplayExtractor(root / "recorded_extractions.jsonl")
    )
    expected = [json.loads(line) for line in shared_file(shared_data, "g1a_allergy/expected_g1a_v2_k25.jsonl").open()]
    assert len(results) == len(expected) == 100
    for res, exp in zip(results, expected, strict=True):
        assert (res.business_id, res.name, res.n_filtered, res.status) == (exp["business_id"], exp["name"], exp["n_filtered"], "complete")
        assert_same_outputs(res.outputs, exp["outputs"])
    assert {r.outputs["VERDICT"] for r in results} >= {"Low Risk", "High Risk"}


# ---------------------------------------------------------------------------------------------------------- a small seed

FIELDS = [
    {"name": "severity", "type": "enum", "values": {"none": "", "mild": "", "severe": ""}},
    {"name": "who", "type": "enum", "values": {"none": "", "firsthand": "", "secondhand": ""}},
]


def seed_with(compute: list[dict[str, Any]], output: list[str], keywords: Sequence[str] = ("nut",)) -> dict[str, Any]:
    return {"task_name": "t", "filter": {"keywords": list(keywords)}, "extract": {"fields": FIELDS}, "compute": compute, "output": output}


def rec(rid: str, severity: str = "none", who: str = "none", **meta: Any) -> ReviewRecord:
    return ReviewRecord(rid, meta, {"severity": severity, "who": who})


REVIEWS = [
    rec("r1", "mild", "firsthand", stars=2, useful=0, year=2019),
    rec("r2", "severe", "firsthand", stars=1, useful=3, year=2024),
    rec("r3", "none", "none", stars=5, useful=1, year=2023),
    rec("r4", "severe", "secondhand", stars=3, useful=0, year=2022),
]


def evaluate(compute: list[dict[str, Any]], output: list[str], reviews=REVIEWS, context=None, trace=False):
    c = compile_seed(seed_with(compute, output))
    return c.evaluate("b1", "Bistro", context or {"categories": "Thai, Pizza"}, reviews, len(reviews), trace=trace)


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (None, 4),
        ({"extraction.severity": "severe"}, 2),
        ({"extraction.severity": {"in": ["mild", "severe"]}}, 3),
        ({"extraction.severity": {"!=": "none"}}, 3),
        ({"meta.year": {">=": 2023}}, 2),
        ({"meta.year": {">": 2023}}, 1),
        ({"meta.year": {"<=": 2022}}, 2),
        ({"meta.year": {"<": 2022}}, 1),
        ({"meta.year": {">=": 2020, "<": 2024}}, 2),
        ({"meta.stars": 5}, 1),
        ({"meta.stars": 5.0}, 1),
        ({"context.categories": "Thai, Pizza"}, 4),
        ({"context.categories": "Thai"}, 0),
        ({"$HURT": True}, 2),
        ({"$HURT": False}, 2),
        ({"$HURT": True, "meta.year": {">=": 2023}}, 1),
    ],
)
def test_count_with_every_where_operator(where: dict[str, Any] | None, expected: int) -> None:
    step: dict[str, Any] = {"name": "N", "op": "count"}
    if where is not None:
        step["where"] = where
    hurt = {"name": "HURT", "op": "define_filter", "extraction": {"who": "firsthand", "severity": {"in": ["mild", "severe"]}}}
    assert evaluate([hurt, step], ["N"]).outputs == {"N": expected}


def test_sum_max_min_and_their_empty_cases() -> None:
    compute = [
        {"name": "S", "op": "sum", "expr": "(5 - meta.stars) + log(meta.useful + 1)", "where": {"extraction.who": "firsthand"}},
        {"name": "S0", "op": "sum", "expr": "meta.stars", "where": {"meta.year": {">": 3000}}},
        {"name": "MX", "op": "max", "field": "meta.year", "where": {"extraction.severity": "severe"}},
        {"name": "MN", "op": "min", "field": "meta.stars * 2"},
        {"name": "MX0", "op": "max", "field": "meta.year", "where": {"meta.year": {">": 3000}}, "default": 2020},
        {"name": "MN0", "op": "min", "field": "meta.year", "where": {"meta.year": {">": 3000}}, "default": 1.5},
    ]
    out = evaluate(compute, ["S", "S0", "MX", "MN", "MX0", "MN0"]).outputs
    assert out == {"S": pytest.approx(3 + 0 + 4 + math.log(4)), "S0": 0, "MX": 2024, "MN": 2, "MX0": 2020, "MN0": 1.5}
    assert type(out["S0"]) is int


def test_max_of_nothing_without_default_is_an_error() -> None:
    compute = [{"name": "MX", "op": "max", "field": "meta.year", "where": {"meta.year": {">": 3000}}}]
    with pytest.raises(EvaluationError) as exc:
        evaluate(compute, ["MX"])
    assert str(exc.value) == "step MX (/compute/0), restaurant b1: no review matched and the max step has no 'default'"


@pytest.mark.parametrize(
    ("match", "source", "context", "expected"),
    [
        ("substring_max", "context.categories", {"categories": "Thai, Pizza"}, 2.0),
        ("substring_first", "context.categories", {"categories": "Pizza, Thai"}, 2.0),  # first key in *table* order
        ("substring_first", "context.categories", {"categories": "Pizza, Burgers"}, 0.5),
        ("exact", "context.categories", {"categories": "Pizza"}, 0.5),
        ("exact", "context.categories", {"categories": "Pizza, Thai"}, 1.0),  # no exact key: default
        ("substring_max", "context.categories", {"categories": None}, 1.0),  # null source: default
        ("substring_max", "context.attributes", {"attributes": ["Thai food", "Pizza"]}, 2.0),  # list: item by item
        ("exact", "context.attributes", {"attributes": ["Pizza", "Thai"]}, 2.0),  # list, exact: first key in table order
        ("substring_first", "context.categories", {"categories": "thai"}, 1.0),  # case-sensitive
    ],
)
def test_lookup_modes(match: str, source: str, context: dict[str, Any], expected: float) -> None:
    compute = [{"name": "L", "op": "lookup", "source": source, "table": {"Thai": 2.0, "Pizza": 0.5}, "match": match, "default": 1.0}]
    assert evaluate(compute, ["L"], context=context).outputs == {"L": expected}


def test_lookup_on_a_computed_string_and_without_default() -> None:
    compute = [
        {"name": "V", "op": "const", "value": "High"},
        {"name": "L", "op": "lookup", "source": "V", "table": {"Low": 1, "High": 3}},
        {"name": "M", "op": "lookup", "source": "context.categories", "table": {"Sushi": 1}},
    ]
    with pytest.raises(EvaluationError) as exc:
        evaluate(compute, ["L", "M"])
    assert str(exc.value) == "step M (/compute/2), restaurant b1: no table key matches 'Thai, Pizza' and the lookup has no 'default'"
    assert evaluate(compute[:2], ["L"]).outputs == {"L": 3}


def test_expr_const_and_case() -> None:
    compute = [
        {"name": "N", "op": "count", "where": {"extraction.who": "firsthand"}},
        {"name": "R", "op": "expr", "expr": "N / 4 if N > 0 else 0"},
        {"name": "K", "op": "const", "value": 2.5},
        {"name": "T", "op": "case", "rules": [{"when": "R > 0.7", "then": 1.3}, {"when": "R < 0.3 and N > 0", "then": 0.7}, {"else": 1.0}]},
        {"name": "V", "op": "case", "source": "K", "rules": [{"when": "< 2", "then": "low"}, {"when": "== 2.5", "then": "mid"}, {"else": "high"}]},
        {"name": "W", "op": "case", "source": "V", "rules": [{"when": "== 'mid'", "then": True}, {"else": False}]},
    ]
    assert evaluate(compute, ["R", "K", "T", "V", "W"]).outputs == {"R": 0.5, "K": 2.5, "T": 1.0, "V": "mid", "W": True}


def test_case_without_a_matching_rule_is_an_error() -> None:
    compute = [{"name": "K", "op": "const", "value": 9}, {"name": "V", "op": "case", "source": "K", "rules": [{"when": "< 2", "then": "low"}]}]
    with pytest.raises(EvaluationError) as exc:
        evaluate(compute, ["V"])
    assert str(exc.value) == "step V (/compute/1), restaurant b1: no rule matched and the case has no 'else'"


@pytest.mark.parametrize(
    ("compute", "message"),
    [
        ([{"name": "N", "op": "count", "where": {"meta.year": {">": 3000}}}, {"name": "X", "op": "expr", "expr": "1 / N"}],
         "step X (/compute/1), restaurant b1: division by zero (1 / 0)"),
        ([{"name": "X", "op": "sum", "expr": "log(meta.useful)"}],
         "step X (/compute/0), restaurant b1: review r1: log() of a non-positive number (0)"),
        ([{"name": "X", "op": "count", "where": {"meta.funny": {">": 1}}}],
         "step X (/compute/0), restaurant b1: review r1: where meta.funny > 1: cannot compare null None > number 1"),
    ],
)
def test_runtime_faults_name_step_and_restaurant(compute: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(EvaluationError) as exc:
        evaluate(compute, [compute[-1]["name"]])
    assert str(exc.value) == message


def test_trace_explains_every_value_down_to_the_reviews() -> None:
    compute = [
        {"name": "HURT", "op": "define_filter", "extraction": {"who": "firsthand"}},
        {"name": "N", "op": "count", "where": {"$HURT": True}},
        {"name": "S", "op": "sum", "expr": "5 - meta.stars", "where": {"$HURT": True}},
        {"name": "Y", "op": "max", "field": "meta.year"},
        {"name": "L", "op": "lookup", "source": "context.categories", "table": {"Thai": 2, "Pizza": 1}, "match": "substring_max"},
        {"name": "X", "op": "expr", "expr": "N * L + S"},
        {"name": "V", "op": "case", "source": "X", "rules": [{"when": "< 5", "then": "low"}, {"else": "high"}]},
    ]
    res = evaluate(compute, ["X", "V"], trace=True)
    assert [t.to_json() for t in res.trace] == [
        {"step": "HURT", "op": "define_filter", "reviews": ["r1", "r2"]},
        {"step": "N", "op": "count", "value": 2, "reviews": ["r1", "r2"]},
        {"step": "S", "op": "sum", "value": 7, "reviews": ["r1", "r2"], "terms": {"r1": 3, "r2": 4}},
        {"step": "Y", "op": "max", "value": 2024, "reviews": ["r1", "r2", "r3", "r4"],
         "values": {"r1": 2019, "r2": 2024, "r3": 2023, "r4": 2022}, "at": ["r2"]},
        {"step": "L", "op": "lookup", "value": 2, "matched": ["Thai", "Pizza"]},
        {"step": "X", "op": "expr", "value": 11, "inputs": {"L": 2, "N": 2, "S": 7}},
        {"step": "V", "op": "case", "value": "high", "rule": 1, "when": "else"},
    ]  # fmt: skip
    assert res.to_json(trace=False) == {"business_id": "b1", "name": "Bistro", "n_filtered": 4, "status": "complete", "outputs": {"X": 11, "V": "high"}}


# ---------------------------------------------------------------------------------------------------------- extraction


class ScriptedExtractor:
    """A real Extractor implementation whose answers are given per review id (missing id → error result)."""

    name = "scripted"

    def __init__(self, answers: dict[str, dict[str, str] | str]) -> None:
        self.answers = answers
        self.stats = ExtractionStats()
        self.calls: list[list[str]] = []

    def extract(self, fields: Sequence[FieldSpec], reviews: Sequence[ReviewInput]) -> list[ExtractionResult]:
        self.calls.append([r.review_id for r in reviews])
        out = []
        for r in reviews:
            a = self.answers.get(r.review_id)
            if isinstance(a, dict):
                out.append(ExtractionResult(r.business_id, r.review_id, "ok", values=a))
            else:
                out.append(ExtractionResult(r.business_id, r.review_id, "error" if a is None else "invalid", error=a or "timeout"))
        return out

    def close(self) -> None:
        pass


def _dataset(tmp_path):
    rests = [{"business_id": "b1", "name": "Nutty", "categories": "Thai"}, {"business_id": "b2", "name": "Plain", "categories": "Pizza"}]
    revs = [
        {"review_id": "a", "business_id": "b1", "stars": 1, "useful": 2, "date": "2024-01-01", "text": "Peanut sauce made me ill"},
        {"review_id": "b", "business_id": "b1", "stars": 4, "useful": 0, "date": "2019-05-01", "text": "Great NUT-free options"},
        {"review_id": "c", "business_id": "b1", "stars": 5, "useful": 0, "date": "2020-05-01", "text": "lovely curry"},
        {"review_id": "d", "business_id": "b2", "stars": 3, "useful": 0, "date": "2021-05-01", "text": "Donut dessert"},
    ]
    (tmp_path / "restaurants.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rests))
    (tmp_path / "reviews.jsonl").write_text("".join(json.dumps(r) + "\n" for r in revs))
    ds, _ = load_dataset(tmp_path)
    return ds


COMPUTE = [
    {"name": "N", "op": "count", "where": {"extraction.severity": {"!=": "none"}}},
    {"name": "K", "op": "const", "value": 2},
    {"name": "L", "op": "lookup", "source": "context.categories", "table": {"Thai": 2}, "default": 1},
    {"name": "RISK", "op": "expr", "expr": "N * K"},
    {"name": "BASE", "op": "expr", "expr": "K * L"},
]


def test_run_filters_extracts_once_and_computes(tmp_path) -> None:
    ds = _dataset(tmp_path)
    ex = ScriptedExtractor({"a": {"severity": "mild", "who": "firsthand"}, "b": {"severity": "none", "who": "none"}, "d": {"severity": "none", "who": "none"}})
    compiled = compile_seed(seed_with(COMPUTE, ["RISK", "BASE"]))
    results = compiled.run_many([(r, ds.reviews_of(r.business_id)) for r in ds.restaurants], ex)
    assert ex.calls == [["a", "b", "d"]]  # keyword filter: lower-cased substring ("NUT-free", "Donut"); one call
    assert [r.to_json() for r in results] == [
        {"business_id": "b1", "name": "Nutty", "n_filtered": 2, "status": "complete", "outputs": {"RISK": 2, "BASE": 4}},
        {"business_id": "b2", "name": "Plain", "n_filtered": 1, "status": "complete", "outputs": {"RISK": 0, "BASE": 2}},
    ]


def test_failed_extraction_marks_the_result_incomplete_and_flags_dependent_outputs(tmp_path) -> None:
    ds = _dataset(tmp_path)
    ex = ScriptedExtractor({"a": {"severity": "mild", "who": "firsthand"}, "b": "unparseable answer"})
    compiled = compile_seed(seed_with(COMPUTE, ["RISK", "BASE"]))
    res = compiled.run(ds.restaurants[0], ds.reviews_of("b1"), ex, trace=True)
    assert res.to_json() == {
        "business_id": "b1", "name": "Nutty", "n_filtered": 2, "status": "incomplete", "outputs": {"RISK": 2, "BASE": 4},
        "failed_reviews": [{"review_id": "b", "status": "invalid", "error": "unparseable answer"}],
        "flagged_outputs": ["RISK"],
    }  # fmt: skip
    assert [t.name for t in res.trace if t.flagged] == ["N", "RISK"]


def test_ok_results_with_undeclared_values_count_as_failed(tmp_path) -> None:
    ds = _dataset(tmp_path)
    ex = ScriptedExtractor({"a": {"severity": "deadly", "who": "firsthand"}, "b": {"severity": "none"}})
    res = compile_seed(seed_with(COMPUTE, ["RISK"])).run(ds.restaurants[0], ds.reviews_of("b1"), ex)
    assert res.status == "incomplete" and res.outputs == {"RISK": 0}
    assert [(f.review_id, f.status, f.error) for f in res.failed_reviews] == [
        ("a", "invalid", "'deadly' is not a declared value of 'severity'"),
        ("b", "invalid", "no value for field 'who'"),
    ]


def test_an_extractor_returning_the_wrong_number_of_results_is_an_error(tmp_path) -> None:
    ds = _dataset(tmp_path)

    class Short(ScriptedExtractor):
        def extract(self, fields, reviews):
            return super().extract(fields, reviews)[:-1]

    with pytest.raises(ExtractionError) as exc:
        compile_seed(seed_with(COMPUTE, ["RISK"])).run(ds.restaurants[0], ds.reviews_of("b1"), Short({}))
    assert str(exc.value) == "extractor scripted: the extractor returned 1 results for 2 reviews"


def test_keyword_filter_is_lowercased_substring() -> None:
    kf = KeywordFilter(["Nut", "EpiPen", "nut"])
    assert kf.keywords == ("nut", "epipen")
    assert kf.matches("DONUTS!") and kf.matches("my epipen") and not kf.matches("curry")
    assert kf.found("Epipen and peanut") == ["nut", "epipen"]
    assert not KeywordFilter([]).matches("nut")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abnutNUTé ", min_size=1, max_size=4), min_size=1, max_size=5), st.text(alphabet="abnutNUTé xy", max_size=80))
def test_keyword_filter_matches_the_naive_definition(keywords: list[str], text: str) -> None:
    assert KeywordFilter(keywords).matches(text) == any(k.lower() in text.lower() for k in keywords)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["none", "mild", "severe"]), st.sampled_from(["none", "firsthand", "secondhand"]),
                  st.integers(1, 5), st.integers(0, 20), st.integers(2005, 2025)),
        max_size=12,
    )
)  # fmt: skip
def test_aggregates_match_a_direct_computation(rows: list[tuple[str, str, int, int, int]]) -> None:
    reviews = [rec(f"r{i}", s, w, stars=st_, useful=u, year=y) for i, (s, w, st_, u, y) in enumerate(rows)]
    compute = [
        {"name": "HURT", "op": "define_filter", "extraction": {"who": "firsthand", "severity": {"in": ["mild", "severe"]}}},
        {"name": "N", "op": "count", "where": {"$HURT": True, "meta.year": {">=": 2015}}},
        {"name": "S", "op": "sum", "expr": "(5 - meta.stars) + log(meta.useful + 1)", "where": {"$HURT": True}},
        {"name": "Y", "op": "max", "field": "meta.year", "where": {"$HURT": True}, "default": 2000},
    ]
    out = evaluate(compute, ["N", "S", "Y"], reviews=reviews).outputs
    hurt = [r for r in rows if r[1] == "firsthand" and r[0] in ("mild", "severe")]
    assert out["N"] == sum(1 for r in hurt if r[4] >= 2015)
    assert out["S"] == pytest.approx(sum((5 - r[2]) + math.log(r[3] + 1) for r in hurt), abs=1e-9)
    assert out["Y"] == max((r[4] for r in hurt), default=2000)
