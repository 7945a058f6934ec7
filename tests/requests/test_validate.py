"""Validation statuses, with and without a gold restaurant."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.requests import Engine, parse_request, status_of, validate_requests
from dinecheck.requests.validate import NO_GOLD_STATUSES, STATUSES
from dinecheck.sample import sample_dir
from tests.requests.conftest import build_dataset


@pytest.mark.parametrize(("matches", "gold", "status"), [
    ([], None, "no_match"),
    (["a"], None, "unique"),
    (["a", "b", "c"], None, "multi_match"),
    ([], "a", "no_match"),
    (["a"], "a", "ok"),
    (["a", "b"], "a", "multi_match"),
    (["b"], "a", "gold_not_match"),
    (["b", "c"], "a", "gold_not_match"),
])
def test_status_of(matches, gold, status) -> None:
    assert status_of(matches, gold) == status


@given(st.lists(st.sampled_from("abcdef"), unique=True), st.one_of(st.none(), st.sampled_from("abcdef")))
def test_status_sets(matches, gold) -> None:
    s = status_of(matches, gold)
    assert s in (NO_GOLD_STATUSES if gold is None else STATUSES)
    assert (s == "unique") == (gold is None and len(matches) == 1)
    assert (s == "ok") == (gold is not None and matches == [gold])


def test_validate_without_gold_counts_matches() -> None:
    ds = build_dataset([{"business_id": b, "attributes": {"WiFi": w}} for b, w in
                        [("a", "u'free'"), ("b", "u'free'"), ("c", "u'no'"), ("d", "u'paid'")]])

    def req(rid: str, value: str):
        return parse_request({"id": rid, "structure": {"op": "AND", "args": [
            {"aspect": "wifi", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": value}}]}})

    res = validate_requests(Engine(ds), [req("F", "free"), req("P", "paid"), req("X", "none")])
    assert [(r.request_id, r.status, r.matches, r.warnings) for r in res] == [
        ("F", "multi_match", ("a", "b"), ()), ("P", "unique", ("d",), ()), ("X", "no_match", (), ())]


def test_cli_without_gold(cli, tmp_path) -> None:
    lines = [json.loads(x) for x in (sample_dir() / "requests.jsonl").read_text().splitlines()]
    for x in lines:
        x.pop("gold_restaurant")
    f = tmp_path / "r.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines[:2]) + "\n")
    r = cli("requests", "validate", "--data", sample_dir(), "--requests", f)
    assert r.code == 0, r
    assert r.out.splitlines()[-1] == "0 of 2 requests ok, 2 unique (no gold)"
    assert "unique" in r.out.splitlines()[-5]                     # the summary table gains a unique column
    j = cli("requests", "validate", "--data", sample_dir(), "--requests", f, "--json")
    assert [json.loads(x)["status"] for x in j.out.splitlines()] == ["unique", "unique"]
