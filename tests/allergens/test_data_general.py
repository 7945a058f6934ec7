"""The general vocabulary (``data/ingredients/g_*.jsonl``, issue 8 third and fourth rounds): the merge rules hold.

Written by helpers from general knowledge and merged by ``scripts/merge_vocabulary.py --entries`` (docs/allergens.md,
"General vocabulary"). An allergen-free entry is the only kind that can make a label SAFE, so these tests check, with
the real loader, what the merge promised: every entry says where it came from; a category that means an allergen
carries it; no name of an allergen-free entry shares its key with an allergen-bearing ingredient; no word or group of
up to three words of any name names an allergen its entry lacks; no name holds a character the tokenizer splits on;
and such names, inside a label, are read as themselves and keep a label SAFE only for allergens they lack.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.normalize import resolve_key
from dinecheck.allergens.ontology import Ontology, RiskLevel, load_data_dir
from dinecheck.allergens.pipeline import check_label
from dinecheck.allergens.text import lookup_key

DATA = Path(str(resources.files("dinecheck.allergens") / "data" / "ingredients"))
G_FILES = sorted(DATA.glob("g_*.jsonl"))
CATEGORY_ALLERGEN = {"fish": "FISH", "crustacean": "SHELLFISH", "mollusc": "MOLLUSCS", "cheese": "MILK",
                     "dairy": "MILK", "egg": "EGG", "tree_nut": "TREE_NUTS", "peanut": "PEANUT", "soy_product": "SOY"}  # fmt: skip
BIG9 = ("PEANUT", "MILK", "EGG", "GLUTEN", "SOY", "SESAME", "FISH", "SHELLFISH", "TREE_NUTS")


@pytest.fixture(scope="module")
def onto() -> Ontology:
    return load_data_dir()


def g_entries() -> list[tuple[str, int, dict]]:
    return [(p.name, n, json.loads(line)) for p in G_FILES
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if line.strip()]  # fmt: skip


G = g_entries()
G_NAMES = sorted({(t, o["id"]) for _f, _n, o in G for ts in o.get("names", {}).values() for t in ts})
FREE_IDS = {o["id"] for _f, _n, o in G if not o.get("allergens")}
FREE_NAMES = sorted((t, i) for t, i in G_NAMES if i in FREE_IDS)


def test_the_general_vocabulary_exists_and_every_entry_says_where_it_came_from() -> None:
    assert {p.stem for p in G_FILES} >= {"g_plants", "g_herbs_spices", "g_additives", "g_staples", "g_allergenic"}
    assert len(G) >= 500 and len(FREE_IDS) >= 200
    assert [f"{f}:{n}" for f, n, o in G if "helper-written, reviewed" not in o.get("note", "")] == []
    assert [o["id"] for _f, _n, o in G if not o["id"].startswith("g_")] == []


def test_a_category_that_means_an_allergen_carries_it(onto: Ontology) -> None:
    bad = [o["id"] for _f, _n, o in G
           if o["category"] in CATEGORY_ALLERGEN
           and CATEGORY_ALLERGEN[o["category"]] not in {p.code for p in onto.allergen_paths(o["id"])}]  # fmt: skip
    assert bad == []


def test_no_allergen_free_key_is_shared_with_an_allergen_bearing_ingredient(onto: Ontology) -> None:
    shared = {}
    for text, _ing_id in FREE_NAMES:
        ids = {s.canonical_id for s in onto.synonyms.get(lookup_key(text), ())}
        if any(onto.allergen_paths(i) for i in ids):
            shared[text] = sorted(ids)
    assert shared == {}


def test_no_word_group_of_a_name_surely_names_an_allergen_its_entry_lacks(onto: Ontology) -> None:
    """Checked against the merged ontology, for what a word surely names (DEFINITE/DERIVED): a generic new entry
    ("seasoning", every allergen POSSIBLE) inside "seasoning salt" is no contradiction (the merge itself checked every
    level against the ontology before it)."""
    bad = []
    for text, ing_id in G_NAMES:
        have = {p.code for p in onto.allergen_paths(ing_id)}
        words = lookup_key(text).split(" ")
        for size in range(1, 4):
            for i in range(len(words) - size + 1):
                gram = " ".join(words[i : i + size])
                if gram == lookup_key(text):
                    continue
                named = {p.code for s in resolve_key(gram, onto)[0] for p in onto.allergen_paths(s.canonical_id)
                         if p.level is not RiskLevel.POSSIBLE}  # fmt: skip
                if named - have:
                    bad.append((text, ing_id, gram, sorted(named - have)))
    assert bad == []


def test_no_name_contains_a_separator_the_tokenizer_splits_on() -> None:
    assert [(t, i) for t, i in G_NAMES if re.search(r"[,;()\[\]:]", t)] == []


def test_no_name_holds_an_abbreviated_word_or_a_compound_claim() -> None:
    """"L. amylovorus": after other words the full stop ends a sentence and the name is lost; "alkoholfrei": the
    tokenizer reads a claim there (fourth round)."""
    assert [(t, i) for t, i in G_NAMES if re.search(r"(?<![^\W_])[A-Za-z]\.\s", t)] == []
    assert [(t, i) for t, i in G_NAMES if any(w.endswith(("frei", "free")) for w in lookup_key(t).split())] == []


def test_an_everyday_word_is_not_read_as_a_new_name(onto: Ontology) -> None:
    """Found by the furniture test in the fourth round: "base" reached "basa" (a fish) by an inflection rewrite, and
    English "conserve" (jam) is the French verb of "se conserve"; both had kept storage lines from being masked."""
    for word in ("base", "conserve", "lote"):
        assert not any(s.canonical_id.startswith("g_") for s in resolve_key(word, onto)[0]), word
    assert check_label("Jus à base de concentré. Se conserve au frais.", ["FISH"], onto).verdict != "AVOID"


def test_wheat_always_comes_with_gluten(onto: Ontology) -> None:
    codes = {o["id"]: {p.code for p in onto.allergen_paths(o["id"])} for _f, _n, o in G}
    assert [i for i, c in codes.items() if "WHEAT" in c and "GLUTEN" not in c] == []


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(FREE_NAMES), st.sampled_from(BIG9))
def test_an_allergen_free_name_keeps_a_clean_label_safe(onto: Ontology, pick: tuple[str, str], code: str) -> None:
    text, ing_id = pick
    res = check_label(f"Water, sugar, {text}, salt.", [code], onto)
    assert res.verdict == "SAFE", (text, code, res.review_reasons)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([(t, i) for t, i in G_NAMES if i not in FREE_IDS]))
def test_a_name_with_allergens_is_never_safe_for_them(onto: Ontology, pick: tuple[str, str]) -> None:
    text, ing_id = pick
    codes = sorted({p.code for p in onto.allergen_paths(ing_id)})
    res = check_label(f"Water, sugar, {text}, salt.", codes, onto)
    assert res.verdict != "SAFE"
    assert {f.code for f in res.findings} == set(codes)


@pytest.mark.parametrize(("text", "milk"), [
    ("mixed spices", False), ("spice mix", False), ("spice blend", False), ("épices mélangées", False),
    ("Gewürzmischung", False), ("spice preparation", True), ("Gewürzzubereitung", True),
    ("préparation d'épices", True),
])  # fmt: skip
def test_a_mix_of_spices_is_spices_and_a_spice_preparation_may_hold_more(onto: Ontology, text: str, milk) -> None:
    """EU 1169/2011 Annex VII Part B ("spices" or "mixed spices") and the German Leitsätze für Gewürze: a
    Gewürzmischung is spices only; a Gewürzzubereitung holds other ingredients too (flour, whey …)."""
    r = check_label(text, ["MILK"], onto)
    assert r.unmatched == () and (r.verdict == "VERIFY" if milk else r.verdict == "SAFE"), text


def test_a_general_id_is_no_name_of_its_own(onto: Ontology) -> None:
    """A general entry's id carries the vocabulary's namespace ("g_feijoa"): "g feijoa" is no text a label holds, and
    as a name it let a quantity statement drop its "g" as a unit and read the rest as nothing."""
    assert not [k for k in onto.synonyms if k.startswith("g ")]
    assert resolve_key("feijoa", onto)[0]  # its listed names still name it
    text = "Sugar, salt. 1 g of meat used per 100 g of lactococcus lactis diacetylactis."
    assert check_label(text, ["MILK"], onto).verdict != "SAFE"
