"""A live check against a real OpenAI-compatible endpoint; runs only when DINECHECK_LLM_BASE_URL is set.

Configure with DINECHECK_LLM_BASE_URL, DINECHECK_LLM_MODEL and (if needed) DINECHECK_LLM_API_KEY, then run
``pytest -m live_llm tests/extract/test_llm_live.py``.
"""

from __future__ import annotations

import os

import pytest

from dinecheck.extract.base import FieldSpec, ReviewInput
from dinecheck.extract.factory import ExtractorOptions, make_extractor

pytestmark = [
    pytest.mark.live_llm,
    pytest.mark.skipif(not os.environ.get("DINECHECK_LLM_BASE_URL"), reason="DINECHECK_LLM_BASE_URL is not set"),
]

FIELDS = [
    FieldSpec(name="reaction", values={
        "none": "No allergic reaction described",
        "mild": "Minor symptoms (stomach upset, itchy mouth)",
        "severe": "Life-threatening (anaphylaxis, EpiPen, ER visit)",
    }),
    FieldSpec(name="staff", values={
        "none": "No staff interaction about allergies",
        "positive": "Staff checked the allergy and accommodated it",
        "negative": "Staff dismissive or refused to accommodate",
    }),
]
REVIEWS = [
    ReviewInput("b1", "live-1", "The pad thai was great and the service quick. We will be back.", {"stars": 5.0}),
    ReviewInput("b1", "live-2", "I told the waiter about my peanut allergy and he just shrugged. Twenty minutes later "
                "my throat closed up and I had to use my EpiPen in the parking lot.", {"stars": 1.0}),
]


def test_live_endpoint_labels_reviews_and_the_rerun_is_cached(tmp_path):
    opts = ExtractorOptions(cache_path=tmp_path / "cache.sqlite", batch_size=2, timeout=120.0)
    ex = make_extractor("llm", opts)
    try:
        res = ex.extract(FIELDS, REVIEWS)
    finally:
        ex.close()
    assert [r.review_id for r in res] == ["live-1", "live-2"]
    assert all(r.status in ("ok", "invalid") for r in res), [r.error for r in res]
    for r in res:
        if r.ok:
            assert all(r.values[f.name] in f.values for f in FIELDS)
    if res[1].ok:
        assert res[1].values["reaction"] == "severe"
    again = make_extractor("llm", opts)
    try:
        again.extract(FIELDS, REVIEWS)
    finally:
        again.close()
    assert again.stats.cache_hits == sum(1 for r in res if r.ok)  # ok answers come from the cache
