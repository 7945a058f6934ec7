"""Model drafts of request texts: the structure check, and the draft used only when it passes (fake model server)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from dinecheck.extract.chat import ChatClient, LLMConfig
from dinecheck.requests import load_requests, parse_request
from dinecheck.requests.draft import check_text, draft_text
from dinecheck.sample import sample_dir
from tests.conftest import shared_file

_spec = importlib.util.spec_from_file_location("fake_llm",
                                              Path(__file__).resolve().parents[1] / "support" / "fake_llm.py")
fake_llm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_llm)

REQ = parse_request({"id": "X01", "structure": {"op": "AND", "args": [
    {"aspect": "drive_thru", "evidence": {"kind": "item_meta", "path": ["attributes", "DriveThru"], "true": "True"}},
    {"aspect": "wifi_free", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "u'free'"}},
    {"aspect": "hipster", "evidence": {"kind": "item_meta", "path": ["attributes", "Ambience"],
                                       "contains": "'hipster': True"}},
    {"aspect": "monday", "evidence": {"kind": "item_meta_hours", "path": ["hours", "Monday"], "true": "8:0-9:0"}},
    {"aspect": "latte", "evidence": {"kind": "review_text", "pattern": "latte|mocha"}},
    {"aspect": "social", "evidence": {"kind": "review_text", "pattern": "cozy",
                                      "social_filter": {"friends": ["Alice"], "hops": 2}}},
]}})
GOOD = ("Looking for a hipster cafe with a drive-thru and free Wi-Fi, open Monday 8 to 9, known for its lattes, "
        "that Alice or her friends called cozy")


def test_check_accepts_a_text_that_mentions_everything() -> None:
    assert check_text(GOOD, REQ.structure, "Milkcrate Cafe") == []


@pytest.mark.parametrize(("text", "problem"), [
    (GOOD.replace("hipster ", ""), "hipster (/structure/args/2) is not mentioned: none of hipster"),
    (GOOD.replace("lattes", "coffee"), "latte (/structure/args/4) is not mentioned: none of latte, mocha"),
    (GOOD.replace("Alice", "Bob"), "social (/structure/args/5) is not mentioned: none of alice"),
    (GOOD.replace("Monday", "Tuesday"), "monday (/structure/args/3) is not mentioned: none of monday"),
    (GOOD + " at Milkcrate Cafe", "the text names the restaurant"),
    ("   ", "the text is empty"),
])
def test_check_rejects(text, problem) -> None:
    assert problem in check_text(text, REQ.structure, "Milkcrate Cafe")


def test_every_dev_request_text_passes_the_check(shared_data) -> None:
    for r in load_requests(shared_file(shared_data, "philly_cafes/requests_dev.jsonl")):
        assert check_text(r.text or "", r.structure) == [], r.id


@pytest.fixture(scope="module")
def server():
    with fake_llm.FakeLLM() as srv:
        yield srv


def _client(server) -> ChatClient:
    return ChatClient(LLMConfig(base_url=server.base_url, model="m", backoff_base=0.01, backoff_max=0.02))


def test_model_draft_used_only_when_it_passes(server) -> None:
    server.control(reset=True, seed_answers=[json.dumps({"text": GOOD}), json.dumps({"text": "Looking for a cafe"}),
                                             "not json"])
    client = _client(server)
    try:
        used = draft_text(client, "TEMPLATE", ["with a drive-thru"], REQ.structure, "Milkcrate Cafe")
        assert (used.text, used.from_model, used.problems) == (GOOD, True, ())
        rejected = draft_text(client, "TEMPLATE", [], REQ.structure, "Milkcrate Cafe")
        assert rejected.text == "TEMPLATE" and not rejected.from_model
        # six conditions, the social one twice (its word and its friend)
        assert len(rejected.problems) == 7 and rejected.problems[0].startswith("drive_thru (/structure/args/0)")
        garbled = draft_text(client, "TEMPLATE", [], REQ.structure, None)
        assert (garbled.text, garbled.problems) == ("TEMPLATE", ("the model's answer is not JSON",))
    finally:
        client.close()


def test_cli_uses_a_configured_model(cli, server, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    plain = cli("requests", "suggest", "--data", sample_dir(), "--gold", "smp-golden-lantern", "--limit", "1",
                "--json")
    template = json.loads(plain.out)["text"]
    monkeypatch.setenv("DINECHECK_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("DINECHECK_LLM_MODEL", "m")
    server.control(reset=True, seed_answers=[json.dumps({"text": template + ", please"})])
    r = cli("requests", "suggest", "--data", sample_dir(), "--gold", "smp-golden-lantern", "--limit", "1", "--json")
    assert r.code == 0 and r.err == ""
    assert json.loads(r.out)["text"] == template + ", please"
    server.control(reset=True, seed_answers=[json.dumps({"text": "Looking for somewhere nice"})])
    bad = cli("requests", "suggest", "--data", sample_dir(), "--gold", "smp-golden-lantern", "--limit", "1")
    assert bad.code == 0 and f"   text: {template}" in bad.out
    assert bad.err.startswith("warning: X01: the model's draft was not used: ")
