"""The Formula Seed expression language: tokenizer → parser → AST → printer and closure compiler. No eval/exec.

Grammar (lowest precedence first; ``a if c else b`` is right-associative, comparisons do not chain)::

    expr        := or_expr [ "if" or_expr "else" expr ]
    or_expr     := and_expr { "or" and_expr }
    and_expr    := not_expr { "and" not_expr }
    not_expr    := "not" not_expr | comparison
    comparison  := additive [ ("==" | "!=" | "<" | "<=" | ">" | ">=") additive ]
    additive    := term { ("+" | "-") term }
    term        := unary { ("*" | "/") unary }
    unary       := ("-" | "+") unary | primary
    primary     := NUMBER | STRING | "true" | "false" | name | call | "(" expr ")"
    name        := IDENT | ("extraction" | "meta" | "context") "." IDENT
    call        := ("max" | "min") "(" expr "," expr { "," expr } ")" | ("abs" | "log" | "sqrt") "(" expr ")"

``NUMBER`` is a decimal literal (``12``, ``0.5``, ``.5``, ``1e-3``); ``STRING`` is ``'…'`` or ``"…"`` with the escapes
``\\\\ \\' \\" \\n \\t \\r``; ``True``/``False`` are accepted as spellings of ``true``/``false``. Nothing else exists:
no ``**``, no ``%``, no attribute access beyond the three namespaces, no calls but the five functions, no indexing.

Bounds: an expression is at most :data:`MAX_LENGTH` characters, nests parentheses/unary operators/``if`` at most
:data:`MAX_DEPTH` levels and its tree is at most :data:`MAX_HEIGHT` levels high (``a+b+…`` with 300 terms is too
high: split it into steps); an integer literal is
below 2**63 and a float literal finite. At run time every arithmetic result must be finite and within ±1e300
(integers too), so no chain of steps can build huge numbers.

Run-time typing is strict: arithmetic and the functions take numbers only (``true + 1`` is an error), ``and``/``or``/
``not`` and the condition of ``if`` take booleans only, ``<``-style comparisons need two numbers or two strings, ``==``
between different kinds (number, string, boolean, null) is simply false. ``log`` is the natural logarithm and needs a
positive argument; ``sqrt`` a non-negative one; division by zero is an error. Errors inside a compiled expression are
raised as :class:`Fault`; the executor turns them into :class:`~dinecheck.errors.EvaluationError` naming the step and
the restaurant.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from dinecheck.errors import ExpressionError

MAX_LENGTH = 10_000
MAX_DEPTH = 64
MAX_HEIGHT = 200
MAX_ARGS = 64
MAX_INT_LITERAL = 2**63
MAX_MAGNITUDE = 1e300

NAMESPACES = ("extraction", "meta", "context")
FUNCTIONS = {"max": (2, MAX_ARGS), "min": (2, MAX_ARGS), "abs": (1, 1), "log": (1, 1), "sqrt": (1, 1)}
KEYWORDS = {"and", "or", "not", "if", "else", "true", "false", "True", "False"}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
ARITHMETIC = ("+", "-", "*", "/")

# ---------------------------------------------------------------------------------------------------------- AST nodes


@dataclass(frozen=True, slots=True)
class Num:
    value: int | float
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Str:
    value: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Bool:
    value: bool
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Name:
    """A computed value (``namespace is None``) or ``extraction.X`` / ``meta.X`` / ``context.X``."""

    namespace: str | None
    name: str
    pos: int = field(default=0, compare=False)

    @property
    def dotted(self) -> str:
        return f"{self.namespace}.{self.name}" if self.namespace else self.name


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" | "+" | "not"
    operand: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # arithmetic, comparison, "and", "or"
    left: Node
    right: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class IfElse:
    body: Node
    cond: Node
    orelse: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    func: str
    args: tuple[Node, ...]
    pos: int = field(default=0, compare=False)


Node = Num | Str | Bool | Name | Unary | Binary | IfElse | Call


def children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, IfElse):
        return (node.body, node.cond, node.orelse)
    if isinstance(node, Call):
        return node.args
    return ()


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children (iterative: no recursion limit)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def names(node: Node) -> list[Name]:
    return [n for n in walk(node) if isinstance(n, Name)]


# ---------------------------------------------------------------------------------------------------------- tokenizer


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "num" | "str" | "ident" | "op" | "end"
    text: str
    pos: int
    value: Any = None


_OPS2 = ("==", "!=", "<=", ">=", "**", "//")
_OPS1 = "+-*/<>(),."
_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}


def _err(reason: str, pos: int) -> ExpressionError:
    return ExpressionError(reason, f"column {pos + 1}")


def tokenize(text: str) -> list[Token]:
    """Split an expression into tokens; raises ExpressionError (with the column) on anything outside the grammar."""
    if not isinstance(text, str):
        raise ExpressionError(f"an expression must be a string, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"the expression is {len(text)} characters long; the limit is {MAX_LENGTH}")
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
            continue
        if c.isascii() and (c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isascii() and text[i + 1].isdigit())):
            start = i
            while i < n and text[i].isascii() and text[i].isdigit():
                i += 1
            is_float = False
            if i < n and text[i] == ".":
                is_float = True
                i += 1
                while i < n and text[i].isascii() and text[i].isdigit():
                    i += 1
            if i < n and text[i] in "eE":
                j = i + 1
                if j < n and text[j] in "+-":
                    j += 1
                if j < n and text[j].isascii() and text[j].isdigit():
                    is_float = True
                    i = j
                    while i < n and text[i].isascii() and text[i].isdigit():
                        i += 1
            lit = text[start:i]
            if i < n and (text[i].isalnum() or text[i] == "_"):
                raise _err(f"invalid number literal {text[start:i + 1]!r}", start)
            if len(lit) > 64:
                raise _err("number literal is longer than 64 characters", start)
            if is_float:
                value: int | float = float(lit)
                if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
                    raise _err(f"number literal {lit} is out of range (at most 1e300)", start)
            else:
                value = int(lit)
                if value >= MAX_INT_LITERAL:
                    raise _err(f"integer literal {lit} is out of range (below 2**63)", start)
            tokens.append(Token("num", lit, start, value))
            continue
        if c.isascii() and (c.isalpha() or c == "_"):
            start = i
            while i < n and text[i].isascii() and (text[i].isalnum() or text[i] == "_"):
                i += 1
            word = text[start:i]
            if len(word) > 128:
                raise _err("name is longer than 128 characters", start)
            tokens.append(Token("ident", word, start))
            continue
        if c in "'\"":
            start, quote = i, c
            i += 1
            buf: list[str] = []
            while True:
                if i >= n:
                    raise _err("unterminated string literal", start)
                ch = text[i]
                if ch == quote:
                    i += 1
                    break
                if ch == "\\":
                    if i + 1 >= n:
                        raise _err("unterminated string literal", start)
                    esc = text[i + 1]
                    if esc not in _ESCAPES:
                        raise _err(f"unknown escape \\{esc} in string literal", i)
                    buf.append(_ESCAPES[esc])
                    i += 2
                    continue
                buf.append(ch)
                i += 1
            tokens.append(Token("str", text[start:i], start, "".join(buf)))
            continue
        two = text[i : i + 2]
        if two in _OPS2:
            if two == "**":
                raise _err("'**' (power) is not part of the expression language; use multiplication", i)
            if two == "//":
                raise _err("'//' (floor division) is not part of the expression language; use '/'", i)
            tokens.append(Token("op", two, i))
            i += 2
            continue
        if c in _OPS1:
            tokens.append(Token("op", c, i))
            i += 1
            continue
        if c == "=":
            raise _err("'=' is not an operator; write '==' to compare", i)
        if c == "$":
            raise _err("filters ($NAME) can only be used as 'where' keys, not inside expressions", i)
        if c in "&|!":
            raise _err(f"unexpected character {c!r}; write 'and', 'or', 'not'", i)
        raise _err(f"unexpected character {c!r}", i)
    tokens.append(Token("end", "", n))
    return tokens


# ---------------------------------------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.i = 0
        self.depth = 0

    # helpers
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def at(self, kind: str, text: str | None = None) -> bool:
        t = self.tokens[self.i]
        return t.kind == kind and (text is None or t.text == text)

    def take(self) -> Token:
        t = self.tokens[self.i]
        self.i += 1
        return t

    def expect_op(self, text: str, what: str) -> Token:
        if not self.at("op", text):
            raise _err(f"expected {what}, found {self._describe(self.tok)}", self.tok.pos)
        return self.take()

    @staticmethod
    def _describe(t: Token) -> str:
        return "the end of the expression" if t.kind == "end" else repr(t.text)

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _err(f"the expression is nested more than {MAX_DEPTH} levels deep", pos)

    # grammar
    def parse(self) -> Node:
        if self.at("end"):
            raise ExpressionError("the expression is empty")
        node = self.expr()
        if not self.at("end"):
            t = self.tok
            if t.kind == "op" and t.text == ".":
                raise _err("attribute access is not allowed", t.pos)
            if t.kind == "op" and t.text == "(":
                raise _err("only the functions max, min, abs, log and sqrt can be called", t.pos)
            if t.kind == "op" and t.text in COMPARISONS:
                raise _err("comparisons cannot be chained; combine them with 'and'", t.pos)
            raise _err(f"unexpected {self._describe(t)}", t.pos)
        return node

    def expr(self) -> Node:
        self.enter(self.tok.pos)
        body = self.or_expr()
        if self.at("ident", "if"):
            pos = self.take().pos
            cond = self.or_expr()
            if not self.at("ident", "else"):
                raise _err(f"expected 'else' after the condition, found {self._describe(self.tok)}", self.tok.pos)
            self.take()
            orelse = self.expr()
            body = IfElse(body, cond, orelse, pos)
        self.depth -= 1
        return body

    def or_expr(self) -> Node:
        left = self.and_expr()
        while self.at("ident", "or"):
            pos = self.take().pos
            left = Binary("or", left, self.and_expr(), pos)
        return left

    def and_expr(self) -> Node:
        left = self.not_expr()
        while self.at("ident", "and"):
            pos = self.take().pos
            left = Binary("and", left, self.not_expr(), pos)
        return left

    def not_expr(self) -> Node:
        if self.at("ident", "not"):
            pos = self.take().pos
            self.enter(pos)
            node: Node = Unary("not", self.not_expr(), pos)
            self.depth -= 1
            return node
        return self.comparison()

    def comparison(self) -> Node:
        left = self.additive()
        if self.at("op") and self.tok.text in COMPARISONS:
            t = self.take()
            right = self.additive()
            left = Binary(t.text, left, right, t.pos)
            if self.at("op") and self.tok.text in COMPARISONS:
                raise _err("comparisons cannot be chained; combine them with 'and'", self.tok.pos)
        return left

    def comparison_suffix(self, left: Node) -> Node:
        """``< 4.0`` read against ``left`` (a ``case`` rule with a ``source``)."""
        if not (self.at("op") and self.tok.text in COMPARISONS):
            raise _err(
                f"a 'when' with a 'source' must start with a comparison operator (==, !=, <, <=, >, >=), "
                f"found {self._describe(self.tok)}",
                self.tok.pos,
            )
        t = self.take()
        node = Binary(t.text, left, self.additive(), t.pos)
        if not self.at("end"):
            raise _err(f"unexpected {self._describe(self.tok)} after the comparison", self.tok.pos)
        return node

    def additive(self) -> Node:
        left = self.term()
        while self.at("op") and self.tok.text in "+-":
            t = self.take()
            left = Binary(t.text, left, self.term(), t.pos)
        return left

    def term(self) -> Node:
        left = self.unary()
        while self.at("op") and self.tok.text in "*/":
            t = self.take()
            left = Binary(t.text, left, self.unary(), t.pos)
        return left

    def unary(self) -> Node:
        if self.at("op") and self.tok.text in "-+":
            t = self.take()
            self.enter(t.pos)
            node: Node = Unary(t.text, self.unary(), t.pos)
            self.depth -= 1
            return node
        return self.primary()

    def primary(self) -> Node:
        t = self.tok
        if t.kind == "num":
            self.take()
            return Num(t.value, t.pos)
        if t.kind == "str":
            self.take()
            return Str(t.value, t.pos)
        if t.kind == "op" and t.text == "(":
            self.take()
            if self.at("op", ")"):
                raise _err("empty parentheses: expected an expression", t.pos)
            node = self.expr()  # expr() counts the nesting level
            self.expect_op(")", "')'")
            return node
        if t.kind == "ident":
            word = t.text
            if word in ("true", "True"):
                self.take()
                return Bool(True, t.pos)
            if word in ("false", "False"):
                self.take()
                return Bool(False, t.pos)
            if word in KEYWORDS:
                raise _err(f"unexpected keyword {word!r}", t.pos)
            self.take()
            if self.at("op", "("):
                return self.call(word, t.pos)
            if self.at("op", "."):
                dot = self.take()
                if word not in NAMESPACES:
                    raise _err(
                        f"attribute access is not allowed ('{word}.'); only extraction., meta. and context. names exist",
                        dot.pos,
                    )
                if not self.at("ident") or self.tok.text in KEYWORDS:
                    raise _err(f"expected a field name after '{word}.'", self.tok.pos)
                field_tok = self.take()
                if self.at("op", "."):
                    raise _err(f"nested fields are not supported ('{word}.{field_tok.text}.')", self.tok.pos)
                if self.at("op", "("):
                    raise _err("only the functions max, min, abs, log and sqrt can be called", self.tok.pos)
                return Name(word, field_tok.text, t.pos)
            if word in NAMESPACES:
                raise _err(f"'{word}' must be followed by '.' and a field name", t.pos)
            return Name(None, word, t.pos)
        if t.kind == "end":
            raise _err("unexpected end of the expression", t.pos)
        raise _err(f"unexpected {t.text!r}", t.pos)

    def call(self, func: str, pos: int) -> Node:
        if func not in FUNCTIONS:
            raise _err(f"unknown function {func!r}; only max, min, abs, log and sqrt can be called", pos)
        self.take()  # "("
        args: list[Node] = []
        if not self.at("op", ")"):
            while True:
                args.append(self.expr())
                if len(args) > MAX_ARGS:
                    raise _err(f"{func}() takes at most {MAX_ARGS} arguments", pos)
                if self.at("op", ","):
                    self.take()
                    continue
                break
        self.expect_op(")", "',' or ')'")
        lo, hi = FUNCTIONS[func]
        if not lo <= len(args) <= hi:
            want = f"exactly {lo}" if lo == hi else f"at least {lo}"
            raise _err(f"{func}() takes {want} argument{'s' if lo != 1 else ''}, got {len(args)}", pos)
        return Call(func, tuple(args), pos)


def height(node: Node) -> int:
    """The number of levels of the tree (iterative)."""
    best, stack = 0, [(node, 1)]
    while stack:
        n, d = stack.pop()
        best = max(best, d)
        stack.extend((ch, d + 1) for ch in children(n))
    return best


def _check_height(node: Node) -> Node:
    if height(node) > MAX_HEIGHT:
        raise ExpressionError(f"the expression tree is more than {MAX_HEIGHT} levels high; split it into several steps")
    return node


def parse(text: str) -> Node:
    """Parse an expression into its AST; raises ExpressionError (column + reason) for anything else."""
    return _check_height(_Parser(text).parse())


def parse_comparison_suffix(text: str, left: Node) -> Node:
    """Parse a ``case`` rule's ``when`` (``"< 4.0"``) as a comparison against ``left``."""
    p = _Parser(text)
    if p.at("end"):
        raise ExpressionError("the condition is empty")
    return _check_height(p.comparison_suffix(left))


