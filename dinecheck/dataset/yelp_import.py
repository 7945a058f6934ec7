"""Streaming import of the official Yelp Open Dataset files into a dinecheck dataset directory.

Input: ``yelp_academic_dataset_business.json``, ``…_review.json`` and ``…_user.json`` (JSON Lines, multi-GB). Output:
``restaurants.jsonl`` (the selected business objects, unchanged) and ``reviews.jsonl`` (each selected review with an
embedded ``user`` object: ``user_id, name, review_count, fans, elite, average_stars, friends``).

Memory does not grow with the input files, only with the *output*:

1. business file → the ids of businesses passing ``--city`` / ``--category`` (written out as they stream by);
2. review file → reviews of those businesses (at most ``max_reviews`` per business, first in file order) are spooled
   to a temporary file; only the set of their author ids stays in memory;
3. user file → the fields above for those authors only;
4. the spool is streamed again and each review is written with its author embedded.

**Social identity.** Yelp display names are not unique, and Yelp's ``friends`` lists hold *user ids*. Imported data
therefore keeps ``user.friends`` as user ids and adds ``user.user_id``; the loader and the social filter identify a
reviewer by ``user_id`` when it is present (``ReviewUser.social_id``), so a request's ``social_filter.friends`` must
name Yelp user ids for imported data. No ``social.json`` is written: the graph is derived from ``user.friends``.

``elite`` becomes a list of year strings; Yelp's split ``"20,20"`` for 2020 is re-joined. Bad lines are skipped and
counted in :class:`ImportReport` (never silently).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from dinecheck.errors import DataError
from dinecheck.files import NonFiniteNumber, loads_json, require_file

MAX_LINE_BYTES = 16 * 1024 * 1024
MAX_WARNINGS_KEPT = 20

Progress = Callable[[str, int, int], None]
"""``progress(stage, bytes_done, bytes_total)`` — called now and then while a file streams by."""


@dataclass
class ImportReport:
    """What an import wrote and what it skipped."""

    restaurants: int = 0
    reviews: int = 0
    users: int = 0
    reviews_without_user: int = 0
    skipped_lines: int = 0
    warnings: list[str] = field(default_factory=list)

    def warn(self, message: str) -> None:
        self.skipped_lines += 1
        if len(self.warnings) < MAX_WARNINGS_KEPT:
            self.warnings.append(message)


def _lines(path: Path, stage: str, report: ImportReport, progress: Progress | None) -> Iterator[dict[str, Any]]:
    """Stream JSON objects from a JSONL file with bounded line length; bad lines are counted, not fatal."""
    try:
        fh: BinaryIO = path.open("rb")
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", str(path)) from None
    total = os.fstat(fh.fileno()).st_size
    done = 0
    with fh:
        lineno = 0
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            lineno += 1
            done += len(raw)
            if progress is not None and lineno % 4096 == 0:
                progress(stage, done, total)
            if len(raw) > MAX_LINE_BYTES:
                while raw and not raw.endswith(b"\n"):
                    raw = fh.readline(MAX_LINE_BYTES)
                    done += len(raw)
                report.warn(f"{path}:{lineno}: line longer than {MAX_LINE_BYTES} bytes")
                continue
            if not raw.strip():
                continue
            try:
                obj = loads_json(raw)
            except NonFiniteNumber as exc:
                report.warn(f"{path}:{lineno}: {exc}")
                continue
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                report.warn(f"{path}:{lineno}: invalid JSON")
                continue
            if not isinstance(obj, dict):
                report.warn(f"{path}:{lineno}: not a JSON object")
                continue
            yield obj
    if progress is not None:
        progress(stage, total, total)


def parse_elite(value: Any) -> list[str]:
    """Yelp ``elite`` (``"2018,2019,20,20"`` or a list) → year strings (``["2018", "2019", "2020"]``)."""
    if isinstance(value, list):
        parts = [str(v).strip() for v in value]
    elif isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
    else:
        return []
    parts = [p for p in parts if p and p != "None"]
    out: list[str] = []
    i = 0
    while i < len(parts):
        if parts[i] == "20" and i + 1 < len(parts) and parts[i + 1] == "20":
            out.append("2020")
            i += 2
            continue
        out.append(parts[i])
        i += 1
    return out


def parse_friends(value: Any) -> list[str]:
    """Yelp ``friends`` (``"id1, id2"``, ``"None"`` or a list) → a list of user ids."""
    if isinstance(value, list):
        return [str(v) for v in value if v and v != "None"]
    if isinstance(value, str):
        return [p.strip() for p in value.split(",") if p.strip() and p.strip() != "None"]
    return []


def _categories(obj: dict[str, Any]) -> set[str]:
    cats = obj.get("categories")
    if not isinstance(cats, str):
        return set()
    return {c.strip().lower() for c in cats.split(",") if c.strip()}


def import_yelp(
    business: str | Path,
    review: str | Path,
    user: str | Path,
    out: str | Path,
    *,
    city: str | None = None,
    categories: Sequence[str] = (),
    max_reviews: int | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Import the three Yelp files into the dataset directory ``out`` (created; existing dataset files are replaced).

    ``city`` matches case-insensitively; a business passes ``categories`` when it has any of them (case-insensitive,
    whole category names); ``max_reviews`` caps the reviews kept per business (first in file order).
    """
    if max_reviews is not None and max_reviews < 0:
        raise DataError("must be at least 0", "--max-reviews")
    out_dir = Path(out)
    for p in (business, review, user):
        require_file(p)
    if (out_dir / "social.json").exists():
        raise DataError("holds a social.json that would not match the imported reviewers; remove it or choose "
                        "another --out", str(out_dir))
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"cannot create the output directory ({exc.strerror})", str(out_dir)) from None
    report = ImportReport()
    want_city = city.strip().lower() if city else None
    want_cats = {c.strip().lower() for c in categories if c.strip()}

    # 1. businesses
    kept: dict[str, int] = {}  # business_id -> reviews kept so far
    rest_tmp = out_dir / "restaurants.jsonl.part"
    with rest_tmp.open("w", encoding="utf-8") as fh:
        for obj in _lines(Path(business), "businesses", report, progress):
            bid = obj.get("business_id")
            if not isinstance(bid, str) or not bid:
                report.warn(f"{business}: a business without business_id")
                continue
            if bid in kept:
                report.warn(f"{business}: duplicate business_id {bid!r}")
                continue
            if want_city is not None and str(obj.get("city") or "").strip().lower() != want_city:
                continue
            if want_cats and not (_categories(obj) & want_cats):
                continue
            kept[bid] = 0
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
    report.restaurants = len(kept)

    # 2. reviews → spool
    authors: set[str] = set()
    seen_reviews: set[str] = set()
    spool = tempfile.NamedTemporaryFile("w+", encoding="utf-8", dir=out_dir, suffix=".spool", delete=False)
    try:
        with spool:
            for obj in _lines(Path(review), "reviews", report, progress):
                bid = obj.get("business_id")
                if not isinstance(bid, str) or bid not in kept:
                    continue
                if max_reviews is not None and kept[bid] >= max_reviews:
                    continue
                rid, uid = obj.get("review_id"), obj.get("user_id")
                if not isinstance(rid, str) or not rid:
                    report.warn(f"{review}: a review of {bid} without review_id")
                    continue
                if rid in seen_reviews:
                    report.warn(f"{review}: duplicate review_id {rid!r}")
                    continue
                seen_reviews.add(rid)
                kept[bid] += 1
                if isinstance(uid, str) and uid:
                    authors.add(uid)
                spool.write(json.dumps(obj, ensure_ascii=False) + "\n")
            spool.flush()

            # 3. users (authors only)
            users: dict[str, dict[str, Any]] = {}
            for obj in _lines(Path(user), "users", report, progress):
                uid = obj.get("user_id")
                if not isinstance(uid, str) or uid not in authors or uid in users:
                    continue
                users[uid] = {
                    "user_id": uid,
                    "name": obj.get("name") if isinstance(obj.get("name"), str) else None,
                    "review_count": obj.get("review_count"),
                    "fans": obj.get("fans"),
                    "elite": parse_elite(obj.get("elite")),
                    "average_stars": obj.get("average_stars"),
                    "friends": parse_friends(obj.get("friends")),
                }
            report.users = len(users)

            # 4. spool → reviews.jsonl with embedded users
            spool.seek(0)
            rev_tmp = out_dir / "reviews.jsonl.part"
            with rev_tmp.open("w", encoding="utf-8") as fh:
                for line in spool:
                    obj = json.loads(line)
                    uid = obj.pop("user_id", None)
                    u = users.get(uid) if isinstance(uid, str) else None
                    if u is None:
                        report.reviews_without_user += 1
                        u = {"user_id": uid, "name": None, "review_count": None, "fans": None, "elite": [],
                             "average_stars": None, "friends": []}
                    obj["user"] = u
                    fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
                    report.reviews += 1
    finally:
        Path(spool.name).unlink(missing_ok=True)
    rest_tmp.replace(out_dir / "restaurants.jsonl")
    rev_tmp.replace(out_dir / "reviews.jsonl")
    return report
