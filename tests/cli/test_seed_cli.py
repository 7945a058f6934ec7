"""``dinecheck seed schema | check | run | eval`` through the real entry point: outputs, JSON contract, exit codes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest


def _same(got: dict, exp: dict) -> None:
    assert set(got) == set(exp)
    for k, v in exp.items():
        assert got[k] == v if isinstance(v, str) else math.isclose(got[k], v, rel_tol=0, abs_tol=1e-9), k


def test_schema(cli) -> None:
    r = cli("seed", "schema")
    assert r.code == 0
    schema = json.loads(r.out)
    assert schema["title"] == "Seed" and set(schema["required"]) == {"task_name", "filter", "extract", "compute", "output"}
    assert {"CountStep", "CaseStep", "LookupStep", "OperatorCondition"} <= set(schema["$defs"])


def test_check_valid_seed(cli, g1a) -> None:
    r = cli("seed", "check", g1a / "g1a_v2_seed.json")
    assert r.code == 0
    assert r.out.splitlines() == [
        "warning: /compute/16: step 'N_OLD' is computed but no output depends on it",
        f"{g1a / 'g1a_v2_seed.json'}: ok (34 steps, 12 outputs, 1 warning(s))",
    ]


def test_check_lists_every_problem_and_exits_2(cli, g1a, tmp_path) -> None:
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text())
    seed["compute"][1]["where"]["extraction.incident_severity"] = "mld"
    seed["compute"][4]["expr"] = "N_TOTAL_INCIDENTS + 1"
    seed["compute"][9]["op"] = "exprr"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(seed))
    r = cli("seed", "check", path)
    assert r.code == 2
    assert r.out.splitlines()[:3] == [
        "error: /compute/1/where/extraction.incident_severity: 'mld' is not a value of extraction.incident_severity "
        "(did you mean 'mild'?); expected one of none, mild, moderate, severe",
        "error: /compute/4/expr: step 'N_TOTAL_INCIDENTS' refers to itself",
        "error: /compute/9/op: unknown op 'exprr' (did you mean 'expr'?); expected one of define_filter, count, sum, max, "
        "min, lookup, expr, const, case",
    ]
    assert r.out.splitlines()[3] == f"{path}: 3 error(s), 0 warning(s)"  # an invalid step causes no cascade downstream
    js = cli("seed", "check", path, "--json")
    assert js.code == 2
    obj = json.loads(js.out)
    assert obj["ok"] is False and [p["pointer"] for p in obj["problems"]] == [
        "/compute/1/where/extraction.incident_severity", "/compute/4/expr", "/compute/9/op",
    ]  # fmt: skip


def test_check_unreadable_seed(cli, tmp_path) -> None:
    path = tmp_path / "s.json"
    path.write_text("{")
    r = cli("seed", "check", path)
    assert (r.code, r.out) == (2, "")
    assert r.err == f"error: {path}:1:2: invalid JSON (Expecting property name enclosed in double quotes)\n"


def test_run_replay_reproduces_expected_json(cli, g1a) -> None:
    r = cli("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--extractor", f"replay:{g1a / 'recorded_extractions.jsonl'}", "--json")
    assert r.code == 0, r.err
    got = [json.loads(line) for line in r.out.splitlines()]
    expected = [json.loads(line) for line in (g1a / "expected_g1a_v2_k25.jsonl").open()]
    assert len(got) == len(expected) == 100
    for g, e in zip(got, expected, strict=True):
        assert list(g) == ["business_id", "name", "n_filtered", "status", "outputs", "extractor"]
        assert g["extractor"]["kind"] == "replay" and g["extractor"]["version"].startswith("recorded_extractions.jsonl@")
        assert (g["business_id"], g["name"], g["n_filtered"], g["status"]) == (e["business_id"], e["name"], e["n_filtered"], "complete")
        _same(g["outputs"], e["outputs"])
    assert r.err == f"warning: {g1a / 'g1a_v2_seed.json'}: /compute/16: step 'N_OLD' is computed but no output depends on it\n"


def test_run_one_restaurant_with_trace_and_human_table(cli, g1a) -> None:
    expected = {json.loads(line)["business_id"]: json.loads(line) for line in (g1a / "expected_g1a_v2_k25.jsonl").open()}
    bid = next(b for b, e in expected.items() if e["outputs"]["N_TOTAL_INCIDENTS"] > 0)
    args = ["seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--extractor", f"replay:{g1a / 'recorded_extractions.jsonl'}", "--restaurant", bid]
    r = cli(*args, "--json", "--trace")
    assert r.code == 0
    (line,) = r.out.splitlines()
    obj = json.loads(line)
    _same(obj["outputs"], expected[bid]["outputs"])
    steps = {t["step"]: t for t in obj["trace"]}
    assert len(steps) == 34 and steps["VERDICT"]["value"] == expected[bid]["outputs"]["VERDICT"]
    assert len(steps["IS_INCIDENT"]["reviews"]) == expected[bid]["outputs"]["N_TOTAL_INCIDENTS"]
    human = cli(*args, "--trace")
    assert human.code == 0
    assert expected[bid]["name"] in human.out and "FINAL_RISK_SCORE" in human.out and "IS_INCIDENT [filter]  reviews:" in human.out


@pytest.mark.parametrize("as_json", [True, False])
def test_run_with_trace_streams_each_restaurant_before_computing_the_next(cli, g1a, monkeypatch, as_json) -> None:
    import sys

    from dinecheck.formula import run as run_mod

    monkeypatch.setattr(run_mod, "STREAM_CHUNK_REVIEWS", 1)
    printed_before: list[int] = []
    original = run_mod.CompiledSeed.evaluate

    def evaluate(self, *args, **kwargs):
        printed_before.append(sys.stdout.getvalue().count("\n"))  # lines already written when this one is computed
        return original(self, *args, **kwargs)

    monkeypatch.setattr(run_mod.CompiledSeed, "evaluate", evaluate)
    r = cli("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--extractor",
            f"replay:{g1a / 'recorded_extractions.jsonl'}", "--trace", "--workers", "1",  # in this process
            *(["--json"] if as_json else []))
    assert r.code in (0, 1), r
    n = len(printed_before)
    assert n > 3
    header = 0 if as_json else 1  # the table output names the extractor first
    assert printed_before[0] == header and printed_before[-1] > header  # the last is computed after the first printed
    assert printed_before == sorted(printed_before)
    if as_json:
        assert all(i - 3 <= k <= i for i, k in enumerate(printed_before))  # never more than a chunk behind
        assert all("trace" in json.loads(line) for line in r.out.splitlines())


def test_run_incomplete_exits_1_and_lists_failed_reviews(cli, g1a, tmp_path) -> None:
    recorded = (g1a / "recorded_extractions.jsonl").read_text().splitlines()
    first = json.loads(recorded[0])
    partial = tmp_path / "partial.jsonl"
    partial.write_text("\n".join(recorded[1:]) + "\n")
    r = cli("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--extractor", f"replay:{partial}", "--restaurant", first["business_id"], "--json")
    assert r.code == 1
    obj = json.loads(r.out)
    assert obj["status"] == "incomplete"
    assert obj["failed_reviews"] == [{"review_id": first["review_id"], "status": "error", "error": "no recorded extraction in partial.jsonl"}]
    assert obj["flagged_outputs"] == [
        "N_TOTAL_INCIDENTS", "TRUST_SCORE", "ADJUSTED_INCIDENT_SCORE", "TRAJECTORY_MULTIPLIER", "RECENCY_DECAY",
        "CREDIBILITY_FACTOR", "CUISINE_IMPACT", "INCIDENT_IMPACT", "TRUST_IMPACT", "POSITIVE_CREDIT", "FINAL_RISK_SCORE", "VERDICT",
    ]  # fmt: skip


def test_run_errors_are_one_line_exit_2(cli, g1a) -> None:
    seed = g1a / "g1a_v2_seed.json"
    r = cli("seed", "run", seed, "--data", g1a, "--extractor", f"replay:{g1a / 'recorded_extractions.jsonl'}", "--restaurant", "nope")
    assert (r.code, r.err.splitlines()[-1]) == (2, f"error: --restaurant nope: no restaurant with business_id 'nope' in {g1a}")
    r = cli("seed", "run", seed, "--data", g1a, "--extractor", "bogus")
    assert (r.code, r.err.splitlines()[-1]) == (2, "error: --extractor: unknown extractor 'bogus'; expected 'llm', 'offline' or 'replay:FILE'")


def _eval_input(g1a: Path, tmp_path: Path) -> Path:
    """Build a ``seed eval`` input from the shared data (filtered reviews + recorded labels)."""
    from dinecheck.dataset import load_dataset
    from dinecheck.formula import build_seed, load_seed

    ds, _ = load_dataset(g1a)
    compiled = build_seed(load_seed(g1a / "g1a_v2_seed.json"))
    labels = {json.loads(line)["review_id"]: json.loads(line)["extraction"] for line in (g1a / "recorded_extractions.jsonl").open()}
    path = tmp_path / "extracted.jsonl"
    with path.open("w") as fh:
        for rest in ds.restaurants:
            reviews = [
                {"review_id": rv.review_id, "meta": {"stars": rv.stars, "useful": rv.useful, "date": rv.date}, "extraction": labels[rv.review_id]}
                for rv in compiled.filter_reviews(ds.reviews_of(rest.business_id))
            ]
            fh.write(json.dumps({"business_id": rest.business_id, "context": rest.raw, "reviews": reviews}) + "\n")
    return path


def test_eval_on_extracted_data_matches_expected(cli, g1a, tmp_path) -> None:
    path = _eval_input(g1a, tmp_path)
    r = cli("seed", "eval", g1a / "g1a_v2_seed.json", "--extracted", path, "--json")
    assert r.code == 0, r.err
    got = [json.loads(line) for line in r.out.splitlines()]
    expected = [json.loads(line) for line in (g1a / "expected_g1a_v2_k25.jsonl").open()]
    for g, e in zip(got, expected, strict=True):
        assert (g["business_id"], g["name"], g["n_filtered"], g["status"]) == (e["business_id"], e["name"], e["n_filtered"], "complete")
        _same(g["outputs"], e["outputs"])


def test_eval_input_errors_and_null_extractions(cli, g1a, tmp_path) -> None:
    seed = g1a / "g1a_v2_seed.json"
    bad = tmp_path / "bad.jsonl"
    good_review = {"review_id": "r1", "meta": {"stars": 1, "useful": 0, "date": "2024-02-01"},
                   "extraction": {"incident_severity": "severe", "account_type": "firsthand", "safety_interaction": "none"}}  # fmt: skip
    wrong = dict(good_review, extraction={"incident_severity": "sever", "account_type": "firsthand", "safety_interaction": "none"})
    bad.write_text(json.dumps({"business_id": "b", "context": {}, "reviews": [good_review, wrong]}) + "\n")
    r = cli("seed", "eval", seed, "--extracted", bad)
    assert r.code == 2
    assert r.err.splitlines()[-1] == (
        f"error: {bad}:1 /reviews/1/extraction/incident_severity: extraction.incident_severity is 'sever'; "
        "expected one of none, mild, moderate, severe"
    )
    nulls = tmp_path / "nulls.jsonl"
    nulls.write_text(json.dumps({"business_id": "b", "context": {"name": "B", "categories": "Thai"}, "reviews": [good_review, {"review_id": "r2", "meta": {}, "extraction": None}]}) + "\n")
    r = cli("seed", "eval", seed, "--extracted", nulls, "--json")
    assert r.code == 1
    obj = json.loads(r.out)
    assert (obj["status"], obj["n_filtered"], obj["outputs"]["N_TOTAL_INCIDENTS"]) == ("incomplete", 2, 1)
    assert obj["failed_reviews"] == [{"review_id": "r2", "status": "error", "error": "no extraction (null) in the input"}]


def test_runtime_fault_is_one_line_exit_2(cli, tmp_path) -> None:
    seed = {
        "task_name": "t", "filter": {"keywords": ["x"]},
        "extract": {"fields": [{"name": "f", "type": "enum", "values": {"a": "", "b": ""}}]},
        "compute": [{"name": "N", "op": "count"}, {"name": "R", "op": "expr", "expr": "1 / N"}], "output": ["R"],
    }  # fmt: skip
    sp = tmp_path / "seed.json"
    sp.write_text(json.dumps(seed))
    data = tmp_path / "extracted.jsonl"
    data.write_text(json.dumps({"business_id": "b9", "context": {}, "reviews": []}) + "\n")
    r = cli("seed", "eval", sp, "--extracted", data)
    assert (r.code, r.out) == (2, "")
    assert r.err == "error: step R (/compute/1), restaurant b9: division by zero (1 / 0)\n"


def test_run_with_an_invalid_seed_reads_nothing_and_exits_2(cli, g1a, tmp_path) -> None:
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text())
    seed["compute"][4]["expr"] = "N_TOTAL_INCIDENTS + 1"
    seed["output"].append("NOPE")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(seed))
    r = cli("seed", "run", path, "--data", tmp_path / "no-such-dir", "--extractor", "replay:/no/such/file")
    assert (r.code, r.out) == (2, "")
    assert r.err == f"error: {path}: /compute/4/expr: step 'N_TOTAL_INCIDENTS' refers to itself (and 1 more)\n"


SAMPLE = Path(__file__).resolve().parents[2] / "dinecheck" / "sample"


def test_bundled_sample_seed_is_clean_and_uses_every_op(cli) -> None:
    seed_path = SAMPLE / "allergy_risk_seed.json"
    r = cli("seed", "check", seed_path)
    assert r.code == 0 and r.out == f"{seed_path}: ok (21 steps, 10 outputs, 0 warning(s))\n"
    ops = {s["op"] for s in json.loads(seed_path.read_text())["compute"]}
    assert ops == {"define_filter", "count", "sum", "max", "min", "lookup", "expr", "const", "case"}


def test_bundled_sample_seed_runs_offline_on_the_sample_data(cli) -> None:
    r = cli("seed", "run", SAMPLE / "allergy_risk_seed.json", "--data", SAMPLE, "--extractor", "offline", "--json")
    assert r.code == 0, r.err
    lines = [json.loads(line) for line in r.out.splitlines()]
    restaurants = [json.loads(line)["business_id"] for line in (SAMPLE / "restaurants.jsonl").open()]
    assert [o["business_id"] for o in lines] == restaurants
    assert all(o["status"] == "complete" and o["outputs"]["RISK_LEVEL"] in {"low", "elevated", "high"} for o in lines)
    no_mentions = [o for o in lines if o["n_filtered"] == 0]
    assert no_mentions and all(o["outputs"]["RISK_LEVEL"] == "low" and o["outputs"]["N_RELEVANT"] == 0 for o in no_mentions)


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("__import__('os').system('touch PWNED')", "invalid expression: column 1: unknown function '__import__'; only max, min, abs, log and sqrt can be called"),
        ("().__class__", "invalid expression: column 1: empty parentheses: expected an expression"),
        ("10**10**10", "invalid expression: column 3: '**' (power) is not part of the expression language; use multiplication"),
        ("R + 1", "step 'R' refers to itself"),
    ],
)
def test_hostile_seed_through_the_cli(cli, tmp_path, monkeypatch, expr: str, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    seed = {
        "task_name": "t", "filter": {"keywords": ["x"]},
        "extract": {"fields": [{"name": "f", "type": "enum", "values": {"a": "", "b": ""}}]},
        "compute": [{"name": "R", "op": "expr", "expr": expr}], "output": ["R"],
    }  # fmt: skip
    (tmp_path / "seed.json").write_text(json.dumps(seed))
    r = cli("seed", "check", "seed.json")
    assert r.code == 2 and r.out.splitlines() == [f"error: /compute/0/expr: {message}", "seed.json: 1 error(s), 0 warning(s)"]
    (tmp_path / "x.jsonl").write_text(json.dumps({"business_id": "b", "context": {}, "reviews": []}) + "\n")
    r = cli("seed", "eval", "seed.json", "--extracted", "x.jsonl")
    assert (r.code, r.err) == (2, f"error: seed.json: /compute/0/expr: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seed.json", "x.jsonl"]


def test_human_output_prints_untrusted_text_verbatim(cli, tmp_path) -> None:
    seed = {
        "task_name": "t", "filter": {"keywords": ["x"]},
        "extract": {"fields": [{"name": "f", "type": "enum", "values": {"a": "", "b": ""}}]},
        "compute": [{"name": "V", "op": "const", "value": "[/bold] [red]x"}], "output": ["V"],
    }  # fmt: skip
    (tmp_path / "seed.json").write_text(json.dumps(seed))
    (tmp_path / "x.jsonl").write_text(json.dumps({"business_id": "b", "context": {"name": "[bold]Cafe[/]"}, "reviews": []}) + "\n")
    r = cli("seed", "eval", tmp_path / "seed.json", "--extracted", tmp_path / "x.jsonl")
    assert r.code == 0, r.err
    assert "[bold]Cafe[/] (b) — complete, 0 relevant review(s)" in r.out and "[/bold] [red]x" in r.out
