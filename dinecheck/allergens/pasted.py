"""Label text as people paste it: the readings of a raw text, each with a map back to raw positions (pure).

A pasted label carries things that are not ingredient text: a word hyphenated across a line (``pea-\\nnuts``), markup
(``<b>pea</b>nuts``, ``pea<br>nuts``, ``pea<!-- -->nuts``), HTML entities (``&amp;``), full-width and CJK list
punctuation (``，`` ``、`` ``；``), a line break inside one ingredient (``Peanut\\nbutter``). Where the text is
ambiguous, :func:`readings` gives a **primary** reading and, when needed, one **alternative** reading with the other
choice at every ambiguous spot. The pipeline checks both and holds what only the alternative names at POSSIBLE, so
an ambiguity can never make a label SAFE:

* a hyphen at a line end between letters joins the word (primary ``peanuts``; alternative keeps the hyphen,
  ``pea-nuts``). A soft hyphen (U+00AD) or a zero-width character, as such or as an entity (``pea&shy;nuts``),
  always joins;
* an inline tag (``b i u em strong span font a sup sub small mark``) or a comment between two letters is inside a
  word: the primary reading removes it (``<b>pea</b>nuts`` → ``peanuts``); a block tag (``br p div li td …``) between
  letters is a separator in the primary reading and the word joined in the alternative when the joined word is a
  known name (``pea<br>nuts``); any other markup is left to the tokenizer (a separator);
* a line break with no list separator next to it, when the words on either side form a known name with a space
  (``Peanut\\nbutter``), is a space in the primary reading and a separator in the alternative;
* HTML entities are decoded (``&amp;`` → ``&``, ``&eacute;`` → ``é``); full-width/CJK punctuation becomes its ASCII
  list equivalent (same length);
* a hyphen with spaces after it between two letters ("con- tain") joins the word when the joined word is known
  (never before a conjunction: "mono- and"); a word decoded in the wrong character set ("PurÃ©e") is read as ftfy
  mends it — in both cases the text as written is the alternative reading.

Spans of findings computed on a reading are mapped back to the raw text with :meth:`Reading.raw_span`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from dinecheck.allergens.tokenize import canonical_key, is_part_note

# full-width and CJK list punctuation → the ASCII character the tokenizer splits on (one for one: spans unchanged)
_PUNCT = str.maketrans({"，": ",", "、": ",", "､": ",", "；": ";", "：": ":", "（": "(", "）": ")", "［": "[",
                        "］": "]", "【": "(", "】": ")", "「": '"', "」": '"', "。": ".", "｡": ".", "！": "!",
                        "？": "?", "\u3000": " ", "·": ",", "\u00a0": " "})  # fmt: skip
_PUNCT_CHARS = re.compile("[" + "".join(re.escape(chr(c)) for c in _PUNCT) + "]")
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])[-‐‑–][ \t]*\r?\n[ \t]*(?=[^\W\d_])")
# a hyphen with spaces after it and no line break between two letters: the break of a word whose line end was lost
# when the text was pasted or read by OCR ("con- tain", "stabi- lisant") — or a hyphen that stands for a word left
# out ("mono- and diglycerides", "Frucht- und Gemüsesaft"), which is never joined
_HYPHEN_SPACE = re.compile(r"(?<=[^\W\d_])[-‐‑][ \t]+(?=[^\W\d_])")
# UTF-8 text decoded as Windows-1252 or Latin-1 ("PurÃ©e", "Å“uf", "Â°C"): a lead byte read as "Â"…"ô", then a
# continuation byte; a word holding such a pair is read as ftfy mends it (the text as written is the alternative)
_MOJIBAKE = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6"
                       "\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]")
_WORD_RUN = re.compile(r"[^\s,;:()\[\]]+")
# the words after a hyphen that leaves a word out (five languages): "mono- and", "EU- und", "mono- et"
_CONJUNCTIONS = frozenset({"and", "or", "und", "oder", "et", "ou", "y", "o", "u", "e", "ed", "bis", "to", "a"})
# characters that print nothing and join what they stand between: the soft hyphen, zero-width space, non-joiner and
# joiner, word joiner, byte-order mark ("mil\u200bk" is milk)
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
# a tag, namespaced ones too ("<o:p>" of office documents)
_TAG = re.compile(r"<!--.{0,200}?-->|</?([a-zA-Z][a-zA-Z0-9]{0,15}(?::[a-zA-Z][a-zA-Z0-9]{0,15})?)(?:\s[^<>]{0,200})?/?>",
                  re.DOTALL)
_INLINE_TAGS = frozenset({"b", "i", "u", "em", "strong", "span", "font", "a", "sup", "sub", "small", "mark", "s",
                          "ins", "del", "abbr", "wbr"})  # fmt: skip
_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{1,6}|#x[0-9a-fA-F]{1,5});")
_NEWLINE = re.compile(r"\r?\n")
_LIST_EDGE = frozenset(",;:.([{)]}•|!?-–—*")
_WORD_END = re.compile(r"[^\W_]+$")
_WORD_START = re.compile(r"^[^\W_]+")


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a raw label text: ``text`` and, per character, the raw index it comes from (``index``; None
    when the text is the raw text position for position). ``why`` names what was read differently."""

    text: str
    index: tuple[int, ...] | None = None
    why: tuple[str, ...] = ()

    def raw_span(self, span: tuple[int, int] | None) -> tuple[int, int] | None:
        if span is None or self.index is None:
            return span
        a, b = span
        idx = self.index
        if not idx:
            return span
        a = min(max(a, 0), len(idx) - 1)
        last = min(max(b - 1, a), len(idx) - 1)
        return idx[a], idx[last] + 1


