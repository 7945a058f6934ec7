"""``dinecheck demo``: the main job runs every capability on the bundled sample data."""

from __future__ import annotations

import json
import re

from dinecheck.sample import sample_dir


def test_demo_runs_every_section_on_the_sample_data(cli, tmp_path) -> None:
    r = cli("demo", "--db", f"sqlite:///{tmp_path / 'demo.sqlite'}")
    assert r.code == 0, r.err
    out = r.out
    for heading in ("1. Which restaurant fits?", "2. How risky is it for my allergy?", "3. Is this packaged food safe"):
        assert heading in out
    requests = [json.loads(line) for line in (sample_dir() / "requests.jsonl").read_text().splitlines() if line]
    statuses = re.findall(r"│ (S\d\d)\s+│ G\d\d\s+│.*?│ (ok|no_match|multi_match|gold_not_match)\s+│", out)
    assert sorted(statuses) == sorted((q["id"], "ok") for q in requests)
    assert "Why " in out and "rule:" in out  # the explanation of the first request
    assert "← reviews smp-rv-" in out  # the seed trace names the contributing reviews
    labels = [json.loads(line) for line in (sample_dir() / "labels.jsonl").read_text().splitlines() if line]
    for verdict in ("SAFE", "AVOID", "VERIFY"):
        assert verdict in out
    assert len(re.findall(r"│ (demo-[\w-]+)", out)) == len(labels)


def test_demo_writes_one_audit_row_per_label(cli, tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'demo.sqlite'}"
    assert cli("demo", "--db", db).code == 0
    r = cli("allergens", "audit", "--db", db, "--json")
    assert r.code == 0, r.err
    n_labels = sum(1 for line in (sample_dir() / "labels.jsonl").read_text().splitlines() if line.strip())
    assert len([line for line in r.out.splitlines() if line.strip()]) == n_labels
