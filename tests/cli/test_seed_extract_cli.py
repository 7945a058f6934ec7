"""``dinecheck seed extract`` and ``seed run --extractor llm`` end to end, against the fake OpenAI-compatible server."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("fake_llm", Path(__file__).resolve().parents[1] / "support" / "fake_llm.py")
fake_llm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_llm)

pytestmark = pytest.mark.shared_data

SUMMARY_KEYS = ["reviews", "calls", "cache_hits", "retries", "tokens_in", "tokens_out", "cost", "statuses", "budget_exceeded"]


@pytest.fixture(scope="module")
def server(g1a: Path):
    with fake_llm.FakeLLM(g1a) as srv:
        yield srv


@pytest.fixture
def fake(server):
    server.control(reset=True, latency=0.0, reject_json_schema=False)
    return server


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    for key in ("DINECHECK_LLM_BASE_URL", "DINECHECK_LLM_MODEL", "DINECHECK_LLM_API_KEY"):
        monkeypatch.delenv(key, raising=False)


def extract(cli, g1a, *extra):
    return cli("seed", "extract", g1a / "g1a_v2_seed.json", "--data", g1a, *extra)


def llm_args(fake, tmp_path, *extra):
    return ("--extractor", "llm", "--base-url", fake.base_url, "--model", "fake", "--cache", tmp_path / "c.sqlite", *extra)


def parse(out: str) -> tuple[list[dict], dict]:
    lines = [json.loads(x) for x in out.splitlines()]
    assert list(lines[-1]) == ["summary"]
    return lines[:-1], lines[-1]["summary"]


def test_json_lines_match_recorded_labels_then_a_summary(cli, g1a, fake, tmp_path, recorded):
    r = extract(cli, g1a, "--json", *llm_args(fake, tmp_path, "--batch-size", "5"))
    assert r.code == 0, r
    lines, summary = parse(r.out)
    assert len(lines) == 253
    assert list(summary) == SUMMARY_KEYS
    assert summary["reviews"] == 253 and summary["calls"] == 51 and summary["cache_hits"] == 0
    assert summary["statuses"] == {"ok": 253} and summary["budget_exceeded"] is None
    for line in lines:
        assert list(line) == ["business_id", "review_id", "status", "extraction", "evidence"]
        assert line["status"] == "ok" and line["extraction"] == recorded[line["review_id"]]
        assert set(line["evidence"]) == {k for k, v in line["extraction"].items() if v != "none"}
        for ev in line["evidence"].values():
            assert list(ev) == ["quote", "verified"] and ev["verified"] is True
    assert r.err.startswith("warning: ")  # the g1a seed's unused step; no progress bar with a non-terminal stderr

    again = extract(cli, g1a, "--json", *llm_args(fake, tmp_path))
    lines2, summary2 = parse(again.out)
    assert lines2 == lines
    assert summary2["calls"] == 0 and summary2["cache_hits"] == 253 and summary2["tokens_in"] == 0


def test_seed_run_with_llm_equals_seed_run_with_replay_despite_faults(cli, g1a, fake, tmp_path):
    replay = cli("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--json",
                 "--extractor", f"replay:{g1a / 'recorded_extractions.jsonl'}")
    assert replay.code == 0, replay
    fake.control(faults=[
        {"kind": "429", "every": 7, "retry_after": 0},
        {"kind": "500", "every": 10},
        {"kind": "drop", "every": 17},
        {"kind": "malformed", "times": 2},
        {"kind": "out_of_enum", "times": 2},
        {"kind": "partial", "times": 2},
    ])
    config = tmp_path / "llm.toml"
    config.write_text("[llm]\ntimeout = 5\n", encoding="utf-8")
    llm = cli("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--json", "--config", config,
              *llm_args(fake, tmp_path, "--batch-size", "3", "--concurrency", "4"))
    assert llm.code == 0, llm
    assert [json.loads(x) for x in llm.out.splitlines()] == [json.loads(x) for x in replay.out.splitlines()]
    assert len(llm.out.splitlines()) == 100
    applied = fake.stats()["faults_applied"]
    assert set(applied) == {"429", "500", "drop", "malformed", "out_of_enum", "partial"}


def test_invalid_answers_surface_as_invalid_with_the_reason(cli, g1a, fake, tmp_path, recorded):
    target = "8p3BbQwgk9bDsWL0cXEzmg"  # a review with non-none recorded labels
    fake.control(faults=[{"kind": "out_of_enum", "review_id": target, "times": 2, "repairs": True}])
    r = extract(cli, g1a, "--json", *llm_args(fake, tmp_path))
    assert r.code == 1  # any invalid review: exit 1 (the output is still complete)
    lines, summary = parse(r.out)
    bad = [x for x in lines if x["review_id"] == target]
    assert bad == [{
        "business_id": bad[0]["business_id"], "review_id": target, "status": "invalid", "extraction": {}, "evidence": {},
        "error": "after one repair: field 'incident_severity' has \"not_a_declared_value\", which is not one of "
                 "'none', 'mild', 'moderate', 'severe'",
    }]
    assert summary["statuses"] == {"ok": 252, "invalid": 1}
    # seed run marks the restaurant incomplete (its exit code 1) instead of counting a default
    fake.control(faults=[{"kind": "out_of_enum", "review_id": target, "times": 2, "repairs": True}])
    run = cli("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--json", "--restaurant", bad[0]["business_id"],
              *llm_args(fake, tmp_path, "--no-cache"))
    assert run.code == 1, run
    out = json.loads(run.out)
    assert out["status"] == "incomplete"
    assert target in json.dumps(out)


def test_max_cost_stops_cleanly_with_exit_1(cli, g1a, fake, tmp_path):
    config = tmp_path / "llm.toml"
    config.write_text('[llm.prices.fake]\ninput = 1000.0\noutput = 2000.0\n', encoding="utf-8")
    r = extract(cli, g1a, "--json", "--config", config, "--max-cost", "3", "--concurrency", "1",
                *llm_args(fake, tmp_path))
    assert r.code == 1
    lines, summary = parse(r.out)
    assert len(lines) == 253
    n_ok = summary["statuses"]["ok"]
    assert 1 <= n_ok < 253 and summary["statuses"]["error"] == 253 - n_ok
    assert summary["cost"] <= 3.0 and summary["calls"] == n_ok
    assert summary["budget_exceeded"].startswith("the next call could cost up to $")
    assert all(x["extraction"] == {} and x["error"].startswith("budget: ") for x in lines if x["status"] == "error")
    assert r.err.splitlines()[-1].startswith("error: --max-cost: the next call could cost up to $")


def test_human_output(cli, g1a, fake, tmp_path):
    r = extract(cli, g1a, *llm_args(fake, tmp_path, "--restaurant", "e2l19ABu1xIn9hnvWukJ3Q"))
    assert r.code == 0
    assert r.out.splitlines() == [
        "e2l19ABu1xIn9hnvWukJ3Q ntIi0GZeAIm94ZJV0uB3ag ok      incident_severity=none account_type=none safety_interaction=none",
        "e2l19ABu1xIn9hnvWukJ3Q OfCRyOAV6jmlxYurIhElMA ok      incident_severity=none account_type=none safety_interaction=none",
        r.out.splitlines()[2],
    ]
    assert r.out.splitlines()[2].startswith("2 reviews · 2 calls · 0 cache hits · 0 retries · tokens ")
    assert r.out.splitlines()[2].endswith(" · ok 2")


def test_replay_extractor_through_seed_extract(cli, g1a, recorded):
    r = extract(cli, g1a, "--json", "--extractor", f"replay:{g1a / 'recorded_extractions.jsonl'}")
    assert r.code == 0, r
    lines, summary = parse(r.out)
    assert {x["review_id"]: x["extraction"] for x in lines} == {x["review_id"]: recorded[x["review_id"]] for x in lines}
    assert summary["calls"] == 0 and summary["reviews"] == 253


@pytest.mark.parametrize("as_json", [True, False])
def test_exit_1_when_any_review_is_error(cli, g1a, tmp_path, as_json):
    recorded_lines = (g1a / "recorded_extractions.jsonl").read_text().splitlines()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")  # every review is "error" (no recorded extraction)
    r = extract(cli, g1a, *(["--json"] if as_json else []), "--extractor", f"replay:{empty}")
    assert r.code == 1, r
    if as_json:
        lines, summary = parse(r.out)
        assert summary["statuses"] == {"error": 253} and summary["budget_exceeded"] is None
    # one missing record is enough
    first = json.loads(recorded_lines[0])["review_id"]
    partial = tmp_path / "partial.jsonl"
    partial.write_text("\n".join(x for x in recorded_lines if json.loads(x)["review_id"] != first) + "\n")
    r = extract(cli, g1a, "--json", "--extractor", f"replay:{partial}")
    assert r.code == 1
    assert parse(r.out)[1]["statuses"] == {"ok": 252, "error": 1}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--restaurant", "nope"), "error: --restaurant nope: no restaurant with business_id 'nope' in "),
        (("--extractor", "gpt5"), "error: --extractor: unknown extractor 'gpt5'; expected 'llm', 'offline' or 'replay:FILE'"),
        (("--extractor", "llm"), "error: --extractor llm: no language model is configured;"),
    ],
)
def test_usage_errors_are_one_line_exit_2(cli, g1a, args, expected):
    r = extract(cli, g1a, *args)
    assert r.code == 2 and r.out == ""
    errors = [x for x in r.err.splitlines() if not x.startswith("warning: ")]
    assert len(errors) == 1 and errors[0].startswith(expected)


def test_bad_seed_is_exit_2(cli, g1a, tmp_path):
    seed = tmp_path / "seed.json"
    seed.write_text('{"task_name": "x"}', encoding="utf-8")
    r = cli("seed", "extract", seed, "--data", g1a)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith(f"error: {seed}: ") and len(r.err.splitlines()) == 1


def test_seed_run_reuses_the_cache_filled_by_seed_extract(cli, g1a, fake, tmp_path):
    first = extract(cli, g1a, "--json", *llm_args(fake, tmp_path, "--batch-size", "10"))
    assert first.code == 0
    asked = fake.stats()["requests"]
    assert asked == 26
    run = cli("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--json", *llm_args(fake, tmp_path))
    assert run.code == 0, run
    assert fake.stats()["requests"] == asked  # zero calls: same prompt inputs, same cache keys
