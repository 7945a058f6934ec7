"""The results store: SQLite and PostgreSQL, incremental re-builds keyed by review id + text hash + provenance."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest

from dinecheck import load_dataset, make_extractor
from dinecheck.errors import StoreError
from dinecheck.risk.build import build_evidence
from dinecheck.risk.store import DB_ENV, default_sqlite_path, open_risk_store


def _copy(mini: Path, tmp: Path) -> Path:
    d = tmp / "data"
    shutil.copytree(mini, d)
    return d


def _rewrite_review(data: Path, review_id: str, text: str) -> None:
    lines = (data / "reviews.jsonl").read_text().splitlines()
    out = []
    for ln in lines:
        o = json.loads(ln)
        if o["review_id"] == review_id:
            o["text"] = text
        out.append(json.dumps(o))
    (data / "reviews.jsonl").write_text("\n".join(out) + "\n")


def _incremental(url: str, mini: Path, tmp: Path) -> None:
    data = _copy(mini, tmp)
    ds, _ = load_dataset(data)
    with open_risk_store(url) as store:
        idx1, r1 = build_evidence(ds, make_extractor("offline"), codes=("PEANUT", "MILK"), store=store)
        assert (r1.extracted, r1.reused) == (5, 0)
        _, r2 = build_evidence(ds, make_extractor("offline"), codes=("PEANUT", "MILK"), store=store)
        assert (r2.extracted, r2.reused) == (0, 5)
        stored = store.evidence(None, ["PEANUT", "MILK"])
        assert stored == idx1.by_restaurant
        assert store.evidence(["rm-quiet"], ["PEANUT"]) == {"rm-quiet": {"PEANUT": idx1.by_restaurant["rm-quiet"]["PEANUT"]}}
    _rewrite_review(data, "rm-quiet-r0", "I'm allergic to peanuts and still enjoyed the soup.")
    _rewrite_review(data, "rm-unknown-r0", "My peanut allergy was no problem here.")
    ds2, _ = load_dataset(data)
    with open_risk_store(url) as store:
        _, r3 = build_evidence(ds2, make_extractor("offline"), codes=("PEANUT", "MILK"), store=store)
        assert (r3.allergy_reviews, r3.extracted, r3.reused) == (6, 2, 4)
        _, r4 = build_evidence(ds2, make_extractor(f"replay:{mini / 'labels.jsonl'}"), codes=("PEANUT",), store=store)
        assert (r4.extracted, r4.reused) == (6, 0)  # another extractor: its own labels
        assert store.evidence(["rm-aware"], ["PEANUT"])["rm-aware"]["PEANUT"].level == "accommodating"
        names = store.restaurants()
        assert ("rm-bakery", "Peanut Gallery Bakery", "100 Test St, Philadelphia, PA") in names
        assert store.meta()["extractor"].startswith("replay:labels.jsonl:")


def test_sqlite_incremental(mini: Path, tmp_path: Path) -> None:
    _incremental(f"sqlite:///{tmp_path / 'r.sqlite'}", mini, tmp_path)


def test_postgres_incremental(mini: Path, tmp_path: Path, pg_url: str) -> None:
    schema = f"risk_{uuid.uuid4().hex[:8]}"
    _incremental(f"{pg_url}?schema={schema}", mini, tmp_path)
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def test_default_location_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert default_sqlite_path().name == "risk.sqlite"
    monkeypatch.setenv(DB_ENV, str(tmp_path / "env.sqlite"))
    with open_risk_store() as store:
        assert store.url == str(tmp_path / "env.sqlite")


def test_reading_a_store_that_was_never_built_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no allergy evidence store here yet; build it with: dinecheck risk build"):
        open_risk_store(str(tmp_path / "none.sqlite"), create=False)


@pytest.mark.parametrize(("url", "message"), [
    ("", "the database URL is empty"),
    ("mysql://x/y", "unsupported database URL scheme 'mysql'"),
    ("sqlite://rel.sqlite", "a SQLite URL is sqlite:///relative/file.sqlite"),
])  # fmt: skip
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        open_risk_store(url)


def test_unreachable_postgres_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="cannot connect"):
        open_risk_store("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_one_store_serves_threads(mini: Path, tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    ds, _ = load_dataset(mini)
    with open_risk_store(str(tmp_path / "t.sqlite")) as store:
        index, _ = build_evidence(ds, make_extractor("offline"), codes=("PEANUT",), store=store)
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda _: store.evidence(None, ["PEANUT"]), range(40)))
    assert all(g == index.by_restaurant for g in got)
