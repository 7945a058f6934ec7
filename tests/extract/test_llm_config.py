"""Configuration of the LLM client: flags > environment > TOML file, price table, Retry-After parsing, factory."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

import pytest

from dinecheck.errors import ConfigError
from dinecheck.extract.chat import Price, parse_retry_after, resolve_config
from dinecheck.extract.factory import ExtractorOptions, default_extractor_name, make_extractor


@pytest.fixture(autouse=True)
def no_user_config(monkeypatch, tmp_path):
    """Never read a real user's config file or env in these tests."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    for key in ("DINECHECK_LLM_BASE_URL", "DINECHECK_LLM_MODEL", "DINECHECK_LLM_API_KEY"):
        monkeypatch.delenv(key, raising=False)


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "dinecheck.toml"
    p.write_text(text, encoding="utf-8")
    return p


FILE = """
[llm]
base_url = "http://127.0.0.1:9/file"
model = "file-model"
api_key = "file-key"
timeout = 12.5

[llm.prices."flag-model"]
input = 0.5
output = 1.5
"""


def test_flags_beat_environment_beat_file(tmp_path):
    cfg_path = write(tmp_path, FILE)
    env = {"DINECHECK_LLM_BASE_URL": "http://127.0.0.1:9/env", "DINECHECK_LLM_MODEL": "env-model"}
    only_file = resolve_config(ExtractorOptions(config_file=cfg_path), environ={})
    assert (only_file.base_url, only_file.model, only_file.api_key, only_file.timeout) == (
        "http://127.0.0.1:9/file", "file-model", "file-key", 12.5)
    assert only_file.price is None
    with_env = resolve_config(ExtractorOptions(config_file=cfg_path), environ=env)
    assert (with_env.base_url, with_env.model, with_env.api_key) == ("http://127.0.0.1:9/env", "env-model", "file-key")
    flags = resolve_config(
        ExtractorOptions(config_file=cfg_path, base_url="http://127.0.0.1:9/flag", model="flag-model", api_key="k",
                         batch_size=5, concurrency=3, max_cost=1.0),
        environ=env,
    )
    assert (flags.base_url, flags.model, flags.api_key) == ("http://127.0.0.1:9/flag", "flag-model", "k")
    assert flags.price == Price(0.5, 1.5)
    assert (flags.batch_size, flags.concurrency, flags.max_cost) == (5, 3, 1.0)
    assert flags.endpoint == "http://127.0.0.1:9/flag/chat/completions"


def test_the_default_config_file_is_read_when_present(tmp_path):
    p = tmp_path / "xdg" / "dinecheck" / "config.toml"
    p.parent.mkdir(parents=True)
    p.write_text(FILE, encoding="utf-8")
    assert resolve_config(ExtractorOptions(), environ={}).model == "file-model"
    assert default_extractor_name() == "llm"


def test_no_model_configured_says_how_to_configure_one():
    with pytest.raises(ConfigError) as ei:
        resolve_config(ExtractorOptions(), environ={})
    assert str(ei.value) == (
        "--extractor llm: no language model is configured; pass --base-url URL --model NAME (and --api-key KEY if "
        "needed), or set DINECHECK_LLM_BASE_URL and DINECHECK_LLM_MODEL (and DINECHECK_LLM_API_KEY), or put base_url "
        "and model in the [llm] table of a TOML file given with --config (the base URL is missing)"
    )
    with pytest.raises(ConfigError, match=r"\(the model name is missing\)$"):
        resolve_config(ExtractorOptions(base_url="http://127.0.0.1:1/v1"), environ={})


def test_max_cost_needs_a_price():
    with pytest.raises(ConfigError) as ei:
        resolve_config(ExtractorOptions(base_url="http://127.0.0.1:1/v1", model="m", max_cost=1.0), environ={})
    assert ei.value.location == "--max-cost"
    assert 'needs a price for model \'m\': add [llm.prices."m"]' in ei.value.reason


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[llm\nmodel=1", "invalid TOML"),
        ('llm = "x"', "[llm] must be a table"),
        ("[llm]\nmodel = 3\nbase_url='http://x'", "model must be a string"),
        ("[llm]\nbase_url='http://x'\nmodel='m'\ntimeout='soon'", "timeout must be a number ≥ 0.001, got 'soon'"),
        ("[llm]\nbase_url='http://x'\nmodel='m'\n[llm.prices.m]\ninput=1", "needs both input and output"),
        ("[llm]\nbase_url='http://x'\nmodel='m'\n[llm.prices]\nm=3", "must be a table {input = …, output = …}"),
        ("[llm]\nbase_url='ftp://x'\nmodel='m'", "the base URL must start with http:// or https://"),
    ],
)
def test_bad_config_files_are_config_errors(tmp_path, text, message):
    with pytest.raises(ConfigError) as ei:
        resolve_config(ExtractorOptions(config_file=write(tmp_path, text)), environ={})
    assert message in str(ei.value)


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match=r"nope\.toml: no such file$"):
        resolve_config(ExtractorOptions(config_file=tmp_path / "nope.toml"), environ={})


def test_factory_builds_llm_and_picks_default(monkeypatch, tmp_path):
    assert default_extractor_name() == "offline"
    assert default_extractor_name(ExtractorOptions(base_url="http://127.0.0.1:1/v1")) == "llm"
    monkeypatch.setenv("DINECHECK_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("DINECHECK_LLM_MODEL", "m")
    assert default_extractor_name() == "llm"
    ex = make_extractor(None, ExtractorOptions(cache_path=tmp_path / "c.sqlite"))
    try:
        assert ex.name == "llm" and ex.config.model == "m" and ex.cache is not None
    finally:
        ex.close()
    with pytest.raises(ConfigError, match="unknown extractor 'gpt'"):
        make_extractor("gpt")


def test_parse_retry_after():
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(" 0.25 ") == 0.25
    assert parse_retry_after("-4") == 0.0
    assert parse_retry_after(format_datetime(now + timedelta(seconds=30), usegmt=True), now=now) == 30.0
    assert parse_retry_after(format_datetime(now - timedelta(seconds=30), usegmt=True), now=now) == 0.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
