"""Input files: checking that a path names a regular, readable file before anything opens it, and strict JSON.

Every input file of dinecheck (dataset files, Yelp import files, request and groundtruth files, seeds, label files,
config files, task texts) goes through :func:`require_file` or :func:`optional_file`. Both look at the path with
``stat``/``lstat`` only and never open it, because opening a FIFO for reading blocks until a writer appears. Anything
that exists but is not a regular readable file — a directory, a FIFO, a socket or device, a dangling symbolic link, a
file without read permission — is an error naming the path; an *optional* file counts as absent only when there is
really nothing at that path (not even a broken link).

:func:`loads_json` is ``json.loads`` without the ``NaN``/``Infinity``/``-Infinity`` extension: those tokens are not
JSON, and a non-finite number in a dataset, request or seed only fails later with a misleading message.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from dinecheck.errors import DataError, DinecheckError

_KINDS = (
    (stat.S_ISDIR, "is a directory, not a file"),
    (stat.S_ISFIFO, "is a named pipe (FIFO), not a regular file"),
    (stat.S_ISSOCK, "is a socket, not a regular file"),
    (stat.S_ISCHR, "is a character device, not a regular file"),
    (stat.S_ISBLK, "is a block device, not a regular file"),
)


def _problem(path: Path, optional: bool) -> str | None:
    """Why ``path`` is not a usable regular file; ``""`` when it is absent and ``optional``; None when it is fine."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        try:
            os.lstat(path)
        except FileNotFoundError:
            return "" if optional else "no such file"
        except OSError as exc:
            return f"cannot be read ({exc.strerror})"
        return "is a symbolic link to a file that does not exist"
    except NotADirectoryError:
        return "" if optional else "no such file (a parent of it is not a directory)"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    for test, why in _KINDS:
        if test(st.st_mode):
            return why
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    return None


class NonFiniteNumber(ValueError):
    """JSON input holds ``NaN``, ``Infinity`` or ``-Infinity`` (str() names the token)."""

    def __init__(self, token: str) -> None:
        super().__init__(f"{token} is not a number JSON allows (NaN and Infinity are not JSON)")


def _reject_constant(token: str) -> Any:
    raise NonFiniteNumber(token)


def loads_json(raw: str | bytes) -> Any:
    """``json.loads`` that raises :class:`NonFiniteNumber` for ``NaN``/``Infinity``/``-Infinity``."""
    return json.loads(raw, parse_constant=_reject_constant)


def require_file(path: str | Path, error: type[DinecheckError] = DataError) -> Path:
    """``path`` as a Path when it names a regular readable file, else ``error("<why>", "<path>")``."""
    p = Path(path)
    why = _problem(p, optional=False)
    if why:
        raise error(why, str(p))
    return p


def optional_file(path: str | Path, error: type[DinecheckError] = DataError) -> Path | None:
    """Like :func:`require_file`, but None when nothing at all exists at ``path`` (a dangling link is an error)."""
    p = Path(path)
    why = _problem(p, optional=True)
    if why == "":
        return None
    if why:
        raise error(why, str(p))
    return p
