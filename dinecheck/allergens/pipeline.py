"""The allergen check entry point: label text + profile + ontology → :class:`LabelResult` (pure, no I/O).

Stages: :mod:`phrases` (risk phrases on raw text) → :mod:`tokenize` → :mod:`normalize` (exact lookup) →
:mod:`detect` (findings per profile allergen) → :mod:`verdict` (SAFE / AVOID / VERIFY + confidence).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from typing import Literal

from dinecheck.allergens.compound import declared_names
from dinecheck.allergens.declared import Declaration, declared_findings
from dinecheck.allergens.detect import Finding, dedupe, detect, names_profile
from dinecheck.allergens.furniture import common_words, furniture
from dinecheck.allergens.modifiers import NOT_ALONE, describes_only, only_modifiers, without_adverbs
from dinecheck.allergens.normalize import (
    MAX_MEMO,
    Resolution,
    is_known,
    keeps_allergens,
    memo_for,
    names_allergen,
    normalize,
    remembered,
    resolve_key,
    split_keeps,
    unknown_words,
)
from dinecheck.allergens.ontology import ALLERGEN_CODES, Ontology, RiskLevel, Synonym
from dinecheck.allergens.pasted import Reading, readings
from dinecheck.allergens.phrases import PhraseHit, find_phrases, has_warning_word
from dinecheck.allergens.suggest import close_names, suggestions
from dinecheck.allergens.tokenize import Token, canonical_key, is_part_note, tokenize
from dinecheck.allergens.verdict import decide
from dinecheck.errors import OntologyError

PROFILE_ALL: tuple[str, ...] = ALLERGEN_CODES
MAX_SUGGESTED_TOKENS = 5
SEGMENT_TRUSTED_WORDS = 3


@dataclass(frozen=True, slots=True)
class LabelResult:
    """The outcome of one check: the verdict, one finding per profile allergen (highest level), the tokens that
    resolved to nothing, the risk phrases found, confidence and match rate, token counts, and every review reason."""

    verdict: Literal["SAFE", "AVOID", "VERIFY"]
    findings: tuple[Finding, ...]
    unmatched: tuple[str, ...]
    risk_phrases: tuple[PhraseHit, ...]
    confidence: float
    match_rate: float
    tokens_processed: int
    tokens_matched: int
    review_reasons: tuple[str, ...]

    def to_json(self, id: str | None = None) -> dict:  # noqa: A002 - the CLI contract's field name
        return {
            "id": id,
            "verdict": self.verdict,
            "allergens": [f.to_json() for f in self.findings],
            "unmatched": list(self.unmatched),
            "risk_phrases": [p.to_json() for p in self.risk_phrases],
            "confidence": round(self.confidence, 4),
            "match_rate": round(self.match_rate, 4),
            "reasons": list(self.review_reasons),
        }


# common names people type for a profile (case-insensitive; spaces, hyphens and a final S do not matter)
PROFILE_ALIASES: dict[str, tuple[str, ...]] = {
    "DAIRY": ("MILK",), "LACTOSE": ("MILK",), "MILKS": ("MILK",), "PEANUTS": ("PEANUT",), "GROUNDNUT": ("PEANUT",),
    "GROUNDNUTS": ("PEANUT",), "NUTS": ("TREE_NUTS", "PEANUT"), "NUT": ("TREE_NUTS", "PEANUT"),
    "TREENUTS": ("TREE_NUTS",), "TREE_NUT": ("TREE_NUTS",), "TREENUT": ("TREE_NUTS",), "EGGS": ("EGG",),
    "SOYA": ("SOY",), "SOYBEAN": ("SOY",), "SOYBEANS": ("SOY",),
    "CRUSTACEANS": ("SHELLFISH",), "CRUSTACEAN": ("SHELLFISH",), "MOLLUSC": ("MOLLUSCS",), "MOLLUSK": ("MOLLUSCS",),
    "MOLLUSKS": ("MOLLUSCS",), "SESAME_SEEDS": ("SESAME",), "SESAME_SEED": ("SESAME",), "SULFITES": ("SULPHITES",),
    "SULFITE": ("SULPHITES",), "SULPHITE": ("SULPHITES",), "SULPHUR_DIOXIDE": ("SULPHITES",),
    "SULFUR_DIOXIDE": ("SULPHITES",), "LUPINE": ("LUPIN",), "LUPINS": ("LUPIN",), "CEREALS": ("GLUTEN", "WHEAT"),
    "FISHES": ("FISH",),
}  # fmt: skip


def parse_profile(spec: str) -> tuple[str, ...]:
    """``"PEANUT,MILK"``, ``"ALL"`` or common names (``"dairy, nuts"``) → allergen codes (deduplicated, in the
    canonical order). Unknown names are an error listing the codes and aliases."""
    parts = [p.strip().upper().replace(" ", "_").replace("-", "_") for p in spec.split(",") if p.strip()]
    if not parts:
        raise OntologyError("the allergen profile is empty; give codes like PEANUT,MILK or ALL", "--allergens")
    if "ALL" in parts:
        if parts != ["ALL"]:
            raise OntologyError("ALL cannot be combined with other codes", "--allergens")
        return PROFILE_ALL
    codes: set[str] = set()
    unknown = []
    for p in parts:
        if p in ALLERGEN_CODES:
            codes.add(p)
        elif p in PROFILE_ALIASES:
            codes.update(PROFILE_ALIASES[p])
        else:
            unknown.append(p)
    if unknown:
        raise OntologyError(f"unknown allergen code(s) {', '.join(unknown)}; known: {', '.join(ALLERGEN_CODES)}, ALL; "
                            f"aliases: {', '.join(sorted(PROFILE_ALIASES))}", "--allergens")  # fmt: skip
    return tuple(c for c in ALLERGEN_CODES if c in codes)


def check_label(
    text: str, profile: Collection[str], ontology: Ontology, declared: Declaration | None = None
) -> LabelResult:
    """Check one label against a profile of allergen codes (pure: no I/O). Never SAFE unless every fact is clean.

    ``declared`` is the product's own allergen statement, when its record has one (see :mod:`declared`): a declared
    allergen is DEFINITE and a declared trace TRACE, whatever the text says."""
    if not isinstance(text, str):
        raise OntologyError(f"label text must be a string, got {type(text).__name__}", "ingredients_text")
    codes = tuple(profile)
    unknown = [c for c in codes if c not in ontology.allergens and c not in ALLERGEN_CODES]
    if unknown:
        raise OntologyError(f"unknown allergen code(s) {', '.join(map(str, unknown))}", "profile")
    # every pattern has a time limit (hostile text must not hang a check); a limit can also be crossed by a pause
    # of the process (a garbage collection inside a pattern call that allocates, on a loaded machine), so a check
    # that times out is run once more with the collector paused; a text that still cannot be read is VERIFY, never
    # an error
    try:
        return _check(text, codes, ontology, declared)
    except TimeoutError:
        pass
    with _collector_paused():
        try:
            return _check(text, codes, ontology, declared)
        except TimeoutError:
            return _UNREADABLE


@contextmanager
def _collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_UNREADABLE = LabelResult(
    verdict="VERIFY", findings=(), unmatched=(), risk_phrases=(), confidence=0.0, match_rate=0.0, tokens_processed=0,
    tokens_matched=0, review_reasons=("the label text could not be read in the time allowed (a pattern timed out "
                                      "twice); nothing is known of what it holds",),
)  # fmt: skip


def _check(
    text: str, codes: tuple[str, ...], ontology: Ontology, declared: Declaration | None
) -> LabelResult:
    primary, alternative = readings(text, lambda key: is_known(key, ontology), _around_word)
    # "shellfish" in everyday speech covers molluscs too (and a molluscs allergy may extend to crustaceans): the other
    # one is looked for as well and reported for the profile's one at POSSIBLE
    kin = tuple(_KIN[c] for c in codes if c in _KIN and _KIN[c] not in codes)
    looked = codes + kin
    main = _analyse(primary, looked, ontology)
    findings = main.findings
    hits = main.hits
    doubts = list(main.doubts)
    if alternative is not None:  # what only the other reading names is held at POSSIBLE (never SAFE, never AVOID)
        other = _analyse(alternative, looked, ontology)
        extra = [_held(f, alternative.why) for f in other.findings]
        findings = dedupe([*findings, *extra])
    if kin:
        findings = dedupe([_as_kin(f) if f.code in kin else f for f in findings])
    if declared:
        findings = dedupe([*findings, *declared_findings(declared, frozenset(codes))])
    unmatched = main.unmatched
    looked_up, matched = main.looked_up, main.matched
    for token_text, token_key in main.unknown_keys[:MAX_SUGGESTED_TOKENS]:  # never changes the verdict
        close = suggestions(token_key, ontology)
        if close:
            doubts.append(f"did you mean {' or '.join(repr(c) for c in close)} for {token_text!r}? (a suggestion "
                          "only: the unknown word keeps the label VERIFY)")  # fmt: skip
    # a statement naming only allergens outside the profile does not call for review (issue 8, item 4)
    relevant = tuple(h for h in hits if names_profile(h, codes))
    decision = decide(findings, unmatched, relevant, looked_up, matched, tuple(doubts), main.notes)
    return LabelResult(
        verdict=decision.verdict,
        findings=findings,
        unmatched=unmatched,
        risk_phrases=hits,
        confidence=decision.confidence,
        match_rate=decision.match_rate,
        tokens_processed=looked_up,
        tokens_matched=matched,
        review_reasons=decision.reasons,
    )


@dataclass(frozen=True, slots=True)
class _Analysis:
    findings: tuple[Finding, ...]
    hits: tuple[PhraseHit, ...]
    unmatched: tuple[str, ...]
    looked_up: int
    matched: int
    doubts: tuple[str, ...]
    unknown_keys: tuple[tuple[str, str], ...] = ()  # (text, key) of the unmatched tokens
    notes: tuple[str, ...] = ()  # what the reading assumed without doubting it (shown, never a reason for review)


def _analyse(reading: Reading, codes: tuple[str, ...], ontology: Ontology) -> _Analysis:
    """Phrases → tokens → resolutions → findings for one reading, spans mapped back to the raw text."""
    text = reading.text
    scan = find_phrases(text, ontology)
    tokens = tokenize(
        text,
        scan.masks,
        known=lambda key: is_known(key, ontology),
        keeps=lambda word, reading: keeps_allergens(word, reading, ontology),
        plans=memo.plans if (memo := memo_for(ontology)) is not None else None,
        splits=lambda whole, parts: split_keeps(whole, parts, ontology),
    )
    tokens = _items_alone(tokens, text, ontology)
    resolutions = _as_specifications(_as_colours(normalize(tokens, ontology), ontology), ontology)
    resolutions = _cut_off_end(resolutions, text, ontology)
    settleable = _settleable(resolutions, ontology)
    # what declares no composition: notes, and a class name alone ("Ardeh (emulsifier)": the class, not the parts);
    # asked only when some name could be settled (most labels have none)
    note_at = {i for i, r in enumerate(resolutions) if r.rule == "note" or (r.synonyms and remembered(
        ontology, "class_only", r.key or "", partial(_class_only, r.synonyms, ontology)))
    } if settleable else set()  # fmt: skip
    # a heading that reads as a label's field ("Fanggebiet:", "Zona di pesca:") may be followed by a note: every
    # word of it read, one of them a word of the label furniture, none a warning word ("Horlicks: UK" is no field)
    fields = {i for i in settleable if tokens[i].role == "class" and not has_warning_word(tokens[i].key)
              and not unknown_words(tokens[i].key, ontology)
              and not furniture().words.isdisjoint(tokens[i].key.split(" "))}  # fmt: skip
    declared = declared_names(text, tokens, scan.masks, settleable, note_at, fields)
    findings = detect(resolutions, scan.hits, codes, ontology, scan.capped, declared)
    looked_up = matched = 0  # tokens looked up (every one but notes), and those that resolved
    unknown_texts: dict[str, str] = {}  # unmatched token texts (first occurrence first) → their keys
    doubts: list[str] = []
    outside_claims = 0  # looked-up tokens that are not objects of an absence claim
    capped = scan.capped
    notes: list[str] = []
    for n, r in enumerate(resolutions):
        rule = r.rule
        if rule == "note":
            continue
        if not r.synonyms and n in declared:  # an unknown name whose components the label lists (see compound)
            notes.append(f"{r.token.text!r} is not a known name; it is read as a compound ingredient made of the "
                         "components the label lists after it")  # fmt: skip
            continue
        looked_up += 1
        if rule == "glyphs":  # shown: the reading rests on a repair of the text
            notes.append(f"{r.token.text!r} was read as {r.key!r}: a digit or an \"rn\" that OCR prints for a "
                         "letter, put back")  # fmt: skip
        elif rule == "letters":
            notes.append(f"{r.token.text!r} was read as {r.key!r}: an \"l\" and an \"i\" that OCR takes for each "
                         "other, put back")  # fmt: skip
        if r.synonyms:
            matched += 1
        else:
            unknown_texts.setdefault(r.token.text, r.token.key)
        span = r.token.span
        if not capped or not any(a <= span[0] and span[1] <= b for a, b in capped):
            outside_claims += 1
        if (rule == "segmented" and r.key and r.token.key.count(" ") < SEGMENT_TRUSTED_WORDS - 1 and n not in declared
                and not _apposition(r.key, ontology)):  # fmt: skip
            # a two-word compound of two known words may name something neither word does ("bean curd" is soy):
            # a doubt. From three words on, a token that reads exactly as known names is a list missing its commas;
            # the names' allergens are still held at POSSIBLE (detect)
            doubts.append(f"{r.token.text!r} was read as {len(r.key.split(' | '))} ingredients ({r.key}): a separator "
                          "seems missing")  # fmt: skip
    if scan.claims and looked_up and not outside_claims:
        doubts.append("the label only says what it does not contain (" + "; ".join(repr(c) for c in scan.claims)
                      + "): no ingredient list establishes what it is made of")  # fmt: skip
    if reading.index is not None:
        findings = tuple(replace(f, span=reading.raw_span(f.span)) for f in findings)
        hits = tuple(replace(h, span=reading.raw_span(h.span)) for h in scan.hits)  # type: ignore[arg-type]
    else:
        hits = scan.hits
    return _Analysis(findings, hits, tuple(unknown_texts), looked_up, matched, tuple(doubts),
                     tuple(unknown_texts.items()), tuple(notes))  # fmt: skip


ADDITIVE_CLASS = "additive_class"


def _apposition(parts_key: str, ontology: Ontology) -> bool:
    """Whether a two-word token read as two names is one name said twice, not a new name neither part names: a
    class and its specific name with the colon lost ("Säuerungsmittel Citronensäure"), or a name and its own kind
    ("Nori Seaweed": nori is a seaweed; "Annatto Norbixin": one colour)."""
    parts = parts_key.split(" | ")
    if len(parts) != 2:
        return False
    ids = [{s.canonical_id for s in resolve_key(p, ontology)[0]} for p in parts]
    if not ids[0] or not ids[1]:
        return False
    if all(ontology.ingredients[i].category == ADDITIVE_CLASS for i in ids[0]):
        return True
    if ids[0] & ids[1]:
        return True
    parents = [{ontology.ingredients[i].parent for i in group} for group in ids]
    return bool(ids[0] & parents[1] or ids[1] & parents[0])


def _settleable(resolutions: tuple[Resolution, ...], ontology: Ontology) -> list[int]:
    """Indexes of the tokens a declared composition could change: unknown names, names read as several, and names
    that only *may* carry an allergen (a POSSIBLE path). The others are never asked about (speed)."""
    out = []
    paths = ontology.allergen_paths
    memo = memo_for(ontology)
    cache: dict[str, bool] = memo.may_carry if memo is not None else {}
    possible = RiskLevel.POSSIBLE
    for n, r in enumerate(resolutions):
        rule = r.rule
        if rule == "note":
            continue
        syns = r.synonyms
        if not syns and (_near_allergen_name(r.token.key, ontology) or remembered(
                ontology, "describes", r.token.key, partial(describes_only, r.token.key, ontology))):  # fmt: skip
            # "Pcanuts (flour, salt)": a misspelt allergen name is never settled by its components; nor a name of
            # modifiers only ("Enriched flower (niacin, iron …)"): the components may be only what was added to it
            continue
        if not syns or rule == "segmented":
            out.append(n)
            continue
        key = r.key or ""
        may = cache.get(key)
        if may is None:
            may = any(p.level is possible for syn in syns for p in paths(syn.canonical_id))
            if len(cache) < MAX_MEMO:  # bounded, like every memo table
                cache[key] = may
        if may:
            out.append(n)
    return out


def _near_allergen_name(key: str, ontology: Ontology) -> bool:
    """Whether a known name that carries an allergen is one edit from ``key`` (five letters or more): then the
    unknown name may be that allergen misspelt ("Pcanuts"), and its components do not settle it."""
    return any(ontology.allergen_paths(syn.canonical_id)
               for near in close_names(key, ontology, 1, min_chars=5)
               for syn in ontology.synonyms.get(near, ()))  # fmt: skip


COLOUR_CLASS = "colour"  # the canonical id of the colour class ("colour", "colorant", "Farbstoff" …)


# what stands between two items: a list separator or a conjunction ("salt and flower", "Water / Flower")
_ITEM_GAP = re.compile(r"[,;.:\n\r•|/&+]|\s[-–—]\s|(?<![^\W_])(?:and|or|et|ou|und|oder|y|o|e|u)(?![^\W_])")


def _items_alone(tokens: tuple[Token, ...], text: str, ontology: Ontology) -> tuple[Token, ...]:
    """A part word standing as an item of its own ("Sugar, whole, salt", "Sauce (water, flower, salt)", "salt and
    flower": "flower" written for flour) describes nothing: it is what is left of a name, read as an ingredient. As the
    first word inside the brackets of a name ("Cumin (whole)") or right after them in the same item ("konjac (…) en
    flocons") it still says which part or form of that name — unless the name and it make another name that carries
    more ("corn (organic) flakes": corn flakes may hold barley malt)."""
    alone = []
    for n, tok in enumerate(tokens):
        if tok.role != "note" or not (is_part_note(tok.key) or is_part_note(canonical_key(tok.text))):
            continue  # (the key of "cocoa butter and whole" is "cocoa whole": a shared word put back)
        if n == 0:
            alone.append(n)
            continue
        prev = tokens[n - 1]
        if tok.parent is not None:  # inside a name's brackets: the form of that name ("Ananas (morceaux, jus)") …
            if _left_of_a_name(tok) and (tok.parent != n - 1 or _is_class(prev.key, ontology) or (
                    n + 1 < len(tokens) and tokens[n + 1].parent == tok.parent)):  # fmt: skip
                alone.append(n)  # … unless a component left of a name ("Seasoning (flower, salt)", "thickener (flower)")
            continue
        gap = text[prev.span[1] : tok.span[0]]
        if _ITEM_GAP.search(gap) is not None and (
                _left_of_a_name(tok) or not _another_form(gap, tok.key, prev.key, ontology)):  # fmt: skip
            alone.append(n)
        elif ")" in gap or "]" in gap:
            name = next((tokens[k] for k in range(n - 1, -1, -1) if tokens[k].parent == tok.parent), None)
            if name is not None and _carries_more(f"{name.key} {tok.key}", name.key, ontology):
                alone.append(n)
    if not alone:
        return tokens
    return tuple(tok._replace(role="ingredient") if n in alone else tok for n, tok in enumerate(tokens))


_CONJUNCTION_ONLY = re.compile(r"\s*(?:or|ou|oder|o|and|et|und|y|e)\s*")


def _another_form(gap: str, key: str, prev_key: str, ontology: Ontology) -> bool:
    """Whether a part word ``key`` after a conjunction is another form of the name before it: both it and the last
    word of that name are processing words, and only the conjunction stands between ("lait écrémé concentré ou en
    poudre"): the two describe one food — never a word that may be what is left of a name ("flakes" of oat flakes)."""
    return (_CONJUNCTION_ONLY.fullmatch(gap) is not None and ontology.modifiers.get(key) == "modifier_processing"
            and ontology.modifiers.get(prev_key.rsplit(" ", 1)[-1]) == "modifier_processing")  # fmt: skip


# part words that sound like an allergen's name: "flower" written for flour
_HOMOPHONES = frozenset({"flower", "flowers"})


def _left_of_a_name(tok: Token) -> bool:
    """Whether a part word may be what is left of a name carrying an allergen: a word of what a food is made of
    ("whole" of whole milk) or a homophone of one ("flower" for flour)."""
    word = canonical_key(tok.text)
    return word in NOT_ALONE or word in _HOMOPHONES


def _is_class(key: str, ontology: Ontology) -> bool:
    """Whether ``key`` names an additive class ("thickener", "Emulgator"): what its brackets hold are its members."""
    return any(ontology.ingredients[s.canonical_id].category == "additive_class" for s in resolve_key(key, ontology)[0])


def _carries_more(joined: str, name: str, ontology: Ontology) -> bool:
    """Whether ``joined`` is a name carrying an allergen that ``name`` does not."""
    have = {p.code for s in resolve_key(name, ontology)[0] for p in ontology.allergen_paths(s.canonical_id)}
    return any(p.code not in have for s in resolve_key(joined, ontology)[0] for p in ontology.allergen_paths(s.canonical_id))


def _around_word(key: str) -> bool:
    """A word of the text around a list: an English word naming no food, or a word of the label furniture."""
    return key in common_words() or key in furniture().words


_CLOSING = frozenset(".!?)]}")
_WEIGHT_AFTER = re.compile(r"\s*:\s*\d+(?:[.,]\d+)?\s?(?:g|kg|ml|cl|l|oz|lb)\b", re.IGNORECASE)
# a sentence's end before a word (a letter or a closing bracket before the stop, a space after it: "1. MILD" and
# "butter.MILD" are none), or a line's start
_ALONE_BEFORE = re.compile(r"(?:^|\n|(?<=[^\W\d_]|[)\]])[.!?][ \t]+)[ \t]*$")
_ALONE_AFTER = re.compile(r"[ \t]*[.!?]?[ \t]*(?:\r?\n|$)")


def _stands_alone(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, words only, is a sentence or a line of its own: a sentence's end or a line's start
    before it (never a line after one that ends on a list separator: "cocoa butter,\nMILD"), a line's end or the
    text's end after it (a stop between)."""
    if not text[start:end].replace(" ", "").replace("-", "").isalpha():
        return False  # "MILD 25%": a share, as an item of a list has
    if _ALONE_BEFORE.search(text, 0, start) is None or _ALONE_AFTER.match(text, end) is None:
        return False
    before = text[:start].rstrip(" \t\r\n")
    return _LIST_BEFORE.search(before, max(0, len(before) - 3)) is None


_ELLIPSIS = re.compile(r"[(\[]?\s*(?:\.\s?){2,}\.?|…\s*[)\]]?|[(\[]\s*(?:\.\s?){2,}[)\]]")
_LINE_END = re.compile(r"[\n\r]")
_LIST_BEFORE = re.compile(r"[,;]\s*$")
_BRACKETED = re.compile(r"\([^()]{0,80}\)|\[[^\[\]]{0,80}\]")


def _cut_off_end(resolutions: tuple[Resolution, ...], text: str, ontology: Ontology) -> tuple[Resolution, ...]:
    """A list cut off right after a processing word ("…, roasted" of roasted peanuts, "…, sliced") or a word that
    announces what follows ("…, less than", "…, moins de"): such an item at the end of the text or, after a comma, at
    the end of its line, nothing closing it (an ellipsis closes nothing: it marks the cut; nor does a bracket after
    it, "roasted (V)"), is no description of the product (a note) but an unknown — what followed is lost. A word on a
    line of its own ("Décongelé") or heading a sentence before a colon and a weight ("Égoutté : 440 g") states the
    food's condition. A heat grade ("MILD", "mittelscharf") designates the product where it stands on its
    own; as an item of a list it is unknown ("Sugar, cocoa butter, MILD": milk misread). Words of what a food is made
    of ("whole", "dry", "nonfat") are never a description anywhere
    (:func:`~dinecheck.allergens.modifiers.only_modifiers`)."""
    out = None
    for n, r in enumerate(resolutions):
        if r.rule != "note" or r.token.parent is not None:
            continue
        if r.token.key in furniture().heat_grades:
            if _stands_alone(text, *r.token.span):
                continue  # "… Cumin. MILD": a heat grade standing on its own designates the product
            out = out or list(resolutions)
            out[n] = Resolution(r.token, (), None, None)  # "MILD, sugar", "Contains: MILD": "milk" misread
            continue
        if r.token.key not in furniture().open_notes and not remembered(
                ontology, "half_names", r.token.key, partial(_half_a_name, r.token.key, ontology)):  # fmt: skip
            continue  # a footnote's mark ("*organic", "kosher", "free range"), a place, a statement …
        start, end = r.token.span
        line = _LINE_END.search(text, end)
        in_list = _LIST_BEFORE.search(text, max(0, start - 3), start) is not None
        if line is not None and not in_list:
            continue  # "Décongelé" on a line of its own states the food's condition: only a list's last item is cut
        rest = text[end : line.start() if line else len(text)]
        if _WEIGHT_AFTER.match(rest) is not None and not in_list:
            continue  # "Égoutté : 440 g": a heading with its weight — not an item of a list ("…, roasted: 40%")
        after = _ELLIPSIS.sub(" ", _BRACKETED.sub(" ", rest))
        if not _CLOSING.isdisjoint(after):
            continue  # "roasted (V)": a bracket after the word closes nothing
        if out is None:
            out = list(resolutions)
        out[n] = Resolution(r.token, (), None, None)
    return resolutions if out is None else tuple(out)


def _class_only(synonyms: tuple[Synonym, ...], ontology: Ontology) -> bool:
    return all(ontology.ingredients[syn.canonical_id].category == "additive_class" for syn in synonyms)


def _half_a_name(key: str, ontology: Ontology) -> bool:
    """Whether a note may be the first half of a cut name: processing and quality words only (an adverb aside:
    "Lightly carbonated"), a processing word among them or no footnote's mark of the furniture."""
    bare = without_adverbs(key, ontology)
    return only_modifiers(bare, ontology) and (
        bare not in furniture().notes or any(ontology.modifiers.get(w) == "modifier_processing" for w in bare.split(" ")))


def _as_colours(resolutions: tuple[Resolution, ...], ontology: Ontology) -> tuple[Resolution, ...]:
    """Under a colour class ("Colour: caramel", "Colours (caramel, riboflavin)") a name is the colour additive of
    that name when the ontology has one ("caramel colour", E150: no milk) — the class says what it is. Only the item
    right after the class's colon, or inside its brackets; the reading replaces the plain name's only if it carries no
    allergen the plain name lacks."""
    memo = memo_for(ontology)
    classes: dict[str, bool] = memo.colour_keys if memo is not None else {}
    colour_at = set()
    for n, r in enumerate(resolutions):
        if r.synonyms and r.key:
            is_class = classes.get(r.key)
            if is_class is None:
                is_class = any(s.canonical_id == COLOUR_CLASS for s in r.synonyms)
                if len(classes) < MAX_MEMO:
                    classes[r.key] = is_class
            if is_class:
                colour_at.add(n)
    if not colour_at:
        return resolutions
    out = list(resolutions)
    for n, r in enumerate(resolutions):
        if not r.synonyms or r.rule == "note":
            continue
        tok = r.token
        if not (tok.parent in colour_at or (n - 1) in colour_at):
            continue
        context = resolutions[tok.parent] if tok.parent is not None else None
        if context is None and n > 0 and resolutions[n - 1].token.role == "class":
            prev = resolutions[n - 1]
            context = prev if prev.token.parent == tok.parent and prev.token.depth == tok.depth else None
        if context is None or not any(s.canonical_id == COLOUR_CLASS for s in context.synonyms):
            continue
        key = f"{r.key or tok.key} colour"
        syns, matched, _rule = resolve_key(key, ontology)
        if not syns:
            continue
        plain = {p.code for s in r.synonyms for p in ontology.allergen_paths(s.canonical_id)}
        if {p.code for s in syns for p in ontology.allergen_paths(s.canonical_id)} <= plain:
            out[n] = Resolution(tok, syns, matched, "colour class")
    return tuple(out)


def _as_specifications(resolutions: tuple[Resolution, ...], ontology: Ontology) -> tuple[Resolution, ...]:
    """A bracket holding one word that says which kind of its known parent it is ("Gelatine (Bovine)", "sugar
    (cane)"): when the parent and the word together are exactly a known name ("gelatine bovine", "cane sugar") the
    word is read as that name. It is the only thing in the bracket, it is no
    name by itself and names no allergen (:func:`~dinecheck.allergens.normalize.names_allergen`); the name's
    allergens count for it, and the parent's for the parent."""
    children: dict[int, list[int]] = {}
    for n, r in enumerate(resolutions):
        if r.token.parent is not None:
            children.setdefault(r.token.parent, []).append(n)
    out: list[Resolution] | None = None
    for parent, kids in children.items():
        if len(kids) != 1:
            continue
        r, p = resolutions[kids[0]], resolutions[parent]
        if r.synonyms or r.rule == "note" or not p.synonyms or p.rule == "note":
            continue
        word, head = r.token.key, p.token.key
        if " " in word or len(word) < 3 or not word.isalpha() or names_allergen(word, ontology):
            continue
        for key in (f"{head} {word}", f"{word} {head}"):
            syns = ontology.synonyms.get(key)
            if syns:
                out = out or list(resolutions)
                out[kids[0]] = Resolution(r.token, tuple(syns), key, "specifies its parent")
                break
    return tuple(out) if out is not None else resolutions


_KIN = {"SHELLFISH": "MOLLUSCS", "MOLLUSCS": "SHELLFISH"}


def _as_kin(f: Finding) -> Finding:
    """A finding of molluscs (crustaceans) reported for a SHELLFISH (MOLLUSCS) profile, at POSSIBLE at most."""
    code = _KIN[f.code]
    level = f.level if f.level.rank <= RiskLevel.POSSIBLE.rank else RiskLevel.POSSIBLE
    what = "molluscs" if f.code == "MOLLUSCS" else "crustaceans"
    return replace(f, code=code, level=level, sources=(),
                   explanation=f"{f.explanation} — {what}, which a {code.lower()} allergy may include")  # fmt: skip


def _held(f: Finding, why: tuple[str, ...]) -> Finding:
    """A finding of the alternative reading, held at POSSIBLE (a lower level stays)."""
    if f.level.rank <= RiskLevel.POSSIBLE.rank:
        return f
    because = ", ".join(why) or "an ambiguous text"
    return replace(f, level=RiskLevel.POSSIBLE,
                   explanation=f"{f.explanation} — held at POSSIBLE: only another reading of the text ({because}) "
                               "names it")  # fmt: skip
