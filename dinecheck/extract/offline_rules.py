"""Compile a seed's enum fields into cue rules for the offline extractor (pure; reads no review).

Everything comes from the field specs and the reviewed lexicon (``data/lexicon.toml``):

* the **null value** is :attr:`FieldSpec.null_value`; the content words of its description are the field's
  **topic** ("No *staff interaction* about *allergies*");
* a value's **cues** are its description's content words and hyphenated compounds, its quoted phrases and the items
  of its example lists ("(e.g. hives, swelling)"), each lemmatized and widened with the lexicon's synonyms. A word
  negated in the description ("refused to *accommodate*") is a *negative* cue that only matches negated text; a word
  negated by a modal of ability ("could not *eat*") describes a need, not an event, and is no cue;
* a cue is **distinctive** when its concept is neither the field's topic, the domain, nor a sibling value's;
  participants ("staff", "customer") never evidence a value, and meta-words ("review", "discuss") are ignored;
* **clauses**: a description is split into alternatives at ``:`` and ``or``, and each alternative into clauses at
  ``AND`` / ``BUT`` / ``;`` — every clause of the firing alternative must be evidenced; a ``without …`` part is an
  *absent* clause; words written in capitals ("Staff CLAIMED safe") must be evidenced;
* the **domain**: concepts shared by the null descriptions of ≥ 2 fields (else by any descriptions of ≥ 2 fields);
* a **subject** field: one whose every value names a kind of the domain ("The dietary need discussed is vegan …");
  its strong cues (value names, listed kinds) also count as domain mentions;
* a **perspective** field: ≥ 2 values about *who* experienced something (personal, reported, hypothetical, general);
* a **gate**: participants named in the null description ("No *staff* interaction") must be near any firing value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from dinecheck.extract.base import FieldSpec
from dinecheck.extract.offline_lexicon import Lexicon, load_lexicon
from dinecheck.extract.offline_text import NEGATORS, Sentence, tokenize

Perspective = Literal["self", "reported", "irrealis", "general"]
FieldKind = Literal["subject", "content", "perspective"]

GAP = 3  # words a phrase cue may skip between its words ("vegan and gluten free options")

STOPWORDS = frozenset(
    """a an the of to in on for with about and or but at by from as is are was were be been being it its this that
    these those any some still had has have having do does did done such like also etc very really just so than then
    who whom which what when where there their them they he she his her him i me my we our us you your it's one
    ones own through during after before into onto over under up out off all both each either more most much many
    how why while via per e g eg ie i e if whether not no nor can could should would may might must will shall
    get got make made let""".split()
)
_MODALS = frozenset("can could would should may might must will cannot can't couldn't".split())
_QUOTE_RE = re.compile(r"(?<![A-Za-z])'([^']+)'(?![A-Za-z])|\"([^\"]+)\"")
_PAREN_RE = re.compile(r"\(([^)]*)\)")
_LIST_OPENER = re.compile(r"^\s*(?:e\.?\s?g\.?|i\.?\s?e\.?|including|such as|like|for example)[\s,:]*", re.I)
_INNER_OPENER = re.compile(r"^.*\b(?:such as|like|for example|e\.g\.)\s+", re.IGNORECASE)  # "a dish such as X"
_ITEM_SPLIT = re.compile(r",|;|/|\bor\b|\band\b", re.IGNORECASE)
_ALT_SPLIT = re.compile(r":|,\s*or\b|\bor\b")
_CLAUSE_SPLIT = re.compile(r"\bAND\b|\bBUT\b|;")
_HYPHENATED = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
_REPORTED_IND = frozenset("hear heard report reported rumor hearsay secondhand".split())
_IRREALIS_IND = frozenset("concern concerned hypothetical potential possible speculative worry fear".split())
_SELF_IND = frozenset("firsthand personal personally own experienced reviewer party".split())
_GENERAL_IND = frozenset("general menu suitability overall".split())
_SUBJECT_WORDS = frozenset({"topic", "subject", "kind", "type", "category", "discuss", "which"})
_CATCH_ALL = re.compile(r"^(?:other|another)\b|\bnot covered\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Cue:
    """One way a concept shows in text: a lemma sequence (``=XX``: an acronym matched case-sensitively)."""

    words: tuple[str, ...]
    negated: bool  # the first word must occur negated ("not care" ← "didn't care")
    concept: str  # the description word/phrase it stands for
    source: str  # where it came from: "name", "example", "description", "lexicon:KEY"
    weak: bool = False  # an ingredient word alone: counts only with the domain in the same sentence
    tight: bool = False  # words adjacent (at most one word between): an example with a kind of the subject in it

    def find(self, s: Sentence, *, any_polarity: bool = False, realis: bool = False) -> int | None:
        """The word position where the cue starts in ``s``, or None."""
        gap = 1 if self.tight else GAP
        for p in s.positions(self.words[0]):
            t = s.words[p]
            if not any_polarity and t.negated != self.negated:
                continue
            if realis and t.irrealis:
                continue
            pos = p
            for w in self.words[1:]:
                nxt = next((q for q in s.positions(w) if pos < q <= pos + 1 + gap), None)
                if nxt is None:
                    break
                pos = nxt
            else:
                return p
        return None

    def label(self) -> str:
        return ("not " if self.negated else "") + " ".join(w.lstrip("=") for w in self.words)


_ARTICLES = frozenset({"a", "an", "the"})
# negators that are function words; "refuse", "unable" are also content ("Staff *refused*")
_FUNCTION_NEGATORS = NEGATORS - {"refuse", "refused", "refuses", "refusing", "unable"}


def _cue_from_text(
    text: str, concept: str, source: str, lex: Lexicon, negated: bool = False, keep_stop: bool = False
) -> Cue | None:
    """A cue from a phrase; ``keep_stop`` keeps its function words ("great for", "out of their way")."""
    toks = [t for t in tokenize(text) if t.is_word]
    while toks and (toks[0].lower in _FUNCTION_NEGATORS or toks[0].lower.endswith("n't")):
        toks = toks[1:]  # a leading negator is the cue's polarity ("not care"); inner ones stay ("made without")
    words = tuple(
        "=" + t.text if t.text.isupper() and len(t.text) <= 3 and t.text.isalpha() else t.lemma
        for t in toks
        if (t.lemma not in _ARTICLES if keep_stop else t.lemma not in STOPWORDS and not lex.in_class("meta", t.lemma))
        or len(toks) == 1
    )
    if not words:
        return None
    first = next(t for t in toks if t.lemma == words[0] or "=" + t.text == words[0])
    neg = negated != first.negated  # "could not hear", "not care": the first kept word is negated
    weak = len(words) == 1 and lex.in_class("food", words[0])
    return Cue(words, neg, concept, source, weak)


def _concept_cues(text: str, source: str, lex: Lexicon, negated: bool = False) -> list[Cue]:
    """The cue for a word or phrase plus its lexicon synonyms (a phrase without an entry: its words' entries)."""
    base = _cue_from_text(text, "", source, lex, negated)
    if base is None:
        return []
    concept = " ".join(w.lstrip("=") for w in base.words)
    key = base.words[0] if base.words[0].startswith("=") and len(base.words) == 1 else concept
    base = replace(base, concept=concept)
    out = [base]
    for syn in lex.expansions(key.lstrip("=") if not key.startswith("=") else key[1:]):
        c = _cue_from_text(syn, concept, f"lexicon:{key.lstrip('=')}", lex, negated, keep_stop=True)
        if c is not None:
            out.append(c)
    return list(dict.fromkeys(out))


def _content_cues(text: str, source: str, lex: Lexicon) -> list[Cue]:
    """Cues of a free-text clause: hyphenated compounds and lexicon phrases first, then single content words."""
    out: list[Cue] = []
    for m in _HYPHENATED.finditer(text):
        out.extend(_concept_cues(m.group(0), source, lex))
    text = _HYPHENATED.sub(" ", text)
    toks = [t for t in tokenize(text) if t.is_word]
    used: set[int] = set()
    for i in range(len(toks) - 1):
        key = f"{toks[i].lemma} {toks[i + 1].lemma}"
        if key in lex.synonyms:
            out.extend(_concept_cues(f"{toks[i].text} {toks[i + 1].text}", source, lex, toks[i].negated))
            used |= {i, i + 1}
    for i, t in enumerate(toks):
        if i in used or t.lemma in STOPWORDS or t.lower in _FUNCTION_NEGATORS or t.lower.endswith("n't"):
            continue
        if len(t.lower) < 2:
            continue
        if lex.in_class("meta", t.lemma) or lex.in_class("meta", t.lower):
            continue
        if t.negated and any(p.lower in _MODALS for p in toks[max(0, i - 3) : i]):
            continue  # "could not eat": a need, not an event
        out.extend(_concept_cues(t.text, source, lex, t.negated))
    return out


@dataclass(frozen=True)
class Alternative:
    clauses: tuple[tuple[Cue, ...], ...]  # every clause needs one of its (distinctive, non-participant) cues


@dataclass(frozen=True)
class ValueRule:
    name: str
    index: int
    alternatives: tuple[Alternative, ...]
    example_texts: tuple[str, ...]
    name_cues: tuple[Cue, ...]
    absent: tuple[Cue, ...]  # "without actual incident": none may occur anywhere
    required: tuple[tuple[Cue, ...], ...]  # words written in capitals: one cue of each group must be near
    perspective: Perspective | None = None
    catch_all: bool = False  # "another diet … not covered above"
    examples: tuple[Cue, ...] = ()  # quoted phrases and listed examples (strong); set by compile_rules
    first_words: frozenset[str] = frozenset()  # first words of every anchoring cue (a quick pre-check)

    @property
    def cues(self) -> tuple[Cue, ...]:
        return tuple(c for a in self.alternatives for cl in a.clauses for c in cl) + self.examples + self.name_cues

    @property
    def concepts(self) -> frozenset[str]:
        return frozenset(c.concept for c in self.cues)


@dataclass(frozen=True)
class FieldRule:
    name: str
    null: str | None
    topic: tuple[Cue, ...]
    values: tuple[ValueRule, ...]  # non-null values, in declaration order
    kind: FieldKind = "content"
    gate: tuple[Cue, ...] = ()  # participants of the null description: one must be near a firing value
    null_examples: tuple[str, ...] = ()  # "(e.g. a veggie pizza, soy sauce)": what does NOT count as the subject
    masks: tuple[Cue, ...] = ()  # their cues: a subject cue inside one of them is no mention

    def value(self, kind: Perspective) -> ValueRule | None:
        return next((v for v in self.values if v.perspective == kind), None)


@dataclass(frozen=True)
class Rules:
    fields: tuple[FieldRule, ...]
    domain: tuple[Cue, ...] = field(default=())
    lexicon: Lexicon | None = None
    mentions: dict[str, tuple[Cue, ...]] = field(default_factory=dict)  # first word → domain and strong subject cues


def _perspective(name: str, description: str) -> Perspective | None:
    description = _PAREN_RE.sub(" ", _QUOTE_RE.sub(" ", description))  # examples may quote anyone ("we could not hear")
    words = {t.lemma for t in tokenize(description) if t.is_word} | {t.lower for t in tokenize(description)}
    words |= {w.lower() for w in re.split(r"[_\W]+", name) if w}
    low = description.lower()
    if words & _REPORTED_IND or "someone else" in low or "other people" in low:
        return "reported"
    if (words & _GENERAL_IND and "no specific" in low) or name.lower() == "general":
        return "general"
    if words & _SELF_IND:
        return "self"
    if words & _IRREALIS_IND:
        return "irrealis"
    return None


def _example_texts(description: str) -> tuple[list[str], str]:
    """Quoted phrases and items of parenthesised lists, and the description without them."""
    out: list[str] = [m.group(1) or m.group(2) for m in _QUOTE_RE.finditer(description)]
    rest = _QUOTE_RE.sub(" ", description)
    for m in _PAREN_RE.finditer(rest):
        body = _LIST_OPENER.sub("", m.group(1))
        items = (_INNER_OPENER.sub("", item).strip() for item in _ITEM_SPLIT.split(body))
        out.extend(item for item in items if item)
    return out, _PAREN_RE.sub(" ", rest)


def _slot_variants(base: Cue, subject: Sequence[Cue], lex: Lexicon) -> list[Cue | None]:
    """An example naming a kind of the subject stands for every kind: 'no gluten free options' → 'no vegan options'."""
    for k in subject:
        n = len(k.words)
        for i in range(len(base.words) - n + 1):
            if base.words[i : i + n] != k.words:
                continue
            rest = base.words[:i] + base.words[i + n :]
            if all(lex.in_class("food", w) for w in rest):
                return [None]  # only a kind of the subject ("an explicitly vegan dish", "gluten for a celiac")
            return [
                replace(base, words=base.words[:i] + o.words + base.words[i + n :], tight=True)
                for o in dict.fromkeys(subject)
                if not o.weak
            ]
    return []


def _example_cues(item: str, lex: Lexicon, subject: Sequence[Cue], whole: bool = False) -> list[Cue]:
    """Cues of one example: the phrase (with its kind of the subject as a slot), its lexicon entry, or its keywords."""
    base = _cue_from_text(item, "", "example", lex, keep_stop=False)
    if base is None:
        return []
    base = replace(base, concept=" ".join(w.lstrip("=") for w in base.words))
    if subject:
        variants = _slot_variants(base, subject, lex)
        if variants:
            return [v for v in variants if v is not None]
    if len(base.words) == 1 or base.concept in lex.synonyms or _HYPHENATED.search(item):
        return _concept_cues(item, "example", lex)
    if whole:  # a perspective example is a way of speaking ("I heard it gets loud"): kept whole
        return [base]
    keys = [w for w in base.words if (w.lstrip("=") in lex.synonyms or w.startswith("=")) and not lex.in_class("food", w)]
    if not keys:
        return [base]
    return [c for w in keys for c in _concept_cues(w.lstrip("=") if not w.startswith("=") else w[1:], "example", lex)]


def _compile_value(name: str, index: int, description: str, lex: Lexicon) -> ValueRule:
    example_texts, rest = _example_texts(description)
    alternatives: list[Alternative] = []
    absent: list[Cue] = []
    for alt in _ALT_SPLIT.split(rest):
        clauses: list[tuple[Cue, ...]] = []
        for part in _CLAUSE_SPLIT.split(alt):
            pieces = re.split(r"\bwithout\b", part, maxsplit=1, flags=re.IGNORECASE)
            cues = _content_cues(pieces[0], "description", lex)
            if cues:
                clauses.append(tuple(cues))
            if len(pieces) > 1:
                absent.extend(_content_cues(pieces[1], "description", lex))
        if clauses:
            alternatives.append(Alternative(tuple(clauses)))
    emphasized = {t.lemma for t in tokenize(rest) if t.is_word and len(t.text) > 3 and t.text.isupper()}
    emphasized -= {"and", "but"}
    required = tuple(
        tuple(dict.fromkeys(c for a in alternatives for cl in a.clauses for c in cl if c.concept == concept))
        for concept in sorted(emphasized)
    )
    name_text = " ".join(w for w in re.split(r"[_\W]+", name) if w)
    return ValueRule(
        name=name,
        index=index,
        alternatives=tuple(alternatives),
        example_texts=tuple(example_texts),
        name_cues=tuple(_concept_cues(name_text, "name", lex)) if name_text else (),
        absent=tuple(absent),
        required=required,
        perspective=_perspective(name, description),
        catch_all=bool(_CATCH_ALL.search(description) or name.lower().startswith("other")),
    )


def _distinctive(v: ValueRule, others: frozenset[str], role: frozenset[str]) -> ValueRule:
    def keep(c: Cue) -> bool:
        return c.concept not in others and c.concept not in role

    alts = []
    for a in v.alternatives:
        clauses = tuple(tuple(c for c in cl if keep(c)) for cl in a.clauses)
        alts.append(Alternative(tuple(cl for cl in clauses if cl)))
    return replace(
        v,
        alternatives=tuple(a for a in alts if a.clauses),
        examples=tuple(c for c in v.examples if keep(c)),
        required=tuple(g for g in (tuple(c for c in grp if keep(c)) for grp in v.required) if g),
    )


def compile_field(spec: FieldSpec, lex: Lexicon) -> FieldRule:
    null = spec.null_value
    topic: list[Cue] = []
    null_examples: list[str] = []
    values: list[ValueRule] = []
    for i, (name, desc) in enumerate(spec.values.items()):
        if name == null:
            null_examples, rest = _example_texts(desc)
            topic = _content_cues(re.sub(r"^\W*(?:no|none|not|nothing)\b", "", rest, flags=re.I), "null", lex)
            continue
        values.append(_compile_value(name, i, desc, lex))
    kinds = {v.perspective for v in values if v.perspective}
    kind: FieldKind = "perspective" if len(kinds) >= 2 else "content"
    if kind != "perspective":
        values = [replace(v, perspective=None) for v in values]
    gate = tuple(c for c in topic if lex.in_class("role", c.concept))
    return FieldRule(spec.name, null, tuple(topic), tuple(values), kind, gate, tuple(null_examples))


def _family(a: str, b: str) -> bool:
    """Same word family (derivation): "allergy" ~ "allergic", "diet" ~ "dietary" (a shared stem of ≥ 4 letters
    covering ≥ 70 % of the shorter word)."""
    if a == b:
        return True
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 4 and n >= 0.7 * min(len(a), len(b))


def _domain_concepts(groups: list[frozenset[str]]) -> set[str]:
    """Concepts whose word family occurs in ≥ 2 of the groups."""
    out: set[str] = set()
    for gi, g in enumerate(groups):
        for c in g:
            if any(_family(c, d) for gj, h in enumerate(groups) if gj != gi for d in h):
                out.add(c)
    return out


def _subject_cues(v: ValueRule, lex: Lexicon) -> tuple[Cue, ...]:
    """The strong cues of a kind of the subject: its name and listed examples, and description words that are
    lexicon entries or synonyms of the name ("vegan", "celiac") — not ordinary words such as "restaurant"."""
    name_words = {w for c in v.name_cues for w in c.words} | {c.concept for c in v.name_cues}
    desc = tuple(
        c
        for a in v.alternatives
        for cl in a.clauses
        for c in cl
        if c.concept in lex.synonyms or c.concept in name_words or " " in c.concept
    )
    return tuple(dict.fromkeys(v.name_cues + v.examples + desc))


def compile_rules(specs: Sequence[FieldSpec], lex: Lexicon | None = None) -> Rules:
    """Compile every field, then the domain, subject fields, examples and distinctive cues."""
    lex = lex or load_lexicon()
    fields = [compile_field(s, lex) for s in specs]

    def plain(c: str) -> bool:
        return not (lex.in_class("meta", c) or lex.in_class("role", c) or lex.in_class("food", c))

    null_groups = [frozenset(c.concept for c in f.topic if plain(c.concept) and not c.negated) for f in fields]
    shared = _domain_concepts(null_groups)
    if not shared:
        groups = [
            frozenset(c.concept for c in f.topic) | frozenset(x for v in f.values for x in v.concepts) for f in fields
        ]
        shared = {c for c in _domain_concepts(groups) if plain(c)}
    if not shared and len(fields) == 1:
        shared = {c.concept for c in fields[0].topic if plain(c.concept)}
    domain_cues: dict[Cue, None] = {}
    for f in fields:
        for v in f.values:
            for c in v.cues:
                if c.concept in shared:
                    domain_cues[replace(c, negated=False)] = None
        for c in f.topic:
            if c.concept in shared:
                domain_cues[replace(c, negated=False)] = None
    domain_concepts = frozenset(c.concept for c in domain_cues)

    def is_subject(f: FieldRule) -> bool:
        """Every value names a kind of the domain, or the field says it is about which topic is discussed."""
        if f.kind != "content" or not f.values:
            return False
        if all(any(_family(c, d) for c in v.concepts for d in domain_concepts) for v in f.values):
            return True
        words = set(re.split(r"[_\W]+", f.name.lower())) | {c.concept for c in f.topic}
        return bool(words & _SUBJECT_WORDS)

    kinds = {f.name: ("subject" if is_subject(f) else f.kind) for f in fields}
    subject: list[Cue] = []
    for f in fields:
        if kinds[f.name] == "subject":
            for v in f.values:
                ex = tuple(c for t in v.example_texts for c in _example_cues(t, lex, ()))
                subject.extend(_subject_cues(replace(v, examples=ex), lex))
    subject = [c for c in dict.fromkeys(subject) if len(c.words) > 1 or c.words[0] not in STOPWORDS]
    out: list[FieldRule] = []
    for f in fields:
        kind = kinds[f.name]
        slot = () if kind == "subject" else tuple(subject)
        whole = kind == "perspective"
        values = [
            replace(
                v,
                examples=tuple(dict.fromkeys(c for t in v.example_texts for c in _example_cues(t, lex, slot, whole))),
            )
            for v in f.values
        ]
        topic_concepts = frozenset(c.concept for c in f.topic)
        role = frozenset(
            c.concept
            for v in values
            for c in v.cues
            if any(lex.in_class(k, c.concept) for k in ("role", "menu", "place", "consume"))
        )  # participants, the place, the things offered ("options") and the acts of every visit ("served",
        # "ordered") say who, where, what or how it went on, not how it turned out: never evidence alone
        final = []
        for v in values:
            others = set(domain_concepts) if kind != "subject" else set()
            if kind != "subject":
                others |= topic_concepts
            for o in values:
                if o is not v:
                    others |= {c.concept for a in o.alternatives for cl in a.clauses for c in cl}
                    others |= {c.concept for c in o.examples}
                    if kind == "subject":
                        others |= {c.concept for c in o.name_cues}
            v = _distinctive(v, frozenset(others), role)
            if kind == "subject":
                v = replace(v, examples=_subject_cues(v, lex), alternatives=(), absent=())
            anchors = v.examples + tuple(c for a in v.alternatives for cl in a.clauses for c in cl)
            v = replace(v, first_words=frozenset(c.words[0] for c in anchors))
            final.append(v)
        masks: tuple[Cue, ...] = ()
        if kind == "subject":
            masks = tuple(c for t in f.null_examples for c in _example_cues(t, lex, ()) if len(c.words) > 1)
        out.append(replace(f, kind=kind, values=tuple(final), masks=masks))
    mentions: dict[str, list[Cue]] = {}
    strong = list(domain_cues) + [c for f in out if f.kind == "subject" for v in f.values for c in v.examples]
    for c in dict.fromkeys(strong):
        if not c.weak:
            mentions.setdefault(c.words[0], []).append(c)
    return Rules(tuple(out), tuple(domain_cues), lex, {k: tuple(v) for k, v in mentions.items()})
