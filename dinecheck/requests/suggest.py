"""Suggest new benchmark requests for a gold restaurant (request_structure.md, "Creating New Requests").

1. *Candidates*: conditions that hold (+1) for the gold — attribute values (``true``, or ``contains "'hipster': True"``
   for a true sub-key), opening-hours windows (standard day slots and the gold's own first/last hour), words of its
   reviews (lower-case words, not the restaurant's name, no function words), the same words weighted by reviewer
   credibility, review-metadata extremes (``review_meta`` ``gte`` the gold's highest value) and social circles (a
   reviewer of the gold and a word of their review, 1 or 2 hops). Each is evaluated against every restaurant with the
   request engine, so its set of satisfying restaurants is exact.
2. *Shape*: each group G01–G10 has a shape (below); the special part of the shape (an hours window, a credibility
   condition, OR-groups of review conditions, a social condition) is filled from the candidates, rarest first, and the
   smallest set of attribute *anchors* that makes the whole request true for the gold alone is searched for (sets of
   satisfying restaurants as bitsets; AND = intersection, OR = union — exact for "value is +1").
3. *Check*: every suggestion is parsed, linted (no finding) and validated with the engine; only ``ok`` ones are
   returned, fewest conditions first, then rarest.

Shapes (the dev requests' own shapes where they differ from the spec's table): G01 ``AND(a, b, …)`` attributes;
G02 ``AND(review_word, a, …)``; G03 ``AND(hours, a, …)``; G04 ``AND(a, …, credible_review)``; G05
``AND(a, …, OR(r, s, t))``; G06 ``AND(a, …, OR(AND(r, s), AND(t, u)))``; G07 ``AND(a, …, OR(r, s), OR(t, u))``; G08
``AND(a, …, OR(r, AND(s, t)))``; G09 ``1HOP([friend], word)``; G10 ``2HOP([friend], word)``.

The natural text comes from templates (:func:`request_text`); pure functions over a loaded dataset.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType
from typing import Any

from dinecheck.dataset import Dataset, Restaurant
from dinecheck.errors import RequestError
from dinecheck.requests import shorthand as sh
from dinecheck.requests.catalog import DAYS, Catalog, build_catalog
from dinecheck.requests.decode import MISSING, resolve_path
from dinecheck.requests.evaluate import Engine
from dinecheck.requests.evidence import parse_window
from dinecheck.requests.labels import attribute_label, attribute_phrase
from dinecheck.requests.lint import Linter
from dinecheck.requests.schema import Condition, Request, parse_request
from dinecheck.requests.validate import validate_requests

GROUPS = MappingProxyType({
    "G01": "Simple AND", "G02": "Review anchor", "G03": "Opening hours", "G04": "Review metadata weighting",
    "G05": "Triple OR with anchor", "G06": "Nested OR+AND", "G07": "Chained OR", "G08": "Unbalanced structure",
    "G09": "Direct friends (1-hop)", "G10": "Social circle (2-hop)",
})
DEFAULT_MAX_CONDITIONS = 6
ANCHOR_POOL = 24
"""How many of the rarest anchor candidates the exhaustive search combines."""

# General English function words (closed-class words: articles, pronouns, prepositions, auxiliaries, conjunctions) and
# review boilerplate verbs; they make no sense as a request condition.
STOPWORDS = frozenset("""
about above after again against also although always among another anything around away back because been before
being below between both came cannot come could did does doing done down during each either else even ever every
from further gave give goes going gone good got great had has have having here hers herself himself however into
itself just know last less like made make many maybe might more most much must myself never next nice none nothing
only other ours ourselves over own place really said same says seem several shall should since some something still
such take than that their theirs them themselves then there these they thing things think this those though through
thus time together told took toward under until upon very want was were what whatever when where whether which while
who whom whose will with within without would your yours yourself yourselves went well back came much also just
""".split())
_WORD = re.compile(r"\b[a-z]{4,14}\b")
_SLOTS = (("early_morning", "7:0-9:0"), ("morning", "9:0-11:0"), ("lunch", "12:0-14:0"), ("afternoon", "14:0-17:0"),
          ("evening", "18:0-21:0"), ("late_night", "21:0-23:0"))
_CREDIBILITY = MappingProxyType({
    ("user", "review_count"): ("reviewer_experience", "experienced reviewers"),
    ("user", "fans"): ("reviewer_popularity", "popular reviewers"),
    ("user", "elite"): ("elite_status", "elite reviewers"),
    ("useful",): ("review_helpfulness", "helpful reviews"),
})


@dataclass(frozen=True)
class Candidate:
    """One condition that holds for the gold: its JSON node, how a text says it, what it constrains (two conditions on
    the same ``key`` are never combined), its class, and the restaurants satisfying it (bitset over dataset order)."""

    node: dict[str, Any]
    phrase: str
    key: str
    cls: str  # attribute | hours | review | credibility | review_meta | social
    mask: int
    count: int
    df: int = 0  # for words: in how many restaurants' reviews the word occurs (higher reads more natural)


@dataclass(frozen=True)
class Suggestion:
    """A validated request (status ``ok``) and the counts behind it."""

    request: Request
    line: dict[str, Any]
    n_conditions: int
    rarity: int
    condition_counts: tuple[tuple[str, int], ...] = field(default=())
    phrases: tuple[str, ...] = field(default=())


def _mask_count(mask: int) -> int:
    return bin(mask).count("1")


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_").replace("wi_fi", "wifi")


def _yelp(value: Any) -> Any:
    """The expected value as a request writes it: booleans as Yelp's ``"True"``/``"False"``, text as it is."""
    if isinstance(value, bool):
        return "True" if value else "False"
    return value


