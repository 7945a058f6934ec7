"""One test per rule of evidence_semantics.md §3–§6, through the real engine."""

from __future__ import annotations

import pytest

R = "r1"


def rest(attrs=None, hours=None, bid=R):
    return {"business_id": bid, "name": bid, "attributes": attrs, "hours": hours}


def im(**kw):
    return {"kind": "item_meta", "path": ["attributes", "X"], **kw}


# ---------------------------------------------------------------- item_meta (§3), in rule order
@pytest.mark.parametrize(
    ("value", "evidence", "expected", "rule"),
    [
        # 1. not_true: missing -> +1; match -> -1; else +1 (and it wins over everything after it)
        (None, im(not_true="True"), 1, "not_true: value missing"),
        ("True", im(not_true="True"), -1, "not_true: value matches 'True'"),
        ("False", im(not_true="True"), 1, "not_true: value differs from 'True'"),
        ("True", im(not_true="True", contains="zzz"), -1, "not_true: value matches 'True'"),
        # 2. not_contains: missing -> +1; substring (case-insensitive) -> -1; else +1
        (None, im(not_contains="live"), 1, "not_contains: value missing"),
        ("{'LIVE': True}", im(not_contains="live"), -1, "not_contains: 'live' found"),
        ("{'dj': True}", im(not_contains="live"), 1, "not_contains: 'live' not found"),
        # 3. missing -> the evidence's `missing` (default 0); "None" is missing, u'none' is not
        (None, im(true="True"), 0, "value missing → the evidence's 'missing'"),
        ("None", im(true="True"), 0, "value missing → the evidence's 'missing'"),
        (None, im(true="True", missing=-1), -1, "value missing → the evidence's 'missing'"),
        (None, im(contains="x", missing=1), 1, "value missing → the evidence's 'missing'"),
        ("u'none'", im(true="u'free'"), -1, "true: value differs from \"u'free'\""),
        # 4. contains on the text form (a dict in Python's rendering), case-insensitive
        ("{'hipster': True, 'casual': False}", im(contains="'HIPSTER': True"), 1,
         "contains: \"'HIPSTER': True\" found"),
        ("{'hipster': False}", im(contains="'hipster': True"), -1, "contains: \"'hipster': True\" not found"),
        ("u'full_bar'", im(contains="full"), 1, "contains: 'full' found"),
        # 5. a non-empty all-boolean dict: any true -> +1, else -1 (even when `true` is given)
        ("{'garage': False, 'street': True}", im(true="False"), 1, "boolean dict: some value is true"),
        ("{'garage': False, 'street': False}", im(true="True"), -1, "boolean dict: no value is true"),
        ("{'live': True, 'n': 2}", im(true="True"), -1, "true: value differs from 'True'"),  # not all booleans
        # 6. none of true/false/neutral: truthiness
        ("True", im(), 1, "no expected value: truthiness of the value"),
        ("False", im(), -1, "no expected value: truthiness of the value"),
        ("u'free'", im(), 0, "no expected value: truthiness of the value"),
        # 7. only `false` / only `true`
        ("False", im(false="False"), -1, "false: value matches 'False'"),
        ("True", im(false="False"), 1, "false: value differs from 'False'"),
        ("u'quiet'", im(true="u'QUIET'"), 1, "true: value matches \"u'QUIET'\""),
        ("2", im(true="1"), -1, "true: value differs from '1'"),
        ("True", im(true=True), 1, "true: value matches True"),
        ("True", im(true="true"), -1, "true: value differs from 'true'"),
        # 8. several given: true match -> +1, else false match -> -1, else 0
        ("u'free'", im(true="u'free'", false="u'no'"), 1, "true: value matches \"u'free'\""),
        ("u'no'", im(true="u'free'", false="u'no'"), -1, "false: value matches \"u'no'\""),
        ("u'paid'", im(true="u'free'", false="u'no'"), 0, "several expected values: none of true/false matches"),
        ("u'paid'", im(neutral="u'paid'"), 0, "several expected values: none of true/false matches"),
    ],
)
def test_item_meta_rules(build, evaluate_one, value, evidence, expected, rule) -> None:
    attrs = {} if value is None else {"X": value}
    out = evaluate_one(build([rest(attrs)]), evidence)
    assert (out.value, out.rule) == (expected, rule)


def test_item_meta_path_enters_decoded_dict(build, evaluate_one) -> None:
    ds = build([rest({"Ambience": "{'hipster': True, 'romantic': False}"})])
    ev = {"kind": "item_meta", "path": ["attributes", "Ambience", "romantic"], "true": "True"}
    out = evaluate_one(ds, ev)
    assert (out.value, out.evidence["value"]) == (-1, "False")


