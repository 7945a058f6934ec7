"""Shared CLI plumbing: JSON lines never hold NaN/Infinity (issue 10, item 5); naming restaurants by business id or
unique name."""

from __future__ import annotations

import json

import pytest

from dinecheck.cli.common import echo_json, select_restaurants
from dinecheck.dataset import load_dataset
from dinecheck.errors import DataError, EvaluationError
from dinecheck.sample import sample_dir


def test_echo_json_prints_one_compact_line(capsys: pytest.CaptureFixture[str]) -> None:
    echo_json({"a": [1, 2.5, "é"], "b": None})
    assert capsys.readouterr().out == '{"a": [1, 2.5, "é"], "b": null}\n'


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_echo_json_refuses_non_finite_numbers_naming_where(capsys: pytest.CaptureFixture[str], bad: float) -> None:
    with pytest.raises(EvaluationError) as ei:
        echo_json({"business_id": "B1", "output": {"SCORE": 1.0, "RISK": [0.5, bad]}})
    assert ei.value.location == "output /output/RISK/1"
    assert ei.value.reason == "the result is not a finite number (NaN or Infinity), which JSON cannot hold"
    assert capsys.readouterr().out == ""
    json.dumps({"ok": 1}, allow_nan=False)


def test_select_by_ids_and_names_in_order_once_each() -> None:
    ds, _ = load_dataset(sample_dir())
    a, b = ds.restaurants[0], ds.restaurants[1]
    got = select_restaurants(ds, [b.name, a.business_id, b.business_id], sample_dir())
    assert [r.business_id for r in got] == [b.business_id, a.business_id]
    assert select_restaurants(ds, None, sample_dir()) == list(ds.restaurants)
    with pytest.raises(DataError) as exc:
        select_restaurants(ds, ["nope"], sample_dir())
    assert str(exc.value) == f"--restaurant nope: no restaurant with business_id 'nope' in {sample_dir()}"
