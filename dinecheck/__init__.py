"""dinecheck: restaurant requests, review-based allergy risk and packaged-food allergen checks.

The public API is listed in ``__all__``; everything else is internal.
"""

from dinecheck.errors import (
    ConfigError,
    DataError,
    DinecheckError,
    EvaluationError,
    ExpressionError,
    ExtractionError,
    OntologyError,
    RequestError,
    SeedError,
    SpecError,
    StoreError,
)

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "DataError",
    "DinecheckError",
    "EvaluationError",
    "ExpressionError",
    "ExtractionError",
    "OntologyError",
    "RequestError",
    "SeedError",
    "SpecError",
    "StoreError",
    "__version__",
]