def test_item_meta_missing_attributes_object(build, evaluate_one) -> None:
    out = evaluate_one(build([rest(None)]), im(true="True"))
    assert (out.value, out.evidence["value"]) == (0, "missing")


# ---------------------------------------------------------------- item_meta_hours (§4)
def hours_ev(window, **kw):
    return {"kind": "item_meta_hours", "path": ["hours", "Friday"], "true": window, **kw}


@pytest.mark.parametrize(
    ("open_", "required", "expected"),
    [
        ("8:0-15:0", "9:0-14:0", 1),
        ("8:0-15:0", "8:0-15:0", 1),  # boundaries are inclusive
        ("8:0-15:0", "7:0-8:0", -1),
        ("8:0-15:0", "14:0-16:0", -1),
        ("18:0-2:0", "21:0-23:0", 1),  # restaurant runs past midnight
        ("18:0-2:0", "23:0-1:30", 1),  # both windows run past midnight
        ("18:0-2:0", "23:0-3:0", -1),
        ("8:0-23:0", "22:0-1:0", -1),  # required window past midnight, restaurant closes at 23:00
        ("18:0-2:0", "0:30-1:30", -1),  # literal rule: 00:30 is before the 18:00 opening
        ("0:0-0:0", "9:0-10:0", -1),  # zero-length, not "open 24 hours"
        ("7:30-18:0", "7:30-8:00", 1),
        ("closed", "9:0-10:0", -1),  # the restaurant's window does not parse
        ("8:0-15:0", "nine-ten", -1),  # the required window does not parse
        ("8:0-25:0", "9:0-10:0", -1),
    ],
)
def test_hours(build, evaluate_one, open_, required, expected) -> None:
    out = evaluate_one(build([rest(hours={"Friday": open_})]), hours_ev(required))
    assert out.value == expected
    assert out.evidence["open"] == repr(open_) and out.evidence["required"] == required


@pytest.mark.parametrize("hours", [None, {}, {"Friday": ""}, {"Friday": "None"}, {"Monday": "8:0-9:0"}])
def test_hours_missing_day(build, evaluate_one, hours) -> None:
    ds = build([rest(hours=hours)])
    assert evaluate_one(ds, hours_ev("9:0-10:0")).value == 0
    assert evaluate_one(ds, hours_ev("9:0-10:0", missing=-1)).value == -1


def test_hours_overnight_minutes_in_evidence(build, evaluate_one) -> None:
    out = evaluate_one(build([rest(hours={"Friday": "18:0-2:0"})]), hours_ev("23:0-1:30"))
    assert out.evidence["open_minutes"] == [1080, 1560]
    assert out.evidence["required_minutes"] == [1380, 1530]


# ---------------------------------------------------------------- review_text (§5)
def rv(text, bid=R, **user):
    return {"business_id": bid, "text": text, "user": user}


def test_plain_search_is_case_insensitive_and_unanchored(build, evaluate_one) -> None:
    ds = build([rest()], [rv("Great LATTES here"), rv("I did my homework"), rv("nothing")])
    out = evaluate_one(ds, {"kind": "review_text", "pattern": "latte"})
    assert (out.value, out.evidence["matching_reviews"]) == (1, ["rv0"])
    assert evaluate_one(ds, {"kind": "review_text", "pattern": "work"}).evidence["matching_reviews"] == ["rv1"]
    assert evaluate_one(ds, {"kind": "review_text", "pattern": "espresso"}).value == -1
    assert evaluate_one(ds, {"kind": "review_text", "pattern": r"home\w+|zzz"}).value == 1


def test_plain_search_no_reviews_is_unknown(build, evaluate_one) -> None:
    out = evaluate_one(build([rest()]), {"kind": "review_text", "pattern": "latte"})
    assert (out.value, out.rule) == (0, "no reviews")


def test_literal_fast_path_agrees_on_non_ascii_text(build, evaluate_one) -> None:
    # U+212A KELVIN SIGN folds to "k" under regex IGNORECASE; the literal fast path must not change that
    ds = build([rest()], [rv("\u212aale salad"), rv("café ok")])
    assert evaluate_one(ds, {"kind": "review_text", "pattern": "kale"}).evidence["matching_reviews"] == ["rv0"]
    assert evaluate_one(ds, {"kind": "review_text", "pattern": "caf"}).evidence["matching_reviews"] == ["rv1"]


def cred(pattern="coffee", field=("user", "review_count"), **kw):
    return {"kind": "review_text", "pattern": pattern, "weight_by": {"field": list(field)}, **kw}


