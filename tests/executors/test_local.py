"""``--workers N``: chunking, the local process pool, failures crossing the process boundary, and the CLI output
being byte-identical to one worker (offline and replay extractors, JSONL and Parquet, G1a and the bundled sample)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.dataset.loader import load_dataset
from dinecheck.dataset.parquet import write_parquet
from dinecheck.errors import ConfigError, DataError, SeedError, WorkerError
from dinecheck.executors import LocalExecutor, make_executor, worker_extractor
from dinecheck.executors.partition import (
    MAX_CHUNK_RESTAURANTS,
    PartitionSpec,
    PartitionWorker,
    WorkerFailure,
    partitions,
)
from dinecheck.extract.factory import ExtractorOptions

SAMPLE = Path(__file__).resolve().parents[2] / "dinecheck" / "sample"
SAMPLE_SEED = SAMPLE / "allergy_risk_seed.json"


# ------------------------------------------------------------------------------------------------------ partitions


@given(st.lists(st.text(min_size=1, max_size=3), max_size=3000, unique=True), st.integers(min_value=1, max_value=16))
def test_partitions_are_contiguous_chunks_in_order(ids, workers):
    chunks = partitions(ids, workers)
    assert [b for c in chunks for b in c] == ids
    assert all(chunks) and all(len(c) <= MAX_CHUNK_RESTAURANTS for c in chunks)
    if ids:
        assert len(chunks) == max(min(len(ids), 4 * workers), -(-len(ids) // MAX_CHUNK_RESTAURANTS))
        assert max(map(len, chunks)) - min(map(len, chunks)) <= 1


def test_partitions_examples():
    assert partitions([], 2) == []
    assert partitions(["a", "b", "c"], 2) == [["a"], ["b"], ["c"]]
    assert partitions([str(i) for i in range(16)], 2) == [[str(i), str(i + 1)] for i in range(0, 16, 2)]
    assert partitions(list("abcde"), 1) == [["a", "b"], ["c"], ["d"], ["e"]]
    assert len(partitions([str(i) for i in range(10_000)], 2)) == 20  # 500 restaurants per chunk at most


# ------------------------------------------------------------------------------------------------------ make_executor


def test_make_executor_choices():
    assert make_executor("local", 1, None, "offline") is None
    assert make_executor("local", 4, None, "llm") is None  # LLM calls already run concurrently in one process
    pool = make_executor("local", 3, None, "replay:/x.jsonl")
    assert isinstance(pool, LocalExecutor) and pool.workers == 3
    with pytest.raises(ConfigError, match=r"^--executor: unknown executor 'dask'; expected 'local' or 'ray'$"):
        make_executor("dask", 2, None, "offline")
    with pytest.raises(ConfigError, match=r"^--ray-address: --ray-address needs --executor ray$"):
        make_executor("local", 2, "10.0.0.1:6379", "offline")


def test_ray_executor_without_ray_says_how_to_install(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "ray", None)  # "import ray" now raises ImportError
    with pytest.raises(ConfigError, match=r"^--executor: --executor ray needs Ray: pip install 'dinecheck\[ray\]'$"):
        make_executor("ray", None, None, "offline")


def test_worker_extractor_makes_the_replay_file_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DINECHECK_LLM_BASE_URL", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert worker_extractor("replay:rec.jsonl") == f"replay:{tmp_path / 'rec.jsonl'}"
    assert worker_extractor("offline") == "offline"
    assert worker_extractor("llm") == "llm"


# ------------------------------------------------------------------------------------------------------ workers


def _spec(data: Path, **kw) -> PartitionSpec:
    seed = json.loads(SAMPLE_SEED.read_text(encoding="utf-8"))
    return PartitionSpec(data=str(data), seed=seed, extractor="offline", options=ExtractorOptions(), **kw)


def test_worker_runs_a_chunk_like_one_process():
    ds, _ = load_dataset(SAMPLE)
    ids = [r.business_id for r in ds.restaurants]
    w = PartitionWorker(_spec(SAMPLE))
    first, second = w.run(0, ids[:4]), w.run(1, ids[4:])
    assert first.failure is None and second.failure is None
    assert [r.business_id for r in first.items + second.items] == ids
    assert first.stats["reviews"] == sum(r.n_filtered for r in first.items)
    w.close()


def test_worker_failure_is_returned_then_raised_as_the_same_error(tmp_path):
    res = PartitionWorker(_spec(SAMPLE)).run(7, ["no-such-business"])
    assert res.index == 7 and res.items == [] and res.failure is not None
    err = res.failure.exception()
    assert type(err) is DataError
    assert str(err) == f"{SAMPLE}: no restaurant with business_id 'no-such-business' in the worker's copy"
    bad = PartitionWorker(_spec(tmp_path / "missing")).run(0, ["x"])
    assert type(bad.failure.exception()) is DataError
    assert "not a dataset directory" in str(bad.failure.exception())


def test_worker_failure_of_a_bug_keeps_the_traceback():
    try:
        raise KeyError("boom")
    except KeyError as exc:
        f = WorkerFailure.of(exc)
    err = f.exception()
    assert isinstance(err, WorkerError) and "a worker failed with KeyError" in str(err) and "Traceback" in str(err)
    seed_err = WorkerFailure("SeedError", "bad seed", "s.json").exception()
    assert type(seed_err) is SeedError and str(seed_err) == "s.json: bad seed"


def test_local_pool_yields_every_chunk_in_order():
    ds, _ = load_dataset(SAMPLE)
    ids = [r.business_id for r in ds.restaurants]
    chunks = partitions(ids, 2)
    got = list(LocalExecutor(2).map(_spec(SAMPLE), chunks, ds))
    assert [p.index for p in got] == list(range(len(chunks)))
    assert [r.business_id for p in got for r in p.items] == ids


def test_spawn_workers_open_the_dataset_by_path(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])  # as on a platform without fork
    ds, _ = load_dataset(SAMPLE)
    ids = [r.business_id for r in ds.restaurants]
    got = list(LocalExecutor(2).map(_spec(SAMPLE), partitions(ids, 2), ds))
    assert [r.business_id for p in got for r in p.items] == ids
    assert os.getpid() not in {p.worker for p in got}  # the chunks ran in spawned processes


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="needs fork")
def test_a_worker_that_dies_is_an_error_not_a_hang(monkeypatch):
    monkeypatch.setattr(PartitionWorker, "run", lambda self, i, c: os._exit(3))  # inherited by the forked workers
    ds, _ = load_dataset(SAMPLE)
    with pytest.raises(WorkerError, match=r"^--workers: worker process dinecheck-worker-\d exited \(code 3\) with work outstanding$"):
        list(LocalExecutor(2).map(_spec(SAMPLE), partitions([r.business_id for r in ds.restaurants], 2), ds))


# ------------------------------------------------------------------------------------------------------ CLI


def _run(cli, seed: Path, data: Path, *extra: str):
    r = cli("seed", "run", seed, "--data", data, "--json", *extra)
    assert r.code in (0, 1), r
    return r


def test_sample_workers_2_equals_workers_1(cli, tmp_path):
    one = _run(cli, SAMPLE_SEED, SAMPLE, "--extractor", "offline", "--workers", "1", "--trace")
    two = _run(cli, SAMPLE_SEED, SAMPLE, "--extractor", "offline", "--workers", "2", "--trace")
    assert two.out == one.out and two.code == one.code
    assert len(one.out.splitlines()) == 10
    pq = write_parquet(load_dataset(SAMPLE)[0], tmp_path / "pq")  # workers open Parquet by path
    three = _run(cli, SAMPLE_SEED, pq, "--extractor", "offline", "--workers", "3", "--trace")
    assert three.out == one.out


def test_sample_restaurant_selection_keeps_the_asked_order(cli):
    ds, _ = load_dataset(SAMPLE)
    ids = [r.business_id for r in ds.restaurants][::-1][:5]
    args = [x for b in ids for x in ("--restaurant", b)]
    two = _run(cli, SAMPLE_SEED, SAMPLE, "--extractor", "offline", "--workers", "2", *args)
    assert [json.loads(x)["business_id"] for x in two.out.splitlines()] == ids
    assert two.out == _run(cli, SAMPLE_SEED, SAMPLE, "--extractor", "offline", "--workers", "1", *args).out


@pytest.mark.shared_data
def test_g1a_workers_2_equals_workers_1_offline_and_replay(cli, g1a):
    seed = g1a / "g1a_v2_seed.json"
    one = _run(cli, seed, g1a, "--extractor", "offline", "--workers", "1")
    two = _run(cli, seed, g1a, "--extractor", "offline", "--workers", "2")
    assert two.out == one.out and two.code == one.code and len(one.out.splitlines()) == 100
    replay = f"replay:{g1a / 'recorded_extractions.jsonl'}"
    r1 = _run(cli, seed, g1a, "--extractor", replay, "--workers", "1", "--trace")
    r2 = _run(cli, seed, g1a, "--extractor", replay, "--workers", "2", "--trace")
    assert r2.out == r1.out and r1.code == 0


@pytest.mark.shared_data
def test_g1a_seed_extract_workers_2_equals_workers_1(cli, g1a):
    args = ("seed", "extract", g1a / "g1a_v2_seed.json", "--data", g1a, "--extractor", "offline", "--json")
    one, two = cli(*args, "--workers", "1"), cli(*args, "--workers", "2")
    assert one.code == 0 and two.code == 0
    assert two.out == one.out
    assert two.err == one.err  # the summary (on stderr) is the sum over the workers
    summary = json.loads(next(x for x in two.err.splitlines() if x.startswith('{"summary"')))["summary"]
    assert summary["reviews"] == 253 and len(two.out.splitlines()) == 253


def test_worker_error_reaches_the_cli_as_one_line(cli, tmp_path):
    r = cli("seed", "run", SAMPLE_SEED, "--data", SAMPLE, "--extractor", f"replay:{tmp_path / 'none.jsonl'}", "--workers", "2")
    assert r.code == 2 and r.err.splitlines()[-1] == f"error: {tmp_path / 'none.jsonl'}: no such file"
