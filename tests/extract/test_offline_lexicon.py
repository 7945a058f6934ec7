"""Tests of the lexicon data file: every entry names its source, and a bad file is refused with a clear location."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from dinecheck.errors import ConfigError
from dinecheck.extract.offline_lexicon import CLASS_NAMES, load_lexicon, parse_lexicon

CLASSES = "\n".join(f'[classes.{c}]\nsource = "grammar"\nwords = ["x{c}"]' for c in CLASS_NAMES)


def test_packaged_lexicon_entries_all_name_a_source() -> None:
    text = resources.files("dinecheck.extract").joinpath("data/lexicon.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    entries = list(data["synonyms"].items()) + list(data["classes"].items())
    assert entries
    for key, entry in entries:
        assert entry["source"].strip(), key
        assert set(entry) == {"source", "words"}, key
    lex = load_lexicon()
    assert "allergic" in lex.expansions("allergy")
    assert lex.expansions("plant base") and lex.in_class("role", "waiter")
    assert lex.expansions("ER")[0] == "emergency room"  # acronyms keep their case


def test_lemmatized_keys_and_classes() -> None:
    lex = parse_lexicon(CLASSES + '\n[synonyms.stomach_upset]\nsource = "WordNet"\nwords = ["upset stomach"]\n')
    assert lex.expansions("stomach upset") == ("upset stomach",)
    assert lex.in_class("meta", "xmeta") and not lex.in_class("meta", "xrole")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (CLASSES + '\n[synonyms.a]\nwords = ["b"]\n', "lexicon: [synonyms.a]: every entry needs a non-empty 'source'"),
        (CLASSES + '\n[synonyms.a]\nsource = " "\nwords = ["b"]\n', "lexicon: [synonyms.a]: every entry needs a non-empty 'source'"),
        (CLASSES + '\n[synonyms.a]\nsource = "s"\nwords = []\n', "lexicon: [synonyms.a]: 'words' must be a non-empty list of strings"),
        ('[classes.meta]\nsource = "s"\nwords = ["a"]\n', "lexicon: missing word classes: role, food, consume, menu, place"),
        ("[classes", "lexicon: not valid TOML"),
        (CLASSES + '\n[classes.extra]\nsource = "s"\nwords = ["two words"]\n', "lexicon: [classes.extra]: a word class holds single words only"),
    ],
)  # fmt: skip
def test_bad_lexicon_is_refused_with_its_location(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as exc:
        parse_lexicon(text)
    assert str(exc.value).startswith(message)
