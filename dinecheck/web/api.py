"""The JSON API under ``/api``: the CLI's JSON shapes over HTTP (OpenAPI at ``/docs``).

Every handler is a thin shell: parse the body (pydantic), call the core, return the CLI's objects. Bad input is a 4xx
``{"error": {"where", "why"}}`` (see :mod:`dinecheck.web.safety`). Clients never send file paths: request files and
seeds on the server are chosen by name from the data directory.
"""

from __future__ import annotations

import json
import logging
import tempfile
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from dinecheck.allergens.audit import check_and_audit
from dinecheck.allergens.pipeline import parse_profile
from dinecheck.allergens.tokenize import MAX_LABEL_CHARS
from dinecheck.errors import ConfigError, DinecheckError
from dinecheck.extract.base import Extractor
from dinecheck.extract.factory import ExtractorOptions, make_extractor
from dinecheck.formula import compile_seed
from dinecheck.requests import parse_request, validate_requests
from dinecheck.requests.load import load_requests
from dinecheck.search import parse_allergens, parse_where, request_catalog_from
from dinecheck.web import finder, views
from dinecheck.web.config import MAX_LABELS_PER_REQUEST, MAX_SEARCH_LIMIT
from dinecheck.web.safety import WebError
from dinecheck.web.state import AppState

log = logging.getLogger("dinecheck.web")
router = APIRouter(prefix="/api", tags=["api"])

MAX_REQUESTS_PER_CALL = 500
MAX_SEED_RESTAURANTS = 200


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


Profile = list[str] | str


class SearchBody(_Body):
    request: dict[str, Any] | None = Field(None, description="A request object (request_structure.md).")
    where: str | None = Field(None, description="A request or structure as JSON text, or shorthand over the "
                              "condition names of the data directory's request files (as `search --where`).")
    allergens: Profile = Field(default_factory=list, description="Allergen codes, a list or 'PEANUT,MILK' or 'ALL'.")
    limit: int = Field(20, ge=1, le=MAX_SEARCH_LIMIT)
    near: bool = False


class MatchBody(_Body):
    request: dict[str, Any]
    all: bool = False
    explain: bool = False


class ValidateBody(_Body):
    requests: list[dict[str, Any]] | None = Field(None, max_length=MAX_REQUESTS_PER_CALL)
    requests_file: str | None = Field(None, description="The name of a request file in the server's data directory.")
    groundtruth: dict[str, str] | None = None


class LabelIn(_Body):
    id: str | int | None = None
    ingredients_text: str = Field(max_length=MAX_LABEL_CHARS)


class CheckBody(_Body):
    ingredients_text: str | None = Field(None, max_length=MAX_LABEL_CHARS)
    id: str | int | None = None
    labels: list[LabelIn] | None = Field(None, max_length=MAX_LABELS_PER_REQUEST)
    allergens: Profile


class ReplayRecord(_Body):
    review_id: str
    business_id: str | None = None
    extraction: dict[str, str]


class SeedRunBody(_Body):
    seed: dict[str, Any] | None = None
    seed_name: str | None = Field(None, description="A seed file (*.json) in the server's data directory.")
    extractor: Literal["offline", "replay", "llm"] = "offline"
    extractions: list[ReplayRecord] | None = Field(None, description="Recorded labels for the replay extractor.")
    restaurants: list[str] | None = Field(None, max_length=MAX_SEED_RESTAURANTS)
    trace: bool = False


class SynonymBody(_Body):
    synonym: str = Field(min_length=1, max_length=200)
    canonical: str = Field(min_length=1, max_length=200)
    lang: str | None = None
    region: str | None = None
    type: str = "USER"


def state_of(request: Request) -> AppState:
    st: AppState = request.app.state.dinecheck
    return st


def profile_of(value: Profile, where: str = "allergens", *, codes_only: bool = False) -> tuple[str, ...]:
    """Allergen codes (or, unless ``codes_only`` as for label checks, common names such as PEANUTS, DAIRY) from a
    list or a comma-separated string; an empty profile is allowed (no allergy)."""
    text = value if isinstance(value, str) else ",".join(value)
    if not text.strip():
        return ()
    try:
        return parse_profile(text) if codes_only else parse_allergens(text)
    except DinecheckError as exc:
        raise WebError(400, where, exc.reason) from None


