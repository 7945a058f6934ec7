"""The offline extractor: deterministic, network-free labels driven by the seed's value descriptions; it abstains.

:func:`label_review` is the pure core (rules + one review → one :class:`ExtractionResult`); :class:`OfflineExtractor`
is the thin :class:`~dinecheck.extract.base.Extractor` around it that caches compiled rules per field list.

Precision first (see ``docs/offline_extractor.md``): a non-null value needs explicit evidence in one sentence (its
clauses may be evidenced in the adjacent ones) near a mention of the domain; otherwise the field gets its null value.
Every non-null value carries the sentence that fired (a verbatim slice, ``verified=True``) and the cue that fired
(``Evidence.cue``: the cue's words and its source — value name, example, description word or lexicon entry).

* a **subject** field takes the value whose strong cues (value name, listed kinds) the review mentions most — any
  polarity ("no gluten-free options" still talks about gluten-free eating), ingredient words only next to the domain;
  the catch-all value ("another diet … not covered") takes a domain mention that names no kind;
* a **content** field fires a value in a sentence that holds one of its distinctive cues outside irrealis clauses,
  with the domain in the sentence or an adjacent one, the field's gate (a participant) near, every clause of that
  alternative evidenced near, and no figurative marker; the value with most firing sentences wins (ties: the later);
* a **perspective** field looks at the *events* (the subject field's mentions, else the sentences where a related
  content field fired): reported speech → reported; the speaker with a verb of eating/ordering, a copula or a
  companion → self; otherwise general (or self when the seed has no general value). No event but a concern word
  voiced by the speaker or to the reader next to the domain → the hypothetical value.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from dinecheck.extract.base import Evidence, ExtractionResult, ExtractionStats, FieldSpec, ReviewInput
from dinecheck.extract.offline_lexicon import Lexicon, load_lexicon
from dinecheck.extract.offline_rules import Cue, FieldRule, Rules, ValueRule, compile_rules
from dinecheck.extract.offline_text import MAX_TEXT_CHARS, NEGATORS, Sentence, split_sentences

WINDOW = 1
VERSION = "2"
_MAX_CACHED_RULES = 32
_COPULA = frozenset({"i'm", "im", "am", "we're", "as"})  # the speaker is (one of) …
_HAVE = frozenset({"have", "has", "i've", "with"})  # "I have a nut allergy", "as someone with celiac"
_VOICE = {  # the "cue" of a perspective value: the voice of the event sentences
    "self": Cue(("I",), False, "the speaker's party", "voice: first person eating, ordering or stating the need"),
    "reported": Cue(("they",), False, "others", "voice: reported speech or hearsay"),
    "general": Cue(("menu",), False, "the place", "voice: an affirmative statement about what the place offers"),
    "condition": Cue(("I",), False, "the speaker", "voice: the speaker states the condition, no event"),
}

__all__ = ["OfflineExtractor", "label_review", "WINDOW", "VERSION"]


@dataclass(frozen=True, slots=True)
class Fire:
    value: ValueRule
    score: int
    sentences: tuple[int, ...]
    best: int  # the sentence quoted as evidence
    cue: Cue


class _Review:
    """One review's sentences with memoised cue matching."""

    def __init__(self, sentences: list[Sentence], rules: Rules) -> None:
        self.s = sentences
        self.n = len(sentences)
        self._memo: dict[tuple[int, int, bool, bool], int | None] = {}
        self.domain_cues = rules.domain
        self.mentions = rules.mentions
        # no domain (a seed whose fields share no subject): every sentence may evidence a value
        self.domain_at = [self._domain(i, rules) if rules.mentions else True for i in range(self.n)]

    def find(self, cue: Cue, i: int, *, any_polarity: bool = False, realis: bool = False) -> int | None:
        if cue.words[0] not in self.s[i].index:
            return None  # the common case, decided without the memo
        key = (id(cue), i, any_polarity, realis)
        if key not in self._memo:
            self._memo[key] = cue.find(self.s[i], any_polarity=any_polarity, realis=realis)
        return self._memo[key]

    def mention_starts(self, i: int) -> list[int]:
        """Word positions in sentence ``i`` where a mention of the domain or of a kind of it starts."""
        index = self.s[i].index
        out = []
        for word in index.keys() & self.mentions.keys():
            for c in self.mentions[word]:
                p = self.find(c, i, any_polarity=True)
                if p is not None:
                    out.append(p)
        return out

    def _domain(self, i: int, rules: Rules) -> bool:
        """A mention of the domain or of a kind of the subject (outside phrases the null value lists)."""
        index = self.s[i].index
        for word in index.keys() & rules.mentions.keys():
            for c in rules.mentions[word]:
                if self.find(c, i, any_polarity=True) is not None:
                    return True
        return False

    def window(self, i: int) -> range:
        return range(max(0, i - WINDOW), min(self.n, i + WINDOW + 1))

    def near(self, cues: Sequence[Cue], i: int, realis: bool = True) -> Cue | None:
        for j in self.window(i):
            for c in cues:
                if self.find(c, j, realis=realis) is not None:
                    return c
        return None

    def domain_near(self, i: int) -> bool:
        return any(self.domain_at[j] for j in self.window(i))