# ---------------------------------------------------------------------------------------------------------- printer

_PREC_IF, _PREC_OR, _PREC_AND, _PREC_NOT, _PREC_CMP, _PREC_ADD, _PREC_MUL, _PREC_UNARY, _PREC_ATOM = range(9)
_BIN_PREC = {"or": _PREC_OR, "and": _PREC_AND, "+": _PREC_ADD, "-": _PREC_ADD, "*": _PREC_MUL, "/": _PREC_MUL}
_BIN_PREC.update(dict.fromkeys(COMPARISONS, _PREC_CMP))


def _prec(node: Node) -> int:
    if isinstance(node, IfElse):
        return _PREC_IF
    if isinstance(node, Binary):
        return _BIN_PREC[node.op]
    if isinstance(node, Unary):
        return _PREC_NOT if node.op == "not" else _PREC_UNARY
    return _PREC_ATOM


def _quote(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + "'"


def to_source(node: Node) -> str:
    """Print an AST back as expression text; ``parse(to_source(ast)) == ast``."""

    def wrap(child: Node, min_prec: int) -> str:
        s = to_source(child)
        return f"({s})" if _prec(child) < min_prec else s

    if isinstance(node, Num):
        return repr(node.value)
    if isinstance(node, Str):
        return _quote(node.value)
    if isinstance(node, Bool):
        return "true" if node.value else "false"
    if isinstance(node, Name):
        return node.dotted
    if isinstance(node, Unary):
        if node.op == "not":
            return "not " + wrap(node.operand, _PREC_NOT)
        return node.op + wrap(node.operand, _PREC_UNARY)
    if isinstance(node, Binary):
        p = _BIN_PREC[node.op]
        right_min = p + 1
        left_min = p + 1 if p == _PREC_CMP else p
        return f"{wrap(node.left, left_min)} {node.op} {wrap(node.right, right_min)}"
    if isinstance(node, IfElse):
        return f"{wrap(node.body, _PREC_OR)} if {wrap(node.cond, _PREC_OR)} else {wrap(node.orelse, _PREC_IF)}"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(to_source(a) for a in node.args)})"
    raise TypeError(f"not an expression node: {node!r}")


