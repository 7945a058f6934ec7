"""Docs that run: every ``dinecheck …`` command shown in README.md and docs/*.md is executed, so examples cannot rot.

Which lines are commands:
* in ```` ```bash ````, ```` ```sh ````, ```` ```shell ```` and ```` ```console ```` blocks, a line that runs
  ``dinecheck`` (its command after ``VAR=value`` prefixes, or a pipe into it): in console blocks only after ``$ ``, in
  the shell blocks with or without it; a trailing ``\\`` joins the next line. Other commands (benchmarks, pytest) are
  not examples of dinecheck and are not run;
* ```` ```text ```` and unlabelled blocks hold output or synopses and are not run.

Each command runs in a fresh ``bash`` (``set -o pipefail``) in a scratch directory that links ``dinecheck/`` and
``../shared`` like the repository root, with ``D=../shared/data`` and any ``VAR=value`` lines earlier in the same block,
the virtualenv's ``bin`` first on ``PATH``, and scratch ``HOME``/XDG directories (nothing touches the user's files).
Small synthetic inputs that examples name (Yelp files, ``broken/``) are created there. Commands of one file run in
order and share the scratch directory.

Markers (a trailing comment on the command, or a comment line right above it):
* ``# doc-test: exit N`` — the command must exit with N (default 0);
* ``# doc-test: skip (reason)`` — not run; only for commands that need a configured language model (the reason says
  so). The test fails on a skip marker without a reason.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, SHARED_DATA

DOC_FILES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
SHELL_LANGS = {"bash", "sh", "shell", "console"}
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+-]*)")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
_MARKER = re.compile(r"#.*?doc-test:\s*(skip|exit)\b\s*(.*)$")
_PREFIX = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*")
TIMEOUT_S = 240


@dataclass(frozen=True)
class DocCommand:
    """One runnable example: where it is, the shell text (with the block's assignments), and what is expected."""

    where: str
    command: str
    setup: tuple[str, ...]
    exit_code: int
    skip: str | None


def _marker(text: str) -> tuple[str, str] | None:
    m = _MARKER.search(text)
    return (m.group(1), m.group(2).strip()) if m else None


def _logical_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for lineno, text in lines:
        if not buf:
            start = lineno
        stripped = text.rstrip()
        if stripped.endswith("\\"):
            buf.append(stripped[:-1])
            continue
        buf.append(stripped)
        out.append((start, " ".join(b.strip() for b in buf)))
        buf = []
    if buf:
        out.append((start, " ".join(b.strip() for b in buf)))
    return out


def _runs_dinecheck(line: str) -> bool:
    return _PREFIX.sub("", line).startswith("dinecheck ") or re.search(r"\|\s*dinecheck\s", line) is not None


def _is_command(line: str, lang: str) -> str | None:
    """The shell text when the line runs ``dinecheck`` (other commands — benchmarks, pytest — are not examples)."""
    if line.startswith("$ "):
        return line[2:].strip() if _runs_dinecheck(line[2:].strip()) else None
    if lang == "console" or not _runs_dinecheck(line):
        return None
    return line


def extract(path: Path, root: Path = REPO_ROOT) -> list[DocCommand]:
    """Every runnable command of one Markdown file (``where`` relative to ``root``)."""
    rel = path.relative_to(root)
    out: list[DocCommand] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(1), m.group(2).lower()
        body: list[tuple[int, str]] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if lang not in SHELL_LANGS:
            continue
        setup: list[str] = []
        pending: tuple[str, str] | None = None
        for lineno, line in _logical_lines(body):
            text = line.strip()
            if text.startswith("#"):
                pending = _marker(text) or pending
                continue
            if lang != "console" and _ASSIGN.match(text):
                setup.append(text)
                continue
            cmd = _is_command(text, lang)
            if cmd is None:
                pending = None
                continue
            mark = _marker(cmd) or pending
            pending = None
            code, skip = 0, None
            if mark and mark[0] == "exit":
                code = int(mark[1].split()[0])
            elif mark:
                skip = mark[1].strip("() ") or "<no reason given>"
            out.append(DocCommand(f"{rel}:{lineno}", cmd, tuple(setup), code, skip))
    return out


ALL = [c for f in DOC_FILES for c in extract(f)]


def _write_inputs(work: Path) -> None:
    """Small synthetic inputs named by examples (Yelp download files, a broken dataset)."""
    biz = {"business_id": "B1", "name": "Cafe One", "city": "Philadelphia", "categories": "Cafes, Coffee & Tea",
           "attributes": {"WiFi": "u'free'"}, "hours": {"Monday": "7:0-15:0"}}
    rev = {"review_id": "V1", "user_id": "U1", "business_id": "B1", "stars": 5.0, "text": "a cozy latte",
           "date": "2021-01-01 10:00:00"}
    user = {"user_id": "U1", "name": "Jo", "review_count": 3, "elite": "2020", "friends": "None"}
    for prefix in ("", "yelp_academic_dataset_"):
        for name, obj in (("business", biz), ("review", rev), ("user", user)):
            (work / f"{prefix}{name}.json").write_text(json.dumps(obj) + "\n")
    broken = work / "broken"
    broken.mkdir()
    (broken / "restaurants.jsonl").write_text(json.dumps({"business_id": "B1", "name": "One"}) + "\n")
    (broken / "reviews.jsonl").write_text(json.dumps({"review_id": "V1", "business_id": "ghost", "text": "x"}) + "\n")
    (work / "r.jsonl").write_text(json.dumps({"id": "R1", "structure": {"op": "AND", "args": [
        {"aspect": "wifi", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "free"}},
    ]}}) + "\n")


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory, shared_data) -> dict[str, Path]:
    """Per doc file: a scratch working directory shaped like the repository root."""
    del shared_data  # the fixture skips (or fails under CI) when ../shared/data is absent
    return {}


