"""``dinecheck allergens …`` through the real entry point: the check contract, batches, audit, synonyms, OFF import."""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.store import open_store
from dinecheck.allergens.store.postgres import PostgresStore
from dinecheck.cli.allergens import LabelInput, parse_label_lines
from dinecheck.errors import DataError

CONTRACT_KEYS = ["id", "verdict", "allergens", "unmatched", "risk_phrases", "confidence", "match_rate", "reasons"]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh SQLite store; DINECHECK_DB points elsewhere so a forgotten --db would show up as a wrong count."""
    monkeypatch.setenv("DINECHECK_DB", str(tmp_path / "default.sqlite"))
    return f"sqlite:///{tmp_path / 'cli.sqlite'}"


def audit_rows(url: str) -> list:
    with open_store(url) as s:
        return s.audit()


def write_lines(path: Path, objs: list) -> Path:
    path.write_text("".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------------ check


def test_check_json_follows_the_contract(cli, db: str) -> None:
    r = cli("allergens", "check", "Ingredients: sugar, groundnut oil (20%), salt.", "--allergens", "PEANUT,MILK",
            "--db", db, "--json", "--id", "p-1")  # fmt: skip
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert list(out) == CONTRACT_KEYS
    assert out["id"] == "p-1" and out["verdict"] == "AVOID"
    peanut = [a for a in out["allergens"] if a["code"] == "PEANUT"]
    assert peanut == [{"code": "PEANUT", "level": "DERIVED", "source": "ingredient", "token": "groundnut oil",
                       "span": [20, 33]}]  # fmt: skip
    assert "Ingredients: sugar, groundnut oil (20%), salt."[20:33] == "groundnut oil"
    assert isinstance(out["confidence"], float) and isinstance(out["match_rate"], float)


def test_check_human_output_shows_verdict_path_and_reasons(cli, db: str) -> None:
    r = cli("allergens", "check", "sugar, arachis oil", "-a", "PEANUT", "--db", db)
    assert r.code == 0, r
    first, *rest = r.out.splitlines()
    assert first.startswith("AVOID  (confidence ")
    assert any(line.split()[:3] == ["PEANUT", "DERIVED", "ingredient"] and "→ peanut_oil → PEANUT" in line
               for line in rest)  # fmt: skip
    assert any(line.startswith("  why: ") for line in rest)


def test_empty_text_is_valid_and_verify(cli, db: str) -> None:
    r = cli("allergens", "check", "", "-a", "ALL", "--db", db, "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["verdict"] == "VERIFY" and out["allergens"] == [] and out["reasons"]
    assert [row.raw_input for row in audit_rows(db)] == [""]


def test_every_check_writes_one_audit_row(cli, db: str) -> None:
    for text in ("sugar", "milk", "zzunknownzz"):
        assert cli("allergens", "check", text, "-a", "MILK", "--db", db).code == 0
    rows = audit_rows(db)
    assert [(r.raw_input, r.profile, r.product_id) for r in rows] == [
        ("sugar", ("MILK",), None), ("milk", ("MILK",), None), ("zzunknownzz", ("MILK",), None)]  # fmt: skip
    assert rows[1].verdict == "AVOID" and rows[2].unmatched_tokens == ("zzunknownzz",)
    assert rows[2].result["verdict"] == "VERIFY" and rows[2].tokens_processed == 1 and rows[2].tokens_matched == 0


def test_batch_from_a_file_keeps_order_and_ids(cli, db: str, tmp_path: Path) -> None:
    f = write_lines(tmp_path / "in.jsonl", [
        {"id": "a", "ingredients_text": "milk, sugar"}, "", {"id": 7, "ingredients_text": "sugar"},
        {"ingredients_text": "", "lang": "en"},
    ])  # fmt: skip
    r = cli("allergens", "check", "--input", str(f), "-a", "MILK", "--db", db, "--json")
    assert r.code == 0, r
    outs = [json.loads(x) for x in r.out.splitlines()]
    assert [(o["id"], o["verdict"]) for o in outs] == [("a", "AVOID"), ("7", "SAFE"), (None, "VERIFY")]
    assert [row.product_id for row in audit_rows(db)] == ["a", "7", None]


def test_batch_from_stdin(cli, db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"id": "s1", "ingredients_text": "egg"}\n'))
    r = cli("allergens", "check", "--input", "-", "-a", "EGG", "--db", db, "--json")
    assert r.code == 0, r
    assert json.loads(r.out)["id"] == "s1"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"id": "a", "ingredients_text": "milk"}', "{not json"], "in.jsonl:2: invalid JSON (Expecting property name "
                                                                  "enclosed in double quotes at column 2)"),
        (['["milk"]'], "in.jsonl:1: expected a JSON object {\"id\", \"ingredients_text\"}, got list"),
        (['{"id": "a"}'], "in.jsonl:1: missing \"ingredients_text\""),
        (['{"id": "a", "ingredients_text": null}'], "in.jsonl:1: \"ingredients_text\" must be a string, got NoneType"),
        (['{"id": true, "ingredients_text": "x"}'], "in.jsonl:1: \"id\" must be a string or an integer, got bool"),
        (["{}", json.dumps({"id": "big", "ingredients_text": "salt, " * 20_000})],
         "in.jsonl:1: missing \"ingredients_text\""),
        ([json.dumps({"id": "big", "ingredients_text": "salt, " * 20_000})],
         "in.jsonl:1: \"ingredients_text\" is 120000 characters; the limit is 100000"),
    ],
)  # fmt: skip
def test_a_bad_batch_line_is_exit_2_naming_the_line_and_checks_nothing(cli, db: str, tmp_path: Path, lines, message):
    f = write_lines(tmp_path / "in.jsonl", lines)
    r = cli("allergens", "check", "--input", str(f), "-a", "MILK", "--db", db, "--json")
    assert (r.code, r.out) == (2, "")
    assert r.err == f"error: {tmp_path / message}\n"
    assert not Path(db[len("sqlite:///"):]).exists() or audit_rows(db) == []


_ids = st.one_of(st.none(), st.text(max_size=10), st.integers(-10**6, 10**6))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_ids, st.text(max_size=60)), max_size=8))
def test_batch_lines_round_trip(items: list[tuple[object, str]]) -> None:
    lines = [json.dumps({"ingredients_text": t} if i is None else {"id": i, "ingredients_text": t}) for i, t in items]
    got = parse_label_lines(lines, "f")
    assert got == [LabelInput(None if i is None else str(i), t, f"f:{n}") for n, (i, t) in enumerate(items, 1)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=5))
def test_any_batch_text_parses_or_fails_with_a_located_data_error(lines: list[str]) -> None:
    try:
        parse_label_lines(lines, "f")
    except DataError as err:
        assert err.location is not None and err.location.startswith("f:")


@pytest.mark.parametrize(
    ("args", "err"),
    [
        (["x", "--input", "f.jsonl"], "error: allergens check: give either the label TEXT or --input FILE (not both)\n"),
        ([], "error: allergens check: give either the label TEXT or --input FILE (not both)\n"),
        (["--input", "/nonexistent/in.jsonl"], "error: /nonexistent/in.jsonl: no such file\n"),
        (["x", "-a", "NUTZ"], None),
        (["salt, " * 20_000], "error: TEXT: the label is 120000 characters; the limit is 100000\n"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2(cli, db: str, args: list[str], err: str | None) -> None:
    base = ["allergens", "check", *args, "--db", db]
    if "-a" not in args:
        base += ["-a", "PEANUT"]
    r = cli(*base)
    assert r.code == 2 and r.out == ""
    if err is not None:
        assert r.err == err
    else:
        assert r.err.startswith("error: --allergens: unknown allergen code(s) NUTZ; known: PEANUT, MILK,")


# ------------------------------------------------------------------------------------------------ synonyms


def test_a_new_synonym_is_used_by_the_next_check(cli, db: str) -> None:
    before = json.loads(cli("allergens", "check", "zzgoober", "-a", "PEANUT", "--db", db, "--json").out)
    assert before["verdict"] == "VERIFY" and before["unmatched"] == ["zzgoober"]
    r = cli("allergens", "synonym", "add", "zzgoober", "--canonical", "peanut", "--lang", "en", "--region", "US",
            "--type", "REGIONAL", "--db", db)  # fmt: skip
    assert r.code == 0, r
    assert r.out.startswith("added 'zzgoober' → peanut (en, US, REGIONAL); ontology version ")
    after = json.loads(cli("allergens", "check", "zzgoober", "-a", "PEANUT", "--db", db, "--json").out)
    assert after["verdict"] == "AVOID"
    assert after["allergens"] == [{"code": "PEANUT", "level": "DEFINITE", "source": "ingredient", "token": "zzgoober",
                                   "span": [0, 8]}]  # fmt: skip


def test_synonym_add_json(cli, db: str) -> None:
    r = cli("allergens", "synonym", "add", "Zzmilch", "--canonical", "milk", "--lang", "de", "--db", db, "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert {k: out[k] for k in ("synonym", "key", "canonical", "lang", "region", "type")} == {
        "synonym": "Zzmilch", "key": "zzmilch", "canonical": "milk", "lang": "de", "region": None, "type": "USER"}


def test_synonym_add_with_an_unknown_canonical_suggests_close_matches(cli, db: str) -> None:
    r = cli("allergens", "synonym", "add", "zzgoober", "--canonical", "peanutt", "--db", db)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: --canonical: no canonical ingredient named 'peanutt'; close matches: peanut")


def test_synonym_add_refuses_an_existing_key(cli, db: str) -> None:
    r = cli("allergens", "synonym", "add", "Groundnut", "--canonical", "milk", "--db", db)
    assert r.code == 2
    assert r.err == ("error: SYNONYM: 'Groundnut' (lookup key 'groundnut') is already a synonym of peanut; a key maps "
                     "to one meaning, so it was not added\n")  # fmt: skip


def test_synonym_list_and_remove(cli, db: str) -> None:
    assert cli("allergens", "synonym", "add", "zzgoober", "--canonical", "peanut", "--db", db).code == 0
    r = cli("allergens", "synonym", "list", "--source", "USER", "--db", db)
    assert (r.code, r.out) == (0, "zzgoober → peanut (type USER, source USER)\n")
    r = cli("allergens", "synonym", "remove", "ZZGOOBER", "--db", db, "--json")
    assert r.code == 0, r
    assert {k: v for k, v in json.loads(r.out).items() if k != "ontology_version"} == {
        "removed": "zzgoober", "canonical": "peanut", "source": "USER"}
    assert cli("allergens", "synonym", "list", "--source", "USER", "--db", db).out == ""
    r = cli("allergens", "synonym", "remove", "groundnut", "--db", db)
    assert r.code == 2
    assert r.err == "error: SYNONYM: 'groundnut' (lookup key 'groundnut') comes from the shipped data and cannot be removed\n"


# ------------------------------------------------------------------------------------------------ audit


def test_audit_lists_rows_and_the_unmatched_report(cli, db: str, tmp_path: Path) -> None:
    f = write_lines(tmp_path / "in.jsonl", [
        {"id": "1", "ingredients_text": "sugar, zzfoo"}, {"id": "2", "ingredients_text": "zzbar, ZZFOO"},
        {"id": "3", "ingredients_text": "milk"}])  # fmt: skip
    assert cli("allergens", "check", "-i", str(f), "-a", "MILK", "--db", db).code == 0
    r = cli("allergens", "audit", "--db", db, "--json")
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert [x["product_id"] for x in rows] == ["3", "2", "1"]  # newest first
    assert rows[2]["result"]["id"] == "1" and rows[2]["profile"] == ["MILK"]
    r = cli("allergens", "audit", "--unmatched", "--db", db, "--json")
    assert [json.loads(x) for x in r.out.splitlines()] == [{"token": "zzfoo", "count": 2}, {"token": "zzbar", "count": 1}]
    r = cli("allergens", "audit", "--unmatched", "--db", db)
    assert r.out.splitlines() == ["     2  zzfoo", "     1  zzbar"]
    human = cli("allergens", "audit", "--db", db, "--limit", "1").out.splitlines()
    assert len(human) == 1 and "  3  " in human[0] and "[MILK]" in human[0] and "'milk'" in human[0]


def test_audit_since(cli, db: str) -> None:
    assert cli("allergens", "check", "sugar", "-a", "MILK", "--db", db).code == 0
    assert cli("allergens", "audit", "--since", "2999-01-01", "--db", db).out == ""
    assert len(cli("allergens", "audit", "--since", "2000-01-01T00:00:00Z", "--db", db).out.splitlines()) == 1
    r = cli("allergens", "audit", "--since", "last week", "--db", db)
    assert r.code == 2 and r.err.startswith("error: --since: 'last week' is not an ISO-8601 date")


# ------------------------------------------------------------------------------------------------ store commands


def test_stats_and_init(cli, db: str) -> None:
    r = cli("allergens", "init", "--db", db, "--json")
    assert r.code == 0, r
    st = json.loads(r.out)
    assert st["dialect"] == "sqlite" and st["schema_version"] == 2 and st["allergens"] == 15
    assert st["synonyms_by_source"] == {"DATA": st["synonyms"]} and st["audit_rows"] == 0
    r = cli("allergens", "stats", "--db", db)
    assert r.code == 0 and r.out.splitlines()[1] == "allergens   15"


def test_a_bad_db_url_is_exit_2(cli) -> None:
    r = cli("allergens", "stats", "--db", "oracle://x")
    assert r.code == 2
    assert r.err == "error: --db: unsupported database URL scheme in 'oracle'://…; use sqlite:/// or postgresql://\n"


def test_import_off_on_the_real_taxonomy(cli, db: str, shared_data: Path) -> None:
    taxonomy = shared_data / "off_taxonomy" / "allergens.txt"
    r = cli("allergens", "import-off", str(taxonomy), "--db", db, "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["added"] > 500 and "Open Food Facts contributors" in out["attribution"] and "ODbL" in out["attribution"]
    assert out["targets"]["en:peanuts"] == "off_taxonomy_peanut" and "en:none" in out["unmapped_entries"]
    again = cli("allergens", "import-off", str(taxonomy), "--db", db)
    assert again.code == 0 and again.out.startswith("added 0 synonyms, skipped ")
    assert again.out.rstrip().endswith("Source: " + out["attribution"])
    # a Polish label is now understood: "orzeszki ziemne" is OFF's Polish name for peanuts
    check = json.loads(cli("allergens", "check", "orzeszki ziemne", "-a", "PEANUT", "--db", db, "--json").out)
    assert check["verdict"] == "AVOID"


def test_import_off_with_a_malformed_file_is_exit_2(cli, db: str, tmp_path: Path) -> None:
    bad = tmp_path / "allergens.txt"
    bad.write_text("en: peanuts, peanut\nthis line is not a taxonomy line\n", encoding="utf-8")
    r = cli("allergens", "import-off", str(bad), "--db", db)
    assert r.code == 2
    assert r.err == "error: allergens.txt:2: expected 'lang: name, synonym, …', got 'this line is not a taxonomy line'\n"


def test_check_and_audit_on_postgresql(cli, pg_url: str) -> None:
    url = f"{pg_url}{'&' if '?' in pg_url else '?'}schema=c_{uuid.uuid4().hex[:12]}"
    try:
        r = cli("allergens", "check", "groundnut", "-a", "PEANUT", "--db", url, "--json")
        assert r.code == 0, r
        assert json.loads(r.out)["verdict"] == "AVOID"
        rows = [json.loads(x) for x in cli("allergens", "audit", "--db", url, "--json").out.splitlines()]
        assert [(x["raw_input"], x["verdict"]) for x in rows] == [("groundnut", "AVOID")]
    finally:
        s = PostgresStore.from_url(url)
        s.drop_schema()
        s.close()


def test_batch_lines_may_carry_the_products_declarations(cli, tmp_path) -> None:
    src = tmp_path / "labels.jsonl"
    src.write_text(
        '{"id": "a", "ingredients_text": "tomato, onion, salt", "traces": ["TREE_NUTS"], "traces_known": true}\n'
        '{"id": "b", "ingredients_text": "tomato, onion, salt", "traces": ["TREE_NUTS"], "traces_known": false}\n',
        encoding="utf-8",
    )
    db = f"sqlite:///{tmp_path / 's.sqlite'}"
    r = cli("allergens", "check", "--input", src, "--allergens", "TREE_NUTS", "--db", db, "--json")
    assert r.code == 0, r.err
    a, b = (json.loads(line) for line in r.out.splitlines())
    assert (a["verdict"], a["allergens"]) == (
        "VERIFY", [{"code": "TREE_NUTS", "level": "TRACE", "source": "declared", "token": "TREE_NUTS", "span": None}]
    )
    assert (b["verdict"], b["allergens"]) == ("SAFE", [])
    r = cli("allergens", "check", "--input", src, "--allergens", "TREE_NUTS", "--db", db, "--json", "--text-only")
    assert [json.loads(line)["verdict"] for line in r.out.splitlines()] == ["SAFE", "SAFE"]


def test_an_unknown_declared_code_is_bad_input(cli, tmp_path) -> None:
    src = tmp_path / "labels.jsonl"
    src.write_text('{"id": "a", "ingredients_text": "salt"}\n{"id": "b", "ingredients_text": "salt", "allergens": ["NUTS"]}\n')
    r = cli("allergens", "check", "--input", src, "--allergens", "ALL", "--db", f"sqlite:///{tmp_path / 's.sqlite'}")
    assert r.code == 2
    assert r.err.startswith(f'error: {src}:2: "allergens" has unknown allergen code(s) NUTS;')
    assert r.out == ""


@pytest.mark.parametrize(("text", "profile", "verdict"), [
    ("sugar, pea-\nnuts", "PEANUT", "AVOID"), ("sugar, pea-\r\nnut butter", "PEANUT", "AVOID"),
    ("sugar, <b>pea</b>nuts", "PEANUT", "AVOID"), ("sugar, pea<br>nuts", "PEANUT", "VERIFY"),
    ("sugar, pea<!-- -->nuts", "PEANUT", "AVOID"), ("Does not contain peanuts, milk, eggs, soy", "FISH", "VERIFY"),
    ("Free from peanuts, milk and eggs", "PEANUT", "VERIFY"), ("Ne contient pas d'arachides, lait", "FISH", "VERIFY"),
    ("Ohne Erdnüsse, Milch", "FISH", "VERIFY"), ("sugar, nut oil", "PEANUT", "VERIFY"),
])  # fmt: skip
def test_the_false_safe_paths_of_issue_8(cli, db: str, text: str, profile: str, verdict: str) -> None:
    r = cli("allergens", "check", text, "--allergens", profile, "--db", db, "--json")
    assert r.code == 0, r
    assert json.loads(r.out)["verdict"] == verdict


def test_check_dash_reads_plain_text_from_stdin_and_no_audit_writes_nothing(cli, db: str, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("sugar, pea-\nnuts\n"))
    r = cli("allergens", "check", "-", "-a", "peanuts", "--db", db, "--json", "--no-audit")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["verdict"] == "AVOID" and out["allergens"][0]["code"] == "PEANUT"
    assert audit_rows(db) == []
    assert cli("allergens", "check", "milk", "-a", "DAIRY", "--db", db).code == 0
    assert len(audit_rows(db)) == 1


def test_an_unknown_profile_name_lists_the_codes(cli, db: str) -> None:
    r = cli("allergens", "check", "milk", "-a", "dairyx", "--db", db)
    assert r.code == 2 and r.err.startswith("error: --allergens: unknown allergen code(s) DAIRYX; known: PEANUT, MILK")
    assert "aliases: " in r.err and "NUTS" in r.err
