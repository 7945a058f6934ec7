"""``dinecheck risk build | show`` and ``dinecheck search`` through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "risk_mini"


@pytest.fixture
def db(tmp_path: Path, cli) -> str:
    url = f"sqlite:///{tmp_path / 'risk.sqlite'}"
    r = cli("risk", "build", "--data", MINI, "--extractor", f"replay:{MINI / 'labels.jsonl'}", "--db", url, "--json")
    assert r.code == 0, r
    rep = json.loads(r.out)
    assert (rep["restaurants"], rep["reviews"], rep["allergy_reviews"], rep["extracted"], rep["reused"]) == (6, 16, 5, 5, 0)
    return url


def test_build_twice_reuses_labels(cli, db: str) -> None:
    r = cli("risk", "build", "--data", MINI, "--extractor", f"replay:{MINI / 'labels.jsonl'}", "--db", db)
    assert r.code == 0
    assert r.out.startswith("6 restaurants, 16 reviews read, 5 about allergies: 0 extracted now, 5 reused (replay:labels.jsonl:")


def test_show_by_name_part(cli, db: str) -> None:
    r = cli("risk", "show", "careless", "--allergens", "PEANUT", "--db", db)
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "Careless Kitchen  (rm-careful)  102 Test St, Philadelphia, PA"
    assert lines[1] == "PEANUT     reactions reported (incidents_reported)"
    assert lines[2].strip() == "1 firsthand reaction (moderate; 2020); staff said a dish was safe and the diner reacted once"
    assert lines[3].strip().startswith("[incident] rm-careful-r0: \u201cI told the server about my peanut allergy")


def test_show_json(cli, db: str) -> None:
    r = cli("risk", "show", "rm-aware", "--allergens", "peanuts,dairy", "--db", db, "--json")
    objs = [json.loads(x) for x in r.out.splitlines()]
    assert [(o["allergen"], o["level"]) for o in objs] == [("PEANUT", "accommodating"), ("MILK", "insufficient_evidence")]


def test_show_ambiguous_name_lists_candidates(cli, db: str) -> None:
    r = cli("risk", "show", "e", "--db", db)
    assert r.code == 2
    assert r.err.splitlines()[-1] == "error: risk show: 6 restaurants match 'e'; give the business id"
    assert "  rm-aware  Allergy Aware Grill  (103 Test St, Philadelphia, PA)" in r.err.splitlines()


def test_show_unknown_and_unbuilt(cli, db: str, tmp_path: Path) -> None:
    assert cli("risk", "show", "zzz", "--db", db).err == "error: risk show: no restaurant named 'zzz' in the store\n"
    r = cli("risk", "show", "x", "--db", str(tmp_path / "none.sqlite"))
    assert r.code == 2 and "no allergy evidence store here yet" in r.err


def test_search_json_contract(cli, db: str) -> None:
    r = cli("search", "--data", MINI, "--where", "AND(wifi_free, good_for_kids)", "--allergens", "PEANUT,MILK",
            "--db", db, "--json")  # fmt: skip
    assert r.code == 0, r
    objs = [json.loads(x) for x in r.out.splitlines()]
    assert [o["business_id"] for o in objs] == ["rm-aware", "rm-bakery", "rm-careful"]
    assert all(list(o) == ["business_id", "name", "rank", "request_value", "conditions", "allergy"] for o in objs)


def test_search_table(cli, db: str) -> None:
    r = cli("search", "--data", MINI, "--request", MINI / "requests.jsonl", "--id", "K01", "--allergens", "PEANUT",
            "--db", db, "--limit", "1")  # fmt: skip
    assert r.code == 0, r
    assert r.out.splitlines() == [
        "  1. Allergy Aware Grill  4★  103 Test St, Philadelphia",
        "     Mon–Thu 7:00–15:00; Fri 7:00–18:00; Sat 8:00–18:00; closed Sun",
        "     ✓ wifi_free  ✓ good_for_kids",
        "     PEANUT: staff accommodated — staff accommodated twice",
        "1 place(s) for request K01, profile PEANUT",
    ]


def test_search_without_profile_needs_no_store(cli, tmp_path: Path) -> None:
    r = cli("search", "--data", MINI, "--where", "good_for_kids", "--json", "--db", str(tmp_path / "none.sqlite"))
    assert r.code == 0
    assert [json.loads(x)["allergy"] for x in r.out.splitlines()] == [{}] * 5


def test_search_nothing_matches_exits_1(cli, db: str) -> None:
    r = cli("search", "--data", MINI, "--where", "AND(good_for_kids, NOT(good_for_kids))", "--allergens", "PEANUT", "--db", db)
    assert r.code == 1 and r.out == "0 place(s) for request where, profile PEANUT\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--where", "x", "--request", "f.json"], "error: search: give --request FILE or --where TEXT, not both"),
    (["--id", "K01"], "error: search: --id needs --request FILE"),
    (["--where", "good_for_kids", "--allergens", "KIWI"], "error: --allergens: unknown allergen KIWI"),
    (["--where", "{x"], "error: --where: invalid JSON"),
])  # fmt: skip
def test_search_bad_input(cli, db: str, args: list[str], message: str) -> None:
    r = cli("search", "--data", MINI, "--db", db, *args)
    assert r.code == 2 and r.err.startswith(message), r
