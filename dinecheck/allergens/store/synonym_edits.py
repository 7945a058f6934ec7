"""Synonym edits of the allergen store: field validation, single adds and removes, listing, and the bulk add the
Open Food Facts imports use (a mixin of :class:`~dinecheck.allergens.store.base.OntologyStore`)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dinecheck.allergens.audit import utc_now
from dinecheck.allergens.ontology import SYNONYM_TYPES, Ingredient, Ontology
from dinecheck.allergens.store.seed import Tx
from dinecheck.allergens.text import lookup_key
from dinecheck.errors import OntologyError

MAX_SYNONYM_CHARS = 200
_LANG_OK = frozenset("abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True, slots=True)
class SynonymInput:
    """A synonym to add: ``canonical_id`` must be an existing canonical ingredient id."""

    text: str
    canonical_id: str
    lang: str | None = None
    region: str | None = None
    type: str = "USER"
    source: str = "USER"  # USER | OFF

    @property
    def key(self) -> str:
        return lookup_key(self.text)


@dataclass(frozen=True, slots=True)
class SkippedSynonym:
    synonym: SynonymInput
    reason: str  # "existing" (key already a synonym in the store) | "duplicate" (repeated within this batch)
    existing_canonical_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BulkAddResult:
    added: tuple[SynonymInput, ...]
    skipped: tuple[SkippedSynonym, ...]
    ontology_version: int


SynonymFields = tuple[str, str | None, str | None, str]  # text, lang, region, type


def validate_synonym_fields(text: str, lang: str | None, region: str | None, typ: str) -> SynonymFields:
    """Check a user-supplied synonym's fields; returns them cleaned. Raises OntologyError naming the bad field."""
    clean = text.strip()
    if not clean or not lookup_key(clean):
        raise OntologyError("the synonym is empty", "SYNONYM")
    if len(clean) > MAX_SYNONYM_CHARS:
        raise OntologyError(f"the synonym is longer than {MAX_SYNONYM_CHARS} characters", "SYNONYM")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in clean):
        raise OntologyError("the synonym contains control characters", "SYNONYM")
    if lang is not None:
        lang = lang.strip().lower()
        head, _, tail = lang.partition("_")
        tail_ok = not tail or (len(tail) == 2 and set(tail) <= _LANG_OK)
        if not (2 <= len(head) <= 3 and set(head) <= _LANG_OK and tail_ok):
            raise OntologyError(f"{lang!r} is not a language code (two or three letters, e.g. en, fr, hi)", "--lang")
    if region is not None:
        region = region.strip().upper()
        if not (len(region) == 2 and region.isascii() and region.isalpha()):
            raise OntologyError(f"{region!r} is not a region code (two letters, e.g. IN, GB)", "--region")
    typ = typ.strip().upper()
    allowed = [t for t in SYNONYM_TYPES if t != "CANONICAL"]
    if typ not in allowed:
        raise OntologyError(f"{typ!r} is not a synonym type; use one of {', '.join(allowed)}", "--type")
    return clean, lang, region, typ


def resolve_canonical(name: str, ids: Sequence[str]) -> str:
    """The canonical id named by ``name`` (its id, or the id with spaces: ``peanut oil`` → ``peanut_oil``)."""
    wanted = lookup_key(name.replace("_", " "))
    for ing_id in ids:
        if lookup_key(ing_id.replace("_", " ")) == wanted:
            return ing_id
    close = difflib.get_close_matches(wanted.replace(" ", "_"), list(ids), n=5, cutoff=0.6)
    hint = f"; close matches: {', '.join(close)}" if close else "; `dinecheck allergens stats` shows the store"
    raise OntologyError(f"no canonical ingredient named {name!r}{hint}", "--canonical")


# ------------------------------------------------------------------------------------------------ the store


