"""The Formula Seed engine: a safe, generic interpreter for seeds (filter → extract → compute → output).

Public API::

    from dinecheck.formula import load_seed, compile_seed, check_seed

    seed = load_seed("seed.json")              # read + static check; SeedError lists every problem
    compiled = compile_seed(seed)              # parse every expression once, build every step
    result = compiled.run(restaurant, reviews, extractor, trace=True)   # -> RestaurantResult
    results = compiled.run_many([(restaurant, reviews), ...], extractor)  # one extractor call for all
    result.outputs, result.status, result.failed_reviews, result.flagged_outputs, result.trace
    result.to_json(trace=True)                 # the ``seed run --json`` line

    compiled.evaluate(business_id, name, context, [ReviewRecord(review_id, meta, extraction), ...], n_filtered)
                                               # the compute stage alone (``seed eval``)
    check_seed(raw_json).problems              # static check of a raw seed: [Problem(pointer, reason, severity)]

Modules: ``schema`` (pydantic models + JSON Schema), ``expr`` (expression language), ``check`` (static check),
``ops`` (one builder per op), ``filter`` (keyword filter), ``run`` (compile + execute + trace).
"""

from dinecheck.formula.check import CheckResult, check_seed
from dinecheck.formula.ops import ReviewRecord
from dinecheck.formula.run import (
    CompiledSeed,
    FailedReview,
    RestaurantResult,
    TraceStep,
    check_seed_file,
    compile_seed,
    load_seed,
    load_seed_json,
)
from dinecheck.formula.schema import Seed, seed_json_schema

__all__ = [
    "CheckResult",
    "CompiledSeed",
    "FailedReview",
    "RestaurantResult",
    "ReviewRecord",
    "Seed",
    "TraceStep",
    "check_seed",
    "check_seed_file",
    "compile_seed",
    "load_seed",
    "load_seed_json",
    "seed_json_schema",
]
