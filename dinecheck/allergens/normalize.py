"""Normalisation of tokens to canonical ingredients by EXACT lookup (stage 3 of the allergen pipeline).

A token's key (:func:`~dinecheck.allergens.text.lookup_key`, E-numbers canonicalised by the tokenizer) is looked up
in the ontology's synonym table. Nothing else ever matches: no substring, prefix or fuzzy matching ("pea" is not
"peanut", "nutmeg" is not a nut, "buckwheat" is not wheat). When the exact key is absent, a few CONTROLLED rules
rewrite the key, and the rewrite only counts if the result is itself an exact ontology key:

1. ``e-number base``: an E-number with a sub-letter falls back to its base (``e322i`` → ``e322``; ``e150d`` →
   ``e150`` only when ``e150d`` itself is not an entry).
2. ``article``: one leading article/partitive is dropped (``des oeufs`` → ``oeufs``, ``d'orge`` → ``orge``,
   ``the almonds`` → ``almonds``).
3. ``qualifier``: an "organic"/"bio" qualifier or a trailing "following/suivants" is dropped (``organic sesame
   oil`` → ``sesame oil``, ``lait bio`` → ``lait``, ``ferments lactiques suivants``); it never says what a thing is.
4. ``inflection``: a plural/inflection ending of the last word (or, for French/Italian/Spanish "X de Y" names, the
   first word) is removed or replaced (``-s``, ``-es``, ``-ies→-y``, ``-x``, ``-n``, ``-en``, ``-e``, ``-er``,
   ``-i→-o``, ``-i→-e``, ``-e→-a``).

When one key names several canonical ingredients, all of them are kept (their allergens are all reported).

A hyphenated token that does not resolve may resolve with its words joined (rule ``joined``: a word broken across a
line, "Antioxidations-mittel"); so may a token with one word split by a space ("sirop de glu cose", "Sonnenblumen
kerne"), when the joined name keeps every allergen a word of the token names. A multi-word token that does not resolve but reads exactly as 2+ consecutive names (:func:`segment`: a label missing
its commas, "ROASTED PEANUTS SUGAR") resolves with rule ``segmented``: its allergens are held at POSSIBLE and the
verdict is VERIFY — the reading is a guess.

:func:`word_hints` looks inside a token that did NOT resolve: its whole-word n-grams (longest first, non-overlapping,
each resolved exactly as above) that name known ingredients. Detection reports allergens found this way at POSSIBLE
level only (source ``"unknown"``): the token is unknown, so the label is VERIFY anyway, and the hint says why it may
matter ("ROASTED PEANUTS SUGAR" with a missing comma → PEANUT possible). A word is never matched inside another word
("buckwheat" contains no word "wheat").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from itertools import takewhile
from typing import Any, TypeVar

from dinecheck.allergens import glyphs
from dinecheck.allergens.furniture import (
    common_words,
    furniture,
    is_place,
    only_function_words,
    operator_name,
    timed_instruction,
    verb_final_instruction,
)
from dinecheck.allergens.modifiers import (
    DESCRIBING,
    GRAIN_CATEGORIES,
    MALTED,
    modifier_readings,
    only_modifiers,
    strip_modifiers,
    without_adverbs,
)
from dinecheck.allergens.ontology import (
    LANGUAGES,
    STANDALONE_FOOD_SENSES,
    UNKNOWN_COMPOSITION_CATEGORIES,
    Ontology,
    RiskLevel,
    Synonym,
)
from dinecheck.allergens.tokenize import (
    Token,
    canonical_key,
    e_number_base,
    ins_key,
    is_purpose_note,
    is_quantity_note,
    quantity_names,
)

_ARTICLES = (
    "the ", "a ", "an ", "some ", "de la ", "de l'", "du ", "des ", "de ", "d'", "le ", "la ", "les ", "l'", "der ",
    "die ", "das ", "den ", "dem ", "von ", "el ", "los ", "las ", "del ", "di ", "il ", "lo ", "gli ", "dei ",
    "degli ",
    "delle ", "della ", "dello ", "dall'", "dell'",
)  # fmt: skip

_QUALIFIER_PREFIXES = ("certified organic ", "organic ", "organically grown ", "bio ", "biological ")
_QUALIFIER_SUFFIXES = (" suivants", " suivantes", " following", " bio", " biologique", " biologiques", " organic", " biologico", " biologica", " biologici",
                       " ecologico", " ecologica", " ecologicos", " ecologicas", " biologisch")  # fmt: skip

# (suffix to remove, replacement, the languages whose plural or feminine ending it undoes) tried in order on one
# word; the word must keep at least 3 letters
_INFLECTIONS = (
    ("ies", "y", frozenset({"en"})), ("oes", "o", frozenset({"en"})), ("es", "", frozenset({"en", "fr", "es"})),
    ("s", "", frozenset(LANGUAGES)), ("x", "", frozenset({"fr"})), ("en", "", frozenset({"de"})),
    ("n", "", frozenset({"de"})), ("er", "", frozenset({"de"})), ("e", "", frozenset({"de", "fr"})),
    ("i", "o", frozenset({"it"})), ("i", "e", frozenset({"it"})), ("e", "a", frozenset({"it"})),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Resolution:
    """A token and what it resolved to: every synonym with the matching key (empty when unmatched), the key that
    matched and the rule used (``exact``, ``e-number base``, ``article``, ``inflection``)."""

    token: Token
    synonyms: tuple[Synonym, ...]
    key: str | None
    rule: str | None

    @property
    def matched(self) -> bool:
        return bool(self.synonyms)


def _by_char(items: Iterable, char: Callable[[Any], str]) -> dict[str, tuple]:
    """``items`` grouped by one character (their first or last), each group in the original order: a string can
    only start (end) with an item whose first (last) character is its own, so only that group is tried."""
    out: dict[str, list] = {}
    for item in items:
        out.setdefault(char(item), []).append(item)
    return {c: tuple(group) for c, group in out.items()}


_NO_LANGS: frozenset[str] = frozenset()
_ARTICLES_BY_FIRST = _by_char(_ARTICLES, lambda a: a[0])
_PREFIXES_BY_FIRST = _by_char(_QUALIFIER_PREFIXES, lambda q: q[0])
_SUFFIXES_BY_LAST = _by_char(_QUALIFIER_SUFFIXES, lambda q: q[-1])
_INFLECTIONS_BY_LAST = _by_char(_INFLECTIONS, lambda rule: rule[0][-1])


def _inflected(word: str) -> Iterable[str]:
    for form, _langs in _inflections(word):
        yield form


def _inflections(word: str) -> Iterable[tuple[str, frozenset[str]]]:
    """The forms ``word`` may be an inflection of, each with the languages of the ending undone."""
    for suffix, repl, langs in _INFLECTIONS_BY_LAST.get(word[-1:], ()):
        if word.endswith(suffix) and len(word) - len(suffix) + len(repl) >= 3:
            if suffix == "s" and word.endswith("ss"):
                langs = _NO_LANGS  # no language adds "-s" to an s: "peanutss" is a typo, "poiss" poisson cut off
            yield word[: len(word) - len(suffix)] + repl, langs


def _variants(key: str) -> Iterable[tuple[str, str, frozenset[str]]]:
    """Rewrites of a key to look up: ``(variant, rule, languages)``; an inflection names the languages of the
    ending it undid (the other rules: none)."""
    base = e_number_base(key) if key[:1] == "e" else None  # an E-number key starts with "e"
    if base:
        yield base, "e-number base", _NO_LANGS
        return
    stems = [key]
    for art in _ARTICLES_BY_FIRST.get(key[:1], ()):
        if key.startswith(art) and len(key) > len(art) + 1:
            stripped = key[len(art) :].lstrip()
            stems.append(stripped)
            yield stripped, "article", _NO_LANGS
            break
    for stem in list(stems):
        for q in _PREFIXES_BY_FIRST.get(stem[:1], ()):
            if stem.startswith(q) and len(stem) > len(q) + 1:
                stems.append(stem[len(q) :])
                yield stem[len(q) :], "qualifier", _NO_LANGS
        for q in _SUFFIXES_BY_LAST.get(stem[-1:], ()):
            if stem.endswith(q) and len(stem) > len(q) + 1:
                stems.append(stem[: -len(q)])
                yield stem[: -len(q)], "qualifier", _NO_LANGS
    for stem in stems:
        words = stem.split(" ")
        for w, langs in _inflections(words[-1]):
            yield " ".join((*words[:-1], w)), "inflection", langs
        if len(words) > 1:
            for w, langs in _inflections(words[0]):
                yield " ".join((w, *words[1:])), "inflection", langs


_Resolved = tuple[tuple[Synonym, ...], str | None, str | None]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Memo:
    """What is remembered for one ontology, each a pure function of a key: key resolutions (``resolved``), token
    readings with the joined/segmented fallbacks (``readings``, ``readings_hyphenated``), whether a note names an
    allergen (``notes``), word hints (``hints``), the tokenizer's item plans (``plans``, see
    :func:`~dinecheck.allergens.tokenize.tokenize`) and the phrase stage's list readings."""

    resolved: dict[str, _Resolved] = field(default_factory=dict)
    readings: dict[str, _Resolved] = field(default_factory=dict)
    readings_hyphenated: dict[str, _Resolved] = field(default_factory=dict)
    notes: dict[str, bool] = field(default_factory=dict)
    hints: dict[str, tuple[tuple[str, tuple[Synonym, ...]], ...]] = field(default_factory=dict)
    plans: dict = field(default_factory=dict)
    phrase_lists: dict = field(default_factory=dict)  # risk-phrase list text → what it names (:mod:`phrases`)
    mentions: dict[str, bool] = field(default_factory=dict)  # text → whether it names an allergen (:mod:`phrases`)
    suggestions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # unknown key → close names (:mod:`suggest`)
    choice_keys: list[str] = field(default_factory=list)  # every synonym key, for the suggestion search
    run_together: dict[str, _Resolved] = field(default_factory=dict)  # token text → its case-change reading
    glued: dict[str, _Resolved] = field(default_factory=dict)  # one-word key → its two-word name, space lost
    inverted: dict[str, _Resolved] = field(default_factory=dict)  # "a of b" key → the name "b a"
    glyphs: dict[str, _Resolved] = field(default_factory=dict)  # unknown key → its reading with OCR glyphs put back
    letters: dict[str, _Resolved] = field(default_factory=dict)  # unknown key → its reading with L and i swapped
    known: dict[str, bool] = field(default_factory=dict)  # key → whether it is a known name with modifiers around it
    may_carry: dict[str, bool] = field(default_factory=dict)  # matched key → whether a name of it has a POSSIBLE path
    bare_notes: dict[str, bool] = field(default_factory=dict)  # unknown key → whether it is only a place / modifiers
    quantity: dict[str, _Resolved] = field(default_factory=dict)  # quantity statement key → the foods it names
    unknown_words: dict[str, bool] = field(default_factory=dict)  # instruction text → whether a word is unread
    colour_keys: dict[str, bool] = field(default_factory=dict)  # matched key → whether it names the colour class
    allergen_words: list[str] = field(default_factory=list)  # one-word names that carry an allergen, sorted
    core_words: list[str] = field(default_factory=list)  # one-word names of the allergen families' own foods
    half_names: dict[str, bool] = field(default_factory=dict)  # note key → whether it may begin a name cut off
    describes: dict[str, bool] = field(default_factory=dict)  # unknown key → whether it is made of modifiers only
    class_only: dict[str, bool] = field(default_factory=dict)  # matched key → whether every reading is a class


