"""The README's "Find a place to eat" walkthrough: every command runs (exit 0) and prints what the text promises.

No assertion here is about what an extractor says about a café review: only exit codes and the shape of the output.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def walkthrough_commands() -> list[str]:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Find a place to eat", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.DOTALL)
    assert block is not None
    return [ln for ln in block.group(1).replace("\\\n", " ").splitlines() if ln.strip() and not ln.startswith("#")]


def test_the_walkthrough_runs(cli, shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    env: dict[str, str] = {}
    outputs: list[str] = []
    commands = walkthrough_commands()
    assert [c.split()[1:3] for c in commands if c.startswith("dinecheck")] == [
        ["risk", "build"], ["search", "--data"], ["search", "--data"], ["risk", "show"]]
    for line in commands:
        m = re.fullmatch(r"(\w+)=(\S+)", line)
        if m:
            env[m.group(1)] = m.group(2)
            if m.group(1) == "DB":  # keep the store out of the repository
                env["DB"] = f"sqlite:///{tmp_path / 'cafes-risk.sqlite'}"
            continue
        args = [re.sub(r"\$(\w+)", lambda v: env[v.group(1)], a) for a in shlex.split(line)]
        assert args[0] == "dinecheck"
        r = cli(*args[1:])
        assert r.code == 0, (line, r)
        outputs.append(r.out)
    build, table, as_json, show = outputs
    assert re.match(r"49 restaurants, 980 reviews read, \d+ about allergies: \d+ extracted now, 0 reused", build)
    assert table.splitlines()[0].startswith("  1. ") and "✓ wifi_free  ✓ good_for_kids" in table
    assert table.rstrip().endswith("3 place(s) for request where, profile PEANUT,MILK")
    lines = [json.loads(x) for x in as_json.splitlines()]
    assert [o["rank"] for o in lines] == [1, 2, 3] and all(list(o["allergy"]) == ["PEANUT", "MILK"] for o in lines)
    assert show.startswith("Chapterhouse Café & Gallery  (") and "\nPEANUT " in show and "\nMILK " in show
