"""Open Food Facts ingredients and processing taxonomies → a general vocabulary for the store (pure planning).

Source: the Open Food Facts ingredients and ingredients-processing taxonomies, © Open Food Facts contributors, ODbL
(https://opendatacommons.org/licenses/odbl/1-0/). Every imported row is ``source = OFF``, ``OFF_TAXONOMY``.

**When does an OFF ingredient count as allergen-free?** (docs/allergens_store.md, "OFF vocabulary"). An entry gets
the union of:

* its own ``allergens:`` property (DERIVED) and ``likely_allergens:`` (POSSIBLE);
* the allergens of the ingredient our ontology already names with one of its names (exact lookup key);
* POSSIBLE for every allergen named by a word or word group (1–3 words) of any of its names, looked up exactly in
  our ontology ("milk" in "milk chocolate coating", "Erdnuss" in a German name);
* everything its ``<`` parents carry, transitively (their DEFINITE becomes DERIVED), and every allergen at POSSIBLE
  when a parent is of unknown composition (below) — a doubt that stops at an entry our ontology names itself (our
  pork says what pork may hold, whatever OFF's "animal" may be).

An entry is **anchored** when it, or one of its ancestors, is an ingredient our ontology knows (by an exact name):
``en:kiwi`` < ``en:fruit``. An entry that is not anchored is of unknown composition (a dish, a brand-like name):
it carries every allergen at POSSIBLE, so it is a known word (the token is matched) but never makes a label SAFE.
Only an anchored entry with an empty union is allergen-free. Any doubt stays VERIFY.

Names: every name in the five label languages (plus ``xx``/``la``, see :data:`NAME_LANGUAGES`); a key the store already has is never overridden, nor a key it already reads (a controlled rewrite, or modifiers around a known name: "pasteurised free range egg yolk" stays egg yolk); a key shared by several
entries goes to the entry with the most allergens (the conservative reading). An entry our ontology already knows
with the same or more allergens lends its other names to our ingredient; otherwise it becomes an ingredient
``off_<slug>`` (category ``off_ingredient``).

The processing taxonomy's names become modifier words (ingredient ``off_processing``, category ``modifier``, see
:mod:`modifiers`); the ontology drops any that names an allergen, negates, or changes what a food is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dinecheck.allergens.furniture import furniture
from dinecheck.allergens.normalize import is_known, resolve_key
from dinecheck.allergens.off_import import OFF_TO_CODE, Taxonomy, TaxonomyEntry, slug
from dinecheck.allergens.ontology import (
    ALLERGEN_CODES,
    LANGUAGES,
    MODIFIER_CATEGORY,
    Ingredient,
    Ontology,
    RiskLevel,
)
from dinecheck.allergens.store.base import SynonymInput
from dinecheck.allergens.text import lookup_key

if TYPE_CHECKING:
    from dinecheck.allergens.store.base import OntologyStore

OFF_INGREDIENT_CATEGORY = "off_ingredient"
# the languages whose names are imported: the label languages the pipeline reads, plus OFF's language-neutral "xx"
# (E-numbers) and Latin. Names of other languages collide with words of these ("made" is burbot in Finnish) and
# would turn ordinary label words into ingredients.
NAME_LANGUAGES = frozenset({*LANGUAGES, "xx", "la"})
OFF_PROCESSING_ID = "off_processing"
MAX_NAME_CHARS = 200
MAX_WORD_GRAM = 3
MAX_NAME_WORDS = 10
_OFF_CATEGORIES = frozenset({OFF_INGREDIENT_CATEGORY, "off_taxonomy"})
_ALIASES = {"en:sesame": "SESAME", "en:sesame-seed": "SESAME", "en:soy": "SOY", "en:soya": "SOY", "en:egg": "EGG",
            "en:peanut": "PEANUT", "en:nut": "TREE_NUTS", "en:crustacean": "SHELLFISH", "en:mollusc": "MOLLUSCS",
            "en:sulphites": "SULPHITES", "en:sulfites": "SULPHITES"}  # fmt: skip
_D, _V, _P = RiskLevel.DEFINITE, RiskLevel.DERIVED, RiskLevel.POSSIBLE
_Levels = dict[str, RiskLevel]


def off_codes(value: str) -> tuple[str, ...]:
    """Allergen codes of an OFF property value (``en:milk, en:sesame seeds`` → MILK, SESAME); unknown ids dropped."""
    out = []
    for part in value.split(","):
        lang, _, name = part.strip().partition(":")
        oid = f"{lang.strip()}:{slug(name)}"
        code = OFF_TO_CODE.get(oid) or _ALIASES.get(oid)
        if code:
            out.append(code)
    return tuple(dict.fromkeys(out))


def _merge(into: _Levels, codes: _Levels | Iterable[tuple[str, RiskLevel]]) -> None:
    items = codes.items() if isinstance(codes, dict) else codes
    for code, level in items:
        cur = into.get(code)
        if cur is None or level.rank > cur.rank:
            into[code] = level


def _entry_id(entry_id: str) -> str:
    return "off_" + re.sub(r"[^0-9a-z]+", "_", entry_id.lower()).strip("_")


@dataclass(frozen=True, slots=True)
class VocabularyPlan:
    synonyms: tuple[SynonymInput, ...]
    ingredients: tuple[Ingredient, ...]
    free: int  # entries found allergen-free (anchored, nothing inherited)
    with_allergens: int
    unknown: int  # not anchored: every allergen POSSIBLE
    linked: int  # entries whose names were lent to an ingredient the ontology already had


class _Analysis:
    def __init__(self, taxonomy: Taxonomy, ontology: Ontology) -> None:
        self.onto = ontology
        self.entries = {e.id: e for e in taxonomy.entries}
        self.by_name: dict[str, str] = {}  # "lang:slug" of every name → entry id (parents are written that way)
        for e in taxonomy.entries:
            for lang, names in e.names.items():
                for n in names:
                    self.by_name.setdefault(f"{lang}:{slug(n)}", e.id)
        self._own: dict[str, tuple[_Levels, frozenset[str]]] = {}
        self._total: dict[str, tuple[_Levels, bool]] = {}
        self._lines: dict[str, tuple[_Levels, bool, bool]] = {}

    def parents(self, e: TaxonomyEntry) -> list[str]:
        out = []
        for p in e.parents:
            lang, _, name = p.partition(":")
            pid = self.by_name.get(f"{lang.strip()}:{slug(name)}")
            if pid is not None:
                out.append(pid)
        return out

    def own(self, e: TaxonomyEntry) -> tuple[_Levels, frozenset[str]]:
        """The entry's own allergens (properties, our ingredient of the same name, allergen words) and the ids of
        our (non-OFF) ingredients that one of its names names."""
        cached = self._own.get(e.id)
        if cached is not None:
            return cached
        onto = self.onto
        levels: _Levels = {}
        _merge(levels, ((c, _V) for c in off_codes(e.properties.get("allergens:en", ""))))
        _merge(levels, ((c, _P) for c in off_codes(e.properties.get("likely_allergens:en", ""))))
        ours: set[str] = set()
        for off_lang, names in e.names.items():
            lang = off_lang.partition("_")[0]
            same = (None, lang, "la")  # a name counts in its own language only ("grana" is seed, not cheese, in es)
            for name in names:
                key = lookup_key(name)
                for syn in onto.synonyms.get(key, ()):
                    if syn.lang not in same:
                        continue
                    ing = onto.ingredients[syn.canonical_id]
                    if ing.category in _OFF_CATEGORIES:  # an imported name: only the allergen it names for sure
                        _merge(levels, ((p.code, _P) for p in onto.allergen_paths(ing.id) if p.level.rank > _P.rank))
                        continue
                    ours.add(ing.id)
                    _merge(levels, ((p.code, p.level) for p in onto.allergen_paths(ing.id)))
                words = key.split(" ")
                if len(words) > MAX_NAME_WORDS:
                    continue
                for size in range(1, min(MAX_WORD_GRAM, len(words)) + 1):
                    for i in range(len(words) - size + 1):
                        gram = " ".join(words[i : i + size])
                        for syn in resolve_key(gram, onto)[0]:
                            if syn.lang in same or onto.ingredients[syn.canonical_id].category == "off_taxonomy":
                                # a word that names an allergen food or product ("milk" in "milk chocolate
                                # coating"); a word whose own allergens are only possible ("graines") says nothing
                                _merge(levels, ((p.code, _P) for p in onto.allergen_paths(syn.canonical_id)
                                                if p.level.rank > _P.rank))  # fmt: skip
        result = (levels, frozenset(ours))
        self._own[e.id] = result
        return result

    def total(self, eid: str) -> tuple[_Levels, bool]:
        """Everything the entry carries, its ancestors' included, and whether it is anchored.

        A kind of something of unknown composition inherits that doubt (every allergen POSSIBLE) — unless the entry,
        or an ancestor on the way to that something, is one of our ingredients by name: "pork" (< "animal") is our
        pork, whose entry says what it may hold; the doubt of the category "animal" says nothing about it or about
        "pork belly" (< "pork"). What the ancestors carry for sure or possibly is always inherited."""
        cached = self._total.get(eid)
        if cached is None:
            levels, anchored, doubt = self._lineage(eid, frozenset())
            if doubt:
                levels = dict(levels)
                _merge(levels, ((c, _P) for c in ALLERGEN_CODES))
            cached = self._total[eid] = (levels, anchored)
        return cached

    def _lineage(self, eid: str, visiting: frozenset[str]) -> tuple[_Levels, bool, bool]:
        """The entry's own allergens and its ancestors', whether it is anchored, and whether the doubt of an
        ancestor of unknown composition reaches it."""
        cached = self._lines.get(eid)
        if cached is not None:
            return cached
        e = self.entries[eid]
        own, ours = self.own(e)
        levels = dict(own)
        anchored = bool(ours)
        doubt = False
        for pid in self.parents(e):
            if pid in visiting or pid == eid:
                continue  # a cycle in the taxonomy: stop
            plevels, panchored, pdoubt = self._lineage(pid, visiting | {eid})
            _merge(levels, ((c, _V if lvl is _D else lvl) for c, lvl in plevels.items()))
            doubt = doubt or pdoubt or not panchored
            anchored = anchored or panchored
        result = (levels, anchored, doubt and not ours)
        if not visiting:
            self._lines[eid] = result
        return result


def _named_first(e: TaxonomyEntry, oid: str, ontology: Ontology) -> bool:
    """Whether the entry's own name (the first name of its id's language) reads as ``oid``: an entry lends its names
    to our ingredient only then, not because one of its names is a word of two senses ("Eiweiß" is protein and egg
    white: OFF's "protein" is no egg white)."""
    lang = e.id.partition(":")[0]
    first = next(iter(e.names.get(lang) or ()), None)
    return first is not None and oid in {s.canonical_id for s in resolve_key(lookup_key(first), ontology)[0]}


def plan_ingredients(taxonomy: Taxonomy, ontology: Ontology) -> VocabularyPlan:
    """The synonyms and ingredients an import of the OFF ingredients taxonomy adds (pure)."""
    an = _Analysis(taxonomy, ontology)
    targets: dict[str, tuple[str, _Levels]] = {}  # entry id → (canonical id, allergen map)
    ingredients: dict[str, Ingredient] = {}
    free = with_allergens = unknown = linked = 0
    for e in taxonomy.entries:
        levels, anchored = an.total(e.id)
        if not anchored:
            unknown += 1
            levels = dict(levels)
            _merge(levels, ((c, _P) for c in ALLERGEN_CODES))
        elif levels:
            with_allergens += 1
        else:
            free += 1
        _own, ours = an.own(e)
        target = None
        if len(ours) == 1 and _named_first(e, next(iter(ours)), ontology):
            (oid,) = ours
            their = {p.code for p in ontology.allergen_paths(oid)}
            if set(levels) <= their:
                target = oid
                linked += 1
        if target is None:
            target = _entry_id(e.id)
            ingredients[target] = Ingredient(target, None, OFF_INGREDIENT_CATEGORY, levels)
        targets[e.id] = (target, levels)
    # one key, one entry: where entries share a name, the one with the most allergens (then the strongest) wins
    chosen: dict[str, tuple[tuple[int, int], SynonymInput]] = {}
    known = ontology.synonyms
    read: dict[str, bool] = {}

    def reads(key: str) -> bool:
        """Whether the ontology already reads ``key`` as a name (a controlled rewrite, or modifiers around a name):
        an OFF name never shadows a reading we have (often of unknown composition there, every allergen POSSIBLE)."""
        if key not in read:
            read[key] = is_known(key, ontology)
        return read[key]

    nutrition = furniture().nutrition_words
    whole: dict[str, set[str] | None] = {}

    def read_out(key: str) -> set[str] | None:
        """The allergens of the label reader's reading of ``key`` when every token of it resolves (or is a note);
        None when some token stays unknown."""
        if key not in whole:
            from dinecheck.allergens.pipeline import PROFILE_ALL, check_label  # the pipeline imports this module

            res = check_label(key, PROFILE_ALL, ontology)
            whole[key] = None if res.unmatched or not res.tokens_processed else {f.code for f in res.findings}
        return whole[key]

    for e in taxonomy.entries:
        target, levels = targets[e.id]
        anchored = an.total(e.id)[1]
        weight = (len(levels), sum(lvl.rank for lvl in levels.values()))
        for off_lang, names in e.names.items():
            lang, _, tail = off_lang.partition("_")
            if lang not in NAME_LANGUAGES:
                continue
            region = tail.upper() if len(tail) == 2 else None
            for name in names:
                key = lookup_key(name)
                if not key or len(name) > MAX_NAME_CHARS or key in known or key in ontology.modifiers:
                    continue
                if reads(key):  # our ontology already reads it ("pasteurised free range egg yolk": egg yolk)
                    continue
                if set(key.split(" ")) <= nutrition:  # "protein", "grasas": a nutrition row must stay maskable
                    continue
                covered = read_out(key)
                if covered is not None and (not anchored or set(levels) <= covered):
                    continue  # the label reader reads it whole ("fruit and plant concentrates"), losing nothing
                cur = chosen.get(key)
                if cur is None or weight > cur[0]:
                    chosen[key] = (weight, SynonymInput(name, target, lang, region, "OFF_TAXONOMY", "OFF"))
    synonyms = tuple(s for _w, s in chosen.values())
    used = {s.canonical_id for s in synonyms}
    return VocabularyPlan(synonyms, tuple(i for i in ingredients.values() if i.id in used), free, with_allergens,
                          unknown, linked)  # fmt: skip


def plan_processing(taxonomy: Taxonomy, ontology: Ontology) -> VocabularyPlan:
    """Every name of the OFF processing taxonomy as a modifier word (pure); known keys are never overridden."""
    target = Ingredient(OFF_PROCESSING_ID, None, MODIFIER_CATEGORY, {})
    seen: set[str] = set()
    synonyms = []
    for e in taxonomy.entries:
        for off_lang, names in e.names.items():
            lang, _, tail = off_lang.partition("_")
            if lang not in NAME_LANGUAGES:
                continue
            for name in names:
                key = lookup_key(name)
                if not key or len(name) > MAX_NAME_CHARS or key in seen or key in ontology.modifiers:
                    continue
                seen.add(key)
                synonyms.append(SynonymInput(name, OFF_PROCESSING_ID, lang, tail.upper() if len(tail) == 2 else None,
                                             "OFF_TAXONOMY", "OFF"))  # fmt: skip
    return VocabularyPlan(tuple(synonyms), (target,), 0, 0, 0, 0)


def detect_kind(taxonomy: Taxonomy) -> str | None:
    """``allergens``, ``processing`` or ``ingredients`` from a taxonomy's content; None when it is not clear."""
    ids = {e.id for e in taxonomy.entries}
    if sum(1 for i in OFF_TO_CODE if i in ids) >= 5 and len(ids) < 500:
        return "allergens"
    if len(ids) < 1000 and ({"en:dried", "en:roasted", "en:chopped"} & ids):
        return "processing"
    if len(ids) >= 1000 or any(e.parents for e in taxonomy.entries):
        return "ingredients"
    return None


KINDS = ("allergens", "ingredients", "processing")


@dataclass(frozen=True, slots=True)
class VocabularyReport:
    """What an import of the ingredients or processing taxonomy did."""

    kind: str
    added: int
    skipped: int
    ingredients_added: int
    free: int
    with_allergens: int
    unknown: int
    linked: int
    ontology_version: int
    attribution: str

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "added": self.added, "skipped": self.skipped,
                "ingredients_added": self.ingredients_added, "allergen_free_entries": self.free,
                "entries_with_allergens": self.with_allergens, "entries_of_unknown_composition": self.unknown,
                "entries_linked_to_known_ingredients": self.linked, "ontology_version": self.ontology_version,
                "attribution": self.attribution}  # fmt: skip


ATTRIBUTION = ("Open Food Facts {kind} taxonomy, © Open Food Facts contributors, ODbL "
               "(https://opendatacommons.org/licenses/odbl/1-0/)")  # fmt: skip


def import_vocabulary(store: OntologyStore, taxonomy: Taxonomy, kind: str) -> VocabularyReport:
    """Import the ingredients or processing taxonomy through the store (one transaction; idempotent)."""
    ontology = store.ontology()
    plan = plan_ingredients(taxonomy, ontology) if kind == "ingredients" else plan_processing(taxonomy, ontology)
    before = set(ontology.ingredients)
    result = store.add_synonyms(plan.synonyms, ingredients=plan.ingredients, source="OFF")
    return VocabularyReport(kind, len(result.added), len(result.skipped),
                            sum(1 for i in plan.ingredients if i.id not in before), plan.free, plan.with_allergens,
                            plan.unknown, plan.linked, result.ontology_version,
                            ATTRIBUTION.format(kind=kind))  # fmt: skip
