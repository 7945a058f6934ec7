"""Load a dataset directory: ``restaurants.jsonl``, ``reviews.jsonl`` and optional ``social.json``.

Bad input raises :class:`~dinecheck.errors.DataError` naming file and line; with ``lenient=True`` the bad line is
skipped and counted in the returned :class:`LoadReport` instead. Nothing is dropped silently. A missing
``reviews.jsonl`` means a dataset without reviews; a missing ``social.json`` means the friend graph is derived from
every review's ``user.friends`` (an invalid ``social.json`` is an error, or in lenient mode a warning and the derived
graph). Lines are read with a bounded buffer, so one huge line cannot exhaust memory.
"""

from __future__ import annotations

import gc
import json
import math
import sys
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dinecheck.dataset.models import Dataset, Restaurant, Review, ReviewUser
from dinecheck.dataset.social import SocialGraph
from dinecheck.errors import DataError
from dinecheck.files import NonFiniteNumber, loads_json, optional_file, require_file

MAX_LINE_BYTES = 16 * 1024 * 1024


@dataclass
class LoadReport:
    """What the loader skipped in lenient mode (one message per skipped line)."""

    warnings: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        return len(self.warnings)


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any] | DataError]]:
    """Yield ``(line_number, object)`` for each non-blank line, or a DataError for a line that is not a JSON object."""
    for lineno, _offset, obj in iter_jsonl_offsets(path):
        yield lineno, obj


def iter_jsonl_offsets(path: Path) -> Iterator[tuple[int, int, dict[str, Any] | DataError]]:
    """Like :func:`iter_jsonl`, with the byte offset at which each line starts."""
    require_file(path)
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", str(path)) from None
    with fh:
        lineno, pos = 0, 0
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)  # bounded: a huge line never sits in memory whole
            if not raw:
                break
            start, pos = pos, pos + len(raw)
            lineno += 1
            loc = f"{path}:{lineno}"
            if len(raw) > MAX_LINE_BYTES:
                while raw and not raw.endswith(b"\n"):  # skip the rest of the over-long line
                    raw = fh.readline(MAX_LINE_BYTES)
                    pos += len(raw)
                yield lineno, start, DataError(f"line is longer than {MAX_LINE_BYTES} bytes", loc)
                continue
            if not raw.strip():
                continue
            try:
                obj = loads_json(raw)
            except NonFiniteNumber as exc:
                yield lineno, start, DataError(str(exc), loc)
                continue
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                msg = exc.msg if isinstance(exc, json.JSONDecodeError) else "not valid UTF-8"
                yield lineno, start, DataError(f"invalid JSON ({msg})", loc)
                continue
            except RecursionError:
                yield lineno, start, DataError("invalid JSON (nested too deeply)", loc)
                continue
            if not isinstance(obj, dict):
                yield lineno, start, DataError(f"expected a JSON object, got {type(obj).__name__}", loc)
                continue
            yield lineno, start, obj


def _str_list(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):  # Yelp's raw user file: "2010,2011" / "a, b"
        return tuple(s.strip() for s in value.split(",") if s.strip() and s.strip() != "None")
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return ()


def _num(value: Any, key: str, loc: str) -> Any:
    """A JSON number (int or finite float), None for anything else; a non-finite float is a DataError at ``loc``."""
    if isinstance(value, float) and not math.isfinite(value):
        raise DataError(f"{key!r} is {value}, not a finite number", loc)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def checked_reviews(path: Path, business_ids: Collection[str],
                    problem: Callable[[DataError], None]) -> Iterator[tuple[int, Review]]:
    """``(byte offset, review)`` for every good line of a reviews file; each bad line (invalid JSON, a bad review
    object, a duplicate review id, a review of a restaurant not in ``business_ids``) goes to ``problem`` instead."""
    seen: dict[str, int] = {}
    for lineno, start, obj in iter_jsonl_offsets(path):
        if isinstance(obj, DataError):
            problem(obj)
            continue
        loc = f"{path}:{lineno}"
        try:
            rv = review_from_obj(obj, loc)
        except DataError as err:
            problem(err)
            continue
        if rv.review_id in seen:
            problem(DataError(f"duplicate review_id {rv.review_id!r} (first at line {seen[rv.review_id]})", loc))
            continue
        if rv.business_id not in business_ids:
            problem(DataError(f"review of unknown restaurant {rv.business_id!r}", loc))
            continue
        seen[rv.review_id] = lineno
        yield start, rv


