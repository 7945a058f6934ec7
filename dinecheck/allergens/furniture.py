"""Label furniture: the text printed around an ingredient list that is not an ingredient (pure; the vocabulary is
``data/label_furniture.toml``, written from the labelling rules it cites, never from label text).

It owns the *what*: statements masked to the end of their item, sentences (advisories, operator and contact lines)
and instructions masked to the end of their sentence, short origin lines, nutrition tables after their heading, and
items that are exactly a mark or a diet ("UHT", "kosher", "vegans"). :mod:`phrases` applies them on the folded text
(it also makes sure no mask ever hides a word that names an allergen) and :mod:`tokenize` turns the note items into
notes.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import regex

from dinecheck.allergens.text import lookup_key

_TIMEOUT = 1.0
# an amount with a unit ("31g", "2250 kJ", "< 0,5 g", "6%"), or a US panel's "Calories 120"
_AMOUNT = regex.compile(r"(?<![^\W_])[<>~≤≥]?\s?\d+(?:[.,]\d+)?\s?(?:kcal|kj|cal|mg|µg|mcg|g|ml|%)(?![^\W\d_])"
                        r"|\bcalories? \d+")  # never the digits of a word: "E1105 2g" keeps its E1105
_ROW_PUNCT = regex.compile(r"[()\[\]/:*+=≈]")
# an organic control body code (EU 2018/848 Art. 32: "FR-BIO-01", "DE-ÖKO-006", "ES-ECO-020"), lookup-key form
_CONTROL_CODE = re.compile(r"^[a-z]{2} (?:bio|oko|eco|org|bio org) \d{2,3}\b")
_CODE_LINE_WORDS = frozenset({"agriculture", "agricultura", "agricoltura", "landwirtschaft", "ue", "eu", "non", "no",
                              "nicht", "hors", "et", "and", "y", "e", "und", "uk", "gb", "ch", "france", "italia",
                              "italy", "espana", "spain", "deutschland", "germany", "schweiz", "suisse"})  # fmt: skip
# a pack count ("4 x 20g bags", "6 x 330 ml", "10 sachets", "20 tea bags", "20 Beutel à 1,5 g")
_PACK_UNITS = (r"(?:tea |coffee )?(?:bags?|sachets?|packs?|portions?|pots?|cans?|bottles?|capsules?|pods?|sticks?|"
               r"servings?|tablets?|pieces?|beutel|teebeutel|kapseln|portionen|stuck|tabletten|dosettes?|bustine|"
               r"filtri|capsule|sobres|bolsitas|capsulas|unidades|pezzi|unites)")
_PACK = re.compile(r"\d+ ?x ?\d+(?:[.,]\d+)? ?(?:g|ml|cl|l|kg)\b(?: " + _PACK_UNITS + r")?$"
                   r"|\d+ " + _PACK_UNITS + r"(?: (?:a|x|of|de|di|je|zu je|of each) \d+(?:[.,]\d+)? ?(?:g|ml))?$")
# where a product was made, alone before a claim of absence took the rest ("Made in a factory that | does not handle
# nuts", "Fabriqué dans un atelier qui | ne manipule pas …"): the site, no ingredient (folded keys)
_SITE_LEAD = re.compile(
    r"(?:(?:made|produced|manufactured|packed|prepared|baked|processed) )?(?:in|on) (?:a|an|the) (?:dedicated )?"
    r"(?:facility|factory|plant|site|bakery|kitchen|line)(?: (?:that|which))?"
    r"|(?:(?:fabrique|produit|conditionne|prepare|elabore)e?s? )?dans (?:un|une|le|la) (?:atelier|usine|site)(?: qui)?")
# a number standing as a word ("FAO 27", "UHT 3.5"), never digits inside one ("0at5" may be oats, "we15" wels)
_NUMBER_WORD = regex.compile(r"(?<![^\W\d_])\d+(?:[.,]\d+)*(?![^\W\d_])")


@dataclass(frozen=True)
class Furniture:
    """The vocabulary, in lookup-key form."""

    statements: tuple[str, ...]
    checked_statements: tuple[str, ...]  # statements masked only up to a "with" and when every word after is read
    sentences: tuple[str, ...]
    advisories: tuple[str, ...]  # sentences masked only when every word is read
    instructions: tuple[str, ...]
    instruction_cues: frozenset[str]
    origin_leads: tuple[str, ...]
    places: frozenset[str]
    regions: frozenset[str]
    places_longest_first: tuple[str, ...]
    joined_places: tuple[str, ...]  # places whose name holds "and", "et", "und" … ("trinidad and tobago")
    origin_words: frozenset[str]
    nutrition_heads: frozenset[str]
    nutrition_words: frozenset[str]
    notes: frozenset[str]
    heat_grades: frozenset[str]  # "MILD", "mittelscharf": notes only where they stand on their own (pipeline)
    physical_hazards: frozenset[str]
    ingredient_headers: tuple[str, ...]
    function_words: frozenset[str]
    quantity_words: frozenset[str]
    instruction_finals: frozenset[str]
    words: frozenset[str]  # every word of every entry above: the vocabulary of text around a list
    open_notes: frozenset[str]  # notes that announce what follows them ("less than"): never the end of a list
    place_words: frozenset[str]  # every word of the places, countries and regions ("l'ariana": also "lariana")


@lru_cache(maxsize=1)
def furniture() -> Furniture:
    """The shipped vocabulary (read once)."""
    raw = tomllib.loads((resources.files("dinecheck.allergens") / "data" / "label_furniture.toml").read_text("utf-8"))

    def keys(name: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(lookup_key(x) for x in raw.get(name, ())))

    # the hand-written leads, then the helper-written ones merged by scripts/merge_furniture.py
    # a nutrition heading is a statement too (the table after it is masked by the phrase reader)
    statements = tuple(dict.fromkeys((*keys("statements"), *keys("statements_general"), *keys("nutrition_heads"))))
    sentences = tuple(dict.fromkeys((*keys("sentences"), *keys("sentences_general"))))
    # German and Dutch put the infinitive first too ("Aufbacken bei 200 °C"); one that is a statement already
    # ("lagern", masked to the end of its item wherever it stands) stays one
    first_infinitives = [k for k in keys("instruction_finals") if k not in {*statements, *sentences}]
    return Furniture(
        statements=statements,
        checked_statements=keys("checked_statements"),
        sentences=sentences,
        advisories=keys("advisories"),
        instructions=tuple(dict.fromkeys((*keys("instructions"), *first_infinitives))),
        instruction_cues=frozenset(keys("instruction_cues")),
        origin_leads=keys("origin_leads"),
        places=frozenset((*keys("places"), *keys("countries"))),
        regions=frozenset(keys("regions")),  # ISO 3166-2 subdivisions: places in an origin line only
        # the fishing areas, found inside a longer origin line ("trawled in the northeast atlantic fao 27")
        places_longest_first=tuple(sorted(keys("places"), key=len, reverse=True)),
        joined_places=tuple(sorted((p for p in (*keys("places"), *keys("countries"))
                                    if _PLACE_JOINS.search(p, timeout=_TIMEOUT)), key=len, reverse=True)),
        origin_words=frozenset(keys("origin_words")),
        nutrition_heads=frozenset(keys("nutrition_heads")),
        nutrition_words=frozenset(lookup_key(w) for w in raw["nutrition_words"].split()),
        notes=frozenset((*keys("notes"), *keys("heat_grades"))),
        heat_grades=frozenset(keys("heat_grades")),
        physical_hazards=frozenset(keys("physical_hazards")),
        ingredient_headers=keys("ingredient_headers"),
        function_words=frozenset(lookup_key(w) for w in raw["function_words"].split()),
        quantity_words=frozenset(lookup_key(w) for w in raw["quantity_words"].split()),
        instruction_finals=frozenset(keys("instruction_finals")),
        words=frozenset(w for name, value in raw.items() if name not in ("countries", "regions")
                        for entry in (value.split() if isinstance(value, str) else value)
                        for w in lookup_key(entry).replace("'", " ").split()),  # fmt: skip
        open_notes=frozenset(keys("open_notes")),
        place_words=frozenset(w for name in ("places", "countries", "regions") for entry in raw.get(name, ())
                              for key in (lookup_key(entry),)
                              for w in (*key.replace("'", " ").split(), *key.replace("'", "").split())),  # fmt: skip
    )


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """English words that name no food (``data/common_words_en.txt``, written by ``scripts/vocabulary/common_words.py``
    from general word lists filtered by WordNet: "tray", "surfaces", "utensils", "stirring"). Only what lets an
    instruction be masked (:func:`~dinecheck.allergens.normalize.unknown_words`); they never resolve an ingredient."""
    text = (resources.files("dinecheck.allergens") / "data" / "common_words_en.txt").read_text("utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def english_homographs() -> frozenset[str]:
    """English kitchen-utensil words that are food names of the ontology in other languages only
    (``data/english_homographs.txt``, written by ``scripts/vocabulary/english_homographs.py``: "pan", Spanish bread).
    Only what lets an English instruction's "frying pan" be no mention of bread (:mod:`phrases`)."""
    text = (resources.files("dinecheck.allergens") / "data" / "english_homographs.txt").read_text("utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


# what makes the word after it an English kitchen noun: a cookware word of a fixed compound ("frying pan", "non-stick
# pan", "roasting pan", "cast iron pan"; never a bare determiner — "transfer the pan to …" could hold any word — nor
# an adjective that also makes a dish: "deep pan" is a pizza base) — or an English verb after it ("pan fry")
COOKWARE_WORDS = frozenset({"frying", "stick", "nonstick", "baking", "roasting", "grill", "griddle", "saute", "sauce",
                            "omelette", "omelet", "crepe", "iron", "wok"})  # fmt: skip
ENGLISH_VERBS_AFTER = frozenset({"fry", "fried", "frying", "sear", "seared", "searing"})
# a vessel something goes into or comes out of: an English preposition of place, then an article or a possessive
# ("in a pan", "into the pan", "to a pan of boiling water", "from your pan")
ENGLISH_INTO = frozenset({"in", "into", "to", "onto", "from", "out"})
ENGLISH_ARTICLES = frozenset({"a", "an", "the", "your"})
# the closed-class words that may follow such a noun in English ("a frying pan of water", "the frying pan on a low heat")
ENGLISH_AFTER = frozenset({"the", "of", "and", "with", "into", "until", "for", "from", "to", "your", "then", "over",
                           "on", "in", "at", "or", "without", "is"})  # fmt: skip
# the function words of the other label languages (folded): prose holding one is no English prose
OTHER_MARKERS = frozenset({"de", "del", "la", "las", "los", "el", "y", "con", "para", "por", "le", "les", "du", "des",
                           "et", "avec", "pour", "au", "aux", "un", "une", "il", "lo", "gli", "di", "della", "dello",
                           "delle", "per", "nel", "nella", "der", "die", "das", "und", "mit", "fur", "im", "dem", "den",
                           "ein", "eine", "auf", "zum", "zur", "en", "dans", "sur"})  # fmt: skip


def opens_sentence(t: str, start: int, end: int) -> str | None:
    """Where the words ``t[start:end]`` stand when they open a sentence (``"sentence"``) or an item after a comma
    (``"item"``) and are followed by a word other than "of" (so "Spread (…)" and "Mix of seeds" stay names); None
    otherwise. ``t`` is folded text (masked characters are ``\\x1f``)."""
    k = start - 1
    while k >= 0 and t[k] == " ":
        k -= 1
    if k >= 0 and t[k] not in ".!?\n:\x1f,;":
        return None
    rest = t[end : end + 4]
    if len(rest) < 2 or rest[0] != " " or rest[1] in " (:,;[" or rest.startswith(" of "):
        return None
    return "item" if k >= 0 and t[k] in ",;" else "sentence"


# abbreviations a period does not end a sentence after (company forms, "No.", "approx.")
_ABBREVIATIONS = frozenset({"inc", "ltd", "co", "corp", "llc", "plc", "st", "no", "nr", "bv", "sa", "ag", "pvt", "mfd",
                            "mkd", "lic", "max", "min", "ca", "approx", "gmbh", "kg", "srl", "spa", "sas", "sarl",
                            "ltda", "sl", "nv", "str"})  # fmt: skip


# German writes an ordinal number with a period ("ab dem 6. Monat", "am 3. Tag", "bis zum 4. Lebensjahr"): after
# one of these articles and prepositions, one or two digits and a period end no sentence
_ORDINAL_LEAD = regex.compile(r"(?<![^\W\d_])(?:dem|den|der|am|im|vom|zum|ab|bis|nach|vor|seit) \d{1,2}$")


def _german_ordinal(t: str, i: int) -> bool:
    return t[i - 1 : i].isdigit() and _ORDINAL_LEAD.search(t, max(0, i - 12), i) is not None


_NEXT_WORD = regex.compile(r" *([^\W\d_]+|\d)")


def _goes_on(t: str, i: int) -> bool:
    """Whether the sentence goes on after an abbreviation's period at ``i - 1``: a comma, a number or another
    abbreviation follows ("Acme Pvt. Ltd., Pune", "approx. 5 g", "No. 12"); before any other word the period may
    end the sentence ("Acme Foods Pvt. Ltd. Peanuts, sugar.", "microwave for 2 min. Stir.")."""
    if t[i] == ",":
        return True
    m = _NEXT_WORD.match(t, i)
    return m is not None and (m.group(1).isdigit() or m.group(1) in _ABBREVIATIONS)


def sentence_end(t: str, start: int, limit: int) -> int:
    """End of the sentence from ``start`` (``. ! ?`` not between digits nor after an abbreviation such as "Inc.",
    "Ltd." or a dotted "S.r.l.", or a new line), never past an ingredients header, at most ``limit``."""
    headers = furniture().ingredient_headers
    i = start
    while i < limit:
        c = t[i]
        if c == "\n" or c in "!?":
            return i
        if c == ".":
            if 0 < i < len(t) - 1 and t[i - 1].isdigit() and t[i + 1].isdigit():
                i += 1
                continue
            if i + 1 < len(t) and t[i + 1].isalnum():
                i += 1  # "acme.com", "e.g": not a sentence end
                continue
            if _german_ordinal(t, i):
                i += 1  # "Ab dem 6. Monat": the period of a German ordinal number
                continue
            j = i
            while j > start and t[j - 1].isalpha():
                j -= 1
            after = i + 1 < len(t) and t[i + 1] in " ," and _goes_on(t, i + 1)
            dotted = 0 < i - j <= 2 and j > start and t[j - 1] == "."  # "S.L.", "S.r.l.", "B.V.", "S.p.A."
            if not (after and (dotted or (0 < i - j <= 4 and t[j:i] in _ABBREVIATIONS))):
                return i
        elif c.isalpha() and (i == 0 or not t[i - 1].isalnum()) and t.startswith(headers, i):
            return i
        i += 1
    return limit


_QUANTITY_LEAD = regex.compile(r"\d+(?:[.,]\d+)?\s?(?:g|gr|kg|ml|cl|grammes?|grams?|gramm|gramos|grammi)\b")


def quantity_lead(before: str) -> bool:
    """Whether the words before "per 100 g" state an amount ("prepared with 35 g of fruit")."""
    return _QUANTITY_LEAD.search(before, timeout=_TIMEOUT) is not None


def instruction(sentence: str, after_comma: bool = False) -> bool:
    """Whether a sentence opening with an instruction verb reads as an instruction: it holds a cue word (a time,
    an appliance, a moment …) or, at the start of a sentence, is at most three words without a comma. After a comma
    ("Once opened, refrigerate and use within 3 days") only a cue will do."""
    words = sentence.replace("'", " ").split()
    if not after_comma and len(words) <= 3 and "," not in sentence:
        return True
    cues = furniture().instruction_cues
    return any(w.strip(",:;()") in cues for w in words) or "°" in sentence or "º" in sentence


_PERCENT_WORD = regex.compile(r"\d+(?:[.,]\d+)?\s?%")
_PLACE_JOINS = regex.compile(r"\s+(?:and|et|und|y|e|&)\s+|\s*,\s*|\s*/\s*")
_PLACE_BRACKETS = str.maketrans({"(": " / ", "[": " / ", ")": " ", "]": " "})  # "Pacific Ocean (FAO 71)": a place too
_PLACE_ARTICLES = ("the ", "l'", "la ", "le ", "les ", "der ", "die ", "el ", "los ", "il ", "lo ")


def origin_line(rest: str, modifiers: Mapping[str, str]) -> bool:
    """Whether the words after an origin lead ("made in …", "caught in …") are places only: each part (joined by
    and/et/und/y/e, commas or slashes, an article allowed) is an origin of the ontology or a place of the furniture
    data (fishing areas), or — word by word — origin wording ("from at least 90% Australian ingredients")."""
    f = furniture()
    text = _PERCENT_WORD.sub(" ", rest.strip(" .:/|"), timeout=_TIMEOUT)  # "Made in Italy / Fabriqué en …"
    text = text.translate(_PLACE_BRACKETS).strip(" /")
    for place in f.joined_places:  # "Trinidad and Tobago" is one place: its joins are no list
        if place in text:
            text = text.replace(place, place.replace(" ", "_").replace(",", "~"))
    parts = [p.strip().replace("_", " ").replace("~", ",") for p in _PLACE_JOINS.split(text, timeout=_TIMEOUT)]
    if not parts or not all(parts):
        return False
    for part in parts:
        for lead in f.origin_leads:  # the same line in another language: "Product of Canada / Produit du Canada"
            if part.startswith(lead + " "):
                part = part[len(lead) + 1 :]
                break
        for article in _PLACE_ARTICLES:
            if part.startswith(article) and modifiers.get(part) is None:
                part = part[len(article) :]
                break
        if modifiers.get(part) == "modifier_origin" or part in f.places or part in f.regions:
            continue
        for place in f.places_longest_first:  # "trawls in the northeast atlantic fao 27": multiword places first
            if place in part:
                part = part.replace(place, " ")
        if not _origin_words(_NUMBER_WORD.sub(" ", part, timeout=_TIMEOUT).split(), modifiers):
            return False
    return True


MAX_ORIGIN_GRAM = 4


def _origin_words(words: list[str], modifiers: Mapping[str, str]) -> bool:
    """Whether ``words`` are, longest group first, origins of the ontology, places or origin wording ("new zealand
    from local", "the western central pacific": a name of several words counts as one)."""
    f = furniture()
    i = 0
    while i < len(words):
        for size in range(min(MAX_ORIGIN_GRAM, len(words) - i), 0, -1):
            gram = " ".join(words[i : i + size])
            if (modifiers.get(gram) == "modifier_origin" or gram in f.places or gram in f.regions
                    or gram in f.origin_words):  # fmt: skip
                i += size
                break
        else:
            return False
    return True


_NUMBER = regex.compile(r"(?<![^\W_])[<>~≤≥]?\s?\d+(?:[.,]\d+)?(?![^\W_])")


def nutrition_row(item: str) -> bool:
    """A row of a nutrition or mineral-analysis table: at least one amount (with a unit, or a bare number: the unit
    is in the heading, "mg/l"), and otherwise only nutrition words."""
    if not any(ch.isdigit() for ch in item):
        return False
    rest = _AMOUNT.sub(" ", item, timeout=_TIMEOUT)
    rest = _NUMBER.sub(" ", rest, timeout=_TIMEOUT)
    words = _ROW_PUNCT.sub(" ", rest, timeout=_TIMEOUT).split()
    return all(w in furniture().nutrition_words for w in words)


# an amount in a unit of mass or energy ("3.2g", "250 kcal", "0,03 g"): a percentage is how ingredient lists give shares
_MASS_OR_ENERGY = regex.compile(r"(?<![^\W_])\d+(?:[.,]\d+)?\s?(?:kcal|kj|mg|µg|mcg|g)(?![^\W\d_])")
_CALORIES = regex.compile(r"(?<![^\W_])calories \d+(?![^\W\d_])")  # the US panel's energy row: "Calories 350"
# words of a nutrition row that name no nutrient (units, articles, "of which", "per", "daily value" …)
_ROW_FILLER = frozenset({"mg", "g", "µg", "mcg", "ml", "l", "la", "le", "les", "the", "a", "of", "which", "per", "dont",
                         "davon", "de", "las", "cuales", "di", "cui", "en", "at", "source", "incl", "includes",
                         "added", "total", "daily", "value", "dv", "ri", "reference", "intake", "serving", "portion",
                         "waarvan", "al", "litro", "por", "par", "pro", "liter", "litre", "mg/l", "kcal", "kj",
                         "cal"})  # fmt: skip


def nutrition_item(key: str) -> bool:
    """A nutrition-table row standing alone, its heading lost ("Fat 3.2g", "Kohlenhydrate 12 g", "20g PROTEIN"): an
    amount in a unit of mass or energy, a nutrient word, and nothing but nutrition words. The caller makes sure no word
    of it names an allergen (a note that does is read as an ingredient: "Lactose < 0.1 g")."""
    if not nutrition_row(key):
        return False
    if _CALORIES.search(key, timeout=_TIMEOUT) is not None:
        return True
    if _MASS_OR_ENERGY.search(key, timeout=_TIMEOUT) is None:
        return False
    rest = _NUMBER.sub(" ", _AMOUNT.sub(" ", key, timeout=_TIMEOUT), timeout=_TIMEOUT)
    return any(w not in _ROW_FILLER for w in _ROW_PUNCT.sub(" ", rest, timeout=_TIMEOUT).split())


_AREA = re.compile(r"^(?:(?:zone|zona|area|fao|fao area|the)\s)*")


def verb_final_instruction(key: str) -> bool:
    """A German or Dutch instruction, verb last ("in der pfanne 5 minuten goldbraun braten"): the key ends with an
    infinitive of ``instruction_finals`` and holds a cue word, or is at most three words. The caller makes sure no
    word of it names an allergen."""
    f = furniture()
    words = key.split(" ")
    if len(words) < 2 or not (words[-1] in f.instruction_finals or " ".join(words[-2:]) in f.instruction_finals):
        return False
    return len(words) <= 3 or any(w in f.instruction_cues for w in words)


# a cooking or waiting time ("6 8 min" once the hyphen is folded, "12 minutes", "2 stunden") and a heat
# ("170c", "200 °c", "gas 6", "800w") in a lookup key
_COOK_TIME = regex.compile(r"(?<![^\W_])\d+(?:[.,]\d+)?(?: (?:to |a |bis |à )?\d+(?:[.,]\d+)?)? ?(?:mins?|minutes?|minuten|"
                           r"minutos|minuti|secs?|seconds?|secondes?|sekunden|segundos|secondi|hrs?|hours?|heures?|"
                           r"stunden?|horas?|ore)(?![^\W_])")
_HEAT = regex.compile(r"(?<![^\W_])\d+ ?(?:°|º)? ?[cf](?![^\W_])|(?<![^\W_])\d+ ?(?:w|watts?)(?![^\W_])"
                      r"|(?<![^\W_])gas(?: mark)? \d")
MAX_INSTRUCTION_WORDS = 30


def timed_instruction(key: str) -> bool:
    """A preparation instruction by what only instructions say, whatever its first word ("deep fry from frozen at
    170c for 6 8 min", "fischstabchen unaufgetaut 8 10 min in der pfanne"): a cooking time and a heat or another
    instruction cue (an appliance, a state such as frozen, a moment), in at most 30 words. The caller makes sure no
    word of it names an allergen."""
    words = key.split(" ")
    if len(words) > MAX_INSTRUCTION_WORDS or not any(ch.isdigit() for ch in key):
        return False
    time = _COOK_TIME.search(key, timeout=_TIMEOUT)
    if time is None:
        return False
    if _HEAT.search(key, timeout=_TIMEOUT) is not None:
        return True
    rest = (key[: time.start()] + " " + key[time.end() :]).split()
    cues = furniture().instruction_cues
    return any(w in cues for w in rest)


def only_function_words(key: str) -> bool:
    """A key made only of articles, prepositions, conjunctions, pronouns, negations, the copula or unit symbols
    (``function_words``): a fragment of prose, never an ingredient name by itself."""
    words = furniture().function_words
    return bool(key) and all(w in words for w in key.split(" "))


# the one-word legal forms of a company name (UK Companies Act, US state law, the German, French and Italian codes;
# dotted forms such as "S.A." are cut by the tokenizer at their periods)
_LEGAL_FORMS = frozenset({"ltd", "limited", "llc", "inc", "incorporated", "plc", "corp", "corporation", "gmbh",
                          "sarl", "srl"})  # fmt: skip


def operator_name(key: str) -> bool:
    """A company name left alone in a list ("Greenfield Larder Ltd", "Acme Foods GmbH"): two to six words, the last a
    legal form. The caller makes sure no word of it names an allergen."""
    words = key.split(" ")
    return 2 <= len(words) <= 6 and words[-1] in _LEGAL_FORMS


def is_place(key: str) -> bool:
    """A fishing area or a country alone ("Zone FAO 27", "Océano Índico", "Serbia"): provenance."""
    f = furniture()
    bare = _AREA.sub("", key)
    return key in f.places or bare in f.places or (bool(bare) and f"fao {bare}" in f.places)


def is_note_item(key: str) -> bool:
    """An item that is exactly a mark, a diet or a processing state ("UHT", "kosher", "vegans"), its numbers aside
    ("Serves 2", "UMF 10+"), an organic control code line ("FR-BIO-01 Agriculture UE"), or the site a claim of absence
    leaves alone ("Made in a factory that")."""
    notes = furniture().notes
    if key in notes or _SITE_LEAD.fullmatch(key) is not None:
        return True
    if any(ch.isdigit() for ch in key) and (
            " ".join(_NUMBER_WORD.sub(" ", key, timeout=_TIMEOUT).replace("+", " ").split()) in notes
            or _PACK.match(key)):  # fmt: skip
        return True
    m = _CONTROL_CODE.match(key)
    return m is not None and all(w in _CODE_LINE_WORDS for w in key[m.end() :].replace("/", " ").split())
