"""The SQLite extraction cache: round trip, persistence, concurrent writers, damaged files."""

from __future__ import annotations

import threading

import pytest

from dinecheck.errors import StoreError
from dinecheck.extract.base import Evidence
from dinecheck.extract.cache import ExtractionCache, default_cache_path


def test_round_trip_and_miss(tmp_path):
    c = ExtractionCache(tmp_path / "c.sqlite")
    assert c.get("k") is None
    c.put("k", "model-a", {"f": "mild", "g": "none"}, {"f": Evidence("had hives", True)})
    assert c.get("k") == ({"f": "mild", "g": "none"}, {"f": Evidence("had hives", True)})
    assert len(c) == 1
    c.close()


def test_persists_across_reopen_and_creates_parent_dirs(tmp_path):
    path = tmp_path / "deep" / "dir" / "c.sqlite"
    c = ExtractionCache(path)
    c.put("k", "m", {"f": "x"}, {})
    c.close()
    again = ExtractionCache(path)
    assert again.get("k") == ({"f": "x"}, {})
    again.close()


def test_concurrent_threads_write_and_read_safely(tmp_path):
    c = ExtractionCache(tmp_path / "c.sqlite")
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(50):
                key = f"{n}-{i}"
                c.put(key, "m", {"f": str(i)}, {"f": Evidence(f"q{i}", i % 2 == 0)})
                assert c.get(key) == ({"f": str(i)}, {"f": Evidence(f"q{i}", i % 2 == 0)})
        except BaseException as exc:  # noqa: BLE001 - collected and re-raised in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(c) == 400
    c.close()


def test_two_connections_share_one_file(tmp_path):
    a, b = ExtractionCache(tmp_path / "c.sqlite"), ExtractionCache(tmp_path / "c.sqlite")
    a.put("k", "m", {"f": "v"}, {})
    assert b.get("k") == ({"f": "v"}, {})
    a.close()
    b.close()


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path):
    bad = tmp_path / "c.sqlite"
    bad.write_bytes(b"this is not sqlite " * 100)
    with pytest.raises(StoreError) as ei:
        ExtractionCache(bad)
    assert ei.value.location == str(bad)
    assert "cannot open the extraction cache (file is not a database)" in ei.value.reason


def test_a_damaged_row_is_a_miss_not_a_crash(tmp_path):
    c = ExtractionCache(tmp_path / "c.sqlite")
    c._conn.execute(  # simulate a row written by something else
        "INSERT INTO extraction (key, model, values_json, evidence_json, created_at) VALUES ('k','m','{not json','{}',0)"
    )
    assert c.get("k") is None
    c.close()


def test_default_path_is_under_the_user_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "dinecheck" / "llm_cache.sqlite"
