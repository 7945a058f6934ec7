"""Static check of a Formula Seed: every problem, each with a JSON pointer, before any review is read.

:func:`check_seed` takes the raw JSON value of a seed and returns a :class:`CheckResult` holding every
:class:`~dinecheck.errors.Problem` (errors and warnings) and, when there is no error, the validated
:class:`~dinecheck.formula.schema.Seed`. Rules (each has a test with a failing seed):

* shape: unknown/missing top-level keys, bad JSON types, unknown ``op`` (with a "did you mean"), missing or extra
  op parameters, ``case`` rules that are neither ``{when, then}`` nor ``{else}``, an ``else`` that is not last;
* names: invalid or reserved step names, duplicate step names, duplicate extract fields, every name used in an
  expression, ``where``, ``source`` or ``output`` defined by an *earlier* step (self-reference and forward references
  get their own messages), ``$NAME`` keys naming an earlier ``define_filter``, filters not used as values;
* fields: ``extraction.X`` declared in ``extract.fields``; ``meta.X`` / ``context.X`` among the known review /
  restaurant fields (:data:`REVIEW_FIELDS`, :data:`RESTAURANT_FIELDS`); per-review names only inside
  ``sum``/``max``/``min`` expressions and ``where``;
* values: every literal compared with an enum field is one of its declared values (closest value suggested);
  ordering comparisons on enum fields; literal/field type mismatches in ``where``;
* expressions: syntax (with the column) and static types (a string or boolean in arithmetic, a non-boolean
  condition, comparing a string with a number, a ``max``/``min`` field that is not a number);
* warnings: a ``case`` whose last rule is not ``else``, a step no output depends on, an output listed twice.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from dinecheck.errors import ExpressionError, Problem
from dinecheck.formula import expr as E
from dinecheck.formula.schema import (
    MAX_STEPS,
    STEP_MODELS,
    ExtractSection,
    FilterSection,
    Seed,
)

REVIEW_FIELDS: dict[str, str] = {
    "review_id": "string", "user_id": "string", "business_id": "string", "stars": "number", "useful": "number",
    "funny": "number", "cool": "number", "text": "string", "date": "string", "year": "number", "user": "any",
}  # fmt: skip
"""``meta.X``: every Yelp review field plus ``year`` (derived from ``date``)."""

RESTAURANT_FIELDS: dict[str, str] = {
    "business_id": "string", "name": "string", "address": "string", "city": "string", "state": "string",
    "postal_code": "string", "latitude": "number", "longitude": "number", "stars": "number",
    "review_count": "number", "is_open": "number", "attributes": "any", "categories": "string", "hours": "any",
}  # fmt: skip
"""``context.X``: every Yelp business field."""

TOP_LEVEL = ("task_name", "filter", "extract", "compute", "output")
WHERE_OPERATORS = ("in", ">=", ">", "<=", "<", "!=")
RESERVED = E.KEYWORDS | set(E.FUNCTIONS) | set(E.NAMESPACES)
PER_REVIEW_OPS = ("sum", "max", "min")

_TYPE_WORDS = {
    "bool_type": "a boolean", "int_type": "an integer", "float_type": "a number", "string_type": "a string",
    "dict_type": "an object", "model_type": "an object", "list_type": "a list", "literal_error": None,
}  # fmt: skip


def pointer(*parts: Any) -> str:
    """A JSON pointer (RFC 6901) from path components."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _r(value: Any) -> str:
    """``repr`` bounded to 80 characters: messages quote untrusted seed text."""
    text = repr(value)
    return text if len(text) <= 80 else text[:76] + "…" + text[-1]


def _suggest(word: str, choices: Any) -> str:
    if len(word) > 200:
        return ""
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {_r(close[0])}?)" if close else ""


def _scalar(v: Any) -> bool:
    return isinstance(v, (bool, int, float, str)) and not (isinstance(v, float) and v != v)


