"""Phase 1: task text → Formula Seed, via a language model, the seed JSON Schema and the static check.

:func:`compile_task` asks the model for a seed, giving it the seed JSON Schema and a concise description of the ops
(:func:`ops_guide`); it runs the static check on the answer and, while there are errors, shows the model its answer
and the errors and asks again — at most ``max_rounds`` rounds (3 by default). The result says whether a seed passed;
nothing is written here (the CLI writes the seed only when it passed). The model client is injected, so this module
does no configuration and no file I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dinecheck.errors import Problem, SpecError
from dinecheck.extract.chat import CallFailed, ChatClient

MAX_TASK_CHARS = 100_000
MAX_ROUNDS = 3
SEED_MAX_TOKENS = 8000

_GUIDE = """\
A Formula Seed has five sections: task_name; filter.keywords (a review is relevant when its lower-cased text contains
any lower-cased keyword); extract.fields (enum fields read from each relevant review: name, type "enum", values = {value:
meaning}; include a "none" value); compute (ordered steps, each {"name", "op", …}; a step may only use names defined
by EARLIER steps); output (names of steps to return).
Names inside steps: extraction.F (an extracted field), meta.F (review fields: <META>), context.F (restaurant fields:
<CONTEXT>), $NAME (a define_filter), and bare NAME (an earlier step's value). Per-review names (extraction.F, meta.F)
may only appear inside sum/max/min expressions and in where/extraction conditions.
Ops:
- define_filter: {"extraction": {FIELD: value | {"in": [...]}}} — a reusable condition over extraction fields.
- count: {"where"?: WHERE} — number of relevant reviews matching WHERE (all of them without WHERE).
- sum: {"expr", "where"?} — sum of an expression over matching reviews (0 when none).
- max / min: {"field", "where"?, "default"} — aggregate over matching reviews; default when none match.
- lookup: {"source": "context.X", "table": {key: value}, "match": "exact"|"substring_first"|"substring_max",
  "default"}.
- expr: {"expr"} — arithmetic on earlier values: + - * /, comparisons, and/or/not, "a if cond else b", functions max,
  min, abs, log, sqrt. No other functions, no **, no attribute access.
- const: {"value"}.
- case: {"rules": [{"when": "COND", "then": v}, …, {"else": v}]}, or with "source": NAME and each "when" a
  comparison suffix such as "< 4.0". End every case with an else rule.
WHERE maps keys (extraction.F, meta.F, context.F, $FILTER) to a literal (equality) or an operator object with any of
"in", ">=", ">", "<=", "<", "!=" (all must hold). Enum literals must be declared values of their field.
"""


def ops_guide() -> str:
    """The concise description of seed sections, namespaces and ops given to the model (field names from the engine)."""
    from dinecheck.formula.check import RESTAURANT_FIELDS, REVIEW_FIELDS

    return _GUIDE.replace("<META>", ", ".join(REVIEW_FIELDS)).replace("<CONTEXT>", ", ".join(RESTAURANT_FIELDS))

_SYSTEM = (
    "You translate a restaurant-evaluation task into a Formula Seed: a declarative JSON program that a fixed engine "
    "executes. Preserve every rule, weight and threshold of the task; do not invent data sources. "
    "Answer with the seed as one JSON object and nothing else.\n\n"
    "{guide}\nThe seed must validate against this JSON Schema:\n{schema}"
)

CheckFn = Callable[[Any], list[Problem]]


@dataclass(frozen=True)
class CompileRound:
    """One model answer: the seed it parsed to (None when unparsable) and the errors the static check found."""

    number: int
    seed: dict[str, Any] | None
    errors: list[Problem]


@dataclass
class CompileResult:
    """All rounds; ``seed`` is the first seed without errors, or None when every round failed."""

    rounds: list[CompileRound] = field(default_factory=list)
    seed: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.seed is not None

    @property
    def last_errors(self) -> list[Problem]:
        return self.rounds[-1].errors if self.rounds else []


def seed_schema() -> dict[str, Any]:
    """The seed JSON Schema from the formula engine."""
    from dinecheck.formula.schema import seed_json_schema

    return seed_json_schema()


def static_check(seed: Any) -> list[Problem]:
    """Every problem (errors and warnings) the formula engine's static check finds in a parsed seed."""
    from dinecheck.formula.check import check_seed

    return list(check_seed(seed).problems)


def _parse(content: str | None) -> tuple[dict[str, Any] | None, list[Problem]]:
    if not content or not content.strip():
        return None, [Problem("", "the answer is empty")]
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("\n") + 1 :] if "\n" in text else text
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [Problem("", f"the answer is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})")]
    except RecursionError:
        return None, [Problem("", "the answer is nested too deeply")]
    if not isinstance(obj, dict):
        return None, [Problem("", f"the answer must be a JSON object, not {type(obj).__name__}")]
    return obj, []


def _feedback(errors: list[Problem]) -> str:
    lines = "\n".join(f"- {p.pointer or '/'}: {p.reason}" for p in errors[:30])
    return (
        f"The seed has {len(errors)} error(s):\n{lines}\n\n"
        "Fix every error and answer with the complete corrected seed as one JSON object."
    )


def compile_messages(task_text: str) -> list[dict[str, str]]:
    """The first request of Phase 1: the messages sent to the model for ``task_text`` (``seed compile --print-prompt``)."""
    if len(task_text) > MAX_TASK_CHARS:
        raise SpecError(f"the task text is longer than {MAX_TASK_CHARS} characters", "seed compile")
    system = _SYSTEM.format(guide=ops_guide(), schema=json.dumps(seed_schema(), separators=(",", ":")))
    return [{"role": "system", "content": system}, {"role": "user", "content": f"Task:\n{task_text}"}]


def compile_task(
    task_text: str, client: ChatClient, *, check: CheckFn = static_check, max_rounds: int = MAX_ROUNDS
) -> CompileResult:
    """Ask for a seed, check it, feed errors back; at most ``max_rounds`` model answers."""
    messages = compile_messages(task_text)
    schema = seed_schema()
    result = CompileResult()
    for number in range(1, max(1, max_rounds) + 1):
        try:
            reply = client.complete(
                messages, schema=schema, schema_name="formula_seed", strict=False, max_tokens=SEED_MAX_TOKENS
            )
        except CallFailed as exc:
            result.rounds.append(CompileRound(number, None, [Problem("", f"the model call failed: {exc}")]))
            break
        seed, errors = _parse(reply.content)
        if seed is not None:
            errors = [p for p in check(seed) if p.severity == "error"]
        result.rounds.append(CompileRound(number, seed, errors))
        if seed is not None and not errors:
            result.seed = seed
            break
        messages = [
            *messages,
            {"role": "assistant", "content": (reply.content or "")[:60_000]},
            {"role": "user", "content": _feedback(errors)},
        ]
    return result
