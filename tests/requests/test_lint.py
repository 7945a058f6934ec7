"""Lint: each silent case of issue 13 is reported (also under NOT), with the request id and JSON pointer."""

from __future__ import annotations

from typing import Any

import pytest

from dinecheck.dataset import load_dataset
from dinecheck.requests import Engine, build_catalog, load_requests, parse_request
from dinecheck.requests.lint import Linter, did_you_mean, errors, warnings
from tests.conftest import shared_file
from tests.requests.conftest import build_dataset

RESTAURANTS = [
    {"business_id": "a", "attributes": {"WiFi": "u'free'", "Ambience": "{'hipster': True, 'casual': False}",
                                        "DogsAllowed": "True"},
     "hours": {"Monday": "8:0-15:0"}, "stars": 4.5},
    {"business_id": "b", "attributes": {"WiFi": "'no'", "Ambience": "{'hipster': False}"},
     "hours": {"Monday": "7:0-12:0"}},
]
REVIEWS = [
    {"business_id": "a", "text": "Great latte and a cozy corner.", "useful": 2,
     "user": {"name": "Alice", "review_count": 5, "elite": ["2019"]}},
    {"business_id": "b", "text": "Loud music, fast service.", "useful": 0, "user": {"name": "Bob", "review_count": 9}},
]
GRAPH = {"Alice": ["Bob"]}


@pytest.fixture(scope="module")
def ds():
    return build_dataset(RESTAURANTS, REVIEWS, GRAPH)


@pytest.fixture(scope="module")
def linter(ds):
    return Linter(build_catalog(ds), ds)


def req(evidence: dict[str, Any], negate: bool = False, rid: str = "Q1"):
    leaf = {"aspect": "c", "evidence": evidence}
    node = {"op": "NOT", "args": [leaf]} if negate else leaf
    return parse_request({"id": rid, "structure": {"op": "AND", "args": [node]}})


def pointer(negate: bool) -> str:
    return "/structure/args/0/args/0/evidence" if negate else "/structure/args/0/evidence"


def values(ds, request) -> list[int]:
    eng = Engine(ds)
    return [eng.value(request, r) for r in ds.restaurants]


