"""Processing, quality and origin words around an ingredient name: ``roasted salted cashews`` → cashews (pure).

An unknown token resolves to its **head** when every other word is a known modifier (``Ontology.modifiers``: the
shipped ``m_modifiers.jsonl`` — quality words such as organic, whole grain, fair trade, grass fed, reduced sodium;
processing words such as roasted, dried, pitted/entsteint, from concentrate; country and region names — plus, after
``import-off ingredients_processing.txt``, the Open Food Facts processing taxonomy). Modifiers may stand before the
head (``organic raw cane sugar``), after it (``tomates séchées``, ``Kirschen entsteint``), or as an origin tail
introduced by of/from/de/aus/di/del … (``sheep's milk of Spain``).

Safety: a modifier never names an allergen and is never a bare negation or a number (the ontology drops such entries
on load, :meth:`Ontology._drop_unsafe_modifiers`), so the head carries every allergen the token can carry; words
that change meaning (fried, seasoned, pickled, breaded, colours, purée, paste …) are not modifiers at all — except
that a colour word (:data:`COLOURS`) is stripped around a fruit, vegetable, pulse or mushroom ("red lentils"). The
longest head that resolves names the token; every other head that resolves is a reading too, and all their allergens
count ("teilentolte brazil nuts": brazil nuts, and nuts with "brazil" as an origin). The result names the head and
the stripped words.
"""

from __future__ import annotations

from collections.abc import Callable

from dinecheck.allergens.furniture import furniture
from dinecheck.allergens.ontology import STANDALONE_FOOD_SENSES, Ontology
from dinecheck.allergens.text import lookup_key

# words introducing an origin tail ("of Spain", "d'Espagne", "aus Italien", "di Sicilia", "origin France")
_CONNECTORS = frozenset({"of", "from", "de", "d'", "du", "des", "aus", "von", "di", "da", "del", "della", "dal",
                         "dalla", "dalle", "dai", "en", "in", "origin", "origine", "origen", "herkunft", "provenance",
                         "provenienza", "produce", "product", "grown", "made", "la", "l'", "le", "the"})  # fmt: skip
MAX_WORDS = 12
MAX_MODIFIER_WORDS = 6  # "renforcée au gaz de la source"
# colour words describe a variety of a plant ("red lentils", "lentilles vertes", "rote Zwiebeln") but name another
# product before anything else ("white sauce", "red curry paste", "black pudding", "golden raisins" are sulphured):
# they are stripped only around a head every reading of which is a fruit, vegetable, pulse or mushroom ("golden",
# "light" and "dark" never)
COLOURS = frozenset(lookup_key(w) for w in """
red green yellow white black purple brown
rouge rouges vert verte verts vertes jaune jaunes blanc blanche blancs blanches noir noire noirs noires violet
violette violets violettes
rot rote roter roten rotes rotem grün grüne grüner grünen grünes grünem gelb gelbe gelber gelben gelbes gelbem
weiß weiße weißer weißen weißes weißem schwarz schwarze schwarzer schwarzen schwarzes schwarzem
rojo roja rojos rojas verde verdes amarillo amarilla amarillos amarillas blanco blanca blancos blancas negro negra
negros negras morado morada morados moradas
rosso rossa rossi rosse verdi giallo gialla gialli gialle bianco bianca bianchi bianche nero nera neri nere
""".split())  # fmt: skip
PLANT_CATEGORIES = frozenset({"fruit", "vegetable", "legume", "mushroom"})
# English "pure" ("pure orange juice", "pure Australian honey") folds to the key of Spanish "puré" (a purée, which may
# hold milk), so it is no modifier; before the head it is English only: "puré" stands before its food with "de"
# ("puré de patatas"), and a head never begins with "de"
_BEFORE_ONLY = frozenset({"pure"})
_BEFORE_HEAD = COLOURS | _BEFORE_ONLY  # one-word prefixes read only around a fitting head
# "malted" says how a grain was processed ("malted rice", "gemalzte Gerste") but, before anything else, that barley
# malt was added ("malted milk", "leche malteado", a malted drink): around any other head the reading holds malt too
# (:func:`dinecheck.allergens.normalize._stripped`), and it is never a description alone
MALTED = frozenset({"malted", "malte", "maltee", "maltes", "maltees", "gemalzt", "gemalzte", "gemalzter", "gemalztes",
                    "gemalzten", "gemalztem", "malteado", "malteada", "malteados", "malteadas", "maltato", "maltata",
                    "maltati", "maltate"})  # fmt: skip
