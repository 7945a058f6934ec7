"""Request shorthand (``AND(a, OR(b, c))``, ``1HOP(['Alice'], 'cozy')``): parse, print, and compare with a structure.

Grammar::

    expr   := OP '(' expr (',' expr)* ')'      OP is AND, OR or NOT (followed by '(')
            | N 'HOP' '(' list ',' string ')'   N is a positive integer
            | name | string                    a condition (aspect) name
    list   := '[' [string (',' string)*] ']'
    string := '…' or "…" (backslash escapes the next character)

:func:`to_text` prints a :class:`Shorthand` tree so that ``parse(to_text(t)) == t``. :func:`from_structure` derives the
shorthand of a request structure (a social condition prints as ``NHOP``; a root AND around a single ``NHOP`` collapses
to it, as in the benchmark). :func:`compare` lists where a request's shorthand disagrees with its structure: operators,
arity and leaf kinds must agree exactly; leaf names may be abbreviated (``romantic`` for ``romantic_reviews``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dinecheck.errors import ShorthandError
from dinecheck.requests.schema import Condition, OperatorNode

MAX_CHARS = 100_000
MAX_DEPTH = 64


@dataclass(frozen=True)
class Name:
    """A condition referred to by its aspect name."""

    name: str


@dataclass(frozen=True)
class Hop:
    """A social condition: reviews by the ``hops``-circle of ``friends`` mentioning ``pattern``."""

    hops: int
    friends: tuple[str, ...]
    pattern: str


@dataclass(frozen=True)
class Op:
    """AND / OR / NOT over shorthand children."""

    op: str
    args: tuple[Shorthand, ...]


Shorthand = Name | Hop | Op

_TOKEN = re.compile(r"""\s*(?:(?P<punct>[(),\[\]])|(?P<str>'|")|(?P<word>[^\s(),\[\]'"]+))""")
_BARE = re.compile(r"[^\s(),\[\]'\"]+")
_HOP = re.compile(r"([1-9][0-9]{0,2})HOP")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, reason: str, pos: int | None = None) -> ShorthandError:
        return ShorthandError(reason, f"shorthand column {(self.pos if pos is None else pos) + 1}")

    def peek(self) -> tuple[str, str, int] | None:
        """(kind, value, start) of the next token without consuming it."""
        m = _TOKEN.match(self.text, self.pos)
        if not m or not m.lastgroup:
            return None
        return m.lastgroup, m.group(m.lastgroup), m.start(m.lastgroup)

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def expect(self, ch: str) -> None:
        tok = self.peek()
        if tok is None or tok[0] != "punct" or tok[1] != ch:
            got = "end of text" if tok is None else repr(tok[1])
            raise self.error(f"expected {ch!r}, found {got}", tok[2] if tok else len(self.text))
        self.pos = tok[2] + 1

    def string(self) -> str:
        tok = self.peek()
        if tok is None or tok[0] != "str":
            raise self.error("expected a quoted string", tok[2] if tok else len(self.text))
        quote, i = tok[1], tok[2] + 1
        out: list[str] = []
        while i < len(self.text):
            c = self.text[i]
            if c == "\\" and i + 1 < len(self.text):
                out.append(self.text[i + 1])
                i += 2
                continue
            if c == quote:
                self.pos = i + 1
                return "".join(out)
            out.append(c)
            i += 1
        raise self.error("unterminated string", tok[2])

    def next_is(self, ch: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == "punct" and tok[1] == ch

    def expr(self, depth: int) -> Shorthand:
        if depth > MAX_DEPTH:
            raise self.error(f"nested deeper than {MAX_DEPTH} levels")
        tok = self.peek()
        if tok is None:
            raise self.error("unexpected end of text", len(self.text))
        kind, val, start = tok
        if kind == "str":
            return Name(self.string())
        if kind == "punct":
            raise self.error(f"unexpected {val!r}", start)
        self.pos = start + len(val)
        hop = _HOP.fullmatch(val)
        if (val in ("AND", "OR", "NOT") or hop) and self.next_is("("):
            self.expect("(")
            if hop:
                self.expect("[")
                friends: list[str] = []
                if not self.next_is("]"):
                    friends.append(self.string())
                    while self.next_is(","):
                        self.expect(",")
                        friends.append(self.string())
                self.expect("]")
                self.expect(",")
                pattern = self.string()
                self.expect(")")
                return Hop(int(hop.group(1)), tuple(friends), pattern)
            args = [self.expr(depth + 1)]
            while self.next_is(","):
                self.expect(",")
                args.append(self.expr(depth + 1))
            self.expect(")")
            if val == "NOT" and len(args) != 1:
                raise self.error(f"NOT takes exactly one argument, got {len(args)}", start)
            return Op(val, tuple(args))
        return Name(val)


def parse(text: str) -> Shorthand:
    """Parse shorthand text; :class:`~dinecheck.errors.ShorthandError` names the column of the first problem."""
    if len(text) > MAX_CHARS:
        raise ShorthandError(f"shorthand is longer than {MAX_CHARS} characters", "shorthand")
    p = _Parser(text)
    tree = p.expr(0)
    p.skip_ws()
    if p.pos != len(text):
        raise p.error(f"unexpected text after the expression: {text[p.pos:p.pos + 20]!r}")
    return tree


def _quote(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _name(s: str) -> str:
    return s if _BARE.fullmatch(s) else _quote(s)


def to_text(tree: Shorthand) -> str:
    """Print a shorthand tree in the benchmark's style (``AND(a, b)``, ``1HOP(['Alice'], 'cozy')``)."""
    if isinstance(tree, Name):
        return _name(tree.name)
    if isinstance(tree, Hop):
        return f"{tree.hops}HOP([{', '.join(_quote(f) for f in tree.friends)}], {_quote(tree.pattern)})"
    return f"{tree.op}({', '.join(to_text(a) for a in tree.args)})"


def from_structure(node: OperatorNode | Condition, *, root: bool = True) -> Shorthand:
    """The shorthand of a structure (see the module docstring)."""
    if isinstance(node, Condition):
        ev = node.evidence
        sf = getattr(ev, "social_filter", None)
        if sf is not None:
            return Hop(sf.hops, tuple(sf.friends), ev.pattern)  # type: ignore[union-attr]
        return Name(node.aspect)
    args = tuple(from_structure(a, root=False) for a in node.args)
    if root and node.op == "AND" and len(args) == 1 and isinstance(args[0], Hop):
        return args[0]
    return Op(node.op, args)


def _collapse(t: Shorthand) -> Shorthand:
    while isinstance(t, Op) and t.op in ("AND", "OR") and len(t.args) == 1:
        t = t.args[0]
    return t


def _tokens(name: str) -> set[str]:
    return {t for t in re.split(r"[^0-9a-z]+", name.lower()) if t}


def names_agree(short: str, aspect: str) -> bool:
    """A shorthand leaf name agrees with an aspect when equal, a prefix of one another, or one's words ⊆ the other's."""
    a, b = short.lower(), aspect.lower()
    if a == b or a.startswith(b) or b.startswith(a):
        return True
    ta, tb = _tokens(a), _tokens(b)
    return bool(ta) and bool(tb) and (ta <= tb or tb <= ta)


def compare(text: str, structure: OperatorNode) -> list[str]:
    """Where the shorthand ``text`` disagrees with ``structure`` (empty when they agree)."""
    try:
        short = parse(text)
    except ShorthandError as exc:
        return [f"shorthand does not parse: {exc}"]
    problems: list[str] = []
    _cmp(_collapse(short), _collapse(from_structure(structure)), "/structure", problems)
    return problems


def _cmp(s: Shorthand, t: Shorthand, ptr: str, out: list[str]) -> None:
    s, t = _collapse(s), _collapse(t)
    if isinstance(s, Op) and isinstance(t, Op):
        if s.op != t.op or len(s.args) != len(t.args):
            out.append(f"{ptr}: shorthand has {s.op} with {len(s.args)} argument(s), the structure has {t.op} with "
                       f"{len(t.args)}")
            return
        for i, (a, b) in enumerate(zip(s.args, t.args, strict=True)):
            _cmp(a, b, f"{ptr}/args/{i}", out)
        return
    if isinstance(s, Name) and isinstance(t, Name):
        if not names_agree(s.name, t.name):
            out.append(f"{ptr}: shorthand names {s.name!r}, the structure's aspect is {t.name!r}")
        return
    if isinstance(s, Hop) and isinstance(t, Hop):
        if s != t:
            out.append(f"{ptr}: shorthand has {to_text(s)}, the structure has {to_text(t)}")
        return
    out.append(f"{ptr}: shorthand has {to_text(s)}, the structure has {to_text(t)}")
