"""Render the CLI reference (every command's ``--help``) as Markdown, for the README.

``python -m dinecheck.cli.reference`` prints it; ``--write README.md`` replaces the block between the
``<!-- cli-reference:start -->`` and ``<!-- cli-reference:end -->`` markers. A test fails when the README drifts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

START = "<!-- cli-reference:start -->"
END = "<!-- cli-reference:end -->"


def _walk(cmd, ctx, path: list[str]):  # type: ignore[no-untyped-def]
    yield path, cmd, ctx
    if hasattr(cmd, "list_commands"):  # a group (the root loads its subcommands lazily: ask, never peek)
        for name in cmd.list_commands(ctx):
            child = cmd.get_command(ctx, name)
            if child is None or getattr(child, "hidden", False):
                continue
            child_ctx = type(ctx)(child, info_name=name, parent=ctx, terminal_width=100, max_content_width=100)
            yield from _walk(child, child_ctx, [*path, name])


def render(app: typer.Typer) -> str:
    """Markdown with one section per command, holding its ``--help`` text verbatim."""
    root = typer.main.get_command(app)
    ctx_cls = root.context_class
    ctx = ctx_cls(root, info_name="dinecheck", terminal_width=100, max_content_width=100)
    parts: list[str] = []
    for path, cmd, c in _walk(root, ctx, ["dinecheck"]):
        title = " ".join(path)
        help_text = cmd.get_help(c).rstrip()
        parts.append(f"#### `{title}`\n\n```text\n{help_text}\n```\n")
    return "\n".join(parts)


def replace_block(readme: str, reference: str) -> str:
    if START not in readme or END not in readme:
        raise ValueError(f"README has no {START} … {END} block")
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{reference}\n{END}{tail}"


def main(argv: list[str]) -> int:
    from dinecheck.cli import app

    ref = render(app)
    if len(argv) == 2 and argv[0] == "--write":
        path = Path(argv[1])
        path.write_text(replace_block(path.read_text(encoding="utf-8"), ref), encoding="utf-8")
        return 0
    sys.stdout.write(ref)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
