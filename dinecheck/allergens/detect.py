"""Detection of profile allergens from resolved tokens and risk phrases (stage 4). Owns :class:`Finding`.

* A matched token contributes every allergen of every canonical ingredient its key names, through compound
  expansion (:meth:`Ontology.allergen_paths`: a part's DEFINITE becomes DERIVED for the compound), with the path
  ``token → canonical → compound part(s) → allergen``.
* A token read as several names (rule ``segmented``) contributes its parts' allergens held at POSSIBLE.
* A token that did not resolve contributes, at POSSIBLE level at most (source ``"unknown"``), the allergens of the
  whole-word n-grams inside it that resolve (:func:`~dinecheck.allergens.normalize.word_hints`); it is unknown, so
  the label is VERIFY anyway — the finding says which allergen the unknown text may carry.
* A risk phrase contributes its level for the allergens its list names; a generic phrase (no allergen named, or an
  item it could not resolve) contributes its level for EVERY profile allergen.
* Ingredient findings inside an absence claim's list (``PhraseScan.capped``) are held at POSSIBLE.
* Only profile allergens are reported; per allergen the finding with the highest level is kept (DEFINITE > DERIVED >
  POSSIBLE > TRACE), the earliest one in the text on a tie.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from dinecheck.allergens.normalize import Resolution, vague, word_hints
from dinecheck.allergens.ontology import ALLERGEN_CODES, Ontology, RiskLevel
from dinecheck.allergens.phrases import PhraseHit


@dataclass(frozen=True, slots=True)
class Finding:
    """One profile allergen found on a label, with the evidence: ``source`` is ``"ingredient"`` or ``"phrase"``;
    ``token`` the label text that triggered it; ``span`` its position in the raw text; ``path`` the chain
    synonym → canonical → compound part(s) → allergen code; ``explanation`` one human sentence."""

    code: str
    level: RiskLevel
    source: str
    token: str
    span: tuple[int, int] | None  # None for a finding from the product's declaration (not in the text)
    path: tuple[str, ...]
    explanation: str
    # every piece of evidence for this allergen, this one included: (token, span, level, source), in text order
    sources: tuple[tuple[str, tuple[int, int] | None, RiskLevel, str], ...] = ()

    def all_sources(self) -> tuple[tuple[str, tuple[int, int] | None, RiskLevel, str], ...]:
        return self.sources or ((self.token, self.span, self.level, self.source),)

    def to_json(self) -> dict[str, Any]:
        """The contract's ``{code, level, source, token, span}``; with more than one piece of evidence also
        ``sources`` (every token that triggered this allergen, in text order)."""
        out: dict[str, Any] = {"code": self.code, "level": self.level.value, "source": self.source, "token": self.token,
               "span": list(self.span) if self.span is not None else None}  # fmt: skip
        if len(self.sources) > 1:
            out["sources"] = [{"token": t, "span": list(sp) if sp is not None else None, "level": lv.value,
                               "source": src} for t, sp, lv, src in self.sources]  # fmt: skip
        return out


# the allergens every major labelling law makes a compound ingredient declare (the US major food allergens, all on
# the EU list too): only these may be settled by a declared composition. Celery, mustard, lupin, molluscs and
# sulphites are not US major allergens — a US label may list "spices (paprika, cumin)" and say nothing of celery —
# so a name's POSSIBLE celery or mustard stays whatever the brackets say
DECLARED_EVERYWHERE = frozenset({"PEANUT", "TREE_NUTS", "MILK", "EGG", "GLUTEN", "WHEAT", "SOY", "SESAME", "FISH",
                                 "SHELLFISH"})  # fmt: skip


def ingredient_findings(
    resolutions: Iterable[Resolution],
    profile: Collection[str],
    ontology: Ontology,
    capped: Collection[tuple[int, int]] = (),
    declared: Collection[int] = (),
) -> list[Finding]:
    """The best ingredient finding per profile allergen (highest level, earliest span on a tie). Candidates are
    compared first and only the winners are built (their explanations are the costly part). ``declared`` holds the
    indexes of names whose components the label lists (:mod:`compound`): what such a name only *may* carry (a
    POSSIBLE path of its own, for an allergen of :data:`DECLARED_EVERYWHERE`) is settled by those components; its
    definite allergens stay."""
    best: dict[str, tuple[int, tuple[int, int], tuple]] = {}
    seen: dict[str, dict[tuple[int, int], tuple[str, RiskLevel, str]]] = {}  # code → span → (token, level, source)
    paths_of = ontology.allergen_paths
    for n, res in enumerate(resolutions):
        tok = res.token
        span = tok.span
        synonyms = res.synonyms
        if synonyms and n in declared:
            # a name known only as a name (OFF, composition unknown) whose components the label lists says no more
            # than an unknown name: only the allergen words inside it count
            synonyms = tuple(s for s in synonyms if not vague(s, ontology))
        if not synonyms:
            if res.rule != "note":
                for gram, syns in word_hints(tok.key, ontology):
                    for syn in syns:
                        for path in paths_of(syn.canonical_id):
                            code = path.code
                            if code in profile:
                                rank = _RANKS[path.level]
                                level = path.level if rank < _POSSIBLE_RANK else RiskLevel.POSSIBLE
                                rank = _RANKS[level]
                                _note(seen, code, span, tok.text, level, "unknown")
                                cur = best.get(code)
                                if cur is None or rank > cur[0] or (rank == cur[0] and span < cur[1]):
                                    best[code] = (rank, span, ("unknown", res, gram, path, level, False))
            continue
        held = bool(capped) and any(a <= span[0] and span[1] <= b for a, b in capped)
        cap = res.rule == "segmented" or held  # a guessed reading, or an item of an absence claim: POSSIBLE at most
        settled = n in declared  # its components are listed: they settle what the name alone may carry
        for syn in synonyms:
            for path in paths_of(syn.canonical_id):
                code = path.code
                if code not in profile:
                    continue
                level = path.level
                if settled and level is RiskLevel.POSSIBLE and code in DECLARED_EVERYWHERE:
                    continue
                rank = _RANKS[level]
                if cap and rank > _POSSIBLE_RANK:
                    level = RiskLevel.POSSIBLE
                    rank = _POSSIBLE_RANK
                _note(seen, code, span, tok.text, level, "ingredient")
                cur = best.get(code)
                if cur is None or rank > cur[0] or (rank == cur[0] and span < cur[1]):
                    best[code] = (rank, span, ("ingredient", res, syn, path, level, held))
    out = []
    for code, (_rank, _span, how) in best.items():
        f = _build(*how)
        found = seen.get(code, {})
        if len(found) > 1:
            f = _with_sources(f, tuple((t, sp, lv, src) for sp, (t, lv, src) in sorted(found.items())))
        out.append(f)
    return out


def _with_sources(f: Finding, sources: tuple) -> Finding:
    return Finding(f.code, f.level, f.source, f.token, f.span, f.path, f.explanation, sources)


def _note(seen: dict, code: str, span: tuple[int, int], token: str, level: RiskLevel, source: str) -> None:
    """Remember one piece of evidence (the strongest per span)."""
    per = seen.setdefault(code, {})
    cur = per.get(span)
    if cur is None or level.rank > cur[1].rank:
        per[span] = (token, level, source)


_RANKS = {level: level.rank for level in RiskLevel}
_POSSIBLE_RANK = RiskLevel.POSSIBLE.rank


def _build(source: str, res: Resolution, what, path, level: RiskLevel, held: bool) -> Finding:
    tok = res.token
    chain = " → ".join(path.path)
    if source == "unknown":
        return Finding(path.code, level, "unknown", tok.text, tok.span, (what, *path.path, path.code),
                       f"the unknown ingredient {tok.text!r} contains the word(s) {what!r} → {chain}")  # fmt: skip
    syn = what
    via = f" (rule: {res.rule})" if res.rule not in (None, "exact") else ""
    named = "" if tok.key == syn.key else f" = {syn.text!r}"
    note = " — held at POSSIBLE: it is listed in an absence claim" if held and path.level is not level else ""
    return Finding(path.code, level, "ingredient", tok.text, tok.span, (syn.text, *path.path, path.code),
                   f"{tok.text!r}{named}{via} → {chain}{note}")  # fmt: skip


# a statement naming one of these names the other too (GLUTEN stands for wheat on many labels; crustaceans and
# molluscs are both "shellfish")
EQUIVALENTS: dict[str, frozenset[str]] = {
    "GLUTEN": frozenset({"WHEAT"}), "WHEAT": frozenset({"GLUTEN"}),
    "SHELLFISH": frozenset({"MOLLUSCS"}), "MOLLUSCS": frozenset({"SHELLFISH"}),
}  # fmt: skip


def names_profile(hit: PhraseHit, profile: Collection[str]) -> bool:
    """Whether a risk statement concerns the profile: it is generic (names nothing, or something unreadable) or it
    names a profile allergen or an equivalent of one. A statement naming only other allergens does not."""
    if hit.generic:
        return True
    named = set(hit.allergens)
    return any(c in named or named & EQUIVALENTS.get(c, frozenset()) for c in profile)


def phrase_findings(hits: Iterable[PhraseHit], profile: Collection[str]) -> list[Finding]:
    out: list[Finding] = []
    for hit in hits:
        named = [c for c in profile if c in hit.allergens or set(hit.allergens) & EQUIVALENTS.get(c, frozenset())]
        generic = [c for c in profile if c not in named] if hit.generic else []
        for code in named:
            if code in hit.allergens:
                out.append(Finding(code, hit.level, "phrase", hit.phrase, hit.span, (hit.phrase, code),
                                   f"the label says {hit.phrase!r} naming {code}"))  # fmt: skip
                continue
            level = hit.level if hit.level.rank <= RiskLevel.POSSIBLE.rank else RiskLevel.POSSIBLE
            other = ", ".join(sorted(set(hit.allergens) & EQUIVALENTS[code]))
            out.append(Finding(code, level, "phrase", hit.phrase, hit.span, (hit.phrase, other, code),
                               f"the label says {hit.phrase!r} naming {other}, which may stand for {code}"))  # fmt: skip
        for code in generic:
            why = (f"it names something unreadable ({', '.join(repr(u) for u in hit.unresolved)})" if hit.unresolved
                   else "it names no allergen")  # fmt: skip
            out.append(Finding(code, hit.level, "phrase", hit.phrase, hit.span, (hit.phrase, code),
                               f"the label says {hit.phrase!r} and {why}, "
                               f"so it applies to every profile allergen"))  # fmt: skip
    return out


def _pos(f: Finding) -> tuple[int, int]:
    return f.span if f.span is not None else (1 << 62, 0)  # on a tie, text evidence (with a span) wins


def dedupe(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """Highest level per allergen (earliest span on a tie), in level then allergen-code order."""
    best: dict[str, Finding] = {}
    evidence: dict[str, list[Finding]] = {}
    for f in findings:
        evidence.setdefault(f.code, []).append(f)
        cur = best.get(f.code)
        if cur is None:
            best[f.code] = f
            continue
        rank, cur_rank = _RANKS[f.level], _RANKS[cur.level]
        if rank > cur_rank or (f.level is cur.level and _pos(f) < _pos(cur)):
            best[f.code] = f
    for code, fs in evidence.items():
        if len(fs) > 1:
            merged: dict[tuple, tuple] = {}
            for f in fs:
                for t, sp, lv, src in f.all_sources():
                    k = (sp if sp is not None else (1 << 62, 0), src, t)
                    if k not in merged or lv.rank > merged[k][2].rank:
                        merged[k] = (t, sp, lv, src)
            best[code] = _with_sources(best[code], tuple(merged[k] for k in sorted(merged)))
    return tuple(sorted(best.values(), key=lambda f: (-_RANKS[f.level], _ORDER.get(f.code, 99))))


_ORDER = {c: i for i, c in enumerate(ALLERGEN_CODES)}


def detect(
    resolutions: Iterable[Resolution],
    hits: Iterable[PhraseHit],
    profile: Collection[str],
    ontology: Ontology,
    capped: Collection[tuple[int, int]] = (),
    declared: Collection[int] = (),
) -> tuple[Finding, ...]:
    profile = frozenset(profile)
    return dedupe([*ingredient_findings(resolutions, profile, ontology, capped, declared),
                   *phrase_findings(hits, profile)])  # fmt: skip
