"""Risk phrases on the raw label text, found BEFORE tokenisation (stage 1 of the allergen pipeline).

The phrases come from the ontology (``data/risk_phrases.jsonl``: ``{"phrase", "lang", "type", "level"}``, five
languages plus a few Portuguese/Dutch ones). Types: ``CROSS_CONTAMINATION`` ("may contain (traces of) …", "peut
contenir", "kann Spuren von … enthalten"), ``FACILITY`` (shared facility / equipment / line), ``NOT_SUITABLE``
("not suitable for … allergy") and
``CONTAINS`` ("Contains: milk, soy"). A ``…`` in a phrase marks where the allergen list sits ("kann Spuren von …
enthalten"); otherwise the list follows the phrase.

Matching is on the lookup-key form of the text (case, accents, hyphens, apostrophes and white space folded), on word
boundaries, with exact string search (one Aho-Corasick automaton over the phrases; no regular expression built from
data). All candidate matches are collected, then chosen **longest first, non-overlapping** (on equal spans the more
specific phrase wins). Each chosen phrase owns the text after it up to the end of its sentence (``.``/``!``/``?``/
new line, a closing bracket it is inside of) or the next chosen phrase — that is its list.

* The list is split into items (``, ; / ( )`` and conjunctions; leading "of/de/des/von/other…" dropped) and each item
  is resolved through the ontology's synonyms (exact keys, see :mod:`normalize`) to allergen codes: those are the
  phrase's ``allergens``. An item that does not resolve is kept in ``unresolved``, and the phrase then ALSO applies to
  every profile allergen (a list we cannot read is treated like a generic warning). A phrase with no list is generic.
* ``CROSS_CONTAMINATION``, ``FACILITY`` and ``NOT_SUITABLE`` phrases mask the phrase and its list from tokenisation
  ("may contain nuts" never becomes a "nuts" ingredient). ``CONTAINS`` masks only its keyword: its list items are
  still ingredients, and the phrase makes the allergens they name (DEFINITE/DERIVED ones) DEFINITE — so "Contains:
  milk" makes MILK definite even when no ingredient token is milk.
* Statements of absence or suitability — "free from X", "X free", "glutenfrei", "sans/senza/sin/ohne/without X",
  "suitable for …" — are NOT risk phrases: the claim and its first object (when it is one name, or has no allergen
  word) are masked (so the "gluten" of "gluten
  free" is not an ingredient) and reported in ``claims``; they never create an allergen and never make a label SAFE:
  the rest of the label decides. Further objects of the same claim ("free from nuts, gluten and dairy", "dairy and
  gluten free") stay ingredient tokens whose findings are ``capped`` at POSSIBLE — an absence statement never creates
  a DEFINITE allergen, and an item we cannot attribute is never silently dropped.
* Storage, use, preparation and nutrition statements ("Keep refrigerated…", "A consommer de préférence…",
  "Nährwerte…") are masked to the end of their item (the next ``, ; .``, or the next phrase) and reported in
  ``statements``: they are not ingredients, and what follows a comma is read again. After a nutrition heading, the
  table's rows (nutrient words and amounts only: EU Annex XV / US panel wording) are masked too. A sentence opening
  with an instruction verb ("Preheat…", "Serve chilled", "Faites cuire…") is masked to its end. An origin line
  ("Made in France", "Hergestellt in Deutschland") is masked only when it is short and names no shared production
  (a facility warning is never masked). Packaging, weight and batch lines too. A statement never hides a word that
  names an allergen.
* List introducers ("contains 2% or less of:", "contains less than 1% of the following") are masked silently: they
  state no allergen of the product. An allergen pointer ("Allergy advice: for allergens, including cereals containing
  gluten, see ingredients in bold", "Allergènes : voir les ingrédients en gras") is masked too, and — unless the text
  still shows emphasis (``_milk_``, ``*milk*``, a word in capitals among lower-case ones: :func:`shows_emphasis`),
  whose words are read as ingredients like any other — it is an ``ALLERGEN_NOTICE`` hit that names no allergen: the
  bold it points at is lost from plain text, so it applies to every profile allergen at POSSIBLE (issue 8, item 4).
"""

from __future__ import annotations

import bisect
import contextlib
import html
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import ahocorasick
import regex

from dinecheck.allergens.furniture import (
    COOKWARE_WORDS,
    ENGLISH_AFTER,
    ENGLISH_ARTICLES,
    ENGLISH_INTO,
    ENGLISH_VERBS_AFTER,
    OTHER_MARKERS,
    english_homographs,
    furniture,
    instruction,
    nutrition_row,
    opens_sentence,
    origin_line,
    quantity_lead,
    sentence_end,
)
from dinecheck.allergens.normalize import (
    MAX_HINT_WORDS,
    mention_codes,
    names_allergen,
    pair_join_codes,
    remembered,
    resolve_key,
    unknown_words,
    unread_near_allergen,
)
from dinecheck.allergens.ontology import Ontology, RiskLevel, RiskPhrase
from dinecheck.allergens.text import fold_accents
from dinecheck.allergens.tokenize import MAX_LABEL_CHARS, canonical_key
from dinecheck.errors import OntologyError

_TIMEOUT = 1.0
MASKING_TYPES = frozenset({"CROSS_CONTAMINATION", "FACILITY", "NOT_SUITABLE"})

