"""The dataset catalog: attribute paths with decoded values and counts, categories, hours, review fields, people."""

from __future__ import annotations

import json

import pytest

from dinecheck.dataset import load_dataset
from dinecheck.requests.catalog import build_catalog, jsonable, value_kind
from tests.conftest import shared_file
from tests.requests.conftest import build_dataset

RESTAURANTS = [
    {"business_id": "a", "name": "A", "categories": "Cafes, Food", "stars": 4.0,
     "attributes": {"WiFi": "u'free'", "HasTV": "False", "Ambience": "{'hipster': True, 'casual': False}",
                    "RestaurantsPriceRange2": "2", "Alcohol": "None"},
     "hours": {"Monday": "8:0-15:0", "Friday": "22:0-2:0"}},
    {"business_id": "b", "name": "B", "categories": "Food",
     "attributes": {"WiFi": "'no'", "HasTV": "True", "Ambience": "{'hipster': False}"},
     "hours": {"Monday": "7:30-12:0", "Tuesday": "9am-5pm"}},
    {"business_id": "c", "name": "C", "categories": None, "attributes": {"WiFi": "u'free'"}, "hours": {}},
]
REVIEWS = [
    {"business_id": "a", "text": "x", "stars": 5, "useful": 3, "date": "2019-01-02 10:00:00",
     "user": {"name": "Alice", "review_count": 10, "elite": ["2018", "None", ""], "fans": 2}},
    {"business_id": "a", "text": "y", "stars": 1, "useful": 0, "date": "2015-05-05 10:00:00",
     "user": {"name": "Bob", "review_count": 250, "elite": [], "fans": 0}},
    {"business_id": "b", "text": "z", "stars": 3.5, "useful": 7, "date": "2021-12-31 23:00:00",
     "user": {"name": "Alice", "review_count": 11, "elite": ["2019", "2020"]}},
]
GRAPH = {"Alice": ["Bob"], "Bob": ["Carol"], "Dan": []}


@pytest.fixture
def cat():
    return build_catalog(build_dataset(RESTAURANTS, REVIEWS, GRAPH))


def test_attribute_values_are_decoded_and_counted(cat) -> None:
    wifi = cat.attribute(["attributes", "WiFi"])
    assert wifi is not None and wifi.key == "WiFi" and wifi.label == "Wi-Fi" and wifi.kind == "text"
    assert [(v.value, v.count) for v in wifi.values] == [("free", 2), ("no", 1)]
    assert (wifi.n_present, wifi.n_missing) == (3, 0)
    tv = cat.attribute("HasTV")
    assert [(v.value, v.count) for v in tv.values] == [(False, 1), (True, 1)]
    assert tv.kind == "boolean" and tv.n_missing == 1
    price = cat.attribute("RestaurantsPriceRange2")
    assert price.values[0].value == "2" and price.kind == "text"   # "2" stays text, as evaluation sees it


def test_none_string_counts_as_missing(cat) -> None:
    alcohol = cat.attribute("Alcohol")
    assert alcohol.values == () and alcohol.n_present == 0 and alcohol.n_missing == 3 and alcohol.kind == "none"


def test_nested_attribute_paths(cat) -> None:
    amb = cat.attribute("Ambience")
    assert amb.kind == "dict" and amb.children == ("casual", "hipster")
    hip = cat.attribute(["attributes", "Ambience", "hipster"])
    assert hip.key == "Ambience.hipster" and hip.label == "Hipster ambience"
    assert sorted((v.value, v.count) for v in hip.values) == [(False, 1), (True, 1)]
    assert hip.n_missing == 1
    casual = cat.attribute("Ambience.casual")
    assert [(v.value, v.count) for v in casual.values] == [(False, 1)] and casual.n_missing == 2
    assert cat.attribute("Ambience.nope") is None
    assert [a.key for a in cat.attributes] == sorted(a.key for a in cat.attributes)