MAX_MEMO = 200_000  # entries per table; beyond it keys are computed afresh (memory stays bounded)
MAX_MEMO_KEY = 256  # longer keys (rare, or hostile) are not remembered by the tables added for speed


def memo_for(ontology: Ontology) -> Memo | None:
    """The memo tables of an ontology, owned by the ontology object itself (an :class:`Ontology` is immutable; a
    changed store builds a new one, with new tables). Only a plain ``dict`` synonym table is memoised: any other
    mapping may be a live view (e.g. a database) and is asked every time."""
    memo = ontology.memo
    if memo is None:
        if type(ontology.synonyms) is not dict:
            return None
        memo = Memo()
        ontology.memo = memo  # one assignment: threads racing here each build an equal, empty memo
    return memo


def remembered(ontology: Ontology, table: str, key: str, compute: Callable[[], T]) -> T:
    """``compute()``, remembered in the memo table ``table`` of ``ontology`` (bounded in entries and key length)."""
    memo = memo_for(ontology)
    if memo is None:
        return compute()
    cache = getattr(memo, table)
    value = cache.get(key)
    if value is None:
        value = compute()
        if len(cache) < MAX_MEMO and len(key) <= MAX_MEMO_KEY:
            cache[key] = value
    return value


def resolve_key(key: str, ontology: Ontology) -> tuple[tuple[Synonym, ...], str | None, str | None]:
    """``(synonyms, matched_key, rule)`` for a lookup key; ``((), None, None)`` when nothing matches exactly."""
    entry = ontology.memo
    if entry is None:
        entry = memo_for(ontology)
    memo = entry.resolved if entry is not None else None
    hit = memo.get(key) if memo is not None else None
    if hit is not None:
        return hit
    result: _Resolved = ((), None, None)
    found = ontology.synonyms.get(key)
    if found:
        result = (tuple(found), key, "exact")
    else:
        for variant, rule, langs in _variants(key):
            found = ontology.synonyms.get(variant)
            if found and rule == "inflection":  # a guessed ending lands only on names of the label languages
                found = [s for s in found if s.lang is None or s.lang in LABEL_LANGUAGES]  # ("jaunes" is no "jaun")
                if found and not any(s.lang is None or s.lang in langs for s in found) and _cut_off(key, found,
                                                                                                      ontology):
                    found = []  # "pean" is no English pea with a German "-n": a word cut off ("peanut")
            if found and _keeps_words(key, variant, found, ontology):
                result = (tuple(found), variant, rule)
                break
    if memo is not None and len(memo) < MAX_MEMO:
        memo[key] = result
    return result


_POSSIBLE = RiskLevel.POSSIBLE.rank
# the languages an inflection rewrite may land in: the label languages, and Latin (scientific names)
LABEL_LANGUAGES = frozenset({*LANGUAGES, "la"})


def _allergen_words(ontology: Ontology) -> list[str]:
    """The one-word names of the label languages that carry an allergen, sorted (remembered per ontology; an ontology
    with a plain dict of synonyms)."""
    memo = memo_for(ontology)
    if memo is not None and memo.allergen_words:
        return memo.allergen_words
    names = sorted(k for k, syns in ontology.synonyms.items() if " " not in k and _label_codes(syns, ontology))
    if memo is not None:
        memo.allergen_words.extend(names)
    return names


def _cut_off(key: str, found: Iterable[Synonym], ontology: Ontology) -> bool:
    """Whether a word of ``key`` may be a longer name cut off (a list cut in the middle of a word, a line break): it
    begins a one-word name of the label languages that carries an allergen the inflected reading ``found`` lacks
    ("pean" begins "peanut": German "-n" would read an English pea; "pean starch" too). A live view of a database (no
    memo) is asked through its ``starting_with(prefix)`` keys; one that cannot say is taken to hold such a name."""
    have = _codes(found, ontology)
    synonyms = ontology.synonyms
    for word in key.split(" "):
        if len(word) < 4:
            continue
        if type(synonyms) is dict:
            names = _allergen_words(ontology)
            longer: Iterable[str] = takewhile(partial(_begins, word), names[bisect_left(names, word) :])
        else:
            starting_with = getattr(synonyms, "starting_with", None)
            if starting_with is None:
                return True
            longer = (n for n in starting_with(word) if " " not in n)
        if any(name != word and not _label_codes(synonyms[name], ontology) <= have for name in longer):
            return True
    return False


def _begins(prefix: str, name: str) -> bool:
    return name.startswith(prefix)


