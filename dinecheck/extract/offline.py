"""The offline extractor: deterministic, network-free labels from a seed's field descriptions and language cues.

:func:`label_review` is the pure core (rules + one review → one :class:`ExtractionResult`); :class:`OfflineExtractor`
is the thin :class:`~dinecheck.extract.base.Extractor` around it that caches compiled rules per field list.

How a review is labelled (see ``docs/offline_extractor.md``):

1. The review is cut into sentences; tokens carry negation marks and irrealis marks (conditional, modal, habitual,
   "another place", figurative clauses), and sentences carry flags for first person, reported speech, third-party
   people and speaker attitude (:mod:`~dinecheck.extract.offline_cues`).
2. A *content* value fires in a sentence that holds one of the value's distinctive concepts outside irrealis clauses
   when its window (the sentence ± :data:`WINDOW` sentences) mentions the domain and the field's topic (a listed
   example suffices for the topic) and evidences every clause of the description (and every emphasized word), with
   at least as many distinctive concepts as the description has clauses; participant words ("customer") are no
   evidence. A clause concept that is another content field's topic is also evidenced where that field fired (a
   second pass: "customer still had reaction" ← the field about reactions found stomach cramps). Of the values that
   fire, the one with most distinctive concepts wins; ties go to the value declared later.
3. A *perspective* field (values about who experienced something) looks at the *events*: sentences where a related
   field fired or its own topic is mentioned. Reported speech or an anonymous third party → the "reported" value;
   otherwise → the "self" value; no event but a concern voiced near the domain → the "irrealis" value.
4. Nothing fired → the field's null value (``none`` or the value whose description is a negation). A field without a
   null value where nothing fired makes the review ``invalid`` — a value is never invented.

Every non-null value carries the sentence that fired, sliced verbatim from the review (``verified=True``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dinecheck.extract.base import Evidence, ExtractionResult, ExtractionStats, FieldSpec, ReviewInput
from dinecheck.extract.offline_cues import MAX_TEXT_CHARS, Sentence, split_sentences
from dinecheck.extract.offline_rules import Concept, FieldRule, Perspective, Rules, ValueRule, compile_rules

WINDOW = 2
_MAX_CACHED_RULES = 32

__all__ = ["OfflineExtractor", "label_review", "WINDOW"]


@dataclass(frozen=True, slots=True)
class _Fire:
    value: ValueRule
    score: int
    sentences: tuple[int, ...]
    best: int  # the sentence quoted as evidence


class _Matcher:
    """Memoised concept-in-sentence matching for one review."""

    def __init__(self, sentences: list[Sentence], domain: Sequence[Concept]) -> None:
        self.s = sentences
        self.n = len(sentences)
        self._memo: dict[tuple[int, int, bool], bool] = {}
        self.domain_at = [not domain or any(self.at(c, i) for c in domain) for i in range(self.n)]

    def at(self, concept: Concept, i: int, realis: bool = False) -> bool:
        key = (id(concept), i, realis)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = concept.match(self.s[i], realis)
        return hit

    def window(self, i: int, width: int = WINDOW) -> range:
        return range(max(0, i - width), min(self.n, i + width + 1))

    def near(self, concepts: Iterable[Concept], i: int, width: int = WINDOW, realis: bool = False) -> bool:
        cs = tuple(concepts)
        return any(self.at(c, j, realis) for j in self.window(i, width) for c in cs)

    def domain_near(self, i: int, width: int = WINDOW) -> bool:
        return any(self.domain_at[j] for j in self.window(i, width))

    def anywhere(self, concepts: Iterable[Concept], realis: bool = False) -> bool:
        cs = tuple(concepts)
        return any(self.at(c, j, realis) for j in range(self.n) for c in cs)


Related = dict[str, frozenset[int]]  # concept key → sentences where another field found what the concept names


def _fire_content(f: FieldRule, v: ValueRule, m: _Matcher, related: Related | None = None) -> _Fire | None:
    """Where value ``v`` fires (see the module docstring). ``related`` evidences a concept that is another field's
    topic wherever that field fired ("customer still had reaction" ← the field about reactions found one)."""
    evidence = tuple(c for c in v.distinctive if not c.role)
    if not evidence:
        return None
    rel = related or {}

    def near(c: Concept, i: int) -> bool:
        if m.near((c,), i, realis=True):
            return True
        hits = rel.get(c.key)
        return hits is not None and not hits.isdisjoint(m.window(i))

    union: set[tuple[str, bool]] = set()
    hits: list[int] = []
    best, best_n = -1, 0
    need = max(1, len(v.clauses))
    for i in range(m.n):
        if not m.domain_near(i) or not any(m.at(c, i, True) for c in evidence):
            continue
        example_here = any(m.at(c, i, True) for c in v.examples)  # a quoted/listed example is specific enough
        if f.gate and not example_here and not m.near(f.gate, i):  # e.g. a staff word for a staff-interaction field
            continue
        if not all(any(near(c, i) for c in cl.concepts if not c.role) for cl in v.clauses):
            continue
        if not all(near(c, i) for c in v.required):
            continue
        found = {c.ident for c in evidence if near(c, i)}
        if len(found) < need:
            continue
        if v.absent and m.anywhere(v.absent, realis=True):
            continue
        union |= found
        hits.append(i)
        if len(found) > best_n:
            best, best_n = i, len(found)
    if not hits:
        return None
    return _Fire(v, len(union), tuple(hits), best)


def _related(f: FieldRule, rules: Rules, all_fires: dict[str, list[_Fire]]) -> Related:
    """For the clause concepts of ``f`` that are another content field's topic: where that field fired."""
    wanted = {c.key for v in f.values for cl in v.clauses for c in cl.concepts}
    out: dict[str, set[int]] = {}
    for g in rules.fields:
        if g is f or g.is_perspective or not all_fires.get(g.name):
            continue
        sentences = {i for fi in all_fires[g.name] for i in fi.sentences}
        for c in g.topic:
            if c.key in wanted:
                out.setdefault(c.key, set()).update(sentences)
    return {k: frozenset(v) for k, v in out.items()}