@dataclass(frozen=True, slots=True)
class _Edit:
    start: int
    end: int
    primary: str  # replacement in the primary reading
    alternative: str  # replacement in the alternative reading
    why: str = ""


def _apply(text: str, edits: list[_Edit], alternative: bool) -> tuple[str, tuple[int, ...]]:
    out: list[str] = []
    index: list[int] = []
    pos = 0
    for e in edits:
        out.append(text[pos : e.start])
        index.extend(range(pos, e.start))
        rep = e.alternative if alternative else e.primary
        out.append(rep)
        if rep == text[e.start : e.end]:
            index.extend(range(e.start, e.end))
        else:
            index.extend([e.start] * len(rep))
        pos = e.end
    out.append(text[pos:])
    index.extend(range(pos, len(text)))
    return "".join(out), tuple(index)


def _joined_word(text: str, start: int, end: int) -> str:
    """The word formed by the letters just before ``start`` and just after ``end`` (tags between them removed)."""
    left = _WORD_END.search(_TAG.sub("", text[max(0, start - 60) : start]))
    right = _WORD_START.search(_TAG.sub("", text[end : end + 60]))
    return (left.group(0) if left else "") + (right.group(0) if right else "")


def _item_around(text: str, start: int, end: int) -> tuple[str, str]:
    i = start
    while i > 0 and text[i - 1] not in _LIST_EDGE and text[i - 1] != "\n":
        i -= 1
    j = end
    while j < len(text) and text[j] not in _LIST_EDGE and text[j] != "\n" and text[j] != "\r":
        j += 1
    return text[i:start].strip(), text[end:j].strip()


def _marks_nothing(tag: re.Match[str]) -> bool:
    """An inline tag, a comment or a namespaced tag ("<o:p>", of office documents): none separates two words."""
    name = (tag.group(1) or "").lower()
    return tag.group(0).startswith("<!--") or name in _INLINE_TAGS or ":" in name


def _tag_runs(text: str) -> list[list[re.Match[str]]]:
    """The tags of ``text`` in runs of tags standing back to back."""
    runs: list[list[re.Match[str]]] = []
    for m in _TAG.finditer(text):
        if runs and runs[-1][-1].end() == m.start():
            runs[-1].append(m)
        else:
            runs.append([m])
    return runs