GRAIN_CATEGORIES = frozenset({"cereal", "grain", "flour"})
WHOLE_GRAIN = frozenset({"wholegrain", "vollkorn"})
# adverbs of degree and manner in the five languages (general knowledge of the languages): before a processing or
# quality word they say how much or how it was done ("lightly carbonated", "gently cooked", "fein gemahlen"), so a
# key is read without them (:func:`without_adverbs`)
ADVERBS = frozenset(lookup_key(w) for w in """
lightly gently slowly slightly naturally freshly finely coarsely roughly thinly thickly partially partly fully
carefully delicately traditionally specially mildly evenly
légèrement finement grossièrement naturellement délicatement lentement doucement partiellement entièrement
fraîchement soigneusement traditionnellement
leicht fein grob natürlich frisch schonend langsam teilweise vollständig sorgfältig traditionell
ligeramente finamente naturalmente lentamente parcialmente suavemente cuidadosamente tradicionalmente
leggermente finemente naturalmente lentamente parzialmente delicatamente accuratamente tradizionalmente
""".split())  # fmt: skip


def _words(key: str) -> list[str]:
    """Words of a key, with an elided article split off ("d'espagne" → "d'", "espagne")."""
    out: list[str] = []
    for w in key.split(" "):
        if len(w) > 2 and w[1] == "'" and w[0] in "dl":
            out.extend((w[:2], w[2:]))
        else:
            out.append(w)
    return out


def _join(words: list[str]) -> str:
    return " ".join(words).replace("d' ", "d'").replace("l' ", "l'")


# processing words that name a form or a part of something ("pieces", "juice", "cerneaux" — walnut kernels): alone,
# they are not a description of nothing, so a token made of them is never a note
_NOUNS = frozenset({"pieces", "slices", "halves", "dices", "florets", "segments", "pulp", "juice", "extract",
                    "concentrate", "powder", "jus", "pulpe", "poudre", "morceaux", "brisures", "eclats", "moities",
                    "cerneaux", "saft", "mark", "konzentrat", "extrakt", "pulver", "stucke", "stuckchen", "halften",
                    "scheiben", "wurfel", "granulat", "polvo", "trozos", "zumo", "jugo", "extracto", "pulpa",
                    "mitades", "polvere", "pezzi", "succo", "polpa", "meta", "blend", "mix", "melange", "mischung",
                    "mezcla", "miscela", "selection", "assortment"})  # fmt: skip


# words that say what a food is made of or how much of it is left (fat, water of crystallisation, a grain's cut, "whole",
# "other"): alone in a list they are what is left of a name ("nonfat" of nonfat dry milk, "whole" of whole milk,
# "monohydrate" of lactose monohydrate, "pinhead" of pinhead oatmeal) — never a description of the product
NOT_ALONE = frozenset(lookup_key(w) for w in """
whole nonfat non-fat lean dry sec secs seco seca secos secas secco secca cultured pinhead added other edible
extractive extractives anhydrous monohydrate dihydrate trihydrate tetrahydrate pentahydrate hexahydrate heptahydrate
decahydrate hemihydrate tribasic dibasic monobasic
autre autres comestible anhydre monohydraté dihydraté trihydraté pentahydraté heptahydraté
fettarm fettarme fettarmer fettarmes fettarmen fettarmem mager magere magerer mageres mageren magerem andere anderer
anderes anderen anderem wasserfrei monohydrat dihydrat trihydrat pentahydrat heptahydrat
magro magra magros magras otro otra otros otras comestibles anhidro anhidra monohidrato dihidrato trihidrato
pentahidrato heptahidrato
magri magre altro altra altri altre commestibile commestibili anidro anidra monoidrato diidrato triidrato pentaidrato
eptaidrato
entier entière entiers entières entero entera enteros enteras intero intera interi intere voll volle ganz ganze
lowfat allégé allégée vollfett
""".split()) | {"low fat", "reduced fat", "full fat", "half fat", "part skim", "partly skimmed", "semi skimmed",
                "parzialmente scremato", "fat free"}  # fmt: skip


