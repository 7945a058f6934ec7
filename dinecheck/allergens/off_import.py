"""Import of the Open Food Facts allergens taxonomy: multilingual allergen names as synonyms.

Source: the Open Food Facts allergens taxonomy, © Open Food Facts contributors, available under the Open Database
License (ODbL) — https://world.openfoodfacts.org/data. Every imported synonym row is marked ``source = OFF`` and
``synonym_type = OFF_TAXONOMY`` so its origin stays visible.

Format (parsed by :func:`parse_taxonomy`, pure): entries are blocks separated by blank lines; in a block each line is
``lang: name, synonym, …`` (``\\,`` escapes a comma), ``prop:lang: value`` (e.g. ``wikidata:en: Q…``) or
``< lang:parent``;
``#`` lines are comments; ``stopwords:lang: w1, w2`` lines define stop words. An entry's id is ``en:`` + the slug of
its first English name (``en:sulphur-dioxide-and-sulphites``).

:func:`plan_import` (pure) maps the taxonomy entries to our allergen codes (:data:`OFF_TO_CODE`) and turns every name
into a synonym of one ``off_taxonomy_<code>`` ingredient per allergen, which carries that allergen as DEFINITE and every
other one as POSSIBLE (see :func:`off_ingredient`: the names say what an ingredient contains, not what it lacks); the
first block, ``en:none``, and entries without an allergen code (orange, kiwi, …) are skipped and reported.
:func:`import_taxonomy` applies the plan through the store in one transaction, never overriding an existing synonym
key, and returns per-language counts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from dinecheck.allergens.furniture import furniture
from dinecheck.allergens.normalize import resolve_key
from dinecheck.allergens.ontology import ALLERGEN_CODES, Ingredient, Ontology, RiskLevel
from dinecheck.allergens.store.base import SynonymInput
from dinecheck.allergens.text import lookup_key
from dinecheck.errors import OntologyError
from dinecheck.files import require_file

if TYPE_CHECKING:
    from dinecheck.allergens.store.base import OntologyStore

ATTRIBUTION = (
    "Open Food Facts allergens taxonomy, © Open Food Facts contributors, ODbL "
    "(https://opendatacommons.org/licenses/odbl/1-0/)"
)
MAX_FILE_BYTES = 20_000_000
MAX_NAME_CHARS = 200

OFF_TO_CODE: dict[str, str] = {
    "en:gluten": "GLUTEN",
    "en:milk": "MILK",
    "en:eggs": "EGG",
    "en:fish": "FISH",
    "en:crustaceans": "SHELLFISH",
    "en:molluscs": "MOLLUSCS",
    "en:peanuts": "PEANUT",
    "en:soybeans": "SOY",
    "en:nuts": "TREE_NUTS",
    "en:celery": "CELERY",
    "en:mustard": "MUSTARD",
    "en:sesame-seeds": "SESAME",
    "en:sulphur-dioxide-and-sulphites": "SULPHITES",
    "en:lupin": "LUPIN",
}

_LANG = re.compile(r"^([a-z]{2,3}(?:_[a-z]{2,4})?):\s*(.*)$")  # en, nl_be, zh_hant
_PROP = re.compile(r"^([A-Za-z][A-Za-z0-9_]*):([a-z_]{2,16}):\s*(.*)$")
_LOOSE_PROP = re.compile(r"^([A-Za-z][A-Za-z0-9_]{3,}):(.*)$")  # longer than any language code: a property name
_UNESCAPED_COMMA = re.compile(r"(?<!\\),")


@dataclass(frozen=True, slots=True)
class TaxonomyEntry:
    id: str
    line: int
    names: dict[str, tuple[str, ...]]
    parents: tuple[str, ...] = ()
    properties: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Taxonomy:
    entries: tuple[TaxonomyEntry, ...]
    stopwords: dict[str, tuple[str, ...]]
    synonym_sets: tuple[tuple[str, tuple[str, ...]], ...] = ()


def slug(name: str) -> str:
    """OFF-style entry id slug: lower case, accents kept out, non-alphanumerics → single hyphens."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[^0-9a-z]+", "-", text).strip("-")


def _split_names(value: str) -> tuple[str, ...]:
    names = [n.replace("\\,", ",").strip() for n in _UNESCAPED_COMMA.split(value)]
    return tuple(n for n in names if n)


