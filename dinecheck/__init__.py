"""dinecheck: restaurant requests, review-based allergy risk and packaged-food allergen checks.

The public API, one entry point per capability (everything else is internal)::

    from dinecheck import load_dataset, Engine, load_requests, validate_requests      # requests
    from dinecheck import load_seed, compile_seed, make_extractor                       # Formula Seeds
    from dinecheck import check_label, parse_profile, open_store                        # allergen labels
    from dinecheck import build_evidence, open_risk_store                               # allergy evidence from reviews
    from dinecheck import search, restaurant_evidence, parse_where, parse_allergens     # one answer: search

Errors all derive from :class:`DinecheckError` (see :mod:`dinecheck.errors`).
"""

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
from dinecheck.formula import CompiledSeed, RestaurantResult, compile_seed, load_seed
from dinecheck.requests import Engine, load_requests, validate_requests
from dinecheck.risk import AllergenEvidence, EvidenceIndex, build_evidence, open_risk_store
from dinecheck.search import ConditionResult, SearchResult, parse_allergens, parse_where, restaurant_evidence, search

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
    "EvidenceIndex",
    "EvaluationError",
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
    "check_label",
    "compile_seed",
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
    "search",
    "validate_requests",
]
