"""Build allergy evidence for a dataset: scan every review, extract allergy talk once, summarise per allergen.

:func:`build_evidence` is the one entry point (``risk build`` and the Python API): it scans every review with the
ontology :class:`~dinecheck.risk.vocabulary.Vocabulary`, sends the reviews that are allergy talk to the extractor
(allergen-agnostic fields of ``data/allergy_seed.json``) — skipping those whose labels the store already holds for the
same text hash and extractor provenance — and summarises every restaurant × allergen
(:func:`~dinecheck.risk.evidence.summarize`). Without a store everything is computed in memory.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from dinecheck.allergens.ontology import ALLERGEN_CODES, Ontology, load_data_dir
from dinecheck.dataset import Dataset, Restaurant
from dinecheck.errors import ExtractionError
from dinecheck.extract.base import Extractor, FieldSpec, ReviewInput
from dinecheck.formula.run import CompiledSeed, compile_seed
from dinecheck.risk.evidence import AllergenEvidence, ReviewFacts, summarize
from dinecheck.risk.store import RiskStore, StoredLabel
from dinecheck.risk.vocabulary import ReviewScan, Vocabulary

BATCH = 256


@cache
def allergy_seed_json() -> dict[str, Any]:
    """The allergy seed (fields the extractor fills; compute = the G1a-v2 numeric score without its verdict)."""
    return json.loads((resources.files("dinecheck.risk") / "data" / "allergy_seed.json").read_text(encoding="utf-8"))


@cache
def default_vocabulary() -> Vocabulary:
    """The vocabulary of the shipped ontology data, built once per process (it is immutable)."""
    return Vocabulary(load_data_dir())


def allergy_seed(code: str, vocabulary: Vocabulary | None = None) -> dict[str, Any]:
    """The allergy seed for one allergen as a runnable Formula Seed: its filter is the allergen's ontology-generated
    vocabulary matched as whole words (``seed run`` with it gives the G1a-style figures for that allergen alone)."""
    vocab = vocabulary or default_vocabulary()
    seed = json.loads(json.dumps(allergy_seed_json()))
    seed["task_name"] = f"allergy-evidence-{code.lower()}"
    seed["filter"] = {"keywords": vocab.filter_keywords(code), "match": "word"}
    return seed


def allergy_fields() -> list[FieldSpec]:
    return [FieldSpec.model_validate(f) for f in allergy_seed_json()["extract"]["fields"]]


def allergy_scorer() -> CompiledSeed:
    return compile_seed(allergy_seed_json())


def provenance_of(extractor: Extractor, fields: Sequence[FieldSpec]) -> str:
    """Which extractor produced a label: its name, model or replay file, and a hash of the field definitions."""
    parts = [extractor.name]
    for attr in ("model", "path"):
        v = getattr(extractor, attr, None)
        if v:
            parts.append(str(getattr(v, "name", v)))
    spec = json.dumps([f.model_dump() for f in fields], sort_keys=True).encode()
    parts.append(hashlib.sha256(spec).hexdigest()[:12])
    return ":".join(parts)


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


@dataclass
class BuildReport:
    """What a build did: reviews scanned, allergy talk, labels extracted now vs reused from the store."""

    restaurants: int = 0
    reviews: int = 0
    allergy_reviews: int = 0
    extracted: int = 0
    reused: int = 0
    failed: int = 0
    seconds: float = 0.0
    provenance: str = ""

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


@dataclass
class EvidenceIndex:
    """Evidence in memory: ``business_id → code → AllergenEvidence`` (the same lookup a store offers)."""

    by_restaurant: dict[str, dict[str, AllergenEvidence]] = field(default_factory=dict)

    def evidence(self, business_ids: Sequence[str] | None, codes: Sequence[str]) -> dict[str, dict[str, AllergenEvidence]]:
        ids = self.by_restaurant if business_ids is None else business_ids
        return {b: {c: self.by_restaurant[b][c] for c in codes if c in self.by_restaurant.get(b, {})} for b in ids
                if b in self.by_restaurant}  # fmt: skip


def address_of(r: Restaurant) -> str | None:
    parts = [str(r.raw.get(k)) for k in ("address", "city", "state") if r.raw.get(k)]
    return ", ".join(parts) or None


def build_evidence(
    dataset: Dataset,
    extractor: Extractor,
    *,
    codes: Sequence[str] = ALLERGEN_CODES,
    store: RiskStore | None = None,
    ontology: Ontology | None = None,
    restaurants: Sequence[Restaurant] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[EvidenceIndex, BuildReport]:
    """Evidence for every restaurant × allergen; with a store, labels are reused and results written there."""
    t0 = time.perf_counter()
    vocab = Vocabulary(ontology) if ontology is not None else default_vocabulary()
    fields = allergy_fields()
    scorer = allergy_scorer()
    prov = provenance_of(extractor, fields)
    report = BuildReport(provenance=prov)
    rests = list(restaurants) if restaurants is not None else list(dataset.restaurants)
    scans: dict[str, list[tuple[Any, ReviewScan, str]]] = {}
    todo: list[tuple[Any, str]] = []
    for r in rests:
        items = []
        for rv in dataset.reviews_of(r.business_id):
            sc = vocab.scan(rv.text)
            h = text_hash(rv.text)
            items.append((rv, sc, h))
            if sc.needs_extraction:
                todo.append((rv, h))
        scans[r.business_id] = items
        report.reviews += len(items)
    report.restaurants = len(rests)
    report.allergy_reviews = len(todo)
    known = store.labels(prov, [rv.review_id for rv, _ in todo]) if store is not None else {}
    labels: dict[str, StoredLabel] = {}
    pending = []
    for rv, h in todo:
        got = known.get(rv.review_id)
        if got is not None and got.text_hash == h and got.status != "error":
            labels[rv.review_id] = got
        else:
            pending.append((rv, h))
    report.reused = len(labels)
    for i in range(0, len(pending), BATCH):
        chunk = pending[i : i + BATCH]
        inputs = [ReviewInput(rv.business_id, rv.review_id, rv.text, {"stars": rv.stars, "useful": rv.useful,
                                                                        "date": rv.date, "year": rv.year})
                  for rv, _ in chunk]  # fmt: skip
        results = extractor.extract(fields, inputs)
        if len(results) != len(inputs):
            raise ExtractionError(f"the extractor returned {len(results)} results for {len(inputs)} reviews",
                                  f"extractor {extractor.name}")  # fmt: skip
        new = []
        for (rv, h), res in zip(chunk, results):
            if res.review_id != rv.review_id:
                raise ExtractionError(f"a result is for review {res.review_id!r}, expected {rv.review_id!r}",
                                      f"extractor {extractor.name}")  # fmt: skip
            quotes = {k: e.quote for k, e in res.evidence.items() if e.verified}
            lab = StoredLabel(rv.review_id, rv.business_id, h, res.status, dict(res.values) if res.ok else {}, quotes,
                              res.error)  # fmt: skip
            labels[rv.review_id] = lab
            new.append(lab)
        report.extracted += len(chunk)
        if store is not None:
            store.save_labels(prov, new)
        if progress is not None:
            progress(min(i + BATCH, len(pending)), len(pending))
    report.failed = sum(1 for lab in labels.values() if lab.status != "ok")
    names = vocab.allergen_names
    index = EvidenceIndex()
    for r in rests:
        facts = [_facts(rv, sc, labels.get(rv.review_id)) for rv, sc, _ in scans[r.business_id]]
        index.by_restaurant[r.business_id] = summarize(r.business_id, r.raw, facts, codes, scorer, names)
    if store is not None:
        store.save_summaries(
            [(r.business_id, r.name, address_of(r)) for r in rests],
            [e for per in index.by_restaurant.values() for e in per.values()],
            {"extractor": prov, "source": str(dataset.source or ""), "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
            str(dataset.source) if dataset.source else None,
        )
    report.seconds = time.perf_counter() - t0
    return index, report


def _facts(rv: Any, sc: ReviewScan, lab: StoredLabel | None) -> ReviewFacts:
    exposure: Mapping[str, tuple[tuple[str, str], ...]] = {
        c: tuple((m.term, m.sentence) for m in ms) for c, ms in sc.exposure.items()
    }
    return ReviewFacts(
        review_id=rv.review_id,
        year=rv.year,
        stars=rv.stars,
        useful=rv.useful,
        allergy_talk=sc.needs_extraction,
        concerned=sc.concerned,
        exposure=exposure,
        status=lab.status if lab else None,
        values=lab.values if lab else {},
        quotes=lab.quotes if lab else {},
        allergy_sentences=sc.allergy_sentences,
    )
