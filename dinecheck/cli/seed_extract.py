"""CLI: ``dinecheck seed extract`` and ``dinecheck seed compile`` (placeholder until the extraction issue lands).

``dinecheck/cli/seed.py`` registers :data:`COMMANDS` on the ``seed`` group.
"""

from __future__ import annotations

from collections.abc import Callable

COMMANDS: dict[str, Callable[..., None]] = {}