def restaurant_from_obj(obj: dict[str, Any], index: int, loc: str) -> Restaurant:
    bid = obj.get("business_id")
    if not isinstance(bid, str) or not bid:
        raise DataError("missing or empty 'business_id'", loc)
    attrs = obj.get("attributes") or {}
    hours = obj.get("hours") or {}
    if not isinstance(attrs, dict):
        raise DataError("'attributes' must be an object or null", loc)
    if not isinstance(hours, dict):
        raise DataError("'hours' must be an object or null", loc)
    cats = obj.get("categories")
    return Restaurant(
        business_id=bid,
        name=str(obj.get("name") or ""),
        index=index,
        categories=cats if isinstance(cats, str) else None,
        attributes=attrs,
        hours=hours,
        raw=obj,
    )


def review_from_obj(obj: dict[str, Any], loc: str) -> Review:
    """Build a :class:`Review` from a Yelp review object with an embedded ``user`` object."""
    rid = obj.get("review_id")
    bid = obj.get("business_id")
    if not isinstance(rid, str) or not rid:
        raise DataError("missing or empty 'review_id'", loc)
    if not isinstance(bid, str) or not bid:
        raise DataError("missing or empty 'business_id'", loc)
    text = obj.get("text")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise DataError("'text' must be a string", loc)
    u = obj.get("user") or {}
    if not isinstance(u, dict):
        raise DataError("'user' must be an object", loc)
    name = u.get("name")
    user = ReviewUser(
        name=sys.intern(name) if isinstance(name, str) else None,  # interned: one string per reviewer, not per review
        review_count=_num(u.get("review_count"), "user.review_count", loc),
        fans=_num(u.get("fans"), "user.fans", loc),
        elite=_str_list(u.get("elite")),
        average_stars=_num(u.get("average_stars"), "user.average_stars", loc),
        friends=_str_list(u.get("friends")),
        user_id=u.get("user_id") if isinstance(u.get("user_id"), str) and u.get("user_id") else None,
    )
    date = obj.get("date")
    return Review(
        review_id=rid,
        business_id=sys.intern(bid),
        text=text,
        stars=_num(obj.get("stars"), "stars", loc),
        useful=_num(obj.get("useful"), "useful", loc),
        date=date if isinstance(date, str) else None,
        user=user,
        raw=obj,
    )


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many acyclic objects (JSON dicts, models): otherwise its
    repeated full passes over the growing heap make loading grow faster than the file. Restores the previous state."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


STREAM_ABOVE_BYTES = 256 * 1024 * 1024
"""A JSONL ``reviews.jsonl`` larger than this is read one restaurant at a time through an offset index."""


def load_dataset(directory: str | Path, *, lenient: bool = False,
                 stream: bool | None = None) -> tuple[Dataset, LoadReport]:
    """Load a dataset directory (JSONL or Parquet). Raises DataError on the first problem unless ``lenient``.

    Parquet datasets and, with ``stream`` (default: when ``reviews.jsonl`` is larger than ``STREAM_ABOVE_BYTES``),
    JSONL ones keep only restaurants and the friend graph in memory; reviews are read per restaurant on demand.
    """
    root = Path(directory)
    if not root.is_dir():
        raise DataError("not a dataset directory (expected restaurants.jsonl, reviews.jsonl)", str(root))
    if (root / "restaurants.parquet").exists():  # the columnar format (pyarrow is imported only for it)
        from dinecheck.dataset.parquet import load_parquet

        return load_parquet(root), LoadReport()
    with _gc_paused():
        return _load(root, lenient, stream)


