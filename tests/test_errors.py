"""The exception hierarchy: one base, location + reason, one-line messages."""

from __future__ import annotations

import pytest

from dinecheck import errors
from dinecheck.errors import DinecheckError, Problem, SeedError


def test_every_public_error_derives_from_the_base() -> None:
    for name in errors.__all__:
        obj = getattr(errors, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, DinecheckError), name


def test_message_is_location_then_reason() -> None:
    err = errors.DataError("invalid JSON (Expecting value)", "data/reviews.jsonl:7")
    assert str(err) == "data/reviews.jsonl:7: invalid JSON (Expecting value)"
    assert err.location == "data/reviews.jsonl:7"
    assert err.reason == "invalid JSON (Expecting value)"
    assert err.exit_code == 2


def test_message_without_location_is_the_reason() -> None:
    assert str(errors.ConfigError("no model configured")) == "no model configured"


@pytest.mark.parametrize(
    ("sub", "parent"),
    [
        (errors.RequestError, errors.SpecError),
        (errors.ShorthandError, errors.SpecError),
        (errors.SeedError, errors.SpecError),
        (errors.ExpressionError, errors.SpecError),
        (errors.BudgetExceeded, errors.ExtractionError),
    ],
)
def test_hierarchy(sub: type, parent: type) -> None:
    assert issubclass(sub, parent)


def test_seed_error_summarises_all_problems() -> None:
    problems = [
        Problem("/compute/2/expr", "unknown name 'N_MILDD'; did you mean 'N_MILD'?"),
        Problem("/compute/5/rules", "the last rule is not 'else'", "warning"),
        Problem("/output/0", "'X' is not defined by any step"),
    ]
    err = SeedError(problems, "seed.json")
    assert str(err) == "seed.json: /compute/2/expr: unknown name 'N_MILDD'; did you mean 'N_MILD'? (and 1 more)"
    assert err.problems == problems
    assert str(problems[1]) == "warning: /compute/5/rules: the last rule is not 'else'"