def test_credibility_threshold_is_the_median_of_nonzero_values(build, evaluate_one) -> None:
    # non-zero review_counts sorted: [10, 20, 30, 40] -> index floor(4 * 50 / 100) = 2 -> threshold 30
    ds = build([rest()], [rv("coffee", review_count=0), rv("coffee", review_count=10), rv("tea", review_count=20),
                          rv("coffee", review_count=30), rv("Coffee!", review_count=40)])
    out = evaluate_one(ds, cred())
    assert out.value == 1
    assert out.evidence["threshold"] == 30
    assert out.evidence["credible_matching_reviews"] == ["rv3", "rv4"]
    assert out.evidence["n_nonzero"] == 4


def test_credibility_needs_min_credible_matches(build, evaluate_one) -> None:
    ds = build([rest()], [rv("coffee", review_count=10), rv("tea", review_count=20), rv("tea", review_count=30),
                          rv("coffee", review_count=40)])
    out = evaluate_one(ds, cred())
    assert (out.value, out.evidence["threshold"], out.evidence["credible_matching_reviews"]) == (-1, 30, ["rv3"])
    assert evaluate_one(ds, cred(min_credible_matches=1)).value == 1
    assert evaluate_one(ds, {**cred(), "weight_by": {"field": ["user", "review_count"], "min_credible_matches": 1}}
                        ).value == 1


def test_credibility_percentile_and_cap(build, evaluate_one) -> None:
    ds = build([rest()], [rv("coffee", fans=1), rv("coffee", fans=2), rv("coffee", fans=3)])
    # percentile 100 -> index 3 capped at n - 1 = 2 -> threshold 3 -> one credible review
    out = evaluate_one(ds, {**cred(field=("user", "fans")), "weight_by": {"field": ["user", "fans"],
                                                                            "credibility_percentile": 100}})
    assert (out.value, out.evidence["threshold"]) == (-1, 3)
    out = evaluate_one(ds, cred(field=("user", "fans"), credibility_percentile=0))
    assert (out.value, out.evidence["threshold"]) == (1, 1)


def test_credibility_too_few_nonzero_values(build, evaluate_one) -> None:
    ds = build([rest()], [rv("coffee", fans=0), rv("coffee", fans=5), rv("coffee")])
    out = evaluate_one(ds, cred(field=("user", "fans")))
    assert out.value == -1 and out.rule == "only 1 review(s) have a non-zero user.fans (fewer than 2)"


def test_credibility_elite_counts_entries(build, evaluate_one) -> None:
    ds = build([rest()], [rv("love", elite=["2019", "None", ""]), rv("love", elite=["2018", "2018"]),
                          rv("love", elite=[]), rv("love", elite=["2017", "2018", "2019"])])
    # counts: 1, 2 (duplicates count), 0, 3 -> non-zero [1, 2, 3] -> threshold index 1 -> 2
    out = evaluate_one(ds, cred("love", ("user", "elite")))
    assert (out.value, out.evidence["threshold"], out.evidence["credible_matching_reviews"]) == (1, 2, ["rv1", "rv3"])


def test_credibility_top_level_field_and_no_reviews(build, evaluate_one) -> None:
    ds = build([rest(), rest(bid="r2")], [{**rv("recommend"), "useful": 3}, {**rv("recommend"), "useful": 9}])
    # non-zero [3, 9] -> index floor(2 * 50 / 100) = 1 -> threshold 9 -> one credible match
    out = evaluate_one(ds, cred("recommend", ("useful",)))
    assert (out.value, out.evidence["threshold"], out.evidence["credible_matching_reviews"]) == (-1, 9, ["rv1"])
    assert evaluate_one(ds, cred("recommend", ("useful",), min_credible_matches=1)).value == 1
    assert evaluate_one(ds, cred("recommend", ("useful",)), "r2").value == 0


GRAPH = {"Alice": ["Bob"], "Carol": ["Alice"], "Bob": ["Dan"]}  # Carol -> Alice is one-sided


def social(hops, friends=("Alice",), **kw):
    return {"kind": "review_text", "pattern": "cozy", "social_filter": {"friends": list(friends), "hops": hops},
            **kw}


def test_social_one_hop_is_the_named_friends_only(build, evaluate_one) -> None:
    ds = build([rest(), rest(bid="r2")], [rv("cozy", name="Bob"), rv("so cozy", bid="r2", name="Alice")], GRAPH)
    assert evaluate_one(ds, social(1)).value == -1
    out = evaluate_one(ds, social(1), "r2")
    assert (out.value, out.evidence["circle"], out.evidence["qualifying_reviews"]) == (1, ["Alice"], ["rv1"])


