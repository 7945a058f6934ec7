"""The allergen ontology as immutable in-memory data, and the loader of the shipped data files.

Entities (mirroring the spec's tables): :class:`Allergen` categories; :class:`Ingredient` canonical ingredients with an
optional ``parent`` (derivative of), an allergen map ``{code: level}`` and ``contains`` (compound ingredients);
:class:`Synonym` names with language, region and type; :class:`RiskPhrase` label statements.

Shipped data (``dinecheck/allergens/data/``):

* ``allergens.tsv`` — ``code<TAB>name`` for the 15 allergen codes.
* ``ingredients/*.jsonl`` — one canonical ingredient per line::

    {"id": "peanut_oil", "parent": "peanut", "category": "oil", "allergens": {"PEANUT": "DERIVED"},
     "names": {"en": ["peanut oil", "groundnut oil"], "fr": ["huile d'arachide"], "de": ["Erdnussöl"]},
     "inflections": {"en": ["peanut oils"]},
     "regional": [{"text": "mungfali oil", "lang": "hi", "region": "IN"}],
     "scientific": ["Arachis hypogaea oil"], "e_number": "E322", "contains": ["whey", "milk_protein"]}

  ``names[lang]`` gives synonyms of type COMMON (en) or TRANSLATION (other languages); ``inflections`` INFLECTION;
  ``regional`` REGIONAL; ``scientific`` SCIENTIFIC (lang ``la``); ``e_number`` E_NUMBER (both ``E322`` and ``e 322``
  spellings resolve through :func:`~dinecheck.allergens.text.lookup_key` plus the tokenizer). The ``id`` itself with
  underscores as spaces is a lookup key too, unless a listed name of another ingredient already is that key (listed
  names win: ``spices`` names the English-label ingredient, not the id ``spices``).
* ``risk_phrases.jsonl`` — ``{"phrase", "lang", "type", "level", "allergens"?}`` (see ``phrases.py``).

Everything is validated on load; a bad line raises :class:`~dinecheck.errors.OntologyError` naming file and line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

from dinecheck.allergens.text import lookup_key
from dinecheck.errors import OntologyError

ALLERGEN_CODES: tuple[str, ...] = (
    "PEANUT", "MILK", "EGG", "WHEAT", "SOY", "TREE_NUTS", "FISH", "SHELLFISH", "SESAME", "GLUTEN",
    "MUSTARD", "CELERY", "LUPIN", "MOLLUSCS", "SULPHITES",
)  # fmt: skip

LANGUAGES: tuple[str, ...] = ("en", "fr", "de", "es", "it")
MODIFIER_CATEGORY = "modifier"
# categories of imported ingredients whose allergens are POSSIBLE because their composition is not known
UNKNOWN_COMPOSITION_CATEGORIES = frozenset({"off_taxonomy", "off_ingredient"})
# negation words: never stripped as a modifier ("peanut free", "sans gluten", "ohne Milch", "sin", "senza")
NEGATIONS = frozenset({"free", "sans", "ohne", "sin", "senza", "without", "no", "non", "not", "zero", "kein", "keine",
                       "frei", "nicht", "pas", "aucun", "sem", "zonder", "nessun", "ni"})  # fmt: skip
# words that change what a food is or add to it (a fried onion may be floured, a covered nut chocolate-coated, a
# sulphured apricot carries SULPHITES, a purée may hold milk, a colour word may name another product: "white sauce"):
# a modifier containing one is dropped, whatever its source
NOT_MODIFIER_WORDS = frozenset(
    {"fried", "frit", "frite", "frits", "frites", "frito", "frita", "fritos", "fritas", "fritto", "fritta", "fritti",
     "fritte", "frittiert", "mashed", "pureed", "puree", "purée", "püree", "puré", "purea", "paste", "pâte", "pasta",
     "flakes", "flaked", "flocons", "copos", "fiocchi", "flocken", "caramelized", "caramelised", "caramélisé",
     "caramelizado", "caramellato", "karamellisiert", "marinated", "mariné", "marinée", "pickled", "brined",
     "flavoured", "flavored", "aromatisé", "aromatizado", "aromatizzato", "covered", "coated", "enrobé", "enrobés",
     "oiled", "geölt", "seasoned", "assaisonné", "spiced", "breaded", "pané", "battered", "glazed", "glacé",
     "stuffed", "filled", "fourré", "farci", "geschwefelt", "sulphured", "sulfured", "soufré", "sulfité",
     "prepared", "préparé", "preparado", "preparato", "zubereitet", "processed", "mixed", "blended", "baked",
     "infused", "vegetarian", "vegan", "imitation", "style", "flavour", "flavor", "substitute", "analogue",
     "barbeque", "bbq", "cuisiné", "white", "black", "red", "green", "yellow", "brown", "dark", "light", "golden",
     "blanc", "blanche", "noir", "noire", "rouge", "vert", "verte", "jaune", "brun", "brune", "weiß", "schwarz",
     "rot", "grün", "gelb", "braun", "blanco", "negro", "rojo", "verde", "amarillo", "bianco", "nero", "rosso",
     "giallo", "cheese", "milk", "egg", "butter", "cream"}
)  # fmt: skip


_NOT_MODIFIER_KEYS = frozenset(lookup_key(w) for w in NOT_MODIFIER_WORDS)

# words of two senses: a processing, quality or origin word before or after a food ("pan tostado", "riz soufflé",
# "carne picada", "gruyère râpé"), and alone the name of an allergen food ("tostada": toast; "soufflé";
# "Gefrorenes": ice cream; "semi-skimmed": milk; Spanish "rape": monkfish). Alone, such a token is that food (its
# name is in the data); inside a longer name it stays a modifier. A blind reviewer of every modifier word found them
# (issue 8, sixth round); a word not listed here that names an allergen food is no modifier at all
STANDALONE_FOOD_SENSES = frozenset({
    "bouillie", "broye", "danish", "demi ecreme", "demi sel", "dry roasted", "gefrorenes", "genovese",
    "grattugiato", "malteada", "malteado", "picada", "rape", "sbriciolata", "semi skimmed", "semidescremada",
    "semidesnatada", "souffle", "tostada", "vollkorn", "whole grain", "wholegrain",
})  # fmt: skip


class RiskLevel(str, Enum):  # noqa: UP042 - StrEnum would change str() of the members
    """How an allergen is present. Ordered by severity: DEFINITE > DERIVED > POSSIBLE > TRACE."""

    DEFINITE = "DEFINITE"
    DERIVED = "DERIVED"
    POSSIBLE = "POSSIBLE"
    TRACE = "TRACE"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {RiskLevel.DEFINITE: 4, RiskLevel.DERIVED: 3, RiskLevel.POSSIBLE: 2, RiskLevel.TRACE: 1}

SYNONYM_TYPES: tuple[str, ...] = (
    "CANONICAL", "COMMON", "TRANSLATION", "INFLECTION", "REGIONAL", "SCIENTIFIC", "E_NUMBER", "ABBREVIATION",
    "BRAND", "OFF_TAXONOMY", "USER",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Allergen:
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class Ingredient:
    """A canonical ingredient. ``allergens`` maps allergen codes to the level of this ingredient itself."""

    id: str
    parent: str | None = None
    category: str | None = None
    allergens: Mapping[str, RiskLevel] = field(default_factory=dict)
    contains: tuple[str, ...] = ()


GENERAL_ID_PREFIX = "g_"  # the namespace of the general vocabulary's ids (``data/ingredients/g_*.jsonl``)


@dataclass(frozen=True, slots=True)
class Synonym:
    text: str
    key: str
    canonical_id: str
    lang: str | None = None
    region: str | None = None
    type: str = "COMMON"


@dataclass(frozen=True, slots=True)
class RiskPhrase:
    """A label statement. ``allergens`` are the codes the phrase itself names (e.g. "contains gluten"), if any."""

    phrase: str
    key: str
    lang: str
    type: str
    level: RiskLevel
    allergens: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AllergenPath:
    """Why an ingredient carries an allergen: the chain of canonical ids walked (compound → part), and the level."""

    code: str
    level: RiskLevel
    path: tuple[str, ...]


class Ontology:
    """Immutable lookup structure built from entities; ``version`` changes whenever the store changes."""

    def __init__(
        self,
        allergens: Iterable[Allergen],
        ingredients: Iterable[Ingredient],
        synonyms: Iterable[Synonym],
        risk_phrases: Iterable[RiskPhrase] = (),
        version: int = 0,
    ) -> None:
        self.allergens: dict[str, Allergen] = {a.code: a for a in allergens}
        self.ingredients: dict[str, Ingredient] = {}
        for ing in ingredients:
            if ing.id in self.ingredients:
                raise OntologyError(f"duplicate canonical ingredient {ing.id!r}")
            self.ingredients[ing.id] = ing
        self.synonyms: dict[str, list[Synonym]] = {}
        # processing/quality/origin words (ingredients of category "modifier"): never ingredients themselves, only
        # stripped around an unknown name (:mod:`modifiers`); key → the modifier kind (its canonical id)
        self.modifiers: dict[str, str] = {}
        self.modifier_names: list[Synonym] = []  # every modifier synonym as given (the store keeps them all)
        modifier_ids = {i.id for i in self.ingredients.values() if i.category == MODIFIER_CATEGORY}
        for syn in synonyms:
            if syn.canonical_id in modifier_ids:
                self.modifiers.setdefault(syn.key, syn.canonical_id)
                self.modifier_names.append(syn)
            else:
                self.synonyms.setdefault(syn.key, []).append(syn)
        for ing in self.ingredients.values():  # the canonical id is a name of itself, unless a listed name claims it
            if ing.id in modifier_ids or ing.id.startswith(GENERAL_ID_PREFIX):
                continue  # (the general vocabulary's ids carry a namespace: "g feijoa" is no text a label holds)
            key = lookup_key(ing.id.replace("_", " "))
            if key not in self.synonyms:
                self.synonyms.setdefault(key, []).append(Synonym(ing.id.replace("_", " "), key, ing.id, None, None, "CANONICAL"))
        self.risk_phrases: tuple[RiskPhrase, ...] = tuple(risk_phrases)
        self.version = version
        self._validate()
        self._expanded: dict[str, tuple[AllergenPath, ...]] = {}
        # the pipeline's memo tables for this ontology (``normalize.Memo``, created on first use); the phrase index
        self.memo: Any = None
        self.phrase_index: Any = None
        self._drop_unsafe_modifiers()

    def _drop_unsafe_modifiers(self) -> None:
        """A modifier may never hide an allergen or a negation: drop any whose key, or one of its words, names an
        allergen-bearing ingredient exactly, any that is a bare negation word, and any with a digit."""
        unsafe = []
        for key in self.modifiers:
            words = key.split(" ")
            if ((len(words) == 1 and key in NEGATIONS) or any(ch.isdigit() for ch in key)
                    or any(fold_word in _NOT_MODIFIER_KEYS for fold_word in words)):  # fmt: skip
                unsafe.append(key)
                continue
            # names from curated data (an OFF name of unknown composition names nothing); a word of two senses is
            # a modifier inside a longer name though it names a food alone
            for part in (key, *words):
                if part in STANDALONE_FOOD_SENSES:
                    continue
                if any(self.allergen_paths(s.canonical_id) for s in self.synonyms.get(part, ())
                       if self.ingredients[s.canonical_id].category not in UNKNOWN_COMPOSITION_CATEGORIES):
                    unsafe.append(key)
                    break
        for key in unsafe:
            del self.modifiers[key]

    def _validate(self) -> None:
        for ing in self.ingredients.values():
            for code in ing.allergens:
                if code not in self.allergens:
                    raise OntologyError(f"ingredient {ing.id!r} maps to unknown allergen {code!r}")
            for ref in (*((ing.parent,) if ing.parent else ()), *ing.contains):
                if ref not in self.ingredients:
                    raise OntologyError(f"ingredient {ing.id!r} refers to unknown ingredient {ref!r}")
        for syns in self.synonyms.values():
            for s in syns:
                if s.canonical_id not in self.ingredients:
                    raise OntologyError(f"synonym {s.text!r} refers to unknown ingredient {s.canonical_id!r}")

    def lookup(self, key: str) -> list[Synonym]:
        """Synonyms whose key equals ``key`` exactly (already :func:`lookup_key`-normalised)."""
        return self.synonyms.get(key, [])

    def allergen_paths(self, ingredient_id: str) -> tuple[AllergenPath, ...]:
        """Every allergen of an ingredient, including those of compound parts (recursively), highest level per code.

        A part's DEFINITE becomes DERIVED for the compound unless the compound itself says DEFINITE.
        """
        cached = self._expanded.get(ingredient_id)
        if cached is not None:
            return cached
        best: dict[str, AllergenPath] = {}

        def visit(ing_id: str, path: tuple[str, ...]) -> None:
            if ing_id in path:  # a cycle in compound data: stop, never loop
                return
            ing = self.ingredients[ing_id]
            here = (*path, ing_id)
            for code, level in ing.allergens.items():
                if path and level is RiskLevel.DEFINITE:
                    level = RiskLevel.DERIVED
                cur = best.get(code)
                if cur is None or level.rank > cur.level.rank:
                    best[code] = AllergenPath(code, level, here)
            for part in ing.contains:
                visit(part, here)

        visit(ingredient_id, ())
        result = tuple(sorted(best.values(), key=lambda p: (-p.level.rank, p.code)))
        self._expanded[ingredient_id] = result
        return result

    def stats(self) -> dict[str, int]:
        return {
            "allergens": len(self.allergens),
            "ingredients": len(self.ingredients),
            "synonyms": sum(len(v) for v in self.synonyms.values()),
            "modifiers": len(self.modifiers),
            "risk_phrases": len(self.risk_phrases),
        }


# --------------------------------------------------------------------------------------------- loading data files


def _entities_from_line(obj: dict[str, Any], loc: str) -> tuple[Ingredient, list[Synonym]]:
    allowed = {"id", "parent", "category", "allergens", "names", "inflections", "regional", "scientific", "e_number",
               "contains", "note"}  # fmt: skip
    extra = set(obj) - allowed
    if extra:
        raise OntologyError(f"unknown keys {sorted(extra)}", loc)
    ing_id = obj.get("id")
    if not isinstance(ing_id, str) or not ing_id or ing_id != ing_id.strip().lower() or " " in ing_id:
        raise OntologyError("'id' must be a lower-case identifier without spaces", loc)
    try:
        allergens = {str(k): RiskLevel(v) for k, v in (obj.get("allergens") or {}).items()}
    except ValueError as exc:
        raise OntologyError(f"bad allergen level ({exc})", loc) from None
    for code in allergens:
        if code not in ALLERGEN_CODES:
            raise OntologyError(f"unknown allergen code {code!r}", loc)
    ing = Ingredient(
        id=ing_id,
        parent=obj.get("parent") or None,
        category=obj.get("category") or None,
        allergens=allergens,
        contains=tuple(obj.get("contains") or ()),
    )
    syns: list[Synonym] = []

    def add(text: Any, lang: str | None, region: str | None, typ: str) -> None:
        if not isinstance(text, str) or not text.strip():
            raise OntologyError(f"synonym must be a non-empty string, got {text!r}", loc)
        syns.append(Synonym(text.strip(), lookup_key(text), ing_id, lang, region, typ))

    for lang, names in (obj.get("names") or {}).items():
        for text in names:
            add(text, lang, None, "COMMON" if lang == "en" else "TRANSLATION")
    for lang, names in (obj.get("inflections") or {}).items():
        for text in names:
            add(text, lang, None, "INFLECTION")
    for reg in obj.get("regional") or ():
        if not isinstance(reg, dict):
            raise OntologyError("'regional' entries must be objects {text, lang, region}", loc)
        add(reg.get("text"), reg.get("lang"), reg.get("region"), "REGIONAL")
    for text in obj.get("scientific") or ():
        add(text, "la", None, "SCIENTIFIC")
    if obj.get("e_number"):
        add(obj["e_number"], None, None, "E_NUMBER")
    return ing, syns


def load_data_dir(root: Path | None = None) -> Ontology:
    """Build the ontology from the shipped data files (or another directory of the same layout)."""
    base = Path(root) if root else Path(str(resources.files("dinecheck.allergens") / "data"))
    allergens: list[Allergen] = []
    for lineno, line in enumerate((base / "allergens.tsv").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 2 or parts[0] not in ALLERGEN_CODES:
            raise OntologyError("expected 'CODE<TAB>name' with a known code", f"{base / 'allergens.tsv'}:{lineno}")
        allergens.append(Allergen(parts[0], parts[1]))
    ingredients: list[Ingredient] = []
    synonyms: list[Synonym] = []
    for path in sorted((base / "ingredients").glob("*.jsonl")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            loc = f"{path.name}:{lineno}"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise OntologyError(f"invalid JSON ({exc.msg})", loc) from None
            ing, syns = _entities_from_line(obj, loc)
            ingredients.append(ing)
            synonyms.extend(syns)
    phrases: list[RiskPhrase] = []
    phrase_file = base / "risk_phrases.jsonl"
    if phrase_file.is_file():
        for lineno, line in enumerate(phrase_file.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            loc = f"{phrase_file.name}:{lineno}"
            try:
                o = json.loads(line)
                phrases.append(
                    RiskPhrase(o["phrase"], lookup_key(o["phrase"]), o["lang"], o["type"], RiskLevel(o["level"]),
                               tuple(o.get("allergens") or ()))  # fmt: skip
                )
            except (json.JSONDecodeError, KeyError, ValueError) as exc:
                raise OntologyError(f"bad risk phrase ({exc})", loc) from None
    return Ontology(allergens, ingredients, synonyms, phrases)