def _subject_cues(v: ValueRule) -> tuple[Cue, ...]:
    return v.examples  # for a subject field: name, listed kinds and lexicon words (see compile_rules)


def _masked(r: _Review, masks: Sequence[Cue], i: int, pos: int) -> bool:
    """Whether word ``pos`` of sentence ``i`` lies inside a phrase the null value lists ("veggie pizza")."""
    for m in masks:
        start = r.find(m, i, any_polarity=True)
        if start is not None and start <= pos <= start + len(m.words) + 2:
            return True
    return False


def _fire_subject(f: FieldRule, r: _Review) -> Fire | None:
    best: Fire | None = None
    first_seen: dict[str, int] = {}
    for v in f.values:
        hits: list[int] = []
        cue_hit: Cue | None = None
        count = 0
        for i in range(r.n):
            if r.s[i].figurative:
                continue
            firsts = v.first_words.intersection(r.s[i].index)
            if not firsts:
                continue
            for c in (c for c in _subject_cues(v) if c.words[0] in firsts):
                if c.weak and not r.domain_at[i]:
                    continue
                pos = r.find(c, i, any_polarity=True)
                if pos is not None and not (f.masks and _masked(r, f.masks, i, pos)):
                    count += 1
                    if not hits or hits[-1] != i:
                        hits.append(i)
                    cue_hit = cue_hit or c
        if hits and cue_hit is not None:
            first_seen[v.name] = hits[0]
            fire = Fire(v, count, tuple(hits), hits[0], cue_hit)
            if best is None or (count, -hits[0]) > (best.score, -first_seen[best.value.name]):
                best = fire
    if best is None:
        catch = next((v for v in f.values if v.catch_all), None)
        hits = [i for i in range(r.n) if r.domain_at[i] and not r.s[i].figurative]
        if catch is not None and hits:
            cue = next(c for c in _domain_cues_of(r, hits[0]))
            return Fire(catch, len(hits), tuple(hits), hits[0], cue)
    return best


def _domain_cues_of(r: _Review, i: int) -> list[Cue]:
    return [c for c in r.domain_cues if r.find(c, i, any_polarity=True) is not None] or list(r.domain_cues)


def _fire_content(f: FieldRule, v: ValueRule, r: _Review) -> Fire | None:
    hits: list[int] = []
    cue_hit: Cue | None = None
    score = 0
    for i in range(r.n):
        s = r.s[i]
        if s.figurative or s.question or v.first_words.isdisjoint(s.index) or not r.domain_near(i):
            continue
        if f.gate and r.near(f.gate, i, realis=False) is None:
            continue
        anchor: Cue | None = None
        for a in v.alternatives:
            anchor = next((c for cl in a.clauses for c in cl if r.find(c, i, realis=True) is not None), None)
            if anchor is None:
                continue
            if all(r.near(cl, i) is not None for cl in a.clauses):
                break
            anchor = None
        if anchor is None:
            anchor = next((c for c in v.examples if r.find(c, i, realis=True) is not None), None)
            if anchor is None:
                continue
        if any(c.weak for c in (anchor,)) and not r.domain_at[i]:
            continue
        if v.required and not all(r.near(group, i) is not None for group in v.required):
            continue
        if v.absent and any(r.find(c, j, realis=True) is not None for c in v.absent for j in range(r.n)):
            continue
        hits.append(i)
        score += 2 if r.domain_at[i] else 1  # evidence next to the domain counts less than evidence with it
        cue_hit = cue_hit or anchor
    if not hits or cue_hit is None:
        return None
    return Fire(v, score, tuple(hits), hits[0], cue_hit)