def _load(root: Path, lenient: bool, stream: bool | None) -> tuple[Dataset, LoadReport]:
    report = LoadReport()

    def problem(err: DataError) -> None:
        if not lenient:
            raise err
        report.warnings.append(str(err))

    rest_path = root / "restaurants.jsonl"
    if optional_file(rest_path) is None:
        raise DataError("missing restaurants.jsonl", str(root))
    restaurants: list[Restaurant] = []
    seen: dict[str, str] = {}
    for lineno, obj in iter_jsonl(rest_path):
        loc = f"{rest_path}:{lineno}"
        if isinstance(obj, DataError):
            problem(obj)
            continue
        try:
            r = restaurant_from_obj(obj, len(restaurants), loc)
        except DataError as err:
            problem(err)
            continue
        if r.business_id in seen:
            problem(DataError(f"duplicate business_id {r.business_id!r} (first at {seen[r.business_id]})", loc))
            continue
        seen[r.business_id] = loc
        restaurants.append(r)

    rev_path = root / "reviews.jsonl"
    rev_file = optional_file(rev_path)  # absent: a dataset without reviews; a directory/FIFO/broken link: error
    if stream is None:
        stream = rev_file is not None and rev_file.stat().st_size > STREAM_ABOVE_BYTES
    if stream and rev_file is not None:
        from dinecheck.dataset.jsonl_index import index_reviews

        lazy, friends = index_reviews(rev_path, restaurants, problem)
        try:
            social = _load_social(optional_file(root / "social.json"), friends)
        except DataError as err:
            problem(err)
            social = _load_social(None, friends)
        return Dataset(restaurants=tuple(restaurants), reviews=lazy, social=social, source=str(root)), report

    reviews: dict[str, list[Review]] = {r.business_id: [] for r in restaurants}
    if rev_file is not None:
        for _offset, rv in checked_reviews(rev_path, reviews.keys(), problem):
            reviews[rv.business_id].append(rv)

    social_path = optional_file(root / "social.json")  # not lenient: a social.json that is not a file is named
    try:
        social = _load_social(social_path, _friend_lists(reviews))
    except DataError as err:
        problem(err)
        social = _load_social(None, _friend_lists(reviews))
    ds = Dataset(
        restaurants=tuple(restaurants),
        reviews={k: tuple(v) for k, v in reviews.items()},
        social=social,
        source=str(root),
    )
    return ds, report


def _friend_lists(reviews: dict[str, list[Review]]) -> dict[str, set[str]]:
    """Reviewer identity → the friends listed in any of their reviews."""
    derived: dict[str, set[str]] = {}
    for revs in reviews.values():
        for rv in revs:
            who = rv.user.social_id
            if who and rv.user.friends:
                derived.setdefault(who, set()).update(rv.user.friends)
    return derived


def _load_social(path: Path | None, derived: dict[str, set[str]]) -> SocialGraph:
    """The friend graph from ``social.json`` when present, else derived from every review's ``user.friends``."""
    if path is not None:
        if path.stat().st_size > MAX_LINE_BYTES:
            raise DataError(f"social.json is larger than {MAX_LINE_BYTES} bytes", str(path))
        try:
            obj = loads_json(path.read_text(encoding="utf-8"))
        except NonFiniteNumber as exc:
            raise DataError(str(exc), str(path)) from None
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise DataError(f"invalid JSON ({getattr(exc, 'msg', 'not valid UTF-8 or nested too deeply')})",
                            str(path)) from None
        graph = obj.get("friend_graph") if isinstance(obj, dict) else None
        if not isinstance(graph, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(x, str) for x in v) for k, v in graph.items()
        ):
            raise DataError("'friend_graph' must map reviewer names to lists of names", f"{path}#/friend_graph")
        return SocialGraph(graph)
    return SocialGraph(derived)
