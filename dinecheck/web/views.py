"""Shared read models for pages and API: restaurants in plain words, match rows, request lists, named seeds, and the
allergy evidence of a restaurant (from :mod:`dinecheck.risk` when present).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from dinecheck.errors import RequestError
from dinecheck.requests import Engine, Request, parse_request
from dinecheck.requests.catalog import build_catalog
from dinecheck.requests.decode import MISSING, decode_value
from dinecheck.requests.labels import attribute_label, words
from dinecheck.risk import AllergenEvidence
from dinecheck.search import restaurant_evidence
from dinecheck.web.safety import WebError
from dinecheck.web.state import AppState, build_state
from dinecheck.web.wishes import DAYS, wish_key

MAX_SEED_BYTES = 1_000_000


def restaurant_or_404(st: AppState, business_id: str) -> Any:
    r = st.dataset.restaurant(business_id)
    if r is None:
        raise WebError(404, "business_id", f"no restaurant with business_id {business_id!r}")
    return r


def value_words(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    return str(value)


def attribute_rows(attributes: dict[str, Any]) -> list[tuple[str, str]]:
    """``(label, plain value)`` for every attribute, labelled as the catalog labels them; a nested one (Ambience,
    parking) lists its sub-keys that are true."""
    rows: list[tuple[str, str]] = []
    for key, raw in attributes.items():
        value = decode_value(raw)
        if value is MISSING:
            continue
        if isinstance(value, dict):
            yes = [words(k) for k, v in value.items() if v is True]
            rows.append((attribute_label([key]), ", ".join(yes) if yes else "none"))
        else:
            rows.append((attribute_label([key]), value_words(value)))
    return sorted(rows, key=lambda kv: kv[0].lower())


def _clock(hm: str) -> str:
    h, _, m = hm.partition(":")
    try:
        return f"{int(h):02d}:{int(m or 0):02d}"
    except ValueError:
        return hm


def hours_rows(hours: dict[str, Any] | None) -> list[tuple[str, str]]:
    """``(day, "07:00–15:00")`` for every day of the week; "closed" when the day is absent."""
    hours = hours or {}
    rows = []
    for day in DAYS:
        text = hours.get(day)
        if not isinstance(text, str) or "-" not in text:
            rows.append((day, "closed"))
            continue
        a, _, b = text.partition("-")
        rows.append((day, "open 24 hours" if a == b == "0:0" else f"{_clock(a)}–{_clock(b)}"))
    return rows


def restaurant_json(st: AppState, business_id: str) -> dict[str, Any]:
    """The business object as stored, plus its reviews (``review_id, stars, date, user, text``)."""
    r = restaurant_or_404(st, business_id)
    raw = {k: v for k, v in r.raw.items() if k not in ("llm_score", "llm_reasoning")}
    reviews = [{"review_id": v.review_id, "stars": v.stars, "date": v.date, "user": v.user.name, "text": v.text}
               for v in st.dataset.reviews_of(business_id)]
    return {**raw, "reviews": reviews}


def match_rows(engine: Engine, req: Request, *, show_all: bool, explain: bool) -> list[dict[str, Any]]:
    """The ``requests match --json`` lines: every restaurant ranked (``--all``), or the matches in dataset order
    (then only the matches are explained)."""
    if show_all:
        shown = [(x.restaurant, x.tree) for x in engine.rank(req)]
    else:
        shown = [(r, engine.explain(req, r)) for r in engine.matches(req)]
    out = []
    for pos, (r, tree) in enumerate(shown, start=1):
        obj: dict[str, Any] = {"request_id": req.id, "rank": pos, "business_id": r.business_id, "name": r.name,
                               "value": tree.value, "leaves_true": tree.leaves_holding(),
                               "n_leaves": len(tree.leaves())}
        if explain:
            obj["explanation"] = tree.to_dict()
        out.append(obj)
    return out


def parse_request_list(objs: Sequence[Any], source: str = "requests") -> list[Request]:
    """Requests from decoded objects (ids unique), each error naming ``requests[i]``."""
    out: list[Request] = []
    seen: set[str] = set()
    for i, obj in enumerate(objs):
        req = parse_request(obj, f"{source}[{i}]")
        if req.id in seen:
            raise RequestError(f"duplicate request id {req.id!r}", f"{source}[{i}]")
        seen.add(req.id)
        out.append(req)
    if not out:
        raise RequestError("no requests given", source)
    return out


def parse_request_lines(text: str, source: str) -> list[Request]:
    """Requests from uploaded JSON Lines text."""
    objs = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            objs.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RequestError(f"invalid JSON ({exc.msg} at column {exc.colno})", f"{source}:{lineno}") from None
    return parse_request_list(objs, source)


def seed_names(st: AppState) -> list[str]:
    return sorted(p.name for p in st.data_dir.glob("*seed*.json") if p.is_file())


def read_named_seed(st: AppState, name: str) -> Any:
    if name not in seed_names(st):
        raise WebError(404, "seed_name", f"no seed named {name!r}; available: {', '.join(seed_names(st)) or 'none'}")
    path = st.data_dir / name
    if path.stat().st_size > MAX_SEED_BYTES:
        raise WebError(413, "seed_name", f"the seed is larger than {MAX_SEED_BYTES} bytes")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise WebError(400, "seed_name", f"the seed file is not valid JSON ({exc})") from None


def allergy_evidence(st: AppState, business_id: str, profile: Sequence[str]) -> dict[str, AllergenEvidence]:
    """Per allergen code (in profile order), the restaurant's evidence (:func:`dinecheck.search.restaurant_evidence`)."""
    return restaurant_evidence(st.evidence, business_id, profile)


