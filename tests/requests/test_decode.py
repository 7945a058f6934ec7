"""Yelp value decoding and the value-match rule (evidence_semantics.md §2)."""

from __future__ import annotations

import pytest

from dinecheck.requests.decode import MISSING, decode_value, resolve_path, text_form, value_matches


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("True", True),
        ("False", False),
        ("u'free'", "free"),
        ("'free'", "free"),
        ('"free"', "free"),
        ("u'none'", "none"),
        ("2", "2"),
        ("7:0-18:0", "7:0-18:0"),
        ("{'hipster': True, 'casual': False}", {"hipster": True, "casual": False}),
        ("[1, 2]", [1, 2]),
        ("{not a dict", "{not a dict"),
        ("{'a': __import__('os')}", "{'a': __import__('os')}"),
        (5, 5),
        (True, True),
        ("true", "true"),
        ("u", "u"),
        ("'", "'"),
    ],
)
def test_decode_value(raw, expected) -> None:
    assert decode_value(raw) == expected
    assert type(decode_value(raw)) is type(expected)


@pytest.mark.parametrize("raw", ["None", "none", "NONE", "nOnE"])
def test_none_in_any_case_is_missing(raw) -> None:
    assert decode_value(raw) is MISSING


def test_resolve_path_enters_decoded_dicts() -> None:
    obj = {"attributes": {"Ambience": "{'hipster': True}", "WiFi": "None", "Flat": "True"}}
    assert resolve_path(obj, ["attributes", "Ambience", "hipster"]) is True
    assert resolve_path(obj, ["attributes", "Ambience", "romantic"]) is MISSING
    assert resolve_path(obj, ["attributes", "WiFi"]) is MISSING
    assert resolve_path(obj, ["attributes", "Flat", "x"]) is MISSING  # a non-dict along the path
    assert resolve_path(obj, ["nope"]) is MISSING
    assert resolve_path({"attributes": None}, ["attributes", "WiFi"]) is MISSING


@pytest.mark.parametrize(
    ("actual", "expected", "result"),
    [
        ("free", "u'free'", True),
        ("FREE", "u'free'", True),
        ("free", "fre", False),  # no substring fallback
        (True, "True", True),
        (True, True, True),
        (True, "true", False),  # the string "true" is text, not a boolean
        (1, True, False),  # a boolean matches only a boolean
        (True, 1, False),
        ("1", 1, False),  # "1" != 1
        ("1", "1", True),
        (2, 2.0, True),
        (["a", "b"], "B", True),
        (["a", "b"], "c", False),
        (MISSING, "True", False),
        ("x", "None", False),
    ],
)
def test_value_matches(actual, expected, result) -> None:
    assert value_matches(actual, expected) is result


def test_text_form_uses_python_rendering_for_dicts() -> None:
    assert text_form({"hipster": True, "casual": False}) == "{'hipster': True, 'casual': False}"
    assert text_form("free") == "free"
