"""Shared CLI plumbing: running the app with one-line errors, and printing JSON lines."""

from __future__ import annotations

import json
import sys
from typing import Any

import typer

from dinecheck.errors import DinecheckError


def run_app(app: typer.Typer, argv: list[str] | None = None) -> int:
    """Run the typer app and return its exit code.

    A :class:`DinecheckError` becomes one ``error: <location>: <reason>`` line on stderr and its exit code (2 for bad
    input); usage errors are typer's own (exit 2). Tests call this with ``argv`` and read stdout/stderr.
    """
    try:
        app(args=argv, prog_name="dinecheck")
    except SystemExit as ex:
        code = ex.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except DinecheckError as err:
        sys.stdout.flush()
        print(f"error: {err}", file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:
        return 0
    return 0


def echo_json(obj: Any) -> None:
    """Print one compact JSON line (UTF-8, no ASCII escaping)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