def _self_voice(r: _Review, i: int, lex: Lexicon) -> bool:
    """The speaker's party eats or orders ("I ordered", "we had") or states the need: a copula right before a mention
    of the domain or a kind of it ("I'm vegan", "I am celiac", "as a vegetarian")."""
    s = r.s[i]
    if not s.first_person:
        return False
    if s.subject_first_person and any(t.lemma in lex.classes["consume"] for t in s.words):
        return True
    starts = r.mention_starts(i)
    return any(t.lower in _COPULA and any(p < q <= p + 3 for q in starts) for p, t in enumerate(s.words))


def _menu_statement(s: Sentence, lex: Lexicon) -> bool:
    """An affirmative statement about what the place offers, told by nobody in particular: "Lots of vegan options"."""
    return (
        not s.first_person
        and not s.addressed
        and not any(t.negated or t.lower in NEGATORS or t.lower.endswith("n't") for t in s.words)
        and any(t.lemma in lex.classes["menu"] for t in s.words)
    )


def _consumes(s: Sentence, lex: Lexicon) -> bool:
    """The speaker's party eats or orders: "I ordered", "we had"."""
    return s.subject_first_person and any(t.lemma in lex.classes["consume"] for t in s.words)


def _classify_events(f: FieldRule, events: list[int], r: _Review, lex: Lexicon) -> Fire | None:
    """Whose experience the event sentences tell: reported speech → reported; the speaker's party stating the need
    or eating in the sentence → self; a statement about the menu in a review that narrates no meal of the speaker's
    party → general; otherwise abstain."""
    kinds: dict[str, list[int]] = {}
    general = f.value("general")
    for i in events:
        s = r.s[i]
        own = next((v for v in f.values if v.perspective and any(r.find(c, i) is not None for c in v.examples)), None)
        if own is not None and own.perspective is not None:  # the value's own example: "my celiac daughter"
            kinds.setdefault(own.perspective, []).append(i)
        elif s.reported or (i > 0 and r.s[i - 1].reported and not s.first_person):
            kinds.setdefault("reported", []).append(i)
        elif _self_voice(r, i, lex) or general is None or any(_consumes(r.s[j], lex) for j in r.window(i)):
            kinds.setdefault("self", []).append(i)
        elif general is not None and _menu_statement(s, lex):
            kinds.setdefault("general", []).append(i)
        else:
            kinds.setdefault("undecided", []).append(i)
    visit = any(_consumes(s, lex) for s in r.s)
    order = ("self", "reported") if visit else ("self", "reported", "general")
    for kind in order:
        v = f.value(kind)  # type: ignore[arg-type]
        hits = kinds.get(kind)
        if v is not None and hits:
            return Fire(v, len(hits), tuple(hits), hits[0], _VOICE[kind])
    v = f.value("self")
    rest = kinds.get("undecided")
    if visit and v is not None and rest:  # a kind of the subject in a review narrating the speaker's own meal
        return Fire(v, len(rest), tuple(rest), rest[0], _VOICE["self"])
    return None  # abstain: the review does not say whose experience it is