def _label_codes(syns: Iterable[Synonym], ontology: Ontology) -> set[str]:
    """The allergen codes of the synonyms of the label languages (an imported name of another language is left out:
    Finnish "kalmarit" does not make Italian "kalmari" a word cut off)."""
    return _codes((s for s in syns if s.lang is None or s.lang in LABEL_LANGUAGES), ontology)


def _keeps_words(key: str, variant: str, found: Iterable[Synonym], ontology: Ontology) -> bool:
    """A rewrite ("l casein" → "l casei", an inflection) counts only if it keeps every allergen that a word of the
    key surely names on its own (DEFINITE/DERIVED: "casein" is milk; Lactobacillus casei is not). When the rewrite
    only drops words around a name, the words of that name belong to it ("coque", a cockle, in "des fruits à coque"
    → "fruits à coque"); a rewrite that changes a word keeps the check for all ("sucres semoule" is no "sucre
    semoule": "semoule" alone is wheat). Nor may it drop what two neighbouring words joined name at any level: the
    key may be one word split by a space ("a chards" is no article + chards when "achards" may hold celery)."""
    words = key.split(" ")
    if len(words) < 2:
        return True
    kept = set(variant.split(" ")) if f" {variant} " in f" {key} " else set()
    found = tuple(found)
    have = {p.code for s in found for p in ontology.allergen_paths(s.canonical_id)}
    for w in words:
        if w in kept:
            continue
        syns = ontology.synonyms.get(w)
        if not syns:
            continue
        codes = {p.code for s in syns for p in ontology.allergen_paths(s.canonical_id) if p.level.rank > _POSSIBLE}
        if not codes <= have:
            return False
    return _keeps_joins(words, have, ontology)


def _keeps_joins(words: list[str], have: set[str], ontology: Ontology) -> bool:
    """Whether no two neighbouring words, joined, are a name carrying an allergen outside ``have``."""
    return _join_codes(words, ontology) <= have


def _join_codes(words: list[str], ontology: Ontology) -> set[str]:
    """The allergens named once two neighbouring words are joined (the words may be one word split by a space: "E
    is" may be "Eis"; "wafer con e" may be "wafer cone"), any pair (:func:`pair_join_codes`)."""
    codes: set[str] = set()
    for i in range(len(words) - 1):
        codes |= pair_join_codes(words, i, ontology)
    return codes


def pair_join_codes(words: list[str], i: int, ontology: Ontology) -> set[str]:
    """The allergens named once ``words[i]`` and ``words[i + 1]`` are joined: the joined word alone, and the names of
    the key it makes with the words around it. An imported name of unknown composition counts only what it surely
    carries (OFF's "wheatflour" is gluten; its other allergens are the import's doubt, not knowledge of the word)."""
    a, b = words[i], words[i + 1]
    # a word of two senses written with and without its space ("whole grain", "wholegrain") joins into itself: what
    # it is here (a modifier inside a name, or a food) is the reading's decision, not a hidden word's (``itself``)
    found = list(ontology.synonyms.get(a + b, ()))
    itself = {s.canonical_id for s in found} if f"{a} {b}" in STANDALONE_FOOD_SENSES else set()
    if len(words) > 2:  # the names the joined word makes with its neighbours ("wafer cone")
        joined = " ".join((*words[:i], a + b, *words[i + 2 :]))
        found.extend(resolve_key(joined, ontology)[0])
        found.extend(s for gram, syns in word_hints(joined, ontology) if a + b in gram.split(" ") for s in syns)
    found = [s for s in found if s.canonical_id not in itself]
    codes: set[str] = set()
    for syn in found:
        floor = _POSSIBLE if ontology.ingredients[syn.canonical_id].category in UNKNOWN_COMPOSITION_CATEGORIES else -1
        codes.update(p.code for p in ontology.allergen_paths(syn.canonical_id) if p.level.rank > floor)
    return codes


MIN_COMPOUND_END = 5  # a part at the start or the end of a compound ("Milchschaum", "Vollmilch")
MIN_COMPOUND_INNER = 6  # a part anywhere inside it ("Nordseekrabbenfleisch")


def hidden_mentions(key: str, ontology: Ontology) -> bool:
    """Whether a word of ``key`` names an allergen food that a whole-word lookup misses: a word that is no name but
    is a two-word name with its space lost ("skimmilk", "fishfingers"), or holds one that carries an allergen — five
    letters or more at its start or end, six or more inside ("Milchschaum", "Cashewkernbruch",
    "Nordseekrabbenfleisch") — or two neighbouring words that joined name one ("grou ndnut"). A mask or a note never
    hides such a word (a guess toward caution, never toward SAFE)."""
    words = key.split(" ")
    paths = ontology.allergen_paths
    synonyms = ontology.synonyms
    vocabulary = furniture().words
    for i, w in enumerate(words):
        if i + 1 < len(words) and pair_join_codes(words, i, ontology):
            return True
        if (len(w) < MIN_COMPOUND_END + 1 or not w.isalpha() or w in vocabulary or w in ontology.modifiers
                or resolve_key(w, ontology)[0]):  # fmt: skip
            continue
        for cut in range(MIN_GLUED_PART, len(w) - MIN_GLUED_PART + 1):
            if any(paths(syn.canonical_id) for syn in resolve_key(f"{w[:cut]} {w[cut:]}", ontology)[0]):
                return True
        n = len(w)
        for size in range(MIN_COMPOUND_END, n):
            starts = range(n - size + 1) if size >= MIN_COMPOUND_INNER else (0, n - size)
            if any(paths(syn.canonical_id) for at in starts for syn in synonyms.get(w[at : at + size], ())):
                return True
    return False


def unknown_words(key: str, ontology: Ontology) -> bool:
    """Whether ``key`` holds a word of three letters or more that nothing reads: no name, no modifier, no word of
    the label furniture ("yorkshires" in "cook the yorkshires for 4 min at 220c") — a mask that would hide it may be
    hiding the product's own name."""
    vocabulary = furniture().words
    mods = ontology.modifiers
    for w in key.replace("'", " ").split(" "):
        if len(w) < 3 or not w.isalpha() or w in vocabulary or w in mods:
            if not w.isalpha() and (glyphs.readings(w) or _damaged_word(w)):
                return True  # "pean1ts", "5almon": letters with a glyph; "8utter", "2eggs": letters and digits
            continue
        if not resolve_key(w, ontology)[0] and w not in common_words():  # ordinary words naming no food: "tray"
            return True
    return False


# a word of letters and digits that is an amount, a code or an ordinal, not a word damaged: "200g", "10mins", "180c",
# "800w", "2x", "e330", "b12", "d3", "omega3", "1st", "2nd", "3eme", "gas4", "fan170"
_AMOUNT_OR_CODE = re.compile(
    r"\d+(?:[.,]\d+)?(?:g|gr|kg|mg|mcg|ug|µg|ml|cl|dl|l|lt|oz|lb|lbs|floz|min|mins|h|hr|hrs|s|sec|secs|c|f|w|kw|kcal"
    r"|kj|cal|x|cm|mm|st|nd|rd|th|er|e|eme|ere|o|a|pcs|pc|iu|ie|ui)?"
    r"|e\d{3,4}[a-z]{0,3}|ins\d{3,4}|[abdek]\d{1,2}|omega\d|gas\d{1,2}|fan\d{2,3}"
)


def _damaged_word(word: str) -> bool:
    """Whether a word mixing letters and digits is no amount, code or ordinal ("8utter", "2eggs", "m1lk" are words
    damaged or run together with a number: nothing reads them)."""
    return any(ch.isalpha() for ch in word) and _AMOUNT_OR_CODE.fullmatch(word) is None


def allergen_codes(key: str, ontology: Ontology) -> frozenset[str]:
    """Every allergen code the names of ``key`` carry (any level)."""
    return frozenset(p.code for s in resolve_key(key, ontology)[0] for p in ontology.allergen_paths(s.canonical_id))


def keeps_allergens(word: str, reading: str, ontology: Ontology) -> bool:
    """Whether ``reading`` carries every allergen ``word`` carries (a shared-word reading may not drop one)."""
    return allergen_codes(word, ontology) <= allergen_codes(reading, ontology)


