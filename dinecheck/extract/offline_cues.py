"""General-purpose English language cues for the offline extractor: sentences, tokens, stems, negation, perspective.

Nothing here knows about any seed, field or value name. It owns:

* sentence segmentation with character offsets (so evidence quotes are verbatim slices of the review);
* tokenisation with a light suffix-stripping stemmer, case kept for short acronyms ("ER");
* negation scope (``not``/``n't``/``no``/``never``/``without``/``refused to`` … up to a clause boundary or
  :data:`NEGATION_SCOPE` tokens; ``X-free`` negates ``X``);
* irrealis (conditional / counterfactual) sentences, first-person speakers, reported speech and third-party
  experiencers;
* :data:`THESAURUS`, a small table of everyday English synonyms and hyponyms keyed by plain words that may appear in
  value descriptions ("staff" → server, waiter …; "medication" → antihistamine …). Entries starting with ``not ``
  match a *negated* occurrence of the word ("not care" matches "didn't care").

All work is linear in the text length; the text is cut at :data:`MAX_TEXT_CHARS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_TEXT_CHARS = 20_000
NEGATION_SCOPE = 3

_TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?|[,;:()!?.\"]")
_SENT_RE = re.compile(r"[^.!?\n]*(?:[.!?]+[\"')\]]*|\n|$)")

_SUFFIXES = (
    "ically", "fully", "ions", "ion", "ments", "ment", "ingly", "ness", "ings", "ing", "edly",
    "ies", "ied", "ful", "ens", "ed", "es", "en", "ic", "ly", "s", "y",
)  # fmt: skip

STOPWORDS = frozenset(
    """a an the of to in on for with about and or but at by from as is are was were be been being it its this that
    these those any some still had has have having do does did done e g eg ie i e such like also etc very really just
    described describe mention mentioned mentions mentioning related regarding concerning reported who whom which what
    when where there their them they he she his her him i me my we our us you your someone something else other
    actual actually real
    than then so than need needed needs get got make made while via per one ones own through during after before
    into onto over under up down out off all both each either more most much many few less least""".split()
)

NEGATORS = frozenset(
    """no not never without none nothing nobody neither nor zero cannot refuse refused refuses refusing
    unable lack lacked lacking barely hardly scarcely""".split()
)
# negated subjects ("nobody", "no one") negate the whole clause, up to the next boundary
_CLAUSE_NEGATORS = frozenset({"nobody", "nothing", "none", "neither", "noone"})
CLAUSE_SCOPE = 12
_BOUNDARY = frozenset({",", ";", ":", "(", ")", "but", "however", "although", "though", "yet", "except", "until"})

IRREALIS = frozenset(
    """if unless would wouldn't won't could've would've might've should've hypothetically imagine""".split()
)
_INDIRECT_QUESTION = frozenset("ask asked asking wonder wondered know knew check checked sure see saw".split())
_IRREALIS_PAIRS = (("could", "have"), ("would", "have"), ("might", "have"), ("in", "case"))

FIRST_PERSON = frozenset("i me my mine myself we us our ours ourselves i'm i've i'd i'll we're we've we'd".split())
REPORT_STRONG = frozenset(
    "heard apparently reportedly rumor rumors rumour rumours supposedly allegedly according".split()
)
REPORT_VERBS = frozenset("told tell tells said say says mentioned mentions posted wrote claims claimed".split())
THIRD_PARTY = frozenset(
    """friend friends coworker coworkers co colleague colleagues neighbor neighbour neighbors someone somebody people
    guy woman man lady sister brother cousin club group person acquaintance kid child girl boy customer customers
    diner patron patrons stranger family""".split()
)
_READ_FRAMES = (("i", "read"), ("we", "read"), ("read", "online"), ("read", "that"), ("read", "reviews"))


def stem(word: str) -> str:
    """A light, deterministic English stemmer: lower-case, drop ``'s``, strip one common suffix, then a final ``e``."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    if w in STOPWORDS or w in FIRST_PERSON:
        return w
    for suf in _SUFFIXES:
        if suf == "s" and w.endswith("ss"):
            continue
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    if w.endswith("e") and len(w) >= 4:
        w = w[:-1]
    return w


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # as written
    lower: str
    stem: str
    negated: bool
    is_word: bool


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence: its character span in the review, its tokens, and sentence-level cues."""

    start: int
    end: int
    tokens: tuple[Token, ...]
    irrealis: bool
    first_person: bool
    reported: bool
    third_party: bool
    stems: frozenset[str] = frozenset()  # for fast pre-checks before a sequential match
    texts: frozenset[str] = frozenset()
    keys: frozenset[tuple[str, bool]] = frozenset()  # (stem, negated)

    @property
    def words(self) -> tuple[Token, ...]:
        return tuple(t for t in self.tokens if t.is_word)


def tokenize(text: str) -> list[Token]:
    """Tokens with negation marks. A negator negates the next words up to a boundary or NEGATION_SCOPE words."""
    raw = _TOKEN_RE.findall(text)
    out: list[Token] = []
    scope = 0
    for i, tok in enumerate(raw):
        lower = tok.lower()
        is_word = tok[0].isalnum()
        if not is_word or lower in _BOUNDARY:
            scope = 0
            out.append(Token(tok, lower, lower, False, is_word))
            continue
        is_neg = lower in NEGATORS or lower.endswith("n't")
        out.append(Token(tok, lower, stem(lower), scope > 0 and not is_neg, True))
        if lower in _CLAUSE_NEGATORS or (lower == "one" and i > 0 and raw[i - 1].lower() == "no"):
            scope = CLAUSE_SCOPE
        else:
            scope = NEGATION_SCOPE if is_neg else max(0, scope - 1)
        if lower == "free" and i > 0:  # "nut-free", "gluten free": the preceding word is negated
            for j in range(len(out) - 2, -1, -1):
                if out[j].is_word:
                    p = out[j]
                    out[j] = Token(p.text, p.lower, p.stem, True, True)
                    break
    return out


def _has_pair(lowers: list[str], pairs: tuple[tuple[str, str], ...]) -> bool:
    return any((a, b) in pairs for a, b in zip(lowers, lowers[1:], strict=False))


def _is_irrealis(lowers: list[str]) -> bool:
    """A conditional or counterfactual clause; "asked if …" / "not sure if …" are indirect questions."""
    if _has_pair(lowers, _IRREALIS_PAIRS):
        return True
    for i, w in enumerate(lowers):
        if w in IRREALIS:
            if w in ("if", "unless") and _INDIRECT_QUESTION & set(lowers[max(0, i - 3) : i]):
                continue
            return True
    return False


def split_sentences(text: str) -> list[Sentence]:
    """Segment ``text`` (cut at MAX_TEXT_CHARS) into sentences with offsets, tokens and cues."""
    text = text[:MAX_TEXT_CHARS]
    out: list[Sentence] = []
    for m in _SENT_RE.finditer(text):
        chunk = m.group(0)
        if not chunk.strip():
            continue
        lead = len(chunk) - len(chunk.lstrip())
        start, end = m.start() + lead, m.start() + len(chunk.rstrip())
        tokens = tuple(tokenize(text[start:end]))
        lowers = [t.lower for t in tokens if t.is_word]
        lower_set = set(lowers)
        third = bool(lower_set & THIRD_PARTY)
        reported = bool(lower_set & REPORT_STRONG) or _has_pair(lowers, _READ_FRAMES)
        if not reported and third and lower_set & REPORT_VERBS:
            reported = True
        out.append(
            Sentence(
                start=start,
                end=end,
                tokens=tokens,
                irrealis=_is_irrealis(lowers),
                first_person=bool(lower_set & FIRST_PERSON),
                reported=reported,
                third_party=third,
                stems=frozenset(t.stem for t in tokens if t.is_word),
                texts=frozenset(t.text for t in tokens if t.is_word),
                keys=frozenset((t.stem, t.negated) for t in tokens if t.is_word),
            )
        )
    return out


# Everyday synonyms / hyponyms keyed by plain words that may occur in value descriptions. Keys and entries are
# stemmed when compiled. "not X" entries match a negated X. Upper-case entries of ≤ 3 letters are case-sensitive.
THESAURUS: dict[str, tuple[str, ...]] = {
    # people and roles
    "staff": (
        "staff", "server", "waiter", "waitress", "waitstaff", "manager", "chef", "cook", "kitchen", "host",
        "hostess", "bartender", "cashier", "owner", "employee", "worker", "barista", "busser", "they said",
        "they told", "told them", "they assured", "they promised", "they insisted", "they swore",
    ),
    "customer": ("customer", "guest", "diner", "patron"),
    "friend": ("friend", "coworker", "colleague", "neighbor", "acquaintance"),
    "child": ("child", "kid", "son", "daughter", "baby", "toddler"),
    # communication
    "ask": ("ask", "inquire", "check", "double check", "confirm", "verify", "question"),
    "claim": (
        "claim", "assure", "promise", "swear", "swore", "sworn", "insist", "guarantee", "confirm", "said", "told",
        "tell", "say",
    ),
    "interaction": ("interaction", "interact", "talk", "speak", "spoke", "explain", "discuss"),
    # service outcomes
    "accommodate": (
        "accommodate", "accommodating", "accommodation", "helpful", "adjust", "adjustment", "modify", "substitute",
        "swap", "separately", "separate", "made sure", "took care", "take care", "precaution", "walked us through",
        "knowledgeable",
    ),
    "success": (
        "success", "successfully", "perfect", "perfectly", "great", "happy", "loved", "thoughtful", "appreciated",
        "not problem", "not issue", "not reaction", "safely", "without incident",
    ),
    "dismissive": (
        "dismissive", "dismiss", "dismissed", "brush off", "brushed off", "shrug", "shrugged", "rolled eyes",
        "roll eyes", "eye roll", "laugh", "laughed", "ignore", "ignored", "rude", "careless", "not care",
        "unprofessional", "not bother", "not want bother",
    ),
    "refuse": ("refuse", "refused", "decline", "declined", "not accommodate", "not help", "not tell", "not check"),
    "safe": ("safe", "free", "not contain", "not have", "fine"),
    # health
    "reaction": (
        "reaction", "react", "reacted", "symptom", "hive", "swell", "swollen", "itch", "itchy", "rash", "welt",
        "anaphylaxis", "anaphylactic", "epipen", "wheez",
    ),
    "incident": ("incident", "reaction", "react", "reacted", "episode"),
    "symptom": ("symptom", "sick", "ill"),
    "minor": ("minor", "mild", "mildly", "slight", "slightly", "little", "nothing major", "nothing serious"),
    "mild": ("mild", "mildly", "minor", "slight", "slightly", "nothing major", "nothing serious"),
    "discomfort": (
        "discomfort", "uncomfortable", "itchy", "itching", "itch", "tingle", "tingling", "queasy", "nausea",
        "nauseous", "cramp",
    ),
    "stomach upset": (
        "stomach upset", "upset stomach", "stomach ache", "stomachache", "stomach hurt", "nausea", "nauseous",
        "queasy", "vomit", "threw up", "diarrhea", "cramps", "stomach off", "sick stomach", "bellyache",
    ),
    "visible": ("visible", "redness", "blotchy", "puffy"),
    "hive": ("hive", "welt", "rash", "broke out", "break out"),
    "swell": ("swell", "swelling", "swollen", "swelled", "puffy", "puffed"),
    "medication": (
        "medication", "medicine", "meds", "benadryl", "antihistamine", "zyrtec", "claritin", "allegra", "pill",
        "inhaler", "steroid",
    ),
    "life threatening": ("life threatening", "almost died", "nearly died", "could died"),
    "anaphylaxis": (
        "anaphylaxis", "anaphylactic", "throat closing", "throat close", "throat closed", "throat swell",
        "throat swelled", "throat tight", "not breathe", "trouble breathing", "wheezing", "wheeze",
    ),
    "epipen": ("epipen", "epi pen", "epinephrine", "adrenaline"),
    "ER": ("ER", "emergency room", "hospital", "ambulance", "911", "paramedic", "urgent care"),
    # attitude
    "concern": (
        "concern", "concerned", "worry", "worried", "afraid", "fear", "scared", "scary", "nervous", "anxious",
        "careful", "beware", "caution", "cautious", "risk", "risky", "not risk", "danger", "dangerous", "wary",
        "hesitant", "warning", "warn", "think twice", "avoid", "stay away", "staying away", "unsafe", "not come",
        "not go", "not eat",
    ),
    # sound (a second domain, so that non-food seeds get sensible cues too)
    "noise": ("noise", "noisy", "loud", "quiet", "sound", "music", "volume", "shout", "hear"),
    "loud": ("loud", "noisy", "deafening", "blaring", "shout", "shouting", "yell", "not hear"),
    "quiet": ("quiet", "calm", "peaceful", "hushed", "tranquil"),
}  # fmt: skip
