"""The HTML pages: *find a place* (``/``), a restaurant (``/restaurants/{id}``), *check a label* (``/labels``) and
*benchmark* (``/benchmark``). Plain forms that work without JavaScript; every text goes through Jinja2 autoescaping.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData, UploadFile

from dinecheck.allergens.audit import check_and_audit
from dinecheck.allergens.tokenize import MAX_LABEL_CHARS
from dinecheck.cli.allergens import parse_label_lines
from dinecheck.errors import DinecheckError
from dinecheck.requests import validate_requests
from dinecheck.requests.load import load_requests
from dinecheck.web import finder, highlight, views
from dinecheck.web.api import MAX_REQUESTS_PER_CALL, profile_of, state_of
from dinecheck.web.config import MAX_LABELS_PER_REQUEST
from dinecheck.web.safety import WebError
from dinecheck.web.state import AppState
from dinecheck.web.suggest import Suggester
from dinecheck.web.wishes import DAYS, FindForm, request_of

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(env=jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True))
MAX_UPLOAD_BYTES = 900_000
PAGE_RESULTS = 20


def _render(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    st = state_of(request)
    base = {"dataset_name": "bundled sample" if st.is_sample else st.data_dir.name,
            "n_restaurants": len(st.dataset.restaurants), "allergen_names": _allergen_names(st)}
    return templates.TemplateResponse(request, name, {**base, **ctx}, status_code=status)


def _allergen_names(st: AppState) -> dict[str, str]:
    return {code: a.name for code, a in st.ontology().allergens.items()}


def _error_page(request: Request, where: str, why: str, status: int = 400) -> HTMLResponse:
    return _render(request, "error.html", status=status, where=where, why=why)


# --------------------------------------------------------------------------------------------- find a place


@router.get("/", response_class=HTMLResponse)
def find_page(request: Request) -> HTMLResponse:
    st = state_of(request)
    q = request.query_params
    form = FindForm(wishes=tuple(q.getlist("wish")), day=q.get("day") or None, time=q.get("time") or None,
                    words=q.get("words", ""), friends=tuple(x for x in q.get("friends", "").split(",") if x.strip()),
                    allergens=tuple(q.getlist("allergen")))
    searched = "go" in q
    results: list[dict[str, Any]] = []
    try:
        profile = profile_of(list(form.allergens), "allergen")
        if searched:
            req = request_of(form, views.wish_aspects(st))
            results = finder.cards(st, req, profile, limit=PAGE_RESULTS)
    except (WebError, DinecheckError) as exc:
        where, why = (exc.where, exc.why) if isinstance(exc, WebError) else (exc.location or "form", exc.reason)
        return _render(request, "find.html", status=400, form=form, wishes=_wish_options(st), days=DAYS,
                       results=[], searched=False, error=f"{where}: {why}")
    return _render(request, "find.html", form=form, wishes=_wish_options(st), days=DAYS, results=results,
                   searched=searched, error=None)


def _wish_options(st: AppState) -> list[dict[str, Any]]:
    return views.wish_options(st)


def _card(st: AppState, business_id: str) -> dict[str, Any]:
    r = st.dataset.restaurant(business_id)
    raw = r.raw if r is not None else {}
    return {"address": ", ".join(str(raw[k]) for k in ("address", "city") if raw.get(k)), "stars": raw.get("stars"),
            "categories": raw.get("categories") or "", "hours": views.hours_rows(raw.get("hours"))}


# --------------------------------------------------------------------------------------------- restaurant


@router.get("/restaurants/{business_id}", response_class=HTMLResponse)
def restaurant_page(business_id: str, request: Request) -> HTMLResponse:
    st = state_of(request)
    r = st.dataset.restaurant(business_id)
    if r is None:
        return _error_page(request, "business_id", f"no restaurant with business_id {business_id!r}", 404)
    try:
        profile = profile_of(request.query_params.getlist("allergen"), "allergen") or profile_of("ALL")
    except WebError as exc:
        return _error_page(request, exc.where, exc.why)
    try:
        allergy = views.allergy_evidence(st, business_id, profile)
    except DinecheckError as exc:
        return _error_page(request, exc.location or "allergy", exc.reason, 500)
    quotes = views.quotes_by_review(allergy)
    reviews = [{"review": v, "segments": highlight.segments(v.text, highlight.quote_marks(v.text, quotes.get(v.review_id, ()))),
                "quoted": v.review_id in quotes}
               for v in st.dataset.reviews_of(business_id)]
    silent = [code for code, ev in allergy.items()
              if ev.level == "insufficient_evidence" and not ev.relevant_reviews and not ev.exposure_mentions]
    shown = {code: ev for code, ev in allergy.items() if code not in silent}
    return _render(request, "restaurant.html", r=r, card=_card(st, business_id),
                   attributes=views.attribute_rows(r.attributes), allergy=allergy, shown=shown, silent=silent,
                   reviews=reviews, profile=profile)


# --------------------------------------------------------------------------------------------- check a label


@router.get("/labels", response_class=HTMLResponse)
def labels_page(request: Request) -> HTMLResponse:
    return _render(request, "labels.html", text="", chosen=(), results=[])


async def _upload_text(form: FormData, field: str, limit: int) -> str | None:
    up = form.get(field)
    if not isinstance(up, UploadFile) or not up.filename:
        return None
    data = await up.read(limit + 1)
    if len(data) > limit:
        raise WebError(413, field, f"the file is larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise WebError(400, field, "the file is not UTF-8 text") from None


@router.post("/labels", response_class=HTMLResponse)
async def labels_submit(request: Request) -> HTMLResponse:
    st = state_of(request)
    form = await request.form(max_files=1, max_fields=100)
    text = str(form.get("ingredients_text") or "")
    chosen = [str(v) for v in form.getlist("allergens") if str(v).strip()]
    try:
        profile = profile_of(",".join(chosen), "allergens", codes_only=True)
        if not profile:
            raise WebError(400, "allergens", "choose at least one allergen")
        uploaded = await _upload_text(form, "labels_file", MAX_UPLOAD_BYTES)
        if uploaded is not None:
            labels = parse_label_lines(uploaded.splitlines(), "labels_file")
            if len(labels) > MAX_LABELS_PER_REQUEST:
                raise WebError(413, "labels_file", f"at most {MAX_LABELS_PER_REQUEST} labels per upload")
            items = [(lab.id, lab.text) for lab in labels]
        elif text.strip():
            if len(text) > MAX_LABEL_CHARS:
                raise WebError(413, "ingredients_text", f"the label is longer than {MAX_LABEL_CHARS} characters")
            items = [(None, text)]
        else:
            raise WebError(400, "ingredients_text", "paste the ingredient list or upload a file of labels")
        ontology = st.ontology()
        suggester = st.remembered(f"suggester:{ontology.version}", lambda: Suggester(ontology))
        results = []
        audits = []
        for label_id, body in items:
            checked = check_and_audit(body, profile, ontology, label_id)
            audits.append(checked.audit)
            marks = highlight.label_marks(body, profile, ontology)
            results.append({"id": label_id, "result": checked.result, "segments": highlight.segments(body, marks),
                            "suggestions": suggester.suggest_all(checked.result.unmatched)})
        if st.config.log_labels:
            st.store.write_audit(audits)
    except (WebError, DinecheckError) as exc:
        where, why, status = ((exc.where, exc.why, exc.status) if isinstance(exc, WebError)
                              else (exc.location or "label", exc.reason, 400))
        return _render(request, "labels.html", status=status, text=text, chosen=chosen, results=[],
                       error=f"{where}: {why}")
    return _render(request, "labels.html", text=text, chosen=chosen, results=results, error=None,
                   levels=highlight.LEVELS)


# --------------------------------------------------------------------------------------------- benchmark


@router.get("/benchmark", response_class=HTMLResponse)
def benchmark_page(request: Request) -> HTMLResponse:
    st = state_of(request)
    return _render(request, "benchmark.html", files=list(st.request_files), chosen=None, rows=[], error=None)


@router.post("/benchmark", response_class=HTMLResponse)
async def benchmark_run(request: Request) -> HTMLResponse:
    st = state_of(request)
    form = await request.form(max_files=1, max_fields=20)
    name = str(form.get("requests_file") or "")
    try:
        uploaded = await _upload_text(form, "upload", MAX_UPLOAD_BYTES)
        if uploaded is not None:
            reqs = views.parse_request_lines(uploaded, "upload")
            source = "uploaded file"
        elif name in st.request_files:
            reqs = load_requests(st.request_files[name])
            source = name
        else:
            raise WebError(400, "requests_file", "choose a request file or upload one")
        if len(reqs) > MAX_REQUESTS_PER_CALL:
            raise WebError(413, "requests", f"at most {MAX_REQUESTS_PER_CALL} requests per run")
        with st.engine_locked() as engine:
            results = validate_requests(engine, reqs)
            rows = views.benchmark_rows(st, engine, reqs, results)
    except (WebError, DinecheckError) as exc:
        where, why, status = ((exc.where, exc.why, exc.status) if isinstance(exc, WebError)
                              else (exc.location or "requests", exc.reason, 400))
        return _render(request, "benchmark.html", status=status, files=list(st.request_files), chosen=name,
                       rows=[], error=f"{where}: {why}")
    return _render(request, "benchmark.html", files=list(st.request_files), chosen=source, rows=rows, error=None)
