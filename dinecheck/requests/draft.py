"""A language-model draft of a suggested request's natural text, checked against the request's structure.

Used by ``requests suggest`` only when a model is configured. The model gets the template text and one line per
condition and answers ``{"text": …}``; :func:`check_text` then requires, for every condition, one of its terms in the
draft (a review condition's words or literals, a social condition's friend names, an hours condition's day, an
attribute's label or value words), and that the draft does not name the gold restaurant. A draft that fails the check
is not used: the template text stays, and the reasons are reported. The client is injected (no configuration here).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from dinecheck.extract.chat import CallFailed, ChatClient
from dinecheck.requests.decode import decode_value
from dinecheck.requests.labels import attribute_label, attribute_phrase, words
from dinecheck.requests.schema import (
    Condition,
    ItemMetaEvidence,
    ItemMetaHoursEvidence,
    OperatorNode,
    ReviewMetaEvidence,
    ReviewTextEvidence,
    conditions,
)

MAX_TEXT_CHARS = 600
_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
           "additionalProperties": False}
_SYSTEM = (
    "You write the text of a restaurant-search request for a benchmark: one or two natural sentences a person would "
    "type, starting with 'Looking for a'. Express every condition listed, no more and no less; keep every quoted word "
    "exactly as given; never name the restaurant. Answer with a JSON object {\"text\": \"...\"} and nothing else."
)
_FILLER = frozenset({"with", "without", "that", "where", "the", "and", "for", "has", "good", "offers", "takes"})


@dataclass(frozen=True)
class Draft:
    """The text to use, whether it came from the model, and why a model draft was rejected (empty when used)."""

    text: str
    from_model: bool
    problems: tuple[str, ...] = ()


def _literals(pattern: str) -> tuple[str, ...]:
    """The plain words of a pattern's alternatives (``latte|mocha`` → latte, mocha)."""
    out = []
    for alt in pattern.split("|"):
        out += re.findall(r"[A-Za-z][A-Za-z'-]{2,}", alt)
    return tuple(w.lower() for w in out) or (pattern.lower(),)


def condition_terms(cond: Condition) -> tuple[tuple[str, ...], ...]:
    """Groups of terms a text must mention for this condition: one term of every group (case-insensitive)."""
    ev = cond.evidence
    if isinstance(ev, ReviewTextEvidence):
        groups = [_literals(ev.pattern)]
        if ev.social_filter is not None:
            groups += [(name.lower(),) for name in ev.social_filter.friends]
        return tuple(groups)
    if isinstance(ev, ItemMetaHoursEvidence):
        return ((ev.path[-1].lower(),),)
    if isinstance(ev, ReviewMetaEvidence):
        return (tuple(w for w in words(ev.path[-1]).split() if len(w) > 2) or (ev.path[-1].lower(),),)
    assert isinstance(ev, ItemMetaEvidence)
    return (_attribute_terms(ev) or (cond.aspect.lower(),),)


def _content(text: str) -> list[str]:
    return [w for w in words(text).split() if len(w) > 2 and w not in _FILLER]


def _tokens(text: str) -> list[str]:
    out = []
    for tok in re.split(r"\s+", text.lower()):
        tok = tok.strip("()'\".,;:")
        if len(tok) >= 2 and tok not in _FILLER:
            out.append(tok)
            out += [part for part in re.split(r"-", tok) if len(part) > 2 and part not in _FILLER and "-" in tok]
            if tok.endswith("s") and len(tok) > 3:
                out.append(tok[:-1])
    return out


def _attribute_terms(ev: ItemMetaEvidence) -> tuple[str, ...]:
    """Any of: the sub-key of ``contains "'hipster': True"`` or of a nested path; the expected text value's words
    (free, quiet); the attribute label's words (dogs, allowed; kid for kids); the words of the template phrase for the
    value (kid-friendly, lively, indoor-only). Wi-Fi is accepted spelled both ways."""
    sub = re.match(r"\s*'([^']+)'\s*:", ev.contains or "")
    if sub:
        return tuple(_content(sub.group(1)))
    if len(ev.path) >= 3:
        return tuple(_content(ev.path[-1]))
    label = attribute_label(ev.path)
    terms = _tokens(label.replace("-", " "))
    for expected in (ev.true, ev.false, ev.not_true):
        if expected is None:
            continue
        value = decode_value(expected) if isinstance(expected, str) else expected
        if isinstance(value, str):
            terms += _content(value)
        if expected is ev.not_true and isinstance(value, bool):
            value = not value
        terms += _tokens(attribute_phrase(ev.path, value))
    if ev.contains:
        terms += _content(ev.contains)
    if "wi-fi" in label.lower():
        terms += ["wi-fi", "wifi"]
    return tuple(dict.fromkeys(t for t in terms if t not in {"not", "no", "yes", "is"}))


def check_text(text: str, structure: OperatorNode, gold_name: str | None = None) -> list[str]:
    """Why ``text`` does not express ``structure`` (empty when it does)."""
    problems: list[str] = []
    low = text.lower()
    if not text.strip():
        return ["the text is empty"]
    if len(text) > MAX_TEXT_CHARS:
        problems.append(f"the text is longer than {MAX_TEXT_CHARS} characters")
    if gold_name and gold_name.strip() and gold_name.lower() in low:
        problems.append("the text names the restaurant")
    for ptr, cond in conditions(structure):
        for group in condition_terms(cond):
            if not any(term in low for term in group):
                problems.append(f"{cond.aspect} ({ptr}) is not mentioned: none of {', '.join(group)}")
    return problems


def draft_text(client: ChatClient, template: str, phrases: list[str], structure: OperatorNode,
               gold_name: str | None) -> Draft:
    """Ask the model for a text; use it only when :func:`check_text` finds nothing wrong."""
    user = ("Conditions (all must appear):\n" + "\n".join(f"- {p}" for p in phrases)
            + f"\nA plain version: {template}\nWrite the request text.")
    try:
        reply = client.complete([{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}],
                                schema=_SCHEMA, schema_name="request_text", max_tokens=400)
    except CallFailed as exc:
        return Draft(template, False, (f"the model call failed: {exc}",))
    try:
        obj = json.loads((reply.content or "").strip().removeprefix("```json").removesuffix("```"))
    except json.JSONDecodeError:
        return Draft(template, False, ("the model's answer is not JSON",))
    text = obj.get("text") if isinstance(obj, dict) else None
    if not isinstance(text, str):
        return Draft(template, False, ("the model's answer has no 'text'",))
    problems = check_text(text, structure, gold_name)
    return Draft(template, False, tuple(problems)) if problems else Draft(text.strip(), True)