def test_categories_hours_fields(cat) -> None:
    assert [(c.name, c.count) for c in cat.categories] == [("Food", 2), ("Cafes", 1)]
    by_day = {h.day: h for h in cat.hours}
    assert [h.day for h in cat.hours][:7] == ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                                            "Sunday"]
    mon = by_day["Monday"]
    assert (mon.n_open, mon.n_missing, mon.n_malformed, mon.earliest_open, mon.latest_close) == (2, 1, 0, 450, 900)
    tue = by_day["Tuesday"]
    assert (tue.n_open, tue.n_missing, tue.n_malformed, tue.earliest_open) == (0, 2, 1, None)
    fri = by_day["Friday"].to_json()
    assert fri["latest_close"] == "2:0" and fri["latest_close_minutes"] == 26 * 60 and fri["earliest_open"] == "22:0"
    assert cat.has_field("stars") and not cat.has_field("nope")
    assert {f.name: f.count for f in cat.fields}["categories"] == 2


def test_review_fields_with_ranges(cat) -> None:
    f = {x.key: x for x in cat.review_fields}
    assert set(f) == {"stars", "useful", "date", "user.review_count", "user.elite", "user.fans"}
    assert (f["stars"].kind, f["stars"].min, f["stars"].max, f["stars"].n_present) == ("number", 1, 5, 3)
    assert (f["user.review_count"].min, f["user.review_count"].max) == (10, 250)
    assert (f["user.elite"].kind, f["user.elite"].min, f["user.elite"].max) == ("list", 0, 2)
    assert (f["user.fans"].n_present, f["user.fans"].max) == (2, 2)
    assert (f["date"].kind, f["date"].min, f["date"].max) == ("date", "2015-05-05 10:00:00", "2021-12-31 23:00:00")
    assert cat.review_field(["user", "fans"]) is f["user.fans"]
    assert cat.review_field(["user", "name"]) is None    # identities and texts are not metadata


def test_reviewers_and_friend_graph(cat) -> None:
    assert [(r.name, r.n_reviews, r.n_friends) for r in cat.reviewers] == [
        ("Alice", 2, 1), ("Bob", 1, 2), ("Carol", 0, 1)]
    assert (cat.friend_graph_people, cat.friend_graph_edges) == (3, 2)
    assert cat.knows_person("Carol") and not cat.knows_person("alice")


def test_to_json_round_trips_through_json(cat) -> None:
    obj = json.loads(json.dumps(cat.to_json()))
    assert obj["n_restaurants"] == 3 and obj["n_reviews"] == 3
    hip = next(a for a in obj["attributes"] if a["key"] == "Ambience.hipster")
    assert hip["path"] == ["attributes", "Ambience", "hipster"] and hip["label"] == "Hipster ambience"
    assert {"value": True, "text": "True", "count": 1} in hip["values"]
    assert obj["friend_graph"] == {"people": 3, "edges": 2}


def test_jsonable_and_kind() -> None:
    assert jsonable({1: (2, {3})}) == {"1": [2, [3]]}
    assert jsonable(b"x") == "b'x'"
    assert value_kind([True, False]) == "boolean" and value_kind([1, 2.5]) == "number"
    assert value_kind([True, "x"]) == "mixed" and value_kind([]) == "none"


def test_catalog_of_the_cafes(shared_data) -> None:
    ds, _ = load_dataset(shared_file(shared_data, "philly_cafes"))
    cat = build_catalog(ds)
    assert cat.n_restaurants == 49 and cat.n_reviews == 980
    for a in cat.attributes:
        assert a.n_present + a.n_missing == 49
        assert sum(v.count for v in a.values) == a.n_present
    # every attribute path a dev request uses is in the catalog
    for line in shared_file(shared_data, "philly_cafes/requests_dev.jsonl").read_text().splitlines():
        for path in _paths(json.loads(line)["structure"]):
            assert cat.attribute(path) is not None, path


def _paths(node):
    if "op" in node:
        for a in node["args"]:
            yield from _paths(a)
    elif node["evidence"]["kind"] == "item_meta":
        yield node["evidence"]["path"]
