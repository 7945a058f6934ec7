"""Tokenisation of an ingredient label into ingredient tokens with their spans (stage 2 of the allergen pipeline).

Rules (each one is tested in ``tests/allergens/test_tokenize.py``):

* Separators: ``,`` (not a decimal comma between digits), ``;``, sentence ends ``.`` (not a decimal point), ``!``,
  ``?``, new lines, ``•``, ``|``, a dash surrounded by spaces (``a - b``), and any text masked by the risk-phrase
  stage.
* Brackets ``( ) [ ] { }`` nest: the parent and every sub-ingredient are tokens, each with its span. Text that follows
  a closing bracket in the same segment is a token of its own. Nesting deeper than :data:`MAX_DEPTH` is flattened.
* ``class: value`` — every part before a colon is a token of role ``"class"`` (``emulsifier: soy lecithin`` → both);
  "Ingredients:" headers in the five languages are dropped.
* Conjunctions ``and & et und y e ou or``, ``/`` and joiners (``with``, ``including``, ``dont``, ``davon``…) split a
  segment into tokens unless the whole segment is a known name (the optional ``known`` predicate, e.g. "sweet and
  sour sauce").
* Percentages (``52%``, ``17,5 %``, ``<2%``, ``14% minimum``), emphasis marks (``*``, ``_x_``, ``¹``, ``™``) and
  leading "of which/with/made from" words are removed from the token text; CAPITALS are folded by the lookup key.
  A one-letter abbreviation starting an item ("L. acidophilus") is not a sentence end.
* E-numbers are canonicalised: ``E 322``, ``E-322``, ``e322`` → ``e322``; ``E 150 d``/``E150(d)`` → ``e150d``; a
  trailing E-number after a class word (``thickener E415``) becomes its own token.
* Provenance and organic-farming notes (``origine France``, ``*aus biologischer Landwirtschaft``) and purpose clauses
  made only of purpose words (``to protect color``, ``for freshness``, ``as a preservative``) are tokens of role
  ``"note"``: they are reported but not looked up (normalisation looks a note up after all when one of its words
  names an allergen). A trailing note is split off its ingredient (``Pomme origine
  France`` → ``Pomme`` + note; ``sodium benzoate as a preservative`` → ``sodium benzoate`` + note). Plant-part,
  form and farming words alone (``(Leaf)``, ``(Whole Plant)``, ``Powder``, ``en flocons``, ``ORGANIC``) are notes too.
* A vitamin letter (``E``, ``B12``) under a vitamins parent or class (``vitamines (B2, E)``, ``vitaminas: D2, E``)
  gets the key ``vitamin e``/``vitamin b12``.
* HTML tags/comments and CSS rules pasted into a label (``<!--td {border: 1px solid #ccc;}``), web and e-mail
  addresses are separators.
* Quantity statements ("187 g de viande utilisés pour 100 g de produit", "prepared with 50 g of fruit per 100 g")
  are notes.

Input is bounded (:data:`MAX_LABEL_CHARS`); every regular expression is linear and runs with a timeout (single
character classes use the standard ``re``, which cannot backtrack on them). Text-only analysis of a token is cached;
with ``plans`` (kept per ontology by the pipeline) the tokens of a repeated item text are planned once and replayed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple

import regex

from dinecheck.allergens.furniture import furniture, is_note_item, nutrition_item, only_function_words, quantity_lead
from dinecheck.allergens.text import lookup_key
from dinecheck.errors import OntologyError

MAX_LABEL_CHARS = 100_000
MAX_DEPTH = 32
_TIMEOUT = 1.0

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(")]}")
_HARD_SEPARATORS = frozenset(";\n\r•|!?\x1f")
_MASK = "\x1f"

HEADER_KEYS = frozenset(
    {"ingredients", "ingredient", "ingredient list", "ingredients list", "list of ingredients", "ingrediants",
     "ingredients and allergens", "ingredientes", "ingrediente", "ingredienti", "ingrediente/i", "zutaten",
     "zutatenliste", "ingredienten", "composition", "ingredients composition"}
)  # fmt: skip

_PERCENT = regex.compile(
    r"(?:(?:at least|au moins|mindestens)\s+)?"  # never "max"/"min" before a number: "Glycine max 2%" is soy
    r"[<>≤≥~]?\s*\d+(?:[.,]\d+)?\s*(?:%|percent\b|pct\b)"
    r"(?:\s*(?:minimum|min\.?|maximum|max\.?|mindestens|minimo|mínimo"
    r"|alc\.?\s*/?\s*vol\.?|vol\.?|alc\.?|abv)(?![^\W\d_]))?",  # an alcoholic strength: "12,5 % vol" (EU 1169/2011 Annex XII)
    regex.V0 | regex.IGNORECASE,
)
_EMPHASIS = regex.compile(r"[*¹²³⁴⁵⁶⁷⁸⁹⁰†‡°\"“”«»™®©]+|(?<!\w)_+|_+(?!\w)")
_LEAD_WORDS = regex.compile(
    r"^(?:(?:dont|including|incl\.?|inkl\.?|davon|of which|di cui|de los cuales|incluant|including the following|with|"
    r"avec|mit|con|from|aus|made from|made with|prepared with|prepared from|"
    # where a share stands (Directive 2000/36/EC: "Kakao: 30 % mindestens in der Milchschokolade", "cacao : 30 %
    # minimum dans le chocolat au lait")
    r"in der|in dem|im|in the|dans le|dans la|dans les|nel|nella|en el|en la)\s*:?\s+)+",
    regex.IGNORECASE,
)
_CONJ = regex.compile(
    r"\s+(?:and/or|et/ou|und/oder|y/o|e/o|and|et|und|ou|or|&|(?:y|e)(?=\s+[^\d\s])"
    r"|including|incl\.|(?:preserved|protected|stabili[sz]ed) (?:with|by)|with|enriched with|avec|mit|con|containing"
    r"|contenant|dont|davon|di cui)\s+|\s*/\s*|\s+&\s*|(?<![^\W\d_])&\s+|(?<![^\W\d_]{1,2})&(?![^\W\d_])",
    regex.IGNORECASE,
)
_CONJ_QUICK = re.compile(
    r"[&/]|\s(?:and|et|und|y|e|ou|or|including|incl\.|with|by|avec|mit|con|containing|contenant|dont|davon|di)\s",
    re.IGNORECASE,
)
_E_NUMBER = regex.compile(r"^e ?(\d{3,4}) ?(?:\(? ?([a-h]|i{1,3}|iv|v|vi) ?\)?)?$")
_TRAILING_E = regex.compile(r"\s(e\s?-?\s?\d{3,4}(?:\s?\(?[a-h]\)?|i{1,3})?)[\W_]*$", regex.IGNORECASE)
_MARKUP = regex.compile(
    r"<!--|-->|</?[a-zA-Z][a-zA-Z0-9]{0,15}(?::[a-zA-Z][a-zA-Z0-9]{0,15})?(?:\s[^<>]{0,200})?/?>"
    r"|[a-zA-Z][\w.#-]{0,40}\s?\{(?:\s?[a-zA-Z-]{1,40}\s?:\s?[^;{}]{1,80};)+\s?\}"
)
# web and e-mail addresses printed with the list (a contact line, never an ingredient): separators
_ADDRESS = regex.compile(r"(?:https?://|www\.)[^\s,;()\[\]]{1,200}|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,5}")
_E_SUBLETTER = regex.compile(r"(?<![^\W\d_])([eE] ?-? ?\d{3,4})\(([a-hA-H])\)")
_ENTITY = regex.compile(r"&[a-z]{2,8};|&#\d{1,6};", regex.IGNORECASE)
_NOTE = regex.compile(
    r"^(?:origine?|origin|country of origin|pays d'origine|provenance|herkunft|procedencia|origen|provenienza)\b"
    r"|^(?:produits? |ingredients? )?(?:issus?|issues?|provenant) de l'agriculture biologique$"
    r"|^(?:aus )?(?:kontrolliert )?(?:biologischer|okologischer) landwirtschaft$"
    r"|^(?:(?:aus|von) )?(?:kontrolliert )?(?:biologischem|okologischem) anbau$"
    r"|^(?:from |of )?(?:certified )?organic (?:farming|agriculture|origin)$"
    r"|^(?:de |procedente de )?(?:agricultura|cultivo) ecologic[oa]$|^da agricoltura biologica$"
    r"|^(?:in|en) (?:varying|variable|varied|unknown|variables?) (?:proportions?|quantities)$"
    r"|^en proportions? variables?$|^in wechselnden anteilen$"
    r"|^(?:verifie |certified )?rainforest alliance\b|^fair ?trade\b|^commerce equitable$"
    r"|^(?:vegetarian|vegan|vegetarien|vegetarienne|vegetalien|vegetalienne|vegetariano|vegano)$"
    r"|^(?:aop|aoc|igp|dop|doc|docg|igt|pdo|pgi|gga|g\.?g\.?a\.?|g\.?u\.?|d\.?o\.?p\.?|i\.?g\.?p\.?)$"
)


# purpose clauses ("to protect color", "for freshness", "as a preservative") are notes only when every word is one of
# these — so a note can never hide an ingredient name
_PURPOSE_FIRST = ("to ", "for ", "as a ", "as an ", "as ", "pour ", "used as a ", "added as a ", "added to ",
                  "used to ", "used for ", "added for ", "si necessaire pour ", "if necessary to ")  # fmt: skip
_PURPOSE_WORDS = frozenset(
    {"protect", "preserve", "maintain", "prevent", "retain", "promote", "keep", "improve", "help", "color", "colour",
     "flavor", "flavour", "freshness", "fresh", "separation", "caking", "moisture", "quality", "texture", "crispness",
     "and", "or", "the", "its", "of", "a", "an", "preservative", "preservatives", "antioxidant", "acidulant",
     "stabilizer", "stabiliser", "emulsifier", "thickener", "coating", "anticaking", "agent", "carrier", "leavening",
     "dough", "conditioner", "whitening", "acidity", "regulator", "sweetener", "colouring", "coloring", "browning",
     "nutrient", "nutrients", "enrichment", "fortification", "product", "la", "fraicheur", "conserver", "couleur",
     "reguler", "l'acidite", "acidite", "le", "gout", "regulate", "adjust",
     # the functions 21 CFR 101.22(j) asks a US chemical preservative to state
     "retention", "retard", "retards", "spoilage", "rancidity", "discoloration", "discolouration", "oxidation",
     "darkening", "shelf", "life", "extend", "clumping", "sticking", "foaming", "firmness", "crisp", "aid"}
)  # fmt: skip
_PART_WORDS = frozenset(
    {"leaf", "leaves", "root", "roots", "stem", "stems", "stalk", "stalks", "flower", "flowers", "bulb", "bark",
     "rhizome", "thallus", "whole", "plant", "aerial", "parts", "hull", "floret", "florets", "taproot", "peel",
     "fruit", "fruits", "berry", "berries", "powder", "extract", "herb", "needle", "needles", "resin", "gum", "petals",
     "organic", "bio", "biologique", "biologiques", "organique", "certified", "en", "in", "flocons", "poudre", "flakes",
     "pieces", "morceaux", "chunks", "slices", "tranches", "granules", "dried", "pulver", "stucke", "stuckchen"}
)  # fmt: skip
_VITAMIN_LETTER = re.compile(r"^[a-k](?:\d{1,2})?$")
_VITAMIN_CONTEXT = ("vitamin", "vitamine", "vitamina", "vitamins", "vitamines", "vitaminas", "vitamine", "vitamini")
_SHARED_LEADS = ("de ", "d'", "di ", "del ", "della ", "des ", "du ")
_PURPOSE_FIRST_WORDS = frozenset(p.split(" ", 1)[0] for p in _PURPOSE_FIRST)
_TRAILING_NOTE_WORDS = (" as ", " to ", " for ", " used ", " added ", "origin", "herkunft", "provenance", "procedencia",
                        "provenienza", "proportion", "quantities", "anteilen", " aop", " aoc", " igp", " dop",
                        " doc", " igt", " pdo", " pgi", " gga", " g.g.a", " g.u", " d.o.p", " i.g.p")  # fmt: skip
# any of the words (literal alternatives: the standard ``re`` tries each at each position, no backtracking)
_TRAILING_NOTE_WORD = re.compile("|".join(map(re.escape, _TRAILING_NOTE_WORDS)))
_LETTER = re.compile(r"[^\W\d_]")  # single character classes cannot backtrack: stdlib re
_INS_NUMBER = re.compile(r"1\d{2,3}|[2-9]\d{2}")  # the range of the E-numbers (E100–E1521)
_TRAILING_NOTE = regex.compile(
    r"\s+(?:(?:as an?|to|for|used as an?|added as an?)\s[^;()]*"
    r"|(?:origine?|origin|herkunft|provenance|procedencia|provenienza)\b[^;()]*"
    r"|(?:in|en) (?:varying|variable|varied|unknown|variables?) (?:proportions?|quantities)"
    r"|en proportions? variables?|in wechselnden anteilen"
    r"|(?:aop|aoc|igp|dop|doc|docg|igt|pdo|pgi|g\.?g\.?a\.?|g\.?u\.?|d\.?o\.?p\.?|i\.?g\.?p\.?))"
    r"(?:\s*[<>]?\s*\d+(?:[.,]\d+)?\s*%)?\s*$",
    regex.IGNORECASE,
)


def is_purpose_note(key: str) -> bool:
    """A purpose clause made only of purpose words ("to protect color", "as a preservative") — never an ingredient."""
    first = key.split(" ", 1)[0]
    if first not in _PURPOSE_FIRST_WORDS:
        return False
    for lead in _PURPOSE_FIRST:
        if key.startswith(lead):
            words = key[len(lead) :].split()
            return bool(words) and all(w.strip(".:") in _PURPOSE_WORDS for w in words)
    return False


def is_part_note(key: str) -> bool:
    """Which part of a plant, or in what form ("(Leaf)", "(Whole Plant)", "(powder)"): a note about the name before it
    — inside its brackets; alone in a list it is what is left of a name ("…, whole" of whole milk, "flower" for flour),
    and normalisation reads it as an ingredient there."""
    return key.split(" ", 1)[0] in _PART_WORDS and all(w in _PART_WORDS for w in key.split(" "))


def _is_purpose_note(key: str) -> bool:
    return is_part_note(key) or is_purpose_note(key)


_NOTE_FIRST = frozenset(
    {"origine", "origin", "country", "pays", "provenance", "herkunft", "procedencia", "origen", "provenienza",
     "produit",
     "produits", "ingredient", "ingredients", "issu", "issus", "issue", "issues", "provenant", "aus", "kontrolliert",
     "biologischer", "okologischer", "von", "from", "of", "certified", "organic", "de", "procedente", "agricultura",
     "cultivo", "da", "in", "en", "verifie", "rainforest", "fair", "fairtrade", "commerce", "vegetarian", "vegan",
     "aop", "aoc", "igp", "dop", "doc", "docg", "igt", "pdo", "pgi", "gga", "g.g.a.", "g.u.", "d.o.p.", "i.g.p.",
     "vegetarien", "vegetarienne", "vegetalien", "vegetalienne", "vegetariano", "vegano"}
)  # fmt: skip


_DIGIT = re.compile(r"\d")
# a quantity statement ("187 g de viande utilisés pour 100 g de produit", "prepared with 50 g of fruit per 100 g",
# "hergestellt aus 120 g Fleisch je 100 g"): an amount, then "per 100 g/ml" in one of the five languages. A note
# (looked up after all when one of its words names an allergen, like every note)
# "7 œufs frais au kilo de semoule": a count of a food per kilogram of another (egg pasta) leads such a statement too
_PER_KILO_PATTERN = r"\b(?:per|par|pro|por|au|al|a|the) (?:1 ?)?(?:kilo|kg|kilogrammes?|kilograms?|kilogramm|chilo)\b"
_PER_HUNDRED = re.compile(r"\b(?:per|for|pour|je|pro|para|por|ogni|su|every|each|to make)(?: [^\W\d]+){0,3} 100 ?"
                          r"(?:g|gr|ml|grammes?|grams?|gramm|gramos|grammi)\b|" + _PER_KILO_PATTERN)  # fmt: skip
_PER_KILO = re.compile(_PER_KILO_PATTERN)
_COUNT_LEAD = re.compile(r"(?<![\d.,])\d{1,2} [^\W\d]")


_INNER_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")  # a hyphen between two letters ("Di-Glycerides")
# an amount alone ("50g", "2,5 %"): what is left of a quantity line once its "per 100 g" was masked
_AMOUNT_ONLY = re.compile(r"[<>~]?\s?\d+(?:[.,]\d+)?\s?(?:g|mg|µg|mcg|kg|ml|cl|l|kcal|kj|iu)(?: ?[e℮])?$")


# an additive's international number without its "E" (Codex INS; Australian and New Zealand labels print "472e",
# "preservative 220", "food acid (330)"; Indian, Gulf and South-East Asian labels "INS 330", "INS No. 211"): after a
# class word or "INS", or alone; its sub-letter is a to f ("148g" is an amount)
_INS = re.compile(r"(?:(?:preservatives?|antioxidants?|emulsifiers?|thickeners?|stabili[sz]ers?|colou?rs?|food acids?|"
                  r"acidity regulators?|raising agents?|flavou?r enhancers?|sweeteners?|humectants?|firming agents?|"
                  r"gelling agents?|anti ?caking agents?|mineral salts?|glazing agents?|acids?) \(?)?"
                  r"(?:ins ?(?:no\.? ?)?)?(1\d{2,3}|[2-9]\d{2})(?: ?\(?([a-f]|i{1,3}|iv|v|vi)\)?)?\)?$")
# a US certified colour (21 CFR 74): "FD&C Yellow No. 5", "Red 40 Lake", "D&C Red No. 33"
_US_COLOUR = re.compile(r"(?:f ?d ?& ?c |d ?& ?c )?(red|yellow|blue|green|orange|citrus red) (?:no\.? ?|#)?(\d{1,2})"
                        r"(?: (?:aluminum |aluminium )?lake)?$")
# a cooking time or temperature alone ("45 mins", "12-14 Minuten", "190C", "Fan 170C", "Gas 5", "800W")
_TIME_OR_HEAT = re.compile(r"(?:(?:fan|gas(?: mark)?|about|approx\.?|approximately|ca\.?|circa|environ|etwa|unos|for|at)"
                           r" )*\d+(?:[.,]\d+)?(?: ?(?:-|to|a|bis|à) ?\d+(?:[.,]\d+)?)? ?"
                           r"(?:mins?\.?|minutes?|minuten|minutos|minuti|secs?|seconds?|sekunden|segundos|secondi|"
                           r"hrs?|hours?|heures?|stunden?|horas?|ore|h|°c|°f|ºc|c|f|w|watts?|degrees)?$")
# a dose line of a supplement ("2 comprimés par jour", "1 capsule daily", "3 Tabletten täglich")
_DOSE = re.compile(r"\d+(?:[.,]\d+)? ?(?:tablets?|capsules?|caps|comprimes?|gelules?|tabletten?|kapseln?|comprimidos?"
                   r"|capsulas?|compresse|compressa|sachets?|scoops?|dosettes?|softgels?)\b")


def is_quantity_note(key: str) -> bool:
    """A quantity statement: an amount, and "per 100 g/ml" (a few words may sit between: "pour la préparation de")."""
    m = _PER_HUNDRED.search(key) if _has_digit(key) else None
    if m is None:
        return False
    rest = key[: m.start()] + " " + key[m.end() :]
    return quantity_lead(rest) or (_PER_KILO.fullmatch(m.group()) is not None and _COUNT_LEAD.search(rest) is not None)


_QUANTITY_GAP = re.compile(r"\d+(?:[.,]\d+)?(?:g|gr|kg|ml|cl|l|%)?|%")


def quantity_names(key: str) -> tuple[str, ...]:
    """The words of a quantity statement that are neither amounts nor its wording (furniture ``quantity_words``):
    each run of them in order, the function words between them kept ("187 g de viande utilisés pour la préparation
    de 100 g de saucisson sec" → ``("viande", "saucisson sec")``)."""
    f = furniture()
    runs: list[list[str]] = [[]]
    for w in key.split(" "):
        if _QUANTITY_GAP.fullmatch(w) or w in f.quantity_words and w not in f.function_words or w in _UNIT_WORDS:
            runs.append([])
        else:
            runs[-1].append(w)
    out = []
    for run in runs:
        while run and run[0] in f.function_words:
            run.pop(0)
        while run and run[-1] in f.function_words:
            run.pop()
        if run:
            out.append(" ".join(run))
    return tuple(out)


_UNIT_WORDS = frozenset({"g", "gr", "kg", "mg", "ml", "cl", "l", "ppm", "mg/kg", "g/kg", "mg/l", "%", "gramm", "gramme",
                         "grammes", "gram", "grams", "gramos", "grammi"})  # fmt: skip


def _additive_numbers(key: str) -> str | None:
    """The E-number keys of the additive numbers a key of numbers and units holds ("220 224" → "e220 e224", "1105 20
    mg/kg" → "e1105"): every number of three or four digits in their range, when the rest are amounts and units."""
    words = key.replace("/100", " ").split()
    # a number with its unit after it is an amount ("100 g", "322 mg"), never a code
    numbers = [w for i, w in enumerate(words)
               if _INS_NUMBER.fullmatch(w) and (i + 1 == len(words) or words[i + 1] not in _UNIT_WORDS)]  # fmt: skip
    if not numbers or any(w not in _UNIT_WORDS and _QUANTITY_GAP.fullmatch(w) is None for w in words if w not in numbers):
        return None
    return " ".join("e" + n for n in numbers)


def _has_digit(text: str) -> bool:
    return _DIGIT.search(text) is not None


class Token(NamedTuple):
    """One ingredient mention (a named tuple: tokens are made by the ten thousand). ``span`` indexes the raw label text; ``parent`` is the index of the enclosing token
    (for sub-ingredients in brackets) or None; ``role`` is ``"ingredient"``, ``"class"`` or ``"note"``."""

    text: str
    key: str
    span: tuple[int, int]
    depth: int
    parent: int | None
    role: str = "ingredient"


_ASCII_KEY_TABLE = str.maketrans({"`": "'", "-": " ", "_": " "})  # the ASCII apostrophe and hyphens of lookup_key
_WHITE = re.compile(r"\s+")


def fast_lookup_key(text: str) -> str:
    """:func:`~dinecheck.allergens.text.lookup_key`, computed directly for ASCII text: there Unicode normalisation
    and accent folding change nothing and case folding is lower-casing, so only the apostrophe/hyphen unification
    and the white-space collapsing remain."""
    if text.isascii():
        return _WHITE.sub(" ", text.lower().translate(_ASCII_KEY_TABLE)).strip()
    return lookup_key(text)


@lru_cache(maxsize=65536)
def canonical_key(text: str) -> str:
    """The lookup key of a token: :func:`lookup_key`, with E-numbers in their data form (``E 150 d`` → ``e150d``)."""
    key = fast_lookup_key(text)
    if key[:1] == "e":
        m = _E_NUMBER.match(key.replace(" - ", " ").replace("-", ""))
        if m:
            return "e" + m.group(1) + (m.group(2) or "")
    return key


def ins_key(key: str) -> str | None:
    """The E-number key of a Codex INS code standing alone without its E ("307b", "1422", "322(i)"), or None."""
    m = _INS.match(key) if key[:1].isdigit() else None
    return f"e{m.group(1)}{m.group(2) or ''}" if m is not None else None


def e_number_base(key: str) -> str | None:
    """``e322i`` → ``e322``, ``e150d`` → ``e150``; None if ``key`` is not an E-number with a sub-letter."""
    m = _E_NUMBER.match(key)
    if m and m.group(2):
        return "e" + m.group(1)
    return None


def _starts_item(s: str, j: int) -> bool:
    """Whether position ``j`` begins an item: only spaces between it and the text start or a separator/bracket."""
    k = j - 1
    while k >= 0 and s[k] == " ":
        k -= 1
    return k < 0 or s[k] in ",;:([{"


def _is_sep(s: str, i: int) -> bool:
    c = s[i]
    if c in _HARD_SEPARATORS:
        return True
    if c == "," or c == ".":
        before = s[i - 1] if i > 0 else " "
        after = s[i + 1] if i + 1 < len(s) else " "
        if before.isdigit() and after.isdigit():
            return False  # a decimal comma or point
        # "…, L. acidophilus": a one-letter abbreviation starting an item is not a sentence end ("vitamin E." is)
        if c == "." and before.isupper() and after == " " and _starts_item(s, i - 1):
            return False
        if c == "." and before.isalpha() and after.isalpha() and _inside_dotted(s, i):
            return False  # "D.O.P.", "g.g.A.", "D.O.Ca.": one abbreviation
        # "Yellow No. 5": the abbreviation of "number" before a number is no sentence end
        return not (c == "." and s[i - 2 : i].lower() == "no" and s[i + 1 : i + 3].strip()[:1].isdigit())
    if c in "-–—" and 0 < i < len(s) - 1 and s[i - 1] == " " and s[i + 1] == " ":
        # "mono - and diglycerides": a dash before a conjunction belongs to a shared prefix, it separates nothing
        return _DASH_CONJ.match(s, i + 2) is None
    return False


# abbreviations of prose ("e.g.", "i.e.", German "z.B.", "d.h.", "u.a.", French "p.ex."): their periods part what
# they stand between, as they always did; only other dotted letters are one abbreviation
_PROSE_ABBREVIATIONS = frozenset({"e.g", "i.e", "z.b", "d.h", "u.a", "v.a", "o.a", "s.o", "u.u", "p.ex", "c.a.d"})
# a dotted abbreviation of one- and two-letter parts, at least one of one letter: a designation of origin or quality
# ("D.O.P.", "A.O.C.", "I.G.P.", "g.g.A.", "D.O.Ca.", "D.O.C.G.") or a country ("U.S.A."), read without its periods
_DOTTED = regex.compile(r"(?<![^\W\d_]|\.)(?:[^\W\d_]{1,2}\.)+[^\W\d_]{1,2}(?![^\W\d_])\.?")


def _inside_dotted(s: str, i: int) -> bool:
    """Whether the period at ``s[i]`` (a letter on each side) is inside a dotted abbreviation."""
    a = i
    while a > 0 and (s[a - 1].isalpha() or (s[a - 1] == "." and a > 1 and s[a - 2].isalpha())):
        a -= 1
    m = _DOTTED.match(s, a)
    return m is not None and m.end() > i and _dotted_abbreviation(m.group())


def _dotted_abbreviation(text: str) -> bool:
    parts = text.rstrip(".").split(".")
    return any(len(p) == 1 for p in parts) and text.rstrip(".").lower() not in _PROSE_ABBREVIATIONS


def _undot(m: regex.Match[str]) -> str:
    return m.group().replace(".", "") if _dotted_abbreviation(m.group()) else m.group()


_DASH_CONJ = re.compile(r"(?:and|et|und|y|e|ou|or|&)\s", re.IGNORECASE)
_SPECIAL = re.compile(r"[()\[\]{},.;\n\r•|!?\x1f\-–—]")
# 1 opening bracket, 2 closing bracket, 3 hard separator, 4 separator only in context ("," "." dashes)
_KIND = {**dict.fromkeys("([{", 1), **dict.fromkeys(")]}", 2), **dict.fromkeys(";\n\r•|!?\x1f", 3),
         **dict.fromkeys(",.-–—", 4)}  # fmt: skip


def _strip_span(s: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (s[start].isspace() or s[start] in ":.-–*_'\"“”«»,"):
        start += 1
    while end > start and (s[end - 1].isspace() or s[end - 1] in ":-–*_\"“”«»,"):
        end -= 1
    return start, end


_EMPHASIS_CHARS = frozenset("*¹²³⁴⁵⁶⁷⁸⁹⁰†‡°\"“”«»_™®©")
_LEAD_FIRST = frozenset({"dont", "including", "incl", "incl.", "inkl", "inkl.", "davon", "of", "di", "de", "incluant",
                         "with", "avec", "mit", "con", "from", "aus", "made", "prepared", "in", "im", "dans",
                         "nel", "nella", "en"})  # fmt: skip


def _clean(raw: str, lead: bool = True) -> str:
    """The text of a token (percentages, emphasis marks and edge punctuation removed; ``lead``: leading words such
    as "with", "including", "aus" too)."""
    text = raw
    if "%" in text or "percent" in text or "pct" in text:
        text = _PERCENT.sub(" ", text, timeout=_TIMEOUT)
    if not _EMPHASIS_CHARS.isdisjoint(text):  # marks vanish without a trace: "d'_orge_" → "d'orge"
        text = _EMPHASIS.sub("", text, timeout=_TIMEOUT)
    text = text.strip(" \t:.-–'\"=")
    if "." in text:
        text = _DOTTED.sub(_undot, text, timeout=_TIMEOUT)  # "Queso Manchego D.O.P" → "Queso Manchego DOP"
    first = text.split(" ", 1)[0].lower()
    if lead and (first in _LEAD_FIRST or first.rstrip(":") in _LEAD_FIRST):
        bare = _LEAD_WORDS.sub("", text, timeout=_TIMEOUT)
        # what is left must be more than prose: "con somé" may be "consomé" split by a space — kept whole, its words
        # joined are asked (a lead before function words only says nothing anyway)
        if not only_function_words(canonical_key(bare)):
            text = bare
    return " ".join(text.split()).strip(" :.-–'\"")


@lru_cache(maxsize=65536)
def _uncut(raw: str) -> tuple[str, str] | None:
    """``(text, key)`` of a token with its leading words kept, when cleaning removed some; None otherwise. A leading
    word may begin a longer name ("aus fairem Handel …", a modifier): when only the uncut text is known, it is read."""
    text = _clean(raw, lead=False)
    return (text, canonical_key(text)) if text != _clean(raw) else None


@lru_cache(maxsize=65536)
def _token_info(raw: str) -> tuple[str, str, bool, bool, bool, bool, bool] | None:
    """Everything about a token that depends on its text alone (cached: label batches repeat ingredient strings):
    ``(text, key, is_note, is_header, may_have_trailing_note, has_digit, is_vitamin_letter)``; None when empty."""
    text = _clean(raw)
    if not text:
        return None
    key = canonical_key(text)
    has_digit = _has_digit(key)
    if has_digit and (numbers := _additive_numbers(key)) is not None:
        # an additive's number alone or with its amount ("Preservative (220)", "emulsifiers 476, 322", "(471 322)",
        # "(1105 20 mg/kg)": Codex INS): a note keyed by its E-number(s), read like one when that names an allergen
        # (E1105 lysozyme: egg); any other is no ingredient
        return (text, numbers, True, False, False, True, False)
    if _LETTER.search(text) is None:
        return None
    first = key.split(" ", 1)[0]
    is_note = (first in _NOTE_FIRST and _NOTE.search(key, timeout=_TIMEOUT) is not None) or _is_purpose_note(key)
    if has_digit and (m := _US_COLOUR.match(key)) is not None:
        key = f"{m.group(1)} {m.group(2)}"  # "FD&C Yellow No. 5 Lake" → yellow 5 (a lake is the same colour, fixed)
    if has_digit and (m := _INS.match(key)) is not None:
        key = f"e{m.group(1)}{m.group(2) or ''}"  # "472e", "preservative 220": an additive code without its E
    if len(key) <= 3 and (key in ("i", "ii", "iii", "iv") or (len(key) == 1 and not _VITAMIN_LETTER.match(key))
                          or text.casefold() == "à"):  # fmt: skip
        is_note = True  # a letter left of an abbreviation ("D.O.", "S.L."), a roman numeral, a stray "à"
    # an amount with only the wording of a quantity statement ("100 g de produit fini élaboré") is a note too
    is_note = (is_note or is_note_item(key) or (has_digit and _TIME_OR_HEAT.match(key) is not None)
               or (has_digit and (is_quantity_note(key) or not quantity_names(key)
                                  or _AMOUNT_ONLY.match(key) is not None or _DOSE.match(key) is not None
                                  or nutrition_item(key))))  # fmt: skip
    may_trail = " " in key and _TRAILING_NOTE_WORD.search(key) is not None
    return (text, key, is_note, key in HEADER_KEYS, may_trail, has_digit,
            _VITAMIN_LETTER.match(key) is not None)  # fmt: skip


@lru_cache(maxsize=65536)
def _conj_cuts(raw: str) -> tuple[tuple[int, int], ...]:
    """The parts of ``raw`` between conjunctions (relative offsets); empty when there is no conjunction."""
    if _CONJ_QUICK.search(raw) is None:
        return ()
    parts, last = [], 0
    for m in _CONJ.finditer(raw, timeout=_TIMEOUT):
        parts.append((last, m.start()))
        last = m.end()
    if not parts:
        return ()
    parts.append((last, len(raw)))
    return tuple(parts)


# one planned token of an item text: (start, end) relative to the item, text, key, role, is a vitamin letter
_Planned = tuple[int, int, str, str, str, bool]
# the plan of an item text: its planned tokens and which of them :meth:`_Builder.own_text` returns (None: none)
_Plan = tuple[tuple[_Planned, ...], int | None]
# memory stays bounded: only item texts of at most MAX_PLAN_CHARS characters giving at most MAX_PLAN_TOKENS tokens are
# remembered, and at most MAX_PLANS of them; any other is planned afresh every time (same tokens)
MAX_PLAN_CHARS = 200
MAX_PLAN_TOKENS = 16
MAX_PLANS = 50_000


class _Builder:
    def __init__(
        self,
        s: str,
        known: Callable[[str], bool] | None,
        keeps: Callable[[str, str], bool] | None = None,
        plans: dict[str, _Plan] | None = None,
        splits: Callable[[str, tuple[str, ...]], bool] | None = None,
    ) -> None:
        self.s = s
        self.known = known
        self.keeps = keeps or (lambda _word, _reading: True)
        self.splits = splits
        self.plans = plans
        self.tokens: list[Token] = []
        self.planned: list[_Planned] = []  # the plan being recorded
        self.base = 0  # the offset its positions are relative to
        self.last_class: dict[int, str] = {}  # the latest class name per depth ("vitamins: A, D, E")

    def emit(self, start: int, end: int, role: str, shared: str | None = None) -> int | None:
        """Plan the token of ``[start, end)`` (its index in the plan, or None); ``shared`` is a known key read with a
        word shared across a conjunction ("sunflower and rapeseed oil" → ``sunflower oil``). What it plans depends on
        the item text alone (and the ``known``/``keeps`` predicates); :meth:`replay` adds the context."""
        start, end = _strip_span(self.s, start, end)
        if start >= end:
            return None
        raw = self.s[start:end]
        info = _token_info(raw)
        if info is None:
            return None
        text, key, is_note, is_header, may_trail, has_digit, vitamin_letter = info
        uncut = _uncut(raw) if self.known is not None else None
        if uncut is not None and self.known is not None and not self.known(key) and self.known(uncut[1]):
            text, key = uncut  # "aus fairem Handel gemahlener Kaffee": the leading word belongs to a modifier
        if role != "note" and is_note:
            role = "note"
        if is_header and role != "note":
            return None
        if role != "note" and may_trail and not (self.known and self.known(key)):
            m = _TRAILING_NOTE.search(raw, timeout=_TIMEOUT)
            if m and m.start() > 0:
                tail = canonical_key(_clean(m.group(0)))
                if _is_purpose_note(tail) or _NOTE.search(tail, timeout=_TIMEOUT):
                    head = self.emit(start, start + m.start(), role)
                    self.emit(start + m.start(), end, "note")
                    return head
        if role != "note" and has_digit and not (self.known and self.known(key)):
            m = _TRAILING_E.search(raw, timeout=_TIMEOUT)
            if m and _LETTER.search(_clean(raw[: m.start(1)])):
                self.emit(start, start + m.start(1), "class" if role == "ingredient" else role)
                return self.emit(start + m.start(1), end, role)
        if shared is not None:
            key = shared
        base = self.base
        self.planned.append((start - base, end - base, text, key, role, role == "ingredient" and vitamin_letter))
        return len(self.planned) - 1

    def replay(self, plan: _Plan, base: int, depth: int, parent: int | None) -> int | None:
        """Append the tokens of a plan made at offset ``base``; returns the token index the plan names."""
        tokens = self.tokens
        first = len(tokens)
        for a, b, text, key, role, vitamin_letter in plan[0]:
            if vitamin_letter:
                context = tokens[parent].key if parent is not None else self.last_class.get(depth, "")
                if context.split(" ", 1)[0] in _VITAMIN_CONTEXT:
                    key = f"vitamin {key}"  # "vitamines (B2, E)", "vitaminas: D2, E": the letter names a vitamin
            if role == "class":
                self.last_class[depth] = key
            tokens.append(Token(text, key, (base + a, base + b), depth, parent, role))
        return None if plan[1] is None else first + plan[1]

    def conj_parts(self, start: int, end: int) -> list[tuple[int, int]]:
        """Split ``[start, end)`` on conjunctions unless the whole text is a known name."""
        raw = self.s[start:end]
        cuts = _conj_cuts(raw)
        if not cuts:
            return [(start, end)]
        whole = canonical_key(_clean(raw))
        if (self.known is not None and self.known(whole)) or _is_purpose_note(whole) or is_quantity_note(whole):
            return [(start, end)]
        uncut = _uncut(raw.strip())
        if self.known is not None and uncut is not None and self.known(uncut[1]):
            return [(start, end)]
        if self.known is not None and "-" in raw and self.known(canonical_key(_clean(_INNER_HYPHEN.sub("", raw)))):
            return [(start, end)]  # "Mono- and Di-Glycerides of Fatty Acids": the name with its hyphens joined
        parts = [(start + a, start + b) for a, b in cuts]
        if self.splits is not None:
            infos = [_token_info(self.s[a:b].strip()) if b > a else None for a, b in parts]
            if not self.splits(whole, tuple(i[1] for i in infos if i is not None)):
                return [(start, end)]  # a name spanning the conjunction carries an allergen no part carries
        return parts

    def distribute(self, parts: list[tuple[int, int]]) -> list[str | None]:
        """Keys for conjunction parts that share words with a neighbour, when the shared reading is a known name that
        keeps the part's allergens: "sunflower and rapeseed oil" → sunflower oil; "ascorbic and citric acid" →
        ascorbic acid; "huile de tournesol et de colza" → huile de colza; "graines de moutarde jaune et brune" →
        graines de moutarde brune. None keeps a part as it is."""
        out: list[str | None] = [None] * len(parts)
        if self.known is None:
            return out
        infos = [_token_info(self.s[a:b].strip()) if b > a else None for a, b in parts]
        keys = [i[1] if i is not None else "" for i in infos]
        last = keys[-1].split(" ")
        for n, key in enumerate(keys[:-1]):  # a lone word before a "… head" part takes the head
            if key and " " not in key and len(last) >= 2:
                candidate = f"{key} {last[-1]}"
                if self.known(candidate) and self.keeps(key, candidate):
                    out[n] = candidate
        for n in range(1, len(keys)):  # "de colza" after "huile de tournesol" takes "huile"
            key, prev = keys[n], keys[n - 1]
            lead = next((w for w in _SHARED_LEADS if key.startswith(w)), None)
            if lead is None:
                if out[n] is None and key and " " not in key and prev.count(" ") >= 1:
                    # "graines de moutarde jaune et brune" → graines de moutarde brune
                    candidate = f"{prev.rsplit(' ', 1)[0]} {key}"
                    if self.known(candidate) and self.keeps(key, candidate):
                        out[n] = candidate
                continue
            head = next((prev[: i] for w in _SHARED_LEADS if (i := prev.find(" " + w)) > 0), None)
            if head:
                candidate = f"{head} {key}"
                if self.known(candidate) and self.keeps(key, candidate):
                    out[n] = candidate
        return out

    def run(self) -> None:
        """Split the text into segments and tokenise each as soon as it ends, in one pass over the special
        characters. Brackets open child segments whose parent is the token of the text before the bracket; text that
        follows a closing bracket in the same segment is a token of its own. Iterative, so deep nesting cannot
        recurse."""
        s = self.s
        n = len(s)
        stack: list[tuple[int, int | None, int | None]] = []  # enclosing segments: (depth, parent, owner)
        depth, parent, owner = 0, None, None  # the current segment; ``owner`` is the parent of its next child group
        last = 0  # start of the current run of own text
        for m in _SPECIAL.finditer(s):
            i = m.start()
            c = s[i]
            kind = _KIND[c]
            if kind == 1:  # an opening bracket
                if len(stack) < MAX_DEPTH:
                    if i > last:  # the text before the bracket is the parent of what the brackets hold
                        owner = self.own_text(last, i, depth, parent)
                    stack.append((depth, parent, parent if owner is None else owner))
                    depth, parent = depth + 1, owner
                    owner = parent
                    last = i + 1
                    continue
            elif kind == 2:  # a closing bracket
                if stack:
                    if i > last:
                        self.own_text(last, i, depth, parent)
                    depth, parent, owner = stack.pop()
                    last = i + 1
                    continue
            elif kind == 4:  # "," "." or a dash: separators only in context
                if c == ",":
                    if 0 < i < n - 1 and s[i - 1].isdigit() and s[i + 1].isdigit():
                        continue  # a decimal comma
                elif not _is_sep(s, i):
                    continue  # a decimal point, an abbreviation, a hyphen inside a word: part of the run
            if i > last:  # a separator (or a bracket beyond MAX_DEPTH / unmatched): the segment ends
                self.own_text(last, i, depth, parent)
            owner = parent
            last = i + 1
        if n > last:
            self.own_text(last, n, depth, parent)

    def own_text(self, start: int, end: int, depth: int, parent: int | None) -> int | None:
        """Class names before colons, then conjunction parts; returns the index of the last token emitted. The plan
        of an item text is remembered in ``plans`` (label batches repeat item texts)."""
        plans = self.plans
        if plans is None or end - start > MAX_PLAN_CHARS:
            return self.replay(self.plan(start, end), start, depth, parent)
        raw = self.s[start:end]
        plan = plans.get(raw)
        if plan is None:
            plan = self.plan(start, end)
            if len(plans) < MAX_PLANS and len(plan[0]) <= MAX_PLAN_TOKENS:
                plans[raw] = plan
        return self.replay(plan, start, depth, parent)

    def plan(self, start: int, end: int) -> _Plan:
        """The plan of ``[start, end)``, offsets relative to ``start``."""
        self.planned = []
        self.base = start
        last = self._plan(start, end)
        return tuple(self.planned), last

    def _plan(self, start: int, end: int) -> int | None:
        s = self.s
        pieces: list[tuple[int, int, str]] = []
        cursor = start
        # a footnote introduced by " *word" starts a note token
        foot = None
        i = s.find("*", start + 1, end - 1)
        while i != -1:
            if s[i - 1].isspace() and s[i + 1].isalpha():
                foot = i
                break
            i = s.find("*", i + 1, end - 1)
        body_end = foot if foot is not None else end
        colon = s.find(":", cursor, body_end)
        while colon != -1:
            pieces.append((cursor, colon, "class"))
            cursor = colon + 1
            colon = s.find(":", cursor, body_end)
        pieces.append((cursor, body_end, "ingredient"))
        last: int | None = None
        for a, b, role in pieces:
            parts = self.conj_parts(a, b)
            keys = self.distribute(parts) if len(parts) > 1 else [None]
            for (pa, pb), shared in zip(parts, keys, strict=True):
                idx = self.emit(pa, pb, role, shared)
                if idx is not None:
                    last = idx
        if foot is not None:
            idx = self.emit(foot, end, "ingredient")
            last = idx if idx is not None else last
        return last


def tokenize(
    text: str,
    masks: Iterable[tuple[int, int]] = (),
    known: Callable[[str], bool] | None = None,
    keeps: Callable[[str, str], bool] | None = None,
    plans: dict | None = None,
    splits: Callable[[str, tuple[str, ...]], bool] | None = None,
) -> tuple[Token, ...]:
    """Split a label into tokens. ``masks`` are raw-text spans already consumed by risk phrases (treated as
    separators); ``known(key)`` says whether a whole conjunction-bearing segment is itself a known name;
    ``keeps(word, reading)`` whether a shared-word reading keeps every allergen of the word alone ("eel and soy
    sauce" must not become "eel sauce" if that drops FISH); ``splits(whole, parts)`` whether reading an unknown
    conjunction-bearing segment as its parts keeps every allergen of the names inside it (a name spanning the
    conjunction, "… crema de avellanas y cacao …", keeps the segment whole when its allergens would be lost).
    ``plans``, when given, is a dict the caller keeps for one fixed set of ``known``/``keeps``/``splits`` (e.g. per
    ontology): the tokens of each item text are planned once and replayed for its later occurrences (same result,
    less work on batches)."""
    if len(text) > MAX_LABEL_CHARS:
        raise OntologyError(f"label text is {len(text)} characters; the limit is {MAX_LABEL_CHARS}", "ingredients_text")
    masks = list(masks)
    if len(masks) <= 16:
        s = text
        for a, b in masks:
            a, b = max(0, a), min(len(s), b)
            if a < b:
                s = s[:a] + _MASK * (b - a) + s[b:]
    else:  # many masks (hostile input): one pass over a character list
        chars = list(text)
        for a, b in masks:
            for i in range(max(0, a), min(len(chars), b)):
                chars[i] = _MASK
        s = "".join(chars)
    if "&" in s:
        s = _ENTITY.sub(lambda m: " " * len(m.group(0)), s, timeout=_TIMEOUT)
    if "<" in s or "{" in s:  # markup pasted into a label: HTML tags/comments and CSS rules become separators
        s = _MARKUP.sub(lambda m: _MASK * len(m.group(0)), s, timeout=_TIMEOUT)
    if "www." in s or "://" in s or "@" in s:
        s = _ADDRESS.sub(lambda m: _MASK * len(m.group(0)), s, timeout=_TIMEOUT)
    if "(" in s:  # E150(d) → "E150 d " (same length, so spans stay valid)
        s = _E_SUBLETTER.sub(lambda m: f"{m.group(1)} {m.group(2)} ", s, timeout=_TIMEOUT)
    builder = _Builder(s, known, keeps, plans, splits)
    builder.run()
    return tuple(builder.tokens)
