"""Shared CLI plumbing: JSON lines never hold NaN/Infinity (issue 10, item 5)."""

from __future__ import annotations

import json

import pytest

from dinecheck.cli.common import echo_json
from dinecheck.errors import EvaluationError


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
