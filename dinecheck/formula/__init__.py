"""The Formula Seed engine: a safe, generic interpreter for seeds (filter → extract → compute → output).

Public API::

    from dinecheck.formula import load_seed, build_seed, check_seed

    seed = load_seed("seed.json")              # read + static check; SeedError lists every problem
    compiled = build_seed(seed)                # check, parse every expression once, build every step
    result = compiled.run(restaurant, reviews, extractor, trace=True)   # -> RestaurantResult
    results = compiled.run_many([(restaurant, reviews), ...], extractor)  # one extractor call for all
    result.outputs, result.status, result.failed_reviews, result.flagged_outputs, result.trace
    result.to_json(trace=True)                 # the ``seed run --json`` line

    compiled.evaluate(business_id, name, context, [ReviewRecord(review_id, meta, extraction), ...], n_filtered)
                                               # the compute stage alone (``seed eval``)
    check_seed(raw_json).problems              # static check of a raw seed: [Problem(pointer, reason, severity)]

``build_seed`` is Phase 2's verb (check + build an executable seed); writing a seed from a task text with a model is
Phase 1, :func:`dinecheck.compile.compile_task` (``dinecheck seed compile``). ``compile_seed`` is a deprecated alias
of ``build_seed``, kept only so that older callers keep working.

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
    build_seed,
    check_seed_file,
    load_seed,
    load_seed_json,
)
from dinecheck.formula.schema import Seed, seed_json_schema

compile_seed = build_seed  # deprecated alias (the verb "compile" belongs to Phase 1)

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
    "build_seed",
    "load_seed",
    "load_seed_json",
    "seed_json_schema",
]
