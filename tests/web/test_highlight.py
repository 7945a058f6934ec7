"""Highlight segments: they re-assemble the text exactly, overlaps keep the higher rank, quotes are found."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dinecheck.web.highlight import Mark, Segment, quote_marks, segments


def test_overlaps_keep_the_higher_rank():
    text = "may contain peanuts"
    out = segments(text, [Mark(12, 19, "DEFINITE", "", 4), Mark(0, 19, "TRACE", "phrase", 11)])
    assert out == [Segment("may contain peanuts", "TRACE", "phrase")]


def test_out_of_range_marks_are_ignored():
    assert segments("abc", [Mark(2, 9, "x", ""), Mark(1, 1, "y", "")]) == [Segment("abc")]


@given(st.text(max_size=60), st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 5)),
                                      max_size=8))
def test_segments_reassemble_the_text(text, raw):
    marks = [Mark(a, b, "m", "", r) for a, b, r in raw]
    out = segments(text, marks)
    assert "".join(s.text for s in out) == text
    assert all(s.text for s in out)


def test_quotes_found_exact_then_case_insensitive():
    text = "Great tea. My throat tightened after the cake! Staff shrugged."
    marks = quote_marks(text, ["my throat tightened after the cake!", "not there", ""])
    assert [(m.start, m.end, m.mark) for m in marks] == [(11, 46, "quote")]