def _request_from(st: AppState, obj: dict[str, Any] | None, where_text: str | None) -> Any:
    if obj is not None and where_text is not None:
        raise WebError(400, "request", "give either 'request' or 'where', not both")
    if where_text is not None:
        catalog, source = st.remembered("where_catalog", lambda: request_catalog_from(st.data_dir))
        try:
            return parse_where(where_text, catalog, source)
        except DinecheckError as exc:
            raise type(exc)(exc.reason, "where") from None
    if obj is None:
        return None
    if isinstance(obj, dict) and "id" not in obj:
        obj = {"id": "api", **obj}
    return parse_request(obj, "body")


@router.post("/search", summary="Ranked places for a request and an allergy profile (dinecheck search --json).")
def search(body: SearchBody, request: Request) -> JSONResponse:
    st = state_of(request)
    req = _request_from(st, body.request, body.where)
    profile = profile_of(body.allergens)
    return JSONResponse({"results": finder.search(st, req, profile, limit=body.limit, near=body.near)})


@router.post("/requests/match", summary="Restaurants matching one request (dinecheck requests match --json).")
def match(body: MatchBody, request: Request) -> JSONResponse:
    st = state_of(request)
    req = parse_request(body.request, "body")
    key = ("match", json.dumps(req.structure.model_dump(mode="json"), sort_keys=True), req.id, body.all, body.explain)

    def compute() -> list[dict[str, Any]]:
        with st.engine_locked() as engine:
            return views.match_rows(engine, req, show_all=body.all, explain=body.explain)

    return JSONResponse({"results": st.results.get_or_compute(key, compute)})


@router.post("/requests/validate", summary="Statuses of a request set (dinecheck requests validate --json).")
def validate(body: ValidateBody, request: Request) -> dict[str, Any]:
    st = state_of(request)
    if (body.requests is None) == (body.requests_file is None):
        raise WebError(400, "requests", "give exactly one of 'requests' (a list) or 'requests_file' (a name)")
    if body.requests_file is not None:
        path = st.request_files.get(body.requests_file)
        if path is None:
            raise WebError(404, "requests_file", f"no request file named {body.requests_file!r}; available: "
                           f"{', '.join(st.request_files) or 'none'}")
        reqs = load_requests(path)
    else:
        reqs = views.parse_request_list(body.requests or [])
    with st.engine_locked() as engine:
        results = validate_requests(engine, reqs, body.groundtruth)
    return {"results": [r.to_json() for r in results],
            "warnings": [{"request_id": r.request_id, "warning": w} for r in results for w in r.warnings]}


@router.post("/allergens/check", summary="Check ingredient labels (dinecheck allergens check --json).")
def allergens_check(body: CheckBody, request: Request) -> JSONResponse:
    st = state_of(request)
    profile = profile_of(body.allergens, codes_only=True)
    if not profile:
        raise WebError(400, "allergens", "choose at least one allergen (codes like PEANUT,MILK, or ALL)")
    if (body.ingredients_text is None) == (body.labels is None):
        raise WebError(400, "body", "give either 'ingredients_text' or 'labels', not both")
    ontology = st.ontology()
    if body.labels is None:
        one_id = None if body.id is None else str(body.id)
        checked = [check_and_audit(body.ingredients_text or "", profile, ontology, one_id)]
    else:
        checked = [check_and_audit(lab.ingredients_text, profile, ontology, None if lab.id is None else str(lab.id))
                   for lab in body.labels]
    if st.config.log_labels:
        st.store.write_audit([c.audit for c in checked])
        for c in checked:
            log.info("label checked: %s %r", c.result.verdict, c.audit.raw_input[:200])
    rows = [c.audit.result for c in checked]
    return JSONResponse(rows[0] if body.labels is None else {"results": rows})


@router.get("/restaurants/{business_id}", summary="One restaurant: attributes, hours, reviews.")
def restaurant(business_id: str, request: Request) -> JSONResponse:
    st = state_of(request)
    return JSONResponse(views.restaurant_json(st, business_id))