def _choose(fires: list[_Fire]) -> _Fire | None:
    return max(fires, key=lambda fi: (fi.score, fi.value.index), default=None)


def _alt_words(concepts: Iterable[Concept]) -> set[str]:
    return {w for c in concepts for a in c.alts for w in a.words}


_EVENT_KINDS: tuple[Perspective, ...] = ("self", "reported")


def _perspective_kind(m: _Matcher, i: int) -> Perspective:
    s = m.s[i]
    if s.reported or (s.third_party and not s.first_person):
        return "reported"
    if i > 0 and m.s[i - 1].reported and not s.first_person:
        return "reported"
    if i + 1 < m.n and m.s[i + 1].reported and not s.subject_first_person:
        return "reported"  # "My coworker ended up at the hospital. Apparently the brownie wasn't nut-free."
    return "self"  # reviews narrate the reviewer's own visit unless a report or a third party says otherwise


def _fire_perspective(f: FieldRule, rules: Rules, all_fires: dict[str, list[_Fire]], m: _Matcher) -> _Fire | None:
    own = _alt_words(f.topic)
    events: set[int] = set()
    for g in rules.fields:
        if g is f or g.is_perspective:
            continue
        if own and not own & _alt_words(g.topic):
            continue
        for fire in all_fires.get(g.name, []):
            events.update(fire.sentences)
    if f.topic:
        events.update(i for i in range(m.n) if m.domain_at[i] and m.near(f.topic, i, 0, realis=True))
    if events:
        kinds = {i: _perspective_kind(m, i) for i in sorted(events)}
        for kind in _EVENT_KINDS:
            v = f.value(kind)
            hits = tuple(i for i, k in kinds.items() if k == kind)
            if v is not None and hits:
                return _Fire(v, len(hits), hits, hits[0])
        return None
    v = f.value("irrealis")
    if v is None:
        return None
    concern = tuple(c for cl in v.clauses for c in cl.concepts) + ((v.name_concept,) if v.name_concept else ())
    hits = tuple(
        i for i in range(m.n) if m.s[i].speaker_attitude and any(m.at(c, i) for c in concern) and m.domain_near(i, 1)
    )
    if v.absent and m.anywhere(v.absent, realis=True):
        return None
    return _Fire(v, len(hits), hits, hits[0]) if hits else None


def label_review(rules: Rules, review: ReviewInput) -> ExtractionResult:
    """Label one review with every field of ``rules`` (pure and deterministic)."""
    text = review.text[:MAX_TEXT_CHARS]
    m = _Matcher(split_sentences(text), rules.domain)
    all_fires: dict[str, list[_Fire]] = {}
    for f in rules.fields:
        if not f.is_perspective:
            all_fires[f.name] = [fi for v in f.values if (fi := _fire_content(f, v, m)) is not None]
    for f in rules.fields:  # second pass: a clause may be evidenced by what another field found
        if f.is_perspective:
            continue
        related = _related(f, rules, all_fires)
        if related:
            all_fires[f.name] = [fi for v in f.values if (fi := _fire_content(f, v, m, related)) is not None]
    values: dict[str, str] = {}
    evidence: dict[str, Evidence] = {}
    for f in rules.fields:
        if f.is_perspective:
            chosen = _fire_perspective(f, rules, all_fires, m)
            if chosen is None:  # values of a perspective field without a perspective kind match by content
                plain = [v for v in f.values if not v.perspective]
                chosen = _choose([fi for v in plain if (fi := _fire_content(f, v, m)) is not None])
        else:
            chosen = _choose(all_fires[f.name])
        if chosen is not None:
            values[f.name] = chosen.value.name
            s = m.s[chosen.best]
            evidence[f.name] = Evidence(quote=text[s.start : s.end], verified=True)
        elif f.null is not None:
            values[f.name] = f.null
        else:
            return ExtractionResult(
                review.business_id,
                review.review_id,
                "invalid",
                error=f"field {f.name!r}: no cue fired and no value means 'none'; the offline extractor cannot choose",
            )
    return ExtractionResult(review.business_id, review.review_id, "ok", values, evidence)


class OfflineExtractor:
    """Deterministic rule-based extractor built from the seed's field descriptions alone (no network, no model)."""

    name = "offline"

    def __init__(self) -> None:
        self.stats = ExtractionStats()
        self._rules: dict[str, Rules] = {}

    def rules_for(self, fields: Sequence[FieldSpec]) -> Rules:
        key = json.dumps([f.model_dump() for f in fields], sort_keys=True)
        rules = self._rules.get(key)
        if rules is None:
            if len(self._rules) >= _MAX_CACHED_RULES:
                self._rules.clear()
            rules = self._rules[key] = compile_rules(fields)
        return rules

    def extract(self, fields: Sequence[FieldSpec], reviews: Sequence[ReviewInput]) -> list[ExtractionResult]:
        rules = self.rules_for(fields)
        out = [label_review(rules, r) for r in reviews]
        self.stats.reviews += len(out)
        return out

    def close(self) -> None:
        self._rules.clear()
