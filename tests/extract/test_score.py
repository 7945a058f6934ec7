"""Tests of label-file scoring: reading, per-value precision/recall/F1, confusion, kappa, false non-null, the split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.errors import DataError
from dinecheck.extract.score import (
    LabelFile,
    cohen_kappa,
    read_labels,
    report_json,
    report_text,
    score_labels,
    split_half,
)


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _lf(labels: dict[str, dict[str, str]], unanswered: set[str] | None = None) -> LabelFile:
    return LabelFile(labels, frozenset(unanswered or ()))


def test_read_labels_accepts_extract_lines_and_skips_unanswered(tmp_path: Path) -> None:
    p = _write(tmp_path / "l.jsonl", [
        {"business_id": "b", "review_id": "r1", "status": "ok", "extraction": {"f": "a"}, "evidence": {}},
        {"review_id": "r2", "status": "error", "extraction": {}, "error": "no record"},
        {"review_id": "r3", "extraction": {"f": "none"}, "quotes": {}},
    ])  # fmt: skip
    lf = read_labels(p)
    assert lf.labels == {"r1": {"f": "a"}, "r3": {"f": "none"}} and lf.unanswered == {"r2"}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"extraction": {}}], "l.jsonl:1: missing or empty 'review_id'"),
        ([{"review_id": "r", "extraction": {"f": 1}}], "l.jsonl:1: 'extraction' must be an object of field → string value"),
        ([{"review_id": "r", "extraction": {}}, {"review_id": "r", "extraction": {}}], "l.jsonl:2: duplicate review_id 'r'"),
    ],
)  # fmt: skip
def test_read_labels_errors_name_file_and_line(tmp_path: Path, rows: list[dict], message: str) -> None:
    p = _write(tmp_path / "l.jsonl", rows)
    with pytest.raises(DataError) as exc:
        read_labels(p)
    assert str(exc.value) == f"{tmp_path}/{message}"


def test_scores_of_a_small_example() -> None:
    ref = _lf({"1": {"f": "none"}, "2": {"f": "a"}, "3": {"f": "a"}, "4": {"f": "b"}, "5": {"f": "none"}})
    lab = _lf({"1": {"f": "a"}, "2": {"f": "a"}, "3": {"f": "none"}, "4": {"f": "b"}, "6": {"f": "b"}}, {"5"})
    rep = score_labels(lab, ref)
    assert (rep.compared, rep.only_in_labels, rep.only_in_reference, rep.unanswered) == (4, 1, 0, 1)
    (f,) = rep.fields
    assert f.n == 4 and f.accuracy == 0.5
    by = {v.value: v for v in f.values}
    assert (by["a"].labelled, by["a"].reference, by["a"].agree) == (2, 2, 1)
    assert by["a"].precision == 0.5 and by["a"].recall == 0.5 and by["a"].f1 == 0.5
    assert by["b"].precision == 1.0 and by["b"].recall == 1.0
    assert f.confusion == {"none": {"a": 1}, "a": {"a": 1, "none": 1}, "b": {"b": 1}}
    assert f.false_non_null == 1 and f.non_null_precision == 2 / 3 and f.non_null_recall == 2 / 3
    # kappa: observed 0.5; chance (ref none 1, a 2, b 1; labels a 2, none 1, b 1) = (1*1 + 2*2 + 1*1) / 16
    assert f.kappa == pytest.approx((0.5 - 6 / 16) / (1 - 6 / 16))
    js = report_json(rep)
    assert js["false_non_null"] == 1 and js["fields"]["f"]["values"]["a"]["f1"] == 0.5
    assert "f: n 4  accuracy 0.50" in report_text(rep)


def test_null_values_come_from_the_caller_and_review_ids_restrict() -> None:
    ref = _lf({"1": {"f": "nil"}, "2": {"f": "x"}})
    lab = _lf({"1": {"f": "x"}, "2": {"f": "nil"}})
    assert score_labels(lab, ref, {"f": frozenset({"nil"})}).fields[0].false_non_null == 1
    assert score_labels(lab, ref).fields[0].false_non_null == 2  # "nil" is not a default null name
    assert score_labels(lab, ref, review_ids=["2"]).compared == 1


def test_kappa_edge_cases() -> None:
    assert cohen_kappa([]) is None
    assert cohen_kappa([("a", "a"), ("a", "a")]) is None  # chance agreement is 1
    assert cohen_kappa([("a", "a"), ("b", "b")]) == 1.0
    assert cohen_kappa([("a", "b"), ("b", "a")]) == -1.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("nab"), st.sampled_from("nab")), min_size=1, max_size=40))
def test_scores_are_consistent(pairs: list[tuple[str, str]]) -> None:
    ref = _lf({str(i): {"f": a} for i, (a, _) in enumerate(pairs)})
    lab = _lf({str(i): {"f": b} for i, (_, b) in enumerate(pairs)})
    (f,) = score_labels(lab, ref, {"f": frozenset({"n"})}).fields
    assert sum(sum(row.values()) for row in f.confusion.values()) == len(pairs)
    assert sum(v.labelled for v in f.values) == sum(v.reference for v in f.values) == len(pairs)
    k = f.kappa
    assert k is None or -1.0 <= k <= 1.0 + 1e-9
    assert f.false_non_null == sum(1 for a, b in pairs if b != "n" and a != b)
    for v in f.values:
        assert v.precision is None or 0.0 <= v.precision <= 1.0


def test_split_is_fixed_by_sha1() -> None:
    # the last hex digit of sha1: "a" → 8 and "c" → 4 (even: tuning), "e" → f and "f" → 5 (odd: untouched)
    assert [split_half(x) for x in ("a", "c", "e", "f")] == ["tuning", "tuning", "untouched", "untouched"]