def _workdir(sandbox: dict[str, Path], tmp_root: Path, doc: str) -> Path:
    if doc not in sandbox:
        base = tmp_root / re.sub(r"[^A-Za-z0-9]+", "_", doc)
        work = base / "work"
        (base / "home").mkdir(parents=True)
        work.mkdir()
        (work / "dinecheck").symlink_to(REPO_ROOT / "dinecheck")
        (base / "shared").symlink_to(SHARED_DATA.parent)
        _write_inputs(work)
        sandbox[doc] = work
    return sandbox[doc]


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DINECHECK_")}
    env.update({
        "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"), "D": "../shared/data",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "120", "NO_COLOR": "1",
    })
    return env


def test_docs_have_commands() -> None:
    where = {c.where.split(":")[0] for c in ALL}
    assert "README.md" in where and "docs/requests.md" in where
    assert len(ALL) >= 20


def test_extraction_rules(tmp_path) -> None:
    md = tmp_path / "x.md"
    md.write_text("\n".join([
        "```bash", "D=../shared/data", "dinecheck requests list $D/x \\", "    --data $D/y   # doc-test: exit 1",
        "# doc-test: skip (needs a model)", "dinecheck seed compile t.md", "echo hi | dinecheck allergens check -",
        "```", "```console", "$ dinecheck demo", "dinecheck not-a-command-in-console-output",
        "$ python bench/x.py", "```",
        "```text", "dinecheck seed run SEED.json", "```", "```", "  dinecheck output line", "```",
    ]))
    got = [(c.command, c.setup, c.exit_code, c.skip) for c in extract(md, tmp_path)]
    assert got == [
        ("dinecheck requests list $D/x --data $D/y   # doc-test: exit 1", ("D=../shared/data",), 1, None),
        ("dinecheck seed compile t.md", ("D=../shared/data",), 0, "needs a model"),
        ("echo hi | dinecheck allergens check -", ("D=../shared/data",), 0, None),
        ("dinecheck demo", (), 0, None),
    ]


@pytest.mark.parametrize("doc", ALL, ids=[c.where for c in ALL])
def test_doc_command_runs(doc: DocCommand, sandbox, tmp_path_factory) -> None:
    if doc.skip is not None:
        assert doc.skip != "<no reason given>", f"{doc.where}: a doc-test skip marker needs a reason"
        pytest.skip(f"{doc.where}: {doc.skip}")
    file = doc.where.rsplit(":", 1)[0]
    work = _workdir(sandbox, tmp_path_factory.getbasetemp() / "docs", file)
    script = "set -o pipefail\n" + "\n".join(doc.setup) + "\n" + doc.command + "\n"
    proc = subprocess.run(["bash", "-c", script], cwd=work, env=_env(work.parent / "home"), capture_output=True,
                          text=True, timeout=TIMEOUT_S)
    tail = (proc.stderr or proc.stdout)[-2000:]
    assert "Traceback (most recent call last)" not in proc.stderr, f"{doc.where}: {doc.command}\n{tail}"
    assert proc.returncode == doc.exit_code, (
        f"{doc.where}: `{doc.command}` exited {proc.returncode}, the docs expect {doc.exit_code}\n{tail}")
