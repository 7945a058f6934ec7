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
