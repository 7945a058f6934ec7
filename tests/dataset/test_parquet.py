"""The Parquet dataset format and JSONL streaming: same restaurants, reviews, friend graph and answers as the JSONL
loader, restaurants never split across row groups, reviews read on demand, damaged files named."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.dataset import load_dataset
from dinecheck.dataset.jsonl_index import JsonlReviews
from dinecheck.dataset.parquet import REVIEWS, ParquetReviews, write_parquet
from dinecheck.errors import DataError

from .test_loader import rest, review, write


def _same(a, b) -> None:
    assert [r.raw for r in a.restaurants] == [r.raw for r in b.restaurants]
    assert [r.index for r in a.restaurants] == [r.index for r in b.restaurants]
    for r in a.restaurants:
        ra, rb = a.reviews_of(r.business_id), b.reviews_of(r.business_id)
        assert [(x.review_id, x.text, x.stars, x.date, x.user.name, x.user.elite) for x in ra] == \
               [(x.review_id, x.text, x.stars, x.date, x.user.name, x.user.elite) for x in rb]
    assert a.social.as_dict() == b.social.as_dict()
    assert a.n_reviews == b.n_reviews


def test_parquet_round_trip_keeps_everything(tmp_path: Path) -> None:
    src = write(tmp_path / "j", [rest("a"), rest("b"), rest("c")],
                [review("r1", "b"), review("r2", "a", name="Bo", friends=["Cy"]), review("r3", "b", name="Cy")])
    ds, _ = load_dataset(src)
    out = write_parquet(ds, tmp_path / "p")
    pds, _ = load_dataset(out)
    assert isinstance(pds.reviews, ParquetReviews) and pds.streamed
    _same(ds, pds)
    assert [x.review_id for x in pds.reviews_of("b")] == ["r1", "r3"]  # file order within a restaurant
    assert pds.reviews_of("c") == ()
    assert pds.social.friends_of("Cy") == frozenset({"Bo"})  # friend lists live once, in users.parquet
    raw = pq.read_table(out / REVIEWS).column("raw").to_pylist()
    assert all("friends" not in json.loads(x)["user"] for x in raw)


@settings(max_examples=40, deadline=None)
@given(counts=st.lists(st.integers(0, 7), min_size=1, max_size=12), group_rows=st.integers(1, 9))
def test_a_restaurant_never_spans_two_row_groups(tmp_path_factory, counts: list[int], group_rows: int) -> None:
    root = tmp_path_factory.mktemp("d")
    rests = [rest(f"b{i}") for i in range(len(counts))]
    revs = [review(f"r{i}-{k}", f"b{i}") for i, n in enumerate(counts) for k in range(n)]
    ds, _ = load_dataset(write(root / "j", rests, revs))
    out = write_parquet(ds, root / "p", row_group_rows=group_rows)
    pds, _ = load_dataset(out)
    _same(ds, pds)
    f = pq.ParquetFile(out / REVIEWS)
    groups = [set(f.read_row_group(g, columns=["business_id"]).column(0).to_pylist()) for g in range(f.num_row_groups)]
    for i in range(len(counts)):
        assert sum(f"b{i}" in g for g in groups) <= 1


def test_cafes_answer_the_same_in_every_format(tmp_path: Path, shared_data: Path, cli) -> None:
    cafes = shared_data / "philly_cafes"
    conv = cli("dataset", "convert", cafes, tmp_path / "pq")
    assert conv.code == 0, conv
    assert conv.out.startswith("wrote 49 restaurants, 980 reviews")
    args = ("--requests", cafes / "requests_dev.jsonl", "--groundtruth", cafes / "groundtruth_dev.jsonl", "--json")
    want = cli("requests", "validate", "--data", cafes, *args)
    got = cli("requests", "validate", "--data", tmp_path / "pq", *args)
    assert want.code == got.code == 0
    assert got.out == want.out
    ds, _ = load_dataset(cafes)
    streamed, _ = load_dataset(cafes, stream=True)
    assert isinstance(streamed.reviews, JsonlReviews)
    _same(ds, streamed)


def test_seed_run_on_parquet_reproduces_the_expected_outputs(tmp_path: Path, g1a: Path, cli) -> None:
    assert cli("dataset", "convert", g1a, tmp_path / "pq").code == 0
    seed, rec = g1a / "g1a_v2_seed.json", g1a / "recorded_extractions.jsonl"
    want = cli("seed", "run", seed, "--data", g1a, "--extractor", f"replay:{rec}", "--json")
    got = cli("seed", "run", seed, "--data", tmp_path / "pq", "--extractor", f"replay:{rec}", "--json")
    assert want.code == got.code
    assert got.out == want.out and len(got.out.splitlines()) == 100


def test_streaming_jsonl_reports_bad_lines_like_the_loader(tmp_path: Path) -> None:
    root = write(tmp_path / "d", [rest("a")], [review("r1", "a"), review("r2", "zz"), "{not json", review("r1", "a")])
    with pytest.raises(DataError, match=r"reviews.jsonl:2: review of unknown restaurant 'zz'"):
        load_dataset(root, stream=True)
    ds, report = load_dataset(root, stream=True, lenient=True)
    assert report.skipped == 3
    assert [m.split(": ", 1)[1] for m in report.warnings] == [
        "review of unknown restaurant 'zz'", "invalid JSON (Expecting property name enclosed in double quotes)",
        "duplicate review_id 'r1' (first at line 1)"]
    assert [x.review_id for x in ds.reviews_of("a")] == ["r1"]


def test_damaged_parquet_is_named(tmp_path: Path) -> None:
    ds, _ = load_dataset(write(tmp_path / "j", [rest("a")], [review("r1", "a")]))
    out = write_parquet(ds, tmp_path / "p")
    (out / "restaurants.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(DataError, match=r"restaurants.parquet: cannot read the Parquet file"):
        load_dataset(out)
    (out / "restaurants.parquet").unlink()
    (out / "restaurants.parquet").mkdir()
    with pytest.raises(DataError, match=r"restaurants.parquet: is a directory, not a file"):
        load_dataset(out)


def test_convert_refuses_a_file_as_output(tmp_path: Path, cli) -> None:
    src = write(tmp_path / "j", [rest("a")], [review("r1", "a")])
    (tmp_path / "f").write_text("x")
    r = cli("dataset", "convert", src, tmp_path / "f")
    assert r.code == 2 and r.err == f"error: {tmp_path / 'f'}: exists and is not a directory\n"


def test_friend_graph_is_read_only_when_a_social_condition_needs_it(tmp_path: Path) -> None:
    ds, _ = load_dataset(write(tmp_path / "j", [rest("a")], [review("r1", "a", name="Ann", friends=["Bo"])]))
    pds, _ = load_dataset(write_parquet(ds, tmp_path / "p"))
    assert pds.social._loaded is False  # type: ignore[attr-defined]
    pds.reviews_of("a")
    assert pds.social._loaded is False  # type: ignore[attr-defined]
    assert pds.social.circle(["Bo"], 2) == frozenset({"Bo", "Ann"})
    (tmp_path / "p" / "users.parquet").write_bytes(b"garbage")
    again, _ = load_dataset(tmp_path / "p")
    with pytest.raises(DataError, match=r"users.parquet: cannot read the Parquet file"):
        again.social.friends_of("Bo")
