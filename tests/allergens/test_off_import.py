"""The Open Food Facts allergens taxonomy: parser (real file and generated text), mapping plan, and import."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dinecheck.allergens.off_import import (
    OFF_TO_CODE,
    import_taxonomy,
    off_ingredient,
    parse_taxonomy,
    plan_import,
    read_taxonomy_file,
    slug,
)
from dinecheck.allergens.ontology import ALLERGEN_CODES, RiskLevel, load_data_dir
from dinecheck.allergens.pipeline import check_label
from dinecheck.allergens.store import open_store
from dinecheck.errors import OntologyError


@pytest.fixture(scope="module")
def taxonomy_path(shared_data: Path) -> Path:
    path = shared_data / "off_taxonomy" / "allergens.txt"
    assert path.is_file(), path
    return path


# ------------------------------------------------------------------------------------------------ parser


def test_the_real_taxonomy_parses(taxonomy_path: Path) -> None:
    tax = read_taxonomy_file(taxonomy_path)
    ids = [e.id for e in tax.entries]
    assert ids[0] == "en:none"
    assert set(OFF_TO_CODE) <= set(ids)
    assert len(ids) == 27 and len(set(ids)) == 27
    by_id = {e.id: e for e in tax.entries}
    peanuts = by_id["en:peanuts"]
    assert peanuts.names["en"] == ("peanuts", "peanut", "arachis hypogaea")
    assert "arachide" in peanuts.names["fr"] and "Erdnüsse" in peanuts.names["de"]
    assert peanuts.properties["wikidata:en"] == "Q7157933"
    assert peanuts.line == 200
    assert len({lang for e in tax.entries for lang in e.names}) >= 36
    assert "traces" in tax.stopwords["en"] and "kann" in tax.stopwords["de"]
    assert by_id["en:red-caviar"].parents == ()  # its "# <en:fish" parent line is commented out


def test_parser_details() -> None:
    text = (
        "# a comment\n"
        "stopwords:fr: de, des\n\n"
        "< en:fish\n"
        "en: Red caviar\\, salted, roe\n"
        "nl_be: kaviaar\n"
        "wikidata:en: Q1\n\n\n"
        "fr: seulement français\n"
    )
    tax = parse_taxonomy(text, "t.txt")
    assert tax.stopwords == {"fr": ("de", "des")}
    first, second = tax.entries
    assert (first.id, first.line, first.parents) == ("en:red-caviar-salted", 4, ("en:fish",))
    assert first.names == {"en": ("Red caviar, salted", "roe"), "nl_be": ("kaviaar",)}
    assert first.properties == {"wikidata:en": "Q1"}
    assert (second.id, second.names) == ("fr:seulement-francais", {"fr": ("seulement français",)})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("en: a\nnot a line\n", "t.txt:2: expected 'lang: name, synonym, …', got 'not a line'"),
        ("stopwords: x\n", "t.txt:1: expected 'stopwords:lang: word, …', got 'stopwords: x'"),
    ],
)
def test_parser_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(OntologyError) as err:
        parse_taxonomy(text, "t.txt")
    assert str(err.value) == message


def test_real_off_quirks_are_read_not_refused() -> None:
    """OFF files repeat a language inside an entry (its names add up), leave property-only blocks (skipped), write a
    property without its second colon, and define synonym sets of words."""
    text = ("synonyms:en: hydrolysed, hydrolyzed\n\nen: raw\nes: crudo\nes: crudo, cruda\n\n"
            "en:description:orphan text\n\nen: pear\ncarbon_footprint_x:en 5.9\n")  # fmt: skip
    tax = parse_taxonomy(text, "t.txt")
    assert tax.synonym_sets == (("en", ("hydrolysed", "hydrolyzed")),)
    raw, pear = tax.entries
    assert raw.names == {"en": ("raw",), "es": ("crudo", "crudo", "cruda")}
    assert pear.names == {"en": ("pear",)} and pear.properties == {"carbon_footprint_x": "en 5.9"}


def test_slug() -> None:
    assert slug("Sulphur dioxide and sulphites") == "sulphur-dioxide-and-sulphites"
    assert slug("Crème fraîche!") == "creme-fraiche"


_name = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters=",\\#<"),
                min_size=1, max_size=12).map(str.strip).filter(bool)  # fmt: skip
_lang = st.sampled_from(["en", "fr", "de", "es", "it", "pl", "nl_be", "zh"])
_entry = st.dictionaries(_lang, st.lists(_name, min_size=1, max_size=4), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(_entry, min_size=1, max_size=5))
def test_rendered_taxonomies_parse_back(entries: list[dict[str, list[str]]]) -> None:
    text = "\n\n".join("\n".join(f"{lang}: {', '.join(names)}" for lang, names in e.items()) for e in entries)
    tax = parse_taxonomy(text + "\n")
    assert [e.names for e in tax.entries] == [{k: tuple(v) for k, v in e.items()} for e in entries]


# ------------------------------------------------------------------------------------------------ plan


TAX = ("en: none, no\nfr: aucun\n\nen: peanuts, peanut\nfr: arachide\nnl_be: pinda\nzh_hant: 花生\n\nen: kiwi\n\n"
       "en: gluten\nsv: vete\n")


def test_plan_maps_entries_to_one_off_ingredient_per_allergen() -> None:
    plan = plan_import(parse_taxonomy(TAX))
    assert plan.targets == {"en:peanuts": "off_taxonomy_peanut", "en:gluten": "off_taxonomy_gluten"}
    assert plan.unmapped_entries == ("en:none", "en:kiwi")
    P, G = "off_taxonomy_peanut", "off_taxonomy_gluten"
    assert [(s.text, s.canonical_id, s.lang, s.region, s.type, s.source) for s in plan.synonyms] == [
        ("peanuts", P, "en", None, "OFF_TAXONOMY", "OFF"),
        ("peanut", P, "en", None, "OFF_TAXONOMY", "OFF"),
        ("arachide", P, "fr", None, "OFF_TAXONOMY", "OFF"),
        ("pinda", P, "nl", "BE", "OFF_TAXONOMY", "OFF"),
        ("花生", P, "zh", None, "OFF_TAXONOMY", "OFF"),
        ("gluten", G, "en", None, "OFF_TAXONOMY", "OFF"),
        ("vete", G, "sv", None, "OFF_TAXONOMY", "OFF"),
    ]
    assert not any(s.text in ("none", "no", "aucun") for s in plan.synonyms)
    assert [i.id for i in plan.ingredients] == [P, G]


def test_an_off_name_is_its_allergen_for_sure_and_every_other_one_possibly() -> None:
    """OFF lists names that contain an allergen, not recipes ('Sesambrötchen' also holds wheat): never clean."""
    ing = off_ingredient("SESAME")
    assert ing.id == "off_taxonomy_sesame" and ing.category == "off_taxonomy"
    assert ing.allergens["SESAME"] is RiskLevel.DEFINITE
    assert {c: lvl for c, lvl in ing.allergens.items() if c != "SESAME"} == {
        c: RiskLevel.POSSIBLE for c in ALLERGEN_CODES if c != "SESAME"}


def test_with_the_ontology_the_plan_leaves_out_names_it_already_reads_and_function_words() -> None:
    """'Eiern' is our egg through an inflection: as an OFF name (every other allergen POSSIBLE) it would make 'Kann
    Spuren von Eiern enthalten' name every allergen. Estonian 'oder' (barley) is German 'or', Romanian 'ou' (egg)
    French 'or'. Without an ontology the plan keeps every name."""
    tax = parse_taxonomy("en: eggs\nde: Eiern, Zorbei\nro: ou\n\nen: gluten\net: oder\n", "t.txt")
    onto = load_data_dir()
    plan = plan_import(tax, onto)
    assert [s.text for s in plan.synonyms] == ["eggs", "Zorbei", "gluten"]  # an existing key: the store decides
    assert sorted(s.text for s in plan.already_read) == ["Eiern", "oder", "ou"]
    assert [s.text for s in plan_import(tax).synonyms] == ["eggs", "Eiern", "Zorbei", "ou", "gluten", "oder"]


# ------------------------------------------------------------------------------------------------ import


def test_import_into_a_store_adds_names_without_overriding(taxonomy_path: Path, tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'off.sqlite'}") as store:
        before = store.ontology()
        report = import_taxonomy(store, read_taxonomy_file(taxonomy_path))
        after = store.ontology()
        # nothing that existed changed meaning
        for key, syns in before.synonyms.items():
            assert after.synonyms[key] == syns, key
        own_names = {f"off taxonomy {c.lower().replace('_', ' ')}" for c in ALLERGEN_CODES}  # ingredient ids as names
        added_keys = set(after.synonyms) - set(before.synonyms) - own_names
        assert report.added == len(added_keys) > 500
        assert sum(c.added for c in report.languages) == report.added
        assert sum(c.skipped for c in report.languages) == report.skipped
        off = [s for k in added_keys for s in after.synonyms[k]]
        assert {(s.type, len(after.synonyms[s.key])) for s in off} == {("OFF_TAXONOMY", 1)}
        # every added name carries the allergen of its OFF entry as DEFINITE, and no other allergen as clean
        target_code = {t: OFF_TO_CODE[e] for e, t in report.targets.items()}
        assert len(target_code) == 14
        for s in off:
            levels = {p.code: p.level for p in after.allergen_paths(s.canonical_id)}
            assert levels[target_code[s.canonical_id]] is RiskLevel.DEFINITE
            assert set(levels) == set(ALLERGEN_CODES)
        # the "none" block is not an allergen
        assert not after.lookup("aucun allergene") and not after.lookup("sans allergenes")
        st = store.stats()
        assert st.synonyms_by_source["OFF"] == report.added
        again = import_taxonomy(store, read_taxonomy_file(taxonomy_path))
        assert again.added == 0 and again.ontology_version == report.ontology_version


def test_after_the_import_statements_keep_their_scope_and_french_lines_stay_masked(
    taxonomy_path: Path, tmp_path: Path
) -> None:
    with open_store(f"sqlite:///{tmp_path / 'off.sqlite'}") as store:
        import_taxonomy(store, read_taxonomy_file(taxonomy_path))
        ont = store.ontology()
        trace = check_label("Zucker, Salz. Kann Spuren von Eiern und Schalenfrüchten enthalten.", ["FISH"], ont)
        assert trace.verdict == "SAFE", trace.review_reasons
        assert check_label("Zucker, Salz. Kann Spuren von Eiern enthalten.", ["EGG"], ont).verdict != "SAFE"
        heat = "sucre, sel. Réchauffer au bain-marie ou au micro-ondes et bien mélanger."
        assert check_label(heat, ["EGG"], ont).verdict == "SAFE"
        heat = "Zucker, Salz. Im Backofen oder in der Pfanne 5 Minuten erhitzen."
        assert check_label(heat, ["GLUTEN"], ont).verdict == "SAFE"


def test_an_off_only_name_never_makes_a_label_safe(taxonomy_path: Path, tmp_path: Path) -> None:
    """'Sesambrötchen' (a sesame roll: wheat too) comes only from OFF: SESAME is found, WHEAT stays undecided."""
    with open_store(f"sqlite:///{tmp_path / 'off.sqlite'}") as store:
        assert store.ontology().lookup("sesambrotchen") == []  # not in the shipped data (else this test is moot)
        import_taxonomy(store, read_taxonomy_file(taxonomy_path))
        ont = store.ontology()
        assert [s.canonical_id for s in ont.lookup("sesambrotchen")] == ["off_taxonomy_sesame"]
        assert check_label("Sesambrötchen", ["SESAME"], ont).verdict == "AVOID"
        for profile in (["WHEAT"], ["GLUTEN"], ["PEANUT"]):
            assert check_label("Sesambrötchen, Salz", profile, ont).verdict == "VERIFY", profile


def test_an_imported_joined_word_vetoes_a_reading_only_with_what_it_surely_names(tmp_path: Path) -> None:
    """OFF's "wheatflour" is gluten and, as an OFF name, every other allergen at POSSIBLE — a doubt of the import,
    not knowledge of the word: "organic whole wheat flour" stays wheat flour (SAFE for a peanut allergy), while a
    split "wheat flour" is never read without the gluten the joined word names."""
    with open_store(f"sqlite:///{tmp_path / 'off.sqlite'}") as store:
        import_taxonomy(store, parse_taxonomy("en: gluten, wheatflour\n", "t.txt"))
        ont = store.ontology()
    assert [s.canonical_id for s in ont.lookup("wheatflour")] == ["off_taxonomy_gluten"]
    assert check_label("sugar, organic whole wheat flour, salt", ["PEANUT"], ont).verdict == "SAFE"
    assert check_label("sugar, organic whole wheat flour, salt", ["GLUTEN"], ont).verdict == "AVOID"