def reload_state(st: AppState) -> AppState:
    """A fresh state from the same configuration (the old store is closed once the new one is open)."""
    fresh = build_state(st.config)
    with st.engine_lock:
        st.close()
    return fresh


def _wish_groups(st: AppState) -> list[dict[str, Any]]:
    """From the dataset's catalog: yes/no attributes (nested ones included) as one *features* group of checkboxes
    (those that some restaurant has), and each text attribute with a few values as its own group."""
    catalog = build_catalog(st.dataset)
    features: list[dict[str, Any]] = []
    groups: list[dict[str, Any]] = []
    for info in catalog.attributes:
        if info.kind == "boolean":
            yes = next((v.count for v in info.values if v.value is True), 0)
            if yes:
                features.append({"key": wish_key(info.path, "True"), "label": info.label, "count": yes,
                                 "aspect": info.label})
        elif info.kind == "text" and 1 < len(info.values) <= 8:
            groups.append({"label": info.label, "options": [
                {"key": wish_key(info.path, v.text), "label": value_words(v.value), "count": v.count,
                 "aspect": f"{info.label}: {value_words(v.value)}"} for v in info.values]})
    features.sort(key=lambda o: (-o["count"], o["label"]))
    return ([{"label": "Features", "options": features}] if features else []) + groups


def wish_aspects(st: AppState) -> dict[str, str]:
    """Wish key → the plain words a result shows for it (``Wi-Fi: free``, ``Hipster ambience``)."""
    return {o["key"]: o["aspect"] for g in wish_options(st) for o in g["options"]}


def wish_options(st: AppState) -> list[dict[str, Any]]:
    """Attribute groups with their values and counts, for the *find a place* form."""
    out: list[dict[str, Any]] = st.remembered("wish_options", lambda: _wish_groups(st))
    return out


def quotes_by_review(allergy: dict[str, AllergenEvidence]) -> dict[str, list[str]]:
    """review_id → the verbatim sentences the allergy evidence quotes (any allergen)."""
    out: dict[str, list[str]] = {}
    for ev in allergy.values():
        for q in ev.quotes:
            out.setdefault(q.review_id, []).append(q.text)
    return out


def benchmark_rows(st: AppState, engine: Engine, reqs: Sequence[Request], results: Sequence[Any]) -> list[dict]:
    """One row per request: status, matches by name, and the explanation for the gold (else the first match)."""
    by_id = {q.id: q for q in reqs}
    names = {r.business_id: r.name for r in st.dataset.restaurants}
    rows = []
    for v in results:
        req = by_id[v.request_id]
        target_id = v.gold_restaurant if v.gold_restaurant in names else (v.matches[0] if v.matches else None)
        target = st.dataset.restaurant(target_id) if target_id else None
        rows.append({"v": v, "req": req, "match_names": [names.get(m, m) for m in v.matches],
                     "gold_name": names.get(v.gold_restaurant or "", v.gold_restaurant),
                     "target": target, "tree": engine.explain(req, target) if target is not None else None})
    return rows
