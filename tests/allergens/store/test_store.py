"""The allergen store on SQLite and PostgreSQL: migrations, seeding, cache, synonym edits, audit log, URLs."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dinecheck.allergens.audit import AuditRow
from dinecheck.allergens.ontology import ALLERGEN_CODES, Ingredient, RiskLevel, load_data_dir
from dinecheck.allergens.store import SynonymInput, open_store
from dinecheck.allergens.store.migrations import LATEST_VERSION, MIGRATIONS, MIGRATIONS_TABLE
from dinecheck.allergens.store.seed import shipped_data_dir
from dinecheck.allergens.store.sqlite import SqliteStore
from dinecheck.errors import OntologyError, StoreError

INGREDIENTS = [
    {"id": "peanut", "allergens": {"PEANUT": "DEFINITE"}, "names": {"en": ["peanut", "groundnut"], "fr": ["arachide"]},
     "inflections": {"en": ["peanuts"]}, "regional": [{"text": "mungfali", "lang": "hi", "region": "IN"}],
     "scientific": ["Arachis hypogaea"]},
    {"id": "peanut_oil", "parent": "peanut", "category": "oil", "allergens": {"PEANUT": "DERIVED"},
     "names": {"en": ["peanut oil", "arachis oil"]}},
    {"id": "milk", "allergens": {"MILK": "DEFINITE"}, "names": {"en": ["milk"], "de": ["Milch"]}},
    {"id": "whey", "allergens": {"MILK": "DEFINITE"}, "names": {"en": ["whey"]}},
    {"id": "whey_protein_concentrate", "names": {"en": ["whey protein concentrate", "WPC"]},
     "contains": ["whey", "milk"]},
    {"id": "soy_lecithin", "allergens": {"SOY": "POSSIBLE"}, "names": {"en": ["soy lecithin"]}, "e_number": "E322"},
    {"id": "sugar", "category": "sugar", "names": {"en": ["sugar"], "fr": ["sucre"]}},
]  # fmt: skip
PHRASES = [
    {"phrase": "may contain", "lang": "en", "type": "CROSS_CONTAMINATION", "level": "TRACE"},
    {"phrase": "contains milk", "lang": "en", "type": "CONTAINS", "level": "DEFINITE", "allergens": ["MILK"]},
]


def write_data_dir(root: Path, ingredients: list[dict] = INGREDIENTS) -> Path:
    (root / "ingredients").mkdir(parents=True, exist_ok=True)
    (root / "allergens.tsv").write_text("".join(f"{c}\t{c.title()}\n" for c in ALLERGEN_CODES), encoding="utf-8")
    (root / "ingredients" / "x.jsonl").write_text(
        "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in ingredients), encoding="utf-8"
    )
    (root / "risk_phrases.jsonl").write_text("".join(json.dumps(p) + "\n" for p in PHRASES), encoding="utf-8")
    return root


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return write_data_dir(tmp_path / "data")


@pytest.fixture
def store(store_url: str, data_dir: Path):
    s = open_store(store_url, data_dir=data_dir)
    yield s
    s.close()


def audit_row(i: int, unmatched: tuple[str, ...] = (), when: datetime | None = None, product: str | None = None):
    return AuditRow(
        raw_input=f"label {i}", product_id=product, profile=("PEANUT", "MILK"), verdict="VERIFY",
        result={"id": product, "verdict": "VERIFY", "n": i}, unmatched_tokens=unmatched, risk_phrases=("may contain",),
        confidence=0.56, tokens_processed=3, tokens_matched=3 - len(unmatched), processing_time_ms=0.25,
        created_at=when or datetime(2026, 11, 25, 12, 0, i % 60, 123456, tzinfo=UTC),
    )  # fmt: skip


# ------------------------------------------------------------------------------------------------ schema and seed


def test_a_new_store_is_migrated_to_the_latest_version(store) -> None:
    assert store.schema_version() == LATEST_VERSION
    with store.transaction() as tx:
        rows = tx.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
    assert [(int(v), n) for v, n in rows] == [(m.version, m.name) for m in MIGRATIONS]
    assert store.migrate() == []  # idempotent


def test_an_older_database_is_upgraded_in_place(store_url: str, data_dir: Path) -> None:
    """A database created by a dinecheck that knew only migration 1 gets migration 2 and keeps its rows."""
    if store_url.startswith("sqlite"):
        old = SqliteStore.from_url(store_url)
    else:
        from dinecheck.allergens.store.postgres import PostgresStore

        old = PostgresStore.from_url(store_url)
    with old, old.transaction(write=True) as tx:
        tx.execute(MIGRATIONS_TABLE[old.dialect])
        for stmt in MIGRATIONS[0].statements(old.dialect):
            tx.execute(stmt)
        tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (1, 'ontology tables', ?)",
                   (old._ts_param(datetime.now(UTC)),))  # fmt: skip
        tx.execute("INSERT INTO allergen_categories (code, name) VALUES ('PEANUT', 'old name')")
    with open_store(store_url, seed=False) as s:
        assert s.schema_version() == 2
        with s.transaction() as tx:
            assert tx.fetchall("SELECT name FROM allergen_categories") == [("old name",)]
            assert int(tx.fetchall("SELECT COUNT(*) FROM normalization_audit_log")[0][0]) == 0
    with open_store(store_url, data_dir=data_dir) as s:  # and seeding then replaces the shipped rows
        assert s.stats().allergens == 15 and s.ontology().allergens["PEANUT"].name == "Peanut"


def test_seeding_writes_every_table(store) -> None:
    st = store.stats()
    assert (st.allergens, st.ingredients, st.risk_phrases, st.audit_rows) == (15, 7, 2, 0)
    assert st.synonyms_by_source == {"DATA": st.synonyms}
    with store.transaction() as tx:
        maps = sorted(tx.fetchall("SELECT ingredient_id, allergen_code, risk_level FROM ingredient_allergen_map"))
        comps = tx.fetchall("SELECT compound_id, component_id, position FROM compound_ingredients ORDER BY position")
        regional = tx.fetchall(
            "SELECT synonym, synonym_normalized, canonical_id, language_code, region_code, synonym_type"
            " FROM ingredient_synonyms WHERE synonym_type = 'REGIONAL'"
        )
        parent = tx.fetchall("SELECT parent_id, category FROM canonical_ingredients WHERE id = 'peanut_oil'")
    assert maps == [("milk", "MILK", "DEFINITE"), ("peanut", "PEANUT", "DEFINITE"),
                    ("peanut_oil", "PEANUT", "DERIVED"), ("soy_lecithin", "SOY", "POSSIBLE"),
                    ("whey", "MILK", "DEFINITE")]  # fmt: skip
    assert [(c, p, int(n)) for c, p, n in comps] == [("whey_protein_concentrate", "whey", 0),
                                                     ("whey_protein_concentrate", "milk", 1)]  # fmt: skip
    assert regional == [("mungfali", "mungfali", "peanut", "hi", "IN", "REGIONAL")]
    assert parent == [("peanut", "oil")]


def test_the_store_ontology_equals_the_data_files(store, data_dir: Path) -> None:
    ref = load_data_dir(data_dir)
    got = store.ontology()
    assert got.ingredients == ref.ingredients
    assert got.allergens == ref.allergens
    assert {k: sorted(map(repr, v)) for k, v in got.synonyms.items()} == {
        k: sorted(map(repr, v)) for k, v in ref.synonyms.items()
    }
    assert got.risk_phrases == ref.risk_phrases
    assert got.allergen_paths("whey_protein_concentrate") == ref.allergen_paths("whey_protein_concentrate")
    assert [p.level for p in got.allergen_paths("whey_protein_concentrate")] == [RiskLevel.DERIVED]


def test_the_shipped_data_round_trips_through_the_store(store_url: str, tmp_path: Path) -> None:
    snapshot = tmp_path / "shipped"  # a copy, so data edited while the test runs cannot race with it
    shutil.copytree(shipped_data_dir(), snapshot)
    with open_store(store_url, data_dir=snapshot) as s:
        ref = load_data_dir(snapshot)
        got = s.ontology()
        assert got.stats() == ref.stats()
        assert got.ingredients == ref.ingredients
        assert {k: len(v) for k, v in got.synonyms.items()} == {k: len(v) for k, v in ref.synonyms.items()}
        assert all(got.allergen_paths(i) == ref.allergen_paths(i) for i in ref.ingredients)


def test_reopening_does_not_reseed(store_url: str, data_dir: Path) -> None:
    with open_store(store_url, data_dir=data_dir) as s1:
        v1, n1 = s1.version(), s1.stats().synonyms
    with open_store(store_url, data_dir=data_dir) as s2:
        assert s2.ensure_seeded(data_dir).action == "current"
        assert (s2.version(), s2.stats().synonyms) == (v1, n1)


def test_changed_data_files_reseed_and_keep_user_synonyms(store_url: str, data_dir: Path) -> None:
    with open_store(store_url, data_dir=data_dir) as s:
        s.add_synonym("verkadalai", "peanut", lang="ta", region="IN", type="REGIONAL")
        v = s.version()
    changed = [*INGREDIENTS, {"id": "salt", "names": {"en": ["salt"]}}]
    write_data_dir(data_dir, changed)
    with open_store(store_url, data_dir=data_dir) as s:
        assert s.version() == v + 1
        ont = s.ontology()
        assert "salt" in ont.ingredients
        assert [x.canonical_id for x in ont.lookup("verkadalai")] == ["peanut"]
        assert s.stats().synonyms_by_source["USER"] == 1


def test_reseeding_keeps_ingredients_created_by_the_off_import(store_url: str, data_dir: Path) -> None:
    off = Ingredient("off_taxonomy_peanut", None, "off_taxonomy", {"PEANUT": RiskLevel.DEFINITE, "MILK": RiskLevel.POSSIBLE})
    with open_store(store_url, data_dir=data_dir) as s:
        res = s.add_synonyms([SynonymInput("pinda", off.id, "nl", None, "OFF_TAXONOMY", "OFF")], [off], source="OFF")
        assert [a.text for a in res.added] == ["pinda"]
        assert s.stats().synonyms_by_source["OFF"] == 1
    write_data_dir(data_dir, [*INGREDIENTS, {"id": "salt", "names": {"en": ["salt"]}}])
    with open_store(store_url, data_dir=data_dir) as s:
        ont = s.ontology()
        assert "salt" in ont.ingredients and ont.ingredients[off.id] == off
        assert [x.canonical_id for x in ont.lookup("pinda")] == [off.id]
    write_data_dir(data_dir, [*INGREDIENTS, {"id": "off_taxonomy_peanut", "names": {"en": ["x"]}}])
    with pytest.raises(StoreError, match="now defines ingredient\\(s\\) off_taxonomy_peanut that the store already"):
        open_store(store_url, data_dir=data_dir)


def test_reseeding_refuses_to_orphan_a_user_synonym(store_url: str, data_dir: Path) -> None:
    with open_store(store_url, data_dir=data_dir) as s:
        s.add_synonym("wpc80", "whey protein concentrate")
        before = s.stats()
    write_data_dir(data_dir, [o for o in INGREDIENTS if o["id"] != "whey_protein_concentrate"])
    with pytest.raises(StoreError, match=r"'wpc80' → 'whey_protein_concentrate' \(USER\).*left unchanged"):
        open_store(store_url, data_dir=data_dir)
    with open_store(store_url, seed=False) as s:
        assert s.stats() == before
        assert "whey_protein_concentrate" in s.ontology().ingredients
        # the way out the message names: remove the synonym, then the re-seed goes through
        assert [r.text for r in s.remove_synonym("WPC80")] == ["wpc80"]
    with open_store(store_url, data_dir=data_dir) as s:
        assert "whey_protein_concentrate" not in s.ontology().ingredients


def test_a_failed_commit_rolls_back_and_the_store_stays_usable(store) -> None:
    n = store.stats().synonyms
    with pytest.raises(StoreError, match="(?i)foreign key"), store.transaction(write=True) as tx:  # the dangling reference is only detected at COMMIT (deferred)
            tx.execute("INSERT INTO ingredient_synonyms (synonym, synonym_normalized, canonical_id, synonym_type)"
                       " VALUES ('x', 'x', 'no_such_ingredient', 'USER')")  # fmt: skip
    assert store.stats().synonyms == n
    store.add_synonym("verkadalai", "peanut")
    assert store.stats().synonyms == n + 1


def test_a_schema_newer_than_the_code_is_refused(store) -> None:
    with store.transaction(write=True) as tx:
        tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                   (LATEST_VERSION + 1, "future", store._ts_param(datetime.now(UTC))))  # fmt: skip
    with pytest.raises(StoreError, match=f"schema is at version {LATEST_VERSION + 1}, newer than"):
        store.migrate()


# ------------------------------------------------------------------------------------------------ cache


def test_the_cache_is_reused_until_the_version_changes(store) -> None:
    first = store.ontology()
    assert store.ontology() is first
    loads = store.cache.loads
    store.add_synonym("Erdnuss", "peanut", lang="de", type="TRANSLATION")
    second = store.ontology()
    assert second is not first and second.version == first.version + 1
    assert store.cache.loads == loads + 1
    assert [s.canonical_id for s in second.lookup("erdnuss")] == ["peanut"]
    assert first.lookup("erdnuss") == []  # an old snapshot stays immutable


def test_another_connection_sees_a_new_synonym(store_url: str, data_dir: Path) -> None:
    with open_store(store_url, data_dir=data_dir) as a, open_store(store_url, data_dir=data_dir) as b:
        assert b.ontology().lookup("cacahuete") == []
        a.add_synonym("cacahuète", "peanut", lang="fr", type="TRANSLATION")
        hit = b.ontology().lookup("cacahuete")
        assert [(s.text, s.canonical_id, s.lang, s.type) for s in hit] == [("cacahuète", "peanut", "fr", "TRANSLATION")]


# ------------------------------------------------------------------------------------------------ synonym edits


def test_add_synonym_stores_every_field(store) -> None:
    syn = store.add_synonym("  Mungphali ", "Peanut Oil", lang="HI", region="in", type="regional")
    assert syn == SynonymInput("Mungphali", "peanut_oil", "hi", "IN", "REGIONAL", "USER")
    with store.transaction() as tx:
        rows = tx.fetchall(
            "SELECT synonym, synonym_normalized, canonical_id, language_code, region_code, synonym_type, source"
            " FROM ingredient_synonyms WHERE source = 'USER'"
        )
    assert rows == [("Mungphali", "mungphali", "peanut_oil", "hi", "IN", "REGIONAL", "USER")]


def test_unknown_canonical_names_close_matches(store) -> None:
    with pytest.raises(OntologyError) as err:
        store.add_synonym("x", "peanut_oyl")
    assert str(err.value) == "--canonical: no canonical ingredient named 'peanut_oyl'; close matches: peanut_oil, peanut"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("groundnut", "milk"), "SYNONYM: 'groundnut' (lookup key 'groundnut') is already a synonym of peanut; a key maps to one meaning, so it was not added"),
        (("Peanut-Oil", "milk"), "SYNONYM: 'Peanut-Oil' (lookup key 'peanut oil') is already a synonym of peanut_oil; a key maps to one meaning, so it was not added"),
        (("   ", "milk"), "SYNONYM: the synonym is empty"),
        (("a" * 201, "milk"), "SYNONYM: the synonym is longer than 200 characters"),
        (("bad\x00name", "milk"), "SYNONYM: the synonym contains control characters"),
        (("lait", "milk", "french"), "--lang: 'french' is not a language code (two or three letters, e.g. en, fr, hi)"),
        (("lait", "milk", "fr", "FRA"), "--region: 'FRA' is not a region code (two letters, e.g. IN, GB)"),
    ],
)  # fmt: skip
def test_add_synonym_validation(store, args: tuple, message: str) -> None:
    v = store.version()
    with pytest.raises(OntologyError) as err:
        store.add_synonym(*args)
    assert str(err.value) == message
    assert store.version() == v


def test_add_synonym_rejects_unknown_types(store) -> None:
    with pytest.raises(OntologyError, match=r"^--type: 'CANONICAL' is not a synonym type; use one of COMMON, "):
        store.add_synonym("lait", "milk", type="canonical")


def test_bulk_add_never_overrides_and_reports_skips(store) -> None:
    batch = [
        SynonymInput("Erdnuss", "peanut", "de", None, "OFF_TAXONOMY", "OFF"),
        SynonymInput("ERDNUSS", "peanut", "nl", None, "OFF_TAXONOMY", "OFF"),
        SynonymInput("groundnut", "milk", "en", None, "OFF_TAXONOMY", "OFF"),
        SynonymInput("lait", "milk", "fr", None, "OFF_TAXONOMY", "OFF"),
    ]
    v = store.version()
    res = store.add_synonyms(batch)
    assert [s.text for s in res.added] == ["Erdnuss", "lait"]
    assert [(k.synonym.text, k.reason, k.existing_canonical_ids) for k in res.skipped] == [
        ("ERDNUSS", "duplicate", ()), ("groundnut", "existing", ("peanut",))]  # fmt: skip
    assert res.ontology_version == v + 1
    assert [s.canonical_id for s in store.ontology().lookup("groundnut")] == ["peanut"]
    again = store.add_synonyms(batch)
    assert again.added == () and again.ontology_version == v + 1  # nothing new: no version bump


def test_bulk_add_with_an_unknown_canonical_writes_nothing(store) -> None:
    n = store.stats().synonyms
    with pytest.raises(OntologyError, match="unknown canonical ingredient\\(s\\): nope"):
        store.add_synonyms([SynonymInput("lait", "milk"), SynonymInput("x", "nope")])
    assert store.stats().synonyms == n


def test_remove_and_list_synonyms(store) -> None:
    store.add_synonym("verkadalai", "peanut", lang="ta", region="IN", type="REGIONAL")
    store.add_synonyms([SynonymInput("pinda", "peanut", "nl", None, "OFF_TAXONOMY", "OFF")])
    assert [(x.text, x.source) for x in store.synonyms("user")] == [("verkadalai", "USER")]
    assert [(x.text, x.source) for x in store.synonyms("OFF")] == [("pinda", "OFF")]
    assert len(store.synonyms()) == store.stats().synonyms
    v = store.version()
    removed = store.remove_synonym("Verkadalai")
    assert removed == [SynonymInput("verkadalai", "peanut", "ta", "IN", "REGIONAL", "USER")]
    assert store.version() == v + 1 and store.ontology().lookup("verkadalai") == []
    assert [s.canonical_id for s in store.ontology().lookup("groundnut")] == ["peanut"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Groundnut", "SYNONYM: 'Groundnut' (lookup key 'groundnut') comes from the shipped data and cannot be removed"),
        ("zzz", "SYNONYM: 'zzz' (lookup key 'zzz') is not a synonym in the store"),
        (" ", "SYNONYM: the synonym is empty"),
    ],
)  # fmt: skip
def test_remove_synonym_refusals(store, text: str, message: str) -> None:
    v = store.version()
    with pytest.raises(OntologyError) as err:
        store.remove_synonym(text)
    assert str(err.value) == message and store.version() == v


def test_synonyms_by_an_unknown_source(store) -> None:
    with pytest.raises(OntologyError, match="^--source: 'MINE' is not a synonym source; use DATA, USER or OFF$"):
        store.synonyms("MINE")


# ------------------------------------------------------------------------------------------------ audit


def test_audit_rows_round_trip(store) -> None:
    rows = [audit_row(1, ("E999", "mystery")), audit_row(2), audit_row(3, ("mystery",), product="p-3")]
    assert store.write_audit(rows) == 3
    got = store.audit()
    assert [r.id for r in got] == sorted(r.id for r in got) and len({r.id for r in got}) == 3
    assert [r.__class__(**{**{f: getattr(r, f) for f in r.__slots__}, "id": None}) for r in got] == rows
    assert got[0].created_at == datetime(2026, 11, 25, 12, 0, 1, 123456, tzinfo=UTC)


def test_audit_filters_since_and_unmatched(store) -> None:
    t0 = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
    store.write_audit([audit_row(i, ("x",) if i % 2 else (), when=t0 + timedelta(minutes=i)) for i in range(6)])
    assert [r.raw_input for r in store.audit(since=t0 + timedelta(minutes=3))] == ["label 3", "label 4", "label 5"]
    assert [r.raw_input for r in store.audit(unmatched_only=True)] == ["label 1", "label 3", "label 5"]
    assert [r.raw_input for r in store.audit(since=t0 + timedelta(minutes=2), unmatched_only=True, limit=1)] == [
        "label 3"]  # fmt: skip
    # a non-UTC --since is compared as the instant it names
    plus_one = t0.astimezone(__import__("datetime").timezone(timedelta(hours=1))) + timedelta(minutes=4)
    assert [r.raw_input for r in store.audit(since=plus_one)] == ["label 4", "label 5"]


def test_unmatched_report_counts_tokens(store) -> None:
    store.write_audit([audit_row(1, ("E999", "Mystery")), audit_row(2, ("mystery",)), audit_row(3, ("zeta", "E999")),
                       audit_row(4)])  # fmt: skip
    report = store.unmatched_report()
    assert [(u.token, u.count) for u in report] == [("e999", 2), ("mystery", 2), ("zeta", 1)]


def test_write_audit_is_all_or_nothing(store) -> None:
    bad = AuditRow("x", None, ("PEANUT",), "MAYBE", {}, (), (), 0.5, 1, 1, 0.1)  # violates the verdict CHECK
    with pytest.raises(StoreError):
        store.write_audit([audit_row(1), bad])
    assert store.audit_count() == 0


# ------------------------------------------------------------------------------------------------ opening


def test_open_store_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    plain = tmp_path / "plain.sqlite"
    with open_store(str(plain), data_dir=data_dir) as s:
        assert isinstance(s, SqliteStore) and s.path == str(plain)
    monkeypatch.chdir(tmp_path)
    with open_store("sqlite:///rel.sqlite", data_dir=data_dir) as s:
        assert s.path == "rel.sqlite"
    assert (tmp_path / "rel.sqlite").is_file()
    monkeypatch.setenv("DINECHECK_DB", f"sqlite:///{tmp_path / 'env.sqlite'}")
    with open_store(None, data_dir=data_dir) as s:
        assert s.path == str(tmp_path / "env.sqlite")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://x/y", "--db: unsupported database URL scheme in 'mysql'://…; use sqlite:/// or postgresql://"),
        ("sqlite://x.db", "--db: 'sqlite://x.db' is not a SQLite URL; write sqlite:///file.sqlite or sqlite:////abs/path"),
        ("  ", "--db: the database URL is empty"),
    ],
)  # fmt: skip
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(StoreError) as err:
        open_store(url)
    assert str(err.value) == message


def test_an_unreachable_postgres_is_one_line_without_the_password() -> None:
    with pytest.raises(StoreError) as err:
        open_store("postgresql://u:s3cret@127.0.0.1:1/db")
    msg = str(err.value)
    assert msg.startswith("postgresql://u:***@127.0.0.1:1/db: ") and "s3cret" not in msg and "\n" not in msg


def test_a_directory_is_not_a_sqlite_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"^sqlite:///.*: unable to open database file"):
        open_store(str(tmp_path))
