"""``dinecheck serve``: bad start-up input is one error line and exit 2, before anything binds."""

from __future__ import annotations

from pathlib import Path


def test_serve_refuses_a_missing_data_directory(cli, tmp_path: Path):
    r = cli("serve", "--data", str(tmp_path / "nope"), "--db", str(tmp_path / "o.sqlite"))
    assert r.code == 2
    assert r.err.strip() == f"error: {tmp_path / 'nope'}: not a directory"


def test_serve_llm_needs_a_cost_cap(cli):
    r = cli("serve", "--extractor", "llm")
    assert (r.code, r.err.strip()) == (2, "error: --max-cost: --extractor llm needs --max-cost")


def test_serve_unknown_extractor(cli):
    r = cli("serve", "--extractor", "magic")
    assert r.code == 2 and "unknown extractor 'magic'" in r.err


def test_serve_check_reports_and_exits(cli, tmp_path: Path):
    db = tmp_path / "o.sqlite"
    r = cli("serve", "--check", "--db", str(db), "--port", "8123")
    assert r.code == 0, r
    assert r.out.startswith("ok: the bundled sample: 10 restaurants, 60 reviews, 1 request file(s); allergen store ")
    assert r.out.rstrip().endswith("would serve at http://127.0.0.1:8123/")
    assert db.exists()
