"""Validating a model's extraction answer (pure: text in, typed verdict out) and verifying evidence quotes.

An answer is usable for a review only when every field holds one of its declared values and every non-``none`` value
comes with a quote that occurs in *that review's own text*; anything else — unparsable JSON, a value outside the enum,
a missing field, a missing or unverifiable quote, an id echoed more than once — is a *problem* for that review (the
caller asks for one repair, then marks the review ``invalid``). When a quote under one review's id occurs in another
requested review's text instead, the answer has mixed up its ids: nothing in it can be trusted, so every review it
answers is a problem. A review the answer does not mention at all is *missing* (the caller asks again for the missing
ones only). Nothing is ever filled in with a default.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dinecheck.extract.base import Evidence, FieldSpec, ReviewInput
from dinecheck.extract.prompt import NONE_VALUE

MAX_ANSWER_CHARS = 2_000_000
_WS = re.compile(r"\s+")
_FENCE = re.compile(r"^```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?```\s*$", re.DOTALL)
_QUOTE_CHARS = "\"'“”‘’«» "


def normalize_for_match(text: str) -> str:
    """Lower-case (casefold) and collapse every run of whitespace to one space."""
    return _WS.sub(" ", text.casefold()).strip()


def quote_is_verbatim(quote: str, text: str) -> bool:
    """Whether ``quote`` occurs in ``text``, ignoring case, whitespace differences and surrounding quotation marks."""
    q = normalize_for_match(quote.strip(_QUOTE_CHARS).removesuffix("...").removesuffix("…").strip(_QUOTE_CHARS))
    return bool(q) and q in normalize_for_match(text)


@dataclass(frozen=True, slots=True)
class ReviewAnswer:
    """The validated labels of one review: a declared value for every field, plus evidence for non-``none`` values."""

    values: dict[str, str]
    evidence: dict[str, Evidence]


@dataclass
class AnswerCheck:
    """The verdict on one answer for the reviews it was asked about."""

    valid: dict[str, ReviewAnswer] = field(default_factory=dict)
    invalid: dict[str, list[str]] = field(default_factory=dict)  # review_id -> problems
    missing: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return [f"review {rid}: {p}" for rid, probs in self.invalid.items() for p in probs]


def _loads(content: str) -> Any:
    text = content.strip()
    m = _FENCE.match(text)
    if m:
        text = m.group(1).strip()
    return json.loads(text)


def _entries(obj: Any) -> list[Any] | None:
    if isinstance(obj, dict) and isinstance(obj.get("reviews"), list):
        return obj["reviews"]
    if isinstance(obj, dict) and "review_id" in obj:
        return [obj]
    if isinstance(obj, list):
        return obj
    return None


def _check_entry(entry: dict[str, Any], fields: Sequence[FieldSpec], review: ReviewInput) -> ReviewAnswer | list[str]:
    problems: list[str] = []
    values: dict[str, str] = {}
    for f in fields:
        if f.name not in entry:
            problems.append(f"field {f.name!r} is missing")
            continue
        value = entry[f.name]
        if not isinstance(value, str) or value not in f.values:
            allowed = ", ".join(repr(v) for v in f.values)
            problems.append(f"field {f.name!r} has {json.dumps(value)[:80]}, which is not one of {allowed}")
            continue
        values[f.name] = value
    if problems:
        return problems
    raw_evidence = entry.get("evidence")
    quotes = raw_evidence if isinstance(raw_evidence, dict) else {}
    evidence: dict[str, Evidence] = {}
    for name, value in values.items():
        if value == NONE_VALUE:
            continue
        quote = quotes.get(name)
        quote = quote if isinstance(quote, str) else ""
        if not quote.strip(_QUOTE_CHARS):
            problems.append(f"field {name!r} is {value!r} but has no quote from this review")
        elif not quote_is_verbatim(quote, review.text):
            problems.append(f"field {name!r}: the quote {json.dumps(quote)[:80]} does not occur in this review's text")
        else:
            evidence[name] = Evidence(quote=quote, verified=True)
    if problems:
        return problems
    return ReviewAnswer(values=values, evidence=evidence)


def check_answer(content: str | None, fields: Sequence[FieldSpec], reviews: Sequence[ReviewInput]) -> AnswerCheck:
    """Validate a model's answer ``content`` for ``reviews``; every review ends up valid, invalid or missing."""
    out = AnswerCheck()
    by_id = {r.review_id: r for r in reviews}

    def all_invalid(reason: str) -> AnswerCheck:
        out.invalid = {rid: [reason] for rid in by_id}
        return out

    if content is None or not content.strip():
        return all_invalid("the answer is empty")
    if len(content) > MAX_ANSWER_CHARS:
        return all_invalid(f"the answer is longer than {MAX_ANSWER_CHARS} characters")
    try:
        obj = _loads(content)
    except (json.JSONDecodeError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        return all_invalid(f"the answer is not valid JSON ({reason})")
    entries = _entries(obj)
    if entries is None:
        return all_invalid('the answer is not an object with a "reviews" list')
    seen: dict[str, Any] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        rid = entry.get("review_id")
        if not isinstance(rid, str) or rid not in by_id:
            continue  # an entry for a review we did not ask about is ignored
        if rid in seen:
            out.invalid[rid] = ["the answer has more than one entry for this review (each id must appear exactly once)"]
            continue
        seen[rid] = entry
    swapped: list[str] = []
    for rid, entry in seen.items():
        if rid in out.invalid:
            continue
        checked = _check_entry(entry, fields, by_id[rid])
        if isinstance(checked, ReviewAnswer):
            out.valid[rid] = checked
        else:
            out.invalid[rid] = checked
            swapped += _quoted_from_other_review(entry, rid, reviews)
    if swapped:  # ids were mixed up: no entry of this answer can be trusted to belong to its review
        reason = f"the answer mixed up review ids ({swapped[0]}), so none of its entries can be trusted"
        for rid in seen:
            out.invalid.setdefault(rid, []).append(reason)
        out.valid = {}
    out.missing = [rid for rid in by_id if rid not in seen]
    return out


def _quoted_from_other_review(entry: dict[str, Any], rid: str, reviews: Sequence[ReviewInput]) -> list[str]:
    """``"<quote> under <rid> is from <other>"`` for each quote in ``entry`` that verifies against another review."""
    raw = entry.get("evidence")
    quotes = [q for q in raw.values() if isinstance(q, str)] if isinstance(raw, dict) else []
    out: list[str] = []
    for q in quotes:
        if any(quote_is_verbatim(q, r.text) for r in reviews if r.review_id == rid):
            continue
        other = next((r.review_id for r in reviews if r.review_id != rid and quote_is_verbatim(q, r.text)), None)
        if other is not None:
            out.append(f"a quote under {rid} is from {other}")
    return out
