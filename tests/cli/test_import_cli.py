"""`dinecheck import yelp` through the real CLI entry point."""

from __future__ import annotations

import json


def test_import_yelp_cli(cli, tmp_path) -> None:
    (tmp_path / "b.json").write_text(
        json.dumps({"business_id": "B1", "name": "One", "city": "Philadelphia", "categories": "Cafes"}) + "\n"
        + json.dumps({"business_id": "B2", "name": "Two", "city": "Boston", "categories": "Cafes"}) + "\n")
    (tmp_path / "r.json").write_text("".join(
        json.dumps({"review_id": f"R{i}", "user_id": "U1", "business_id": b, "text": "latte", "stars": 5})
        + "\n" for i, b in enumerate(["B1", "B1", "B1", "B2"])))
    (tmp_path / "u.json").write_text(json.dumps({"user_id": "U1", "name": "Jo", "elite": "2020",
                                                 "friends": "None"}) + "\n")
    out = tmp_path / "out"
    r = cli("import", "yelp", "--business", tmp_path / "b.json", "--review", tmp_path / "r.json", "--user",
            tmp_path / "u.json", "--out", out, "--city", "Philadelphia", "--category", "Cafes", "--max-reviews", "2",
            "--quiet")
    assert r.code == 0, r
    assert r.out == f"wrote 1 restaurants, 2 reviews by 1 users to {out}\n"
    assert r.err == ""
    v = cli("requests", "match", "--data", out, "--request", _req(tmp_path))
    assert v.code == 0 and "B1  One" in v.out


def _req(tmp_path):
    f = tmp_path / "q.json"
    f.write_text(json.dumps({"id": "Q", "structure": {"op": "AND", "args": [
        {"aspect": "l", "evidence": {"kind": "review_text", "pattern": "latte"}}]}}))
    return f


def test_import_yelp_cli_errors(cli, tmp_path) -> None:
    r = cli("import", "yelp", "--business", tmp_path / "no.json", "--review", tmp_path / "no.json", "--user",
            tmp_path / "no.json", "--out", tmp_path / "o", "--quiet")
    assert (r.code, r.err) == (2, f"error: {tmp_path / 'no.json'}: no such file\n")
    r = cli("import", "yelp", "--business", "x", "--review", "y", "--user", "z", "--out", "o", "--max-reviews", "-1")
    assert r.code == 2 and "--max-reviews" in r.err
