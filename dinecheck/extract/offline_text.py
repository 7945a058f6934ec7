"""Reading a review for the offline extractor: sentences with offsets, lemmatized tokens, negation, irrealis, voice.

Nothing here knows a seed, a field or a value. It owns:

* sentence segmentation with character offsets (evidence quotes are verbatim slices of the review);
* tokens with their lemma (``simplemma``, English), case kept for short acronyms ("ER", "GF"); hyphenated words
  are split ("gluten-free" → "gluten", "free"), so "X-free" is an ordinary phrase — a *mention* of X, not a negation;
* negation scope: ``not``/``n't``/``no``/``never``/``without``/``refuse`` … negate the next :data:`NEGATION_SCOPE` words
  up to a clause boundary; negated subjects ("nobody", "no one") negate their clause;
* irrealis clauses — words that do not report an event that happened: conditionals (to the end of the sentence),
  modals of possibility ("would", "could have"), habituals ("always", "whenever"), another place ("at another
  restaurant"), explicit figurative markers ("figuratively", "kidding");
* sentence voice: first person, reported speech (hearsay, "other reviewers"), second person / imperative.

The word lists here are English grammar (pronouns, negators, modals, connectives), not topic vocabulary; topic
vocabulary lives in ``data/lexicon.toml``. All work is linear in the text; the text is cut at :data:`MAX_TEXT_CHARS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import simplemma

MAX_TEXT_CHARS = 20_000
NEGATION_SCOPE = 3
CLAUSE_SCOPE = 12

_TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?|[,;:()!?.\"]")
_SENT_RE = re.compile(r"[^.!?\n]*(?:[.!?]+[\"')\]]*|\n|$)")

NEGATORS = frozenset(
    "no not never without none nothing nobody neither nor cannot refuse refused refuses refusing unable barely hardly "
    "scarcely".split()
)
_CLAUSE_NEGATORS = frozenset({"nobody", "nothing", "none", "neither", "noone"})
BOUNDARY = frozenset({",", ";", ":", "(", ")", "but", "however", "although", "though", "yet", "except", "until"})
IRREALIS_TO_END = frozenset("if unless imagine hypothetically suppose supposing".split())
IRREALIS_CLAUSE = frozenset(
    "would wouldn't could've would've might've should've might always whenever usually normally typically".split()
)
FIGURATIVE = frozenset("figuratively metaphorically kidding joking jk lol".split())
_IRREALIS_PAIRS = frozenset({("could", "have"), ("would", "have"), ("might", "have"), ("in", "case")})
_INDIRECT_QUESTION = frozenset("ask asked asking wonder wondered know knew check checked sure see saw".split())
_SPEECH_VERBS = frozenset("said say says told tell assured promised insisted swore claimed".split())
_ELSEWHERE_DET = frozenset({"another", "different", "other"})
_PLACE_NOUNS = frozenset({"place", "restaurant", "spot", "location", "branch", "restaurants", "places"})
_ANY_IRREALIS = IRREALIS_TO_END | IRREALIS_CLAUSE | {a for a, _ in _IRREALIS_PAIRS} | _ELSEWHERE_DET
_NON_REFUSERS = frozenset("i we you it that this there which what who one anyone anybody someone".split())

FIRST_PERSON = frozenset("i me my mine myself we us our ours ourselves i'm i've i'd i'll we're we've we'd".split())
SUBJECT_FIRST_PERSON = frozenset("i we i'm i've i'd i'll we're we've we'd".split())
SECOND_PERSON = frozenset("you your you're you'd you'll yourself anyone anybody".split())
IMPERATIVE_OPENERS = frozenset("do don't never be avoid beware stay watch please skip".split())
REPORT_STRONG = frozenset("heard apparently reportedly rumor rumors supposedly allegedly according".split())
_REPORT_VERBS = frozenset("told tell tells said say says mentioned warned posted wrote".split())
# people other than the speaker who can report something to them (WordNet 'friend', 'relative', 'person' hyponyms)
_REPORTERS = frozenset(
    """friend friends coworker coworkers colleague colleagues neighbor neighbors neighbour someone somebody people
    everyone mom mother dad father sister brother aunt uncle cousin wife husband boyfriend girlfriend roommate""".split()
)
_REPORT_PAIRS = frozenset(
    {("other", "reviewers"), ("other", "reviews"), ("people", "say"), ("people", "said"), ("i", "read"),
     ("read", "that"), ("read", "about"), ("reviewers", "say"), ("reviews", "say")}
)  # fmt: skip


@lru_cache(maxsize=131_072)
def lemma(word: str) -> str:
    """The English lemma of a lower-cased word (``simplemma``; unknown words are returned as they are)."""
    if len(word) <= 2 or word.isdigit():
        return word
    if word.endswith("'s"):
        word = word[:-2]
    return str(simplemma.lemmatize(word, lang="en")).lower()


class Token(NamedTuple):
    """One token (a tuple for speed: reviews are tokenized by the thousand)."""

    text: str  # as written
    lower: str
    lemma: str
    negated: bool
    is_word: bool
    irrealis: bool = False


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence: its character span, its word tokens, and sentence-level voice."""

    start: int
    end: int
    words: tuple[Token, ...]
    first_person: bool
    subject_first_person: bool
    reported: bool
    addressed: bool  # second person or an imperative: advice to the reader
    figurative: bool
    question: bool  # ends with "?": asks, does not assert ("Where is the incredible vegan menu?")
    index: dict[str, tuple[int, ...]]  # lemma (and exact text of acronyms) → word positions

    def positions(self, key: str) -> tuple[int, ...]:
        return self.index.get(key, ())