_ABSENCE_PREFIXES = (
    "free from", "free of", "100% free from", "without", "sans", "senza", "sin", "ohne", "frei von", "exempt de",
    "suitable for", "convient aux", "convient a", "adapte aux", "geeignet fur", "apto para", "adatto a", "adatto ai",
    "adatto per", "no contiene", "does not contain", "ne contient pas", "enthalt kein", "enthalt keine",
    "non contiene", "not a source of", "contains no", "contains no added", "with no added", "ne contient aucun", "ne contient aucune", "priva di", "privo di",
    "privi di", "prive di", "libre de", "libres de", "exento de", "exenta de",
    # a site that never handles what follows ("Made in a factory that does not handle nuts"): a claim of absence
    "does not handle", "does not handle any", "doesn't handle", "do not handle", "never handles", "does not process",
    "does not use", "ne manipule pas", "ne manipule aucun", "ne manipule aucune", "n'utilise pas",
    # "No soy. No gluten.": a claim only where it opens an item or a sentence and its object is a name
    # (:data:`_OPENING_ONLY`; Spanish and Italian "no" is "not": "no se descarta la presencia de alérgenos")
    "no", "no added",
)  # fmt: skip
# absence prefixes that are a claim only at the start of an item or sentence ("Grade No. 1", "no added sugar" aside)
_OPENING_ONLY = frozenset({"no", "no added"})
# people with coeliac disease (folded, five languages): "not suitable for coeliacs" is gluten, and the word is one of
# a warning (:data:`_WARNING_WORDS`)
_COELIAC_WORD = r"co?eliac\w*|co?eliaqu\w*|zoliaki\w*"
_COELIAC = regex.compile(_COELIAC_WORD)
# suitability claims name people or diets ("suitable for people with milk allergy"): their whole item is the claim
_SUITABILITY = frozenset(
    {"suitable for", "convient aux", "convient a", "adapte aux", "geeignet fur", "apto para", "adatto a", "adatto ai",
     "adatto per"}
)  # fmt: skip
# who or what a suitability claim is for, in the five languages (folded): the claim's own words end there
_AUDIENCE = regex.compile(
    r"(?<![^\W_])(?:vegetarians?|vegans?|coeliacs?|celiacs?|diabetics?|(?:home )?freezing|microwav\w*|vegetariens?"
    r"|vegetaliens?|coeliaques?|celiaques?|diabetiques?|congelation|vegetarier|veganer|zoliakie\w*"
    r"|diabetiker|vegetarian[oa]s?|vegan[oa]s?|celiac[oa]s?|diabetic[oa]s?|congelacion|vegetarian[ie]|vegan[ie]"
    r"|celiac[ie]|diabetic[ie]|congelazione"
    r"|(?P<allergy>(?:allerg|alerg|intoleran|unvertraglich)\w*))(?![^\W_])"
)
# ("naturally free of gluten": "free of"/"free from" open a claim of their own, the word before is no object)
_ABSENCE_SUFFIX = regex.compile(r"[^\W\d_]+ free(?! (?:range|run|flowing|trade|of|from)\b)\b|[^\W\d_]{3,}frei\b")
_INTRO = regex.compile(  # (?P<tail>…): the "see …" part, kept as text if it names an allergen
    r"(?:contains|contain)(?: only)? (?:(?:less than )?\d+(?:[.,]\d+)? ?(?:%|percent)(?: or less)? of"
    r"|one or more of the following|less than \d+(?:[.,]\d+)? ?(?:%|percent) of)(?: the following)?"
    r"|(?:less than \d+(?:[.,]\d+)? ?(?:%|percent)|\d+(?:[.,]\d+)? ?(?:%|percent) or less) of(?: the following)?"
    r"|contient moins de \d+(?:[.,]\d+)? ?% de|enthalt weniger als \d+(?:[.,]\d+)? ?% "
    r"|(?:allergy advice|allergy information|allergen information|allergens|allergenes|allergene|allergeni|alergenos"
    r"|allergenen|allergie informatie)"
    r" ?:? ?(?:for allergens,? )?(?:including [^.\n]{0,80}?)?(?:see|voir|siehe|ver|vedi|zie) (?P<tail>[^.\n,;]{0,80})"
    r"|for allergens,? (?:including [^.\n]{0,80}?)?see (?P<tail>[^.\n,;]{0,80})"
    r"|this product (?:is|was|has been)\b"
)
_ITEM_SPLIT = regex.compile(
    r"[,;/()\[\]:]|\s(?:and|et|und|y|e|ou|or|as well as|sowie|oder|o|and other|et autres|&)\s|&"
)
_ITEM_LEAD = regex.compile(
    r"^(?:(?:d'|l')\s*|(?:of|de|des|du|de la|la|le|les|von|di|del|della|dei|degli|delle|el|los|las|other|others|"
    r"autres?|anderen?|altri|altra|otros|otras|traces|trace|trazas|tracce|spuren|amounts of|small amounts of|"
    r"the|some|also|aussi|auch|only|seulement|uniquement|nur|solo|solamente|and|et|und|y|e|ou|or)(?:\s+|$))+"
)
_ITEM_TAIL = regex.compile(r"\s+(?:and products thereof|et produits derives|products|produits|enthalten)$")
# "… to peanuts due to manufacturing methods": the reason after an item is no allergen name
_ITEM_REASON = regex.compile(r"\s+(?:due to|because of|owing to|as a result of|en raison de|a cause de|aufgrund|"
                             r"wegen|debido a|a causa de|per via di|a causa di)\s[^,;]*$")


