"""dinecheck: restaurant requests, review-based allergy risk and packaged-food allergen checks.

The public API, one entry point per capability (everything else is internal)::

    from dinecheck import load_dataset, Engine, load_requests, validate_requests      # requests
    from dinecheck import load_seed, build_seed, make_extractor                         # Formula Seeds (Phase 2)
    from dinecheck import compile_task                                                  # task text → seed (Phase 1)
    from dinecheck import check_label, parse_profile, open_store                        # allergen labels
    from dinecheck import build_evidence, open_risk_store, restaurant_evidence          # allergy evidence from reviews
    from dinecheck import parse_where, parse_allergens, SearchResult                    # one answer: search …
    from dinecheck.search import search                                                # … (dinecheck.search is the module)

Verbs: ``build_seed`` checks a seed and builds the executable :class:`CompiledSeed`; ``compile_task`` (the CLI's
``seed compile``) asks a language model to write a seed for a task. Errors all derive from :class:`DinecheckError` (see :mod:`dinecheck.errors`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from dinecheck.errors import (
    AuditQueryError,
    BudgetExceeded,
    ConfigError,
    DataError,
    DinecheckError,
    EvaluationError,
    ExpressionError,
    ExtractionError,
    OntologyError,
    RequestError,
    SeedError,
    ShorthandError,
    SpecError,
    StoreError,
)

if TYPE_CHECKING:
    from dinecheck.allergens.pipeline import LabelResult, check_label, parse_profile
    from dinecheck.allergens.store import open_store
    from dinecheck.compile import compile_task
    from dinecheck.dataset import Dataset, load_dataset
    from dinecheck.extract.factory import make_extractor
    from dinecheck.formula import CompiledSeed, RestaurantResult, build_seed, load_seed
    from dinecheck.requests import Engine, load_requests, validate_requests
    from dinecheck.risk import AllergenEvidence, EvidenceIndex, build_evidence, open_risk_store
    from dinecheck.search import ConditionResult, SearchResult, parse_allergens, parse_where, restaurant_evidence

# Imported on first use (PEP 562), so ``import dinecheck`` — and every CLI command — loads only what it needs.
_LAZY = {
    "LabelResult": "dinecheck.allergens.pipeline",
    "check_label": "dinecheck.allergens.pipeline",
    "parse_profile": "dinecheck.allergens.pipeline",
    "open_store": "dinecheck.allergens.store",
    "Dataset": "dinecheck.dataset",
    "load_dataset": "dinecheck.dataset",
    "make_extractor": "dinecheck.extract.factory",
    "CompiledSeed": "dinecheck.formula",
    "RestaurantResult": "dinecheck.formula",
    "build_seed": "dinecheck.formula",
    "compile_task": "dinecheck.compile",
    "load_seed": "dinecheck.formula",
    "Engine": "dinecheck.requests",
    "load_requests": "dinecheck.requests",
    "validate_requests": "dinecheck.requests",
    "AllergenEvidence": "dinecheck.risk",
    "EvidenceIndex": "dinecheck.risk",
    "build_evidence": "dinecheck.risk",
    "open_risk_store": "dinecheck.risk",
    "ConditionResult": "dinecheck.search",
    "SearchResult": "dinecheck.search",
    "parse_allergens": "dinecheck.search",
    "parse_where": "dinecheck.search",
    "restaurant_evidence": "dinecheck.search",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'dinecheck' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)


__version__ = "0.1.0"


__all__ = [
    "AllergenEvidence",
    "AuditQueryError",
    "BudgetExceeded",
    "CompiledSeed",
    "ConditionResult",
    "ConfigError",
    "DataError",
    "Dataset",
    "DinecheckError",
    "Engine",
    "EvaluationError",
    "EvidenceIndex",
    "ExpressionError",
    "ExtractionError",
    "LabelResult",
    "OntologyError",
    "RequestError",
    "RestaurantResult",
    "SearchResult",
    "SeedError",
    "ShorthandError",
    "SpecError",
    "StoreError",
    "__version__",
    "build_evidence",
    "build_seed",
    "check_label",
    "compile_task",
    "load_dataset",
    "load_requests",
    "load_seed",
    "make_extractor",
    "open_risk_store",
    "open_store",
    "parse_allergens",
    "parse_profile",
    "parse_where",
    "restaurant_evidence",
    "validate_requests",
]
