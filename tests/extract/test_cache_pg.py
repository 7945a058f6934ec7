"""The PostgreSQL extraction cache (``--cache-url``): round trip, upsert, damaged rows, bad URLs, and an LLM re-run that
asks the model nothing (fake server over real HTTP)."""

from __future__ import annotations

import importlib.util
import json
import uuid
from pathlib import Path

import psycopg
import pytest

from dinecheck.cli.extractor_options import build_options
from dinecheck.errors import ConfigError, StoreError
from dinecheck.extract.base import Evidence, FieldSpec, ReviewInput
from dinecheck.extract.cache_pg import TABLE, PostgresExtractionCache, display_url
from dinecheck.extract.factory import ExtractorOptions
from dinecheck.extract.llm import LLMExtractor

pytestmark = pytest.mark.postgres

_spec = importlib.util.spec_from_file_location("fake_llm", Path(__file__).resolve().parents[1] / "support" / "fake_llm.py")
fake_llm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_llm)


def test_round_trip_upsert_and_miss(pg_url):
    key = f"k-{uuid.uuid4()}"
    c = PostgresExtractionCache(pg_url)
    assert c.get(key) is None
    c.put(key, "m", {"f": "mild"}, {"f": Evidence("had hives", True)})
    assert c.get(key) == ({"f": "mild"}, {"f": Evidence("had hives", True)})
    c.put(key, "m", {"f": "none"}, {})
    assert c.get(key) == ({"f": "none"}, {})
    c.close()
    again = PostgresExtractionCache(pg_url)  # persisted, visible to another connection (another worker)
    assert again.get(key) == ({"f": "none"}, {})
    again.close()


def test_a_damaged_row_is_a_miss(pg_url):
    key = f"k-{uuid.uuid4()}"
    c = PostgresExtractionCache(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"INSERT INTO {TABLE} VALUES (%s, 'm', '[1, 2]', '{{}}', 0)", (key,))
    assert c.get(key) is None
    c.close()


def test_unreachable_server_is_a_store_error_without_the_password():
    with pytest.raises(StoreError) as exc:
        PostgresExtractionCache("postgresql://u:sekrit@127.0.0.1:1/db")
    assert str(exc.value).startswith("postgresql://u:***@127.0.0.1:1/db: cannot open the extraction cache (")
    assert "sekrit" not in str(exc.value)
    assert display_url("postgresql://h/db") == "postgresql://h/db"


def test_cache_url_options_are_checked():
    with pytest.raises(ConfigError, match=r"^--cache-url: give either --cache \(a SQLite file\) or --cache-url"):
        build_options(cache=Path("c.sqlite"), cache_url="postgresql://h/db")
    with pytest.raises(ConfigError, match=r"^--cache-url: expected a postgresql:// URL, got 'mysql'$"):
        build_options(cache_url="mysql://h/db")
    assert build_options(cache_url="postgresql://h/db").cache_url == "postgresql://h/db"


@pytest.mark.shared_data
def test_llm_rerun_with_the_postgres_cache_makes_no_calls(pg_url, g1a):
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text(encoding="utf-8"))
    fields = [FieldSpec(**f) for f in seed["extract"]["fields"]]
    reviews = [
        ReviewInput(r["business_id"], r["review_id"], r["text"], {})
        for r in map(json.loads, (g1a / "reviews.jsonl").read_text(encoding="utf-8").splitlines()[:200])
        if "nut" in r["text"].lower()
    ]
    assert reviews
    model = f"fake-{uuid.uuid4()}"  # the cache key covers the model: a fresh one starts empty
    with fake_llm.FakeLLM(g1a) as srv:
        opts = ExtractorOptions(base_url=srv.base_url, model=model, cache_url=pg_url, concurrency=4)
        first = LLMExtractor.from_options(opts)
        got = first.extract(fields, reviews)
        first.close()
        second = LLMExtractor.from_options(opts)
        again = second.extract(fields, reviews)
        second.close()
        calls = srv.stats()["extraction_requests"]
    assert [r.values for r in again] == [r.values for r in got] and all(r.ok for r in got)
    assert first.stats.calls == len(reviews) == calls and second.stats.calls == 0
    assert second.stats.cache_hits == len(reviews)
