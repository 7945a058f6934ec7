"""The condition matrix: values per condition × restaurant, naming by aspect, the reference JSON shape."""

from __future__ import annotations

import json

from dinecheck.requests import Engine, parse_request
from dinecheck.requests.matrix import build_matrix
from dinecheck.sample import sample_dir
from tests.requests.conftest import build_dataset

DS = build_dataset(
    [{"business_id": "a", "name": "A", "attributes": {"WiFi": "u'free'", "HasTV": "True"}},
     {"business_id": "b", "name": "B", "attributes": {"WiFi": "'no'"}},
     {"business_id": "c", "name": "C", "attributes": {"WiFi": "u'free'", "HasTV": "False"}}],
    [{"business_id": "a", "text": "great latte"}, {"business_id": "b", "text": "a latte and cake"}],
)
WIFI = {"aspect": "wifi", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "free"}}
TV = {"aspect": "tv", "evidence": {"kind": "item_meta", "path": ["attributes", "HasTV"], "true": "True"}}
LATTE = {"aspect": "latte", "evidence": {"kind": "review_text", "pattern": "latte"}}
WIFI_NO = {"aspect": "wifi", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "no"}}


def reqs():
    return [
        parse_request({"id": "Q1", "structure": {"op": "AND", "args": [WIFI, {"op": "NOT", "args": [TV]}]}}),
        parse_request({"id": "Q2", "structure": {"op": "OR", "args": [LATTE, WIFI, WIFI_NO]}}),
    ]


def test_values_names_and_uses() -> None:
    m = build_matrix(DS, reqs())
    assert [(c.name, c.values) for c in m.conditions] == [
        ("wifi", (1, -1, 1)), ("tv", (1, 0, -1)), ("latte", (1, 1, 0)), ("wifi#2", (-1, 1, -1))]
    wifi = m.conditions[0]
    assert wifi.uses == (("Q1", "/structure/args/0"), ("Q2", "/structure/args/1"))
    assert wifi.satisfying == (0, 2) and wifi.count == 2 and wifi.counts() == {"+1": 2, "0": 0, "-1": 1}
    assert m.unique_conditions() == ["tv", "wifi#2"]
    assert m.rare_conditions() == ["tv", "wifi#2", "latte", "wifi"]


def test_values_agree_with_explanations() -> None:
    m = build_matrix(DS, reqs())
    eng = Engine(DS)
    for q in reqs():
        for r in DS.restaurants:
            leaves = {(leaf.pointer): leaf.value for leaf in eng.explain(q, r).leaves()}
            for c in m.conditions:
                for rid, ptr in c.uses:
                    if rid == q.id:
                        assert leaves[ptr] == c.values[r.index]


def test_json_shape() -> None:
    obj = json.loads(json.dumps(build_matrix(DS, reqs()).to_json()))
    assert list(obj) == ["conditions", "restaurants", "unique_conditions", "rare_conditions"]
    tv = obj["conditions"]["tv"]
    assert tv["type"] == "item_meta" and tv["satisfying_restaurants"] == [0] and tv["count"] == 1
    assert tv["definition"] == {"kind": "item_meta", "path": ["attributes", "HasTV"], "true": "True", "missing": 0}
    assert tv["values"] == [1, 0, -1]
    assert tv["requests"] == [{"request_id": "Q1", "pointer": "/structure/args/1/args/0"}]
    assert obj["restaurants"]["1"] == {"name": "B", "business_id": "b", "satisfying_conditions": ["latte", "wifi#2"]}


def test_cli_matrix(cli, tmp_path) -> None:
    out = tmp_path / "condition_matrix.json"
    s = sample_dir()
    r = cli("requests", "matrix", "--data", s, "--requests", s / "requests.jsonl", "--out", out)
    assert r.code == 0, r
    obj = json.loads(out.read_text())
    n = len(obj["restaurants"])
    assert all(len(c["values"]) == n and sum(c["counts"].values()) == n for c in obj["conditions"].values())
    assert r.out.splitlines()[0].split() == ["condition", "type", "+1", "0", "-1", "requests"]
    assert r.out.splitlines()[-1].startswith(f"{len(obj['conditions'])} conditions × {n} restaurants; ")
    j = cli("requests", "matrix", "--data", s, "--requests", s / "requests.jsonl", "--json")
    assert json.loads(j.out) == obj
    bad = cli("requests", "matrix", "--data", s, "--requests", s / "requests.jsonl", "--out", tmp_path / "no" / "x")
    assert bad.code == 2 and bad.err.startswith("error: ") and "cannot write the matrix" in bad.err
