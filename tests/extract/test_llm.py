"""The LLM extractor over real HTTP against the fake OpenAI-compatible server (a separate process on 127.0.0.1).

Reference labels are ``recorded_extractions.jsonl`` — the same file the replay extractor reads — so "identical to
replay" is checked label by label on the 253 reviews that pass the G1a-v2 keyword filter.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dinecheck.errors import BudgetExceeded, ExtractionError
from dinecheck.extract.base import FieldSpec, ReviewInput
from dinecheck.extract.cache import ExtractionCache
from dinecheck.extract.chat import LLMConfig, Price
from dinecheck.extract.llm import LLMExtractor

_spec = importlib.util.spec_from_file_location("fake_llm", Path(__file__).resolve().parents[1] / "support" / "fake_llm.py")
fake_llm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_llm)
FakeLLM = fake_llm.FakeLLM

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def fields(g1a: Path) -> list[FieldSpec]:
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text(encoding="utf-8"))
    return [FieldSpec(**f) for f in seed["extract"]["fields"]]


@pytest.fixture(scope="module")
def reviews(g1a: Path) -> list[ReviewInput]:
    seed = json.loads((g1a / "g1a_v2_seed.json").read_text(encoding="utf-8"))
    kws = [k.lower() for k in seed["filter"]["keywords"]]
    out = []
    for line in (g1a / "reviews.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if any(k in r["text"].lower() for k in kws):
            out.append(ReviewInput(r["business_id"], r["review_id"], r["text"], {"stars": r["stars"], "date": r["date"]}))
    assert len(out) == 253
    return out


@pytest.fixture(scope="module")
def server(g1a: Path):
    with FakeLLM(g1a) as srv:
        yield srv


@pytest.fixture
def fake(server: FakeLLM) -> FakeLLM:
    server.control(reset=True, latency=0.0, reject_json_schema=False)
    return server


def config(fake: FakeLLM, tmp_path: Path | None = None, **kw) -> LLMConfig:
    base = dict(
        base_url=fake.base_url,
        model="fake-model",
        timeout=5.0,
        max_retries=5,
        concurrency=8,
        batch_size=1,
        use_cache=tmp_path is not None,
        cache_path=(tmp_path / "cache.sqlite") if tmp_path is not None else None,
        backoff_base=0.01,
        backoff_max=0.05,
    )
    base.update(kw)
    return LLMConfig(**base)


def run(cfg: LLMConfig, fields, reviews):
    ex = LLMExtractor(cfg)
    try:
        return ex, ex.extract(fields, reviews)
    finally:
        ex.close()


def labels(results) -> dict[str, dict[str, str]]:
    return {r.review_id: r.values for r in results}


def positives(recorded, reviews) -> list[str]:
    return [r.review_id for r in reviews if any(v != "none" for v in recorded[r.review_id].values())]


# -- identical to the recorded (replay) labels ------------------------------------------------------------------
def test_clean_run_matches_recorded_labels_with_temperature_zero_and_json_schema(fake, fields, reviews, recorded):
    ex, res = run(config(fake), fields, reviews)
    assert [r.review_id for r in res] == [r.review_id for r in reviews]  # input order
    assert all(r.status == "ok" for r in res)
    assert labels(res) == {r.review_id: recorded[r.review_id] for r in reviews}
    s = fake.stats()
    assert s["requests"] == 253 and ex.stats.calls == 253 and ex.stats.retries == 0
    assert set(s["temperatures"]) == {0}
    assert s["response_formats"] == {"json_schema": 253}
    assert ex.stats.reviews == 253 and ex.stats.tokens_in > 0 and ex.stats.tokens_out > 0
    # every non-none value has a verbatim, verified quote
    pos = positives(recorded, reviews)
    assert len(pos) == 2  # the filtered g1a reviews hold two non-none records
    for r in res:
        assert set(r.evidence) == {k for k, v in r.values.items() if v != "none"}
        assert all(e.verified and e.quote for e in r.evidence.values())


def test_clean_run_equals_the_replay_extractor(fake, fields, reviews, g1a):
    from dinecheck.extract.replay import ReplayExtractor

    replay = ReplayExtractor(g1a / "recorded_extractions.jsonl")
    expected = replay.extract(fields, reviews)
    _, res = run(config(fake, batch_size=7), fields, reviews)
    assert [(r.business_id, r.review_id, r.status, r.values) for r in res] == [
        (r.business_id, r.review_id, r.status, r.values) for r in expected
    ]


def test_identical_labels_despite_injected_faults(fake, fields, reviews, recorded, tmp_path):
    pos = positives(recorded, reviews)
    fake.control(
        faults=[
            {"kind": "429", "every": 9, "retry_after": 0},
            {"kind": "500", "every": 11},
            {"kind": "503", "every": 23},
            {"kind": "drop", "every": 13},
            {"kind": "envelope", "every": 29},
            {"kind": "slow", "times": 2, "delay": 2.0},
            {"kind": "malformed", "times": 3},
            {"kind": "out_of_enum", "times": 3},
            {"kind": "missing_field", "times": 2},
            {"kind": "partial", "times": 3},
            {"kind": "fabricated_quote", "review_id": pos[0], "times": 1},
        ]
    )
    ex, res = run(config(fake, tmp_path, batch_size=4, timeout=0.5, max_retries=8), fields, reviews)
    assert [r.status for r in res] == ["ok"] * 253
    assert labels(res) == {r.review_id: recorded[r.review_id] for r in reviews}
    applied = fake.stats()["faults_applied"]
    assert set(applied) == {"429", "500", "503", "drop", "envelope", "slow", "malformed", "out_of_enum",
                            "missing_field", "partial", "fabricated_quote"}
    assert ex.stats.retries >= applied["429"] + applied["500"] + applied["503"] + applied["drop"] + applied["slow"]
    # the fabricated quote made that review invalid; its repair (not faulted) answered with a verified quote
    fabricated = next(r for r in res if r.review_id == pos[0])
    assert fabricated.evidence and all(e.verified for e in fabricated.evidence.values())
    assert all(e.verified for r in res for e in r.evidence.values())
    assert fake.stats()["repair_requests"] >= 1


# -- cache --------------------------------------------------------------------------------------------------------
def test_rerun_makes_zero_calls_and_returns_the_same_results(fake, fields, reviews, tmp_path):
    _, first = run(config(fake, tmp_path, batch_size=10), fields, reviews)
    before = fake.stats()["requests"]
    ex, second = run(config(fake, tmp_path, batch_size=1, concurrency=2), fields, reviews)
    assert fake.stats()["requests"] == before
    assert ex.stats.calls == 0 and ex.stats.cache_hits == 253 and ex.stats.tokens_in == 0
    assert second == first


def test_cache_is_keyed_by_model(fake, fields, reviews, tmp_path):
    run(config(fake, tmp_path), fields, reviews[:5])
    ex, _ = run(config(fake, tmp_path, model="another-model"), fields, reviews[:5])
    assert ex.stats.calls == 5 and ex.stats.cache_hits == 0


def test_no_cache_never_writes(fake, fields, reviews, tmp_path):
    ex, _ = run(config(fake, None), fields, reviews[:3])
    assert ex.cache is None
    assert not (tmp_path / "cache.sqlite").exists()


# -- invalid answers ----------------------------------------------------------------------------------------------
def test_persistent_out_of_enum_is_invalid_after_one_repair_and_not_cached(fake, fields, reviews, recorded, tmp_path):
    target = reviews[7].review_id
    fake.control(faults=[{"kind": "out_of_enum", "review_id": target, "times": 2, "repairs": True}])
    ex, res = run(config(fake, tmp_path), fields, reviews[:10])
    bad = res[7]
    assert bad.status == "invalid" and bad.values == {} and bad.evidence == {}
    assert bad.error == (
        "after one repair: field 'incident_severity' has \"not_a_declared_value\", which is not one of "
        "'none', 'mild', 'moderate', 'severe'"
    )
    assert all(r.status == "ok" for i, r in enumerate(res) if i != 7)
    assert fake.stats()["asks"][target] == 2  # the first ask and exactly one repair
    cache = ExtractionCache(tmp_path / "cache.sqlite")
    assert len(cache) == 9
    cache.close()
    ex2, res2 = run(config(fake, tmp_path), fields, reviews[:10])
    assert ex2.stats.calls == 1 and ex2.stats.cache_hits == 9  # the invalid one is asked again
    assert res2[7].status == "ok" and res2[7].values == recorded[target]


def test_malformed_twice_is_invalid(fake, fields, reviews):
    fake.control(faults=[{"kind": "malformed", "times": 2, "repairs": True}])
    _, res = run(config(fake), fields, reviews[:1])
    assert res[0].status == "invalid"
    assert res[0].error.startswith("after one repair: the answer is not valid JSON")


def test_partial_batch_reasks_only_the_missing_reviews(fake, fields, reviews, recorded):
    fake.control(faults=[{"kind": "partial", "times": 1}])
    _, res = run(config(fake, batch_size=4, concurrency=1), fields, reviews[:4])
    assert labels(res) == {r.review_id: recorded[r.review_id] for r in reviews[:4]}
    s = fake.stats()
    assert s["batch_sizes"] == [4, 2]
    assert [s["asks"][r.review_id] for r in reviews[:4]] == [1, 1, 2, 2]


def test_a_review_the_model_never_answers_is_invalid(fake, fields, reviews):
    unknown = ReviewInput("b", "no-such-review-id", "We loved the peanut noodles.", {})
    _, res = run(config(fake, batch_size=2), fields, [reviews[0], unknown])
    assert res[0].status == "ok"
    assert res[1].status == "invalid" and res[1].values == {}
    assert res[1].error == "the model's answers never included this review (3 asks)"
    assert fake.stats()["asks"]["no-such-review-id"] == 3


# -- swapped ids in batch answers (issue 10, item 1) --------------------------------------------------------------
def test_swapped_ids_in_every_batch_answer_never_become_ok_and_are_not_cached(fake, fields, reviews, recorded, tmp_path):
    pos = positives(recorded, reviews)
    # every answer (repairs included) sends each entry under the next requested review's id
    fake.control(faults=[{"kind": "swap_ids", "every": 1, "repairs": True}])
    ex, res = run(config(fake, tmp_path, batch_size=50, concurrency=2), fields, reviews)
    by_id = {r.review_id: r for r in res}
    for rid in pos:  # the reviews with a real incident are never answered with another review's labels
        assert by_id[rid].status == "invalid" and by_id[rid].values == {}
        assert "mixed up review ids" in by_id[rid].error
    for r in res:  # every review is either invalid or carries exactly its own recorded labels
        assert r.status in ("ok", "invalid")
        if r.status == "ok":
            assert r.values == recorded[r.review_id]
    invalid = [r.review_id for r in res if r.status == "invalid"]
    assert len(invalid) >= len(pos) and all(by_id[rid].values == {} for rid in invalid)
    # nothing that did not verify was cached: a clean re-run asks exactly for those reviews again
    fake.control(reset=True)
    ex2, res2 = run(config(fake, tmp_path, batch_size=50, concurrency=2), fields, reviews)
    assert ex2.stats.cache_hits == len(reviews) - len(invalid)
    assert sorted(fake.stats()["asks"]) == sorted(invalid)
    assert labels(res2) == {r.review_id: recorded[r.review_id] for r in reviews}


def test_swapped_ids_once_are_repaired_to_the_right_labels(fake, fields, reviews, recorded):
    pos = positives(recorded, reviews)
    fake.control(faults=[{"kind": "swap_ids", "review_id": pos[0], "times": 1}])
    _, res = run(config(fake, batch_size=50), fields, reviews)
    assert [r.status for r in res] == ["ok"] * len(reviews)
    assert labels(res) == {r.review_id: recorded[r.review_id] for r in reviews}
    assert fake.stats()["faults_applied"] == {"swap_ids": 1} and fake.stats()["repair_requests"] == 1


# -- budget: every attempt is charged (issue 10, item 2) ---------------------------------------------------------
PRICE = Price(input=1000.0, output=2000.0)  # USD per million tokens


def per_attempt_floor(fields) -> float:
    """The least an attempt without readable usage is charged: its requested max_tokens at the output price."""
    from dinecheck.extract.llm import max_answer_tokens

    return max_answer_tokens(len(fields), 1) * PRICE.output / 1e6


@pytest.mark.parametrize("kind", ["negative_usage", "no_usage"])
@pytest.mark.parametrize("concurrency", [1, 8])
def test_missing_or_negative_usage_is_charged_the_worst_case(fake, fields, reviews, kind, concurrency):
    fake.control(faults=[{"kind": kind, "every": 1}])
    ex, res = run(config(fake, concurrency=concurrency, max_cost=5.0, price=PRICE), fields, reviews[:20])
    s = ex.stats
    floor = per_attempt_floor(fields)
    assert 1 <= s.calls <= int(5.0 // floor) < 20  # the budget stopped the run
    assert s.calls * floor <= s.cost <= 5.0
    assert s.tokens_out == s.calls * round(floor * 1e6 / PRICE.output)
    assert isinstance(ex.budget_error, BudgetExceeded)
    assert sum(r.status == "ok" for r in res) == s.calls
    assert fake.stats()["requests"] == s.calls


@pytest.mark.parametrize("concurrency", [1, 8])
def test_lost_completions_are_charged_and_retries_stop_at_the_budget(fake, fields, reviews, concurrency):
    fake.control(faults=[{"kind": "truncated", "every": 1}])  # every body is cut off after the server answered
    ex, res = run(config(fake, concurrency=concurrency, max_cost=5.0, price=PRICE, max_retries=5), fields, reviews[:20])
    s = ex.stats
    floor = per_attempt_floor(fields)
    assert 1 <= s.calls <= int(5.0 // floor)
    assert s.calls * floor <= s.cost <= 5.0
    assert fake.stats()["requests"] == s.calls
    assert all(r.status == "error" for r in res)
    assert isinstance(ex.budget_error, BudgetExceeded)


def test_slow_answers_after_the_timeout_are_charged(fake, fields, reviews):
    fake.control(faults=[{"kind": "slow", "delay": 1.0, "times": 2}])
    ex, res = run(config(fake, concurrency=1, timeout=0.3, price=PRICE), fields, reviews[:1])
    assert res[0].status == "ok" and ex.stats.calls == 3
    assert ex.stats.cost >= 2 * per_attempt_floor(fields)


# -- structured output fallback, retries, timeouts ---------------------------------------------------------------
def test_falls_back_to_json_mode_when_json_schema_is_rejected(fake, fields, reviews, recorded):
    fake.control(reject_json_schema=True)
    ex, res = run(config(fake, concurrency=1), fields, reviews[:5])
    assert labels(res) == {r.review_id: recorded[r.review_id] for r in reviews[:5]}
    assert fake.stats()["response_formats"] == {"json_schema": 1, "json_object": 5}
    assert ex.client.structured is False and ex.stats.retries == 0


def test_a_400_refused_in_json_mode_too_fails_the_call_and_keeps_structured_output(fake, fields, reviews):
    fake.control(faults=[{"kind": "400", "times": 2}])
    ex, res = run(config(fake, concurrency=1), fields, reviews[:2])
    assert res[0].status == "error" and res[0].error.startswith("the endpoint answered HTTP 400 (")
    assert res[1].status == "ok"
    assert ex.client.structured is True
    assert fake.stats()["response_formats"] == {"json_schema": 2, "json_object": 1}


def test_retry_after_is_honoured(fake, fields, reviews):
    rid = reviews[0].review_id
    fake.control(faults=[{"kind": "429", "review_id": rid, "times": 1, "retry_after": 1}])
    ex, res = run(config(fake), fields, reviews[:1])
    assert res[0].status == "ok" and ex.stats.retries == 1 and ex.stats.calls == 2
    t0, t1 = fake.stats()["ask_times"][rid]
    assert t1 - t0 >= 0.95  # the client waited as told, not its 10 ms backoff


def test_timeout_is_retried(fake, fields, reviews, recorded):
    fake.control(faults=[{"kind": "slow", "times": 1, "delay": 2.0}])
    ex, res = run(config(fake, timeout=0.3), fields, reviews[:1])
    assert res[0].values == recorded[reviews[0].review_id]
    assert ex.stats.retries == 1


def test_exhausted_retries_give_status_error_for_that_call_only(fake, fields, reviews):
    rid = reviews[1].review_id
    fake.control(faults=[{"kind": "500", "review_id": rid, "every": 1}])
    ex, res = run(config(fake, max_retries=2), fields, reviews[:3])
    assert [r.status for r in res] == ["ok", "error", "ok"]
    assert res[1].values == {}
    assert res[1].error.startswith("gave up after 3 attempts; last: HTTP 500")
    assert ex.stats.calls == 5 and ex.stats.retries == 2


def test_connection_refused_is_an_error_status(fields, reviews, tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = LLMConfig(base_url=f"http://127.0.0.1:{port}/v1", model="m", use_cache=False, max_retries=1,
                    backoff_base=0.01, backoff_max=0.02)
    ex, res = run(cfg, fields, reviews[:2])
    assert [r.status for r in res] == ["error", "error"]
    assert res[0].error.startswith("gave up after 2 attempts; last: connection failed (ConnectError")


def test_wrong_base_url_is_a_clear_fatal_error(fake, fields, reviews):
    cfg = config(fake, base_url=fake.root + "/nope")
    with pytest.raises(ExtractionError) as ei:
        run(cfg, fields, reviews[:3])
    assert ei.value.location == fake.root + "/nope/chat/completions"
    assert "check the base URL (it usually ends in /v1)" in ei.value.reason


def test_api_key_is_sent_and_a_wrong_key_is_fatal(g1a, fields, reviews):
    with FakeLLM(g1a, api_key="sekrit") as srv:
        ok = LLMConfig(base_url=srv.base_url, model="m", api_key="sekrit", use_cache=False)
        _, res = run(ok, fields, reviews[:1])
        assert res[0].status == "ok"
        bad = LLMConfig(base_url=srv.base_url, model="m", api_key="wrong", use_cache=False)
        with pytest.raises(ExtractionError, match=r"refused the request \(HTTP 401.*check the API key"):
            run(bad, fields, reviews[:1])


# -- budget -------------------------------------------------------------------------------------------------------
def test_max_cost_stops_cleanly_and_never_overspends(fake, fields, reviews, tmp_path):
    price = Price(input=1000.0, output=2000.0)  # USD per million tokens: about one dollar per call
    ex, res = run(config(fake, tmp_path, concurrency=1, max_cost=5.0, price=price), fields, reviews[:20])
    statuses = [r.status for r in res]
    n_ok = statuses.count("ok")
    assert 1 <= n_ok < 20
    assert statuses == ["ok"] * n_ok + ["error"] * (20 - n_ok)  # sequential: the budget ends the run at one point
    assert all(r.error.startswith("budget: the next call could cost up to $") for r in res[n_ok:])
    assert all(r.values == {} for r in res[n_ok:])
    assert isinstance(ex.budget_error, BudgetExceeded)
    assert ex.stats.calls == n_ok and 0 < ex.stats.cost <= 5.0
    # a later call with the budget spent answers from the cache only
    ex2, res2 = run(config(fake, tmp_path, concurrency=1, max_cost=0.5, price=price), fields, reviews[:20])
    assert [r.status for r in res2] == statuses and ex2.stats.calls == 0 and ex2.stats.cache_hits == n_ok


def test_cost_is_computed_from_the_price_table(fake, fields, reviews):
    ex, _ = run(config(fake, price=Price(input=2.0, output=10.0)), fields, reviews[:3])
    s = ex.stats
    assert s.cost == pytest.approx((s.tokens_in * 2.0 + s.tokens_out * 10.0) / 1e6)


def test_progress_bar_runs(fake, fields, reviews, capsys):
    ex, res = run(config(fake, progress=True), fields, reviews[:4])
    assert len(res) == 4
    err = capsys.readouterr().err
    assert "4/4" in err and "calls 4" in err


# -- property: any batching / concurrency / subset gives the recorded labels with the expected number of calls ----
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    batch_size=st.integers(1, 12),
    concurrency=st.integers(1, 8),
    start=st.integers(0, 240),
    length=st.integers(0, 40),
)
def test_batching_and_concurrency_never_change_labels(server, fields, reviews, recorded, batch_size, concurrency, start, length):
    subset = reviews[start : start + length]
    server.control(reset=True, latency=0.0, reject_json_schema=False)
    ex, res = run(LLMConfig(base_url=server.base_url, model="m", batch_size=batch_size, concurrency=concurrency,
                            use_cache=False), fields, subset)
    assert [r.review_id for r in res] == [r.review_id for r in subset]
    assert labels(res) == {r.review_id: recorded[r.review_id] for r in subset}
    assert ex.stats.calls == -(-len(subset) // batch_size)
    assert max(server.stats()["batch_sizes"], default=0) <= batch_size
