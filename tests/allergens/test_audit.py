"""The audit trail: the row model, the unmatched-token report, ``--since`` parsing, and concurrent writers losing
nothing on one SQLite file and on PostgreSQL (threads with their own connections, threads sharing one store, and
separate processes)."""

from __future__ import annotations

import multiprocessing
import threading
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from dinecheck.allergens.audit import AuditQueryError, AuditRow, parse_since, unmatched_report
from dinecheck.allergens.detect import Finding
from dinecheck.allergens.ontology import ALLERGEN_CODES, RiskLevel
from dinecheck.allergens.phrases import PhraseHit
from dinecheck.allergens.pipeline import LabelResult
from dinecheck.allergens.store import open_store
from dinecheck.allergens.store.postgres import PostgresStore


def row(writer: str, i: int, unmatched: tuple[str, ...] = ()) -> AuditRow:
    return AuditRow(f"{writer}/{i}", f"{writer}-{i}", ("PEANUT",), "SAFE", {"w": writer, "i": i}, unmatched, (),
                    1.0, 2, 2, 0.1)  # fmt: skip


# ------------------------------------------------------------------------------------------------ model


def test_from_result_keeps_everything() -> None:
    finding = Finding("PEANUT", RiskLevel.DERIVED, "ingredient", "arachis oil", (0, 11), ("arachis oil", "peanut_oil",
                      "PEANUT"), "arachis oil is peanut oil")  # fmt: skip
    hit = PhraseHit("may contain", "CROSS_CONTAMINATION", RiskLevel.TRACE, (), (20, 31))
    result = LabelResult("AVOID", (finding,), ("zzq",), (hit,), 0.392, 0.5, 2, 1, ("unknown ingredient: zzq",))
    when = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)
    r = AuditRow.from_result(result, "arachis oil, zzq. may contain", ["PEANUT", "MILK"], 0.75, "p1", when)
    assert r == AuditRow(
        raw_input="arachis oil, zzq. may contain", product_id="p1", profile=("PEANUT", "MILK"), verdict="AVOID",
        result=result.to_json("p1"), unmatched_tokens=("zzq",), risk_phrases=("may contain",), confidence=0.392,
        tokens_processed=2, tokens_matched=1, processing_time_ms=0.75, created_at=when,
    )  # fmt: skip
    assert r.result["id"] == "p1" and r.result["allergens"][0]["token"] == "arachis oil"
    assert r.to_json()["created_at"] == "2026-11-25T21:00:00+00:00"


def test_unmatched_report_orders_by_count_then_token() -> None:
    rows = [row("a", 1, ("Zeta", "alpha")), row("a", 2, ("zeta", " ")), row("a", 3, ("beta",)), row("a", 4)]
    assert [(u.token, u.count) for u in unmatched_report(rows)] == [("zeta", 2), ("alpha", 1), ("beta", 1)]
    assert unmatched_report([]) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-25", datetime(2026, 11, 25, tzinfo=UTC)),
        ("2026-11-25T21:30:00Z", datetime(2026, 11, 25, 21, 30, tzinfo=UTC)),
        ("2026-11-25T22:30:00+01:00", datetime(2026, 11, 25, 22, 30, tzinfo=timezone(timedelta(hours=1)))),
    ],
)
def test_parse_since(text: str, expected: datetime) -> None:
    assert parse_since(text) == expected


def test_parse_since_rejects_junk() -> None:
    with pytest.raises(AuditQueryError) as err:
        parse_since("yesterday")
    assert str(err.value) == (
        "--since: 'yesterday' is not an ISO-8601 date or date-time (e.g. 2026-11-25 or 2026-11-25T21:00:00Z)"
    )


# ------------------------------------------------------------------------------------------------ concurrency


MINI_DATA: dict[str, str] = {
    "allergens.tsv": "".join(f"{c}\t{c.title()}\n" for c in ALLERGEN_CODES),
    "ingredients/x.jsonl": '{"id": "peanut", "allergens": {"PEANUT": "DEFINITE"}, "names": {"en": ["peanut"]}}\n',
}


@pytest.fixture(scope="module")
def mini_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-ingredient ontology: these tests are about the audit table, not the shipped data."""
    root = tmp_path_factory.mktemp("mini_data")
    for rel, text in MINI_DATA.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'audit.sqlite'}"
        return
    base = request.getfixturevalue("pg_url")
    url = f"{base}{'&' if '?' in base else '?'}schema=a_{uuid.uuid4().hex[:12]}"
    yield url
    s = PostgresStore.from_url(url)
    try:
        s.drop_schema()
    finally:
        s.close()


WRITERS, BATCHES, PER_BATCH = 6, 10, 5


def _write(url: str, writer: str, data: Path) -> None:
    with open_store(url, data_dir=data) as s:
        for b in range(BATCHES):
            s.write_audit([row(writer, b * PER_BATCH + i) for i in range(PER_BATCH)])


def _assert_every_row(url: str, writers: list[str], data: Path) -> None:
    with open_store(url, data_dir=data) as s:
        rows = s.audit()
    assert len(rows) == len(writers) * BATCHES * PER_BATCH
    assert Counter(r.raw_input for r in rows) == Counter(
        f"{w}/{i}" for w in writers for i in range(BATCHES * PER_BATCH)
    )
    assert len({r.id for r in rows}) == len(rows)
    # each writer's rows keep their order (ids grow within a writer)
    for w in writers:
        mine = [int(r.raw_input.split("/")[1]) for r in rows if r.raw_input.startswith(f"{w}/")]
        assert mine == sorted(mine)


def test_threads_with_their_own_connections_lose_nothing(db_url: str, mini_data: Path) -> None:
    open_store(db_url, data_dir=mini_data).close()  # create, migrate, seed once: the writers race on the audit table
    writers = [f"t{i}" for i in range(WRITERS)]
    errors: list[BaseException] = []

    def run(w: str) -> None:
        try:
            _write(db_url, w, mini_data)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(w,)) for w in writers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    _assert_every_row(db_url, writers, mini_data)


def test_threads_sharing_one_store_lose_nothing(db_url: str, mini_data: Path) -> None:
    writers = [f"s{i}" for i in range(WRITERS)]
    with open_store(db_url, data_dir=mini_data) as shared:

        def run(w: str) -> None:
            for b in range(BATCHES):
                shared.write_audit([row(w, b * PER_BATCH + i) for i in range(PER_BATCH)])
                shared.ontology()  # reads interleave with the writes

        threads = [threading.Thread(target=run, args=(w,)) for w in writers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    _assert_every_row(db_url, writers, mini_data)


def test_processes_lose_nothing_and_race_safely_on_a_fresh_database(db_url: str, mini_data: Path) -> None:
    """Four processes open the same *fresh* database at once: it is migrated and seeded exactly once."""
    ctx = multiprocessing.get_context("fork")
    writers = [f"p{i}" for i in range(4)]
    procs = [ctx.Process(target=_write, args=(db_url, w, mini_data)) for w in writers]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    _assert_every_row(db_url, writers, mini_data)
    with open_store(db_url, data_dir=mini_data) as s:
        st = s.stats()
        assert st.schema_version == 2 and st.ontology_version == 1  # seeded once, not once per process
