"""General-purpose English language cues for the offline extractor: sentences, tokens, stems, negation, perspective.

Nothing here knows about any seed, field or value name. It owns:

* sentence segmentation with character offsets (so evidence quotes are verbatim slices of the review);
* tokenisation with a light suffix-stripping stemmer, case kept for short acronyms ("ER");
* negation scope (``not``/``n't``/``no``/``never``/``without``/``refused to`` … up to a clause boundary or
  :data:`NEGATION_SCOPE` tokens; negated subjects such as "nobody" negate their clause; ``X-free`` negates ``X``);
* irrealis clauses — tokens that do not report an event that happened here: conditionals (to the end of the
  sentence), modals, habituals ("always", "whenever"), another place ("at a different restaurant"), figurative
  speech ("figuratively");
* sentence flags: first-person speakers, reported speech, third-party experiencers, and "speaker attitude"
  (the speaker or the reader is the subject, an imperative, reported or irrealis — where a *concern* can be voiced);
* word sense: "reaction" in its emotional sense ("my first reaction was shock", "my reaction? Pure joy") gets a stem
  of its own (:data:`FIGURATIVE_STEM`); "he wouldn't / the manager won't" is a refusal, not a hypothesis;
* :data:`ROLE_WORDS` (participants such as "staff", "customer") and :data:`COMPANIONS` (people the speaker knows,
  whose speech acts are reports, not claims);
* :data:`THESAURUS`, a small table of everyday English synonyms and hyponyms keyed by plain words that may appear in
  value descriptions ("staff" → server, waiter …; "medication" → antihistamine …; "allergy" → celiac, "dairy-free",
  "can't have gluten", "asked about shellfish" …). Entries starting with ``not `` match a *negated* occurrence of the
  word ("not care" matches "didn't care"); entries starting with ``~`` are speech acts that do not count when the
  speaker or a companion performs them ("I told", "my friend swears") or when they inform the staff or instruct
  ("she told them", "told me to").

All work is linear in the text length; the text is cut at :data:`MAX_TEXT_CHARS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MAX_TEXT_CHARS = 20_000
NEGATION_SCOPE = 3

_TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?|[,;:()!?.\"]")
_SENT_RE = re.compile(r"[^.!?\n]*(?:[.!?]+[\"')\]]*|\n|$)")

_SUFFIXES = (
    "ically", "fully", "ions", "ion", "ments", "ment", "ingly", "ness", "ings", "ing", "edly",
    "ies", "ied", "ful", "ens", "ist", "ed", "es", "en", "ic", "ly", "s", "y",
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

# Irrealis: words whose clause does not report an event that happened here. Conditionals reach to the end of the
# sentence (the consequent is irrealis too); modals, habituals and "another place" mark their own clause; figurative
# markers mark the whole sentence.
IRREALIS_TO_END = frozenset("if unless imagine hypothetically suppose supposing".split())
IRREALIS_CLAUSE = frozenset(
    """would wouldn't won't could've would've might've should've always whenever usually normally typically
    generally elsewhere""".split()
)
FIGURATIVE = frozenset("figuratively metaphorically kidding joking".split())
_IRREALIS_PAIRS = (("could", "have"), ("would", "have"), ("might", "have"), ("in", "case"))
_PAIR_FIRST = frozenset(a for a, _ in _IRREALIS_PAIRS)
_INDIRECT_QUESTION = frozenset("ask asked asking wonder wondered know knew check checked sure see saw".split())
_SPEECH_VERBS = frozenset(
    "said say says told tell assured assure promised promise insisted swore claimed guaranteed confirmed".split()
)
_ELSEWHERE_DET = frozenset({"another", "different", "other"})
# subjects after which "wouldn't"/"won't" is a hypothesis or a forecast ("I wouldn't risk it", "it won't be
# safe"); after anyone else ("he", "the manager", "… and") it reports a refusal
_NON_REFUSERS = frozenset(
    "i we you it that this there which what who i'd we'd you'd it's that's one anyone anybody someone".split()
)
_PLACE_NOUNS = frozenset({"place", "restaurant", "spot", "location", "branch", "restaurants", "places"})

FIRST_PERSON = frozenset("i me my mine myself we us our ours ourselves i'm i've i'd i'll we're we've we'd".split())
REPORT_STRONG = frozenset(
    "heard apparently reportedly rumor rumors rumour rumours supposedly allegedly according".split()
)
REPORT_VERBS = frozenset(
    "told tell tells telling said say says saying mentioned mentions posted wrote claims claimed".split()
)
KIN = frozenset(
    """mom mother dad father sister brother aunt uncle cousin grandma grandmother grandpa grandfather niece nephew
    husband wife partner son daughter parents""".split()
)
SUBJECT_FIRST_PERSON = frozenset("i we i'm i've i'd i'll we're we've we'd".split())
SECOND_PERSON = frozenset("you your you're you'd you'll yourself anyone anybody someone somebody".split())
IMPERATIVE_OPENERS = frozenset("do don't never be avoid beware stay watch please heads skip".split())
THIRD_PARTY = frozenset(
    """friend friends coworker coworkers co colleague colleagues neighbor neighbour neighbors someone somebody people
    guy woman man lady sister brother cousin club group person acquaintance kid child girl boy customer customers
    diner patron patrons stranger family""".split()
)
_READ_FRAMES = (
    ("i", "read"), ("we", "read"), ("read", "online"), ("read", "that"), ("read", "reviews"), ("read", "about"),
    ("reading", "about"), ("reading", "that"), ("reading", "reviews"), ("reading", "other"),
)  # fmt: skip
# people the speaker knows: a speech verb right after one of them is their report, not a claim by anyone else
COMPANIONS = KIN | frozenset(
    """friend friends coworker coworkers colleague colleagues neighbor neighbour neighbors neighbours roommate
    roommates boyfriend girlfriend buddy""".split()
)
# The emotional sense of "reaction" ("my first reaction was shock", "her brash reactions", "my reaction? Pure joy"):
# such tokens get a stem of their own, so no concept built from the health sense matches them.
REACTION_WORDS = frozenset("reaction reactions react reacted reacting reacts".split())
_EMOTIVE_MODIFIERS = frozenset("first initial gut brash emotional mixed jerk honest".split())
_EMOTIONS = frozenset(
    """shock shocked joy surprise surprised disbelief horror laughter laughing delight delighted amazement awe cringe
    priceless wow excitement excited disappointment disappointed confusion confused outrage outraged speechless
    stunned gasp jealousy envy bliss happiness glee""".split()
)
_MEDICAL_SHOCK = frozenset({"anaphylactic", "into", "in", "septic", "toxic"})
FIGURATIVE_STEM = "~emotional"


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A light, deterministic English stemmer: lower-case, drop ``'s``, strip one common suffix, then a final ``e``."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    if w in STOPWORDS or w in FIRST_PERSON:
        return w
    for suf in _SUFFIXES:
        if (suf == "s" and w.endswith("ss")) or (suf == "ed" and w.endswith("eed")):
            continue  # "success", "speed"
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            if suf in ("ed", "ing", "edly", "ings") and len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]  # "flagged" → "flag", "stopped" → "stop" (but "swelled" → "swell")
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
    irrealis: bool = False  # inside a conditional / modal / habitual / "another place" / figurative clause


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
    speaker_attitude: bool = False  # the speaker or the reader is the subject, or the sentence is reported/irrealis
    subject_first_person: bool = False  # "I" / "we" occur (not only "my" / "our")
    stems: frozenset[str] = frozenset()  # for fast pre-checks before a sequential match
    texts: frozenset[str] = frozenset()
    keys: frozenset[tuple[str, bool]] = frozenset()  # (stem, negated)
    realis_keys: frozenset[tuple[str, bool]] = frozenset()  # the same, outside irrealis clauses

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


def _person_reports(lowers: list[str]) -> bool:
    """A third party or a relative is the subject of a reporting verb: "my mom said", "a friend who works here told"."""
    return any(w in REPORT_VERBS and (THIRD_PARTY | KIN) & set(lowers[max(0, i - 4) : i]) for i, w in enumerate(lowers))


def _has_pair(lowers: list[str], pairs: tuple[tuple[str, str], ...]) -> bool:
    return any((a, b) in pairs for a, b in zip(lowers, lowers[1:], strict=False))


def _irrealis_cue(words: list[Token], i: int) -> str | None:
    """The kind of irrealis cue at word ``i``: "end", "clause", "sentence" or None."""
    w = words[i].lower
    if w in FIGURATIVE:
        return "sentence"
    if w in IRREALIS_TO_END:
        prev = {t.lower for t in words[max(0, i - 3) : i]}
        return None if w in ("if", "unless") and _INDIRECT_QUESTION & prev else "end"  # "asked if …"
    if w in IRREALIS_CLAUSE:
        prev = {t.lower for t in words[max(0, i - 4) : i]}
        if w in ("would", "wouldn't", "won't") and _SPEECH_VERBS & prev:
            return None  # "she said it would be safe": reported future, not a hypothesis
        if w in ("wouldn't", "won't") and i > 0 and words[i - 1].lower not in _NON_REFUSERS:
            return None  # "he wouldn't tell me", "the manager won't change it": a refusal that happened
        return "clause"
    if w in _PAIR_FIRST and i + 1 < len(words) and (w, words[i + 1].lower) in _IRREALIS_PAIRS:
        return "clause"
    if w in _ELSEWHERE_DET and {t.lower for t in words[i + 1 : i + 3]} & _PLACE_NOUNS:
        return "clause"
    return None


def mark_irrealis(tokens: list[Token]) -> list[Token]:
    """Set ``irrealis`` on the tokens of irrealis clauses (clauses end at , ; : ( ) but however …)."""
    clause: list[int] = []
    c = 0
    for t in tokens:
        if t.lower in _BOUNDARY:
            c += 1
        clause.append(c)
    words = [(j, t) for j, t in enumerate(tokens) if t.is_word and t.lower not in _BOUNDARY]
    word_toks = [t for _, t in words]
    marked = [False] * len(tokens)
    for k, (j, _t) in enumerate(words):
        kind = _irrealis_cue(word_toks, k)
        if kind == "sentence":
            marked = [True] * len(tokens)
            break
        if kind == "end":
            for x in range(len(tokens)):
                if clause[x] >= clause[j]:
                    marked[x] = True
        elif kind == "clause":
            for x, cx in enumerate(clause):
                if cx == clause[j]:
                    marked[x] = True
    return [
        Token(t.text, t.lower, t.stem, t.negated, t.is_word, True) if mk else t
        for t, mk in zip(tokens, marked, strict=True)
    ]


def _emotions_in(words: list[str]) -> bool:
    return any(w in _EMOTIONS and not (w == "shock" and k > 0 and words[k - 1] in _MEDICAL_SHOCK)
               for k, w in enumerate(words))  # fmt: skip


def mark_emotional_reactions(tokens: list[Token], next_words: list[str]) -> list[Token]:
    """Give "reaction" in its emotional sense a stem of its own: after "first"/"initial"/"gut"/"brash" …, followed
    within five words by an emotion ("my reaction was pure shock"), or asked about right before a short exclamation
    of one ("My reaction to the first sip? Pure joy.")."""
    words = [(j, t) for j, t in enumerate(tokens) if t.is_word]
    if not any(t.lower in REACTION_WORDS for _, t in words):
        return tokens
    lowers = [t.lower for _, t in words]
    short_next = len(next_words) <= 4 and _emotions_in(next_words)
    out = list(tokens)
    for k, (j, t) in enumerate(words):
        if t.lower not in REACTION_WORDS:
            continue
        if (
            (k > 0 and lowers[k - 1] in _EMOTIVE_MODIFIERS)
            or _emotions_in(lowers[k + 1 : k + 6])
            or (short_next and tokens[-1].text == "?")
        ):
            out[j] = Token(t.text, t.lower, FIGURATIVE_STEM, t.negated, t.is_word, t.irrealis)
    return out


def split_sentences(text: str) -> list[Sentence]:
    """Segment ``text`` (cut at MAX_TEXT_CHARS) into sentences with offsets, tokens and cues."""
    text = text[:MAX_TEXT_CHARS]
    out: list[Sentence] = []
    spans: list[tuple[int, int, list[Token]]] = []
    for m in _SENT_RE.finditer(text):
        chunk = m.group(0)
        if not chunk.strip():
            continue
        lead = len(chunk) - len(chunk.lstrip())
        start, end = m.start() + lead, m.start() + len(chunk.rstrip())
        spans.append((start, end, mark_irrealis(tokenize(text[start:end]))))
    for n, (start, end, toks) in enumerate(spans):
        next_words = [t.lower for t in spans[n + 1][2] if t.is_word] if n + 1 < len(spans) else []
        tokens = tuple(mark_emotional_reactions(toks, next_words))
        lowers = [t.lower for t in tokens if t.is_word]
        lower_set = set(lowers)
        third = bool(lower_set & THIRD_PARTY)
        reported = bool(lower_set & REPORT_STRONG) or _has_pair(lowers, _READ_FRAMES)
        if not reported and lower_set & REPORT_VERBS:
            reported = _person_reports(lowers) or (third and not lower_set & SUBJECT_FIRST_PERSON)
        out.append(
            Sentence(
                start=start,
                end=end,
                tokens=tokens,
                irrealis=any(t.irrealis for t in tokens),
                speaker_attitude=bool(lower_set & (SUBJECT_FIRST_PERSON | SECOND_PERSON))
                or (bool(lowers) and lowers[0] in IMPERATIVE_OPENERS)
                or reported
                or any(t.irrealis for t in tokens),
                first_person=bool(lower_set & FIRST_PERSON),
                subject_first_person=bool(lower_set & SUBJECT_FIRST_PERSON),
                reported=reported,
                third_party=third,
                stems=frozenset(t.stem for t in tokens if t.is_word),
                texts=frozenset(t.text for t in tokens if t.is_word),
                keys=frozenset((t.stem, t.negated) for t in tokens if t.is_word),
                realis_keys=frozenset((t.stem, t.negated) for t in tokens if t.is_word and not t.irrealis),
            )
        )
    return out


# Participants: words naming who took part, not what happened ("Staff CLAIMED safe BUT customer still had reaction":
# "customer" alone does not evidence the second clause).
ROLE_WORDS = frozenset(
    "staff customer guest diner patron friend child kid person people someone somebody employee".split()
)

# Foods people avoid for allergies or intolerances: "dairy-free", "can't have gluten", "nut sensitivity", "asked if
# there was shellfish" talk about an allergy without naming it.
_AVOIDED_FOODS = (
    "peanut", "tree nut", "nut", "dairy", "milk", "lactose", "gluten", "wheat", "egg", "soy", "sesame", "shellfish",
    "shrimp",
)  # fmt: skip
_AVOIDANCE_FRAMES = (
    "not {} free", "not have {}", "not eat {}", "{} sensitivity", "{} sensitive", "sensitive to {}", "ask about {}",
    "ask if {}", "ask whether {}",
)  # fmt: skip
_AVOIDANCE = tuple(frame.format(food) for food in _AVOIDED_FOODS for frame in _AVOIDANCE_FRAMES)

# Everyday synonyms / hyponyms keyed by plain words that may occur in value descriptions. Keys and entries are
# stemmed when compiled. "not X" entries match a negated X. Upper-case entries of ≤ 3 letters are case-sensitive.
THESAURUS: dict[str, tuple[str, ...]] = {
    # people and roles
    "staff": (
        "staff", "server", "waiter", "waitress", "waitstaff", "manager", "chef", "cook", "kitchen", "host",
        "hostess", "bartender", "cashier", "owner", "employee", "worker", "barista", "busser", "busboy", "they said",
        "they made", "they checked", "they offered", "they told", "told them", "they assured", "they promised",
        "they insisted", "they swore", "were told", "was told", "team", "crew", "staffer", "counter", "register",
        "nobody here", "no one here", "anyone here", "restaurant said", "restaurant swore", "restaurant claimed",
        "restaurant assured", "restaurant insisted", "they cooked", "they brought", "they swapped", "they changed",
        "they knew", "they explained", "they refused", "they argued",
    ),
    "customer": ("customer", "guest", "diner", "patron"),
    "friend": ("friend", "coworker", "colleague", "neighbor", "acquaintance"),
    "child": ("child", "kid", "son", "daughter", "baby", "toddler"),
    # communication
    "ask": ("ask", "inquire", "check", "double check", "confirm", "verify", "question"),
    "claim": (  # "~": not by the speaker or a companion ("I told the waiter", "my friend swears": no staff claim)
        "claim", "~assure", "~promise", "~swear", "~swore", "~sworn", "~insisted", "~guarantee", "~guaranteed",
        "~confirm", "~said", "~told", "~tell", "~say",
    ),
    "interaction": ("interaction", "interact", "talk", "speak", "spoke", "explain", "discuss"),
    # service outcomes
    "accommodate": (
        "accommodate", "accommodating", "accommodation", "helpful", "adjust", "adjustment", "modify", "substitute",
        "swap", "separately", "separate", "made sure", "took care", "take care", "precaution", "walk through",
        "careful",
        "knowledgeable", "above and beyond", "offer", "alternative", "made without", "make without", "left off",
        "leave off", "take seriously", "took seriously", "cater", "special", "flag", "patient", "sweet", "kind",
        "understanding", "gracious", "reassure", "attentive", "not fuss", "not blink", "ingredient list",
        "allergen menu", "allergen chart", "allergen list", "binder", "recipe", "came to the table", "go over",
        "went over", "answered", "dedicated", "adapt", "talk through", "change gloves", "changed gloves",
        "fresh gloves", "clean pan",
    ),
    "success": (
        "success", "successfully", "perfect", "perfectly", "great", "happy", "loved", "thoughtful", "appreciated",
        "not problem", "not issue", "not reaction", "safely", "without incident", "thrilled", "delighted",
        "relieved", "grateful", "thank you", "not trouble", "felt great", "felt fine", "enjoyed", "impressed",
        "amazing", "wonderful", "fantastic", "excellent", "best", "VIP", "peace of mind", "worry free",
        "ate every bite",
    ),
    "dismissive": (
        "dismissive", "dismiss", "dismissed", "brush off", "brushed off", "shrug", "shrugged", "rolled eyes",
        "roll eyes", "eye roll", "laugh", "laughed", "ignore", "ignored", "rude", "careless", "not care",
        "unprofessional", "not bother", "not want bother", "pick around", "acted like", "being difficult", "argue",
        "insult", "insulting", "condescending", "sigh", "annoyed", "attitude", "walked away", "walk away",
        "walked off", "mock", "scoff", "lecture", "pick off", "pick out", "scrape off", "whatever", "not listen",
        "unhelpful", "impatient", "snapped", "snippy", "snarky", "sarcastic",
    ),
    "refuse": (
        "refuse", "refused", "decline", "declined", "not accommodate", "~not help", "~not tell", "~not check",
        "~not make", "~not change", "~not modify", "~not substitute", "not willing", "not do substitutions",
    ),
    "safe": ("safe", "free", "not contain", "not have", "fine"),
    # health
    "allergy": (
        "allergy", "allergic", "allergen", "allergist", "celiac", "coeliac", "intolerance", "intolerant",
        "anaphylaxis", "anaphylactic", "epipen", *_AVOIDANCE,
    ),
    "reaction": (
        "reaction", "react", "reacted", "symptom", "hive", "swell", "swollen", "itch", "itchy", "rash", "welt",
        "anaphylaxis", "anaphylactic", "epipen", "wheez", "blotch", "tingle", "vomit",
    ),
    "incident": ("incident", "reaction", "react", "reacted", "episode"),
    "symptom": ("symptom", "sick", "ill"),
    "minor": ("minor", "mild", "mildly", "slight", "slightly", "a little", "nothing major", "nothing serious"),
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
        "not go", "not eat", "hurt", "harm", "matter of time", "not place", "steer clear", "only imagine",
        "not imagine", "imagine what", "what would happen", "what could happen", "could have happened",
        "what if", "on edge", "dread", "terrified", "terrifying", "paranoid", "anxiety", "panic",
        "gamble", "roulette", "accident waiting", "keep thinking", "heads up", "fair warning", "PSA",
    ),
    # sound (a second domain, so that non-food seeds get sensible cues too)
    "noise": ("noise", "noisy", "loud", "quiet", "sound", "music", "volume", "shout", "hear"),
    "loud": ("loud", "noisy", "deafening", "blaring", "shout", "shouting", "yell", "not hear"),
    "quiet": ("quiet", "calm", "peaceful", "hushed", "tranquil"),
}  # fmt: skip
