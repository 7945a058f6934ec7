"""The real benchmark: every philly_cafes dev request is `ok` with its gold; the bundled sample requests too."""

from __future__ import annotations

import json

import pytest

from dinecheck.dataset import load_dataset
from dinecheck.requests import Engine, load_groundtruth, load_requests, validate_requests
from dinecheck.requests.shorthand import compare
from dinecheck.sample import sample_dir
from tests.conftest import shared_file


@pytest.mark.shared_data
def test_every_dev_request_is_ok_with_its_gold(shared_data) -> None:
    root = shared_data / "philly_cafes"
    ds, report = load_dataset(root)
    assert (len(ds.restaurants), ds.n_reviews, report.skipped) == (49, 980, 0)
    requests = load_requests(shared_file(shared_data, "philly_cafes/requests_dev.jsonl"))
    results = validate_requests(Engine(ds), requests)
    assert len(results) == 49
    bad = [(r.request_id, r.status, r.matches, r.gold_restaurant) for r in results if r.status != "ok"]
    assert bad == []
    assert all(r.matches == (r.gold_restaurant,) for r in results)
    assert [w for r in results for w in r.warnings] == []  # every shorthand agrees with its structure


@pytest.mark.shared_data
def test_dev_groundtruth_agrees(shared_data) -> None:
    root = shared_data / "philly_cafes"
    ds, _ = load_dataset(root)
    requests = load_requests(root / "requests_dev.jsonl")
    gt_path = shared_file(shared_data, "philly_cafes/groundtruth_dev.jsonl")
    gold = load_groundtruth(gt_path)
    rows = [json.loads(line) for line in gt_path.read_text().splitlines() if line.strip()]
    results = validate_requests(Engine(ds), requests, gold)
    by_id = {r.request_id: r for r in results}
    for row in rows:
        r = by_id[row["request_id"]]
        assert r.status == row["status"] == "ok"
        assert r.matches == (row["gold_restaurant"],)
        assert ds.restaurant(row["gold_restaurant"]).index == row["gold_idx"]


def test_sample_requests_are_ok_and_cover_every_kind() -> None:
    ds, report = load_dataset(sample_dir())
    assert (len(ds.restaurants), ds.n_reviews, report.skipped) == (10, 60, 0)
    requests = load_requests(sample_dir() / "requests.jsonl")
    results = validate_requests(Engine(ds), requests)
    assert [(r.request_id, r.status) for r in results] == [(f"S0{i}", "ok") for i in range(1, 9)]
    assert all(compare(q.shorthand, q.structure) == [] for q in requests)
    text = (sample_dir() / "requests.jsonl").read_text()
    for needle in ('"item_meta"', '"item_meta_hours"', '"review_text"', '"review_meta"', '"weight_by"',
                   '"social_filter"', '"hops": 1', '"hops": 2', '"NOT"', '"OR"', '"23:0-5:0"'):
        assert needle in text


def test_sample_two_hop_request_relies_on_the_one_sided_edge() -> None:
    ds, _ = load_dataset(sample_dir())
    graph = json.loads((sample_dir() / "social.json").read_text())["friend_graph"]
    assert "Omar" not in graph["Theo"] and "Theo" in graph["Omar"]
    req = next(q for q in load_requests(sample_dir() / "requests.jsonl") if q.id == "S08")
    tree = Engine(ds).explain(req, ds.restaurant("smp-little-dumpling"))
    cond = tree.children[0]
    assert cond.outcome.evidence["circle"] == ["Jun", "Nora", "Omar", "Theo"]
    assert [ds.reviews_of("smp-little-dumpling")[0].user.name] == ["Omar"]
    assert cond.outcome.evidence["qualifying_reviews"] == [ds.reviews_of("smp-little-dumpling")[0].review_id]
