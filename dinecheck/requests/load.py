"""Reading request files and groundtruth files (the I/O edge of the request engine), with size and depth limits.

A request file is JSON Lines (one request per line, like ``requests_dev.jsonl``); a single request may also be read
from a ``.json`` file holding one object. Limits keep hostile files cheap: the whole file, every line and the nesting
depth are bounded, and every problem is a :class:`~dinecheck.errors.RequestError` / :class:`~dinecheck.errors.DataError`
naming ``file:line`` (and the request id + JSON pointer when the JSON is well-formed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dinecheck.errors import DataError, RequestError
from dinecheck.files import NonFiniteNumber, loads_json, require_file
from dinecheck.requests.schema import Request, parse_request

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Largest request or groundtruth file accepted."""
MAX_REQUEST_BYTES = 256 * 1024
"""Largest single request (one JSONL line, or a whole ``.json`` request file)."""


def _read(path: Path, limit: int) -> bytes:
    require_file(path, RequestError)  # a directory, FIFO or dangling link is named, never opened
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise RequestError(f"cannot read the file ({exc.strerror})", str(path)) from None
    if size > limit:
        raise RequestError(f"the file is {size} bytes, more than the limit of {limit}", str(path))
    try:
        return path.read_bytes()
    except OSError as exc:
        raise RequestError(f"cannot read the file ({exc.strerror})", str(path)) from None


def _decode(raw: bytes, where: str) -> Any:
    if len(raw) > MAX_REQUEST_BYTES:
        raise RequestError(f"a request is {len(raw)} bytes, more than the limit of {MAX_REQUEST_BYTES}", where)
    try:
        return loads_json(raw)
    except NonFiniteNumber as exc:
        raise RequestError(str(exc), where) from None
    except json.JSONDecodeError as exc:
        raise RequestError(f"invalid JSON ({exc.msg} at column {exc.colno})", where) from None
    except UnicodeDecodeError:
        raise RequestError("not valid UTF-8", where) from None
    except RecursionError:
        raise RequestError("JSON nested too deeply", where) from None


def load_requests(path: str | Path) -> list[Request]:
    """Every request of a JSONL file, in file order; request ids must be unique."""
    p = Path(path)
    data = _read(p, MAX_FILE_BYTES)
    out: list[Request] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        where = f"{p}:{lineno}"
        req = parse_request(_decode(raw, where), where)
        if req.id in seen:
            raise RequestError(f"duplicate request id {req.id!r} (first at line {seen[req.id]})", where)
        seen[req.id] = lineno
        out.append(req)
    if not out:
        raise RequestError("the file holds no requests", str(p))
    return out


def load_request(path: str | Path) -> Request:
    """One request from a ``.json`` file (a single object; pretty-printing allowed)."""
    p = Path(path)
    return parse_request(_decode(_read(p, MAX_REQUEST_BYTES), str(p)), str(p))


def find_request(requests: list[Request], request_id: str, source: str) -> Request:
    for r in requests:
        if r.id == request_id:
            return r
    raise RequestError(f"no request with id {request_id!r}", source)


def load_groundtruth(path: str | Path) -> dict[str, str]:
    """``request_id → gold_restaurant`` from a groundtruth JSONL file (``groundtruth_dev.jsonl``)."""
    p = Path(path)
    try:
        data = _read(p, MAX_FILE_BYTES)
    except RequestError as exc:
        raise DataError(exc.reason, exc.location) from None
    out: dict[str, str] = {}
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        where = f"{p}:{lineno}"
        try:
            obj = loads_json(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, NonFiniteNumber):
            raise DataError("invalid JSON", where) from None
        if not isinstance(obj, dict):
            raise DataError("expected a JSON object", where)
        rid, gold = obj.get("request_id"), obj.get("gold_restaurant")
        if not isinstance(rid, str) or not rid:
            raise DataError("missing 'request_id'", where)
        if not isinstance(gold, str) or not gold:
            raise DataError(f"missing 'gold_restaurant' for request {rid}", where)
        if rid in out:
            raise DataError(f"duplicate request_id {rid!r}", where)
        out[rid] = gold
    return out