def parse_taxonomy(text: str, source: str = "taxonomy") -> Taxonomy:
    """Parse the taxonomy text; a line that fits no form raises OntologyError naming ``source:line``."""
    entries: list[TaxonomyEntry] = []
    stopwords: dict[str, tuple[str, ...]] = {}
    synonym_sets: list[tuple[str, tuple[str, ...]]] = []
    block: list[tuple[int, str]] = []

    def flush() -> None:
        if not block:
            return
        names: dict[str, tuple[str, ...]] = {}
        parents: list[str] = []
        props: dict[str, str] = {}
        for lineno, line in block:
            if line.startswith("<"):
                parents.append(line[1:].strip())
                continue
            prop = _PROP.match(line)
            if prop:
                props[f"{prop.group(1)}:{prop.group(2)}"] = prop.group(3).strip()
                continue
            m = _LANG.match(line)
            if not m:
                loose = _LOOSE_PROP.match(line)
                if loose:  # "name:en 5.9" (a property with a colon missing, seen in OFF files): kept under its name
                    props[loose.group(1)] = loose.group(2).strip()
                    continue
                raise OntologyError(f"expected 'lang: name, synonym, …', got {line[:60]!r}", f"{source}:{lineno}")
            lang = m.group(1)  # a language repeated in one entry (it happens in OFF files) adds its names
            names[lang] = (*names.get(lang, ()), *_split_names(m.group(2)))
        first_line = block[0][0]
        if not names:  # a block of properties only (an orphan description in OFF files): nothing to name
            block.clear()
            return
        if "en" in names and names["en"]:
            entry_id = "en:" + slug(names["en"][0])
        else:
            lang0 = next(iter(names))
            entry_id = f"{lang0}:" + slug(names[lang0][0]) if names[lang0] else f"{lang0}:"
        entries.append(TaxonomyEntry(entry_id, first_line, names, tuple(parents), props))
        block.clear()

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            continue
        if line.startswith("synonyms:"):  # a synonym set of words (OFF: "synonyms:en: hydrolysed, hydrolyzed")
            m = _LANG.match(line[len("synonyms:") :])
            if not m:
                raise OntologyError(f"expected 'synonyms:lang: word, …', got {line[:60]!r}", f"{source}:{lineno}")
            synonym_sets.append((m.group(1), _split_names(m.group(2))))
            continue
        if line.startswith("stopwords:"):
            m = _LANG.match(line[len("stopwords:") :])
            if not m:
                raise OntologyError(f"expected 'stopwords:lang: word, …', got {line[:60]!r}", f"{source}:{lineno}")
            stopwords[m.group(1)] = _split_names(m.group(2))
            continue
        block.append((lineno, line))
    flush()
    return Taxonomy(tuple(entries), stopwords, tuple(synonym_sets))


def off_ingredient_id(code: str) -> str:
    return f"off_taxonomy_{code.lower()}"


def off_ingredient(code: str) -> Ingredient:
    """The canonical ingredient OFF names of allergen ``code`` resolve to: ``code`` DEFINITE, every other POSSIBLE.

    The taxonomy lists names that *contain* an allergen, not recipes: ``Sesambrötchen`` (a sesame roll) also holds
    wheat, ``Vollmilchschokoladeüberzug`` often soy. Before the import such a name was unknown (VERIFY for everyone);
    after it, the named allergen is found (AVOID) and everything else stays undecided (VERIFY) — never SAFE.
    """
    levels = {c: (RiskLevel.DEFINITE if c == code else RiskLevel.POSSIBLE) for c in ALLERGEN_CODES}
    return Ingredient(off_ingredient_id(code), None, "off_taxonomy", levels)


@dataclass(frozen=True, slots=True)
class ImportPlan:
    synonyms: tuple[SynonymInput, ...]
    ingredients: tuple[Ingredient, ...]  # the off_taxonomy_* ingredients the synonyms point to
    targets: dict[str, str]  # OFF entry id → canonical id
    unmapped_entries: tuple[str, ...]  # OFF entries with no allergen code here (e.g. en:none, en:kiwi)
    too_long: int = 0
    already_read: tuple[SynonymInput, ...] = ()  # names the ontology already reads with the allergen; function words


def _lang_region(off_lang: str) -> tuple[str, str | None]:
    head, _, tail = off_lang.partition("_")
    return head, (tail.upper() if len(tail) == 2 else None)  # nl_be → nl, BE; zh_hant → zh (a script, not a region)