def only_modifiers(key: str, ontology: Ontology) -> bool:
    """Whether ``key`` is made only of processing and quality words ("Pasteurisé", "sliced", "gemahlen", "organic
    raw"): a description of the product, not an ingredient (a note). Never with a noun-like word of :data:`_NOUNS` or
    a word of what a food is made of (:data:`NOT_ALONE`: "whole", "nonfat", "monohydrate"), never an origin (a place
    alone is handled by the caller)."""
    mods = ontology.modifiers
    words = _words(key)
    if (not words or len(words) > MAX_MODIFIER_WORDS or _NOUNS.intersection(words) or MALTED.intersection(words)
            or not NOT_ALONE.isdisjoint(groups := (*words, *(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))))
            or not STANDALONE_FOOD_SENSES.isdisjoint(groups)):  # "organic semi skimmed": milk  # fmt: skip
        return False
    return _covered(words, lambda group: mods.get(_join(group)) in DESCRIBING or _qualified(group, mods))


def describes_only(key: str, ontology: Ontology) -> bool:
    """Whether every word of ``key`` is a modifier of any kind — processing, quality, origin or part ("enriched
    flower", "organic whole"): it says how or where, but names no food of its own."""
    mods = ontology.modifiers
    words = _words(key)
    return bool(words) and len(words) <= MAX_WORDS and _covered(words, lambda group: _join(group) in mods)


def _covered(words: list[str], is_group: Callable[[list[str]], bool]) -> bool:
    """Whether ``words`` split, from the start, into groups of up to :data:`MAX_MODIFIER_WORDS` words each of which
    ``is_group`` accepts."""
    ok = [True] + [False] * len(words)
    for i in range(1, len(words) + 1):
        ok[i] = any(ok[k] and is_group(words[k:i]) for k in range(max(0, i - MAX_MODIFIER_WORDS), i))
    return ok[-1]


def strip_modifiers(key: str, ontology: Ontology) -> tuple[str, tuple[str, ...]] | None:
    """``(head, stripped words)`` when ``key`` is a known name with modifiers around it; None otherwise."""
    heads = modifier_readings(key, ontology)
    return heads[0] if heads else None