def _codes(syns: Iterable[Synonym], ontology: Ontology) -> set[str]:
    return {p.code for s in syns for p in ontology.allergen_paths(s.canonical_id)}


def split_keeps(whole: str, parts: tuple[str, ...], ontology: Ontology) -> bool:
    """Whether reading the unknown key ``whole`` as its conjunction ``parts`` keeps every allergen of the names
    inside it (:func:`word_hints`). A known name may span the conjunction behind words that keep ``whole`` from
    resolving ("liofilizzate crema de avellanas y cacao allevato a terra": the spread carries MILK, no part does);
    then the split would drop an allergen, and the segment stays whole (unknown, its names as hints). So may a word
    split by a space around a conjunction ("E is": Eis, ice cream)."""
    inside = _codes((s for _gram, syns in word_hints(whole, ontology) for s in syns), ontology)
    inside |= _join_codes(whole.split(" "), ontology)
    if _glyph_sites(whole):  # what the names inside carry with their OCR glyphs put back counts too
        for cand in glyphs.readings(whole):
            inside |= _codes((s for _gram, syns in word_hints(cand, ontology) for s in syns), ontology)
    if not inside:
        return True
    split: set[str] = set()
    for part in parts:
        found = remembered(ontology, "readings", part, partial(_reading, part, False, ontology))[0]
        split |= _codes(found or (s for _gram, syns in word_hints(part, ontology) for s in syns), ontology)
    return inside <= split


def is_known(key: str, ontology: Ontology) -> bool:
    """Whether ``key`` names a known ingredient as a whole: it resolves, or it is a known name with modifiers around
    it. The tokenizer keeps a known text whole ("sweet and sour sauce", "oat clusters with nuts"); a name with
    modifiers must be kept whole too ("toasted oat clusters with nuts"), or splitting it on its conjunction reads
    other names than the bare name and may drop an allergen the whole name carries."""
    if resolve_key(key, ontology)[0]:
        return True
    # "copos de trig0 y salvado" is that name, damaged: kept whole like it
    if " " in key and _glyph_sites(key) and remembered(ontology, "glyphs", key, partial(_glyph_reading, key, ontology))[0]:
        return True
    return " " in key and remembered(ontology, "known", key, partial(_has_modifiers_around_a_name, key, ontology))


def _has_modifiers_around_a_name(key: str, ontology: Ontology) -> bool:
    return strip_modifiers(key, ontology) is not None


def normalize(tokens: Iterable[Token], ontology: Ontology) -> tuple[Resolution, ...]:
    """Resolve every token that is not a note; notes are returned unresolved with rule ``"note"`` — unless a word of
    the note names an allergen-bearing ingredient, in which case it is resolved like any ingredient."""
    out: list[Resolution] = []
    memo = memo_for(ontology)
    plain = memo.readings if memo is not None else {}  # the hot path: a remembered reading, no call
    for tok in tokens:
        key = tok.key
        quantity = tok.role == "note" and is_quantity_note(key)
        if quantity:
            # "187 g de viande utilisés pour 100 g de saucisson sec": the foods it names, read like ingredients
            foods = remembered(ontology, "quantity", key, partial(_quantity_reading, key, ontology))
            if foods[0]:
                out.append(Resolution(tok, *foods))
                continue
        # a purpose clause ("to protect color and flavor") is made of purpose words only: its "flavor" is no
        # ingredient; any other note that names an allergen is read as an ingredient
        if tok.role == "note" and (
            is_purpose_note(key) or _AMOUNT_WORD.fullmatch(key) is not None  # "148g" is no OCR-damaged word
            or not remembered(ontology, "notes", key, partial(names_allergen, key, ontology))
        ) and not (quantity and unknown_words(key, ontology)):  # "… 37 g Nutella je 100 g": a food nothing reads
            out.append(Resolution(tok, (), None, "note"))
            continue
        hyphenated = "-" in tok.text
        found = None if hyphenated else plain.get(key)
        if found is None:
            table = "readings_hyphenated" if hyphenated else "readings"
            found = remembered(ontology, table, key, partial(_reading, key, hyphenated, ontology))
        if found[0]:
            out.append(Resolution(tok, *found))
            continue
        if not found[0] and hyphenated:  # "Tri-Calcium Phosphate": joined where the hyphens were
            joined = canonical_key(tok.text.replace("-", ""))
            if joined != key:
                alt = remembered(ontology, "readings", joined, partial(_reading, joined, False, ontology))
                if alt[0] and _keeps_hints(key, alt[0], ontology):
                    found = (alt[0], alt[1], "joined")
        if not found[0] and _CASE_CHANGE.search(tok.text) is not None:
            text = tok.text
            found = remembered(ontology, "run_together", text, partial(_run_together, text, ontology)) or found
        if not found[0] and " " not in key and len(key) >= 2 * MIN_GLUED_PART:  # "yeastextract", "WHEATflour"
            found = remembered(ontology, "glued", key, partial(_glued, key, ontology)) or found
        if not found[0] and " of " in key:  # "oleoresin of paprika", "oil of peppermint"
            found = remembered(ontology, "inverted", key, partial(_inverted, key, ontology)) or found
        if not found[0] and key.startswith(_STEREO):  # "L-Tryptophan", "DL-alpha-tocopherol": the same substance
            bare = key.split(" ", 1)[1]
            alt = remembered(ontology, "readings", bare, partial(_reading, bare, False, ontology))
            if alt[0]:
                found = (alt[0], alt[1], "stereo prefix")
        if not found[0] and _HAS_DIGIT.search(key) is not None:  # "vitamin D 2.5µg", "calcio 9,2", "1000 IU"
            bare = " ".join(_AMOUNT_WORD.sub(" ", key).split())
            if bare.startswith("of "):  # "145 g of pork"
                bare = bare[3:]
            if bare and bare != key:
                alt = remembered(ontology, "readings", bare, partial(_reading, bare, False, ontology))
                if alt[0]:
                    found = (alt[0], alt[1], "amount")
        if not found[0] and " " in key and (bare := without_adverbs(key, ontology)) != key and remembered(
                ontology, "bare_notes", bare, partial(_bare_note, bare, ontology)):  # fmt: skip
            out.append(Resolution(tok, (), None, "note"))  # "Lightly carbonated": a note, as "carbonated" is
            continue
        if not found[0] and _glyph_sites(key):  # "sa1t", "cocoa rnass"
            found = remembered(ontology, "glyphs", key, partial(_glyph_reading, key, ontology))
        if not found[0] and _LETTER_GLYPH.search(key) is not None:  # "sodlum benzoate", "miik"
            found = remembered(ontology, "letters", key, partial(_letter_reading, key, ontology))
        if not found[0] and remembered(ontology, "bare_notes", key, partial(_bare_note, key, ontology)):
            # a place alone ("Origine du porc : France"): provenance; processing words alone ("Pasteurisé"): a state
            out.append(Resolution(tok, (), None, "note"))
            continue
        out.append(Resolution(tok, *found))
    return tuple(out)


def _quantity_reading(key: str, ontology: Ontology) -> _Resolved:
    """A quantity statement that names an allergen, read as the foods it names (:func:`~dinecheck.allergens.tokenize.
    quantity_names`): each name whole, or else each of its parts between function words ("pâte de noisettes" →
    pâte, noisettes) — when every one resolves and together they carry every allergen any word of the statement
    names and nothing is hidden in a compound or glued word. Else nothing: the statement stays unknown."""
    found: list[Synonym] = []
    for name in quantity_names(key):
        syns = remembered(ontology, "readings", name, partial(_reading, name, False, ontology))[0]
        if not syns:
            parts = [p for p in _FUNCTION_SPLIT.split(f" {name} ") if p.strip()]
            readings = [remembered(ontology, "readings", p, partial(_reading, p, False, ontology))[0]
                        for p in (part.strip() for part in parts)]  # fmt: skip
            if len(parts) < 2 or not all(readings):
                return (), None, None
            syns = tuple(s for r in readings for s in r)
        found.extend(syns)
    if not found or not _plain_codes(key, ontology) <= _codes(found, ontology) or hidden_mentions(key, ontology):
        return (), None, None
    return tuple(found), key, "quantity statement"