def tokenize(text: str) -> list[Token]:
    """Tokens (words and punctuation) with negation marks."""
    out: list[Token] = []
    append = out.append
    scope = 0
    prev = ""
    for tok in _TOKEN_RE.findall(text):
        lower = tok.lower()
        if not tok[0].isalnum():
            scope = 0
            append(Token(tok, lower, lower, False, False))
        elif lower in BOUNDARY:
            scope = 0
            append(Token(tok, lower, lower, False, True))
        else:
            is_neg = lower in NEGATORS or lower.endswith("n't")
            lem = "a few" if lower == "few" and prev == "a" else lemma(lower)  # "a few" is some, "few" is scarce
            append(Token(tok, lower, lem, scope > 0 and not is_neg, True))
            if lower in _CLAUSE_NEGATORS or (lower == "one" and prev == "no"):
                scope = CLAUSE_SCOPE
            elif is_neg:
                scope = NEGATION_SCOPE
            elif scope:
                scope -= 1
        prev = lower
    return out


def _irrealis_cue(words: list[Token], i: int) -> str | None:
    """The kind of irrealis cue at word ``i``: "end" (to the end of the sentence), "clause", or None."""
    w = words[i].lower
    if w in IRREALIS_TO_END:
        prev = {t.lower for t in words[max(0, i - 3) : i]}
        return None if w in ("if", "unless") and _INDIRECT_QUESTION & prev else "end"  # "asked if …"
    if w in IRREALIS_CLAUSE:
        prev = {t.lower for t in words[max(0, i - 4) : i]}
        if w.startswith("would") and _SPEECH_VERBS & prev:
            return None  # "she said it would be safe": reported, not hypothetical
        if w == "wouldn't" and i > 0 and words[i - 1].lower not in _NON_REFUSERS:
            return None  # "he wouldn't change it": a refusal that happened
        return "clause"
    if i + 1 < len(words) and (w, words[i + 1].lower) in _IRREALIS_PAIRS:
        return "clause"
    if w in _ELSEWHERE_DET and {t.lower for t in words[i + 1 : i + 3]} & _PLACE_NOUNS:
        return "clause"
    return None


def _mark_irrealis(tokens: list[Token]) -> list[Token]:
    clause: list[int] = []
    c = 0
    for t in tokens:
        if t.lower in BOUNDARY:
            c += 1
        clause.append(c)
    words = [(j, t) for j, t in enumerate(tokens) if t.is_word and t.lower not in BOUNDARY]
    word_toks = [t for _, t in words]
    marked = [False] * len(tokens)
    if not any(t.lower in _ANY_IRREALIS for t in word_toks):
        return tokens
    for k, (j, _t) in enumerate(words):
        kind = _irrealis_cue(word_toks, k)
        if kind == "end":
            for x in range(len(tokens)):
                if clause[x] >= clause[j]:
                    marked[x] = True
        elif kind == "clause":
            for x, cx in enumerate(clause):
                if cx == clause[j]:
                    marked[x] = True
    return [
        Token(t.text, t.lower, t.lemma, t.negated, t.is_word, True) if mk else t
        for t, mk in zip(tokens, marked, strict=True)
    ]


def _index(words: tuple[Token, ...]) -> dict[str, tuple[int, ...]]:
    idx: dict[str, list[int]] = {}
    for i, t in enumerate(words):
        idx.setdefault(t.lemma, []).append(i)
        if t.text.isupper() and len(t.text) <= 3 and t.text.isalpha():
            idx.setdefault("=" + t.text, []).append(i)  # acronyms match case-sensitively ("ER", not "er")
        elif t.lower != t.lemma:
            idx.setdefault(t.lower, []).append(i)  # the surface form too ("swollen" when a cue says "swollen")
    return {k: tuple(v) for k, v in idx.items()}


def _someone_reports(lowers: list[str]) -> bool:
    """Another person is the subject of a reporting verb: "my coworker told me", "a friend who works there said"."""
    if not _REPORT_VERBS.intersection(lowers):
        return False
    return any(w in _REPORT_VERBS and _REPORTERS.intersection(lowers[max(0, i - 5) : i]) for i, w in enumerate(lowers))


def split_sentences(text: str) -> list[Sentence]:
    """Segment ``text`` (cut at MAX_TEXT_CHARS) into sentences with offsets, tokens and voice."""
    text = text[:MAX_TEXT_CHARS]
    out: list[Sentence] = []
    for m in _SENT_RE.finditer(text):
        chunk = m.group(0)
        if not chunk.strip():
            continue
        lead = len(chunk) - len(chunk.lstrip())
        start, end = m.start() + lead, m.start() + len(chunk.rstrip())
        tokens = _mark_irrealis(tokenize(text[start:end]))
        words = tuple(t for t in tokens if t.is_word)
        lowers = [t.lower for t in words]
        lower_set = set(lowers)
        pairs = set(zip(lowers, lowers[1:], strict=False))
        out.append(
            Sentence(
                start=start,
                end=end,
                words=words,
                first_person=bool(lower_set & FIRST_PERSON),
                subject_first_person=bool(lower_set & SUBJECT_FIRST_PERSON),
                reported=bool(lower_set & REPORT_STRONG or pairs & _REPORT_PAIRS) or _someone_reports(lowers),
                addressed=bool(lower_set & SECOND_PERSON) or (bool(lowers) and lowers[0] in IMPERATIVE_OPENERS),
                figurative=bool(lower_set & FIGURATIVE),
                question=text[start:end].rstrip("\"')]").endswith("?"),
                index=_index(words),
            )
        )
    return out