class SynonymEdits:
    """Synonym reads and writes; every write bumps the ontology version in its transaction."""

    if TYPE_CHECKING:  # provided by OntologyStore

        def transaction(self, write: bool = False) -> AbstractContextManager[Tx]: ...
        def _ts_param(self, dt: datetime) -> Any: ...
        def _bump_version(self, tx: Tx) -> None: ...
        def ontology(self) -> Ontology: ...

    def canonical_ids(self) -> list[str]:
        with self.transaction() as tx:
            return [r[0] for r in tx.fetchall("SELECT id FROM canonical_ingredients ORDER BY id")]

    def add_synonym(
        self, text: str, canonical: str, lang: str | None = None, region: str | None = None, type: str = "USER"
    ) -> SynonymInput:
        """Add one validated synonym (the CLI's ``synonym add``). Refuses a key that is already a synonym."""
        clean, lang, region, typ = validate_synonym_fields(text, lang, region, type)
        with self.transaction(write=True) as tx:
            ids = [r[0] for r in tx.fetchall("SELECT id FROM canonical_ingredients")]
            canonical_id = resolve_canonical(canonical, sorted(ids))
            syn = SynonymInput(clean, canonical_id, lang, region, typ, "USER")
            existing = self._existing_keys(tx, {syn.key}).get(syn.key)
            if existing:
                raise OntologyError(
                    f"{clean!r} (lookup key {syn.key!r}) is already a synonym of {', '.join(sorted(existing))}; "
                    "a key maps to one meaning, so it was not added", "SYNONYM"
                )  # fmt: skip
            self._insert_synonyms(tx, [syn])
            self._bump_version(tx)
        return syn

    def remove_synonym(self, text: str) -> list[SynonymInput]:
        """Remove the user or OFF synonyms whose lookup key equals that of ``text``; returns what was removed.

        Synonyms from the shipped data are never removed (they come back on the next seed anyway): asking to remove
        only those is an error. Removing a name can only make labels less understood (VERIFY), never SAFE.
        """
        key = lookup_key(text)
        if not key:
            raise OntologyError("the synonym is empty", "SYNONYM")
        with self.transaction(write=True) as tx:
            rows = tx.fetchall(
                "SELECT id, synonym, canonical_id, language_code, region_code, synonym_type, source"
                " FROM ingredient_synonyms ORDER BY id"
            )
            mine = [r for r in rows if lookup_key(r[1]) == key]
            removable = [r for r in mine if r[6] != "DATA"]
            if not removable:
                where = "comes from the shipped data and cannot be removed" if mine else "is not a synonym in the store"
                raise OntologyError(f"{text!r} (lookup key {key!r}) {where}", "SYNONYM")
            tx.executemany("DELETE FROM ingredient_synonyms WHERE id = ?", [(r[0],) for r in removable])
            self._bump_version(tx)
        return [SynonymInput(r[1], r[2], r[3], r[4], r[5], r[6]) for r in removable]

    def synonyms(self, source: str | None = None) -> list[SynonymInput]:
        """Stored synonyms in insertion order, optionally only those of one source (DATA, USER or OFF)."""
        sql = "SELECT synonym, canonical_id, language_code, region_code, synonym_type, source FROM ingredient_synonyms"
        params: tuple[Any, ...] = ()
        if source is not None:
            if source.upper() not in ("DATA", "USER", "OFF"):
                raise OntologyError(f"{source!r} is not a synonym source; use DATA, USER or OFF", "--source")
            sql += " WHERE source = ?"
            params = (source.upper(),)
        with self.transaction() as tx:
            rows = tx.fetchall(sql + " ORDER BY id", params)
        return [SynonymInput(*r) for r in rows]

    def add_synonyms(
        self, synonyms: Sequence[SynonymInput], ingredients: Sequence[Ingredient] = (), source: str = "USER"
    ) -> BulkAddResult:
        """Add many synonyms in one transaction, never overriding a key that already exists (used by the OFF import).

        ``ingredients`` the synonyms may point to are created first (with their allergen map, marked ``source``) unless
        an ingredient of that id exists already. A synonym whose lookup key is already in the store, or repeated earlier
        in the batch, is skipped and reported. Unknown canonical ids are an error (nothing is written).
        """
        if source not in ("USER", "OFF"):
            raise OntologyError(f"ingredients can only be added with source USER or OFF, not {source!r}")
        with self.transaction(write=True) as tx:
            ids = {r[0] for r in tx.fetchall("SELECT id FROM canonical_ingredients")}
            new_ings = [i for i in ingredients if i.id not in ids]
            if new_ings:
                tx.executemany(
                    "INSERT INTO canonical_ingredients (id, canonical_name, parent_id, category, source)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(i.id, i.id.replace("_", " "), i.parent, i.category, source) for i in new_ings],
                )
                tx.executemany(
                    "INSERT INTO ingredient_allergen_map (ingredient_id, allergen_code, risk_level) VALUES (?, ?, ?)",
                    [(i.id, code, level.value) for i in new_ings for code, level in i.allergens.items()],
                )
                ids |= {i.id for i in new_ings}
            unknown = sorted({s.canonical_id for s in synonyms} - ids)
            if unknown:
                raise OntologyError(f"unknown canonical ingredient(s): {', '.join(unknown)}")
            existing = self._existing_keys(tx, {s.key for s in synonyms})
            added: list[SynonymInput] = []
            skipped: list[SkippedSynonym] = []
            seen: set[str] = set()
            for s in synonyms:
                key = s.key
                if not key:
                    skipped.append(SkippedSynonym(s, "empty"))
                elif key in existing:
                    skipped.append(SkippedSynonym(s, "existing", tuple(sorted(existing[key]))))
                elif key in seen:
                    skipped.append(SkippedSynonym(s, "duplicate"))
                else:
                    seen.add(key)
                    added.append(s)
            self._insert_synonyms(tx, added)
            if added or new_ings:
                self._bump_version(tx)
            version = int(tx.fetchall("SELECT value FROM ontology_meta WHERE key = 'ontology_version'")[0][0])
        return BulkAddResult(tuple(added), tuple(skipped), version)

    def _existing_keys(self, tx: Tx, keys: set[str]) -> dict[str, set[str]]:
        """Stored synonyms (and canonical names) whose recomputed key is in ``keys`` → their canonical ids."""
        found: dict[str, set[str]] = {}
        for text, cid in tx.fetchall("SELECT synonym, canonical_id FROM ingredient_synonyms"):
            k = lookup_key(text)
            if k in keys:
                found.setdefault(k, set()).add(cid)
        for (cid,) in tx.fetchall("SELECT id FROM canonical_ingredients"):
            k = lookup_key(cid.replace("_", " "))
            if k in keys:
                found.setdefault(k, set()).add(cid)
        return found

    def _insert_synonyms(self, tx: Tx, synonyms: Sequence[SynonymInput]) -> None:
        now = self._ts_param(utc_now())
        tx.executemany(
            "INSERT INTO ingredient_synonyms (synonym, synonym_normalized, canonical_id, language_code, region_code,"
            " synonym_type, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(s.text, s.key, s.canonical_id, s.lang, s.region, s.type, s.source, now) for s in synonyms],
        )
