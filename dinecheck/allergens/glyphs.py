"""OCR glyph confusions: the letter readings of a lookup key whose words hold a glyph a scanner printed for a letter.

Label text read off a photograph carries a digit for the letter it looks like ("sa1t", "wheat fl0ur", "5ugar",
"Sonnenblumenö1") and "rn" for "m" ("rnilk", "cocoa rnass", "turrneric"). A word of letters cannot hold a digit, and
no word of the five label languages begins with "rn" (nor, but for rare exceptions, has it after a consonant), so
such a glyph is damage, not spelling. This module lists the readings with each such glyph put back (pure; no lookup):
:mod:`normalize` tries them only for a token that resolves to nothing, and takes them only under its safety rules.

The confusions (the classic ones of OCR engines on printed Latin text): ``0`` → o, ``1`` → l or i, ``5`` → s, and
"rn" → m; and, asked only where nothing else reads a token, a lower-case L and an i for each other
(:func:`letter_readings`: "sodlum", "vlnegar", "miik"). A digit counts only between two letters, or at the start or
end of a word of three characters or more with a letter beside it ("0il", "0at"); a word holding any other digit
("e1520", "100g", "b12") is left alone.
"""

from __future__ import annotations

from itertools import product

DIGIT_LETTERS: dict[str, tuple[str, ...]] = {"0": ("o",), "1": ("l", "i"), "5": ("s",)}
VOWELS = frozenset("aeiouy")
MAX_SITES = 4  # at most 2**4 × 2 readings of a key; a key with more damage stays unknown


def _word_sites(word: str, loose: bool = False) -> list[tuple[int, int, tuple[str, ...]]] | None:
    """(start, end, replacements) of each confusable glyph of ``word``; None when the word holds another digit.
    ``loose``: every confusable digit of a word with a letter counts (other digits are left as they are), and every
    "rn" after a letter."""
    letters = sum(ch.isalpha() for ch in word)
    sites: list[tuple[int, int, tuple[str, ...]]] = []
    for i, ch in enumerate(word):
        if not ch.isdigit():
            continue
        if loose:
            if ch in DIGIT_LETTERS and letters:
                sites.append((i, i + 1, DIGIT_LETTERS[ch]))
            continue
        if ch not in DIGIT_LETTERS or letters < 2:
            return None
        before = word[i - 1].isalpha() if i > 0 else None
        after = word[i + 1].isalpha() if i + 1 < len(word) else None
        inside = before is True and after is True
        edge = len(word) >= 3 and ((before is None and after is True) or (after is None and before is True))
        if not (inside or edge):
            return None
        sites.append((i, i + 1, DIGIT_LETTERS[ch]))
    if not all(ch.isalnum() or ch == "'" for ch in word):
        return sites
    start = word.find("rn")
    while start != -1:
        if start == 0 or (word[start - 1].isalpha() and (loose or word[start - 1] not in VOWELS)):
            sites.append((start, start + 2, ("m", "rn")))
        start = word.find("rn", start + 1)
    return sites


def readings(key: str, loose: bool = False) -> tuple[str, ...]:
    """Every reading of ``key`` with its confusable glyphs put back (each combination, the key itself excluded);
    empty when the key holds no such glyph or too many. ``loose`` readings put back every confusable digit, next to
    a letter or not ("50le" → sole), and every "rn" ("gurn" → gum): not to read a token by, only to doubt a reading
    (what else the damaged text may have been)."""
    words = key.split(" ")
    slots: list[list[str]] = []
    sites_seen = 0
    for word in words:
        sites = _word_sites(word, loose)
        if not sites:
            slots.append([word])
            continue
        sites_seen += len(sites)
        if sites_seen > MAX_SITES:
            return ()
        sites.sort()
        options: list[str] = []
        for choice in product(*(s[2] for s in sites)):
            out, at = [], 0
            for (a, b, _r), letter in zip(sites, choice, strict=True):
                out.append(word[at:a])
                out.append(letter)
                at = b
            out.append(word[at:])
            options.append("".join(out))
        slots.append(list(dict.fromkeys(options)))
    if not sites_seen:
        return ()
    return tuple(r for r in dict.fromkeys(" ".join(p) for p in product(*slots)) if r != key)


# the letters a scanner takes for one another ("sodlum", "vlnegar", "miik"): a lower-case L and an i (a capital I
# folds to an i); either may stand where a word of four letters or more has the other
LETTER_GLYPHS: dict[str, tuple[str, ...]] = {"l": ("i",), "i": ("l",)}
MIN_LETTER_WORD = 4


def letter_readings(key: str) -> tuple[str, ...]:
    """Every reading of ``key`` with any "l" read as "i" and any "i" as "l", in its words of letters of four letters or
    more (each combination, the key itself excluded); empty when there is none or more than :data:`MAX_SITES` such
    letters. A letter is no damage by itself: :mod:`normalize` tries these only for a token nothing else reads, and
    weighs every one of them before it takes any."""
    slots: list[list[str]] = []
    seen = 0
    for word in key.split(" "):
        sites = [i for i, ch in enumerate(word) if ch in LETTER_GLYPHS] if (
            len(word) >= MIN_LETTER_WORD and word.isalpha()) else []  # fmt: skip
        seen += len(sites)
        if seen > MAX_SITES:
            return ()
        options = []
        for choice in product(*((word[i], *LETTER_GLYPHS[word[i]]) for i in sites)):
            chars = list(word)
            for i, letter in zip(sites, choice, strict=True):
                chars[i] = letter
            options.append("".join(chars))
        slots.append(options or [word])
    if not seen:
        return ()
    return tuple(r for r in dict.fromkeys(" ".join(p) for p in product(*slots)) if r != key)
