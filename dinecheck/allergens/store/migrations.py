"""Versioned schema migrations of the allergen store, one SQL script per version and dialect.

The ``schema_migrations`` table records every applied version (``version``, ``name``, ``applied_at``). A store applies
the missing versions in order, each in its own transaction, while holding the dialect's write lock (SQLite
``BEGIN IMMEDIATE``; PostgreSQL ``pg_advisory_xact_lock``), so two processes opening a fresh database at the same time
cannot both migrate it. Migrations are append-only: never edit a released version, add a new one.

Tables (the spec's, plus ``ontology_meta`` for the version counter and the seed fingerprint):

* ``allergen_categories`` (code, name)
* ``canonical_ingredients`` (id, canonical_name, parent_id → canonical_ingredients, category, source)
* ``ingredient_allergen_map`` (ingredient_id, allergen_code, risk_level ∈ DEFINITE/DERIVED/POSSIBLE/TRACE)
* ``compound_ingredients`` (compound_id, component_id, position)
* ``ingredient_synonyms`` (synonym, synonym_normalized, canonical_id, language_code, region_code, synonym_type,
  source ∈ DATA/USER/OFF, created_at)
* ``risk_phrases`` (phrase, phrase_normalized, language_code, risk_type, risk_level, allergen_codes)
* ``normalization_audit_log`` (raw_input, product_id, profile, verdict, normalized_result, unmatched_tokens,
  risk_phrases_found, confidence_score, tokens_processed, tokens_matched, processing_time_ms, created_at)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Dialect = Literal["sqlite", "postgres"]


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]

    def statements(self, dialect: Dialect) -> tuple[str, ...]:
        return self.sqlite if dialect == "sqlite" else self.postgres


_LEVELS = "('DEFINITE','DERIVED','POSSIBLE','TRACE')"
_SOURCES = "('DATA','USER','OFF')"


def _ontology_tables(ts_type: str, id_col: str) -> tuple[str, ...]:
    return (
        "CREATE TABLE ontology_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO ontology_meta (key, value) VALUES ('ontology_version', '0')",
        "CREATE TABLE allergen_categories (code TEXT PRIMARY KEY, name TEXT NOT NULL)",
        "CREATE TABLE canonical_ingredients ("
        " id TEXT PRIMARY KEY,"
        " canonical_name TEXT NOT NULL,"
        " parent_id TEXT REFERENCES canonical_ingredients(id) DEFERRABLE INITIALLY DEFERRED,"
        " category TEXT,"
        f" source TEXT NOT NULL DEFAULT 'DATA' CHECK (source IN {_SOURCES}))",
        "CREATE TABLE ingredient_allergen_map ("
        " ingredient_id TEXT NOT NULL REFERENCES canonical_ingredients(id) DEFERRABLE INITIALLY DEFERRED,"
        " allergen_code TEXT NOT NULL REFERENCES allergen_categories(code) DEFERRABLE INITIALLY DEFERRED,"
        f" risk_level TEXT NOT NULL CHECK (risk_level IN {_LEVELS}),"
        " PRIMARY KEY (ingredient_id, allergen_code))",
        "CREATE TABLE compound_ingredients ("
        " compound_id TEXT NOT NULL REFERENCES canonical_ingredients(id) DEFERRABLE INITIALLY DEFERRED,"
        " component_id TEXT NOT NULL REFERENCES canonical_ingredients(id) DEFERRABLE INITIALLY DEFERRED,"
        " position INTEGER NOT NULL,"
        " PRIMARY KEY (compound_id, component_id))",
        "CREATE TABLE ingredient_synonyms ("
        f" id {id_col},"
        " synonym TEXT NOT NULL,"
        " synonym_normalized TEXT NOT NULL,"
        " canonical_id TEXT NOT NULL REFERENCES canonical_ingredients(id) DEFERRABLE INITIALLY DEFERRED,"
        " language_code TEXT,"
        " region_code TEXT,"
        " synonym_type TEXT NOT NULL,"
        f" source TEXT NOT NULL DEFAULT 'DATA' CHECK (source IN {_SOURCES}),"
        f" created_at {ts_type})",
        "CREATE INDEX ix_synonyms_normalized ON ingredient_synonyms (synonym_normalized)",
        "CREATE INDEX ix_synonyms_canonical ON ingredient_synonyms (canonical_id)",
        "CREATE TABLE risk_phrases ("
        f" id {id_col},"
        " phrase TEXT NOT NULL,"
        " phrase_normalized TEXT NOT NULL,"
        " language_code TEXT NOT NULL,"
        " risk_type TEXT NOT NULL,"
        f" risk_level TEXT NOT NULL CHECK (risk_level IN {_LEVELS}),"
        " allergen_codes TEXT NOT NULL DEFAULT '')",
    )


def _audit_tables(ts_type: str, id_col: str, real: str) -> tuple[str, ...]:
    return (
        "CREATE TABLE normalization_audit_log ("
        f" id {id_col},"
        " raw_input TEXT NOT NULL,"
        " product_id TEXT,"
        " profile TEXT NOT NULL,"
        " verdict TEXT NOT NULL CHECK (verdict IN ('SAFE','AVOID','VERIFY')),"
        " normalized_result TEXT NOT NULL,"
        " unmatched_tokens TEXT NOT NULL,"
        " risk_phrases_found TEXT NOT NULL,"
        f" confidence_score {real} NOT NULL,"
        " tokens_processed INTEGER NOT NULL,"
        " tokens_matched INTEGER NOT NULL,"
        f" processing_time_ms {real} NOT NULL,"
        f" created_at {ts_type} NOT NULL)",
        "CREATE INDEX ix_audit_created_at ON normalization_audit_log (created_at)",
    )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "ontology tables",
        sqlite=_ontology_tables("TEXT", "INTEGER PRIMARY KEY AUTOINCREMENT"),
        postgres=_ontology_tables("TIMESTAMPTZ", "BIGSERIAL PRIMARY KEY"),
    ),
    Migration(
        2,
        "normalization audit log",
        sqlite=_audit_tables("TEXT", "INTEGER PRIMARY KEY AUTOINCREMENT", "REAL"),
        postgres=_audit_tables("TIMESTAMPTZ", "BIGSERIAL PRIMARY KEY", "DOUBLE PRECISION"),
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version

MIGRATIONS_TABLE = {
    "sqlite": "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    "postgres": "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)",
}


def pending(applied: set[int]) -> list[Migration]:
    """The migrations not yet applied, in version order."""
    return [m for m in MIGRATIONS if m.version not in applied]
