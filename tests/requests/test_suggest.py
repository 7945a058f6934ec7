"""Request suggestions: shapes, smallest unique anchor sets, templated text, and that every suggestion validates ok."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.dataset import load_dataset
from dinecheck.errors import RequestError
from dinecheck.requests import Engine, build_catalog, parse_request, validate_requests
from dinecheck.requests.lint import Linter
from dinecheck.requests.suggest import GROUPS, Suggester
from tests.conftest import shared_file
from tests.requests.conftest import build_dataset


def independently_ok(ds, line) -> bool:
    """Re-check a suggestion with a fresh engine, linter and the request parser (nothing shared with the suggester)."""
    req = parse_request(json.loads(json.dumps(line)))
    (res,) = validate_requests(Engine(ds), [req])
    return res.status == "ok" and res.matches == (line["gold_restaurant"],) and \
        Linter(build_catalog(ds), ds).lint(req) == []


RESTAURANTS = [
    {"business_id": "g", "name": "Gold Cafe", "categories": "Cafes, Food",
     "attributes": {"WiFi": "u'free'", "HasTV": "False", "DogsAllowed": "True", "Ambience": "{'hipster': True}"},
     "hours": {"Monday": "6:0-15:0"}},
    {"business_id": "b", "name": "Bean", "attributes": {"WiFi": "u'free'", "HasTV": "False", "DogsAllowed": "False"},
     "hours": {"Monday": "8:0-15:0"}},
    {"business_id": "c", "name": "Cup", "attributes": {"WiFi": "'no'", "HasTV": "False", "DogsAllowed": "True"},
     "hours": {"Monday": "6:0-18:0"}},
]
REVIEWS = [
    {"business_id": "g", "text": "the espresso is lovely, matcha too", "user": {"name": "Alice"}},
    {"business_id": "b", "text": "espresso and matcha", "user": {"name": "Bob"}},
    {"business_id": "c", "text": "nice espresso", "user": {"name": "Alice"}},
]


@pytest.fixture(scope="module")
def small():
    ds = build_dataset(RESTAURANTS, REVIEWS, {"Alice": ["Bob"]})
    return ds, Suggester(ds)


def test_g01_smallest_unique_and(small) -> None:
    ds, s = small
    found = s.suggest(ds.restaurant("g"), "G01", limit=10)
    assert found, "a G01 request exists: hipster ambience alone singles out the gold"
    best = found[0]
    assert best.n_conditions == 2
    assert [n for _, n in best.condition_counts][0] == 1      # the rarest anchor comes first
    assert all(independently_ok(ds, f.line) for f in found)
    assert len({f.line["shorthand"] for f in found}) == len(found)
    assert [f.line["id"] for f in found] == [f"X{i:02d}" for i in range(1, len(found) + 1)]
    assert all(f.line["gold_restaurant"] == "g" and f.line["group"] == "G01" for f in found)


def test_g03_has_one_hours_window_first(small) -> None:
    ds, s = small
    found = s.suggest(ds.restaurant("g"), "G03")
    assert found and all(independently_ok(ds, f.line) for f in found)
    for f in found:
        args = f.line["structure"]["args"]
        assert args[0]["evidence"]["kind"] == "item_meta_hours"
        assert all(a["evidence"]["kind"] == "item_meta" for a in args[1:]) and len(args) >= 2


def test_text_and_shorthand(small) -> None:
    ds, s = small
    by_short = {f.line["shorthand"]: f.line["text"] for f in s.suggest(ds.restaurant("g"), "G01", limit=20)}
    assert by_short["AND(hipster_ambience, no_tv)"] == "Looking for a cafe with a hipster ambience and without TVs"
    assert by_short["AND(dogs_allowed, wifi_free)"] == "Looking for a cafe that's dog-friendly and with free Wi-Fi"
    assert list(by_short)[0] == "AND(hipster_ambience, dogs_allowed)"   # rarest first, then fewest restaurants


def test_social_suggestion(small) -> None:
    ds, s = small
    found = s.suggest(ds.restaurant("g"), "G09")
    assert found and all(independently_ok(ds, f.line) for f in found)
    assert found[0].line["shorthand"].startswith("1HOP(['Alice'], ")
    assert "that my friend Alice mentions '" in found[0].line["text"]


def test_nothing_found_and_bad_arguments(small) -> None:
    ds, s = small
    twin = build_dataset([RESTAURANTS[0], {**RESTAURANTS[0], "business_id": "twin"}])
    assert Suggester(twin).suggest(twin.restaurant("g"), "G01") == []    # an identical twin: nothing singles it out
    with pytest.raises(RequestError, match="unknown group 'G11'"):
        s.suggest(ds.restaurant("g"), "G11")
    with pytest.raises(RequestError, match="must be at least 1"):
        s.suggest(ds.restaurant("g"), "G01", max_conditions=0)
    assert s.suggest(ds.restaurant("g"), "G01", max_conditions=1) == []   # G01 needs two conditions


ATTRS = ["A", "B", "C", "D"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["True", "False", None]), min_size=4, max_size=4), min_size=2, max_size=7),
       st.data())
def test_g01_exists_exactly_when_no_other_restaurant_has_all_gold_values(rows, data) -> None:
    rs = [{"business_id": f"r{i}", "attributes": {a: v for a, v in zip(ATTRS, row) if v is not None}}
          for i, row in enumerate(rows)]
    ds = build_dataset(rs)
    gi = data.draw(st.integers(0, len(rows) - 1))
    gold = ds.restaurants[gi]
    have = {a: v for a, v in zip(ATTRS, rows[gi]) if v is not None}
    dominated = any(all(rows[j][ATTRS.index(a)] == v for a, v in have.items()) for j in range(len(rows)) if j != gi)
    found = Suggester(ds).suggest(gold, "G01")
    assert bool(found) == (len(have) >= 2 and not dominated)
    for f in found:
        assert independently_ok(ds, f.line)
        assert 2 <= f.n_conditions <= len(have)


@pytest.fixture(scope="module")
def cafes(shared_data):
    ds, _ = load_dataset(shared_file(shared_data, "philly_cafes"))
    return ds, Suggester(ds)


def test_done_when_g01_or_g03_for_at_least_45_of_49_cafes(cafes) -> None:
    ds, s = cafes
    assert len(ds.restaurants) == 49
    covered = 0
    for r in ds.restaurants:
        found = s.suggest(r, "G01", limit=1) or s.suggest(r, "G03", limit=1)
        if found:
            assert independently_ok(ds, found[0].line), found[0].line
            covered += 1
    assert covered >= 45


@pytest.mark.parametrize("group", list(GROUPS))
def test_every_printed_suggestion_of_every_group_validates_ok(cafes, group) -> None:
    ds, s = cafes
    for r in (ds.restaurants[0], ds.restaurants[17]):
        for f in s.suggest(r, group, limit=3):
            assert f.line["group"] == group
            assert independently_ok(ds, f.line), f.line
