"""Yelp Open Dataset import on small synthetic files in the official format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dinecheck.dataset import load_dataset
from dinecheck.dataset.yelp_import import import_yelp, parse_elite, parse_friends
from dinecheck.errors import DataError
from dinecheck.requests import Engine, parse_request


def jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


@pytest.fixture
def yelp(tmp_path):
    biz = [
        {"business_id": "B1", "name": "Cafe One", "city": "Philadelphia", "categories": "Cafes, Coffee & Tea",
         "attributes": {"WiFi": "u'free'"}, "hours": {"Monday": "7:0-15:0"}, "stars": 4.5},
        {"business_id": "B2", "name": "Pizza", "city": "philadelphia", "categories": "Pizza, Restaurants",
         "attributes": None, "hours": None},
        {"business_id": "B3", "name": "Elsewhere Cafe", "city": "Tampa", "categories": "Cafes", "attributes": None,
         "hours": None},
        {"business_id": "B4", "name": "No categories", "city": "Philadelphia", "categories": None},
        "this line is broken",
    ]
    reviews = [
        {"review_id": f"R{i}", "user_id": uid, "business_id": bid, "stars": 4.0, "useful": i, "funny": 0, "cool": 0,
         "text": text, "date": "2021-03-04 05:06:07"}
        for i, (uid, bid, text) in enumerate([
            ("U1", "B1", "so cozy"), ("U2", "B1", "good latte"), ("U3", "B1", "meh"), ("U1", "B3", "far away"),
            ("U9", "B1", "ghost user"), ("U2", "B2", "cozy pizza")])
    ]
    users = [{"user_id": f"X{i}", "name": "Filler", "review_count": 1, "elite": "", "friends": "None", "fans": 0,
              "average_stars": 3.0} for i in range(500)]
    users += [
        {"user_id": "U1", "name": "Sam", "review_count": 50, "fans": 3, "elite": "2018,2019,20,20,2021",
         "average_stars": 4.1, "friends": "U2, X7", "yelping_since": "2010-01-01", "compliment_hot": 2},
        {"user_id": "U2", "name": "Sam", "review_count": 5, "fans": 0, "elite": "", "average_stars": 3.0,
         "friends": "None"},
        {"user_id": "U3", "name": "Lee", "review_count": 9, "fans": 1, "elite": "2015", "average_stars": 3.5,
         "friends": "U2"},
    ]
    return (jsonl(tmp_path / "business.json", biz), jsonl(tmp_path / "review.json", reviews),
            jsonl(tmp_path / "user.json", users), tmp_path / "out")


def test_import_filters_embeds_users_and_loads(yelp) -> None:
    business, review, user, out = yelp
    seen = []
    report = import_yelp(business, review, user, out, city="PHILADELPHIA", categories=["cafes", "Pizza"],
                         progress=lambda stage, done, total: seen.append((stage, done == total)))
    assert (report.restaurants, report.reviews, report.users, report.reviews_without_user) == (2, 5, 3, 1)
    assert report.skipped_lines == 1 and report.warnings == [f"{business}:5: invalid JSON"]
    assert [s for s, finished in seen if finished] == ["businesses", "reviews", "users"]
    assert sorted(p.name for p in out.iterdir()) == ["restaurants.jsonl", "reviews.jsonl"]
    rows = [json.loads(x) for x in (out / "reviews.jsonl").read_text().splitlines()]
    assert rows[0]["user"] == {"user_id": "U1", "name": "Sam", "review_count": 50, "fans": 3,
                               "elite": ["2018", "2019", "2020", "2021"], "average_stars": 4.1,
                               "friends": ["U2", "X7"]}
    assert "user_id" not in rows[0]
    assert rows[3]["user"]["user_id"] == "U9" and rows[3]["user"]["name"] is None
    ds, lr = load_dataset(out)
    assert lr.skipped == 0
    assert [r.business_id for r in ds.restaurants] == ["B1", "B2"]
    assert [rv.review_id for rv in ds.reviews_of("B1")] == ["R0", "R1", "R2", "R4"]
    # the social filter identifies imported reviewers by user_id (two different users are both called "Sam")
    req = parse_request({"id": "S", "structure": {"op": "AND", "args": [{"aspect": "c", "evidence": {
        "kind": "review_text", "pattern": "cozy", "social_filter": {"friends": ["U3"], "hops": 2}}}]}})
    assert [r.business_id for r in Engine(ds).matches(req)] == ["B2"]  # U3 - U2 wrote "cozy pizza"; U1 is 3 hops
    by_name = req.model_copy(update={"structure": parse_request({"id": "S", "structure": {"op": "AND", "args": [
        {"aspect": "c", "evidence": {"kind": "review_text", "pattern": "cozy",
                                     "social_filter": {"friends": ["Sam"], "hops": 1}}}]}}).structure})
    assert Engine(ds).matches(by_name) == []


def test_max_reviews_per_restaurant_and_no_filters(yelp) -> None:
    business, review, user, out = yelp
    report = import_yelp(business, review, user, out, max_reviews=2)
    assert (report.restaurants, report.reviews) == (4, 4)  # B1 keeps 2 of its 4; B2 and B3 have one each
    ds, _ = load_dataset(out)
    assert [len(ds.reviews_of(b)) for b in ("B1", "B2", "B3", "B4")] == [2, 1, 1, 0]


def test_import_errors(yelp, tmp_path) -> None:
    business, review, user, out = yelp
    with pytest.raises(DataError, match=r"nope.json: no such file"):
        import_yelp(business, tmp_path / "nope.json", user, out)
    out.mkdir()
    (out / "social.json").write_text("{}")
    with pytest.raises(DataError, match="holds a social.json that would not match the imported reviewers"):
        import_yelp(business, review, user, out)


@pytest.mark.parametrize(("raw", "years"), [("2018,2019,20,20,2021", ["2018", "2019", "2020", "2021"]),
                                             ("", []), ("None", []), (["2017", "None"], ["2017"]), (None, []),
                                             ("20,20", ["2020"]), ("2019, 2020", ["2019", "2020"])])
def test_parse_elite(raw, years) -> None:
    assert parse_elite(raw) == years


def test_parse_friends() -> None:
    assert parse_friends("a, b,c") == ["a", "b", "c"]
    assert parse_friends("None") == [] and parse_friends(None) == [] and parse_friends(["x", "None"]) == ["x"]
