"""The package's public API: every exported name resolves, and the three capabilities work through it alone."""

from __future__ import annotations

import subprocess
import sys

import dinecheck
from dinecheck.sample import sample_dir


def test_every_exported_name_exists() -> None:
    missing = [name for name in dinecheck.__all__ if not hasattr(dinecheck, name)]
    assert missing == []


def test_importing_the_package_loads_no_network_or_database_driver() -> None:
    code = "import sys, dinecheck; print(sorted(m for m in ('httpx', 'psycopg') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "[]"


def test_the_three_capabilities_through_the_public_api(tmp_path) -> None:
    ds, report = dinecheck.load_dataset(sample_dir())
    assert report.skipped == 0
    results = dinecheck.validate_requests(dinecheck.Engine(ds), dinecheck.load_requests(sample_dir() / "requests.jsonl"))
    assert {r.status for r in results} == {"ok"}

    compiled = dinecheck.build_seed(dinecheck.load_seed(sample_dir() / "allergy_risk_seed.json"))
    runs = compiled.run_many([(r, ds.reviews_of(r.business_id)) for r in ds.restaurants], dinecheck.make_extractor("offline"))
    assert [r.status for r in runs] == ["complete"] * len(ds.restaurants)

    with dinecheck.open_store(f"sqlite:///{tmp_path / 'o.sqlite'}") as store:
        result = dinecheck.check_label("Sugar, groundnut oil, salt", dinecheck.parse_profile("PEANUT"), store.ontology())
    assert result.verdict == "AVOID"
    assert [(f.code, f.level.value, f.token) for f in result.findings] == [("PEANUT", "DERIVED", "groundnut oil")]