def _hm(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60}"


def _clock(minutes: int) -> str:
    return f"{(minutes // 60) % 24}:{minutes % 60:02d}"


class Suggester:
    """Per-dataset state for suggesting requests (catalog, engine, word statistics); reuse it for many golds."""

    def __init__(self, dataset: Dataset, catalog: Catalog | None = None) -> None:
        self.ds = dataset
        self.catalog = catalog or build_catalog(dataset)
        self.engine = Engine(dataset)
        self.linter = Linter(self.catalog, dataset)
        self._words: dict[str, set[str]] = {}
        df: Counter[str] = Counter()
        for r in dataset.restaurants:
            ws = {w for rv in dataset.reviews_of(r.business_id) for w in _WORD.findall(rv.text)} - STOPWORDS
            self._words[r.business_id] = ws
            df.update(ws)
        self._df = df

    # -- candidates -------------------------------------------------------------------------------------------------
    def _evaluate(self, nodes: list[dict[str, Any]], gold: Restaurant) -> list[tuple[int, int]]:
        """(mask, count) of each condition node, in order."""
        conds = [Condition.model_validate(n) for n in nodes]
        cols = self.engine.condition_values([("suggest", f"/candidate/{i}", c) for i, c in enumerate(conds)])
        out = []
        for col in cols:
            mask = 0
            for i, v in enumerate(col):
                if v == 1:
                    mask |= 1 << i
            out.append((mask, _mask_count(mask)))
        return out

    def _keep(self, specs: list[tuple[dict[str, Any], str, str, str, int]], gold: Restaurant) -> list[Candidate]:
        if not specs:
            return []
        gbit = 1 << gold.index
        got = self._evaluate([s[0] for s in specs], gold)
        return [Candidate(node, phrase, key, cls, mask, count, df)
                for (node, phrase, key, cls, df), (mask, count) in zip(specs, got, strict=True) if mask & gbit]

    def attribute_candidates(self, gold: Restaurant) -> list[Candidate]:
        specs: list[tuple[dict[str, Any], str, str, str, int]] = []
        for info in self.catalog.attributes:
            if info.kind in ("dict", "none") or len(info.path) > 3:
                continue
            value = resolve_path(gold.raw, info.path)
            if value is MISSING or isinstance(value, (dict, list, tuple)) or value is None:
                continue
            if len(info.path) == 2:
                aspect = self._attr_aspect(info.path, value)
                ev = {"kind": "item_meta", "path": list(info.path), "true": _yelp(value)}
            elif value is True:
                aspect = _snake(attribute_label(info.path))
                ev = {"kind": "item_meta", "path": list(info.path[:2]), "contains": f"'{info.path[2]}': True"}
            else:
                continue
            specs.append(({"aspect": aspect, "evidence": ev}, attribute_phrase(info.path, value), ".".join(info.path),
                          "attribute", 0))
        return self._keep(specs, gold)

    @staticmethod
    def _attr_aspect(path: Sequence[str], value: Any) -> str:
        base = _snake(attribute_label(path))
        if value is True:
            return base
        if value is False:
            return "no_" + re.sub(r"^(has|accepts|offers|takes)_", "", base)
        return f"{base}_{_snake(str(value))}"

    def hours_candidates(self, gold: Restaurant) -> list[Candidate]:
        specs: list[tuple[dict[str, Any], str, str, str, int]] = []
        for day in DAYS:
            raw = gold.hours.get(day)
            have = parse_window(raw) if isinstance(raw, str) else None
            if have is None or have[1] <= have[0]:
                continue
            windows = [(slot, w) for slot, w in _SLOTS]
            if have[1] - have[0] >= 60:
                windows.append((f"from_{_snake(_hm(have[0]))}", f"{_hm(have[0])}-{_hm(have[0] + 60)}"))
                windows.append((f"until_{_snake(_hm(have[1] % 1440))}",
                                f"{_hm(have[1] - 60)}-{_hm(have[1] % 1440)}"))
            for slot, window in windows:
                need = parse_window(window)
                if need is None or not (have[0] <= need[0] and have[1] >= need[1]):
                    continue
                node = {"aspect": f"hours_{day.lower()}_{slot}",
                        "evidence": {"kind": "item_meta_hours", "path": ["hours", day], "true": window}}
                phrase = f"open on {day}s from {_clock(need[0])} to {_clock(need[1])}"
                specs.append((node, phrase, f"hours.{day}.{window}", "hours", 0))
        return self._keep(specs, gold)

    def _gold_words(self, gold: Restaurant) -> list[str]:
        name_words = {w.lower() for w in re.findall(r"[A-Za-z]+", gold.name)}
        return sorted(w for w in self._words.get(gold.business_id, set()) if w not in name_words)

    def review_candidates(self, gold: Restaurant, limit: int = 60) -> list[Candidate]:
        """Words of the gold's reviews, rarest first among those that also occur at another restaurant (a word found
        in one restaurant's reviews only is usually a typo or a name)."""
        ws = sorted((w for w in self._gold_words(gold) if self._df[w] >= 2), key=lambda w: (self._df[w], w))[:limit]
        specs = [({"aspect": f"{w}_reviews", "evidence": {"kind": "review_text", "pattern": w}},
                  f"where reviews mention '{w}'", f"word.{w}", "review", self._df[w]) for w in ws]
        return self._keep(specs, gold)

    def credibility_candidates(self, gold: Restaurant, limit: int = 15) -> list[Candidate]:
        freq: Counter[str] = Counter()
        for rv in self.ds.reviews_of(gold.business_id):
            freq.update(set(_WORD.findall(rv.text)) - STOPWORDS)
        name_words = {w.lower() for w in re.findall(r"[A-Za-z]+", gold.name)}
        top = [w for w, n in freq.most_common() if n >= 2 and w not in name_words][:limit]
        specs = []
        for path, (fname, who) in _CREDIBILITY.items():
            if self.catalog.review_field(path) is None:
                continue
            for w in top:
                node = {"aspect": f"review_meta_{fname}_{w}",
                        "evidence": {"kind": "review_text", "pattern": w, "weight_by": {"field": list(path)}}}
                specs.append((node, f"where {who} mention '{w}'", f"word.{w}", "credibility", self._df[w]))
        return self._keep(specs, gold)

    def review_meta_candidates(self, gold: Restaurant) -> list[Candidate]:
        specs = []
        revs = self.ds.reviews_of(gold.business_id)
        for f in self.catalog.review_fields:
            if f.kind != "number":
                continue
            vals = [resolve_path(rv.raw, f.path) for rv in revs]
            nums = [v for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool)]
            if not nums or max(nums) <= 0:
                continue
            top = max(nums)
            node = {"aspect": f"review_meta_{_snake(f.key)}_at_least_{_snake(str(top))}",
                    "evidence": {"kind": "review_meta", "path": list(f.path), "op": "gte", "value": top}}
            phrase = f"with a review whose {f.label[:1].lower() + f.label[1:]} is at least {top:g}"
            specs.append((node, phrase, f"meta.{f.key}", "review_meta", 0))
        return self._keep(specs, gold)

    def social_candidates(self, gold: Restaurant, hops: int, per_author: int = 30) -> list[Candidate]:
        """A reviewer of the gold (for 2 hops also each of their friends, whose circle holds the reviewer) and a word
        of the reviewer's review (words found at two or more restaurants, rarest first)."""
        specs = []
        seen: set[tuple[str, str]] = set()
        name_words = {w.lower() for w in re.findall(r"[A-Za-z]+", gold.name)}
        for rv in self.ds.reviews_of(gold.business_id):
            who = rv.user.social_id
            if not who:
                continue
            ws = sorted((w for w in set(_WORD.findall(rv.text)) - STOPWORDS - name_words if self._df[w] >= 2),
                        key=lambda w: (self._df[w], w))[:per_author]
            friends = [who] if hops == 1 else [who, *sorted(self.ds.social.friends_of(who))]
            for friend in friends:
                for w in ws:
                    if (friend, w) in seen:
                        continue
                    seen.add((friend, w))
                    node = {"aspect": f"social_{w}", "evidence": {
                        "kind": "review_text", "pattern": w, "social_filter": {"friends": [friend], "hops": hops},
                        "min_matches": 1}}
                    phrase = (f"that my friend {friend} mentions '{w}' about" if hops == 1 else
                              f"that {friend} or one of {friend}'s friends mentions '{w}' about")
                    specs.append((node, phrase, f"social.{friend}.{w}", "social", self._df[w]))
        return self._keep(specs, gold)

    # -- search -----------------------------------------------------------------------------------------------------
    def _anchor_sets(self, fixed_mask: int, fixed_keys: set[str], pool: list[Candidate], gold_bit: int,
                     min_anchors: int, max_anchors: int, want: int) -> list[tuple[Candidate, ...]]:
        """The smallest anchor sets (size ≥ min_anchors) whose intersection with ``fixed_mask`` is the gold alone."""
        usable = [c for c in pool if c.key not in fixed_keys]
        usable = sorted(usable, key=lambda c: (c.count, c.key))[:ANCHOR_POOL]
        for k in range(max(min_anchors, 0), max_anchors + 1):
            found: list[tuple[Candidate, ...]] = []
            if k == 0:
                if fixed_mask == gold_bit:
                    found.append(())
            else:
                for combo in combinations(usable, k):
                    m = fixed_mask
                    for c in combo:
                        m &= c.mask
                    if m == gold_bit and len({c.key for c in combo}) == k:
                        found.append(combo)
                        if len(found) >= want:
                            break
            if found:
                return found
        return []

    def suggest(self, gold: Restaurant, group: str = "G01", *, max_conditions: int = DEFAULT_MAX_CONDITIONS,
                limit: int = 5) -> list[Suggestion]:
        """Up to ``limit`` validated (``ok``) requests of the group's shape for ``gold``, best first."""
        if group not in GROUPS:
            raise RequestError(f"unknown group {group!r}; groups are {', '.join(GROUPS)}", "--group")
        if max_conditions < 1:
            raise RequestError("must be at least 1", "--max-conditions")
        gbit = 1 << gold.index
        attrs = self.attribute_candidates(gold)
        drafts: list[tuple[list[Candidate], list[dict[str, Any]], list[Candidate]]] = []  # anchors, fixed nodes, leaves

        def fill(fixed: Iterable[tuple[int, list[dict[str, Any]], list[Candidate]]], min_anchors: int,
                 pool: list[Candidate]) -> None:
            for fmask, nodes, leaves in fixed:
                room = max_conditions - len(leaves)
                if room < min_anchors:
                    continue
                for combo in self._anchor_sets(fmask, {c.key for c in leaves}, pool, gbit, min_anchors, room, limit):
                    drafts.append((list(combo), nodes, leaves))

        all_mask = (1 << len(self.ds.restaurants)) - 1
        if group == "G01":
            fill([(all_mask, [], [])], 2, attrs)
        elif group in ("G02", "G03", "G04"):
            special = {"G02": self.review_candidates, "G03": self.hours_candidates,
                       "G04": self.credibility_candidates}[group](gold)
            special.sort(key=lambda c: (c.count, -c.df, c.key))
            fill(((c.mask, [c.node], [c]) for c in special[:12]), 1, attrs)
        elif group in ("G09", "G10"):
            social = self.social_candidates(gold, 1 if group == "G09" else 2)
            unique = sorted((c for c in social if c.mask == gbit), key=lambda c: (-c.df, c.key))
            drafts += [([], [c.node], [c]) for c in unique[:limit]]
        else:
            leaves = [*self.review_candidates(gold), *self.credibility_candidates(gold),
                      *self.review_meta_candidates(gold)]
            leaves = _distinct(sorted(leaves, key=lambda c: (c.count, -c.df, c.key)))
            fill(_or_parts(group, leaves), 1, attrs)
            if not drafts:
                fill(_or_parts(group, leaves), 1, attrs + self.hours_candidates(gold))
        return self._checked(gold, group, drafts, limit)

    def _checked(self, gold: Restaurant, group: str,
                 drafts: list[tuple[list[Candidate], list[dict[str, Any]], list[Candidate]]],
                 limit: int) -> list[Suggestion]:
        drafts.sort(key=lambda d: (len(d[0]) + len(d[2]), sum(c.count for c in d[0] + d[2])))
        out: list[Suggestion] = []
        seen: set[str] = set()
        for anchors, nodes, leaves in drafts:
            if len(out) >= limit:
                break
            structure = _structure(group, anchors, nodes)
            line: dict[str, Any] = {
                "id": f"X{len(out) + 1:02d}", "group": group, "scenario": f"Suggested: {GROUPS[group]}",
                "text": request_text(gold, group, anchors, leaves, nodes),
                "shorthand": "", "structure": structure, "gold_restaurant": gold.business_id}
            req = parse_request(line, "suggestion")
            key = sh.to_text(sh.from_structure(req.structure))
            line["shorthand"] = key
            if key in seen:
                continue
            req = parse_request(line, "suggestion")
            if self.linter.lint(req):
                continue
            (res,) = validate_requests(self.engine, [req])
            if res.status != "ok" or res.warnings:
                continue
            seen.add(key)
            counts = tuple((c.node["aspect"], c.count) for c in anchors + leaves)
            out.append(Suggestion(req, line, len(anchors) + len(leaves), sum(n for _, n in counts), counts,
                                  tuple(c.phrase for c in anchors + leaves)))
        return out


