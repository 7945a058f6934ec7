"""Search: which of the places that fit a request is least risky for an allergy profile, and why.

``search = requests.evaluate ⋈ risk evidence``. :func:`search` evaluates the request over every restaurant (as
``requests match`` does), keeps those that match (+1) — and with ``near=True`` those that fail only unknown conditions
(0) — or every restaurant when there is no request, joins each with the allergy evidence for the profile (from a
results store or an :class:`~dinecheck.risk.build.EvidenceIndex`), and ranks them:

1. request value (+1 before 0);
2. the profile's evidence levels, worst first (``incidents_reported`` > ``handles_allergen`` >
   ``insufficient_evidence`` > ``no_reports`` > ``accommodating``), compared allergen by allergen;
3. fewer incidents, fewer exposure mentions, more accommodations, lower mean G1a-style score;
4. more stars, then dataset order.

:meth:`SearchResult.to_json` is the ``search --json`` contract (exactly ``business_id, name, rank, request_value,
conditions[{aspect, value, reason}], allergy{CODE: {level, summary, reviews_read, relevant_reviews, incidents,
exposure_mentions, review_ids}}``). :func:`restaurant_evidence` is the per-restaurant evidence (restaurant page,
``GET /api/restaurants/{id}/allergy``). :func:`parse_where` reads ``--where`` (request JSON, a structure, or shorthand
whose names are conditions of a request file) and :func:`parse_allergens` reads a profile (codes or common names).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from dinecheck import logic
from dinecheck.allergens.ontology import ALLERGEN_CODES
from dinecheck.dataset import Dataset, Restaurant
from dinecheck.errors import DataError, OntologyError, RequestError, ShorthandError, StoreError
from dinecheck.requests import shorthand as sh
from dinecheck.requests.evaluate import Engine, NodeResult
from dinecheck.requests.schema import Condition, OperatorNode, Request, parse_request
from dinecheck.risk.evidence import AllergenEvidence

__all__ = [
    "ConditionResult",
    "EvidenceSource",
    "SearchResult",
    "hours_in_words",
    "parse_allergens",
    "parse_where",
    "restaurant_evidence",
    "search",
]

ALIASES: dict[str, str] = {
    "PEANUTS": "PEANUT", "GROUNDNUT": "PEANUT", "GROUNDNUTS": "PEANUT",
    "DAIRY": "MILK", "LACTOSE": "MILK",
    "EGGS": "EGG",
    "SOYA": "SOY", "SOYBEAN": "SOY", "SOYBEANS": "SOY",
    "NUTS": "TREE_NUTS", "TREE_NUT": "TREE_NUTS", "TREENUTS": "TREE_NUTS",
    "CRUSTACEANS": "SHELLFISH", "CRUSTACEAN": "SHELLFISH",
    "MOLLUSKS": "MOLLUSCS", "MOLLUSC": "MOLLUSCS", "MOLLUSK": "MOLLUSCS",
    "SULFITES": "SULPHITES", "SULFITE": "SULPHITES", "SULPHITE": "SULPHITES",
    "LUPINE": "LUPIN", "CEREALS": "GLUTEN",
}  # fmt: skip


def parse_allergens(spec: str | Sequence[str]) -> tuple[str, ...]:
    """``"PEANUT,MILK"``, ``"peanuts, dairy"``, ``"ALL"`` (or a list of such) → codes in canonical order."""
    items = spec.split(",") if isinstance(spec, str) else [p for s in spec for p in s.split(",")]
    parts = [p.strip().upper().replace("-", "_").replace(" ", "_") for p in items if p.strip()]
    if not parts:
        raise OntologyError("the allergen profile is empty; give codes like PEANUT,MILK or ALL", "--allergens")
    if "ALL" in parts:
        return ALLERGEN_CODES
    codes = [ALIASES.get(p, p) for p in parts]
    unknown = [p for p, c in zip(parts, codes) if c not in ALLERGEN_CODES]
    if unknown:
        raise OntologyError(f"unknown allergen {', '.join(unknown)}; known: {', '.join(ALLERGEN_CODES)}, ALL "
                            "(or common names such as PEANUTS, DAIRY, NUTS)", "--allergens")  # fmt: skip
    return tuple(c for c in ALLERGEN_CODES if c in codes)


# ------------------------------------------------------------------------------------------------------- where


def _conditions_of(node: OperatorNode | Condition, out: dict[str, Condition]) -> None:
    if isinstance(node, Condition):
        out.setdefault(node.aspect, node)
        return
    for a in node.args:
        _conditions_of(a, out)


def condition_catalog(requests: Sequence[Request]) -> dict[str, Condition]:
    """``aspect → condition`` from the conditions used in these requests (first definition wins)."""
    out: dict[str, Condition] = {}
    for r in requests:
        _conditions_of(r.structure, out)
    return out


def _from_shorthand(node: sh.Shorthand, catalog: Mapping[str, Condition], source: str) -> dict[str, Any]:
    if isinstance(node, sh.Op):
        return {"op": node.op, "args": [_from_shorthand(a, catalog, source) for a in node.args]}
    if isinstance(node, sh.Hop):
        return {"aspect": f"{node.hops}hop", "evidence": {"kind": "review_text", "pattern": node.pattern,
                "social_filter": {"friends": list(node.friends), "hops": node.hops}}}  # fmt: skip
    cond = catalog.get(node.name)
    if cond is None:
        known = ", ".join(sorted(catalog)[:12]) + (" …" if len(catalog) > 12 else "")
        raise ShorthandError(f"unknown condition name {node.name!r}; known ({source}): {known or 'none'}", "--where")
    return cond.model_dump(mode="json", by_alias=True, exclude_none=True)


def parse_where(text: str, catalog: Mapping[str, Condition] | None = None, source: str = "no request file") -> Request:
    """``--where``: a request object, a structure node (JSON), or shorthand over the names in ``catalog``."""
    t = text.strip()
    if not t:
        raise RequestError("--where is empty", "--where")
    if t.startswith("{"):
        try:
            obj = json.loads(t)
        except json.JSONDecodeError as exc:
            raise RequestError(f"invalid JSON ({exc.msg} at column {exc.colno})", "--where") from None
        if not isinstance(obj, dict):
            raise RequestError("expected a JSON object", "--where")
        if "structure" not in obj:
            obj = {"id": "where", "structure": obj if "op" in obj else {"op": "AND", "args": [obj]}}
        obj.setdefault("id", "where")
        return parse_request(obj, "--where")
    structure = _from_shorthand(sh.parse(t), catalog or {}, source)
    if "op" not in structure:
        structure = {"op": "AND", "args": [structure]}
    return parse_request({"id": "where", "shorthand": t, "structure": structure}, "--where")


# ------------------------------------------------------------------------------------------------------- results


class EvidenceSource(Protocol):
    """Where allergy evidence comes from: a :class:`~dinecheck.risk.store.RiskStore` or an ``EvidenceIndex``."""

    def evidence(self, business_ids: Sequence[str] | None, codes: Sequence[str]) -> dict[str, dict[str, AllergenEvidence]]: ...


@dataclass(frozen=True, slots=True)
class ConditionResult:
    """One condition of the request for one restaurant: +1 holds (✓), 0 unknown (?), −1 fails (✗), and why."""

    aspect: str
    value: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"aspect": self.aspect, "value": self.value, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One ranked restaurant. :meth:`to_json` is the ``search --json`` contract."""

    business_id: str
    name: str
    rank: int
    request_value: int
    conditions: tuple[ConditionResult, ...]
    allergy: Mapping[str, AllergenEvidence]
    address: str | None = None
    stars: float | None = None
    hours: str | None = None
    categories: str | None = None
    restaurant: Restaurant | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "business_id": self.business_id,
            "name": self.name,
            "rank": self.rank,
            "request_value": self.request_value,
            "conditions": [c.to_json() for c in self.conditions],
            "allergy": {code: ev.contract_json() for code, ev in self.allergy.items()},
        }


DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _hm(t: str) -> str:
    h, _, m = t.strip().partition(":")
    try:
        return f"{int(h)}:{int(m or 0):02d}"
    except ValueError:
        return t.strip()


def _minutes(hm: str) -> int:
    h, _, m = hm.partition(":")
    return int(h) * 60 + int(m) if h.isdigit() and m.isdigit() else 0


def hours_in_words(hours: Mapping[str, Any] | None) -> str:
    """Yelp ``{"Monday": "7:0-19:0", …}`` → ``"Mon–Fri 7:00–19:00; Sat 8:00–17:00; closed Sun"``."""
    if not hours:
        return "hours unknown"
    spans: list[tuple[str, str]] = []
    for day in DAYS:
        raw = hours.get(day)
        if not isinstance(raw, str) or "-" not in raw:
            text = "closed"
        else:
            a, b = raw.split("-", 1)
            a, b = _hm(a), _hm(b)
            if a == b:  # evidence_semantics.md: 0:0-0:0 is a zero-length window, not "open 24 hours"
                text = f"{a}–{b} (no opening window)"
            else:
                text = f"{a}–{b}" + (" (past midnight)" if _minutes(b) < _minutes(a) else "")
        spans.append((day[:3], text))
    groups: list[tuple[str, str, str]] = []
    for d, text in spans:
        if groups and groups[-1][2] == text:
            groups[-1] = (groups[-1][0], d, text)
        else:
            groups.append((d, d, text))
    parts = []
    for a, b, text in groups:
        days = a if a == b else f"{a}–{b}"
        parts.append(f"closed {days}" if text == "closed" else f"{days} {text}")
    return "; ".join(parts)


def _address(r: Restaurant) -> str | None:
    parts = [str(r.raw[k]) for k in ("address", "city") if r.raw.get(k)]
    return ", ".join(parts) or None


def _conditions(tree: NodeResult | None) -> tuple[ConditionResult, ...]:
    if tree is None:
        return ()
    out = []
    for leaf in tree.leaves():
        rule = leaf.outcome.rule if leaf.outcome else ""
        out.append(ConditionResult(leaf.aspect or "", leaf.value, f"{leaf.description}: {rule}" if rule else
                                   (leaf.description or "")))  # fmt: skip
    return tuple(out)


