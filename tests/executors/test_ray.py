"""``--executor ray`` on a local 2-CPU Ray instance (started once for this module): byte-identical ``seed run --json``
output to the local executor on the G1a data replicated ×10, and one ``--max-cost`` budget for every worker, against
the fake OpenAI-compatible server over real HTTP.

Skipped with a message when ``ray`` is not installed; under ``CI=true`` that is a failure.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from tests.conftest import IN_CI

pytestmark = [pytest.mark.ray, pytest.mark.shared_data]

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


fake_llm = _load("fake_llm", ROOT / "tests" / "support" / "fake_llm.py")


@pytest.fixture(scope="module")
def ray_local():
    try:
        import ray
    except ImportError:
        if IN_CI:
            pytest.fail("ray is not installed, and CI=true requires it (pip install -e '.[dev]')")
        pytest.skip("ray is not installed (pip install 'dinecheck[ray]'); skipped outside CI")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="error")
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def g1a_x10(g1a: Path, tmp_path_factory) -> Path:
    rep = _load("make_replicated_dataset", ROOT / "bench" / "make_replicated_dataset.py")
    return rep.replicate(g1a, 10, tmp_path_factory.mktemp("g1a_x10"))


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    for key in ("DINECHECK_LLM_BASE_URL", "DINECHECK_LLM_MODEL", "DINECHECK_LLM_API_KEY", "RAY_ADDRESS"):
        monkeypatch.delenv(key, raising=False)


def test_ray_output_is_byte_identical_to_the_local_executor_on_x10(cli, ray_local, g1a, g1a_x10):
    args = ("seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a_x10, "--extractor", "offline", "--json")
    local = cli(*args, "--workers", "1")
    on_ray = cli(*args, "--executor", "ray")
    assert local.code == 0, local
    assert on_ray.code == local.code, on_ray
    assert len(local.out.splitlines()) == 1000
    assert on_ray.out == local.out
    assert ray_local.is_initialized()  # an instance the run did not start is left running


@pytest.fixture(scope="module")
def server(g1a: Path):
    with fake_llm.FakeLLM(g1a) as srv:
        yield srv


def test_one_budget_holds_across_ray_workers(cli, ray_local, g1a, server, tmp_path):
    server.control(reset=True, latency=0.01, reject_json_schema=False)
    config = tmp_path / "llm.toml"
    config.write_text('[llm.prices.fake]\ninput = 1000.0\noutput = 2000.0\n', encoding="utf-8")
    r = cli(
        "seed", "extract", g1a / "g1a_v2_seed.json", "--data", g1a, "--json", "--executor", "ray", "--workers", "2",
        "--extractor", "llm", "--base-url", server.base_url, "--model", "fake", "--cache", tmp_path / "c.sqlite",
        "--config", config, "--max-cost", "10", "--concurrency", "1",
    )
    assert r.code == 1, r
    lines = [json.loads(x) for x in r.out.splitlines()]
    summary = json.loads(next(x for x in r.err.splitlines() if x.startswith('{"summary"')))["summary"]
    assert len(lines) == 253
    n_ok = summary["statuses"]["ok"]
    assert 1 <= n_ok < 253 and summary["statuses"]["error"] == 253 - n_ok
    assert 0 < summary["cost"] <= 10.0  # the sum of what every worker was charged
    assert summary["calls"] == n_ok == server.stats()["extraction_requests"]  # no call was made past the budget
    m = re.fullmatch(
        r"the next call could cost up to \$([\d.]+), and \$([\d.]+) is spent \(\$([\d.]+) more in flight\) of the \$10\.000000 budget",
        summary["budget_exceeded"],
    )
    assert m, summary["budget_exceeded"]
    estimate, spent, in_flight = map(float, m.groups())
    assert spent + in_flight + estimate > 10.0
    # ONE coordinator: every dollar any worker was charged was spent or reserved there when it said no (and nothing
    # was reserved after that); with a budget per worker the other worker's spending would not be in this sum
    assert summary["cost"] <= spent + in_flight + 1e-5
    assert all(x["extraction"] == {} and x["error"].startswith("budget: ") for x in lines if x["status"] == "error")
    assert r.err.splitlines()[-1].startswith("error: --max-cost: the next call could cost up to $")


def test_seed_run_on_ray_stops_at_the_budget_with_exit_1(cli, ray_local, g1a, server, tmp_path):
    server.control(reset=True, latency=0.0, reject_json_schema=False)
    config = tmp_path / "llm.toml"
    config.write_text('[llm.prices.fake]\ninput = 1000.0\noutput = 2000.0\n', encoding="utf-8")
    r = cli(
        "seed", "run", g1a / "g1a_v2_seed.json", "--data", g1a, "--json", "--executor", "ray",
        "--extractor", "llm", "--base-url", server.base_url, "--model", "fake", "--no-cache",
        "--config", config, "--max-cost", "2",
    )
    assert r.code == 1, r
    results = [json.loads(x) for x in r.out.splitlines()]
    assert len(results) == 100
    failed = [f for x in results for f in x.get("failed_reviews", [])]
    assert failed and all(f["status"] == "error" and f["error"].startswith("budget: ") for f in failed)
    assert server.stats()["extraction_requests"] + len(failed) == sum(x["n_filtered"] for x in results)


@pytest.mark.postgres
def test_ray_workers_share_the_postgres_cache(cli, ray_local, g1a, server, pg_url):
    import uuid

    server.control(reset=True, latency=0.0, reject_json_schema=False)
    ids = [json.loads(x)["business_id"] for x in (g1a / "restaurants.jsonl").read_text(encoding="utf-8").splitlines()[:30]]
    args = (
        "seed", "extract", g1a / "g1a_v2_seed.json", "--data", g1a, "--json", "--executor", "ray", "--workers", "2",
        "--extractor", "llm", "--base-url", server.base_url, "--model", f"fake-{uuid.uuid4()}", "--cache-url", pg_url,
        *(x for b in ids for x in ("--restaurant", b)),
    )
    first = cli(*args)
    assert first.code == 0, first
    second = cli(*args)
    assert second.code == 0, second
    s1, s2 = (json.loads(next(x for x in r.err.splitlines() if x.startswith('{"summary"')))["summary"]
              for r in (first, second))
    n = len(first.out.splitlines())
    assert n > 20 and {json.loads(x)["business_id"] for x in first.out.splitlines()} <= set(ids)
    assert s1["calls"] == n == server.stats()["extraction_requests"] and s1["cache_hits"] == 0
    assert s2["calls"] == 0 and s2["cache_hits"] == n  # every worker found what the others stored
    assert second.out == first.out
