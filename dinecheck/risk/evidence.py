"""Evidence per restaurant × allergen: the evidence level, counts, deciding reviews, quotes and a one-line summary.

Pure: :func:`summarize` takes one restaurant's :class:`ReviewFacts` (what the vocabulary scan and the extractor found
in each review) and returns an :class:`AllergenEvidence` per allergen. The levels, first rule that holds wins:

1. ``incidents_reported`` — a review about this allergen reports a reaction (mild/moderate/severe, firsthand or
   secondhand), or staff claimed a dish was safe and the diner still reacted;
2. ``handles_allergen`` — reviews name dishes or ingredients carrying the allergen (exposure: the kitchen handles it);
3. ``accommodating`` — staff accommodated this allergy more often than they dismissed it;
4. ``no_reports`` — at least :data:`MIN_RELEVANT` reviews talk about this allergy and none reports a problem;
5. ``insufficient_evidence`` — fewer such reviews than that: nothing can be said. Never a "safe" verdict.

An *allergy review* of an allergen is allergy talk (it went to the extractor) that names the allergen in allergy
context and was labelled; a *relevant review* is an allergy review or an exposure review (one that names a dish or
ingredient carrying the allergen). No relevant review therefore always means ``insufficient_evidence``. Reviews whose
extraction failed are never counted as "no problem": they are reported as unread. The G1a-style numeric score is
computed by the allergy seed (``data/allergy_seed.json``, the G1a-v2 compute without its verdict) over the allergy
reviews, and says what it was computed from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from dinecheck.errors import EvaluationError
from dinecheck.formula.ops import ReviewRecord
from dinecheck.formula.run import CompiledSeed

Level = Literal["incidents_reported", "handles_allergen", "accommodating", "no_reports", "insufficient_evidence"]
LEVELS: tuple[Level, ...] = ("incidents_reported", "handles_allergen", "accommodating", "no_reports", "insufficient_evidence")
LEVEL_WORDS: dict[str, str] = {
    "incidents_reported": "reactions reported",
    "handles_allergen": "kitchen handles it",
    "accommodating": "staff accommodated",
    "no_reports": "no problems reported",
    "insufficient_evidence": "not enough evidence",
}
# How much a level weighs against a diner (higher = worse); used for ranking.
LEVEL_CONCERN: dict[str, int] = {
    "accommodating": 0, "no_reports": 1, "insufficient_evidence": 2, "handles_allergen": 3, "incidents_reported": 4,
}  # fmt: skip
MIN_RELEVANT = 2
INCIDENT_SEVERITIES = ("mild", "moderate", "severe")
MAX_QUOTES = 5


@dataclass(frozen=True, slots=True)
class ReviewFacts:
    """One review as the evidence summary needs it (built by :mod:`dinecheck.risk.build`, stored per review)."""

    review_id: str
    year: int | None
    stars: float | None
    useful: int | None
    allergy_talk: bool  # went to the extractor
    concerned: frozenset[str]  # allergens named in allergy context
    exposure: Mapping[str, tuple[tuple[str, str], ...]]  # code -> ((term, sentence), ...)
    status: str | None = None  # extraction status: ok | invalid | error | None (not extracted)
    values: Mapping[str, str] = field(default_factory=dict)
    quotes: Mapping[str, str] = field(default_factory=dict)  # field -> verified quote
    allergy_sentences: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Quote:
    """A verbatim sentence of a review that decided something (``kind``: incident, staff, exposure, concern)."""

    review_id: str
    kind: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"review_id": self.review_id, "kind": self.kind, "text": self.text}


@dataclass(frozen=True, slots=True)
class Incident:
    review_id: str
    severity: str
    account: str
    year: int | None

    def to_json(self) -> dict[str, Any]:
        return {"review_id": self.review_id, "severity": self.severity, "account": self.account, "year": self.year}


@dataclass(frozen=True, slots=True)
class RiskScore:
    """The G1a-style numeric score (0–20, higher = riskier) and what it was computed from."""

    value: float
    computed_from: str
    outputs: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "computed_from": self.computed_from, "outputs": dict(self.outputs)}


@dataclass(frozen=True, slots=True)
class AllergenEvidence:
    """The evidence about one allergen at one restaurant."""

    business_id: str
    allergen: str
    level: Level
    summary: str
    reviews_read: int
    relevant_reviews: int  # allergy reviews and exposure reviews of this allergen (each review once)
    incidents: tuple[Incident, ...]
    staff: Mapping[str, int]  # accommodated, dismissive, claimed_safe_then_reaction
    exposure_mentions: int  # reviews naming an allergen-bearing dish or ingredient
    exposure_terms: tuple[str, ...]
    review_ids: tuple[str, ...]  # the reviews that decided the level
    quotes: tuple[Quote, ...]
    unread_reviews: int  # allergy talk whose extraction failed (never counted as "no problem")
    score: RiskScore | None = None
    allergy_reviews: int = 0  # reviews that talk about an allergy to this allergen (labelled)

    @property
    def concern(self) -> int:
        return LEVEL_CONCERN[self.level]

    @property
    def line(self) -> str:
        """The evidence line shown in results: ``PEANUT: kitchen handles it — reviews mention peanut butter (1 review)``."""
        return f"{self.allergen}: {LEVEL_WORDS[self.level]} \u2014 {self.summary}"

    def contract_json(self) -> dict[str, Any]:
        """The ``search --json`` contract object: exactly these names."""
        return {
            "level": self.level,
            "summary": self.summary,
            "reviews_read": self.reviews_read,
            "relevant_reviews": self.relevant_reviews,
            "incidents": len(self.incidents),
            "exposure_mentions": self.exposure_mentions,
            "review_ids": list(self.review_ids),
        }

    def to_json(self) -> dict[str, Any]:
        """Everything (the contract fields plus detail), for ``risk show --json`` and the web API."""
        out = self.contract_json()
        out.update({
            "allergen": self.allergen,
            "business_id": self.business_id,
            "incident_details": [i.to_json() for i in self.incidents],
            "staff": dict(self.staff),
            "exposure_terms": list(self.exposure_terms),
            "quotes": [q.to_json() for q in self.quotes],
            "unread_reviews": self.unread_reviews,
            "allergy_reviews": self.allergy_reviews,
            "score": self.score.to_json() if self.score else None,
        })  # fmt: skip
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> AllergenEvidence:
        sc = obj.get("score")
        return cls(
            business_id=obj["business_id"],
            allergen=obj["allergen"],
            level=obj["level"],
            summary=obj["summary"],
            reviews_read=obj["reviews_read"],
            relevant_reviews=obj["relevant_reviews"],
            incidents=tuple(Incident(**i) for i in obj["incident_details"]),
            staff=dict(obj["staff"]),
            exposure_mentions=obj["exposure_mentions"],
            exposure_terms=tuple(obj["exposure_terms"]),
            review_ids=tuple(obj["review_ids"]),
            quotes=tuple(Quote(**q) for q in obj["quotes"]),
            unread_reviews=obj["unread_reviews"],
            score=RiskScore(sc["value"], sc["computed_from"], sc["outputs"]) if sc else None,
            allergy_reviews=obj.get("allergy_reviews", 0),
        )


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _summary(code_name: str, level: str, relevant: int, read: int, incidents: Sequence[Incident],
             staff: Mapping[str, int], exposure_terms: Sequence[str], exposure_reviews: int, unread: int) -> str:
    parts: list[str] = []
    if incidents:
        by_acc: dict[str, list[Incident]] = {}
        for i in incidents:
            by_acc.setdefault(i.account, []).append(i)
        for acc, items in sorted(by_acc.items()):
            years = sorted({str(i.year) for i in items if i.year})
            sev = sorted({i.severity for i in items}, key=INCIDENT_SEVERITIES.index)
            who = {"firsthand": "firsthand", "secondhand": "second-hand"}.get(acc, acc)
            parts.append(f"{_plural(len(items), f'{who} reaction')} ({'/'.join(sev)}"
                         + (f"; {', '.join(years)})" if years else ")"))
    if staff.get("claimed_safe_then_reaction"):
        parts.append(f"staff said a dish was safe and the diner reacted {_times(staff['claimed_safe_then_reaction'])}")
    if exposure_terms:
        shown = ", ".join(exposure_terms[:3]) + (" …" if len(exposure_terms) > 3 else "")
        parts.append(f"reviews mention {shown} ({_plural(exposure_reviews, 'review')})")
    if staff.get("accommodated"):
        parts.append(f"staff accommodated {_times(staff['accommodated'])}")
    if staff.get("dismissive"):
        parts.append(f"staff dismissive {_times(staff['dismissive'])}")
    if level == "no_reports":
        parts.append(f"{_plural(relevant, 'review')} about a {code_name} allergy, none reports a problem")
    if level == "insufficient_evidence":
        if relevant:
            parts.append(f"only {_plural(relevant, 'review')} about a {code_name} allergy: too few to judge")
        else:
            parts.append(f"no review about a {code_name} allergy ({read} read)")
    if unread:
        parts.append(f"{_plural(unread, 'allergy review')} could not be read")
    return "; ".join(parts)


def summarize(
    business_id: str,
    context: Mapping[str, Any],
    facts: Sequence[ReviewFacts],
    codes: Sequence[str],
    scorer: CompiledSeed | None = None,
    names: Mapping[str, str] | None = None,
) -> dict[str, AllergenEvidence]:
    """The evidence for every allergen in ``codes`` at one restaurant (pure)."""
    out: dict[str, AllergenEvidence] = {}
    prior: dict[str, Any] = {}  # the score without relevant reviews is the same for every allergen: computed once
    for code in codes:
        name = (names or {}).get(code, code.lower().replace("_", " "))
        out[code] = _one(business_id, context, facts, code, scorer, name, prior)
    return out


def _one(business_id: str, context: Mapping[str, Any], facts: Sequence[ReviewFacts], code: str,
         scorer: CompiledSeed | None, code_name: str, prior: dict[str, Any]) -> AllergenEvidence:
    relevant: list[ReviewFacts] = []
    unread = 0
    incidents: list[Incident] = []
    staff = {"accommodated": 0, "dismissive": 0, "claimed_safe_then_reaction": 0}
    quotes: list[Quote] = []
    incident_ids: list[str] = []
    staff_ids: list[str] = []
    exposure_ids: list[str] = []
    exposure_terms: dict[str, None] = {}
    for f in facts:
        ex = f.exposure.get(code)
        if ex:
            exposure_ids.append(f.review_id)
            for term, sentence in ex:
                exposure_terms.setdefault(term)
            if len(quotes) < MAX_QUOTES:
                quotes.append(Quote(f.review_id, "exposure", ex[0][1]))
        if not (f.allergy_talk and code in f.concerned):
            continue
        if f.status != "ok":
            unread += 1
            continue
        relevant.append(f)
        sev, acc, inter = f.values.get("incident_severity"), f.values.get("account_type"), f.values.get("safety_interaction")
        decided = False
        if sev in INCIDENT_SEVERITIES and acc in ("firsthand", "secondhand"):
            incidents.append(Incident(f.review_id, sev, acc, f.year))  # type: ignore[arg-type]
            incident_ids.append(f.review_id)
            decided = True
            quotes.append(Quote(f.review_id, "incident", f.quotes.get("incident_severity") or _first(f.allergy_sentences)))
        if inter == "positive":
            staff["accommodated"] += 1
            staff_ids.append(f.review_id)
        elif inter == "negative":
            staff["dismissive"] += 1
            staff_ids.append(f.review_id)
        elif inter == "betrayal":
            staff["claimed_safe_then_reaction"] += 1
            incident_ids.append(f.review_id)
        if inter in ("positive", "negative", "betrayal") and not decided:
            quotes.append(Quote(f.review_id, "staff", f.quotes.get("safety_interaction") or _first(f.allergy_sentences)))
    if incidents or staff["claimed_safe_then_reaction"]:
        level: Level = "incidents_reported"
        deciding = incident_ids
    elif exposure_ids:
        level, deciding = "handles_allergen", exposure_ids
    elif staff["accommodated"] > staff["dismissive"]:
        level, deciding = "accommodating", staff_ids
    elif len(relevant) >= MIN_RELEVANT:
        level, deciding = "no_reports", [f.review_id for f in relevant]
    else:
        level, deciding = "insufficient_evidence", [f.review_id for f in relevant]
    if level in ("no_reports", "insufficient_evidence"):
        for f in relevant[:MAX_QUOTES]:
            if f.allergy_sentences:
                quotes.append(Quote(f.review_id, "concern", f.allergy_sentences[0]))
    summary = _summary(code_name, level, len(relevant), len(facts), incidents, staff, list(exposure_terms),
                       len(exposure_ids), unread)
    score = _score(scorer, business_id, context, relevant, code_name, prior) if scorer is not None else None
    kinds_first = {"incident": 0, "staff": 1, "concern": 2, "exposure": 3}
    quotes.sort(key=lambda q: kinds_first[q.kind])
    return AllergenEvidence(
        business_id=business_id,
        allergen=code,
        level=level,
        summary=summary,
        reviews_read=len(facts),
        relevant_reviews=len({f.review_id for f in relevant} | set(exposure_ids)),
        allergy_reviews=len(relevant),
        incidents=tuple(incidents),
        staff=staff,
        exposure_mentions=len(exposure_ids),
        exposure_terms=tuple(exposure_terms),
        review_ids=tuple(dict.fromkeys(deciding)),
        quotes=tuple(quotes[:MAX_QUOTES]),
        unread_reviews=unread,
        score=score,
    )


def _first(items: Sequence[str]) -> str:
    return items[0] if items else ""


def _score(scorer: CompiledSeed, business_id: str, context: Mapping[str, Any], relevant: Sequence[ReviewFacts],
           code_name: str, prior: dict[str, Any]) -> RiskScore | None:
    records = [
        ReviewRecord(f.review_id, {"year": f.year, "stars": f.stars, "useful": f.useful}, dict(f.values)) for f in relevant
    ]
    if not records and prior:
        o = prior
    else:
        try:
            o = scorer.evaluate(business_id, "", dict(context), records, len(records)).outputs
        except EvaluationError:  # e.g. a review without stars or useful count: no score rather than a made-up one
            return None
        if not records:
            prior.update(o)
    value = float(o["FINAL_RISK_SCORE"])
    text = (
        f"G1a-v2 formula (0–20, higher = riskier) over {_plural(len(records), 'review')} about a {code_name} allergy: "
        f"{o['N_MILD']} mild / {o['N_MODERATE']} moderate / {o['N_SEVERE']} severe firsthand incidents, staff "
        f"+{o['N_POSITIVE']} / −{o['N_NEGATIVE']} / {o['N_BETRAYAL']} claimed-safe, cuisine modifier "
        f"{o['CUISINE_MODIFIER']:g}" + ("; with no relevant review it is the cuisine prior alone" if not records else "")
    )
    return RiskScore(round(value, 6), text, o)