def _rank_key(value: int, ev: Mapping[str, AllergenEvidence], r: Restaurant) -> tuple[Any, ...]:
    concerns = tuple(sorted((e.concern for e in ev.values()), reverse=True))
    incidents = sum(len(e.incidents) for e in ev.values())
    exposure = sum(e.exposure_mentions for e in ev.values())
    accommodated = sum(e.staff.get("accommodated", 0) for e in ev.values())
    scores = [e.score.value for e in ev.values() if e.score is not None]
    mean_score = sum(scores) / len(scores) if scores else 0.0
    stars = r.raw.get("stars")
    stars_key = -float(stars) if isinstance(stars, (int, float)) else 0.0
    return (-value, concerns, incidents, exposure, -accommodated, mean_score, stars_key, r.index)


def search(
    dataset: Dataset,
    *,
    request: Request | None = None,
    allergens: Sequence[str] = (),
    evidence: EvidenceSource | None = None,
    near: bool = False,
    limit: int | None = None,
    engine: Engine | None = None,
) -> list[SearchResult]:
    """Ranked, explained results (see the module docstring). Without ``evidence`` but with allergens, evidence is
    built in memory with the offline extractor."""
    codes = parse_allergens(list(allergens)) if allergens else ()
    if limit is not None and limit < 1:
        raise RequestError(f"--limit must be at least 1, got {limit}", "--limit")
    eng = engine or (Engine(dataset) if request is not None else None)
    candidates: list[tuple[Restaurant, int]] = []
    for r in dataset.restaurants:
        v = eng.value(request, r) if (eng is not None and request is not None) else logic.TRUE
        if v == logic.TRUE or (near and v == logic.UNKNOWN):
            candidates.append((r, v))
    ids = [r.business_id for r, _ in candidates]
    per: dict[str, dict[str, AllergenEvidence]] = {}
    if codes and candidates:
        if evidence is None:
            from dinecheck.extract.factory import make_extractor
            from dinecheck.risk.build import build_evidence

            evidence, _ = build_evidence(dataset, make_extractor("offline"), codes=codes,
                                         restaurants=[r for r, _ in candidates])  # fmt: skip
        per = evidence.evidence(ids, codes)
        missing = [b for b in ids if set(per.get(b, {})) != set(codes)]
        if missing:
            raise StoreError(f"no allergy evidence for {len(missing)} of {len(ids)} restaurants (e.g. {missing[0]}); "
                             "build it with: dinecheck risk build --data DIR", "--db")  # fmt: skip
    ordered = sorted(candidates, key=lambda rv: _rank_key(rv[1], per.get(rv[0].business_id, {}), rv[0]))
    if limit is not None:
        ordered = ordered[:limit]
    out = []
    for pos, (r, v) in enumerate(ordered, start=1):
        tree = eng.explain(request, r) if (eng is not None and request is not None) else None
        ev = per.get(r.business_id, {})
        stars = r.raw.get("stars")
        out.append(SearchResult(
            business_id=r.business_id, name=r.name, rank=pos, request_value=v, conditions=_conditions(tree),
            allergy={c: ev[c] for c in codes if c in ev}, address=_address(r),
            stars=float(stars) if isinstance(stars, (int, float)) else None, hours=hours_in_words(r.hours),
            categories=r.categories, restaurant=r,
        ))  # fmt: skip
    return out


def restaurant_evidence(evidence: EvidenceSource, business_id: str, allergens: Sequence[str] = ALLERGEN_CODES
                        ) -> dict[str, AllergenEvidence]:  # fmt: skip
    """The evidence for one restaurant and these allergens (all by default); DataError when none is stored."""
    codes = parse_allergens(list(allergens)) if allergens else ALLERGEN_CODES
    got = evidence.evidence([business_id], codes).get(business_id)
    if not got:
        raise DataError(f"no allergy evidence for restaurant {business_id!r}; build it with: dinecheck risk build",
                        "restaurant")  # fmt: skip
    return {c: got[c] for c in codes if c in got}


def find_restaurants(names: Sequence[tuple[str, str, str | None]], query: str) -> list[tuple[str, str, str | None]]:
    """Restaurants named by ``query``: an exact business id, else exact name (case-insensitive), else name substring."""
    q = query.strip()
    exact_id = [x for x in names if x[0] == q]
    if exact_id:
        return exact_id
    low = q.casefold()
    exact = [x for x in names if x[1].casefold() == low]
    return exact or [x for x in names if low in x[1].casefold()]


def request_catalog_from(data_dir: Path) -> tuple[dict[str, Condition], str]:
    """Conditions named in request files next to a dataset (``requests*.jsonl``), for shorthand in ``--where``."""
    from dinecheck.requests.load import load_requests

    files = sorted(Path(data_dir).glob("requests*.jsonl"))
    reqs: list[Request] = []
    for f in files:
        reqs.extend(load_requests(f))
    return condition_catalog(reqs), ", ".join(f.name for f in files) or "no requests*.jsonl in the data directory"