# ---------------------------------------------------------------------------------------------------------- evaluator


class Fault(Exception):
    """A run-time fault inside an expression (division by zero, log of a non-positive number, a type error)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def kind(value: Any) -> str:
    """The language-level kind of a value: number, string, boolean, null or other."""
    if value is None:
        return "null"
    t = type(value)
    if t is bool:
        return "boolean"
    if t is int or t is float:
        return "number"
    if t is str:
        return "string"
    return t.__name__


def _num(value: Any, what: str) -> int | float:
    t = type(value)
    if t is int or t is float:
        return value
    raise Fault(f"{what} needs a number, got {kind(value)} {value!r}"[:300])


def _bounded(value: int | float, what: str) -> int | float:
    if not (-MAX_MAGNITUDE <= value <= MAX_MAGNITUDE):  # also catches nan; exact for ints
        raise Fault(f"{what} is out of range; numbers are limited to ±1e300")
    return value


def _add(a: Any, b: Any) -> Any:
    return _bounded(_num(a, "'+'") + _num(b, "'+'"), "the sum")


def _sub(a: Any, b: Any) -> Any:
    return _bounded(_num(a, "'-'") - _num(b, "'-'"), "the difference")


def _mul(a: Any, b: Any) -> Any:
    return _bounded(_num(a, "'*'") * _num(b, "'*'"), "the product")


def _div(a: Any, b: Any) -> Any:
    x, y = _num(a, "'/'"), _num(b, "'/'")
    if y == 0:
        raise Fault(f"division by zero ({x!r} / {y!r})")
    return _bounded(x / y, "the quotient")


def _ordered(op: str, a: Any, b: Any) -> None:
    ka, kb = kind(a), kind(b)
    if ka != kb or ka not in ("number", "string"):
        raise Fault(f"cannot compare {ka} {a!r} {op} {kb} {b!r}"[:300])


def _eq(a: Any, b: Any) -> bool:
    ka, kb = kind(a), kind(b)
    return ka == kb and a == b


def _lt(a: Any, b: Any) -> bool:
    _ordered("<", a, b)
    return a < b


def _le(a: Any, b: Any) -> bool:
    _ordered("<=", a, b)
    return a <= b


def _gt(a: Any, b: Any) -> bool:
    _ordered(">", a, b)
    return a > b


def _ge(a: Any, b: Any) -> bool:
    _ordered(">=", a, b)
    return a >= b


def _bool(value: Any, what: str) -> bool:
    if type(value) is bool:
        return value
    raise Fault(f"{what} needs a boolean (true/false), got {kind(value)} {value!r}"[:300])


def _log(x: Any) -> float:
    v = _num(x, "log()")
    if v <= 0:
        raise Fault(f"log() of a non-positive number ({v!r})")
    return math.log(v)


def _sqrt(x: Any) -> float:
    v = _num(x, "sqrt()")
    if v < 0:
        raise Fault(f"sqrt() of a negative number ({v!r})")
    return math.sqrt(v)


def _max(*args: Any) -> Any:
    return max(_num(a, "max()") for a in args)


def _min(*args: Any) -> Any:
    return min(_num(a, "min()") for a in args)


def _abs(x: Any) -> Any:
    return abs(_num(x, "abs()"))


BINARY_FUNCS: dict[str, Callable[[Any, Any], Any]] = {
    "+": _add, "-": _sub, "*": _mul, "/": _div,
    "==": _eq, "!=": lambda a, b: not _eq(a, b), "<": _lt, "<=": _le, ">": _gt, ">=": _ge,
}  # fmt: skip
CALL_FUNCS: dict[str, Callable[..., Any]] = {"max": _max, "min": _min, "abs": _abs, "log": _log, "sqrt": _sqrt}

# A compiled expression is ``fn(values, review, context)``: ``values`` maps computed names to their values, ``review``
# is the current review (an object with ``.meta`` and ``.extraction`` dicts) or None, ``context`` the restaurant dict.
Compiled = Callable[[dict[str, Any], Any, dict[str, Any]], Any]


def _getter(node: Name) -> Compiled:
    key = node.name
    if node.namespace is None:

        def get_value(v: dict[str, Any], r: Any, c: dict[str, Any]) -> Any:
            try:
                return v[key]
            except KeyError:
                raise Fault(f"{key} has no value yet") from None

        return get_value
    if node.namespace == "context":
        return lambda v, r, c: c.get(key)
    ns = node.namespace
    dotted = node.dotted

    def get_review(v: dict[str, Any], r: Any, c: dict[str, Any]) -> Any:
        if r is None:
            raise Fault(f"{dotted} is a per-review value; use it inside sum/max/min or where")
        return (r.extraction if ns == "extraction" else r.meta).get(key)

    return get_review


def compile_node(node: Node) -> Compiled:
    """Turn an AST into a Python closure (no eval/exec). ``if``/``and``/``or`` are lazy."""
    if isinstance(node, (Num, Str, Bool)):
        const = node.value
        return lambda v, r, c: const
    if isinstance(node, Name):
        return _getter(node)
    if isinstance(node, Unary):
        f = compile_node(node.operand)
        if node.op == "-":
            return lambda v, r, c: -_num(f(v, r, c), "unary '-'")
        if node.op == "+":
            return lambda v, r, c: _num(f(v, r, c), "unary '+'")
        return lambda v, r, c: not _bool(f(v, r, c), "'not'")
    if isinstance(node, Binary):
        lf, rf = compile_node(node.left), compile_node(node.right)
        if node.op == "and":
            return lambda v, r, c: _bool(lf(v, r, c), "'and'") and _bool(rf(v, r, c), "'and'")
        if node.op == "or":
            return lambda v, r, c: _bool(lf(v, r, c), "'or'") or _bool(rf(v, r, c), "'or'")
        op = BINARY_FUNCS[node.op]
        return lambda v, r, c: op(lf(v, r, c), rf(v, r, c))
    if isinstance(node, IfElse):
        bf, cf, of = compile_node(node.body), compile_node(node.cond), compile_node(node.orelse)
        return lambda v, r, c: bf(v, r, c) if _bool(cf(v, r, c), "the condition of 'if'") else of(v, r, c)
    if isinstance(node, Call):
        fn = CALL_FUNCS[node.func]
        argfs = tuple(compile_node(a) for a in node.args)
        if len(argfs) == 1:
            (a0,) = argfs
            return lambda v, r, c: fn(a0(v, r, c))
        if len(argfs) == 2:
            a0, a1 = argfs
            return lambda v, r, c: fn(a0(v, r, c), a1(v, r, c))
        return lambda v, r, c: fn(*[a(v, r, c) for a in argfs])
    raise TypeError(f"not an expression node: {node!r}")


def evaluate(node: Node, values: dict[str, Any], review: Any = None, context: dict[str, Any] | None = None) -> Any:
    """Evaluate an AST once (compiles it first); raises :class:`Fault` on a run-time fault."""
    return compile_node(node)(values, review, context or {})
