"""Tests of the extraction contract: which value of a field means "nothing here" (one definition for every user)."""

from __future__ import annotations

import pytest

from dinecheck.extract.base import FieldSpec


@pytest.mark.parametrize(
    ("values", "null"),
    [
        ({"none": "No reaction", "mild": "Minor"}, "none"),
        ({"mild": "Minor", "None": "whatever"}, "None"),  # a null name wins wherever it stands
        ({"nil": "No allergic reaction described", "mild": "Minor"}, "nil"),
        ({"quiet": "Calm", "nothing_here": "Not mentioned"}, "nothing_here"),
        ({"x": "The review does not discuss any dietary need", "y": "Vegan"}, "x"),
        ({"happy": "Reviewer was happy", "angry": "Reviewer was angry"}, None),
        ({"loud": "Too loud", "unknown": "Unclear"}, None),
    ],
)
def test_null_value(values: dict[str, str], null: str | None) -> None:
    f = FieldSpec(name="f", values=values)
    assert f.null_value == null
    assert all(f.is_null(v) == (v == null) for v in values)
