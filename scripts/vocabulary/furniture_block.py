"""One generated block of ``label_furniture.toml``, rewritten in place between its marker lines (a data-authoring
helper of ``countries.py`` and ``instruction_words.py``; not used at run time)."""

from __future__ import annotations

import tomllib
from pathlib import Path

TOML = Path(__file__).resolve().parents[2] / "dinecheck" / "allergens" / "data" / "label_furniture.toml"
ANCHOR = "# words an origin line may add to its places"  # a new block goes before this comment


def replace_block(begin: str, end: str, block: str) -> None:
    """Put ``block`` (which starts with ``begin`` and ends with ``end`` and a new line) in place of the block between
    the same markers, or before :data:`ANCHOR` the first time; the file must stay valid TOML."""
    text = TOML.read_text("utf-8")
    if begin in text:
        start, stop = text.index(begin), text.index(end) + len(end) + 1
        text = text[:start] + block + text[stop:]
    else:
        at = text.index(ANCHOR)
        text = text[:at] + block + text[at:]
    tomllib.loads(text)
    TOML.write_text(text, encoding="utf-8")
