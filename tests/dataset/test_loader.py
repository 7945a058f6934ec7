"""Dataset loading: typed models, file:line errors, lenient mode counting every skipped line, the social graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dinecheck.dataset import SocialGraph, load_dataset
from dinecheck.dataset import loader as loader_mod
from dinecheck.errors import DataError


def write(root: Path, restaurants: list, reviews: list | None = None, social=None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "restaurants.jsonl").write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n"
                                                    for x in restaurants))
    if reviews is not None:
        (root / "reviews.jsonl").write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n"
                                                    for x in reviews))
    if social is not None:
        (root / "social.json").write_text(social if isinstance(social, str) else json.dumps(social))
    return root


def rest(bid, **kw):
    return {"business_id": bid, "name": bid.upper(), "attributes": {"WiFi": "u'free'"}, "hours": {"Monday": "8:0-9:0"},
            **kw}


def review(rid, bid, name="Ann", friends=("Bo",), **kw):
    return {"review_id": rid, "business_id": bid, "text": "nice", "stars": 4.0, "date": "2020-05-01 10:00:00",
            "user": {"name": name, "review_count": 3, "fans": 1, "elite": ["2019"], "friends": list(friends)}, **kw}


def test_loads_typed_models(tmp_path) -> None:
    root = write(tmp_path / "d", [rest("a", categories="Cafes"), rest("b", attributes=None, hours=None)],
                 [review("r1", "a"), review("r2", "a", name="Bo", friends=[])])
    ds, report = load_dataset(root)
    assert report.skipped == 0
    assert [r.business_id for r in ds.restaurants] == ["a", "b"]
    assert [r.index for r in ds.restaurants] == [0, 1]
    assert ds.restaurant("b").attributes == {} and ds.restaurant("zz") is None
    assert [rv.review_id for rv in ds.reviews_of("a")] == ["r1", "r2"]
    assert ds.reviews_of("b") == ()
    rv = ds.reviews_of("a")[0]
    assert (rv.user.name, rv.user.elite, rv.user.friends, rv.year, rv.stars) == ("Ann", ("2019",), ("Bo",), 2020, 4.0)
    assert ds.social.friends_of("Bo") == frozenset({"Ann"})  # derived from user.friends, made mutual
    assert ds.n_reviews == 2


@pytest.mark.parametrize(
    ("restaurants", "reviews", "where", "reason"),
    [
        ([rest("a"), "{bad json"], [], "restaurants.jsonl:2",
         "invalid JSON (Expecting property name enclosed in double quotes)"),
        ([rest("a"), {"name": "no id"}], [], "restaurants.jsonl:2", "missing or empty 'business_id'"),
        ([rest("a"), rest("a")], [], "restaurants.jsonl:2",
         "duplicate business_id 'a' (first at {root}/restaurants.jsonl:1)"),
        ([rest("a"), "[1, 2]"], [], "restaurants.jsonl:2", "expected a JSON object, got list"),
        ([rest("a", attributes="x")], [], "restaurants.jsonl:1", "'attributes' must be an object or null"),
        ([rest("a")], [review("r1", "zz")], "reviews.jsonl:1", "review of unknown restaurant 'zz'"),
        ([rest("a")], [review("r1", "a"), review("r1", "a")], "reviews.jsonl:2",
         "duplicate review_id 'r1' (first at line 1)"),
        ([rest("a")], [{"business_id": "a", "text": "x"}], "reviews.jsonl:1", "missing or empty 'review_id'"),
        ([rest("a")], [{**review("r1", "a"), "text": 5}], "reviews.jsonl:1", "'text' must be a string"),
        ([rest("a")], ["", "   ", "{\"review_id\": "], "reviews.jsonl:3", "invalid JSON (Expecting value)"),
    ],
)
def test_errors_name_file_and_line_and_lenient_counts(tmp_path, restaurants, reviews, where, reason) -> None:
    root = write(tmp_path / "d", restaurants, reviews)
    with pytest.raises(DataError) as info:
        load_dataset(root)
    assert info.value.location == f"{root}/{where}"
    assert info.value.reason == reason.format(root=root)
    ds, report = load_dataset(root, lenient=True)
    assert report.skipped == 1
    assert report.warnings == [f"{root}/{where}: {reason.format(root=root)}"]
    assert len(ds.restaurants) == (0 if where == "restaurants.jsonl:1" else 1)


def test_lenient_counts_several_problems(tmp_path) -> None:
    root = write(tmp_path / "d", [rest("a"), "nope", rest("a"), {"x": 1}],
                 [review("r1", "a"), review("r2", "ghost"), "{", review("r1", "a")])
    ds, report = load_dataset(root, lenient=True)
    assert report.skipped == 6
    assert [w.split(": ", 1)[0].rsplit("/", 1)[1] for w in report.warnings] == [
        "restaurants.jsonl:2", "restaurants.jsonl:3", "restaurants.jsonl:4", "reviews.jsonl:2", "reviews.jsonl:3",
        "reviews.jsonl:4"]
    assert [r.business_id for r in ds.restaurants] == ["a"] and ds.n_reviews == 1


def test_missing_directory_and_files(tmp_path) -> None:
    with pytest.raises(DataError, match="not a dataset directory"):
        load_dataset(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"empty: missing restaurants.jsonl"):
        load_dataset(tmp_path / "empty")
    ds, _ = load_dataset(write(tmp_path / "norev", [rest("a")]))  # reviews.jsonl is optional
    assert ds.n_reviews == 0


def test_social_json_wins_over_user_friends(tmp_path) -> None:
    root = write(tmp_path / "d", [rest("a")], [review("r1", "a")],
                 {"_about": "x", "friend_graph": {"Rose": ["Alice"], "Alice": ["Bob"]}})
    ds, _ = load_dataset(root)
    assert ds.social.as_dict() == {"Alice": ["Bob", "Rose"], "Bob": ["Alice"], "Rose": ["Alice"]}


@pytest.mark.parametrize(("text", "reason"), [("{oops", "invalid JSON (Expecting property name enclosed in double "
                                                       "quotes)"),
                                               ('{"friend_graph": {"A": "B"}}',
                                                "'friend_graph' must map reviewer names to lists of names")])
def test_bad_social_json(tmp_path, text, reason) -> None:
    root = write(tmp_path / "d", [rest("a")], [review("r1", "a")], text)
    with pytest.raises(DataError) as info:
        load_dataset(root)
    assert info.value.reason == reason
    ds, report = load_dataset(root, lenient=True)
    assert report.skipped == 1
    assert ds.social.friends_of("Ann") == frozenset({"Bo"})  # fell back to the derived graph


def test_over_long_line_is_skipped_in_bounded_memory(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(loader_mod, "MAX_LINE_BYTES", 100)
    root = write(tmp_path / "d", [{"business_id": "a"}, {"business_id": "b", "name": "x" * 500}, {"business_id": "c"}])
    with pytest.raises(DataError, match=r"restaurants.jsonl:2: line is longer than 100 bytes"):
        load_dataset(root)
    ds, report = load_dataset(root, lenient=True)
    assert [r.business_id for r in ds.restaurants] == ["a", "c"] and report.skipped == 1


def test_yelp_style_string_lists_and_user_id_identity(tmp_path) -> None:
    rv = review("r1", "a")
    rv["user"] = {"user_id": "U1", "name": "Ann", "elite": "2018,2019", "friends": "U2, U3"}
    rv2 = review("r2", "a")
    rv2["user"] = {"name": "Bo", "elite": "None", "friends": "None"}
    ds, _ = load_dataset(write(tmp_path / "d", [rest("a")], [rv, rv2]))
    u1, u2 = (x.user for x in ds.reviews_of("a"))
    assert (u1.elite, u1.friends, u1.social_id) == (("2018", "2019"), ("U2", "U3"), "U1")
    assert (u2.elite, u2.friends, u2.social_id) == ((), (), "Bo")
    assert ds.social.friends_of("U2") == frozenset({"U1"})


def test_social_graph_circles() -> None:
    g = SocialGraph({"A": ["B"], "C": ["A"], "B": ["D", "B"], "D": ["E"]})
    assert g.circle(["A"], 1) == frozenset({"A"})
    assert g.circle(["A"], 2) == frozenset({"A", "B", "C"})
    assert g.circle(["A"], 3) == frozenset({"A", "B", "C", "D"})
    assert g.circle(["Nobody"], 2) == frozenset({"Nobody"})
    assert g.friends_of("B") == frozenset({"A", "D"})  # self-loops dropped
    assert len(g) == 5


# -- unusual files (issue 10, item 3) ----------------------------------------------------------------------------
def _dataset_with_reviews_as(tmp_path, kind: str):
    import os

    d = tmp_path / "ds"
    d.mkdir()
    (d / "restaurants.jsonl").write_text('{"business_id": "B1", "name": "One"}\n')
    rev = d / "reviews.jsonl"
    if kind == "directory":
        rev.mkdir()
    elif kind == "fifo":
        os.mkfifo(rev)
    else:
        rev.symlink_to(d / "nowhere.jsonl")
    return d, rev


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("directory", "is a directory, not a file"),
        ("fifo", "is a named pipe (FIFO), not a regular file"),
        ("dangling", "is a symbolic link to a file that does not exist"),
    ],
)
def test_reviews_file_that_is_not_a_regular_file_is_an_error_even_when_lenient(tmp_path, kind, why):
    d, rev = _dataset_with_reviews_as(tmp_path, kind)
    for lenient in (False, True):
        with pytest.raises(DataError) as ei:
            load_dataset(d, lenient=lenient)
        assert (ei.value.location, ei.value.reason) == (str(rev), why)


def test_social_json_that_is_a_fifo_is_named_and_never_opened(tmp_path):
    import os

    d = tmp_path / "ds"
    d.mkdir()
    (d / "restaurants.jsonl").write_text('{"business_id": "B1", "name": "One"}\n')
    os.mkfifo(d / "social.json")
    with pytest.raises(DataError, match="social.json: is a named pipe"):
        load_dataset(d)


def test_restaurants_file_that_is_a_directory_is_named(tmp_path):
    d = tmp_path / "ds"
    (d / "restaurants.jsonl").mkdir(parents=True)
    with pytest.raises(DataError) as ei:
        load_dataset(d)
    assert str(ei.value) == f"{d / 'restaurants.jsonl'}: is a directory, not a file"


# -- non-finite numbers (issue 10, item 5) ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stars", "reason"),
    [
        ("NaN", "NaN is not a number JSON allows (NaN and Infinity are not JSON)"),
        ("Infinity", "Infinity is not a number JSON allows (NaN and Infinity are not JSON)"),
        ("-Infinity", "-Infinity is not a number JSON allows (NaN and Infinity are not JSON)"),
        ("1e999", "'stars' is inf, not a finite number"),
    ],
)
def test_non_finite_stars_are_rejected_naming_file_and_line(tmp_path, stars, reason):
    d = tmp_path / "ds"
    d.mkdir()
    (d / "restaurants.jsonl").write_text('{"business_id": "B1", "name": "One"}\n')
    (d / "reviews.jsonl").write_text(
        '{"review_id": "R1", "business_id": "B1", "text": "ok", "stars": 4}\n'
        '{"review_id": "R2", "business_id": "B1", "text": "ok", "stars": ' + stars + "}\n"
    )
    with pytest.raises(DataError) as ei:
        load_dataset(d)
    assert (ei.value.location, ei.value.reason) == (f"{d / 'reviews.jsonl'}:2", reason)
    ds, report = load_dataset(d, lenient=True)
    assert [r.review_id for r in ds.reviews["B1"]] == ["R1"] and report.warnings == [f"{d / 'reviews.jsonl'}:2: {reason}"]