def _distinct(cands: list[Candidate]) -> list[Candidate]:
    seen: set[str] = set()
    out = []
    for c in cands:
        if c.key not in seen:
            seen.add(c.key)
            out.append(c)
    return out


def _or_parts(group: str, leaves: list[Candidate], variants: int = 6
              ) -> list[tuple[int, list[dict[str, Any]], list[Candidate]]]:
    """Fixed OR-structures of the group's shape from consecutive windows of the rarest leaves."""
    size = {"G05": 3, "G06": 4, "G07": 4, "G08": 3}[group]
    out: list[tuple[int, list[dict[str, Any]], list[Candidate]]] = []
    for start in range(0, max(0, len(leaves) - size + 1)):
        if len(out) >= variants:
            break
        w = leaves[start:start + size]
        m = [c.mask for c in w]
        n = [c.node for c in w]
        if group == "G05":
            out.append((m[0] | m[1] | m[2], [{"op": "OR", "args": n}], w))
        elif group == "G06":
            out.append(((m[0] & m[1]) | (m[2] & m[3]), [{"op": "OR", "args": [
                {"op": "AND", "args": n[:2]}, {"op": "AND", "args": n[2:]}]}], w))
        elif group == "G07":
            out.append(((m[0] | m[1]) & (m[2] | m[3]), [{"op": "OR", "args": n[:2]}, {"op": "OR", "args": n[2:]}], w))
        else:
            out.append((m[0] | (m[1] & m[2]), [{"op": "OR", "args": [n[0], {"op": "AND", "args": n[1:]}]}], w))
    return out


