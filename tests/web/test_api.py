"""The JSON API in-process: every endpoint's CLI shape, bad input (4xx JSON errors), and the limits."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from dinecheck.allergens.pipeline import check_label
from dinecheck.requests import load_requests
from dinecheck.risk import LEVELS
from dinecheck.sample import sample_dir
from dinecheck.search import search as core_search

SAMPLE = sample_dir()
SEARCH_KEYS = {"business_id", "name", "rank", "request_value", "conditions", "allergy"}
EVIDENCE_KEYS = {"level", "summary", "reviews_read", "relevant_reviews", "incidents", "exposure_mentions", "review_ids"}


def _sample_requests() -> list[dict]:
    return [json.loads(line) for line in (SAMPLE / "requests.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _error(resp, status: int) -> dict:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"} and set(body["error"]) == {"where", "why"}
    assert "Traceback" not in resp.text
    return body["error"]


# ------------------------------------------------------------------------------------------------ search


def test_search_without_a_request_ranks_every_restaurant(client, sample_state):
    resp = client.post("/api/search", json={"allergens": ["PEANUT", "MILK"], "limit": 500})
    assert resp.status_code == 200
    rows = resp.json()["results"]
    assert [r["rank"] for r in rows] == list(range(1, len(sample_state.dataset.restaurants) + 1))
    assert {r["business_id"] for r in rows} == {r.business_id for r in sample_state.dataset.restaurants}
    for r in rows:
        assert set(r) == SEARCH_KEYS
        assert r["request_value"] == 1
        assert set(r["allergy"]) == {"PEANUT", "MILK"}
        for ev in r["allergy"].values():
            assert set(ev) == EVIDENCE_KEYS and ev["level"] in LEVELS


def test_search_is_the_core_search_over_the_served_evidence(client, sample_state):
    got = client.post("/api/search", json={"allergens": "peanuts, dairy", "limit": 5}).json()["results"]
    want = [r.to_json() for r in core_search(sample_state.dataset, allergens=("PEANUT", "MILK"),
                                             evidence=sample_state.evidence, limit=5)]
    assert got == want


def test_search_with_a_request_returns_its_gold_with_condition_values(client):
    s01 = _sample_requests()[0]
    rows = client.post("/api/search", json={"request": s01, "allergens": "PEANUT"}).json()["results"]
    assert [r["business_id"] for r in rows] == [s01["gold_restaurant"]]
    assert [c["aspect"] for c in rows[0]["conditions"]] == [a["aspect"] for a in s01["structure"]["args"]]
    assert all(c["value"] == 1 and c["reason"] for c in rows[0]["conditions"])


def test_search_where_json_text_is_a_structure(client):
    s01 = _sample_requests()[0]
    rows = client.post("/api/search", json={"where": json.dumps(s01["structure"])}).json()["results"]
    assert [r["business_id"] for r in rows] == [s01["gold_restaurant"]]


def test_search_limit_cuts_the_list(client):
    rows = client.post("/api/search", json={"limit": 3}).json()["results"]
    assert [r["rank"] for r in rows] == [1, 2, 3]


def test_search_bad_inputs(client):
    err = _error(client.post("/api/search", json={"allergens": ["PEANUTZ"]}), 400)
    assert err["where"] == "allergens" and "PEANUTZ" in err["why"]
    err = _error(client.post("/api/search", json={"request": {"structure": {"op": "AND", "args": []}}}), 400)
    assert "/structure/args" in err["where"]
    assert _error(client.post("/api/search", json={"request": {}, "where": "{}"}), 400)["where"] == "request"
    assert _error(client.post("/api/search", json={"where": "AND(wifi"}), 400)["where"] == "where"
    assert _error(client.post("/api/search", json={"limit": 0}), 422)["where"] == "body/limit"
    assert _error(client.post("/api/search", json={"limit": 501}), 422)["where"] == "body/limit"
    assert _error(client.post("/api/search", json={"surprise": 1}), 422)["where"] == "body/surprise"


def test_search_refuses_a_request_nested_too_deep(client):
    node: dict = {"aspect": "x", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "free"}}
    for _ in range(70):
        node = {"op": "NOT", "args": [node]}
    err = _error(client.post("/api/search", json={"request": {"id": "deep", "structure": node}}), 400)
    assert "nested deeper than 64" in err["why"]


# ------------------------------------------------------------------------------------------------ requests


def test_match_returns_the_cli_lines(client):
    s01 = _sample_requests()[0]
    rows = client.post("/api/requests/match", json={"request": s01}).json()["results"]
    assert len(rows) == 1
    assert set(rows[0]) == {"request_id", "rank", "business_id", "name", "value", "leaves_true", "n_leaves"}
    assert rows[0]["business_id"] == s01["gold_restaurant"] and rows[0]["value"] == 1
    assert rows[0]["leaves_true"] == rows[0]["n_leaves"] == len(s01["structure"]["args"])


def test_match_all_with_explanations_ranks_every_restaurant(client, sample_state):
    s01 = _sample_requests()[0]
    rows = client.post("/api/requests/match", json={"request": s01, "all": True, "explain": True}).json()["results"]
    assert len(rows) == len(sample_state.dataset.restaurants)
    assert rows[0]["business_id"] == s01["gold_restaurant"]
    assert rows[0]["explanation"]["op"] == "AND" and rows[0]["explanation"]["value"] == 1
    assert all(r["value"] < 1 for r in rows[1:])


def test_match_bad_request_names_the_pointer(client):
    bad = {"id": "B1", "structure": {"op": "AND", "args": [{"aspect": "x", "evidence": {"kind": "nope"}}]}}
    err = _error(client.post("/api/requests/match", json={"request": bad}), 400)
    assert err["where"].startswith("body request B1 /structure/args/0/evidence")


def test_validate_inline_and_by_name_agree_with_the_core(client, sample_state):
    expected = [{"request_id": r.id, "group": r.group, "status": "ok", "matches": [r.gold_restaurant],
                 "gold_restaurant": r.gold_restaurant} for r in load_requests(SAMPLE / "requests.jsonl")]
    inline = client.post("/api/requests/validate", json={"requests": _sample_requests()}).json()
    named = client.post("/api/requests/validate", json={"requests_file": "requests.jsonl"}).json()
    assert inline["results"] == expected
    assert named["results"] == expected


def test_validate_groundtruth_overrides_gold(client):
    reqs = _sample_requests()[:1]
    body = client.post("/api/requests/validate",
                       json={"requests": reqs, "groundtruth": {reqs[0]["id"]: "smp-night-owl"}}).json()
    assert body["results"][0]["status"] == "gold_not_match"


def test_validate_refuses_paths_and_bad_lists(client):
    err = _error(client.post("/api/requests/validate", json={"requests_file": "../../etc/passwd"}), 404)
    assert err["where"] == "requests_file" and "requests.jsonl" in err["why"]
    assert _error(client.post("/api/requests/validate", json={}), 400)["where"] == "requests"
    dup = _sample_requests()[:1] * 2
    assert "duplicate request id" in _error(client.post("/api/requests/validate", json={"requests": dup}), 400)["why"]
    assert _error(client.post("/api/requests/validate", json={"requests": []}), 400)["why"] == "no requests given"
    too_many = [{"id": f"R{i}"} for i in range(501)]
    assert _error(client.post("/api/requests/validate", json={"requests": too_many}), 422)["where"] == "body/requests"


# ------------------------------------------------------------------------------------------------ allergens


LABEL = "Water, sugar, groundnut oil, skimmed milk powder, may contain traces of sesame"


def test_check_one_label_is_the_cli_object(client, sample_state):
    resp = client.post("/api/allergens/check", json={"ingredients_text": LABEL, "allergens": ["PEANUT", "MILK"]})
    assert resp.status_code == 200
    assert resp.json() == check_label(LABEL, ("PEANUT", "MILK"), sample_state.ontology()).to_json(None)
    assert resp.json()["verdict"] == "AVOID"


def test_check_batch_keeps_order_and_ids(client, sample_state):
    labels = [{"id": "a", "ingredients_text": "rice, water"}, {"id": 7, "ingredients_text": LABEL}]
    body = client.post("/api/allergens/check", json={"labels": labels, "allergens": "ALL"}).json()
    onto = sample_state.ontology()
    from dinecheck.allergens.pipeline import PROFILE_ALL
    assert body == {"results": [check_label("rice, water", PROFILE_ALL, onto).to_json("a"),
                                check_label(LABEL, PROFILE_ALL, onto).to_json("7")]}


def test_check_bad_inputs(client):
    assert _error(client.post("/api/allergens/check", json={"ingredients_text": "x", "allergens": []}), 400)[
        "where"] == "allergens"
    err = _error(client.post("/api/allergens/check", json={"ingredients_text": "x", "allergens": ["NUTZ"]}), 400)
    assert "NUTZ" in err["why"]
    nuts = client.post("/api/allergens/check", json={"ingredients_text": "x", "allergens": ["NUTS"]})  # an alias
    assert nuts.status_code == 200
    both = {"ingredients_text": "x", "labels": [{"ingredients_text": "y"}], "allergens": ["MILK"]}
    assert _error(client.post("/api/allergens/check", json=both), 400)["where"] == "body"
    assert _error(client.post("/api/allergens/check", json={"allergens": ["MILK"]}), 400)["where"] == "body"
    long = {"ingredients_text": "a" * 100_001, "allergens": ["MILK"]}
    assert _error(client.post("/api/allergens/check", json=long), 422)["where"] == "body/ingredients_text"
    many = {"labels": [{"ingredients_text": "x"}] * 501, "allergens": ["MILK"]}
    assert _error(client.post("/api/allergens/check", json=many), 422)["where"] == "body/labels"


def test_label_texts_are_not_written_unless_opted_in(client, client_with, sample_state):
    before = sample_state.store.audit_count()
    client.post("/api/allergens/check", json={"ingredients_text": "secret recipe, milk", "allergens": ["MILK"]})
    assert sample_state.store.audit_count() == before
    client_with(log_labels=True).post("/api/allergens/check",
                                      json={"ingredients_text": "secret recipe, milk", "allergens": ["MILK"]})
    assert sample_state.store.audit_count() == before + 1


# ------------------------------------------------------------------------------------------------ restaurants


def test_restaurant_json_and_its_reviews(client, sample_state):
    r = sample_state.dataset.restaurants[0]
    body = client.get(f"/api/restaurants/{r.business_id}").json()
    assert body["business_id"] == r.business_id and body["name"] == r.name
    assert [v["review_id"] for v in body["reviews"]] == [v.review_id for v in sample_state.dataset.reviews_of(r.business_id)]


def test_unknown_restaurant_is_404(client):
    err = _error(client.get("/api/restaurants/nope"), 404)
    assert err == {"where": "business_id", "why": "no restaurant with business_id 'nope'"}
    assert _error(client.get("/api/restaurants/nope/allergy"), 404)["where"] == "business_id"


def test_restaurant_allergy_shape_and_bad_profile(client, sample_state):
    bid = sample_state.dataset.restaurants[0].business_id
    body = client.get(f"/api/restaurants/{bid}/allergy", params={"allergens": "PEANUT,MILK"}).json()
    assert body["business_id"] == bid and list(body["allergy"]) == ["PEANUT", "MILK"]
    for code, ev in body["allergy"].items():
        assert ev["allergen"] == code and set(ev) >= EVIDENCE_KEYS and "quotes" in ev and "score" in ev
    every = client.get(f"/api/restaurants/{bid}/allergy").json()["allergy"]
    assert len(every) == 15
    assert _error(client.get(f"/api/restaurants/{bid}/allergy", params={"allergens": "PEANUT,XX"}), 400)[
        "where"] == "allergens"


# ------------------------------------------------------------------------------------------------ seeds


def test_seed_run_offline_by_name_and_inline_agree(client, sample_state):
    by_name = client.post("/api/seeds/run", json={"seed_name": "allergy_risk_seed.json"}).json()
    seed = json.loads((SAMPLE / "allergy_risk_seed.json").read_text(encoding="utf-8"))
    inline = client.post("/api/seeds/run", json={"seed": seed, "extractor": "offline"}).json()
    assert by_name == inline
    assert [r["business_id"] for r in by_name["results"]] == [r.business_id for r in sample_state.dataset.restaurants]
    assert all(set(r) >= {"business_id", "name", "n_filtered", "status", "outputs"} for r in by_name["results"])


def test_seed_run_replay_without_a_label_is_incomplete_never_defaulted(client, sample_state):
    bid = "smp-basil-lime-thai"
    body = client.post("/api/seeds/run", json={"seed_name": "allergy_risk_seed.json", "extractor": "replay",
                                                "extractions": [], "restaurants": [bid], "trace": True}).json()
    (row,) = body["results"]
    assert row["business_id"] == bid and row["n_filtered"] > 0
    assert row["status"] == "incomplete" and len(row["failed_reviews"]) == row["n_filtered"]
    assert "trace" in row


def test_seed_run_refusals(client):
    err = _error(client.post("/api/seeds/run", json={"seed_name": "allergy_risk_seed.json", "extractor": "llm"}), 400)
    assert err["where"] == "extractor" and "--max-cost" in err["why"]
    assert _error(client.post("/api/seeds/run", json={"seed_name": "/etc/passwd"}), 404)["where"] == "seed_name"
    assert _error(client.post("/api/seeds/run", json={"seed": {"task_name": "x"}}), 400)["why"]
    assert _error(client.post("/api/seeds/run", json={"seed_name": "allergy_risk_seed.json",
                                                       "restaurants": ["nope"]}), 404)["where"] == "restaurants"
    err = _error(client.post("/api/seeds/run", json={"seed_name": "allergy_risk_seed.json", "extractor": "replay"}),
                 400)
    assert err["where"] == "extractions"


# ------------------------------------------------------------------------------------------------ HTTP safety


def test_unknown_route_and_bad_json_are_json_errors(client):
    assert _error(client.get("/api/nothing"), 404)["why"] == "no such page or endpoint: /api/nothing"
    resp = client.post("/api/search", content=b"{not json", headers={"content-type": "application/json"})
    assert _error(resp, 422)["where"].startswith("body")


def test_body_cap_is_413(client_with):
    small = client_with(max_body_bytes=2_000)
    resp = small.post("/api/allergens/check", json={"ingredients_text": "a" * 3_000, "allergens": ["MILK"]})
    err = _error(resp, 413)
    assert err == {"where": "body", "why": "the request body is larger than the limit of 2000 bytes"}
    assert "default-src 'self'" in resp.headers["content-security-policy"]
    ok = small.post("/api/allergens/check", json={"ingredients_text": "milk", "allergens": ["MILK"]})
    assert ok.status_code == 200


def test_security_headers_on_pages_and_api(client):
    for resp in (client.get("/"), client.post("/api/search", json={})):
        csp = resp.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert resp.headers["x-content-type-options"] == "nosniff"


def test_openapi_lists_every_endpoint(client):
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/api/search", "/api/requests/match", "/api/requests/validate", "/api/allergens/check",
              "/api/restaurants/{business_id}", "/api/restaurants/{business_id}/allergy", "/api/seeds/run"):
        assert p in paths
    assert client.get("/docs").status_code == 200


def test_admin_endpoints_are_off_without_a_token(client):
    body = {"synonym": "pindakaas", "canonical": "peanut"}
    assert _error(client.post("/api/admin/synonyms", json=body), 403)["where"] == "admin"
    assert _error(client.post("/api/admin/reload"), 403)["where"] == "admin"


def test_admin_token_is_required_and_works(tmp_path: Path):
    from dinecheck.web.app import create_app
    from dinecheck.web.config import WebConfig
    from dinecheck.web.state import build_state
    from tests.web.conftest import Client

    cfg = WebConfig(db=str(tmp_path / "own.sqlite"), admin_token="s3cret")
    state = build_state(cfg)
    try:
        c = Client(create_app(state=state))
        body = {"synonym": "pindakaas spread", "canonical": "peanut"}
        check = {"ingredients_text": "pindakaas spread", "allergens": ["PEANUT"]}
        assert c.post("/api/allergens/check", json=check).json()["verdict"] == "VERIFY"
        assert _error(c.post("/api/admin/synonyms", json=body), 401)["where"] == "authorization"
        assert _error(c.post("/api/admin/synonyms", json=body, headers={"Authorization": "Bearer nope"}), 401)
        ok = c.post("/api/admin/synonyms", json=body, headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200 and ok.json()["canonical"] == "peanut"
        assert c.post("/api/allergens/check", json=check).json()["verdict"] == "AVOID"
        again = c.post("/api/admin/synonyms", json=body, headers={"Authorization": "Bearer s3cret"})
        assert "already a synonym" in _error(again, 400)["why"]
        assert _error(c.post("/api/admin/reload"), 401)["where"] == "authorization"
        reloaded = c.post("/api/admin/reload", headers={"Authorization": "Bearer s3cret"}).json()
        assert reloaded["restaurants"] == len(state.dataset.restaurants) and reloaded["reviews"] == 60
        state = c.app.state.dinecheck  # the fresh state (the old one is closed)
        assert c.post("/api/allergens/check", json=check).json()["verdict"] == "AVOID"
    finally:
        state.close()


def test_a_backtracking_pattern_is_refused_before_it_runs(hostile_client):
    req = {"id": "slow", "structure": {"op": "AND", "args": [
        {"aspect": "evil", "evidence": {"kind": "review_text", "pattern": "(a|aa)+$"}}]}}
    err = _error(hostile_client.post("/api/requests/match", json={"request": req}), 400)
    assert err["why"].startswith("the pattern can take exponential time on some texts")
    assert err["where"] == "body request slow /structure/args/0/evidence/pattern"


def test_repeated_search_is_answered_from_the_result_cache(client, sample_state):
    body = {"request": _sample_requests()[2], "allergens": ["EGG"], "limit": 7}
    first = client.post("/api/search", json=body).json()
    hits = sample_state.results.hits
    assert client.post("/api/search", json=body).json() == first
    assert sample_state.results.hits == hits + 1


def test_result_cache_drops_the_least_recently_used():
    from dinecheck.web.results_cache import ResultCache

    cache: ResultCache[int] = ResultCache(size=2)
    assert cache.get_or_compute("a", lambda: 1) == 1
    assert cache.get_or_compute("b", lambda: 2) == 2
    assert cache.get_or_compute("a", lambda: 99) == 1  # hit; "b" is now the oldest
    assert cache.get_or_compute("c", lambda: 3) == 3
    assert cache.get_or_compute("b", lambda: 20) == 20  # was dropped
    assert (cache.hits, cache.misses, len(cache)) == (1, 4, 2)


def test_engine_is_replaced_when_its_caches_grow(sample_state, monkeypatch):
    import dinecheck.web.state as state_mod

    monkeypatch.setattr(state_mod, "MAX_CACHED_CONDITIONS", 0)
    with sample_state.engine_locked() as engine:
        engine.matches(load_requests(SAMPLE / "requests.jsonl")[0])
        before = engine
    with sample_state.engine_locked() as engine:
        assert engine is not before and engine.cached_conditions == 0


def test_body_cap_counts_a_streamed_body_without_length(sample_state):
    import asyncio

    import httpx

    from dinecheck.web.app import create_app
    from dinecheck.web.config import WebConfig

    cfg = WebConfig(db=sample_state.config.db, max_body_bytes=2_000)
    app = create_app(cfg, replace(sample_state, config=cfg))

    async def body():
        for _ in range(5):
            yield b" " * 1_000

    async def go() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            return await c.post("/api/search", content=body(), headers={"content-type": "application/json"})

    resp = asyncio.run(go())
    assert "content-length" not in resp.request.headers
    assert _error(resp, 413)["where"] == "body"


def test_an_unexpected_fault_is_a_fixed_500_without_a_trace(client, monkeypatch, sample_state):
    from dinecheck.web import views

    def boom(*_args):
        raise RuntimeError("secret internals at /etc/somewhere")

    monkeypatch.setattr(views, "restaurant_json", boom)
    bid = sample_state.dataset.restaurants[0].business_id
    resp = client.get(f"/api/restaurants/{bid}")
    assert resp.status_code == 500
    assert resp.json() == {"error": {"where": f"/api/restaurants/{bid}",
                                     "why": "internal error (the server log has the details)"}}
    assert "secret" not in resp.text
