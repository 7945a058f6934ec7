"""The find-a-place form as a request: wishes, hours, literal words, friends."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.web.safety import WebError
from dinecheck.web.wishes import FindForm, conditions_of, parse_wish, request_of


def test_empty_form_is_no_request():
    assert request_of(FindForm()) is None


def test_wishes_become_item_meta_conditions():
    conds = conditions_of(FindForm(wishes=("attributes.WiFi=free", "attributes.Ambience.hipster=True")))
    assert conds == [
        {"aspect": "WiFi=free", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "free"}},
        {"aspect": "hipster=True",
         "evidence": {"kind": "item_meta", "path": ["attributes", "Ambience", "hipster"], "true": "True"}},
    ]


def test_open_at_a_time_is_a_zero_length_window():
    (cond,) = conditions_of(FindForm(day="Friday", time="07:05"))
    assert cond["evidence"] == {"kind": "item_meta_hours", "path": ["hours", "Friday"], "true": "7:05-7:05"}


@pytest.mark.parametrize(("day", "time", "where"), [("Funday", "10:00", "day"), ("Monday", "24:00", "time"),
                                                    ("Monday", None, "time"), (None, "10:00", "day")])
def test_bad_hours_are_refused(day, time, where):
    with pytest.raises(WebError) as err:
        conditions_of(FindForm(day=day, time=time))
    assert err.value.where == where and err.value.status == 400


@pytest.mark.parametrize("key", ["WiFi", "attributes.WiFi=", "a.b.c.d.e=1", "attributes.Wi Fi=free", "=x"])
def test_malformed_wishes_are_refused(key):
    with pytest.raises(WebError, match="is not a wish"):
        parse_wish(key)


def test_friends_restrict_the_review_condition():
    (cond,) = conditions_of(FindForm(words="oat milk", friends=("Ann ", "Bo")))
    assert cond["evidence"] == {"kind": "review_text", "pattern": regex.escape("oat milk"),
                                "social_filter": {"friends": ["Ann", "Bo"], "hops": 1}}


@given(st.text(min_size=1, max_size=200).filter(lambda s: s.split()))
def test_words_are_searched_literally(words):
    (cond,) = conditions_of(FindForm(words=words))
    pattern = regex.compile(cond["evidence"]["pattern"], regex.IGNORECASE | regex.VERSION0)
    clean = " ".join(words.split())
    assert pattern.search(f"before {clean} after") is not None
    assert pattern.fullmatch(clean) is not None


def test_wishes_use_plain_word_aspects_when_given():
    (cond,) = conditions_of(FindForm(wishes=("attributes.WiFi=free",)), {"attributes.WiFi=free": "Wi-Fi: free"})
    assert cond["aspect"] == "Wi-Fi: free"
