"""dinecheck: restaurant requests, review-based allergy risk and packaged-food allergen checks.

The public API, one entry point per capability (everything else is internal)::

    from dinecheck import load_dataset, Engine, load_requests, validate_requests      # requests
    from dinecheck import load_seed, build_seed, make_extractor                         # Formula Seeds (Phase 2)
    from dinecheck import compile_task                                                  # task text → seed (Phase 1)
    from dinecheck import check_label, parse_profile, open_store                        # allergen labels

Verbs: ``build_seed`` checks a seed and builds the executable :class:`CompiledSeed`; ``compile_task`` (the CLI's
``seed compile``) asks a language model to write a seed for a task. Errors all derive from :class:`DinecheckError` (see :mod:`dinecheck.errors`).
"""

from typing import Any

from dinecheck.allergens.pipeline import LabelResult, check_label, parse_profile
from dinecheck.allergens.store import open_store
from dinecheck.dataset import Dataset, load_dataset
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
from dinecheck.extract.factory import make_extractor
from dinecheck.formula import CompiledSeed, RestaurantResult, build_seed, load_seed
from dinecheck.requests import Engine, load_requests, validate_requests

__version__ = "0.1.0"


def compile_task(task_text: str, client: Any, **kwargs: Any) -> Any:
    """Phase 1: task text → Formula Seed via a language model (:func:`dinecheck.compile.compile_task`; imported
    lazily so that importing the package loads no network library)."""
    from dinecheck.compile import compile_task as _compile_task

    return _compile_task(task_text, client, **kwargs)


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
    "build_seed",
    "check_label",
    "compile_task",
    "load_dataset",
    "load_requests",
    "load_seed",
    "make_extractor",
    "open_store",
    "parse_profile",
    "validate_requests",
]