def _related_events(f: FieldRule, rules: Rules, fires: dict[str, Fire | None], lex: Lexicon) -> set[int]:
    """Sentences where a content field about the same events fired: their topics share a word or a synonym
    ("No *incident* mentioned" ~ "No allergic *reaction* described")."""
    own = {w for c in f.topic for w in c.words}
    for c in f.topic:
        own.update(w for syn in lex.expansions(c.concept) for w in syn.lower().split())
    events: set[int] = set()
    for g in rules.fields:
        fire = fires.get(g.name)
        if g is f or g.kind != "content" or fire is None:
            continue
        if own & {w for c in g.topic for w in c.words}:
            events.update(fire.sentences)
    return events


def _fire_perspective(f: FieldRule, rules: Rules, fires: dict[str, Fire | None], r: _Review, lex: Lexicon) -> Fire | None:
    subject = next((g for g in rules.fields if g.kind == "subject"), None)
    if subject is not None:
        sf = fires.get(subject.name)
        events = set(sf.sentences) if sf is not None else set()
    else:
        events = _related_events(f, rules, fires, lex)
    if events:
        return _classify_events(f, sorted(events), r, lex)
    v = f.value("irrealis")
    if v is None or subject is not None:
        return None
    concern = tuple(c for a in v.alternatives for cl in a.clauses for c in cl) + v.examples
    for i in range(r.n):
        s = r.s[i]
        if not r.domain_at[i] or not (s.first_person or s.addressed or s.reported):
            continue
        c = next((c for c in concern if r.find(c, i) is not None), None)
        if c is not None:
            return Fire(v, 1, (i,), i, c)
    for i in range(r.n):  # the speaker has the condition ("I have a nut allergy", "I'm allergic") and nothing happened
        if r.domain_at[i] and not r.s[i].question and _states_condition(r, i):
            return Fire(v, 1, (i,), i, _VOICE["condition"])
    return None


def _states_condition(r: _Review, i: int) -> bool:
    """"I have / I'm / as someone with" right before a mention of the domain, outside irrealis clauses."""
    s = r.s[i]
    if not s.subject_first_person:
        return False
    starts = [p for p in r.mention_starts(i) if not s.words[p].irrealis and not s.words[p].negated]
    return any(
        (t.lower in _COPULA or t.lower in _HAVE) and any(p < q <= p + 3 for q in starts) for p, t in enumerate(s.words)
    )


def label_review(rules: Rules, review: ReviewInput) -> ExtractionResult:
    """Label one review with every field of ``rules`` (pure and deterministic); each non-null value's evidence names
    the cue that fired and where the cue came from."""
    lex = rules.lexicon or load_lexicon()
    text = review.text[:MAX_TEXT_CHARS]
    r = _Review(split_sentences(text), rules)
    fires: dict[str, Fire | None] = {}
    for f in rules.fields:
        if f.kind == "subject":
            fires[f.name] = _fire_subject(f, r)
    for f in rules.fields:
        if f.kind == "content":
            cands = [fi for v in f.values if (fi := _fire_content(f, v, r)) is not None]
            fires[f.name] = max(cands, key=lambda fi: (fi.score, fi.value.index), default=None)
    for f in rules.fields:
        if f.kind == "perspective":
            fires[f.name] = _fire_perspective(f, rules, fires, r, lex)
    values: dict[str, str] = {}
    evidence: dict[str, Evidence] = {}
    for f in rules.fields:
        fire = fires.get(f.name)
        if fire is not None:
            values[f.name] = fire.value.name
            s = r.s[fire.best]
            cue = f"{fire.cue.label()} ({fire.cue.source})"
            evidence[f.name] = Evidence(quote=text[s.start : s.end], verified=True, cue=cue)
        elif f.null is not None:
            values[f.name] = f.null
        else:
            err = f"field {f.name!r}: no cue fired and no value means 'none'; the offline extractor cannot choose"
            return ExtractionResult(review.business_id, review.review_id, "invalid", error=err)
    return ExtractionResult(review.business_id, review.review_id, "ok", values, evidence)


class OfflineExtractor:
    """Deterministic rule-based extractor built from the seed's field descriptions alone (no network, no model)."""

    name = "offline"
    version = VERSION

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
        out = [label_review(rules, rv) for rv in reviews]
        self.stats.reviews += len(out)
        return out

    def close(self) -> None:
        self._rules.clear()