_FUNCTION_SPLIT = re.compile(r" (?:" + "|".join(sorted(map(re.escape, furniture().function_words), key=len,
                                                            reverse=True)) + r")(?= )")  # fmt: skip


def _bare_note(key: str, ontology: Ontology) -> bool:
    """An unknown key that is only a place, a fishing area, processing and quality words, function words and unit
    symbols ("les", "Not", "mg": a fragment of prose), or a verb-last instruction or a company name naming no
    allergen — a note."""
    if only_function_words(key):  # no word the ontology reads, nor two words joined that name an allergen ("E is")
        words = key.split(" ")
        return not any(resolve_key(w, ontology)[0] for w in words) and _keeps_joins(words, set(), ontology)
    if timed_instruction(key) and not unknown_words(key, ontology):
        # "Deep fry from frozen at 170C for 6-8 min" — but not "Pcanuts roasted at 180C for 10 min": an ingredient
        # may state its process, and a word nothing reads may be its (misspelt) name
        return not names_allergen(key, ontology)
    if verb_final_instruction(key) or operator_name(key):
        # "3-5 Minuten ziehen lassen", "Greenfield Larder Ltd", "Deep fry from frozen at 170C for 6-8 min": an
        # instruction, a company — unless it names an allergen
        return not names_allergen(key, ontology)
    return ontology.modifiers.get(key) == "modifier_origin" or is_place(key) or only_modifiers(key, ontology)


_HAS_DIGIT = re.compile(r"\d")
# an amount standing as a word of a token, with its unit or none: a supplement's dose ("vitamin D 2.5µg", "EPA 100mg",
# "1000 IU"), a mineral water's figure ("calcio 9,2"): what the rest names is what the token is. Never digits inside a
# word ("pean1ts", "0at5": OCR glyphs) nor a unit run into a word
# a bare whole number of three digits or more is never one: it may be an additive's code ("conservateur 220",
# "Emulgator 322", "enzyme 1105")
_AMOUNT_WORD = re.compile(r"(?<![^ (])[<>~]?(?:\d+(?:[.,]\d+)? ?(?:mg|µg|μg|mcg|ug|g|kg|ml|cl|l|iu|ie|ui|kcal|kj)"
                          r"|\d+[.,]\d+|\d{1,2})(?![^ )])")


_LETTER_GLYPH = re.compile(r"[li]")


def _glyph_sites(key: str) -> bool:
    """Whether ``key`` may hold an OCR glyph (a digit, or "rn"): the cheap test before :func:`_glyph_reading`."""
    return "rn" in key or _HAS_DIGIT.search(key) is not None


def _glyph_reading(key: str, ontology: Ontology) -> _Resolved:
    """An unknown key read with its OCR glyphs put back (:mod:`glyphs`: "sa1t" → salt, "cocoa rnass" → cocoa mass):
    the names of every reading that resolves, taken together — when they keep every allergen that any other thing
    the text may have been (every glyph put back, wherever it stands) names as a whole or in its words, and none of
    those that resolve to nothing holds a compound word naming an allergen or is one edit from a name carrying an
    allergen they lack (it may be that allergen's name, damaged twice). Else nothing: the token stays unknown."""
    # what else the text may have been: every glyph put back, wherever it stands ("vegetab1e gurn" may be
    # vegetable gum, though "rn" after a vowel is no glyph to read by)
    return _weighed_reading(glyphs.readings(key), glyphs.readings(key, loose=True), "glyphs", ontology)


def _letter_reading(key: str, ontology: Ontology) -> _Resolved:
    """An unknown key read with a lower-case L and an i taken for each other (:func:`glyphs.letter_readings`:
    "sodlum benzoate" → sodium benzoate, "miik" → milk), under the rules of :func:`_glyph_reading` (every reading
    is a doubt), and only when no word as written is one edit from a name carrying an allergen the reading lacks."""
    from dinecheck.allergens.suggest import one_edit_variants  # suggest reads this module's memo: imported late

    readings = glyphs.letter_readings(key)
    found = _weighed_reading(readings, readings, "letters", ontology)
    if found[0]:
        # the word as written may be another name misread just as well ("Paim d'épices" is pain d'épices, not palm;
        # "sait entier" lait entier): no reading when a word is one edit from a name carrying what the reading lacks
        # (every name one edit away is looked up, as a live view of a database is asked too)
        have = _codes(found[0], ontology)
        for word in key.split(" "):
            near = (s for v in (one_edit_variants(word) if len(word) >= 3 else ())
                    for s in ontology.synonyms.get(v) or ())  # fmt: skip
            if not _codes(near, ontology) <= have:
                return (), None, None
    return found


def _weighed_reading(readings: tuple[str, ...], doubts: tuple[str, ...], rule: str, ontology: Ontology) -> _Resolved:
    """The names of every reading of ``readings`` that resolves, taken together, when they keep every allergen any
    of ``doubts`` names and no doubt that resolves to nothing hides a compound or is near a name carrying another
    allergen (:func:`_glyph_reading`). Too many doubts to weigh (none given): no reading."""
    from dinecheck.allergens.suggest import close_names  # suggest reads this module's memo: imported late

    found: list[Synonym] = []
    keys: list[str] = []
    for cand in readings:
        syns = remembered(ontology, "readings", cand, partial(_reading, cand, False, ontology))[0]
        if syns:
            found.extend(syns)
            keys.append(cand)
    if not found:
        return (), None, None
    have = _codes(found, ontology)
    if not doubts:
        return (), None, None
    unread: list[str] = []
    for cand in dict.fromkeys((*keys, *doubts)):
        syns = remembered(ontology, "readings", cand, partial(_reading, cand, False, ontology))[0]
        if not syns:
            unread.append(cand)
        named = _codes((s for _gram, grams in word_hints(cand, ontology) for s in grams), ontology) | _codes(syns, ontology)
        if not named <= have or not _join_codes(cand.split(" "), ontology) <= have:
            return (), None, None
    for cand in unread:
        near = (s for n in close_names(cand, ontology, 1, min_chars=5) for s in ontology.synonyms.get(n, ()))
        if hidden_mentions(cand, ontology) or not _codes(near, ontology) <= have:
            return (), None, None
    return tuple(dict.fromkeys(found)), " | ".join(keys), rule


_STEREO = ("l ", "d ", "dl ", "l(+) ", "d(-) ")  # stereo-descriptors of a chemical name, hyphen folded to a space


def _keeps_hints(key: str, synonyms: tuple[Synonym, ...], ontology: Ontology) -> bool:
    """Whether a reading keeps every allergen the words of ``key`` name on their own (joining "egg-plant" may not
    drop what a word of it says, unless the reading names it too)."""
    have = {p.code for syn in synonyms for p in ontology.allergen_paths(syn.canonical_id)}
    return all(p.code in have for _gram, syns in word_hints(key, ontology) for syn in syns
               for p in ontology.allergen_paths(syn.canonical_id))  # fmt: skip


_CASE_CHANGE = re.compile(r"[a-zß-öø-ÿ][A-ZÀ-ÖØ-Þ]")


def _run_together(text: str, ontology: Ontology) -> _Resolved:
    """Words run together where a separator was lost, split at each lower→upper case change, when every part is a
    known name ("SucreFarine de blé" → sucre | farine de ble); ``((), None, None)`` otherwise."""
    cuts = [m.start() + 1 for m in _CASE_CHANGE.finditer(text)]
    parts = [text[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(text)], strict=False)]
    keys = [canonical_key(p) for p in parts if p]
    found: list[Synonym] = []
    for k in keys:
        syns = resolve_key(k, ontology)[0]
        if not syns:
            return (), None, None
        found.extend(syns)
    for i in range(len(keys)):  # the name the parts make together counts too: "CremeCaramel" is a crème caramel
        for j in range(i + 2, min(len(keys), i + MAX_PART_WORDS) + 1):
            found.extend(resolve_key(" ".join(keys[i:j]), ontology)[0])
    return tuple(found), " | ".join(keys), "run together"