def plan_import(taxonomy: Taxonomy, ontology: Ontology | None = None) -> ImportPlan:
    """Every name of every mapped entry as a synonym of that allergen's ``off_taxonomy_*`` ingredient (pure).

    With the ontology it will go into, two kinds of names are left out (counted in ``already_read``):

    * a name the ontology already reads, through a controlled rewrite, as ingredients that all carry the entry's
      allergen for sure ("Eiern", "Schalenfrüchten": our egg, our tree nuts). Imported, it would replace that
      reading by the OFF ingredient, which carries every other allergen as POSSIBLE, and "Kann Spuren von Eiern
      enthalten" would name every allergen;
    * a name that is a function word of a label language: Estonian "oder" (barley) is German "or", Romanian "ou"
      (egg) French "or". A furniture line holding such a word could no longer be masked.
    """
    function_words = furniture().function_words if ontology is not None else frozenset()
    synonyms: list[SynonymInput] = []
    ingredients: dict[str, Ingredient] = {}
    targets: dict[str, str] = {}
    unmapped: list[str] = []
    too_long = 0
    already_read: list[SynonymInput] = []
    for entry in taxonomy.entries:
        code = OFF_TO_CODE.get(entry.id)
        if code is None:
            unmapped.append(entry.id)
            continue
        target = off_ingredient(code)
        ingredients[target.id] = target
        targets[entry.id] = target.id
        for off_lang, names in entry.names.items():
            lang, region = _lang_region(off_lang)
            for name in names:
                key = lookup_key(name)
                if len(name) > MAX_NAME_CHARS or not key:
                    too_long += 1
                    continue
                syn = SynonymInput(name, target.id, lang, region, "OFF_TAXONOMY", "OFF")
                if ontology is not None and (key in function_words or _read_as(key, code, ontology)):
                    already_read.append(syn)
                else:
                    synonyms.append(syn)
    return ImportPlan(tuple(synonyms), tuple(ingredients.values()), targets, tuple(unmapped), too_long,
                      tuple(already_read))  # fmt: skip


def _read_as(key: str, code: str, ontology: Ontology) -> bool:
    """Whether ``key`` is not a key of the ontology but resolves to ingredients that all carry ``code`` for sure."""
    if key in ontology.synonyms:
        return False  # an existing key: the store keeps it and reports any conflict
    found = resolve_key(key, ontology)[0]
    return bool(found) and all(
        any(p.code == code and p.level.rank >= RiskLevel.DERIVED.rank for p in ontology.allergen_paths(s.canonical_id))
        for s in found
    )


@dataclass(frozen=True, slots=True)
class LanguageCounts:
    lang: str
    added: int
    skipped: int


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did: per-language counts, the OFF entries used and skipped, and conflicting keys."""

    added: int
    skipped: int
    languages: tuple[LanguageCounts, ...]
    targets: dict[str, str]
    unmapped_entries: tuple[str, ...]
    conflicts: tuple[str, ...]  # existing keys that map to an ingredient NOT carrying the OFF entry's allergen
    ontology_version: int
    attribution: str = ATTRIBUTION

    def to_json(self) -> dict[str, object]:
        return {
            "added": self.added, "skipped": self.skipped,
            "languages": {c.lang: {"added": c.added, "skipped": c.skipped} for c in self.languages},
            "targets": self.targets, "unmapped_entries": list(self.unmapped_entries),
            "conflicts": list(self.conflicts),
            "ontology_version": self.ontology_version, "attribution": self.attribution,
        }  # fmt: skip


def read_taxonomy_file(path: Path) -> Taxonomy:
    require_file(path, OntologyError)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise OntologyError(f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB", str(path))
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OntologyError("no such file", str(path)) from None
    except UnicodeDecodeError as exc:
        raise OntologyError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", str(path)) from None
    except OSError as exc:
        raise OntologyError(exc.strerror or "cannot be read", str(path)) from None
    return parse_taxonomy(text, path.name)


def import_taxonomy(store: OntologyStore, taxonomy: Taxonomy) -> ImportReport:
    """Apply the plan through the store (one transaction, existing keys never overridden) and report counts."""
    plan = plan_import(taxonomy, store.ontology())
    result = store.add_synonyms(plan.synonyms, ingredients=plan.ingredients, source="OFF")
    ontology = store.ontology()
    per_lang: dict[str, list[int]] = {}
    for s in result.added:
        per_lang.setdefault(s.lang or "", [0, 0])[0] += 1
    for s in plan.already_read:
        per_lang.setdefault(s.lang or "", [0, 0])[1] += 1
    conflicts: list[str] = []
    code_of_target = {t: OFF_TO_CODE[e] for e, t in plan.targets.items()}
    for sk in result.skipped:
        per_lang.setdefault(sk.synonym.lang or "", [0, 0])[1] += 1
        code = code_of_target[sk.synonym.canonical_id]
        if sk.reason == "existing" and not any(
            any(p.code == code for p in ontology.allergen_paths(cid)) for cid in sk.existing_canonical_ids
            if cid in ontology.ingredients
        ):  # fmt: skip
            conflicts.append(f"{sk.synonym.text} ({sk.synonym.lang}): OFF says {code}, the store maps it to "
                             f"{', '.join(sk.existing_canonical_ids)}")  # fmt: skip
    languages = tuple(LanguageCounts(lang, a, s) for lang, (a, s) in sorted(per_lang.items()))
    return ImportReport(
        added=len(result.added),
        skipped=len(result.skipped) + plan.too_long + len(plan.already_read),
        languages=languages,
        targets=plan.targets,
        unmapped_entries=plan.unmapped_entries,
        conflicts=tuple(dict.fromkeys(conflicts)),
        ontology_version=result.ontology_version,
    )
