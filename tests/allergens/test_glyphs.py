"""OCR glyph readings (:mod:`dinecheck.allergens.glyphs`) and how the pipeline uses them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dinecheck.allergens.glyphs import MAX_SITES, letter_readings, readings
from dinecheck.allergens.normalize import normalize
from dinecheck.allergens.ontology import load_data_dir
from dinecheck.allergens.pipeline import check_label
from dinecheck.allergens.tokenize import tokenize

ONTO = load_data_dir()


@pytest.mark.parametrize(("key", "expected"), [
    ("sa1t", {"salt", "sait"}),
    ("wheat fl0ur", {"wheat flour"}),
    ("5ugar", {"sugar"}),
    ("sonnenblumeno1", {"sonnenblumenol", "sonnenblumenoi"}),
    ("rnilk", {"milk"}),
    ("turrneric", {"turmeric"}),
    ("cocoa rnass", {"cocoa mass"}),
])  # fmt: skip
def test_a_digit_among_letters_and_a_leading_rn_are_read_as_letters(key: str, expected: set[str]) -> None:
    assert set(readings(key)) == expected


@pytest.mark.parametrize("key", ["e1520", "100g", "vitamin b12", "omega 3", "corn", "kernel", "stern", "a1", "2x5"])
def test_numbers_codes_and_real_spellings_have_no_glyph_reading(key: str) -> None:
    """A word with another digit, an additive code, a vitamin, "rn" after a vowel, a word of fewer than two letters."""
    assert readings(key) == ()


def test_a_key_with_too_much_damage_has_no_reading() -> None:
    damaged = " ".join(["sa1t"] * (MAX_SITES + 1))
    assert readings(damaged) == ()
    assert readings(" ".join(["sa1t"] * MAX_SITES))


def test_loose_readings_put_back_every_confusable_digit() -> None:
    assert "sole" in readings("50le", loose=True)
    assert readings("50le") == ()


@given(st.text(alphabet="abcilmnors015 ", max_size=24), st.booleans())
def test_readings_are_bounded_and_only_change_glyphs(key: str, loose: bool) -> None:
    found = readings(key, loose)
    assert len(found) <= 2 ** (MAX_SITES + 1)
    def glyphs(text: str) -> int:
        return sum(ch.isdigit() for ch in text) + text.count("rn")

    for reading in found:  # the same words, each reading with fewer glyphs than the key
        assert reading.count(" ") == key.count(" ")
        assert glyphs(reading) < glyphs(key)


@pytest.mark.parametrize(("text", "name"), [
    ("Water, sa1t", "salt"), ("Water, wheat fl0ur", "wheat flour"), ("Cocoa rnass, sugar", "cocoa mass"),
    ("5ugar, water", "sugar"), ("Turrneric, salt", "turmeric"),
])  # fmt: skip
def test_a_damaged_name_is_read_with_its_glyphs_put_back(text: str, name: str) -> None:
    res = [r for r in normalize(tokenize(text), ONTO) if r.rule == "glyphs"]
    assert len(res) == 1 and res[0].key == name


@pytest.mark.parametrize(("text", "profile", "verdict"), [
    ("Water, sa1t", "PEANUT", "SAFE"),
    ("Skimmed rnilk powder, salt", "MILK", "AVOID"),
    ("Water, m1lk", "MILK", "AVOID"),  # "mllk" is nothing, "milk" is milk
    ("Water, so1a", "SOY", "AVOID"),  # "sola" / "soia": soy in Italian
    ("Water, peanu1s", "PEANUT", "VERIFY"),  # neither reading is a name: unknown
    ("Water, 50le", "FISH", "VERIFY"),  # a note of an amount? it may be sole
    ("Water, we15", "FISH", "VERIFY"),  # "we" and a number? it may be wels, a catfish
    ("Water, copos de trig0 y salvado", "MILK", "VERIFY"),  # kept whole like the name it damages (milk POSSIBLE)
    ("Water, oat c1usters with nuts", "MILK", "VERIFY"),
    ("Water, vegetab1e gurn", "SOY", "VERIFY"),  # "gurn" may be gum (an "rn" after a vowel is doubted, not read)
])  # fmt: skip
def test_glyph_readings_never_lose_an_allergen(text: str, profile: str, verdict: str) -> None:
    assert check_label(text, [profile], ONTO).verdict == verdict


def test_a_glyph_reading_is_shown_among_the_reasons() -> None:
    r = check_label("Water, sa1t", ["PEANUT"], ONTO)
    assert r.verdict == "SAFE"
    assert r.review_reasons == ("'sa1t' was read as 'salt': a digit or an \"rn\" that OCR prints for a letter, put back",)


# what a red-team helper found SAFE in the eighth round (told what the round added, nothing of the measured data):
# a damaged allergen word where a mask or a note decides what to ignore — a timed instruction, a storage or operator
# statement's tail, an instruction's bracket, an origin line that dropped the digits inside a word — and, with no
# damage at all, a suitability claim running on into the next item ("Suitable for vegetarians milk chocolate")
RED_TEAM_EIGHTH = [
    ("Rice, pean1ts roasted at 180C for 10 min", "PEANUT"), ("Rice, a1monds toasted at 160C for 8 min", "TREE_NUTS"),
    ("Rice, 5almon cooked for 10 min at 180C", "FISH"), ("Rice, egg5 cooked for 10 min at 180C", "EGG"),
    ("Rice, m1lk pasteurised at 72C for 15 sec", "MILK"), ("Reis, M1lch 5 Minuten kochen lassen", "MILK"),
    ("Rice, pean1t Foods Ltd", "PEANUT"), ("Sugar, salt, keep refrigerated 5almon", "FISH"),
    ("Rice, sugar, keep frozen 5hrimp", "SHELLFISH"), ("Rice, SUGAR. KEEP REFRIGERATED M1LK", "MILK"),
    ("Rice, sugar. Once opened consume within 3 days pean1ts", "PEANUT"),
    ("Rice, sugar. Store in a cool dry place hazelnut5", "TREE_NUTS"), ("Rice, sugar. Use by: see lid 5almon", "FISH"),
    ("Rice, sugar. Shake well m1lk drink", "MILK"), ("Rice, sugar. Packed by: ACME Foods, pean1ts", "PEANUT"),
    ("Riz, sucre. À conserver au frais 1ait", "MILK"),
    ("Reis, Zucker. Nach dem Öffnen im Kühlschrank aufbewahren M1lch", "MILK"),
    ("Arroz, azúcar. Conservar en lugar fresco y seco 1eche", "MILK"),
    ("Riso, zucchero. Conservare in luogo fresco e asciutto 1atte", "MILK"),
    ("Rice, sugar. Cook in the oven for 20 min (with b0tter)", "MILK"),
    ("Rice, sugar. Cook in the oven for 20 min (with 5almon)", "FISH"),
    ("Rice, sugar. Heat 200 ml m1lk for 2 minutes", "MILK"), ("Sugar, cocoa. Add m1lk to taste", "MILK"),
    ("Rice, sugar. Serving suggestion: serve with 5almon", "FISH"), ("Rice, salt. Made in the UK with 0at5", "GLUTEN"),
    ("Water, salt. Made in Italy with pest0", "MILK"), ("Water, salt. Made in Italy with pest0", "TREE_NUTS"),
    ("Potatoes, salt. Made in Italy con 501a", "SOY"),
    ("Chocolate (cocoa, sugar), Product of Brazil and brazil5", "TREE_NUTS"),
    ("Rice, water. Made in Spain with 5a15a cesar", "EGG"),
    ("Potatoes, salt. Caught in the Atlantic with 5a1the", "FISH"), ("Rice. Made in Turkey with 51mit", "SESAME"),
    ("Rice. Made in Italy with mit110", "MOLLUSCS"), ("Rice. Suitable for vegetarians milk chocolate", "MILK"),
    ("Rice, sugar. Suitable for vegetarians butter", "MILK"), ("Rice. Suitable for home freezing milk", "MILK"),
    ("Rice, sugar. Suitable for vegetarians m1lk powder", "MILK"), ("Rice, sugar, suitable for coeliacs wheat", "GLUTEN"),
    ("Rice, sugar. Keep refrigerated 5a1mon m1lk 0at5 hazelnut5.", "MILK"),  # too many glyphs to weigh: doubted
]  # fmt: skip


@pytest.mark.parametrize(("text", "profile"), RED_TEAM_EIGHTH)
def test_what_the_eighth_red_team_found_is_never_safe(text: str, profile: str) -> None:
    assert check_label(text, [profile], ONTO).verdict != "SAFE"


@pytest.mark.parametrize("text", ["Rice. Suitable for vegetarians.", "Rice, sugar. Suitable for vegetarians and vegans.",
                                  "Rice. Adapté aux végétariens.", "Rice, salt. Made in the UK.",
                                  "Rice, sugar. Keep refrigerated 0-5C.", "Rice, sugar. Packed by: ACME Foods, Leeds.",
                                  "Rice. Suitable for people with milk allergy.",
                                  "Riz. Convient aux personnes intolérantes au lactose."])
def test_the_same_lines_undamaged_and_clean_stay_safe(text: str) -> None:
    assert check_label(text, ["MILK", "PEANUT", "GLUTEN"], ONTO).verdict == "SAFE", check_label(text, ["MILK"], ONTO)


@pytest.mark.parametrize(("key", "expected"), [
    ("sodlum", {"sodium"}),
    ("miik", {"milk", "mlik", "mllk"}),
    ("oil", set()),  # a word of fewer than four letters
    ("vitamin b12", {"vltamin b12", "vitamln b12", "vltamln b12"}),  # only words of letters
])  # fmt: skip
def test_an_l_and_an_i_are_read_for_each_other(key: str, expected: set[str]) -> None:
    assert set(letter_readings(key)) == expected


def test_too_many_letters_to_swap_give_no_reading() -> None:
    assert letter_readings("lilli lilli") == ()


@given(st.text(alphabet="abcilmos ", max_size=24))
def test_letter_readings_change_only_an_l_or_an_i(key: str) -> None:
    for reading in letter_readings(key):
        assert len(reading) == len(key) and reading != key
        assert all(a == b or {a, b} == {"l", "i"} for a, b in zip(key, reading, strict=True))


@pytest.mark.parametrize(("text", "profile", "verdict"), [
    ("Water, sodlum benzoate", "PEANUT", "SAFE"),
    ("Sugar, vlnegar, modifled starch", "PEANUT", "SAFE"),
    ("Sugar, miik solids", "MILK", "AVOID"),  # "milk"
    ("Sugar, 0at flakes", "GLUTEN", "AVOID"),  # a digit at the start of a word of three characters
    ("Sugar, sunflower 0il", "PEANUT", "SAFE"),
    ("Sugar, whlte", "MILK", "VERIFY"),  # "white" alone names no food: still unknown
])  # fmt: skip
def test_a_name_misread_by_its_letters_is_read_and_keeps_its_allergens(text: str, profile: str, verdict: str) -> None:
    r = check_label(text, [profile], ONTO)
    assert r.verdict == verdict
    if text.startswith("Water, sodlum"):
        assert "'sodlum benzoate' was read as 'sodium benzoate'" in " ".join(r.review_reasons)


class _LiveView:
    """A ``dict.get``-like view of the synonyms, as a database answers them (no memo, no iteration by the pipeline)."""

    def __init__(self, table: dict) -> None:
        self._table = table

    def get(self, key: str, default=None):
        return self._table.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self._table

    def __getitem__(self, key: str):
        return self._table[key]

    def starting_with(self, prefix: str) -> list[str]:
        return [k for k in self._table if k.startswith(prefix)]


class _LiveOntology:
    """The shipped ontology asked through a live view (what a store without its cache does)."""

    memo = None
    phrase_index = None

    def __init__(self, onto) -> None:
        self._onto = onto
        self.synonyms = _LiveView(onto.synonyms)

    def __getattr__(self, name: str):
        return getattr(self._onto, name)


@pytest.mark.parametrize(("text", "profile"), [("Water, sodlum benzoate", "PEANUT"), ("Sucre, Paim d'épices, sel", "GLUTEN"),
                                                ("Sugar, miik solids", "MILK")])  # fmt: skip
def test_a_letter_reading_is_the_same_through_a_live_view_of_a_database(text: str, profile: str) -> None:
    """The names one edit from a word are looked up one by one, so a store asked per token reads as its cache does."""
    assert check_label(text, [profile], _LiveOntology(load_data_dir())).verdict == check_label(text, [profile], ONTO).verdict