MIN_GLUED_PART = 3
_OF = re.compile(r"^([^\W\d_]+(?: [^\W\d_]+){0,2}) of ([^\W\d_]+(?: [^\W\d_]+){0,2})$")


def _inverted(key: str, ontology: Ontology) -> _Resolved:
    """An English name in its "A of B" order ("oleoresin of paprika", "oil of peppermint") read as the name "B A"
    when that is known (exactly or by its inflection) and keeps what each word names on its own; ``((), None,
    None)`` otherwise ("cream of coconut" keeps the milk of "cream": no reading)."""
    m = _OF.match(key)
    if m is None:
        return (), None, None
    name = f"{m.group(2)} {m.group(1)}"
    syns, _k, rule = resolve_key(name, ontology)
    if syns and rule in ("exact", "inflection") and _keeps_hints(key, syns, ontology):
        return syns, name, "inverted"
    return (), None, None


def _glued(key: str, ontology: Ontology) -> _Resolved:
    """One word that is a known two-word name with its space lost ("yeastextract", "coconutoil", "WHEATflour"): every
    split into two parts of three letters or more whose spaced form is a known name (exactly or by its inflection),
    when the name keeps what each part names on its own; all such readings count. ``((), None, None)`` otherwise —
    never two names guessed apart."""
    found: list[Synonym] = []
    keys: list[str] = []
    for i in range(MIN_GLUED_PART, len(key) - MIN_GLUED_PART + 1):
        spaced = f"{key[:i]} {key[i:]}"
        syns, _k, rule = resolve_key(spaced, ontology)
        if syns and rule in ("exact", "inflection") and _keeps_hints(spaced, syns, ontology):
            found.extend(syns)
            keys.append(spaced)
    return (tuple(found), " | ".join(keys), "glued") if found else ((), None, None)


def _reading(key: str, hyphenated: bool, ontology: Ontology) -> _Resolved:
    """What a token key resolves to (``hyphenated``: the token text has a hyphen): the exact lookup and its controlled
    rewrites, then the joined and segmented fallbacks. No reading but the exact one may drop what two neighbouring
    words joined name ("Polvo rones" is no powdered rum when polvorones hold almonds): the token is unknown then."""
    found = _any_reading(key, hyphenated, ontology)
    if found[0] and found[2] != "exact" and " " in key:
        have = {p.code for syn in found[0] for p in ontology.allergen_paths(syn.canonical_id)}
        if not _keeps_joins(key.split(" "), have, ontology):
            found = (), None, None
    if " " in key and (bare := without_adverbs(key, ontology)) != key:
        # "lightly fermented black beans" (soy), "finely chopped liver" (egg): the key read as if the adverb were not
        # there is a reading too, and its allergens count
        other = _reading(bare, hyphenated, ontology)
        if other[0] and found[0]:
            found = (tuple(dict.fromkeys((*found[0], *other[0]))), f"{found[1]} | {other[1]}", f"{found[2]}; adverb")
        elif other[0]:
            found = other[0], other[1], "adverb"
    return found


def _any_reading(key: str, hyphenated: bool, ontology: Ontology) -> _Resolved:
    syns, matched, rule = _rewritten(key, ontology)
    if not syns and hyphenated and " " in key:  # a word hyphenated across a line: "Antioxidations-mittel"
        joined = key.replace(" ", "")
        exact = ontology.synonyms.get(joined)
        if exact:
            return tuple(exact), joined, "joined"
    if not syns and " " in key:  # "roasted salted cashews", "tomates séchées", "sheep's milk of spain"
        stripped = _stripped(key, ontology)
        if stripped is not None:
            return stripped
        both = _both_names(key, ontology)
        if both is not None:
            return both
    if not syns and " " in key:
        pair = _joined_pair(key, ontology)
        if pair is not None:
            return pair
    if not syns and " " in key:
        parts = segment(key, ontology)
        if parts:
            pieces = tuple(syn for part in parts for syn in resolve_key(part, ontology)[0])
            if _keeps_spans(parts, pieces, ontology):
                return pieces, " | ".join(parts), "segmented"
    return syns, matched, rule


MAX_JOIN_WORDS = 6


def _joined_pair(key: str, ontology: Ontology) -> _Resolved | None:
    """A word split in two by a space (a line break or OCR: "sirop de glu cose", "Sonnenblumen kerne"): the reading
    with one pair of neighbouring words joined, when it is a known name (exactly, by a controlled rewrite, or with
    modifiers around it) that keeps every allergen any word or word group of the key names ("egg plant" is never
    eggplant); None otherwise. The first such pair counts."""
    words = key.split(" ")
    if len(words) > MAX_JOIN_WORDS:
        return None
    for i in range(len(words) - 1):
        joined = " ".join((*words[:i], words[i] + words[i + 1], *words[i + 2 :]))
        syns, matched, _rule = _own_name_first(joined, ontology)
        if syns and _keeps_hints(key, syns, ontology):
            return syns, matched, "joined"
    return None


def _keeps_spans(parts: tuple[str, ...], synonyms: tuple[Synonym, ...], ontology: Ontology) -> bool:
    """Whether a segmented reading keeps the allergens of every name that spans a cut between its parts ("pasta de
    curry rojo 2g" is not pasta de | curry | rojo 2G, a colour: red curry paste holds shrimp). A name inside one part
    is that part's business (its own reading says what it is). Two neighbouring words joined are checked for every
    reading by :func:`_reading` ("Fisch gewürz" is Fischgewürz, a seasoning that may hold celery, not fish | spices)."""
    have = {p.code for syn in synonyms for p in ontology.allergen_paths(syn.canonical_id)}
    words: list[str] = []
    cuts: set[int] = set()  # word index where a part starts (after the first)
    for part in parts:
        if words:
            cuts.add(len(words))
        words.extend(part.split(" "))
    for i in range(len(words)):
        for j in range(i + 2, min(len(words), i + MAX_HINT_GRAM) + 1):
            if not any(i < c < j for c in cuts):
                continue
            for syn in resolve_key(" ".join(words[i:j]), ontology)[0]:
                if any(p.code not in have for p in ontology.allergen_paths(syn.canonical_id)):
                    return False
    return True


def vague(syn: Synonym, ontology: Ontology) -> bool:
    """An imported name of unknown composition (every allergen POSSIBLE): as a word inside an unknown token it names
    nothing in particular, so it gives no hint (the unknown token keeps the label VERIFY anyway)."""
    ing = ontology.ingredients[syn.canonical_id]
    return ing.category in UNKNOWN_COMPOSITION_CATEGORIES and not any(
        p.level.rank > RiskLevel.POSSIBLE.rank for p in ontology.allergen_paths(ing.id)
    )


# "A from B": an ingredient and what it is made from — read as both names (the allergens of both count)
_SOURCE_SEPARATORS = (" made from ", " derived from ", " obtained from ", " grown on ", " from ", " issu de ", " issue de ",
                      " issus de ", " issues de ", " obtenu a partir de ", " aus ", " hergestellt aus ",
                      " procedente de ", " obtenido de ", " ottenuto da ", " derivato da ")  # fmt: skip
# "A in B": a food and the medium it is packed in (the Codex standards for canned fish, fruit and vegetables name the
# packing media: water, brine, oil, juice, syrup, sauce) — read as both names too
_MEDIUM_SEPARATORS = (" packed in ", " in ", " im ", " en ", " dans ")
# French, Italian and Spanish "à l'… / au … / al …" also name a dish by what flavours it ("riz au lait", "pane al
# latte", "pain aux raisins" holds custard): read as a food and its medium only when the medium is one
_DISH_SEPARATORS = (" a l'", " a la ", " au ", " aux ", " all'", " al ", " alla ", " allo ", " alle ")
MEDIUM_CATEGORIES = frozenset({"oil", "fat", "water", "salt", "vinegar", "juice"})


