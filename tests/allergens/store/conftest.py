"""Backends for the store suite: every test taking ``store_url`` runs once on SQLite and once on PostgreSQL.

PostgreSQL tests use a fresh schema per test (``?schema=…``) on the server named by ``DINECHECK_TEST_PG_URL``, dropped
afterwards, so runs on a shared server never collide.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from dinecheck.allergens.store.postgres import PostgresStore


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ontology.sqlite'}"
        return
    base = request.getfixturevalue("pg_url")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}schema={schema}"
    cleanup = PostgresStore.from_url(f"{base}{sep}schema={schema}")
    try:
        cleanup.drop_schema()
    finally:
        cleanup.close()