def _structure(group: str, anchors: list[Candidate], fixed: list[dict[str, Any]]) -> dict[str, Any]:
    args = [c.node for c in anchors]
    return {"op": "AND", "args": [*fixed, *args] if group in ("G02", "G03") else [*args, *fixed]}


def _noun(gold: Restaurant) -> str:
    cats = {c.strip() for c in (gold.categories or "").split(",")}
    if cats & {"Cafes", "Coffee & Tea", "Coffee Roasteries", "Internet Cafes", "Themed Cafes"}:
        return "cafe"
    return "restaurant" if "Restaurants" in cats else "place"


_STARTERS = ("with", "without", "where", "that", "serving", "for", "open", "by", "best", "either")


def _clause(phrase: str) -> str:
    return phrase if phrase.split(" ", 1)[0] in _STARTERS else f"that's {phrase}"


def _join(parts: list[str], word: str = "and") -> str:
    if len(parts) <= 1:
        return "".join(parts)
    if len(parts) == 2:
        return f"{parts[0]} {word} {parts[1]}"
    return ", ".join(parts[:-1]) + f", {word} {parts[-1]}"


def _plain_word(node: dict[str, Any]) -> str | None:
    ev = node.get("evidence") or {}
    if ev.get("kind") == "review_text" and set(ev) == {"kind", "pattern"}:
        return str(ev["pattern"])
    return None


