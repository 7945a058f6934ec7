"""The columnar dataset format: a directory of Parquet files, read one restaurant at a time.

Layout (written by :func:`write_parquet`, from a JSONL dataset directory or the Yelp import):

- ``restaurants.parquet`` — one row per restaurant in dataset order: ``business_id``, ``raw`` (the business object as
  JSON text) and where its reviews are: ``review_group`` (row group of ``reviews.parquet``), ``review_start`` (first
  row inside that group) and ``review_count``.
- ``reviews.parquet`` — reviews sorted by restaurant (dataset order, file order within a restaurant) and row-grouped
  by restaurant: a restaurant's reviews never span two row groups. Columns ``business_id``, ``review_id`` and ``raw``
  (the review object as JSON text, with ``user.friends`` moved to the users table).
- ``users.parquet`` — the friend graph once: ``user`` (the social identity: Yelp ``user_id`` or reviewer name) and
  ``friends`` (list of identities).

Reading keeps the restaurants (small) in memory and fetches reviews per restaurant through
:class:`ParquetReviews`, a read-only mapping ``business_id -> reviews`` that decodes one row group at a time; so memory
depends on the largest row group, not on the dataset. pyarrow is imported only here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from dinecheck.dataset.loader import restaurant_from_obj, review_from_obj
from dinecheck.dataset.models import Dataset, LazyReviews, Restaurant, Review
from dinecheck.dataset.social import SocialGraph
from dinecheck.errors import DataError
from dinecheck.files import loads_json
from dinecheck.files import require_file as _require_file

RESTAURANTS = "restaurants.parquet"
REVIEWS = "reviews.parquet"
USERS = "users.parquet"
ROW_GROUP_ROWS = 20_000
"""A row group is closed at the first restaurant boundary after this many reviews."""


# ---------------------------------------------------------------------------------------------------------- writing


def write_parquet(dataset: Dataset, out: str | Path, *, row_group_rows: int = ROW_GROUP_ROWS) -> Path:
    """Write ``dataset`` (any format, streamed restaurant by restaurant) as a Parquet dataset directory."""
    import pyarrow as pa

    out_dir = Path(out)
    if out_dir.exists() and not out_dir.is_dir():
        raise DataError("exists and is not a directory", str(out_dir))
    out_dir.mkdir(parents=True, exist_ok=True)
    rev_schema = pa.schema([("business_id", pa.string()), ("review_id", pa.string()), ("raw", pa.string())])
    index: list[tuple[int, int, int]] = []
    group, start = 0, 0
    buf: dict[str, list[str]] = {"business_id": [], "review_id": [], "raw": []}
    with pq.ParquetWriter(out_dir / REVIEWS, rev_schema, compression="zstd") as writer:
        for rest in dataset.restaurants:
            revs = dataset.reviews_of(rest.business_id)
            index.append((group, start, len(revs)))
            for rv in revs:
                buf["business_id"].append(rv.business_id)
                buf["review_id"].append(rv.review_id)
                buf["raw"].append(json.dumps(_without_friends(rv.raw), ensure_ascii=False))
            start += len(revs)
            if start >= row_group_rows:
                writer.write_table(pa.table(buf, schema=rev_schema), row_group_size=start)
                buf = {k: [] for k in buf}
                group, start = group + 1, 0
        if start or group == 0:
            writer.write_table(pa.table(buf, schema=rev_schema), row_group_size=max(start, 1))
    rest_table = pa.table({
        "business_id": [r.business_id for r in dataset.restaurants],
        "raw": [json.dumps(r.raw, ensure_ascii=False) for r in dataset.restaurants],
        "review_group": pa.array([g for g, _, _ in index], pa.int32()),
        "review_start": pa.array([s for _, s, _ in index], pa.int32()),
        "review_count": pa.array([c for _, _, c in index], pa.int32()),
    })  # fmt: skip
    pq.write_table(rest_table, out_dir / RESTAURANTS, compression="zstd")
    graph = dataset.social.as_dict()
    users = pa.table({"user": list(graph), "friends": pa.array(list(graph.values()), pa.list_(pa.string()))})
    pq.write_table(users, out_dir / USERS, compression="zstd")
    return out_dir


def _without_friends(raw: dict[str, Any]) -> dict[str, Any]:
    user = raw.get("user")
    if isinstance(user, dict) and "friends" in user:
        return {**raw, "user": {k: v for k, v in user.items() if k != "friends"}}
    return raw


# ---------------------------------------------------------------------------------------------------------- reading


class ParquetReviews(LazyReviews):
    """``business_id -> reviews`` over ``reviews.parquet``, decoding one row group at a time (the last one is kept,
    so visiting restaurants in dataset order reads every row group once)."""

    def __init__(self, path: Path, where: dict[str, tuple[int, int, int]]) -> None:
        super().__init__({k: c for k, (_, _, c) in where.items()})
        self._path = path
        self._file = pq.ParquetFile(path)
        self._where = where
        self._group = -1
        self._rows: list[str] = []

    def _read(self, business_id: str) -> tuple[Review, ...]:
        group, start, count = self._where[business_id]
        if group != self._group:
            try:
                self._rows = self._file.read_row_group(group, columns=["raw"]).column("raw").to_pylist()
            except Exception as exc:  # pyarrow raises several types for a damaged file
                raise DataError(f"cannot read row group {group} ({exc})", str(self._path)) from None
            self._group = group
        out = []
        for i in range(start, start + count):
            loc = f"{self._path}:group {group} row {i}"
            try:
                obj = loads_json(self._rows[i])
            except (ValueError, RecursionError, IndexError, TypeError):
                raise DataError("invalid JSON in column 'raw'", loc) from None
            if not isinstance(obj, dict):
                raise DataError("column 'raw' is not a JSON object", loc)
            out.append(review_from_obj(obj, loc))
        return tuple(out)


def load_parquet(directory: Path) -> Dataset:
    """Open a Parquet dataset directory: restaurants and the friend graph in memory, reviews on demand."""

    paths = {name: directory / name for name in (RESTAURANTS, REVIEWS, USERS)}
    for name in (RESTAURANTS, REVIEWS):
        _require_file(paths[name])
    try:
        rest = pq.read_table(paths[RESTAURANTS]).to_pydict()
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise DataError(f"cannot read the Parquet file ({exc})", str(paths[RESTAURANTS])) from None
    missing = {"business_id", "raw", "review_group", "review_start", "review_count"} - set(rest)
    if missing:
        raise DataError(f"missing column(s) {', '.join(sorted(missing))}", str(paths[RESTAURANTS]))
    restaurants: list[Restaurant] = []
    where: dict[str, tuple[int, int, int]] = {}
    for i, raw in enumerate(rest["raw"]):
        loc = f"{paths[RESTAURANTS]}:row {i}"
        try:
            obj = loads_json(raw)
        except (ValueError, TypeError, RecursionError):
            raise DataError("invalid JSON in column 'raw'", loc) from None
        if not isinstance(obj, dict):
            raise DataError("column 'raw' is not a JSON object", loc)
        r = restaurant_from_obj(obj, i, loc)
        if r.business_id in where:
            raise DataError(f"duplicate business_id {r.business_id!r}", loc)
        restaurants.append(r)
        where[r.business_id] = (rest["review_group"][i], rest["review_start"][i], rest["review_count"][i])
    if paths[USERS].exists():
        _require_file(paths[USERS])
        social: SocialGraph = ParquetSocialGraph(paths[USERS])
    else:
        social = SocialGraph({})
    return Dataset(restaurants=tuple(restaurants), reviews=ParquetReviews(paths[REVIEWS], where),
                   social=social, source=str(directory))


class ParquetSocialGraph(SocialGraph):
    """The friend graph of ``users.parquet``, read the first time a social condition needs it (requests without one,
    seed runs and allergy evidence never load it)."""

    __slots__ = ("_path", "_loaded")

    def __init__(self, path: Path) -> None:
        super().__init__({})
        self._path = path
        self._loaded = False

    def _load(self) -> None:
        if self._loaded:
            return
        try:
            users = pq.read_table(self._path, columns=["user", "friends"]).to_pydict()
        except Exception as exc:  # pyarrow raises several types for a damaged file
            raise DataError(f"cannot read the Parquet file ({exc})", str(self._path)) from None
        SocialGraph.__init__(self, {u: f or [] for u, f in zip(users["user"], users["friends"], strict=False) if u})
        self._loaded = True

    def friends_of(self, name: str) -> frozenset[str]:
        self._load()
        return super().friends_of(name)

    def as_dict(self) -> dict[str, list[str]]:
        self._load()
        return super().as_dict()

    def __len__(self) -> int:
        self._load()
        return super().__len__()
