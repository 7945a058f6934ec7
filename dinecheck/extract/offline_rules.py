"""Compile a seed's enum field specs into cue rules for the offline extractor (pure; no text is read here).

From each value *description* alone (plus the value name) it derives:

* **concepts** — content words (stop words dropped, stemmed), quoted phrases and the items of parenthesised example
  lists, each expanded with :data:`~dinecheck.extract.offline_cues.THESAURUS`; a word negated in the description
  ("refused to *accommodate*") becomes a *negative* concept that only matches negated text;
* **clauses** — the description split at ``AND`` / ``BUT`` / ``;``: every clause must be evidenced near the sentence;
  a ``without …`` part becomes an *absent* clause;
* the **null value** — named ``none`` (or ``no``/``null``/…) or whose description starts with a negation
  ("No …", "Not mentioned"); its remaining words are the field's **topic**;
* **distinctive** concepts — those of a value that neither the field's topic nor any sibling value share;
  participant concepts ("staff", "customer") name who took part and never evidence a clause on their own;
* **required** concepts — words the description emphasizes in capitals ("Staff CLAIMED safe") must be evidenced;
* **perspective** values — descriptions that speak of reports/hearsay ("heard", "told"), of concerns/hypotheses, or
  of personal experience ("I", "my", "personal") make the field a *perspective* field that qualifies the events found
  by the other fields instead of matching content words;
* the **domain** — concepts shared by the topics/values of at least two fields (the subject all fields are
  about); no value fires unless the domain is mentioned near it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from dinecheck.extract.base import FieldSpec
from dinecheck.extract.offline_cues import (
    COMPANIONS,
    ROLE_WORDS,
    STOPWORDS,
    SUBJECT_FIRST_PERSON,
    THESAURUS,
    Sentence,
    Token,
    tokenize,
)

Perspective = Literal["self", "reported", "irrealis"]

NULL_NAMES = frozenset({"none", "no", "null", "nothing", "not_mentioned", "absent", "n_a", "na"})
_NULL_OPENERS = frozenset({"no", "none", "not", "nothing", "without", "neither"})
_REPORTED_IND = frozenset({"heard", "told", "reported", "report", "rumor", "rumour", "hearsay", "secondhand"})
_IRREALIS_IND = frozenset(
    {"concern", "concerned", "hypothetical", "potential", "possible", "speculative", "worry", "worried", "fear"}
)
_SELF_IND = frozenset({"firsthand", "personal", "personally", "own", "i", "my", "me", "we", "our", "experienced"})
_QUOTE_RE = re.compile(r"(?<![A-Za-z])'([^']+)'(?![A-Za-z])|\"([^\"]+)\"")
_PAREN_RE = re.compile(r"\(([^)]*)\)")
_CLAUSE_SPLIT = re.compile(r"\bAND\b|\bBUT\b|\bbut\b|;")
_ITEM_SPLIT = re.compile(r",|;|/|\bor\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Alt:
    """One way to express a concept: a short word sequence (stems, or exact text for short acronyms)."""

    words: tuple[str, ...]
    exact: tuple[bool, ...]  # True: compare the token's text case-sensitively (acronyms such as "ER")
    negated: bool  # the (first) word must occur negated
    not_after_speaker: bool = False  # "~told": not right after "I"/"we" or a companion ("my friend told")


@dataclass(frozen=True, slots=True)
class Concept:
    key: str
    negative: bool
    alts: tuple[Alt, ...]
    role: bool = False  # a participant ("staff", "customer"): names who, not what happened — never evidence alone

    @property
    def ident(self) -> tuple[str, bool]:
        return (self.key, self.negative)

    def match(self, sentence: Sentence, realis: bool = False) -> bool:
        """Whether any alternative occurs in the sentence (with ``realis``: starting outside irrealis clauses)."""
        words: tuple[Token, ...] | None = None
        keys = sentence.realis_keys if realis else sentence.keys
        for a in self.alts:
            if a.exact[0]:
                if a.words[0] not in sentence.texts:
                    continue
            elif (a.words[0], a.negated) not in keys:
                continue
            if any(w not in (sentence.texts if ex else sentence.stems) for w, ex in zip(a.words, a.exact, strict=True)):
                continue
            if words is None:
                words = sentence.words
            if _alt_in(a, words, realis):
                return True
        return False


def _speaker_or_companion(words: tuple[Token, ...], i: int) -> bool:
    """Whether the speech act at ``i`` is the speaker's ("I told") or a companion's ("my coworker swears")."""
    j = i - 1
    while j > 0 and i - j < 4 and (words[j].lower in _AUXILIARIES or words[j].lower.endswith("n't")):
        j -= 1  # "I didn't tell", "we never even asked"
    if words[j].lower in SUBJECT_FIRST_PERSON:
        return True
    return any(w.lower in COMPANIONS for w in words[max(0, i - 2) : i])


_OBJECTS = frozenset("me us him her them my".split())
_AUXILIARIES = frozenset("did do not never even just also really already had have could would".split())


def _not_a_claim(words: tuple[Token, ...], i: int) -> bool:
    """The speech act at ``i`` informs the staff ("she told them") or gives an instruction ("told me to")."""
    nxt = [w.lower for w in words[i + 1 : i + 3]]
    return (nxt[:1] == ["them"]) or (len(nxt) == 2 and nxt[0] in _OBJECTS and nxt[1] == "to")


def _word_eq(tok: Token, word: str, exact: bool) -> bool:
    return tok.text == word if exact else tok.stem == word


def _alt_in(alt: Alt, words: tuple[Token, ...], realis: bool = False) -> bool:
    n = len(alt.words)
    for i, tok in enumerate(words):
        if not _word_eq(tok, alt.words[0], alt.exact[0]) or tok.negated != alt.negated:
            continue
        if realis and tok.irrealis:
            continue
        if alt.not_after_speaker and ((i > 0 and _speaker_or_companion(words, i)) or _not_a_claim(words, i)):
            continue  # "I told", "my coworker swears", "she told them", "told me to …": no claim made to the speaker
        pos, ok = i, True
        for w, ex in zip(alt.words[1:], alt.exact[1:], strict=True):
            nxt = next(
                (j for j in range(pos + 1, min(len(words), pos + 1 + n + 3)) if _word_eq(words[j], w, ex)), None
            )
            if nxt is None:
                ok = False
                break
            pos = nxt
        if ok:
            return True
    return False


def _alt_from_text(text: str) -> Alt | None:
    not_after_speaker = text.startswith("~")
    raw = text.lstrip("~").split()
    if len(raw) > 1 and any(not w.strip("+%$").isdigit() for w in raw):  # "waited 30+ minutes": numbers vary
        raw = [w for w in raw if not w.strip("+%$").isdigit()]
    negated = bool(raw) and raw[0].lower() == "not"
    if negated:
        raw = raw[1:]
    toks = [t for t in tokenize(" ".join(raw)) if t.is_word]
    if not toks:
        return None
    exact = tuple(t.text.isupper() and len(t.text) <= 3 and t.text.isalpha() for t in toks)
    words = tuple(t.text if ex else t.stem for t, ex in zip(toks, exact, strict=True))
    return Alt(words, exact, negated, not_after_speaker)


def _thesaurus_index() -> dict[str, tuple[str, ...]]:
    index: dict[str, tuple[str, ...]] = {}
    for key, alts in THESAURUS.items():
        a = _alt_from_text(key)
        if a is not None:
            index[" ".join(a.words)] = alts
    return index


_THES = _thesaurus_index()
_ROLE_KEYS = frozenset(" ".join(a.words) for w in ROLE_WORDS if (a := _alt_from_text(w)) is not None)


def _concept(words_text: str, negative: bool = False) -> Concept | None:
    """A concept from a word or phrase: its thesaurus entry (if any) plus the literal phrase."""
    base = _alt_from_text(words_text)
    if base is None:
        return None
    key = " ".join(base.words)
    alt_texts: list[str] = list(_THES.get(key, ()))
    if not alt_texts and len(base.words) > 1:  # a phrase: its words' entries, e.g. "needed medication"
        for w in base.words:
            alt_texts.extend(_THES.get(w, ()))
    alts = [base] + [a for a in (_alt_from_text(t) for t in alt_texts) if a is not None]
    if negative:  # "refused to accommodate": matches negated mentions (and explicit "not X" alternatives flip back)
        alts = [Alt(a.words, a.exact, not a.negated, a.not_after_speaker) for a in alts]
    return Concept(key, negative, tuple(dict.fromkeys(alts)), key in _ROLE_KEYS)


def _content_concepts(text: str) -> list[Concept]:
    """Concepts of a free-text clause: multi-word thesaurus keys first, then single content words."""
    toks = [t for t in tokenize(text) if t.is_word]
    out: list[Concept] = []
    used: set[int] = set()
    for i in range(len(toks) - 1):  # two-word keys such as "stomach upset", "life threatening"
        pair = f"{toks[i].stem} {toks[i + 1].stem}"
        if pair in _THES:
            c = _concept(f"{toks[i].text} {toks[i + 1].text}", toks[i].negated)
            if c:
                out.append(c)
                used |= {i, i + 1}
    for i, t in enumerate(toks):
        if i in used or t.lower in STOPWORDS or t.lower in _NULL_OPENERS or t.lower.endswith("n't"):
            continue
        if len(t.lower) < 2:
            continue
        c = _concept(t.text, t.negated)
        if c:
            out.append(c)
    return out


@dataclass(frozen=True, slots=True)
class Clause:
    concepts: tuple[Concept, ...]


@dataclass(frozen=True)
class ValueRule:
    name: str
    index: int
    description: str
    clauses: tuple[Clause, ...]  # every one must be evidenced
    absent: tuple[Concept, ...]  # none may be evidenced anywhere ("without actual incident")
    examples: tuple[Concept, ...]  # quoted phrases and parenthesised examples
    name_concept: Concept | None
    perspective: Perspective | None = None
    distinctive: tuple[Concept, ...] = ()
    required: tuple[Concept, ...] = ()  # emphasized (all-caps) words: must be evidenced near the firing sentence

    @property
    def concepts(self) -> tuple[Concept, ...]:
        """Every concept of the value (the examples are part of the first clause) plus its name."""
        out = [c for cl in self.clauses for c in cl.concepts]
        if self.name_concept:
            out.append(self.name_concept)
        return tuple(out)


@dataclass(frozen=True)
class FieldRule:
    name: str
    null: str | None
    topic: tuple[Concept, ...]
    values: tuple[ValueRule, ...]  # non-null values, in declaration order
    is_perspective: bool = False
    gate: tuple[Concept, ...] = ()  # the topic beyond the shared domain ("staff"), else the topic; set by compile_rules

    def value(self, kind: Perspective) -> ValueRule | None:
        return next((v for v in self.values if v.perspective == kind), None)


@dataclass(frozen=True)
class Rules:
    fields: tuple[FieldRule, ...]
    domain: tuple[Concept, ...] = field(default=())


def is_null_value(name: str, description: str) -> bool:
    first = next((t.lower for t in tokenize(description) if t.is_word), "")
    return name.lower() in NULL_NAMES or first in _NULL_OPENERS or "not mentioned" in description.lower()


def _strip_opener(description: str) -> str:
    """ "No allergic reaction described" → "allergic reaction described" (the topic of a null value)."""
    words = description.split()
    while words and words[0].lower().strip(".,:;") in _NULL_OPENERS:
        words = words[1:]
    return " ".join(words)


def _perspective(name: str, description: str) -> Perspective | None:
    words = {t.lower for t in tokenize(description) if t.is_word} | {w.lower() for w in re.split(r"[_\W]+", name)}
    if words & _REPORTED_IND or "someone else" in description.lower():
        return "reported"
    if words & _IRREALIS_IND:
        return "irrealis"
    if words & _SELF_IND:
        return "self"
    return None


def _is_emphasized(word: str) -> bool:
    """An all-caps word longer than an acronym that is not a clause connective: "Staff CLAIMED safe"."""
    return len(word) > 3 and word.isalpha() and word.isupper() and word not in ("AND", "BUT")


def _compile_value(name: str, index: int, description: str) -> ValueRule:
    examples: list[Concept] = []
    for m in _QUOTE_RE.finditer(description):
        c = _concept(m.group(1) or m.group(2))
        if c and any(w not in STOPWORDS for w in c.alts[0].words):
            examples.append(c)
    rest = _QUOTE_RE.sub(" ", description)
    for m in _PAREN_RE.finditer(rest):
        for item in _ITEM_SPLIT.split(m.group(1)):
            if item.strip():
                c = _concept(item.strip())
                if c and any(w not in STOPWORDS for w in c.alts[0].words):
                    examples.append(c)
    rest = _PAREN_RE.sub(" ", rest)
    clauses: list[Clause] = []
    absent: list[Concept] = []
    for part in _CLAUSE_SPLIT.split(rest):
        pieces = re.split(r"\bwithout\b", part, maxsplit=1, flags=re.IGNORECASE)
        present = pieces[0]
        missing = pieces[1] if len(pieces) > 1 else ""
        cs = _content_concepts(present)
        if cs:
            clauses.append(Clause(tuple(cs)))
        absent.extend(_content_concepts(missing))
    if examples and clauses:  # the examples illustrate the first clause
        clauses[0] = Clause(clauses[0].concepts + tuple(examples))
    elif examples:
        clauses.append(Clause(tuple(examples)))
    name_words = " ".join(w for w in re.split(r"[_\W]+", name) if w and w.lower() not in STOPWORDS)
    name_concept = _concept(name_words) if name_words and name.lower() not in NULL_NAMES else None
    emphasized = {t.stem for t in tokenize(rest) if t.is_word and _is_emphasized(t.text)}
    required = tuple(c for cl in clauses for c in cl.concepts if c.alts[0].words[0] in emphasized)
    return ValueRule(
        name=name,
        index=index,
        description=description,
        clauses=tuple(clauses),
        absent=tuple(absent),
        examples=tuple(examples),
        name_concept=name_concept,
        perspective=_perspective(name, description),
        required=required,
    )


def compile_field(spec: FieldSpec) -> FieldRule:
    null: str | None = None
    topic: list[Concept] = []
    values: list[ValueRule] = []
    for i, (name, desc) in enumerate(spec.values.items()):
        if null is None and is_null_value(name, desc):
            null = name
            topic = _content_concepts(_strip_opener(desc))
            continue
        values.append(_compile_value(name, i, desc))
    kinds = {v.perspective for v in values if v.perspective}
    is_persp = len(kinds) >= 2
    if not is_persp:
        values = [replace(v, perspective=None) for v in values]
    topic_ids = {c.ident for c in topic}
    final: list[ValueRule] = []
    for v in values:
        others = {c.ident for o in values if o is not v for c in o.concepts}
        distinct = tuple(
            dict.fromkeys(c for c in v.concepts if c.ident not in topic_ids and c.ident not in others).keys()
        )
        final.append(replace(v, distinctive=distinct))
    return FieldRule(spec.name, null, tuple(topic), tuple(final), is_persp)


def compile_rules(specs: Sequence[FieldSpec]) -> Rules:
    """Compile every field, then the domain: concept keys that the descriptions of ≥ 2 fields share."""
    fields = tuple(compile_field(s) for s in specs)
    seen: dict[str, set[str]] = {}
    by_key: dict[str, Concept] = {}
    for f in fields:
        concepts = list(f.topic) + [c for v in f.values if not v.perspective for c in v.concepts]
        for c in concepts:
            if not c.negative:
                seen.setdefault(c.key, set()).add(f.name)
                by_key.setdefault(c.key, c)
    domain = tuple(by_key[k] for k, names in seen.items() if len(names) >= 2)
    if not domain and len(fields) == 1:
        domain = fields[0].topic
    domain_ids = {c.ident for c in domain}
    gated = []
    for f in fields:
        beyond_domain = tuple(c for c in f.topic if c.ident not in domain_ids) or f.topic
        gated.append(replace(f, gate=tuple(_any_polarity(c) for c in beyond_domain)))
    return Rules(tuple(gated), domain)


def _any_polarity(c: Concept) -> Concept:
    """The concept matching negated mentions too: "nobody on *staff* cared" still talks about the staff."""
    flipped = tuple(Alt(a.words, a.exact, not a.negated, a.not_after_speaker) for a in c.alts)
    return replace(c, alts=tuple(dict.fromkeys(c.alts + flipped)))