def readings(text: str, known: Callable[[str], bool],
             word: Callable[[str], bool] = lambda _key: False) -> tuple[Reading, Reading | None]:
    """``(primary, alternative or None)`` for a raw label text; ``known(key)`` says whether a lookup key names a
    known ingredient (a joined word or a line-joined item is only read as one when it is known — or, for an inline
    tag, always); ``word(key)`` whether it is a word of the text around a list (a word broken by a hyphen and a space
    is joined when it is either)."""
    spaced = "- " in text and _HYPHEN_SPACE.search(text) is not None
    garbled = not text.isascii() and _MOJIBAKE.search(text) is not None
    if not (spaced or garbled or "<" in text or "&" in text or "\n" in text or "\r" in text) and (
        text.isascii() or (_PUNCT_CHARS.search(text) is None and _INVISIBLE.search(text) is None)
    ):
        return Reading(text), None
    base = text.translate(_PUNCT) if not text.isascii() and _PUNCT_CHARS.search(text) else text
    edits: list[_Edit] = []
    if not base.isascii():
        edits.extend(_Edit(m.start(), m.end(), "", "") for m in _INVISIBLE.finditer(base))
    if "\n" in base:
        for m in _HYPHEN_BREAK.finditer(base):
            hyphen = base[m.start()]
            edits.append(_Edit(m.start(), m.end(), "", hyphen, "a word hyphenated across a line break"))
    if garbled:
        import ftfy  # rare: imported when needed (55 ms)

        for m in _WORD_RUN.finditer(base):
            fixed = ftfy.fix_encoding(m.group(0)) if _MOJIBAKE.search(m.group(0)) else m.group(0)
            if fixed != m.group(0):
                edits.append(_Edit(m.start(), m.end(), fixed, m.group(0), "text decoded in the wrong character set"))
    if spaced:
        for m in _HYPHEN_SPACE.finditer(base):
            before = _WORD_END.search(base, 0, m.start())
            after = _WORD_START.search(base[m.end() : m.end() + 60])
            if before is None or after is None or after.group(0).casefold() in _CONJUNCTIONS:
                continue
            joined = canonical_key(before.group(0) + after.group(0))
            rest = _item_around(base, m.end() + after.end(), m.end() + after.end())[1]  # "es- senza di senape"
            if (known(joined) or word(joined) or (rest and known(canonical_key(f"{joined} {rest}")))) and not (
                    known(canonical_key(before.group(0))) and known(canonical_key(after.group(0)))):  # fmt: skip
                edits.append(_Edit(m.start(), m.end(), "", base[m.start() : m.end()],
                                   "a word hyphenated across a lost line break"))  # fmt: skip
    if "<" in base:
        for run in _tag_runs(base):  # tags back to back ("che<o:p></o:p>ese") stand between the same two letters
            a, b = run[0].start(), run[-1].end()
            if not (a > 0 and b < len(base) and base[a - 1].isalpha() and base[b].isalpha()):
                continue  # not inside a word: the tokenizer reads it as a separator
            if all(_marks_nothing(m) for m in run):
                # inline tags, comments and namespaced tags ("<o:p>", of office documents) mark nothing
                edits.extend(_Edit(m.start(), m.end(), "", m.group(0), "markup inside a word") for m in run)
            elif known(canonical_key(_joined_word(base, a, b))):
                edits.extend(_Edit(m.start(), m.end(), m.group(0), "", "a word split by markup") for m in run)
    if "&" in base:
        for m in _ENTITY.finditer(base):
            dec = html.unescape(m.group(0))
            if _INVISIBLE.fullmatch(dec):  # "pea&shy;nuts": an invisible character joins, like the character itself
                dec = ""
            if dec != m.group(0):
                edits.append(_Edit(m.start(), m.end(), dec, dec))
    if "\n" in base:
        for m in _NEWLINE.finditer(base):
            a, b = m.start(), m.end()
            if a == 0 or b >= len(base) or base[a - 1] in _LIST_EDGE or base[b] in _LIST_EDGE:
                continue
            la, rb = a, b  # spaces and blank lines around the break: "che \nese"
            while la > 0 and base[la - 1] in " \t":
                la -= 1
            while rb < len(base) and base[rb] in " \t\r\n":
                rb += 1
            if la > 0 and rb < len(base) and base[la - 1].isalpha() and base[rb].isalpha() and known(
                    canonical_key(_joined_word(base, la, rb))) and not (
                    known(canonical_key(_joined_word(base, la, la))) and known(canonical_key(_joined_word(base, rb, rb)))):
                # "w\nheat", "que\nso", "che \nese": a word broken across a line with no hyphen (two known words
                # are read as they stand)
                edits.append(_Edit(la, rb, "", base[la:rb], "a word broken across a line"))
                continue
            if base[a - 1] in " \t" or base[b] in " \t\n\r":
                continue
            left, right = _item_around(base, a, b)
            # never when a line holds only a part word ("Salt\nFlower" is no fleur de sel: "Flower" may be flour)
            if left and right and known(canonical_key(f"{left} {right}")) and not (
                    is_part_note(canonical_key(left)) or is_part_note(canonical_key(right))):  # fmt: skip
                edits.append(_Edit(a, b, " ", m.group(0), "a line break inside an ingredient"))
    if not edits:
        return Reading(base), None
    edits.sort(key=lambda e: e.start)
    kept: list[_Edit] = []
    for e in edits:  # overlapping edits (a hyphen break inside a tag …): the first wins
        if not kept or e.start >= kept[-1].end:
            kept.append(e)
    why = tuple(dict.fromkeys(e.why for e in kept if e.why))
    p_text, p_index = _apply(base, kept, alternative=False)
    primary = Reading(p_text, p_index, why)
    if not any(e.primary != e.alternative for e in kept):
        return primary, None
    a_text, a_index = _apply(base, kept, alternative=True)
    return primary, Reading(a_text, a_index, why)
