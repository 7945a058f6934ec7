"""The replay extractor: recorded labels by review_id; missing → error result; bad files → DataError with file:line."""

from __future__ import annotations

import json

import pytest

from dinecheck.errors import DataError
from dinecheck.extract.base import Extractor, FieldSpec, ReviewInput
from dinecheck.extract.factory import make_extractor
from dinecheck.extract.replay import ReplayExtractor
from tests.conftest import shared_file

FIELDS = [FieldSpec(name="severity", values={"none": "", "mild": ""}), FieldSpec(name="who", values={"none": "", "me": ""})]


def inputs(*ids: str) -> list[ReviewInput]:
    return [ReviewInput("b1", rid, "text") for rid in ids]


def write(tmp_path, lines: list[str]):
    path = tmp_path / "rec.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_replays_records_and_reports_missing_and_invalid_ones(tmp_path) -> None:
    path = write(tmp_path, [
        json.dumps({"business_id": "b1", "review_id": "r1", "extraction": {"severity": "mild", "who": "me", "extra": "x"}}),
        "",
        json.dumps({"review_id": "r2", "extraction": {"severity": "awful", "who": "me"}}),
        json.dumps({"review_id": "r3", "extraction": {"severity": "none"}}),
    ])  # fmt: skip
    ex = make_extractor(f"replay:{path}")
    assert isinstance(ex, ReplayExtractor) and isinstance(ex, Extractor)
    out = ex.extract(FIELDS, inputs("r1", "r2", "r3", "r4"))
    assert [(r.review_id, r.status, r.values, r.error) for r in out] == [
        ("r1", "ok", {"severity": "mild", "who": "me"}, None),
        ("r2", "invalid", {}, "recorded value 'awful' is not a declared value of 'severity'"),
        ("r3", "invalid", {}, "the recorded extraction has no field 'who'"),
        ("r4", "error", {}, "no recorded extraction in rec.jsonl"),
    ]
    assert ex.stats.reviews == 4 and ex.stats.calls == 0
    ex.close()


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"review_id": "r1", "extraction": {}}', "{not json"], ":2: invalid JSON (Expecting property name enclosed in double quotes)"),
        (['{"extraction": {}}'], ":1: missing or empty 'review_id'"),
        (['{"review_id": "r1"}'], ":1: 'extraction' must be an object of field → string value"),
        (['{"review_id": "r1", "extraction": {"a": 1}}'], ":1: 'extraction' must be an object of field → string value"),
        (['{"review_id": "r1", "extraction": {}}', '{"review_id": "r1", "extraction": {}}'], ":2: duplicate review_id 'r1' (first at line 1)"),
        (["[1, 2]"], ":1: expected a JSON object, got list"),
    ],
)
def test_bad_files_raise_data_error_with_file_and_line(tmp_path, lines: list[str], message: str) -> None:
    path = write(tmp_path, lines)
    with pytest.raises(DataError) as exc:
        ReplayExtractor(path)
    assert str(exc.value) == f"{path}{message}"


def test_missing_file(tmp_path) -> None:
    with pytest.raises(DataError) as exc:
        ReplayExtractor(tmp_path / "nope.jsonl")
    assert str(exc.value) == f"{tmp_path / 'nope.jsonl'}: no such file"


def test_loads_the_recorded_g1a_labels(shared_data) -> None:
    ex = ReplayExtractor(shared_file(shared_data, "g1a_allergy/recorded_extractions.jsonl"))
    assert len(ex.records) == 382