def modifier_readings(key: str, ontology: Ontology) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every ``(head, stripped words)`` reading of ``key``, longest head first (then first position first). Each is a
    reading and the caller keeps the allergens of all: two heads of the same length ("sucres semoule fine": sucres
    + semoule fine, or sucre semoule + fine), or a modifier that is also part of a longer name ("teilentolte brazil
    nuts": brazil nuts, or Brazil + nuts — the bare "nuts" may be PEANUT)."""
    from dinecheck.allergens.normalize import resolve_key  # normalize uses this module

    mods = ontology.modifiers
    if not mods:
        return ()
    places = furniture().places  # a country or fishing area ends a name after a connector, never opens one
    words = _words(key)
    n = len(words)
    if n < 2 or n > MAX_WORDS:
        return ()
    # pre[i]: words[:i] is a sequence of modifiers; suf[j]: words[j:] is a sequence of modifiers and origin tails
    pre = [False] * (n + 1)
    pre[0] = True
    for i in range(1, n + 1):
        for k in range(max(0, i - MAX_MODIFIER_WORDS), i):
            if pre[k] and (_is_modifier(words[k:i], mods) or (k == i - 1 and words[k] in _BEFORE_HEAD)):
                pre[i] = True
                break
    suf = [False] * (n + 1)
    suf[n] = True
    for j in range(n - 1, -1, -1):
        for k in range(j + 1, min(n, j + MAX_MODIFIER_WORDS) + 1):
            if suf[k] and (_is_modifier(words[j:k], mods) or (k == j + 1 and words[j] in COLOURS)):
                suf[j] = True
                break
        if not suf[j] and words[j] in _CONNECTORS:  # "of spain", "d'espagne", "origin france"
            for k in range(j + 2, min(n, j + 1 + MAX_MODIFIER_WORDS) + 1):
                place = _join(words[j + 1 : k])
                # a word of two senses after "in" may be the food the name is in ("tuna in genovese": pesto)
                if suf[k] and (mods.get(place) == "modifier_origin" or place in places) \
                        and place not in STANDALONE_FOOD_SENSES:
                    suf[j] = True
                    break
    heads = [(i, i + size) for size in range(n - 1, 0, -1) for i in range(0, n - size + 1)
             if pre[i] and suf[i + size] and _head_fits(words, i, i + size, ontology, resolve_key)]  # fmt: skip
    return tuple((_join(words[i:j]), tuple(w for w in (*words[:i], *words[j:]) if w not in ("d'", "l'")))
                 for i, j in heads)  # fmt: skip


def _is_modifier(words: list[str], mods: dict[str, str]) -> bool:
    """Whether ``words`` is one modifier: a known one, or "non" before a processing or quality word ("non
    hydrogenated", "sel non iodé" — it negates a process, never an ingredient: a modifier never names an allergen)."""
    return _join(words) in mods or _qualified(words, mods)


DESCRIBING = ("modifier_processing", "modifier_quality")  # the kinds that say how a food was made or graded


def _qualified(words: list[str], mods: dict[str, str]) -> bool:
    """"non" before a processing or quality word — never one that alone names a food ("non semi skimmed": milk)."""
    rest = _join(words[1:])
    return len(words) > 1 and words[0] == "non" and mods.get(rest) in DESCRIBING and rest not in STANDALONE_FOOD_SENSES


def without_adverbs(key: str, ontology: Ontology) -> str:
    """``key`` without each adverb of degree or manner (:data:`ADVERBS`) that stands before a processing or quality
    word ("lightly fermented black beans" → fermented black beans, "haricots noirs légèrement fermentés" → haricots
    noirs fermentés): it says how much or how, never what — the rest is read as if it were not there, so a longer
    name the processing word begins ("fermented black beans": soy) is read, never only the bare food."""
    words = key.split(" ")
    if ADVERBS.isdisjoint(words):
        return key
    mods = ontology.modifiers
    kept = [w for i, w in enumerate(words) if not (
        w in ADVERBS and i + 1 < len(words) and (mods.get(words[i + 1]) in DESCRIBING
                                                 or mods.get(_join(words[i + 1 : i + 3])) in DESCRIBING))]  # fmt: skip
    return " ".join(kept)


def _strips_a_food(words: list[str], i: int, j: int, found, ontology: Ontology, resolve_key: Callable) -> bool:
    """Whether the words stripped before or after the head ``words[i:j]``, taken whole, name a food carrying an allergen
    the head lacks ("organic whole grain baby swiss": a cheese; "whole grain semi skimmed": milk) — a word of two
    senses (:data:`STANDALONE_FOOD_SENSES`) is a modifier inside a name ("gruyère râpé"), unless the head is one of
    those words itself."""
    head_two_senses = any(s.key in STANDALONE_FOOD_SENSES for s in found)  # "organic whole grain" reads as whole grain
    have = {p.code for s in found for p in ontology.allergen_paths(s.canonical_id)}
    for part in (words[:i], words[j:]):
        if not part:
            continue
        phrase = _join(part)
        if (not head_two_senses if phrase in STANDALONE_FOOD_SENSES else MALTED.issuperset(part)):
            continue  # a word of two senses inside a name ("malteada" too); "malted", whose malt the reading adds
        if (not WHOLE_GRAIN.isdisjoint(part) or "whole grain" in phrase) and all(
                ontology.ingredients[s.canonical_id].category in GRAIN_CATEGORIES for s in found):  # fmt: skip
            continue  # "organic whole grain brown rice": whole grain before a grain is that grain
        syns, _matched, rule = resolve_key(phrase, ontology)
        if rule != "exact" and phrase in ontology.modifiers:
            continue  # French "rôties" (roasted) is no inflected "roti", a flatbread: a modifier as written
        if any(p.code not in have for s in syns for p in ontology.allergen_paths(s.canonical_id)):
            return True
    return False


def _head_fits(words: list[str], i: int, j: int, ontology: Ontology, resolve_key: Callable) -> bool:
    """Whether ``words[i:j]`` is a known name, and a plant's when a colour word is stripped around it."""
    found = resolve_key(_join(words[i:j]), ontology)[0]
    if not found:
        return False
    around = (*words[:i], *words[j:])
    if around and _strips_a_food(words, i, j, found, ontology, resolve_key):
        return False
    # "whole grain" says the head is a whole grain ("whole grain popcorn", "organic whole grain rice"); before
    # anything else it may be grains the name does not say ("whole grain tortilla chips"): no reading
    if (not WHOLE_GRAIN.isdisjoint(around) or "whole grain" in " ".join(around)) and not all(
            ontology.ingredients[s.canonical_id].category in GRAIN_CATEGORIES for s in found):  # fmt: skip
        return False
    if COLOURS.isdisjoint(around):
        return True
    return all(ontology.ingredients[s.canonical_id].category in PLANT_CATEGORIES for s in found)
