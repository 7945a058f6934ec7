"""Compound ingredients declared by their components: which unknown names the label itself resolves (pure).

Food law makes a compound ingredient list its own ingredients, and every allergen among them, right after its name:
in brackets (EU Regulation 1169/2011 Art. 18 and Annex VII Part E; US 21 CFR 101.4(b)(2) with FALCPA's allergen
declaration; the Canadian, Australian/NZ and UK rules alike) or after a colon ("Filling: sugar, …", "colorant de
croûte : caramel"). An unknown *name* followed by such a declaration is therefore not an unknown *ingredient*: what
it is made of is on the label, and every component is looked up, detected and judged like any other token.

The rule is narrow on purpose, because a false SAFE must be impossible:

* bracketed components count only when the bracket **closes** (a label cut inside the list declares nothing) and
  nothing inside it is a partial-list form: no risk phrase, list introducer, claim or statement was masked inside
  ("(contains 2% or less of: …)"), it does not open with words that announce a selection ("with", "including",
  "e.g.", "such as", "dont", "mit", …) and does not end with "etc."/"…";
* at least one component is an ingredient token that is not an E-number and is not read as a note (a group of notes,
  "(organic)", "(Nicaragua)", declares nothing; "(E330)" is the code of the name, not its composition);
* a heading ("Xyz:") counts only when an ingredient or further heading follows it in the same item — one that is
  not an E-number, and not read as a note unless the heading reads as a label's field (every word of it read, no
  warning word: "Fanggebiet: Nordostatlantik"; "Nutella: Italy.", "Coeliacs: no" declare nothing);
* the name is still scanned for allergen words (:mod:`detect`: "the unknown ingredient … contains the word(s) …"),
  so "butter biscuit pieces (flour, sugar)" keeps MILK at POSSIBLE; the name never counts as matched for the match
  rate and is reported in the result's reasons when the label would otherwise be SAFE.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from dinecheck.allergens.tokenize import Token, fast_lookup_key

_OPEN = {"(": ")", "[": "]", "{": "}"}
# words opening a bracket that lists only some of the components ("(with salt)", "(including 2% of: …)")
_PARTIAL_LEADS = (
    "with ", "including ", "incl ", "incl. ", "e.g", "eg ", "such as ", "like ", "mainly ", "notably ", "among ",
    "for example", "for instance", "i.e", "contains ", "containing ", "dont ", "avec ", "notamment ", "par exemple",
    "comme ", "ex ", "contient ", "contenant ", "mit ", "davon ", "z.b", "zb ", "u.a", "unter anderem", "enthalt ",
    "wie ", "con ", "como ", "incluye ", "incluido ", "di cui ", "tra cui ", "ad es", "come ", "per esempio",
    "contiene ", "of which ", "one or more of", "one of ", "some ", "variety of", "various ", "other ", "autres ",
    "andere ", "otros ", "altri ",
)  # fmt: skip
_PARTIAL_ENDS = ("etc", "etc.", "...", "…", "u.a.", "usw", "usw.", "ecc", "ecc.")
_ITEM_END = frozenset(",;.\n\r•|!?")
_E_CODE = re.compile(r"e\d{3,4}[a-z]{0,4}$")  # an E-number key ("e330", "e150d", "e322i")


def declared_names(
    text: str,
    tokens: Sequence[Token],
    masks: Sequence[tuple[int, int]],
    wanted: Collection[int] | None = None,
    notes: Collection[int] = (),
    fields: Collection[int] = (),
) -> frozenset[int]:
    """Indexes of the tokens whose components the label declares (see the module docstring). ``text`` is the text
    the tokens' spans index; ``masks`` the spans the phrase stage hid from tokenisation (same coordinates);
    ``wanted``, when given, the only indexes worth asking about (the others are never returned); ``notes`` the
    indexes of tokens read as notes after normalisation (a place, a processing word: "Pcanuts (Nicaragua)" declares
    nothing); ``fields`` the indexes of headings that read as a label's fields (every word of them read, no warning
    word: "Fanggebiet:", "Zona di pesca:"), the only headings a note may follow ("Fanggebiet: Nordostatlantik")."""
    out: set[int] = set()
    asked = range(len(tokens)) if wanted is None else sorted(wanted)
    if not asked:
        return frozenset()
    parents = set(asked)
    children: dict[int, list[int]] = {}
    for i, t in enumerate(tokens):
        if t.parent in parents:
            children.setdefault(t.parent, []).append(i)
    for i in asked:
        t = tokens[i]
        if t.role == "note":
            continue
        kids = children.get(i)
        if kids and any(tokens[k].role == "ingredient" and k not in notes and not _E_CODE.match(tokens[k].key)
                        for k in kids):  # fmt: skip
            group = _group(text, t.span[1], tokens[kids[0]].span[0])
            if group is not None and _complete(text, group, masks):
                out.add(i)
        elif t.role == "class" and i + 1 < len(tokens):
            nxt = tokens[i + 1]
            between = text[t.span[1] : nxt.span[0]]
            if (nxt.parent == t.parent and nxt.role in ("ingredient", "class") and ":" in between
                    and (i + 1 not in notes or i in fields) and not _E_CODE.match(nxt.key)  # "Nutella: Italy."
                    and _ITEM_END.isdisjoint(between) and not _masked(t.span[1], nxt.span[0], masks)):  # fmt: skip
                out.add(i)
    return frozenset(out)


def _group(text: str, name_end: int, first_child: int) -> tuple[int, int] | None:
    """The ``(start, end)`` of the bracket content that opens between a name and its first component, or None when
    no bracket opens there or the bracket never closes."""
    opening = -1
    for j in range(name_end, first_child):
        if text[j] in _OPEN:
            opening = j
            break
    if opening < 0:
        return None
    depth = 0
    for j in range(opening, len(text)):
        c = text[j]
        if c in _OPEN:
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return opening + 1, j
    return None


def _masked(start: int, end: int, masks: Sequence[tuple[int, int]]) -> bool:
    return any(a < end and start < b for a, b in masks)


def _complete(text: str, group: tuple[int, int], masks: Sequence[tuple[int, int]]) -> bool:
    """Whether the bracket content reads as the whole composition, not a selection of it."""
    start, end = group
    if _masked(start, end, masks):
        return False
    content = fast_lookup_key(text[start:end])
    if not content:
        return False
    content = content.lstrip(" :")
    if content.startswith(_PARTIAL_LEADS):
        return False
    return not content.rstrip(" )]}").endswith(_PARTIAL_ENDS)