def _node_text(node: dict[str, Any], phrase_of: Callable[[dict[str, Any]], str]) -> str:
    if "op" in node:
        plain = [_plain_word(a) for a in node["args"]]
        if all(p is not None for p in plain):
            quoted = [f"'{p}'" for p in plain]
            if node["op"] == "OR":
                return f"where reviews mention {_join(quoted, 'or')}"
            return f"where reviews mention both {_join(quoted, 'and')}" if len(quoted) == 2 else \
                f"where reviews mention all of {_join(quoted, 'and')}"
        inner = [_node_text(a, phrase_of) for a in node["args"]]
        return "either " + _join(inner, "or") if node["op"] == "OR" else _join(inner, "and")
    return phrase_of(node)


def request_text(gold: Restaurant, group: str, anchors: Sequence[Candidate], leaves: Sequence[Candidate],
                 fixed: Sequence[dict[str, Any]]) -> str:
    """The templated natural-language text: "Looking for a cafe that's quiet, with free Wi-Fi, and …"."""
    phrases = {id(c.node): c.phrase for c in list(anchors) + list(leaves)}

    def phrase_of(node: dict[str, Any]) -> str:
        return phrases[id(node)]

    parts = [_clause(c.phrase) for c in anchors] + [_clause(_node_text(n, phrase_of)) for n in fixed]
    if group in ("G02", "G03"):
        parts = parts[len(anchors):] + parts[:len(anchors)]
    return f"Looking for a {_noun(gold)} {_join(parts)}"