@router.get("/restaurants/{business_id}/allergy", summary="Allergy evidence of one restaurant per allergen.")
def restaurant_allergy(business_id: str, request: Request, allergens: str = "ALL") -> JSONResponse:
    st = state_of(request)
    views.restaurant_or_404(st, business_id)
    profile = profile_of(allergens) or profile_of("ALL")
    return JSONResponse({"business_id": business_id, "allergy": {
        c: ev.to_json() for c, ev in views.allergy_evidence(st, business_id, profile).items()}})


def _seed_extractor(st: AppState, body: SeedRunBody, tmp: Path) -> Extractor:
    if body.extractor == "offline":
        return make_extractor("offline")
    if body.extractor == "replay":
        if body.extractions is not None:
            path = tmp / "extractions.jsonl"
            path.write_text("".join(json.dumps(r.model_dump()) + "\n" for r in body.extractions), encoding="utf-8")
            return make_extractor(f"replay:{path}")
        recorded = st.data_dir / "recorded_extractions.jsonl"
        if not recorded.is_file():
            raise WebError(400, "extractions", "replay needs 'extractions' (this dataset has no recorded labels)")
        return make_extractor(f"replay:{recorded}")
    if st.config.extractor != "llm" or st.config.max_cost is None:
        raise ConfigError("the server was not started with a language model and --max-cost; use offline or replay",
                          "extractor")
    return make_extractor("llm", ExtractorOptions(max_cost=st.config.max_cost))


@router.post("/seeds/run", summary="Run a Formula Seed (dinecheck seed run --json).")
def seeds_run(body: SeedRunBody, request: Request) -> dict[str, Any]:
    st = state_of(request)
    if (body.seed is None) == (body.seed_name is None):
        raise WebError(400, "seed", "give exactly one of 'seed' (an object) or 'seed_name' (a file name)")
    raw = body.seed if body.seed is not None else views.read_named_seed(st, body.seed_name or "")
    compiled = compile_seed(raw)
    ds = st.dataset
    if body.restaurants:
        missing = [b for b in body.restaurants if ds.restaurant(b) is None]
        if missing:
            raise WebError(404, "restaurants", f"no restaurant with business_id {missing[0]!r}")
        chosen = [ds.restaurant(b) for b in dict.fromkeys(body.restaurants)]
    else:
        chosen = list(ds.restaurants[:MAX_SEED_RESTAURANTS])
    with tempfile.TemporaryDirectory(prefix="dinecheck-web-") as tmp:
        extractor = _seed_extractor(st, body, Path(tmp))
        results = compiled.run_many([(r, ds.reviews_of(r.business_id)) for r in chosen if r is not None], extractor,
                                    trace=body.trace)
    return {"results": [r.to_json(trace=body.trace) for r in results],
            "warnings": [f"{w.pointer or '/'}: {w.reason}" for w in compiled.warnings]}


def _require_admin(st: AppState, token: str | None) -> None:
    if st.config.admin_token is None:
        raise WebError(403, "admin", "data-changing endpoints are off; start the server with --admin-token")
    if token != f"Bearer {st.config.admin_token}":
        raise WebError(401, "authorization", "send 'Authorization: Bearer <admin token>'")


@router.post("/admin/synonyms", summary="Add a synonym to the allergen ontology (needs --admin-token).")
def add_synonym(body: SynonymBody, request: Request,
                authorization: str | None = Header(None)) -> dict[str, Any]:
    st = state_of(request)
    _require_admin(st, authorization)
    syn = st.store.add_synonym(body.synonym, body.canonical, body.lang, body.region, body.type)
    return {"synonym": syn.text, "key": syn.key, "canonical": syn.canonical_id, "lang": syn.lang,
            "region": syn.region, "type": syn.type, "ontology_version": st.store.version()}


@router.post("/admin/reload", summary="Re-read the dataset and re-seed the allergen store (needs --admin-token).")
def reload(request: Request, authorization: str | None = Header(None)) -> dict[str, Any]:
    st = state_of(request)
    _require_admin(st, authorization)
    fresh = views.reload_state(st)
    request.app.state.dinecheck = fresh
    return {"restaurants": len(fresh.dataset.restaurants), "reviews": fresh.dataset.n_reviews,
            "ontology_version": fresh.store.version()}
