"""Phase 1 (task text → seed) against the fake OpenAI-compatible server: the repair loop, its bound, and the CLI."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

from dinecheck.compile import MAX_ROUNDS, compile_task, ops_guide, static_check
from dinecheck.errors import Problem
from dinecheck.extract.chat import ChatClient, LLMConfig

_spec = importlib.util.spec_from_file_location("fake_llm", Path(__file__).resolve().parent / "support" / "fake_llm.py")
fake_llm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_llm)

TASK = "Rate how risky each restaurant is for diners with a peanut allergy, from its reviews."


@pytest.fixture(scope="module")
def good_seed(shared_data: Path) -> dict:
    return json.loads((shared_data / "g1a_allergy" / "g1a_v2_seed.json").read_text(encoding="utf-8"))


@pytest.fixture
def ghost_seed(good_seed: dict) -> dict:
    bad = copy.deepcopy(good_seed)
    bad["compute"][4]["expr"] = "N_MILD + N_MODERATE + N_SEVERE + N_GHOST"
    return bad


@pytest.fixture(scope="module")
def server():
    with fake_llm.FakeLLM() as srv:
        yield srv


@pytest.fixture
def client(server):
    server.control(reset=True)
    c = ChatClient(LLMConfig(base_url=server.base_url, model="m", backoff_base=0.01, backoff_max=0.02))
    yield c
    c.close()


def test_static_check_uses_the_formula_engine(good_seed, ghost_seed):
    assert [p for p in static_check(good_seed) if p.severity == "error"] == []
    assert static_check(ghost_seed) == [
        Problem("/compute/4/expr", "unknown name 'N_GHOST'; it must be defined by an earlier step")
    ]


def test_errors_are_fed_back_until_the_seed_passes(server, client, good_seed, ghost_seed):
    server.control(seed_answers=["Sure! Here is your seed: {", ghost_seed, good_seed])
    result = compile_task(TASK, client)
    assert result.ok and result.seed == good_seed
    assert [r.number for r in result.rounds] == [1, 2, 3]
    assert result.rounds[0].seed is None
    assert result.rounds[0].errors == [Problem("", "the answer is not valid JSON (Expecting value at line 1 column 1)")]
    assert result.rounds[1].errors == [Problem("/compute/4/expr", "unknown name 'N_GHOST'; it must be defined by an earlier step")]
    assert result.rounds[2].errors == []
    s = server.stats()
    assert s["seed_requests"] == 3 and s["response_formats"] == {"json_schema": 3}
    assert set(s["temperatures"]) == {0}
    prompts = s["seed_prompts"]
    assert prompts[0] == f"Task:\n{TASK}"
    assert "the answer is not valid JSON" in prompts[1]
    assert "- /compute/4/expr: unknown name 'N_GHOST'; it must be defined by an earlier step" in prompts[2]
    system = s["seed_systems"][0]
    assert ops_guide() in system and '"compute"' in system and "define_filter" in system  # guide + JSON Schema
    assert "context.F (restaurant fields:\nbusiness_id, name, address" in system


def test_gives_up_after_three_rounds(server, client, ghost_seed):
    server.control(seed_answers=[ghost_seed])
    result = compile_task(TASK, client)
    assert not result.ok and result.seed is None
    assert len(result.rounds) == MAX_ROUNDS == 3
    assert result.last_errors == [Problem("/compute/4/expr", "unknown name 'N_GHOST'; it must be defined by an earlier step")]
    assert server.stats()["seed_requests"] == 3


def test_first_round_success_and_fenced_answer(server, client, good_seed):
    server.control(seed_answers=["```json\n" + json.dumps(good_seed) + "\n```"])
    result = compile_task(TASK, client)
    assert result.ok and len(result.rounds) == 1 and result.seed == good_seed


def test_non_object_answer(server, client):
    server.control(seed_answers=["[1, 2]"])
    result = compile_task(TASK, client, max_rounds=1)
    assert result.last_errors == [Problem("", "the answer must be a JSON object, not list")]


# -- CLI ----------------------------------------------------------------------------------------------------------
@pytest.fixture
def task_file(tmp_path: Path) -> Path:
    p = tmp_path / "TASK.md"
    p.write_text(f"# Allergy risk\n\n{TASK}\n", encoding="utf-8")
    return p


def test_cli_writes_the_seed_only_when_it_passes(cli, tmp_path, task_file, good_seed, ghost_seed):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps([ghost_seed, good_seed]), encoding="utf-8")
    with fake_llm.FakeLLM(seed_answers=answers) as srv:  # seed answers read from a file
        out = tmp_path / "seed.json"
        r = cli("seed", "compile", task_file, "--out", out, "--base-url", srv.base_url, "--model", "m")
        assert r.code == 0, r
        assert r.out.startswith(f"wrote {out} (2 round(s), 2 calls, tokens ")
        assert json.loads(out.read_text(encoding="utf-8")) == good_seed
        assert not out.with_name("seed.json.tmp").exists()


def test_cli_failure_exits_1_with_the_last_errors_and_writes_nothing(cli, server, tmp_path, task_file, ghost_seed):
    server.control(reset=True, seed_answers=[ghost_seed])
    out = tmp_path / "seed.json"
    r = cli("seed", "compile", task_file, "--out", out, "--base-url", server.base_url, "--model", "m", "--rounds", "2")
    assert r.code == 1
    assert r.err.splitlines() == [
        "error: /compute/4/expr: unknown name 'N_GHOST'; it must be defined by an earlier step",
        "error: seed compile: no valid seed after 2 round(s), 2 calls, tokens "
        + r.err.splitlines()[1].split("tokens ")[1],
    ]
    assert r.err.splitlines()[1].endswith("; nothing written")
    assert not out.exists()


def test_cli_without_a_model_says_how_to_configure_one(cli, monkeypatch, tmp_path, task_file):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    for key in ("DINECHECK_LLM_BASE_URL", "DINECHECK_LLM_MODEL", "DINECHECK_LLM_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    r = cli("seed", "compile", task_file, "--out", tmp_path / "s.json")
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: seed compile: no language model is configured; pass --base-url URL --model NAME")
    assert len(r.err.splitlines()) == 1
    assert not (tmp_path / "s.json").exists()


def test_cli_missing_task_file(cli, tmp_path):
    r = cli("seed", "compile", tmp_path / "nope.md", "--out", tmp_path / "s.json", "--base-url", "http://127.0.0.1:1/v1",
            "--model", "m")
    assert r.code == 2
    assert r.err == f"error: {tmp_path / 'nope.md'}: no such file\n"
