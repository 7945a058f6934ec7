"""dinecheck: restaurant requests, review-based allergy risk and packaged-food allergen checks.

The public API, one entry point per capability (everything else is internal)::

    from dinecheck import load_dataset, Engine, load_requests, validate_requests      # requests
    from dinecheck import load_seed, compile_seed, make_extractor                       # Formula Seeds
    from dinecheck import check_label, parse_profile, open_store                        # allergen labels

Errors all derive from :class:`DinecheckError` (see :mod:`dinecheck.errors`).
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
    from dinecheck.dataset import Dataset, load_dataset
    from dinecheck.extract.factory import make_extractor
    from dinecheck.formula import CompiledSeed, RestaurantResult, compile_seed, load_seed
    from dinecheck.requests import Engine, load_requests, validate_requests

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
    "compile_seed": "dinecheck.formula",
    "load_seed": "dinecheck.formula",
    "Engine": "dinecheck.requests",
    "load_requests": "dinecheck.requests",
    "validate_requests": "dinecheck.requests",
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
    "AuditQueryError",
    "BudgetExceeded",
    "CompiledSeed",
    "ConfigError",
    "DataError",
    "Dataset",
    "DinecheckError",
    "Engine",
    "EvaluationError",
    "ExpressionError",
    "ExtractionError",
    "LabelResult",
    "OntologyError",
    "RequestError",
    "RestaurantResult",
    "SeedError",
    "ShorthandError",
    "SpecError",
    "StoreError",
    "__version__",
    "check_label",
    "compile_seed",
    "load_dataset",
    "load_requests",
    "load_seed",
    "make_extractor",
    "open_store",
    "parse_profile",
    "validate_requests",
]