# (evidence, severity, pointer suffix, message fragment, the value every restaurant silently gets without the lint)
SILENT_CASES = [
    ({"kind": "item_meta", "path": ["attributes", "Wifi"], "true": "u'free'"}, "error", "/path",
     "unknown attribute path attributes.Wifi: no restaurant has it (did you mean 'WiFi'?)", 0),
    ({"kind": "item_meta", "path": ["attributes", "Ambience", "hipstr"], "true": "True"}, "error", "/path",
     "(did you mean 'Ambience.hipster'?)", 0),
    ({"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "u'fre'"}, "warning", "/true",
     "value \"u'fre'\" never occurs for attributes.WiFi (seen: free, no)", -1),
    ({"kind": "item_meta", "path": ["attributes", "Ambience"], "contains": "'hipster': Yes"}, "warning", "/contains",
     "no value of attributes.Ambience contains \"'hipster': Yes\"", -1),
    ({"kind": "item_meta_hours", "path": ["hours", "Monday"], "true": "9am-11am"}, "error", "/true",
     "malformed hours window '9am-11am': expected H:M-H:M", -1),
    ({"kind": "item_meta_hours", "path": ["hours", "Monday"], "true": "25:00-26:00"}, "error", "/true",
     "malformed hours window '25:00-26:00'", -1),
    ({"kind": "item_meta_hours", "path": ["hours", "monday"], "true": "9:0-11:0"}, "error", "/path/1",
     "unknown day 'monday' (did you mean 'Monday'?)", 0),
    ({"kind": "review_text", "pattern": "cozy", "social_filter": {"friends": ["alice"], "hops": 1}}, "warning",
     "/social_filter/friends/0", "unknown friend 'alice': not a reviewer and not in the friend graph "
     "(names are case-sensitive) (did you mean 'Alice'?)", -1),
    ({"kind": "review_text", "pattern": "espresso"}, "warning", "/pattern",
     "pattern 'espresso' matches no review in the dataset", -1),
    ({"kind": "review_text", "pattern": "latte", "weight_by": {"field": ["user", "review_cnt"]}}, "error",
     "/weight_by/field", "unknown review field user.review_cnt: no review has it (did you mean 'user.review_count'?)",
     -1),
    ({"kind": "review_meta", "path": ["usefull"], "op": "gte", "value": 1}, "error", "/path",
     "unknown review field usefull", -1),
]


@pytest.mark.parametrize("negate", [False, True], ids=["plain", "under-NOT"])
@pytest.mark.parametrize(("evidence", "severity", "sub", "fragment", "silent"), SILENT_CASES,
                         ids=[f"{c[0]['kind']}{c[2]}-{i}" for i, c in enumerate(SILENT_CASES)])
def test_each_silent_case_is_reported(ds, linter, evidence, severity, sub, fragment, silent, negate) -> None:
    request = req(evidence, negate)
    # the problem the lint exists for: the condition has the same value for every restaurant …
    assert values(ds, request) == [(-silent if negate else silent)] * 2
    issues = linter.lint(request)
    # … and the lint names it, with request id and JSON pointer, whether or not it sits under NOT
    assert len(issues) == 1, issues
    (issue,) = issues
    assert (issue.request_id, issue.severity, issue.pointer) == ("Q1", severity, pointer(negate) + sub)
    assert fragment in issue.message
    assert str(issue) == f"request Q1 {pointer(negate)}{sub}: {issue.message}"


def test_silent_values_without_lint(ds) -> None:
    """The evaluation semantics are unchanged: a malformed window is −1 everywhere, and true everywhere under NOT."""
    bad = {"kind": "item_meta_hours", "path": ["hours", "Monday"], "true": "9am-11am"}
    assert values(ds, req(bad)) == [-1, -1]
    assert values(ds, req(bad, negate=True)) == [1, 1]


@pytest.mark.parametrize("evidence", [
    {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "u'free'"},
    {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "FREE"},          # case-insensitive value match
    {"kind": "item_meta", "path": ["attributes", "Ambience"], "contains": "'hipster': True"},
    {"kind": "item_meta", "path": ["attributes", "Ambience", "hipster"], "true": True},
    {"kind": "item_meta", "path": ["attributes", "DogsAllowed"], "not_true": "True"},
    {"kind": "item_meta", "path": ["stars"], "true": 4.5},
    {"kind": "item_meta_hours", "path": ["hours", "Monday"], "true": "22:0-2:0"},   # past midnight is well-formed
    {"kind": "review_text", "pattern": "LATTE|mocha"},
    {"kind": "review_text", "pattern": "cozy", "social_filter": {"friends": ["Alice", "Bob"], "hops": 2}},
    {"kind": "review_text", "pattern": "latte", "weight_by": {"field": ["user", "elite"]}},
    {"kind": "review_meta", "path": ["useful"], "op": "gte", "value": 1},
])
def test_clean_conditions_have_no_findings(linter, evidence) -> None:
    assert linter.lint(req(evidence)) == []


def test_other_problems(linter) -> None:
    (issue,) = linter.lint(req({"kind": "item_meta", "path": ["starz"], "true": 4.5}))
    assert issue.severity == "error" and issue.pointer.endswith("/path/0") and "did you mean 'stars'" in issue.message
    found = linter.lint(req({"kind": "item_meta_hours", "path": ["attributes", "Monday"], "true": "9:0-x"}))
    assert [i.pointer.rsplit("/", 1)[-1] for i in found] == ["path", "true"]
    assert len(errors(found)) == 2 and warnings(found) == []


def test_did_you_mean() -> None:
    assert did_you_mean("alice", ["Alice", "Alicia", "Bob"]) == ["Alice"]      # same letters first, alone
    assert did_you_mean("Alise", ["Alice", "Alicia", "Bob"]) == ["Alice"]
    assert did_you_mean("zzz", ["Alice"]) == []
    assert did_you_mean("WIFI", ["WiFi", "Wifi", "HasTV"]) == ["WiFi", "Wifi"]


def test_no_reviews_means_no_review_checks() -> None:
    ds = build_dataset(RESTAURANTS)
    lint = Linter(build_catalog(ds), ds)
    assert lint.lint(req({"kind": "review_text", "pattern": "zzz", "weight_by": {"field": ["nope"]}})) == []


def test_no_dev_request_gets_a_lint_finding(shared_data) -> None:
    ds, _ = load_dataset(shared_file(shared_data, "philly_cafes"))
    reqs = load_requests(shared_file(shared_data, "philly_cafes/requests_dev.jsonl"))
    assert len(reqs) == 49
    assert Linter(build_catalog(ds), ds).lint_all(reqs) == []


def test_the_review_part_of_the_catalog_is_built_only_when_a_request_needs_it() -> None:
    from dinecheck.requests.lint import needs_review_catalog
    from dinecheck.requests.schema import parse_request

    def req(ev: dict) -> object:
        return parse_request({"id": "Q", "structure": {"op": "AND", "args": [{"aspect": "a", "evidence": ev}]}})

    assert not needs_review_catalog([req({"kind": "review_text", "pattern": "latte"}),
                                     req({"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "u'free'"})])
    assert needs_review_catalog([req({"kind": "review_meta", "path": ["user", "elite"], "op": "not_empty"})])
    assert needs_review_catalog([req({"kind": "review_text", "pattern": "x",
                                      "social_filter": {"friends": ["Ann"], "hops": 1}})])
    assert needs_review_catalog([req({"kind": "review_text", "pattern": "x",
                                      "weight_by": {"field": ["user", "review_count"]}})])
