"""The *find a place* form as a request: wishes (attribute = value), "open on DAY at TIME", words that reviews
mention and friends' reviews become one ``AND`` request tree (pure; no I/O).

Words are searched literally (escaped, never as a pattern), so a visitor cannot send a costly regular expression.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex

from dinecheck.requests.schema import Request, parse_request
from dinecheck.web.config import MAX_WORDS_CHARS
from dinecheck.web.safety import WebError

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MAX_WISHES = 40
MAX_FRIENDS = 20
_PATH_PART = re.compile(r"[A-Za-z0-9_\-]{1,60}")
_TIME = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")


@dataclass(frozen=True)
class FindForm:
    """What the visitor chose. ``wishes`` are ``"attributes.WiFi=free"`` keys (path, ``=``, decoded value)."""

    wishes: tuple[str, ...] = ()
    day: str | None = None
    time: str | None = None
    words: str = ""
    friends: tuple[str, ...] = ()
    allergens: tuple[str, ...] = field(default=())

    @property
    def empty(self) -> bool:
        return not (self.wishes or self.day or self.time or self.words.strip() or self.friends)


def wish_key(path: Sequence[str], value: Any) -> str:
    """The form value of one wish: ``attributes.Ambience.hipster=True``."""
    return ".".join(path) + "=" + (str(value) if not isinstance(value, str) else value)


def parse_wish(key: str) -> tuple[list[str], str]:
    """``"attributes.WiFi=free"`` → (``["attributes", "WiFi"]``, ``"free"``); a malformed key is a 400."""
    path_text, sep, value = key.partition("=")
    parts = path_text.split(".")
    if not sep or not value or len(value) > 100 or len(parts) > 4 or not all(_PATH_PART.fullmatch(p) for p in parts):
        raise WebError(400, "wish", f"{key[:120]!r} is not a wish of the form attributes.NAME=VALUE")
    return parts, value


def _aspect(parts: Sequence[str], value: str) -> str:
    return f"{parts[-1]}={value}"[:200]


def conditions_of(form: FindForm, aspects: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The condition nodes the form asks for, in form order; ``aspects`` names wishes in plain words."""
    if len(form.wishes) > MAX_WISHES:
        raise WebError(400, "wish", f"at most {MAX_WISHES} wishes at once")
    out: list[dict[str, Any]] = []
    for key in form.wishes:
        parts, value = parse_wish(key)
        aspect = (aspects or {}).get(key) or _aspect(parts, value)
        out.append({"aspect": aspect[:200], "evidence": {"kind": "item_meta", "path": parts, "true": value}})
    if form.day or form.time:
        if form.day not in DAYS:
            raise WebError(400, "day", f"choose a day of the week ({', '.join(DAYS)})")
        m = _TIME.fullmatch(form.time or "")
        if m is None:
            raise WebError(400, "time", "give the time as HH:MM (24-hour clock)")
        hm = f"{int(m.group(1))}:{m.group(2)}"
        out.append({"aspect": f"open {form.day} at {hm}",
                    "evidence": {"kind": "item_meta_hours", "path": ["hours", form.day], "true": f"{hm}-{hm}"}})
    words = " ".join(form.words.split())
    if len(words) > MAX_WORDS_CHARS:
        raise WebError(400, "words", f"at most {MAX_WORDS_CHARS} characters")
    friends = [f.strip() for f in form.friends if f.strip()]
    if len(friends) > MAX_FRIENDS:
        raise WebError(400, "friends", f"at most {MAX_FRIENDS} friends")
    if words or friends:
        ev: dict[str, Any] = {"kind": "review_text", "pattern": regex.escape(words) if words else "."}
        aspect = f"reviews mention “{words}”" if words else "reviewed"
        if friends:
            ev["social_filter"] = {"friends": friends, "hops": 1}
            aspect += f" (by {', '.join(friends)})"
        out.append({"aspect": aspect[:200], "evidence": ev})
    return out


def request_of(form: FindForm, aspects: Mapping[str, str] | None = None) -> Request | None:
    """One ``AND`` request of everything the form asks for, or None when it asks for nothing."""
    conds = conditions_of(form, aspects)
    if not conds:
        return None
    return parse_request({"id": "web", "text": "find a place", "structure": {"op": "AND", "args": conds}}, "form")
