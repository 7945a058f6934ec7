"""The shared cost budget: LocalBudget's arithmetic and latch, and two LLM extractors (two "workers") drawing on one
budget against the fake OpenAI-compatible server over real HTTP."""

from __future__ import annotations

import importlib.util
import json
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.extract.base import FieldSpec, ReviewInput
from dinecheck.extract.budget import Budget, LocalBudget
from dinecheck.extract.chat import LLMConfig, Price
from dinecheck.extract.llm import LLMExtractor

_spec = importlib.util.spec_from_file_location("fake_llm", Path(__file__).resolve().parents[1] / "support" / "fake_llm.py")
fake_llm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_llm)


def test_reserve_settle_and_the_latch():
    b = LocalBudget(1.0)
    assert isinstance(b, Budget)
    assert b.reserve(0.4) is None and b.reserve(0.5) is None
    assert b.state() == {"limit": 1.0, "spent": 0.0, "reserved": pytest.approx(0.9), "denied": None}
    denied = b.reserve(0.2)
    assert denied == "the next call could cost up to $0.200000, and $0.000000 is spent ($0.900000 more in flight) of the $1.000000 budget"
    b.settle(0.4, 0.1)
    b.settle(0.5, 0.2)
    assert b.state()["spent"] == pytest.approx(0.3) and b.state()["reserved"] == pytest.approx(0.0)
    assert b.reserve(0.01) == denied  # a denial is final: every worker stops at once


def test_unlimited_budget_never_denies():
    b = LocalBudget(None)
    assert all(b.reserve(1e9) is None for _ in range(5))


@given(st.floats(min_value=0.01, max_value=10.0), st.lists(st.tuples(st.floats(0.0, 3.0), st.floats(0.0, 1.0)), max_size=60))
def test_charged_never_exceeds_the_limit_when_actual_is_at_most_the_estimate(limit, calls):
    b = LocalBudget(limit)
    for est, frac in calls:
        if b.reserve(est) is None:
            b.settle(est, est * frac)
    assert b.state()["spent"] <= limit + 1e-9


def test_threads_sharing_one_budget_never_overspend():
    b = LocalBudget(5.0)
    granted: list[float] = []
    lock = threading.Lock()

    def worker() -> None:
        while b.reserve(0.3) is None:
            with lock:
                granted.append(0.3)
            b.settle(0.3, 0.3)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(granted) == 16 and b.state()["spent"] == pytest.approx(4.8)


@pytest.mark.shared_data
def test_two_extractors_on_one_budget_spend_at_most_the_limit(g1a):
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text(encoding="utf-8"))
    fields = [FieldSpec(**f) for f in seed["extract"]["fields"]]
    kws = [k.lower() for k in seed["filter"]["keywords"]]
    reviews = [
        ReviewInput(r["business_id"], r["review_id"], r["text"], {})
        for r in map(json.loads, (g1a / "reviews.jsonl").read_text(encoding="utf-8").splitlines())
        if any(k in r["text"].lower() for k in kws)
    ]
    budget = LocalBudget(10.0)
    with fake_llm.FakeLLM(g1a) as srv:
        cfg = LLMConfig(base_url=srv.base_url, model="fake", concurrency=2, use_cache=False, max_cost=10.0,
                        price=Price(1000.0, 2000.0), backoff_base=0.01, backoff_max=0.05)
        halves = [reviews[: len(reviews) // 2], reviews[len(reviews) // 2 :]]
        extractors = [LLMExtractor(cfg, budget=budget) for _ in halves]
        out: list[list] = [[], []]
        threads = [threading.Thread(target=lambda i=i: out[i].extend(extractors[i].extract(fields, halves[i]))) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        requests = srv.stats()["extraction_requests"]
    spent = sum(e.stats.cost for e in extractors)
    assert all(e.budget_error is not None for e in extractors)  # both stopped: the latch reached every worker
    assert spent == pytest.approx(budget.state()["spent"]) and 0 < spent <= 10.0
    assert requests == sum(e.stats.calls for e in extractors) == sum(r.status == "ok" for o in out for r in o)
    assert sum(r.status == "error" for o in out for r in o) == len(reviews) - requests