@dataclass(frozen=True, slots=True)
class PhraseHit:
    """One risk statement found on a label: the phrase matched, its type and level, the allergen codes its list
    names, the list items that did not resolve, and its span (phrase + list) in the raw text. ``generic`` (no
    allergen named, or an item unresolved) means the phrase applies to every profile allergen."""

    phrase: str
    type: str
    level: RiskLevel
    allergens: tuple[str, ...]
    span: tuple[int, int]
    unresolved: tuple[str, ...] = ()

    @property
    def generic(self) -> bool:
        return not self.allergens or bool(self.unresolved)

    def to_json(self) -> dict:
        return {"phrase": self.phrase, "type": self.type, "level": self.level.value,
                "allergens": list(self.allergens), "unresolved": list(self.unresolved),
                "span": list(self.span)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PhraseScan:
    """Result of the phrase stage: risk ``hits``; raw-text ``masks`` to hide from tokenisation; absence or
    suitability ``claims`` (raw text), which are reported but carry no allergen; ``capped`` raw-text spans whose
    ingredient findings are held at POSSIBLE (the other items of an absence claim, "free from nuts, gluten and
    dairy": they may be claimed absent, or present — so neither DEFINITE nor ignored); ``statements`` the storage,
    preparation and nutrition sentences masked as not being ingredients."""

    hits: tuple[PhraseHit, ...]
    masks: tuple[tuple[int, int], ...]
    claims: tuple[str, ...]
    capped: tuple[tuple[int, int], ...] = ()
    statements: tuple[str, ...] = ()


# ------------------------------------------------------------------------------------------- text with index map

_ASCII_TABLE = str.maketrans({"-": " ", "_": " ", "`": "'", "\t": " ", "\r": "\n", "\x0b": " ", "\x0c": " "})
_CHAR_CACHE: dict[str, str] = {}


def _fold_char(ch: str) -> str:
    out = _CHAR_CACHE.get(ch)
    if out is None:
        if ch == "\n" or ch == "\r":
            out = "\n"
        elif ch.isspace():
            out = " "
        else:
            out = canonical_char = unicodedata.normalize("NFKC", ch).casefold()
            out = canonical_char.translate(_ASCII_TABLE)
            for a in "’‘ʼ´′":
                out = out.replace(a, "'")
            for h in "‐‑‒–—―−﹣－":
                out = out.replace(h, " ")
            out = fold_accents(out)
        _CHAR_CACHE[ch] = out
    return out


class _FoldTable(dict):
    """``str.translate`` table folding any character (filled on demand); remembers characters that do not fold to
    exactly one character, which break the one-to-one alignment."""

    def __init__(self) -> None:
        super().__init__()
        self.uneven: set[str] = set()

    def __missing__(self, code: int) -> str:
        out = _fold_char(chr(code))
        if len(out) != 1:
            self.uneven.add(chr(code))
        self[code] = out
        return out


_FOLD_TABLE = _FoldTable()


def fold_with_map(text: str) -> tuple[str, list[int] | None]:
    """The text in lookup-key form plus, per output character, the index of the raw character it came from (None
    when the two are aligned one to one). Runs of spaces collapse to one."""
    table = _FOLD_TABLE
    if text.isascii():
        folded = text.lower().translate(_ASCII_TABLE)
        if "  " not in folded:
            return folded, None
        return _collapse(text.translate(table), None)
    folded = text.translate(table)  # fills the table (and its ``uneven`` set) for new characters
    if table.uneven.isdisjoint(text):
        if "  " not in folded:
            return folded, None
        return _collapse(folded, None)
    # characters folding to zero or several characters: each output character maps back to the one it came from
    index: list[int] = []
    kept = 0
    for m in _uneven_pattern().finditer(text):
        i = m.start()
        index.extend(range(kept, i))
        index.extend([i] * len(table[ord(text[i])]))
        kept = i + 1
    index.extend(range(kept, len(text)))
    return _collapse(folded, index)


_SPACE_RUN = re.compile(" {2,}")  # one repeated character: the standard ``re`` cannot backtrack on it
_UNEVEN: list = [0, None]  # (size of the fold table's ``uneven`` set, a character class of it)


def _uneven_pattern() -> re.Pattern[str]:
    """A character class of the characters that do not fold one to one (rebuilt when the set grows)."""
    uneven = _FOLD_TABLE.uneven
    size, pattern = _UNEVEN
    if pattern is None or size != len(uneven):
        chars = sorted(set(uneven))
        pattern = re.compile("[" + "".join(re.escape(c) for c in chars) + "]")
        _UNEVEN[:] = [len(chars), pattern]
    return pattern


def _collapse(folded: str, index: list[int] | None) -> tuple[str, list[int]]:
    """Collapse each run of spaces of ``folded`` to its first space; ``index`` maps ``folded`` back to the raw text
    (None: one to one)."""
    out: list[int] = []
    kept = 0
    for m in _SPACE_RUN.finditer(folded):
        end = m.start() + 1
        out.extend(range(kept, end) if index is None else index[kept:end])
        kept = m.end()
    out.extend(range(kept, len(folded)) if index is None else index[kept:])
    return _SPACE_RUN.sub(" ", folded), out


# --------------------------------------------------------------------------------------------------- the matcher


@dataclass(frozen=True, slots=True)
class _Pattern:
    head: str
    tail: str | None
    phrase: RiskPhrase | None  # None: an absence prefix or a statement
    kind: str = "risk"  # "risk" | "absence" | "statement" | "checked" | "sentence" | "advisory" | "instruction" …


class _Index:
    def __init__(self, phrases: tuple[RiskPhrase, ...]) -> None:
        seen: dict[str, _Pattern] = {}
        for p in phrases:
            key = p.key.replace("…", "...")
            if "..." in key:
                head, _, tail = key.partition("...")
                head, tail = head.strip(), tail.strip()
            else:
                head, tail = key, None
            if not head:
                raise OntologyError(f"risk phrase {p.phrase!r} has no words before its list mark", "risk_phrases")
            seen.setdefault(f"{head}...{tail}", _Pattern(head, tail, p))
        for a in _ABSENCE_PREFIXES:
            seen.setdefault(f"{a}...None", _Pattern(a, None, None, "absence"))
        more = furniture()
        for kind, words in (("sentence", more.sentences), ("advisory", more.advisories),
                            ("instruction", more.instructions), ("origin", more.origin_leads),
                            ("statement", more.statements), ("checked", more.checked_statements)):  # fmt: skip
            for key in words:
                seen.setdefault(f"{key}...None", _Pattern(key, None, None, kind))
        self.patterns = tuple(seen.values())
        by_head: dict[str, list[_Pattern]] = {}
        for pat in self.patterns:
            by_head.setdefault(pat.head, []).append(pat)
        self.automaton = ahocorasick.Automaton()
        for head, pats in by_head.items():
            self.automaton.add_word(head, (head, tuple(pats)))
        self.automaton.make_automaton()


def _index(ontology: Ontology) -> _Index:
    """The phrase automaton of an ontology, kept on the ontology object (built once per ontology)."""
    idx = getattr(ontology, "phrase_index", None)
    if idx is not None and idx[0] is ontology.risk_phrases:
        return idx[1]
    built = _Index(ontology.risk_phrases)
    with contextlib.suppress(AttributeError):  # an ontology-like object that cannot hold it: build every time
        ontology.phrase_index = (ontology.risk_phrases, built)
    return built


def _bounded(t: str, start: int, end: int) -> bool:
    """Word boundaries: no letter/digit just before ``start`` or (when the match ends in one) just after ``end``."""
    if start > 0 and t[start - 1].isalnum():
        return False
    return not (end < len(t) and t[end - 1].isalnum() and t[end].isalnum())


def _find_all(t: str, needle: str):
    i = t.find(needle)
    while i != -1:
        yield i
        i = t.find(needle, i + 1)


def _sentence_end(t: str, start: int, limit: int, stop: str) -> int:
    """First sentence end (or, with brackets, an unmatched closer / any char of ``stop``) in ``t[start:limit]``."""
    depth = 0
    for i in range(start, limit):
        c = t[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif c in stop and depth == 0:
            if c in ".," and 0 < i < len(t) - 1 and t[i - 1].isdigit() and t[i + 1].isdigit():
                continue
            return i
        elif c == "\n":
            return i
    return limit


@dataclass(frozen=True, slots=True)
class _Cand:
    start: int
    end: int  # end of the phrase itself (for "…" phrases: end of the tail)
    list_start: int
    list_end: int | None  # fixed list end for "…" phrases
    kind: str  # "risk" | "absence" | "statement" | "checked" | "sentence" | "advisory" | "intro" | "suffix" …
    phrase: RiskPhrase | None
    weight: int = 0  # characters of the phrase itself (head + tail): breaks ties between equal spans


# list marks that a name inside the list may hold too ("gluten free tamari"): the list runs to the last one of the
# sentence, so that no name is cut in two and its end read as an absence claim
_LAST_TAILS = frozenset({"free"})


# a verb denied right after a facility statement's lead ("… that does not handle", "… qui ne manipule pas")
_NEGATED = regex.compile(r"\s*(?:does not|doesn't|do not|don't|never|ne |n')")


def _candidates(t: str, index: _Index) -> list[_Cand]:
    out: list[_Cand] = []
    for last, (head, pats) in index.automaton.iter(t):
        s = last - len(head) + 1
        e = last + 1
        if not _bounded(t, s, e):
            continue
        for pat in pats:
            if pat.kind == "instruction":
                where = opens_sentence(t, s, e)
                if where is not None:
                    kind = "instruction" if where == "sentence" else "instruction_item"
                    out.append(_Cand(s, e, e, None, kind, None, len(head)))
                continue
            if pat.kind == "absence" and head in _OPENING_ONLY and opens_sentence(t, s, e) is None:
                continue
            if pat.tail is None:
                if pat.kind == "risk" and pat.phrase.type == "FACILITY" and _NEGATED.match(t, e) is not None:
                    continue  # "in a factory that does not handle nuts": a claim of absence, no warning
                out.append(_Cand(s, e, e, None, pat.kind, pat.phrase, len(head)))
                continue
            limit = _sentence_end(t, e, len(t), ".!?;")
            if pat.tail in _LAST_TAILS:  # "cannot guarantee gluten free tamari free": the list is all up to the last
                j = t.rfind(pat.tail, e, limit)
                while j != -1 and not _bounded(t, j, j + len(pat.tail)):
                    j = t.rfind(pat.tail, e, j)
            else:
                j = t.find(pat.tail, e, limit)
                while j != -1 and not _bounded(t, j, j + len(pat.tail)):
                    j = t.find(pat.tail, j + 1, limit)
            if j != -1:
                out.append(_Cand(s, j + len(pat.tail), e, j, "risk", pat.phrase, len(head) + len(pat.tail)))
    for m in _facility_matches(t):
        phrase = RiskPhrase(m.group(0), m.group(0), "en", "FACILITY", RiskLevel.POSSIBLE)
        out.append(_Cand(m.start(), m.end(), m.end(), None, "risk", phrase, m.end() - m.start()))
    for m in _intro_matches(t):
        if _bounded(t, m.start(), m.end()):
            tail = m.start("tail") if m.group("tail") else m.end()
            out.append(_Cand(m.start(), m.end(), tail, m.end(), "intro", None))
    for m in _ABSENCE_SUFFIX.finditer(t, timeout=_TIMEOUT) if "free" in t or "frei" in t else ():
        if _bounded(t, m.start(), m.end()):
            out.append(_Cand(m.start(), m.end(), m.end(), m.end(), "suffix", None))
    return out


# a shared-production warning in any wording: "(made|baked|packed …) in/on a facility/bakery/site/line … that (also)
# processes/handles/uses …" — the list follows; "… where nuts are (also) handled" — the list is inside (the warning
# then reads nothing and applies to every profile allergen). "that does not handle" is no warning (the verb must
# follow "that")
_FACILITY = regex.compile(
    r"\b(?:(?:made|baked|produced|manufactured|packed|packaged|processed|prepared|elaborated|bottled|roasted|"
    r"blended|filled|cooked)\s)?(?:in|on)\s(?:(?:a|an|the)\s)?(?:(?:shared|same|common)\s)?"
    r"(?:facility|factory|plant|site|line|bakery|mill|establishment|building|workshop|"
    r"kitchen|environment|premises|unit|production area|equipment)\s(?:(?:that|which|where)\s(?:(?:also|only)\s)?"
    r"(?:processes|process|handles|handle|uses|use|manufactures|produces|packs|pack|makes|bakes|prepares|contains|"
    r"mills|roasts|packages|"
    r"(?:are|is)\s(?:also\s)?(?:handled|used|processed|present))"
    r"|where\s[^.,;:!?\n]{1,60}?\s(?:are|is)\s(?:also\s)?(?:handled|used|processed|present))\b"
)
_FACILITY_WORDS = ("facility", "factory", "plant", "site", "line", "bakery", "kitchen", "environment", "premises",
                   "unit", "area", "equipment", "mill", "establishment", "building", "workshop")  # fmt: skip


def _facility_matches(t: str) -> list[regex.Match[str]]:
    if not (("that" in t or "which" in t or "where" in t) and any(w in t for w in _FACILITY_WORDS)):
        return []
    return list(_FACILITY.finditer(t, timeout=_TIMEOUT))


# every match of _INTRO starts with one of these (the regex is tried only where one occurs)
_INTRO_STARTS = ("contain", "contient moins de", "enthalt weniger als", "allerg", "alergenos", "for allergens",
                 "this product", "less than")  # fmt: skip
# "2% or less of: …" without its "contains" (US labels, 21 CFR 101.4(a)(2)): the match starts at the number
_OR_LESS = regex.compile(r"(?<![\w.,])\d+(?:[.,]\d+)? ?(?:%|percent) or less of")


# the introducers that point at the allergens of the list ("Allergens: see ingredients in bold") rather than at a
# part of it ("contains 2% or less of:")
_POINTER_STARTS = ("allerg", "alergenos", "for allergens")
# an allergen printed in emphasis the text still shows: "_milk_", "*milk*", or a word in capitals among lower-case ones
_SHOWN_EMPHASIS = regex.compile(r"(?<![^\W_])_[^\W\d_]|[^\W\d_]_(?![^\W_])|\*[^\W\d_]")
_CAPITALS_WORD = regex.compile(r"\b[^\W\d_a-z]{3,}\b")
_LOWER_WORD = regex.compile(r"\b[a-z]{3,}\b")


def shows_emphasis(text: str) -> bool:
    """Whether a label's text still marks its allergens (underscores or asterisks around a word, or a word in
    capitals among lower-case words): then "see bold" points at words the list still shows, and they are read as
    ingredients like any other."""
    if _SHOWN_EMPHASIS.search(text, timeout=_TIMEOUT):
        return True
    return bool(_LOWER_WORD.search(text, timeout=_TIMEOUT)) and bool(_CAPITALS_WORD.search(text, timeout=_TIMEOUT))


def _intro_matches(t: str) -> list[regex.Match[str]]:
    """The matches of :data:`_INTRO` in ``t``, as ``finditer`` gives them (leftmost, non-overlapping), trying the
    pattern only where a match can start."""
    if not ("contain" in t or "allerg" in t or "contient moins" in t or "enthalt weniger" in t or "alergenos" in t
            or "this product" in t or "less than" in t or "or less of" in t):  # fmt: skip
        return []
    at = {i for word in _INTRO_STARTS for i in _find_all(t, word)}
    if "or less of" in t:
        at.update(m.start() for m in _OR_LESS.finditer(t, timeout=_TIMEOUT))
    out = []
    end = 0
    for i in sorted(at):
        if i < end:
            continue
        m = _INTRO.match(t, i, timeout=_TIMEOUT)
        if m is not None:
            out.append(m)
            end = m.end()
    return out


def _choose(cands: list[_Cand]) -> list[_Cand]:
    """Longest span first (then the more specific phrase, then leftmost); keep only candidates that overlap nothing
    already chosen (O(n log n))."""
    starts: list[int] = []  # sorted starts of chosen intervals, with their ends alongside
    ends: list[int] = []
    chosen: list[_Cand] = []
    for c in sorted(cands, key=lambda c: (-(c.end - c.start), -c.weight, c.start)):
        i = bisect.bisect_right(starts, c.start)
        if i > 0 and ends[i - 1] > c.start:  # the chosen interval starting before c reaches into it
            continue
        if i < len(starts) and starts[i] < c.end:  # the next chosen interval starts inside c
            continue
        starts.insert(i, c.start)
        ends.insert(i, c.end)
        chosen.append(c)
    chosen.sort(key=lambda c: c.start)
    return chosen


def _split_word(head: str, rest: str, ontology: Ontology) -> bool:
    """Whether the last word of an absence claim's head and the first word after it, joined, name an allergen with
    the words around them: the head is then a word split by a space ("sin gle gloucester", "no ugat"), no claim."""
    head_words = canonical_key(_REGION_PUNCT.sub(" ", head, timeout=_TIMEOUT)).split(" ")
    rest_words = canonical_key(_REGION_PUNCT.sub(" ", rest, timeout=_TIMEOUT)).split(" ")
    if not head_words[-1] or not rest_words[0]:
        return False
    return bool(pair_join_codes([*head_words, *rest_words], len(head_words) - 1, ontology))


def _mentions_allergen(region: str, ontology: Ontology) -> bool:
    """Whether any whole word(s) of ``region`` name an allergen-bearing ingredient (never mask those away)."""
    return remembered(ontology, "mentions", region, lambda: _mentions(region, ontology))


_REGION_PUNCT = regex.compile(r"[()\[\]{},;:.!?/|*\"“”«»–—]+|\s-\s")
# what a region's words may carry that is no part of them: markup, entities, invisible characters (zero width, soft
# hyphen), footnote and trade marks ("<b>peanuts</b>", "pea&shy;nuts", "mil\u200bk", "milk²", "eggs*")
_REGION_TAG = regex.compile(r"<!--.{0,200}?-->|<[^<>]{0,200}>", regex.DOTALL)  # anything in angle brackets
_REGION_SYMBOL = regex.compile(r"[^\w\s'-]|_")
_LETTER_DIGIT = regex.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
_APOSTROPHES = regex.compile(r"['’ʼ`´]")
_NOT_LETTER = regex.compile(r"[^\w]|_")
_SPACED_LETTERS = regex.compile(r"(?<![^\W\d_])[^\W\d_](?:[ .\-]+[^\W\d_](?![^\W\d_])){2,}")
_WORD_GOES_ON = regex.compile(r"[ \t]*\r?\n[ \t]*[^\W\d_]+")
# an apostrophe or a line break between two letters may split one word ("che'ese", "al\nes"): asked joined too
_INNER_SPLIT = regex.compile(r"(?<=[^\W\d_])(?:['’`]|[ \t]*\r?\n[ \t]*)(?=[^\W\d_])")


def _region_text(region: str) -> str:
    """A region's words as the checks of a mask read them: markup and invisible characters gone (they join what
    they split), entities decoded, every other symbol a space."""
    text = html.unescape(region) if "&" in region else region
    if "<" in text:
        text = _REGION_TAG.sub("", text, timeout=_TIMEOUT)
    if not text.isascii():
        text = "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch) != "Cf")
    return _REGION_SYMBOL.sub(" ", _REGION_PUNCT.sub(" ", text, timeout=_TIMEOUT), timeout=_TIMEOUT)


def _region_keys(region: str) -> list[str]:
    """The lookup keys a mask must ask: the whole region, each piece between punctuation and the region with words
    split by an apostrophe or a line break joined ("che'ese"), each also with a word that mixes letters and digits cut
    between them ("2eggs", "milk²")."""
    pieces = [region, *_REGION_PUNCT.split(region, timeout=_TIMEOUT)] if _REGION_PUNCT.search(region) else [region]
    if _INNER_SPLIT.search(region):
        pieces.append(_INNER_SPLIT.sub("", region, timeout=_TIMEOUT))
    if "'" in region or "’" in region or "ʼ" in region:  # quotes and possessives: "'peanuts'", "peanut's"
        pieces.append(_APOSTROPHES.sub(" ", region, timeout=_TIMEOUT))
    if _SPACED_LETTERS.search(region):  # "m i l k", "M.I.L.K."
        pieces.append(_SPACED_LETTERS.sub(lambda m: _NOT_LETTER.sub("", m.group(0)), region, timeout=_TIMEOUT))
    keys: list[str] = []
    for piece in pieces:
        key = canonical_key(_region_text(piece))
        for k in (key, _LETTER_DIGIT.sub(" ", key, timeout=_TIMEOUT)):
            if k and k not in keys:
                keys.append(k)
    return keys


def _asked_keys(region: str, ontology: Ontology) -> list[str]:
    """:func:`_region_keys` of the region with each English homograph that stands as an English noun cut out of it
    (:func:`_english_region`: "heat a little oil in a frying pan" — Spanish "pan" is bread, English "pan" is not) and
    the legal form of an Indian company cut out (:data:`_PRIVATE_LIMITED`)."""
    if "pvt" in region.lower():
        region = _PRIVATE_LIMITED.sub(" | ", region, timeout=_TIMEOUT)
    return _region_keys(_english_region(region, ontology))


# "Pvt. Ltd.", "Pvt Limited": the legal form of an Indian private company (Companies Act 2013) — the French "PVT"
# (protéines végétales texturées) is no word of it
_PRIVATE_LIMITED = regex.compile(r"(?<![^\W_])pvt\.?\s*(?:ltd|limited)(?![^\W_])", regex.IGNORECASE)


_WORD = regex.compile(r"[^\W_]+")
_CLAUSE_END = regex.compile(r"[,.;:!?)\]}]")


def _english_region(region: str, ontology: Ontology) -> str:
    """``region`` with each English homograph (:func:`~dinecheck.allergens.furniture.english_homographs`: "pan")
    replaced by a separator where it stands as an English kitchen noun: right after a cookware word of a fixed
    compound ("frying pan", "non-stick pan", "roasting pan") or after a preposition of place and an article ("in a
    pan", "to a pan of water": a vessel things go into) and before the end of its clause, an English function
    word or a number — or right before "fry"/"sear" ("pan fry") — in prose holding no function word of the other
    label languages, when the word names a food only in other languages in this ontology and no longer name holds it
    ("pan rallado"). "Serve with pan.", "transfer the pan to …" and "warm the pan duro" keep their Spanish bread."""
    homographs = english_homographs()
    if not homographs or not any(w.casefold() in homographs for w in _WORD.findall(region)):
        return region
    words = [(m, canonical_key(m.group())) for m in _WORD.finditer(region)]
    keys = [k for _m, k in words]
    if not OTHER_MARKERS.isdisjoint(keys):
        return region
    cuts = []
    for i, (m, key) in enumerate(words):
        if key not in homographs or not _foreign_only(key, ontology) or _in_longer_name(keys, i, ontology):
            continue
        before = keys[i - 1] if i > 0 and not region[words[i - 1][0].end() : m.start()].strip(" -") else ""
        nxt = words[i + 1] if i + 1 < len(words) else None
        between = region[m.end() : nxt[0].start()] if nxt is not None else ""
        after = nxt[1] if nxt is not None else ""
        ends = nxt is None or _CLAUSE_END.search(between) is not None or after in ENGLISH_AFTER or after.isdigit()
        into = i > 1 and before in ENGLISH_ARTICLES and keys[i - 2] in ENGLISH_INTO  # "in a pan"
        if ((before in COOKWARE_WORDS or into) and ends) or after in ENGLISH_VERBS_AFTER:
            cuts.append((m.start(), m.end()))
    for a, b in reversed(cuts):
        region = region[:a] + " | " + region[b:]
    return region


def _foreign_only(word: str, ontology: Ontology) -> bool:
    syns = resolve_key(word, ontology)[0]
    return bool(syns) and all(s.lang not in ("en", None) for s in syns)


def _in_longer_name(words: list[str], i: int, ontology: Ontology) -> bool:
    """Whether ``words[i]`` is a word of a name of two to four words there (not the word itself behind an article:
    "a pan" reads as "pan")."""
    for size in range(2, 5):
        for start in range(max(0, i - size + 1), min(i, len(words) - size) + 1):
            syns, matched, _rule = resolve_key(" ".join(words[start : start + size]), ontology)
            if syns and matched != words[i]:
                return True
    return False


def _mentions(region: str, ontology: Ontology) -> bool:
    # punctuation is no part of a word: "(peanuts)," names peanuts; each piece between punctuation is asked on its
    # own too, so a name across it cannot hide one ("raw chicken, meat floss": "chicken meat" would take "meat"); a
    # region longer than the word hints read is never masked ("do not serve … with peanuts", 300 words on)
    keys = _asked_keys(region, ontology)
    return any(k.count(" ") >= MAX_HINT_WORDS or names_allergen(k, ontology) for k in keys)


# the words of an allergen warning in the five label languages (folded), whatever its wording: a furniture mask that
# would cover one is cut back to its lead ("… traces of other allergens cannot be ruled out", "packed on shared lines",
# "nicht auszuschließen", "ne peut être exclue", "non si esclude", "no se descarta")
_WARNING_WORDS = regex.compile(
    r"(?<![^\W_])(?:allerg\w*|alerg\w*|traces?|trazas?|tracce|traccia|spuren?|contamin\w*|kontamin\w*|cross|shared"
    r"|handl\w*|manipul\w*|verarbeit\w*|presence|presenza|presencia|auszuschlie\w*|ausgeschlossen|exclu\w*"
    r"|esclu\w*|descart\w*|ruled|garant\w*|guarant\w*|may|might|peut|peuvent|kann|konnen|puede|pueden|puo"
    r"|possono|contains?|containing|contien\w*|enthalt\w*|contiene\w*|contengono"
    r"|" + _COELIAC_WORD + r")(?![^\W_])"  # "Not recommended for coeliacs"
)


def has_warning_word(text: str) -> bool:
    """Whether ``text`` (folded) holds a word of an allergen warning (:data:`_WARNING_WORDS`: "allergens", "traces",
    "coeliacs", "may" …)."""
    return _WARNING_WORDS.search(text, timeout=_TIMEOUT) is not None


def _unread_words(region: str, ontology: Ontology) -> bool:
    """Whether a word of ``region`` is read by nothing (:func:`~dinecheck.allergens.normalize.unknown_words`); a
    region longer than the word hints read counts as unread (it is never masked)."""
    key = canonical_key(_region_text(region))
    return key.count(" ") >= MAX_HINT_WORDS or remembered(ontology, "unknown_words", key,
                                                          lambda: unknown_words(key, ontology))  # fmt: skip


def _unread_near_allergen(region: str, ontology: Ontology, longer: bool = True) -> bool:
    """:func:`~dinecheck.allergens.normalize.unread_near_allergen` of a region, remembered. After an operator line only
    three-letter words are asked (``longer=False``: its address's words are near too many names); a longer
    misspelling of a family's own name is never hidden there either (:func:`_mentions`)."""
    key = canonical_key(_region_text(region))
    return key.count(" ") >= MAX_HINT_WORDS or remembered(ontology, "unknown_words", f"\x1fnear{longer} {key}",
                                                          lambda: unread_near_allergen(key, ontology, longer))  # fmt: skip


# after a list introducer, the list: a word, a bracket or a mark, never the end of the text
_LIST_FOLLOWS = regex.compile(r"\s*[:\-–—]?\s*[^\W_(\[\"'*]")


# a negation before a claim of absence (within its item, at most three words before it: "not 100% free of nuts",
# "no es libre de gluten", "non è privo di latte") or a "no" answering it ("Gluten free: No")
_NEGATION_BEFORE = regex.compile(r"(?<![^\W_])(?:not|no|non|nicht|kein|keine|pas|never|nie|jamais|nunca|mai|isn't|isnt"
                                 r")(?:[^\w.,;!?]+\w+){0,3}[^\w.,;!?]*$")
_NEGATION_AFTER = regex.compile(r"(?:[^\w.,;!<]|<[^<>]{0,40}>|\.\.\.|…)*(?:no|non|nein|not)(?![^\W_])")
# a "no" answering a claim at the end of its item ("Suitable for coeliacs: No", "Sans allergènes : non")
_ANSWER_NO = regex.compile(r"[:=?\-–(\[\s\"']+(?:no|non|nein)[)\]\s\"'.!]*$")


def _denial(t: str, start: int, end: int, item_end: int) -> tuple[int, int] | None:
    """The span of the words denying the claim ``t[start:end]`` — a negation at most three words before it in its
    sentence (quotes, brackets and line breaks between them are no end: 'not "gluten free"'), a "no" right after it
    ("Gluten free? No.") or ending its item ("Suitable for coeliacs: No") — or None when nothing denies it."""
    k = start
    while k > 0 and t[k - 1] not in ".,;!?":
        k -= 1
    if (m := _NEGATION_BEFORE.search(t, k, start, timeout=_TIMEOUT)) is not None:
        return m.start(), m.end()
    for at in (end, item_end):
        if (m := _NEGATION_AFTER.match(t, at, timeout=_TIMEOUT)) is not None:
            return m.start(), m.end()
    if (m := _ANSWER_NO.search(t, end, item_end, timeout=_TIMEOUT)) is not None:
        return m.start(), m.end()
    return None


# an operator line's lead ("bottled by", "fabriqué par", "hergestellt von", "prodotto da:") and what it goes on with
# that is no operator's: the ingredient it was made with
_OPERATOR_LEAD = regex.compile(r"(?<![^\W_])(?:by|for|par|pour|von|fur|durch|por|para|da|per):?$")
_WITH_WORDS = regex.compile(r"(?<![^\W_])(?:with|avec|mit|con|using|containing|including)(?![^\W_])")


def _compound_stem(stem: str, ontology: Ontology) -> bool:
    """Whether the stem of a German "-frei" word is no name but begins with one that carries an allergen
    ("butterwasser" of "Butterwasserfrei": butter, anhydrous): then the word is no claim."""
    key = canonical_key(stem)
    if " " in key or resolve_key(key, ontology)[0]:
        return False
    return any(ontology.allergen_paths(syn.canonical_id)
               for i in range(3, len(key) - 1) for syn in resolve_key(key[:i], ontology)[0])  # fmt: skip


def _resolve_items(list_text: str, ontology: Ontology) -> tuple[Mapping[str, RiskLevel], tuple[str, ...], bool]:
    """Allergen codes (with the strongest level the items carry) named by a list, the items that did not resolve, and
    whether every item is a physical hazard ("may contain stones": no allergen warning at all). The result is shared
    (remembered per ontology): read it, never change it."""
    return remembered(ontology, "phrase_lists", list_text, lambda: _read_items(list_text, ontology))


def _read_items(list_text: str, ontology: Ontology) -> tuple[Mapping[str, RiskLevel], tuple[str, ...], bool]:
    named: dict[str, RiskLevel] = {}
    unresolved: list[str] = []
    hazards = others = 0
    for raw in _ITEM_SPLIT.split(list_text, timeout=_TIMEOUT):
        item = _ITEM_LEAD.sub("", raw.strip(" .:-'\"*_!?"), timeout=_TIMEOUT).strip(" .:-'\"*_")
        item = _ITEM_TAIL.sub("", item, timeout=_TIMEOUT).strip()
        if " " in item:
            item = _ITEM_REASON.sub("", item, timeout=_TIMEOUT).strip()
        if not item or not any(ch.isalpha() for ch in item):
            continue
        key = canonical_key(item)
        if key in furniture().physical_hazards:  # "may contain stones": no allergen, nothing unreadable
            hazards += 1
            continue
        others += 1
        syns, _key, _rule = resolve_key(key, ontology)
        if not syns:
            unresolved.append(item)
            continue
        for syn in syns:
            for path in ontology.allergen_paths(syn.canonical_id):
                cur = named.get(path.code)
                if cur is None or path.level.rank > cur.rank:
                    named[path.code] = path.level
    return MappingProxyType(named), tuple(unresolved), bool(hazards) and not others


def find_phrases(text: str, ontology: Ontology) -> PhraseScan:
    """Find the risk phrases, absence claims and list introducers of a label (pure)."""
    if len(text) > MAX_LABEL_CHARS:
        raise OntologyError(f"label text is {len(text)} characters; the limit is {MAX_LABEL_CHARS}", "ingredients_text")
    t, index_map = fold_with_map(text)

    def raw(a: int, b: int) -> tuple[int, int]:
        if index_map is None:
            return a, b
        if a >= b:
            ra = index_map[a] if a < len(index_map) else len(text)
            return ra, ra
        return index_map[a], index_map[b - 1] + 1

    def said(a: int, b: int) -> str:  # the raw text of a folded span: what a mask's checks read (dashes, markup kept)
        ra, rb = raw(a, b)
        if rb < len(text) and text[rb - 1 : rb].isalpha() and (m := _WORD_GOES_ON.match(text, rb)) is not None:
            rb = m.end()  # a line break inside a word ends the sentence, not the word: "… with che\nese"
        return text[ra:rb]

    chosen = _choose(_candidates(t, _index(ontology)))
    hits: list[PhraseHit] = []
    masks: list[tuple[int, int]] = []
    claims: list[str] = []
    capped: list[tuple[int, int]] = []
    statements: list[str] = []
    instruction_until = -1  # where the last masked instruction ends: a verb right after it goes on with it
    for n, c in enumerate(chosen):
        next_start = chosen[n + 1].start if n + 1 < len(chosen) else len(t)
        if c.kind == "intro":  # the free "see …" part stays text when it names an allergen (a missing comma)
            if not t.startswith(_POINTER_STARTS, c.start) and not _LIST_FOLLOWS.match(t, c.end):
                continue  # "Sugar, salt, less than 2% of": a list introducer with no list after it — the list was cut
            end = c.list_start if _mentions_allergen(said(c.list_start, c.end), ontology) else c.end
            a, b = raw(c.start, end)
            masks.append((a, b))
            if t.startswith(_POINTER_STARTS, c.start) and not shows_emphasis(text[:a] + " " + text[b:]):
                # "Allergens: see bold" names no allergen, and the emphasis it points to is lost from the text: it
                # applies to every profile allergen (issue 8, item 4)
                hits.append(PhraseHit(t[c.start : end].strip(), "ALLERGEN_NOTICE", RiskLevel.POSSIBLE, (), (a, b)))
            continue
        if c.kind in ("statement", "checked", "sentence", "advisory", "instruction", "instruction_item", "origin"):
            # a statement up to the end of its item (what follows a comma may be an ingredient again), an advisory,
            # contact line or instruction up to the end of its sentence, an origin line up to the end of its item
            # when it is short and says nothing of shared production (:mod:`furniture`)
            if c.kind in ("sentence", "advisory", "instruction", "instruction_item"):
                end = sentence_end(t, c.end, next_start)
            else:
                end = _sentence_end(t, c.end, next_start, ".!?,;")
            whole_end = end  # a name across the cut below is still asked whole ("… frutas con cáscara")
            if (c.kind == "checked" or (c.kind == "sentence" and _OPERATOR_LEAD.search(t, c.start, c.end))) and (
                    m := _WITH_WORDS.search(t, c.end, end, timeout=_TIMEOUT)):  # fmt: skip
                end = m.start()  # "Brewed by Acme with Maris Otter": what it is made with is read, not masked
            if c.kind == "origin" and not origin_line(t[c.end : end], ontology.modifiers):
                continue
            # "Faites cuire 10 minutes dans l'eau bouillante, égouttez et servez": a verb right after a masked
            # instruction of the same sentence goes on with it (its cue was that sentence's)
            goes_on = c.kind == "instruction_item" and instruction_until >= 0 and not t[
                instruction_until : c.start].strip(" ,;")  # fmt: skip
            if c.kind in ("instruction", "instruction_item") and not goes_on and not instruction(
                    t[c.start : sentence_end(t, c.end, len(t))], after_comma=c.kind == "instruction_item"):  # fmt: skip
                continue  # the cue may sit past the next phrase of the same sentence ("…, refrigerate and use within 3 days")
            start = c.start
            if _WARNING_WORDS.search(t, c.end, end, timeout=_TIMEOUT) is not None:
                # "Aufgrund der Herstellung sind Spuren … nicht auszuschließen", "Packed on shared lines": a lead
                # never hides a warning — only its own words are masked, the rest is read (and unknown: VERIFY)
                if c.kind not in ("instruction", "instruction_item"):
                    masks.append(raw(c.start, c.end))
                    statements.append(text[slice(*raw(c.start, c.end))])
                continue
            if c.kind in ("instruction", "instruction_item", "advisory") and _unread_words(said(c.start, end), ontology):
                continue  # "Cook the Yorkshires for 4 min": a word nothing reads may be the product's name
            if (c.kind == "checked" and _unread_words(said(c.end, end), ontology)) or (
                    c.kind == "statement" and t[c.start : c.end] not in furniture().nutrition_heads
                    and _unread_near_allergen(said(c.end, end), ontology)) or (
                    c.kind == "sentence" and _OPERATOR_LEAD.search(t, c.start, c.end)
                    and _unread_near_allergen(said(c.end, end), ontology, longer=False)):  # fmt: skip
                # "Inedible rind coated with hazlenuts": a word nothing reads after a checked statement is no part
                # of it — only the statement's own words are masked; so after a statement or an operator line for a
                # word nothing reads that is near a name carrying an allergen ("Keep refrigerated eggz.", "Net Qty
                # 200 g mozarella", "Mfd. by: Acme Pvt. Ltd., mlk") — an address's own words are left to the line
                end = c.end
            if c.kind in ("instruction", "instruction_item") and _mentions_allergen(said(c.start, end), ontology):
                if "(" in t[c.start : end] or "[" in t[c.start : end]:
                    continue  # "Cook for 2 minutes (with butter)": a bracket holds components — nothing is masked
                # "Add milk to taste", "Heat 200 ml milk for 2 minutes": what it names may be in the product (the
                # verb may begin a name), so each allergen it names is POSSIBLE; its other words are the
                # consumer's part, masked like any instruction
                a, b = raw(c.start, end)
                asked = [(k, *mention_codes(k, ontology)) for k in _asked_keys(said(c.start, end), ontology)]
                mentioned = {code for _k, codes, _more in asked for code in codes}
                # what only a compound, a glued word or an OCR glyph names ("cr ab", "50le") has no code here: the
                # statement then applies to every profile allergen
                hidden = tuple(k for k, _codes, more in asked if more)
                hits.append(PhraseHit(text[a:b].strip(), "PREPARATION", RiskLevel.POSSIBLE, _ordered(tuple(mentioned)),
                                      (a, b), hidden))  # fmt: skip
                masks.append((a, b))
                statements.append(text[a:b])
                instruction_until = end
                continue
            if _mentions_allergen(said(c.end, whole_end), ontology):
                end = c.end  # "keep refrigerated peanuts": only the statement's own words are masked
            elif c.kind == "statement" and t[c.start : c.end] in furniture().nutrition_heads:
                end = _table_end(t, end, next_start, ontology)
                # "prepared with 35 g of fruit per 100 g": the amount before "per 100 g" belongs to the statement
                lead = _item_start(t, c.start, chosen[n - 1].end if n > 0 else 0, conj=False)
                if lead < c.start and quantity_lead(t[lead : c.start]) and not _mentions_allergen(
                        said(lead, c.start), ontology) and not _unread_words(said(lead, c.start), ontology):  # fmt: skip
                    start = lead  # never a food nothing reads ("made with 35 g hazlenuts per 100 g")
            masks.append(raw(start, end))
            statements.append(text[slice(*raw(start, end))])
            if c.kind in ("instruction", "instruction_item"):
                instruction_until = end
            continue
        if c.kind in ("absence", "suffix"):
            if (denied := _denial(t, c.start, c.end, _sentence_end(t, c.end, next_start, ".!?,;"))) is not None:
                # "Not free of gluten", "No es libre de gluten", "Gluten free: No": no claim, a warning that the
                # allergen it names may be there; "Not suitable for coeliacs" says the product has gluten, "not
                # suitable for vegetarians" says nothing of allergens
                if t[c.start : c.end] not in _SUITABILITY:
                    if c.kind == "suffix":  # the whole item before "free" ("crème caramel free: No")
                        obj_start, obj_end = _item_start(t, c.start, chosen[n - 1].end if n > 0 else 0, conj=False), c.end
                        obj = t[obj_start : c.end].removesuffix("frei").removesuffix(" free")
                    else:
                        obj_start, obj_end = c.end, _first_item_end(t, c.end, next_start)
                        obj = t[obj_start:obj_end]
                    named_codes, more = mention_codes(canonical_key(_region_text(obj)), ontology)
                    if named_codes and not more and not _unread_words(obj, ontology):
                        a, b = raw(min(denied[0], c.start), max(denied[1], obj_end))
                        masks.append((a, b))
                        hits.append(PhraseHit(text[a:b].strip(), "CROSS_CONTAMINATION", RiskLevel.POSSIBLE,
                                              _ordered(tuple(named_codes)), (a, b)))  # fmt: skip
                    continue
                if t[c.start : c.end] in _SUITABILITY:
                    item_end = _sentence_end(t, c.end, next_start, ".!?,;")
                    m = _AUDIENCE.search(t, c.end, item_end, timeout=_TIMEOUT)
                    if m is not None and m.group("allergy") is None and not _mentions_allergen(
                            said(c.end, m.end()), ontology):  # fmt: skip
                        a, b = raw(_item_start(t, c.start, chosen[n - 1].end if n > 0 else 0, conj=False), m.end())
                        masks.append((a, b))
                        if _COELIAC.match(m.group(0)) is not None:
                            hits.append(PhraseHit(text[a:b].strip(), "NOT_SUITABLE", RiskLevel.DEFINITE, ("GLUTEN",),
                                                  (a, b)))  # fmt: skip
                        else:
                            statements.append(text[a:b])
                continue
            prev_end = chosen[n - 1].end if n > 0 else 0
            if c.kind == "suffix":
                start, end = c.start, c.end
                if t.endswith("frei", c.start, c.end) and _compound_stem(t[c.start : c.end - 4], ontology):
                    continue  # "Butterwasserfrei" is "Butter wasserfrei" run together, not "free of Butterwasser"
                lead = _item_start(t, c.start, prev_end)  # "dairy and" of "dairy and gluten free"
                if lead < start:
                    capped.append(raw(lead, start))
            else:
                start, end = c.start, _first_item_end(t, c.end, next_start)
                if _split_word(t[c.start : c.end], t[c.end : end], ontology):
                    continue  # "sin gle gloucester" is single Gloucester split by a space, not "without gle…"
                obj = canonical_key(t[c.end : end])
                if t[c.start : c.end] in _OPENING_ONLY and not resolve_key(obj, ontology)[0]:
                    continue  # "no se descarta la presencia…" (Spanish "not"): "no" claims only a name that follows
                suitability = t[c.start : c.end] in _SUITABILITY
                if (not suitability and " " in obj and not resolve_key(obj, ontology)[0]
                        and _mentions_allergen(obj, ontology)):  # fmt: skip
                    end = c.end  # "sans sucre ajouté lait": not one name — only the claim word is masked
                elif suitability and _mentions_allergen(obj, ontology):
                    # "Suitable for vegetarians milk chocolate": the claim ends with its audience, and what follows
                    # is read ("suitable for milk allergy sufferers" has no audience word: only the lead is masked)
                    m = _AUDIENCE.search(t, c.end, end, timeout=_TIMEOUT)
                    if m is None or m.group("allergy") is None:  # "people with milk allergy": the claim's own
                        audience = m is not None and not _mentions_allergen(said(c.end, m.end()), ontology)
                        end = m.end() if audience and m is not None else c.end
                rest = _sentence_end(t, end, next_start, ".!?")
                if rest > end:  # "free from nuts, gluten and dairy": the other items may be claimed absent too
                    capped.append(raw(end, rest))
            masks.append(raw(start, end))
            claims.append(text[slice(*raw(start, end))])
            continue
        phrase = c.phrase
        assert phrase is not None
        list_end = c.list_end if c.list_end is not None else _sentence_end(t, c.list_start, next_start, ".!?")
        named, unresolved, hazards_only = _resolve_items(t[c.list_start : list_end], ontology)
        span_end = max(c.end, list_end)
        if hazards_only:  # "may contain stones", "Warning: contains small bones": a physical hazard, no allergen
            masks.append(raw(c.start, span_end))
            statements.append(text[slice(*raw(c.start, span_end))])
            continue
        if phrase.type == "CONTAINS":
            masks.append(raw(c.start, c.list_start))
            codes = tuple(code for code, lvl in named.items() if lvl in (RiskLevel.DEFINITE, RiskLevel.DERIVED))
            if codes:
                hits.append(
                    PhraseHit(phrase.phrase, phrase.type, phrase.level, _ordered(codes), raw(c.start, list_end))
                )
            continue
        if phrase.type in MASKING_TYPES:
            masks.append(raw(c.start, span_end))
        codes = tuple(named) + tuple(a for a in phrase.allergens if a not in named)
        hits.append(PhraseHit(phrase.phrase, phrase.type, phrase.level, _ordered(codes), raw(c.start, span_end),
                              tuple(unresolved)))  # fmt: skip
    return PhraseScan(tuple(hits), tuple(masks), tuple(claims), tuple(capped), tuple(statements))


def _table_end(t: str, end: int, limit: int, ontology: Ontology) -> int:
    """After a nutrition heading's item: extend over the following items while each is a nutrition-table row (and,
    belt and braces, names no allergen)."""
    while end < limit and t[end] in ",;/.\n|":
        nxt = _sentence_end(t, end + 1, limit, ".!?,;/|")
        row = t[end + 1 : nxt]
        if not nutrition_row(row) or _mentions_allergen(row, ontology):
            break
        end = nxt
    return end


_CLAIM_CONJ = regex.compile(r" (?:and|et|und|y|e|ou|or|&|and/or|et/ou) ")


def _first_item_end(t: str, start: int, limit: int) -> int:
    """End of the object of an absence prefix: the next separator, bracket or conjunction."""
    end = _sentence_end(t, start, limit, ".,;()[]")
    m = _CLAIM_CONJ.search(t, start, end, timeout=_TIMEOUT)
    return m.start() if m else end


def _item_start(t: str, claim_start: int, floor: int, conj: bool = True) -> int:
    """Start of the item before ``claim_start``; with ``conj``, only when it holds conjunction-joined words (those
    before a suffix claim: "dairy and gluten free" → "dairy and ")."""
    i = claim_start
    while i > floor and t[i - 1] not in ",;.()[]:\n":
        i -= 1
    if not conj:
        return i
    segment = t[i:claim_start]
    return i if _CLAIM_CONJ.search(" " + segment.strip() + " ", timeout=_TIMEOUT) else claim_start


def _ordered(codes: tuple[str, ...]) -> tuple[str, ...]:
    from dinecheck.allergens.ontology import ALLERGEN_CODES

    return tuple(c for c in ALLERGEN_CODES if c in set(codes))