def _own_name_first(key: str, ontology: Ontology) -> _Resolved:
    """``key`` read as a name itself first (exactly or by a rewrite: "sicilian pecorino" is a cheese that may hold egg
    lysozyme, not pecorino from Sicily), else as a name with modifiers around it (a side of "A from B" / "A in B", a
    word joined again)."""
    key = ins_key(key) or key  # "307b from soy", "1422 from maize": a side may be an additive's code without its E
    found = _rewritten(key, ontology)
    if found[0]:
        return found
    return _stripped(key, ontology) or found


def _both_names(key: str, ontology: Ontology) -> _Resolved | None:
    """``key`` read as two known names joined by a source or packing-medium word ("glucose syrup from wheat", "tuna
    in sunflower oil", "thon à l'huile de tournesol"): the synonyms of both sides (each exact, rewritten or with
    modifiers around it), so the allergens of both count; None when no separator has two known sides."""
    for seps, kind in ((_SOURCE_SEPARATORS, "source"), (_MEDIUM_SEPARATORS, "medium"), (_DISH_SEPARATORS, "medium")):
        for sep in seps:
            i = key.find(sep)
            if i <= 0:
                continue
            read = [_own_name_first(side, ontology) for side in (key[:i], key[i + len(sep) :])]
            if not all(r[0] for r in read):
                continue
            if seps is _DISH_SEPARATORS and not all(
                ontology.ingredients[s.canonical_id].category in MEDIUM_CATEGORIES for s in read[1][0]
            ):
                continue
            found = tuple(s for r in read for s in r[0])
            if not _keeps_hints(key, found, ontology):
                continue  # a name spans the separator ("truffe en chocolat …": the truffle may hold hazelnut)
            return found, f"{read[0][1]} | {read[1][1]}", f"{kind}: {sep.strip()}"
    return None


def _rewritten(key: str, ontology: Ontology) -> _Resolved:
    """:func:`resolve_key`; when it took a rewrite, the modifier reading of ``key`` counts too: a rewrite ("maltes
    flavoring" → malt flavoring) is one reading, modifiers around a name (maltes + flavoring) another."""
    syns, matched, rule = resolve_key(key, ontology)
    if syns and rule != "exact" and " " in key:
        stripped = _stripped(key, ontology)
        if stripped is not None and not set(stripped[0]) <= set(syns):
            return (tuple(dict.fromkeys((*syns, *stripped[0]))), f"{matched} | {stripped[1]}",
                    f"{rule}; {stripped[2]}")  # fmt: skip
    return syns, matched, rule


def _stripped(key: str, ontology: Ontology) -> _Resolved | None:
    """The reading of ``key`` as a known name with modifiers around it (every head, each read by
    :func:`_rewritten`: the synonyms of all of them), or None."""
    heads = modifier_readings(key, ontology)
    if not heads:
        return None
    found = tuple(dict.fromkeys(s for head, _words in heads for s in _rewritten(head, ontology)[0]))
    if any(not MALTED.isdisjoint(words) for _head, words in heads) and not all(
            ontology.ingredients[s.canonical_id].category in GRAIN_CATEGORIES for s in found):  # fmt: skip
        found = (*found, *resolve_key("malt", ontology)[0])  # "malted milk": milk and barley malt
    rules = "; ".join("modifiers: " + ", ".join(words) for _head, words in heads)
    return found, " | ".join(head for head, _words in heads), rules


def names_allergen(key: str, ontology: Ontology) -> bool:
    """Whether a word or words of ``key`` name an allergen-bearing ingredient: the whole key, its word groups, or a
    compound or glued word (:func:`hidden_mentions`) — as written, or with the OCR glyphs any word may hold put back
    ("keep refrigerated 5almon", "made in Italy with pest0"). What a mask or a note must never hide."""
    if _names_allergen(key, ontology) or _misspelt_allergen_word(key, ontology):
        return True
    if "'" in key and _names_allergen(" ".join(key.replace("'", " ").split()), ontology):
        return True  # quotes and elisions: "mit 'butter' braten", "l'arachide"
    if not _glyph_sites(key):
        return False
    loose = glyphs.readings(key, loose=True)
    if not loose:  # too much to weigh: doubt it when a word holds a glyph ("5almon", not "1.5g")
        return any(glyphs.readings(w) for w in key.split(" "))
    return any(_names_allergen(cand, ontology) for cand in loose) or _glyph_word_near_allergen(key, ontology)


def mention_codes(key: str, ontology: Ontology) -> tuple[frozenset[str], bool]:
    """The allergen codes the whole words of ``key`` name (the key, or n-grams of it, read exactly), and whether it
    may name more than these: a compound or glued word (:func:`hidden_mentions`) or a word whose OCR glyphs, put
    back, name another allergen (:func:`names_allergen` says yes to all of them)."""
    codes = _plain_codes(key, ontology) | _additive_codes(key, ontology)
    if hidden_mentions(key, ontology) or _misspelt_allergen_word(key, ontology):
        return codes, True
    if _glyph_sites(key):
        loose = glyphs.readings(key, loose=True)
        if not loose:
            return codes, any(glyphs.readings(w) for w in key.split(" "))
        more = any(not _plain_codes(cand, ontology) <= codes or hidden_mentions(cand, ontology) for cand in loose)
        return codes, more or _glyph_word_near_allergen(key, ontology)
    return codes, False


def _plain_codes(key: str, ontology: Ontology) -> frozenset[str]:
    """The codes of the key read whole, and of every n-gram of it that is a name — overlapping ones too: the word
    hints take the longest names first, and "lean pork" would hide the "pork floss" of "lean pork floss"."""
    syns = resolve_key(key, ontology)[0] + tuple(s for _g, grams in word_hints(key, ontology) for s in grams)
    codes = {p.code for s in syns for p in ontology.allergen_paths(s.canonical_id)}
    words = key.split(" ")[:MAX_HINT_WORDS]
    synonyms = ontology.synonyms
    for i in range(len(words)):
        for j in range(i + 2, min(len(words), i + MAX_HINT_GRAM) + 1):
            gram = " ".join(words[i:j])
            for s in synonyms.get(gram) or resolve_key(gram, ontology)[0]:  # "cheese twist": twists, inflected
                codes.update(p.code for p in ontology.allergen_paths(s.canonical_id))
    return frozenset(codes)


def _glyph_word_near_allergen(key: str, ontology: Ontology) -> bool:
    """Whether a word of ``key`` holding a digit, read with its glyphs put back, is one edit from a name carrying an
    allergen ("pean1ts": "peanlts" is peanuts misprinted twice) — a word no lookup reads, but no word either."""
    from dinecheck.allergens.suggest import close_names  # suggest reads this module's memo: imported late

    for word in key.split(" "):
        if word.isalpha():
            continue
        for cand in glyphs.readings(word, loose=True):
            near = (s for n in close_names(cand, ontology, 1, min_chars=5) for s in ontology.synonyms.get(n, ()))
            if _codes(near, ontology):
                return True
    return False


def _names_allergen(key: str, ontology: Ontology) -> bool:
    return bool(_plain_codes(key, ontology)) or hidden_mentions(key, ontology) or bool(_additive_codes(key, ontology))


# an additive's Codex INS number without its E, with or without "INS" and a sub-letter ("220", "INS 223", "322(i)",
# "1105"): the E-number it stands for (as the tokenizer reads it)
_INS_WORD = re.compile(r"(?<![\w.,/])(?:ins ?)?(1\d{2,3}|[2-9]\d{2}) ?(?:\(?([a-f]|i{1,3}|iv|v)\)?)?(?![\w.,/%])"
                       r"(?! ?(?:g|gr|kg|mg|ml|cl|l|kcal|kj|cal|oz|lb|ppm|%)(?![\w]))")  # "227 g" is an amount


def _additive_codes(key: str, ontology: Ontology) -> set[str]:
    """The allergens of the additives whose numbers ``key`` holds, each read as its E-number ("preservative 223":
    sulphites; "1105": egg lysozyme) — a mask or a note never hides one."""
    if not _HAS_DIGIT.search(key):
        return set()
    return {code for m in _INS_WORD.finditer(key) if not _temperature(m, ontology)
            for code in _codes(resolve_key(f"e{m.group(1)}{m.group(2) or ''}", ontology)[0], ontology)}  # fmt: skip