def test_social_two_hops_uses_mutual_edges(build, evaluate_one) -> None:
    ds = build([rest(), rest(bid="r2"), rest(bid="r3")],
               [rv("cozy", name="Carol"), rv("cozy", bid="r2", name="Dan"), rv("cozy", bid="r3", name="alice")],
               GRAPH)
    out = evaluate_one(ds, social(2))
    assert out.value == 1  # Carol lists Alice, Alice does not list Carol: still friends
    assert out.evidence["circle"] == ["Alice", "Bob", "Carol"]
    assert evaluate_one(ds, social(2), "r2").value == -1  # Dan is three hops away
    assert evaluate_one(ds, social(2), "r3").value == -1  # names are case-sensitive


def test_social_min_matches_and_no_reviews(build, evaluate_one) -> None:
    ds = build([rest(), rest(bid="r2")], [rv("cozy", name="Alice"), rv("cozy again", name="Bob")], GRAPH)
    assert evaluate_one(ds, social(2, min_matches=2)).value == 1
    assert evaluate_one(ds, social(1, min_matches=2)).value == -1
    sf_inside = {"kind": "review_text", "pattern": "cozy",
                 "social_filter": {"friends": ["Alice"], "hops": 2, "min_matches": 3}}
    assert evaluate_one(ds, sf_inside).value == -1
    assert evaluate_one(ds, social(1), "r2").value == 0


# ---------------------------------------------------------------- review_meta (§6)
def meta(**kw):
    return {"kind": "review_meta", "path": ["user", "elite"], **kw}


def test_review_meta_not_empty_any_all_count(build, evaluate_one) -> None:
    ds = build([rest()], [{**rv("a", elite=["2019"]), "stars": 5}, {**rv("b", elite=["None", ""]), "stars": 4},
                          {**rv("c", elite=["2020"]), "stars": 2}])
    assert evaluate_one(ds, meta()).value == 1
    out = evaluate_one(ds, meta(agg="all"))
    assert (out.value, out.evidence["passing_reviews"]) == (-1, ["rv0", "rv2"])
    assert evaluate_one(ds, meta(agg="count", count=2)).value == 1
    assert evaluate_one(ds, meta(agg="count", count=3)).value == -1
    assert evaluate_one(ds, meta(agg="count", count=2, min_stars=4)).value == -1  # rv2 dropped
    assert evaluate_one(ds, meta(agg="all", min_stars=5)).value == 1


def test_review_meta_numeric_and_missing(build, evaluate_one) -> None:
    ds = build([rest(), rest(bid="r2")], [{**rv("a"), "stars": 4.0, "useful": 3}, {**rv("b"), "stars": 2.0}])
    assert evaluate_one(ds, {"kind": "review_meta", "path": ["useful"], "op": "gte", "value": 3}).value == 1
    assert evaluate_one(ds, {"kind": "review_meta", "path": ["useful"], "op": "gte", "value": 3,
                             "agg": "all"}).value == -1  # the second review has no `useful`: missing fails
    assert evaluate_one(ds, {"kind": "review_meta", "path": ["stars"], "op": "lte", "value": 2,
                             "agg": "count", "count": 1}).value == 1
    assert evaluate_one(ds, {"kind": "review_meta", "path": ["stars"], "op": "gte", "value": 5}).value == -1
    assert evaluate_one(ds, {"kind": "review_meta", "path": ["useful"], "op": "not_empty"}).value == 1
    assert evaluate_one(ds, meta(), "r2").value == 0
    assert evaluate_one(ds, meta(missing=-1), "r2").value == -1
    assert evaluate_one(ds, meta(agg="all", min_stars=5)).value == -1  # nothing remains


def test_describe_texts(build) -> None:
    from dinecheck.requests.evidence import make_evaluator
    from dinecheck.requests.schema import parse_request

    req = parse_request({"id": "D", "structure": {"op": "AND", "args": [
        {"aspect": "a", "evidence": im(true="True")},
        {"aspect": "b", "evidence": hours_ev("9:0-10:0")},
        {"aspect": "c", "evidence": cred()},
        {"aspect": "d", "evidence": social(2)},
        {"aspect": "e", "evidence": meta(agg="count", count=2, min_stars=4)},
    ]}})
    texts = [make_evaluator(c.evidence).describe() for c in req.structure.args]
    assert texts == [
        "attribute attributes.X is 'True'",
        "open 9:0-10:0 (hours.Friday)",
        "at least 2 review(s) mentioning /coffee/ by reviewers at or above the 50th percentile of user.review_count",
        "at least 1 review(s) mentioning /cozy/ by Alice (2-hop circle)",
        "at least 2 reviews (reviews with ≥ 4 stars): user.elite is not empty",
    ]