@dataclass
class CheckResult:
    """Every problem found, and the validated seed when there is no error."""

    problems: list[Problem] = field(default_factory=list)
    seed: Seed | None = None

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class _StepInfo:
    index: int
    name: str
    op: str
    type: str = "any"  # number | string | boolean | any | filter


class _Checker:
    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.problems: list[Problem] = []
        self.fields: dict[str, dict[str, str]] = {}  # declared extraction field -> values
        self.steps: dict[str, _StepInfo] = {}  # first definition of each name
        self.deps: dict[str, set[str]] = {}
        self.defined_at: dict[str, int] = {}  # first index of each step name
        self.compute_checked = True  # False when the compute list could not be checked (outputs are then not resolved)

    def error(self, ptr: str, reason: str) -> None:
        self.problems.append(Problem(ptr, reason, "error"))

    def warn(self, ptr: str, reason: str) -> None:
        self.problems.append(Problem(ptr, reason, "warning"))

    # ------------------------------------------------------------------------------------------------ pydantic errors
    def pydantic(self, errors: list[Any], base: tuple[Any, ...], raw: Any, skip: tuple[str, ...] = ()) -> None:
        grouped: dict[str, list[dict[str, Any]]] = {}
        for err in errors:
            loc = list(err["loc"])
            cur, path = raw, []
            for part in loc:  # keep the path components that exist in the input; drop union-member tags
                if isinstance(cur, dict) and part in cur:
                    cur = cur[part]
                elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
                    cur = cur[part]
                elif err["type"] in ("missing", "extra_forbidden") and part == loc[-1] and cur is not None:
                    path.append(part)
                    break
                else:
                    break
                path.append(part)
            if skip and loc and loc[0] in skip and len(loc) > 1:
                continue  # checked by hand with better messages (where/extraction conditions, case rules)
            grouped.setdefault(pointer(*base, *path), []).append({**err, "_value": cur, "_path": path})
        for ptr, errs in grouped.items():
            first = errs[0]
            if first["type"] == "missing":
                self.error(ptr, f"missing required key {_r(str(first['loc'][-1]))}")
            elif first["type"] == "extra_forbidden":
                self.error(ptr, f"unknown key {_r(str(first['_path'][-1]))}")
            elif all(e["type"] in _TYPE_WORDS for e in errs):
                wanted: list[str] = []
                for e in errs:
                    w = _TYPE_WORDS[e["type"]]
                    if w is None:
                        w = e["msg"].replace("Input should be ", "")
                    if w not in wanted:
                        wanted.append(w)
                self.error(ptr, f"expected {' or '.join(wanted)}, got {_json_type(first['_value'])}")
            else:
                self.error(ptr, "; ".join(dict.fromkeys(e["msg"] for e in errs)))

    # ------------------------------------------------------------------------------------------------ entry point
    def run(self) -> CheckResult:
        raw = self.raw
        if not isinstance(raw, dict):
            self.error("", f"a seed must be a JSON object, got {_json_type(raw)}")
            return CheckResult(self.problems)
        for key in raw:
            if key not in TOP_LEVEL:
                self.error(pointer(key), f"unknown top-level key {_r(key)}{_suggest(key, TOP_LEVEL)}")
        for key in TOP_LEVEL:
            if key not in raw:
                self.error(pointer(key), f"missing required key {_r(key)}")
        for where in _non_finite(raw, ()):
            self.error(pointer(*where), "NaN and Infinity are not numbers a seed may hold (JSON has no such values)")
        if "task_name" in raw and not (isinstance(raw["task_name"], str) and 0 < len(raw["task_name"]) <= 200):
            self.error(pointer("task_name"), "task_name must be a string of 1–200 characters")
        if "filter" in raw:
            try:
                FilterSection.model_validate(raw["filter"])
            except ValidationError as exc:
                self.pydantic(exc.errors(), ("filter",), raw["filter"])
        if "extract" in raw:
            self.check_extract(raw["extract"])
        if "compute" in raw:
            self.check_compute(raw["compute"])
        if "output" in raw:
            self.check_output(raw["output"])
        self.unused_steps()
        seed = None
        if not any(p.severity == "error" for p in self.problems):
            try:
                seed = Seed.model_validate(raw)
            except ValidationError as exc:  # a shape rule not covered above: still report it with its pointer
                self.pydantic(exc.errors(), (), raw)
        return CheckResult(self.problems, seed)

    # ------------------------------------------------------------------------------------------------ sections
    def check_extract(self, ext: Any) -> None:
        try:
            ExtractSection.model_validate(ext)
        except ValidationError as exc:
            self.pydantic(exc.errors(), ("extract",), ext)
        if not isinstance(ext, dict) or not isinstance(ext.get("fields"), list):
            return
        for i, f in enumerate(ext["fields"]):
            if not isinstance(f, dict) or not isinstance(f.get("name"), str):
                continue
            if f["name"] in self.fields:
                self.error(pointer("extract", "fields", i, "name"), f"duplicate extract field {_r(f['name'])}")
                continue
            values = f.get("values")
            self.fields[f["name"]] = {str(k): v for k, v in values.items()} if isinstance(values, dict) else {}

    def check_compute(self, compute: Any) -> None:
        if not isinstance(compute, list):
            self.error(pointer("compute"), f"expected a list of steps, got {_json_type(compute)}")
            return
        if not compute:
            self.error(pointer("compute"), "the compute list is empty")
        if len(compute) > MAX_STEPS:
            self.error(pointer("compute"), f"the seed has {len(compute)} steps; the limit is {MAX_STEPS}")
            self.compute_checked = False
            return
        defined_at: dict[str, int] = {}
        for i, step in enumerate(compute):
            if isinstance(step, dict) and isinstance(step.get("name"), str):
                defined_at.setdefault(step["name"], i)
        self.defined_at = defined_at
        for i, step in enumerate(compute):
            self.check_step(i, step)

    def unused_steps(self) -> None:
        """Warn about steps no output depends on (only when the seed has no error, to avoid cascades)."""
        outputs = self.raw.get("output") if isinstance(self.raw.get("output"), list) else []
        needed = {o for o in outputs if isinstance(o, str)}
        stack = list(needed)
        while stack:
            n = stack.pop()
            for d in self.deps.get(n, ()):
                if d not in needed:
                    needed.add(d)
                    stack.append(d)
        if isinstance(self.raw.get("output"), list) and not any(p.severity == "error" for p in self.problems):
            for name, info in self.steps.items():
                if name not in needed and info.op != "define_filter":
                    self.warn(pointer("compute", info.index), f"step {_r(name)} is computed but no output depends on it")

    def check_output(self, output: Any) -> None:
        if not isinstance(output, list):
            self.error(pointer("output"), f"expected a list of step names, got {_json_type(output)}")
            return
        if not output:
            self.error(pointer("output"), "the output list is empty")
        seen: set[str] = set()
        for i, name in enumerate(output):
            ptr = pointer("output", i)
            if not isinstance(name, str):
                self.error(ptr, f"expected a step name, got {_json_type(name)}")
                continue
            if name in seen:
                self.warn(ptr, f"{_r(name)} is listed twice")
            seen.add(name)
            info = self.steps.get(name)
            if info is None:
                if name in self.defined_at or not self.compute_checked or not isinstance(self.raw.get("compute"), list):
                    continue  # the step exists but is invalid: already reported there
                self.error(ptr, f"unknown step {_r(name)}{_suggest(name, self.steps)}")
            elif info.op == "define_filter":
                self.error(ptr, f"{_r(name)} is a filter, not a value; it cannot be an output")

    # ------------------------------------------------------------------------------------------------ steps
    def check_step(self, i: int, step: Any) -> None:
        base = ("compute", i)
        if not isinstance(step, dict):
            self.error(pointer(*base), f"a step must be an object, got {_json_type(step)}")
            return
        name = step.get("name")
        op = step.get("op")
        name_ok = False
        if "name" not in step:
            self.error(pointer(*base, "name"), "missing required key 'name'")
        elif not isinstance(name, str) or not name:
            self.error(pointer(*base, "name"), f"a step name must be a non-empty string, got {_json_type(name)}")
        elif name in RESERVED:
            self.error(pointer(*base, "name"), f"{_r(name)} is a reserved word and cannot name a step")
        elif self.defined_at.get(name, i) < i:
            self.error(pointer(*base, "name"), f"duplicate step name {_r(name)} (first defined at {pointer('compute', self.defined_at[name])})")
        else:
            name_ok = True
        if "op" not in step:
            self.error(pointer(*base, "op"), "missing required key 'op'")
            return
        if not isinstance(op, str) or op not in STEP_MODELS:
            self.error(pointer(*base, "op"), f"unknown op {_r(op)}{_suggest(str(op), STEP_MODELS)}; expected one of {', '.join(STEP_MODELS)}")
            return
        model = STEP_MODELS[op]
        n_before = len(self.problems)
        allowed = [model.model_fields[k].alias or k for k in model.model_fields]
        try:
            model.model_validate(step)
        except ValidationError as exc:
            skip = ("where", "extraction", "rules")
            for err in exc.errors():
                if err["type"] == "extra_forbidden":
                    key = err["loc"][-1]
                    if len(err["loc"]) == 1:
                        self.error(pointer(*base, key), f"unknown parameter {_r(key)} for op {_r(op)}{_suggest(str(key), allowed)}; allowed: {', '.join(allowed)}")
                elif err["type"] == "missing" and len(err["loc"]) == 1:
                    self.error(pointer(*base, err["loc"][0]), f"missing parameter {_r(err['loc'][0])} for op {_r(op)}")
            rest = [e for e in exc.errors() if not (len(e["loc"]) == 1 and e["type"] in ("extra_forbidden", "missing"))]
            if rest:
                self.pydantic(rest, base, step, skip=skip)
        shape_ok = len(self.problems) == n_before
        info = _StepInfo(i, name if isinstance(name, str) else "", op)
        deps: set[str] = set()
        per_review = op in PER_REVIEW_OPS
        if op == "define_filter":
            self.check_where(step.get("extraction"), (*base, "extraction"), i, deps, bare=True)
            info.type = "filter"
        elif op in ("count", "sum", "max", "min") and "where" in step and step["where"] is not None:
            self.check_where(step["where"], (*base, "where"), i, deps)
        if op == "count":
            info.type = "number"
        elif op == "sum":
            t = self.check_expr(step.get("expr"), (*base, "expr"), i, deps, per_review=True)
            if t not in ("number", "any", None):
                self.error(pointer(*base, "expr"), f"sum needs a number for each review, but the expression is {_a(t)}")
            info.type = "number"
        elif op in ("max", "min"):
            t = self.check_expr(step.get("field"), (*base, "field"), i, deps, per_review=per_review)
            if t not in ("number", "any", None):
                self.error(pointer(*base, "field"), f"{op} needs a number for each review, but the field is {_a(t)}")
            info.type = "number"
        elif op == "expr":
            info.type = self.check_expr(step.get("expr"), (*base, "expr"), i, deps) or "any"
        elif op == "const":
            v = step.get("value")
            info.type = _kind_of(v)
        elif op == "lookup":
            _, src_type = self.check_source(step.get("source"), (*base, "source"), i, deps)
            if src_type in ("number", "boolean"):
                self.error(pointer(*base, "source"), f"a lookup source must be a string (or a list of strings), but it is {_a(src_type)}")
            table = step.get("table")
            if step.get("match") == "substring_max" and isinstance(table, dict):
                for key, val in table.items():
                    if not (isinstance(val, (int, float)) and not isinstance(val, bool)):
                        self.error(pointer(*base, "table", key), f"substring_max needs numeric table values, got {_json_type(val)}")
            kinds = {_kind_of(v) for v in table.values()} if isinstance(table, dict) else set()
            if "default" in step and step["default"] is not None:
                kinds.add(_kind_of(step["default"]))
            info.type = kinds.pop() if len(kinds) == 1 else "any"
        elif op == "case":
            info.type = self.check_case(step, base, i, deps)
        self.deps[info.name] = deps
        if name_ok and shape_ok:
            self.steps[name] = info
        elif name_ok:
            self.steps.setdefault(name, _StepInfo(i, name, op, "invalid"))

    # ------------------------------------------------------------------------------------------------ references
    def resolve(self, name: str, ptr: str, i: int, deps: set[str], *, as_filter: bool = False) -> _StepInfo | None:
        """Check that ``name`` is defined by an earlier step; report self/forward/unknown references."""
        at = self.defined_at.get(name)
        own = self.raw["compute"][i].get("name") if isinstance(self.raw["compute"][i], dict) else None
        ref = f"${name}" if as_filter else name
        if name == own and at == i:
            self.error(ptr, f"step {_r(own)} refers to itself")
            return None
        if at is None:
            pool = [n for n, s in self.steps.items() if s.index < i and ((s.op == "define_filter") == as_filter)]
            what = "filter" if as_filter else "name"
            self.error(ptr, f"unknown {what} {_r(ref)}{_suggest(name, pool)}; it must be defined by an earlier step")
            return None
        if at > i:
            self.error(ptr, f"{_r(ref)} is defined later, at {pointer('compute', at)}; a step can only use earlier steps")
            return None
        deps.add(name)
        info = self.steps.get(name)
        if info is None or info.type == "invalid":
            return None  # the definition itself is invalid and already reported
        if as_filter and info.op != "define_filter":
            self.error(ptr, f"'${name}' must name a define_filter step, but {_r(name)} is a {info.op} step")
            return None
        if not as_filter and info.op == "define_filter":
            self.error(ptr, f"{_r(name)} is a filter, not a value; use it as a where key: '${name}': true")
            return None
        return info

    def check_source(self, source: Any, base: tuple[Any, ...], i: int, deps: set[str]) -> tuple[E.Name | None, str]:
        ptr = pointer(*base)
        if not isinstance(source, str):
            return None, "any"  # shape problem reported by the model
        try:
            node = E.parse(source)
        except ExpressionError as exc:
            self.error(ptr, f"invalid source: {exc}")
            return None, "any"
        if not isinstance(node, E.Name):
            self.error(ptr, "a source must be a single name (a step name or context.X)")
            return None, "any"
        return node, self.name_type(node, ptr, i, deps, per_review=False)

    def name_type(self, node: E.Name, ptr: str, i: int, deps: set[str], *, per_review: bool) -> str:
        if node.namespace is None:
            info = self.resolve(node.name, ptr, i, deps)
            return info.type if info else "any"
        if node.namespace == "context":
            if node.name not in RESTAURANT_FIELDS:
                self.error(ptr, f"unknown restaurant field 'context.{node.name}'{_suggest(node.name, RESTAURANT_FIELDS)}")
                return "any"
            return RESTAURANT_FIELDS[node.name]
        if not per_review:
            self.error(ptr, f"'{node.dotted}' is a per-review value; it can only be used inside sum/max/min or a where")
            return "any"
        if node.namespace == "meta":
            if node.name not in REVIEW_FIELDS:
                self.error(ptr, f"unknown review field 'meta.{node.name}'{_suggest(node.name, REVIEW_FIELDS)}")
                return "any"
            return REVIEW_FIELDS[node.name]
        if node.name not in self.fields:
            self.error(ptr, f"'extraction.{node.name}' is not declared in extract.fields{_suggest(node.name, self.fields)}")
            return "any"
        return "string"

    # ------------------------------------------------------------------------------------------------ where
    def check_where(self, where: Any, base: tuple[Any, ...], i: int, deps: set[str], *, bare: bool = False) -> None:
        if not isinstance(where, dict):
            if where is not None or bare:
                self.error(pointer(*base), f"expected an object of conditions, got {_json_type(where)}")
            return
        if bare and not where:
            self.error(pointer(*base), "a define_filter needs at least one condition")
        for key, cond in where.items():
            ptr = pointer(*base, key)
            enum: dict[str, str] | None = None
            ftype = "any"
            label = key
            if bare:
                if key not in self.fields:
                    self.error(ptr, f"extraction field {_r(key)} is not declared in extract.fields{_suggest(key, self.fields)}")
                    continue
                enum, ftype, label = self.fields[key], "string", f"extraction.{key}"
            elif key.startswith("$"):
                self.resolve(key[1:], ptr, i, deps, as_filter=True)
                if not isinstance(cond, bool):
                    self.error(ptr, f"a filter condition must be true or false, got {_json_type(cond)}")
                continue
            else:
                ns, dot, fname = key.partition(".")
                if not dot or ns not in E.NAMESPACES or not fname:
                    self.error(ptr, f"invalid where key {_r(key)}; expected extraction.FIELD, meta.FIELD, context.FIELD or $FILTER")
                    continue
                if ns == "extraction":
                    if fname not in self.fields:
                        self.error(ptr, f"'extraction.{fname}' is not declared in extract.fields{_suggest(fname, self.fields)}")
                        continue
                    enum, ftype = self.fields[fname], "string"
                elif ns == "meta":
                    if fname not in REVIEW_FIELDS:
                        self.error(ptr, f"unknown review field 'meta.{fname}'{_suggest(fname, REVIEW_FIELDS)}")
                        continue
                    ftype = REVIEW_FIELDS[fname]
                else:
                    if fname not in RESTAURANT_FIELDS:
                        self.error(ptr, f"unknown restaurant field 'context.{fname}'{_suggest(fname, RESTAURANT_FIELDS)}")
                        continue
                    ftype = RESTAURANT_FIELDS[fname]
            if isinstance(cond, dict):
                if not cond:
                    self.error(ptr, f"an operator object needs at least one of {', '.join(WHERE_OPERATORS)}")
                for op, operand in cond.items():
                    optr = pointer(*base, key, op)
                    if op not in WHERE_OPERATORS:
                        hint = " (a plain literal means equality)" if op in ("==", "=", "eq") else _suggest(op, WHERE_OPERATORS)
                        self.error(optr, f"unknown operator {_r(op)}{hint}; expected one of {', '.join(WHERE_OPERATORS)}")
                        continue
                    if op == "in":
                        if not isinstance(operand, list) or not operand:
                            self.error(optr, f"'in' needs a non-empty list of literals, got {_json_type(operand)}")
                            continue
                        for j, item in enumerate(operand):
                            self.check_literal(item, pointer(*base, key, op, j), label, ftype, enum, "in")
                    else:
                        self.check_literal(operand, optr, label, ftype, enum, op)
            else:
                self.check_literal(cond, ptr, label, ftype, enum, "==")

    def check_literal(self, value: Any, ptr: str, label: str, ftype: str, enum: dict[str, str] | None, op: str) -> None:
        if not _scalar(value):
            self.error(ptr, f"expected a literal (string, number or boolean) or an operator object, got {_json_type(value)}")
            return
        vkind = _kind_of(value)
        if op in (">=", ">", "<=", "<"):
            if enum is not None:
                self.error(ptr, f"{_r(op)} cannot be used on the enum field {label}; use a literal or 'in'")
                return
            if vkind not in ("number", "string"):
                self.error(ptr, f"{_r(op)} needs a number or a string, got {_a(vkind)}")
                return
        if ftype != "any" and vkind != ftype:
            self.error(ptr, f"{label} is {_a(ftype)}, but it is compared with {_a(vkind)} {_r(value)}")
            return
        if enum is not None and value not in enum:
            self.error(ptr, f"{_r(value)} is not a value of {label}{_suggest(str(value), enum)}; expected one of {', '.join(enum)}")

    # ------------------------------------------------------------------------------------------------ expressions
    def check_expr(self, text: Any, base: tuple[Any, ...], i: int, deps: set[str], *, per_review: bool = False) -> str | None:
        if not isinstance(text, str) or len(text) > E.MAX_LENGTH:
            return None  # the shape problem is reported by the model
        ptr = pointer(*base)
        try:
            node = E.parse(text)
        except ExpressionError as exc:
            self.error(ptr, f"invalid expression: {exc}")
            return None
        return self.infer(node, ptr, i, deps, per_review)

    def infer(self, node: E.Node, ptr: str, i: int, deps: set[str], per_review: bool) -> str:
        """The static type of an expression (number, string, boolean or any); reports type errors."""
        at = f" (column {node.pos + 1})"
        if isinstance(node, E.Num):
            return "number"
        if isinstance(node, E.Str):
            return "string"
        if isinstance(node, E.Bool):
            return "boolean"
        if isinstance(node, E.Name):
            return self.name_type(node, ptr, i, deps, per_review=per_review)
        if isinstance(node, E.Unary):
            t = self.infer(node.operand, ptr, i, deps, per_review)
            if node.op == "not":
                self.want(t, "boolean", f"'not' needs a boolean, but its operand is {_a(t)}{at}", ptr)
                return "boolean"
            self.want(t, "number", f"unary {_r(node.op)} needs a number, but its operand is {_a(t)}{at}", ptr)
            return "number"
        if isinstance(node, E.Binary):
            lt = self.infer(node.left, ptr, i, deps, per_review)
            rt = self.infer(node.right, ptr, i, deps, per_review)
            if node.op in ("and", "or"):
                for t in (lt, rt):
                    self.want(t, "boolean", f"{_r(node.op)} needs booleans, but an operand is {_a(t)}{at}", ptr)
                return "boolean"
            if node.op in E.ARITHMETIC:
                for t in (lt, rt):
                    self.want(t, "number", f"{_r(node.op)} needs numbers, but an operand is {_a(t)}{at}", ptr)
                return "number"
            # comparison
            if "any" not in (lt, rt) and lt != rt:
                self.error(ptr, f"comparing {_a(lt)} with {_a(rt)} with {_r(node.op)}{at}")
            elif node.op not in ("==", "!=") and (lt == "boolean" or rt == "boolean"):
                self.error(ptr, f"{_r(node.op)} cannot order booleans{at}")
            self.enum_literal(node, ptr)
            return "boolean"
        if isinstance(node, E.IfElse):
            ct = self.infer(node.cond, ptr, i, deps, per_review)
            self.want(ct, "boolean", f"the condition of 'if' must be a boolean, but it is {_a(ct)}{at}", ptr)
            bt = self.infer(node.body, ptr, i, deps, per_review)
            ot = self.infer(node.orelse, ptr, i, deps, per_review)
            return bt if bt == ot else "any"
        if isinstance(node, E.Call):
            for a in node.args:
                t = self.infer(a, ptr, i, deps, per_review)
                self.want(t, "number", f"{node.func}() needs numbers, but an argument is {_a(t)}{at}", ptr)
            return "number"
        return "any"

    def want(self, got: str, wanted: str, message: str, ptr: str) -> None:
        if got not in (wanted, "any"):
            self.error(ptr, message)

    def enum_literal(self, node: E.Binary, ptr: str) -> None:
        for field_node, lit in ((node.left, node.right), (node.right, node.left)):
            if isinstance(field_node, E.Name) and field_node.namespace == "extraction" and field_node.name in self.fields:
                values = self.fields[field_node.name]
                if node.op not in ("==", "!="):
                    self.error(ptr, f"{_r(node.op)} cannot be used on the enum field {field_node.dotted}; compare with '==' or '!='")
                elif isinstance(lit, E.Str) and lit.value not in values:
                    self.error(
                        ptr,
                        f"{_r(lit.value)} is not a value of {field_node.dotted}{_suggest(lit.value, values)}; "
                        f"expected one of {', '.join(values)}",
                    )

    # ------------------------------------------------------------------------------------------------ case
    def check_case(self, step: dict[str, Any], base: tuple[Any, ...], i: int, deps: set[str]) -> str:
        source_node: E.Name | None = None
        if "source" in step and step["source"] is not None:
            source_node, _ = self.check_source(step["source"], (*base, "source"), i, deps)
        rules = step.get("rules")
        if not isinstance(rules, list) or not rules:
            if isinstance(rules, list):
                self.error(pointer(*base, "rules"), "a case needs at least one rule")
            return "any"
        kinds: set[str] = set()
        for j, rule in enumerate(rules):
            rptr = (*base, "rules", j)
            if not isinstance(rule, dict):
                self.error(pointer(*rptr), f"a rule must be an object, got {_json_type(rule)}")
                continue
            keys = set(rule)
            if keys == {"else"}:
                if j != len(rules) - 1:
                    self.error(pointer(*rptr), "'else' must be the last rule; the rules after it are never used")
                kinds.add(_kind_of(rule["else"]))
                if not _scalar(rule["else"]):
                    self.error(pointer(*rptr, "else"), f"expected a literal, got {_json_type(rule['else'])}")
                continue
            if keys != {"when", "then"}:
                extra = sorted(keys - {"when", "then", "else"})
                if extra:
                    self.error(pointer(*rptr, extra[0]), f"unknown key {_r(extra[0])} in a case rule; a rule is {{when, then}} or {{else}}")
                elif "else" in keys:
                    self.error(pointer(*rptr), "a rule is either {when, then} or {else}, not both")
                else:
                    missing = "then" if "when" in keys else "when"
                    self.error(pointer(*rptr, missing), f"missing required key {_r(missing)} in a case rule")
                continue
            if not _scalar(rule["then"]):
                self.error(pointer(*rptr, "then"), f"expected a literal, got {_json_type(rule['then'])}")
            kinds.add(_kind_of(rule["then"]))
            when = rule["when"]
            wptr = pointer(*rptr, "when")
            if not isinstance(when, str):
                self.error(wptr, f"expected a condition string, got {_json_type(when)}")
                continue
            try:
                node = E.parse_comparison_suffix(when, source_node) if source_node is not None else E.parse(when)
            except ExpressionError as exc:
                self.error(wptr, f"invalid condition: {exc}")
                continue
            if source_node is not None:  # the source itself was resolved above; only type the right-hand side
                assert isinstance(node, E.Binary)
                if source_node.namespace:
                    st = self.name_type(source_node, pointer(*base, "source"), i, set(), per_review=False)
                else:
                    src_info = self.steps.get(source_node.name)
                    st = src_info.type if src_info and src_info.type not in ("invalid", "filter") else "any"
                rt = self.infer(node.right, wptr, i, deps, False)
                if "any" not in (st, rt) and st != rt:
                    self.error(wptr, f"comparing the source ({_a(st)}) with {_a(rt)}")
            else:
                t = self.infer(node, wptr, i, deps, False)
                self.want(t, "boolean", f"a 'when' must be a boolean condition, but it is {_a(t)}", wptr)
        last = rules[-1]
        if not (isinstance(last, dict) and set(last) == {"else"}):
            self.warn(pointer(*base, "rules"), "the last rule is not 'else': if no rule matches, running the seed fails")
        return kinds.pop() if len(kinds) == 1 else "any"


def _kind_of(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "any"


def _a(t: str | None) -> str:
    return {"number": "a number", "string": "a string", "boolean": "a boolean", "filter": "a filter"}.get(t or "", "a value")


def _non_finite(value: Any, at: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The path of every NaN/Infinity float anywhere in a raw seed value (iterative: any nesting depth)."""
    found: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, at)]
    while stack:
        v, where = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            found.append(where)
        elif isinstance(v, dict):
            stack.extend((x, (*where, k)) for k, x in reversed(v.items()))
        elif isinstance(v, list):
            stack.extend((x, (*where, i)) for i, x in reversed(list(enumerate(v))))
    return found


def check_seed(raw: Any) -> CheckResult:
    """Check a seed (its raw JSON value) and return every problem; ``result.seed`` is set when there is no error."""
    return _Checker(raw).run()