def _temperature(m: re.Match[str], ontology: Ontology) -> bool:
    """Whether a number read as an additive's is an oven's temperature: C or F after it ("220°C", "425 F"; the degree
    sign is gone from a key) that is no sub-letter of a code of its own ("150c" is E150c, ammonia caramel), a heat a
    kitchen reaches, and a word of cooking right before it ("20 min à 220c", "bake at 220 c", "Fan 200C") — never
    "preservative 220c" or "keep refrigerated 1105c"."""
    if m.group(2) not in ("c", "f") or resolve_key(f"e{m.group(1)}{m.group(2)}", ontology)[2] == "exact":
        return False
    if not _OVEN_HEAT[m.group(2)][0] <= int(m.group(1)) <= _OVEN_HEAT[m.group(2)][1]:
        return False
    before = m.string[: m.start()].rsplit(None, 1)
    return bool(before) and before[-1].strip("(:,;") in _HEAT_WORDS


_OVEN_HEAT = {"c": (100, 300), "f": (200, 575)}  # the heats an oven, a fryer or a grill is set to
# the words a temperature follows in cooking instructions of the five languages (folded)
_HEAT_WORDS = frozenset("""
at to until about approx approximately from between and or oven fan gas grill preheat preheated heat heated bake
fry cook min mins minutes a au de entre et ou four chaleur tournante prechauffe prechauffer cuire cuisson environ
bei auf bis und oder ca circa ofen umluft heissluft backofen backen vorgeheizt minuten
en hasta horno calentar hornear precalentado precalentar minutos
al fino forno ventilato preriscaldato preriscaldare cuocere minuti
""".split())


MIN_MISSPELT_CHARS = 5  # a four-letter word is one edit from too much ("Pune" from Italian "pane")


def _misspelt_allergen_word(key: str, ontology: Ontology) -> bool:
    """Whether a word of ``key`` that nothing reads (no name, no word of the furniture or of a place, no English word
    naming no food) is one edit (two from seven letters; a swap of two letters is one) from a one-word name of an
    allergen family's own food ("Penauts", "whaet", "Arachydes", "Sesme", "Soyabeen"): a suggestion never makes a
    label SAFE, so a mask or a note never hides such a word."""
    from dinecheck.allergens.suggest import near_any  # suggest reads this module's memo: imported late

    core = _core_words(ontology)
    if not core:
        return False
    for word in key.split(" "):
        if len(word) < MIN_MISSPELT_CHARS or not _unread_word(word, ontology):
            continue
        if near_any(word, core, _misspelling_edits(word)):  # a swap is one edit: "penaut", "whaet"
            return True
    return False


def _misspelling_edits(word: str) -> int:
    """How many edits from a name a word nothing reads may be taken for it misspelt: one, two from seven letters."""
    return 1 if len(word) <= 6 else 2


def _unread_word(word: str, ontology: Ontology) -> bool:
    """Whether ``word`` (letters only) is read by nothing: no name, no modifier, no word of the furniture or of a
    place, no English word naming no food."""
    return (word.isalpha() and word not in furniture().words and word not in furniture().place_words
            and word not in common_words() and word not in ontology.modifiers
            and not resolve_key(word, ontology)[0])  # fmt: skip


def unread_near_allergen(key: str, ontology: Ontology, longer: bool = True) -> bool:
    """Whether a word of ``key`` of four letters or more that nothing reads is one edit (two from seven letters; a
    swap is one) from a one-word name carrying an allergen — any, not only a family's own ("eggz", "mozarella",
    "shirmp", "semolna") — or one of three letters is such a name with a letter left out ("mlk", "egs"): what a
    statement's mask must never hide after its own words. ``longer=False`` asks the three-letter words only (an
    address's words are near too many names: "Pune" is one edit from Italian "pane")."""
    from dinecheck.allergens.suggest import near_any, one_letter_short  # suggest reads this module's memo

    if memo_for(ontology) is None or type(ontology.synonyms) is not dict:
        return False
    names = _allergen_words(ontology)
    for word in key.split(" "):
        if len(word) < 3 or not _unread_word(word, ontology):
            continue
        if one_letter_short(word, names) if len(word) == 3 else longer and near_any(
                word, names, _misspelling_edits(word)):  # fmt: skip
            return True
    return False


def _core_words(ontology: Ontology) -> list[str]:
    """The one-word names of the allergen families' own foods — curated ingredients with no parent that surely carry
    an allergen (peanuts, arachides, sesame, almonds, milk, wheat …), not the species and varieties below them nor the
    general vocabulary: a word nothing reads near one of these is taken for it misspelt ("Valencia" is no valençay,
    "Leeds" no seeds)."""
    memo = memo_for(ontology)
    if memo is None:  # a live view of a database: no suggestion search either (:func:`~.suggest.close_names`)
        return []
    if memo.core_words:
        return memo.core_words
    sure = RiskLevel.POSSIBLE.rank
    words = {key for key, syns in ontology.synonyms.items() if " " not in key and any(
        ontology.ingredients[s.canonical_id].parent is None and not s.canonical_id.startswith("g_")
        and any(p.level.rank > sure for p in ontology.allergen_paths(s.canonical_id)) for s in syns)}  # fmt: skip
    memo.core_words.extend(sorted(words))
    return memo.core_words


MAX_SEGMENT_WORDS = 40
MAX_PART_WORDS = 6


def segment(key: str, ontology: Ontology) -> tuple[str, ...] | None:
    """Read an unknown key as 2+ consecutive names that each resolve exactly (a label missing its commas:
    "cornichons vinaigre de table sel" → cornichons | vinaigre de table | sel), with as few parts as possible;
    None when no such reading exists. Detection holds what these parts carry at POSSIBLE and the verdict is VERIFY:
    the reading is a guess, never grounds for SAFE or AVOID."""
    words = key.split(" ")
    n = len(words)
    if n < 2 or n > MAX_SEGMENT_WORDS:
        return None
    best: list[tuple[int, tuple[str, ...]] | None] = [None] * (n + 1)
    best[0] = (0, ())
    for i in range(1, n + 1):
        for j in range(max(0, i - MAX_PART_WORDS), i):
            prev = best[j]
            if prev is None:
                continue
            part = " ".join(words[j:i])
            if not resolve_key(part, ontology)[0]:
                continue
            cand = (prev[0] + 1, (*prev[1], part))
            cur = best[i]
            if cur is None or cand[0] < cur[0]:
                best[i] = cand
    final = best[n]
    return final[1] if final is not None and final[0] >= 2 else None


MAX_HINT_GRAM = 6
MAX_HINT_WORDS = 300  # a longer unknown token is VERIFY anyway; hints stop there so hostile input stays cheap


def word_hints(key: str, ontology: Ontology) -> tuple[tuple[str, tuple[Synonym, ...]], ...]:
    """Whole-word n-grams (up to :data:`MAX_HINT_GRAM` words, never the whole key) of an unresolved key that resolve
    exactly, longest first and non-overlapping."""
    return remembered(ontology, "hints", key, lambda: _word_hints(key, ontology))


def _word_hints(key: str, ontology: Ontology) -> tuple[tuple[str, tuple[Synonym, ...]], ...]:
    words = key.split(" ")[:MAX_HINT_WORDS]
    covered = [False] * len(words)
    out: list[tuple[str, tuple[Synonym, ...]]] = []
    whole = len(words) == key.count(" ") + 1
    for size in range(min(len(words) - 1 if whole else len(words), MAX_HINT_GRAM), 0, -1):
        for i in range(len(words) - size + 1):
            if any(covered[i : i + size]):
                continue
            gram = " ".join(words[i : i + size])
            syns, _k, rule = resolve_key(gram, ontology)
            if rule != "exact" and ontology.modifiers.get(gram) in DESCRIBING:
                continue  # French "rôties" (roasted) is no inflected "roti", a flatbread: a processing word as written
            syns = tuple(s for s in syns if not vague(s, ontology))
            if syns:
                out.append((gram, syns))
                for j in range(i, i + size):
                    covered[j] = True
    return tuple(out)
