"""search = request match ⋈ allergy evidence: ranking, the --json contract, --where parsing, profiles, hours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dinecheck import load_dataset, make_extractor
from dinecheck.errors import DataError, OntologyError, RequestError, ShorthandError, StoreError
from dinecheck.risk.build import EvidenceIndex, build_evidence
from dinecheck.search import (
    find_restaurants,
    hours_in_words,
    parse_allergens,
    parse_where,
    request_catalog_from,
    restaurant_evidence,
    search,
)

MINI = Path(__file__).resolve().parent / "fixtures" / "risk_mini"
CONTRACT = {"business_id", "name", "rank", "request_value", "conditions", "allergy"}
ALLERGY_CONTRACT = {"level", "summary", "reviews_read", "relevant_reviews", "incidents", "exposure_mentions", "review_ids"}


@pytest.fixture(scope="module")
def mini_ds():
    return load_dataset(MINI)[0]


@pytest.fixture(scope="module")
def evidence(mini_ds) -> EvidenceIndex:
    return build_evidence(mini_ds, make_extractor(f"replay:{MINI / 'labels.jsonl'}"))[0]


@pytest.fixture(scope="module")
def k01():
    catalog, source = request_catalog_from(MINI)
    return parse_where("AND(wifi_free, good_for_kids)", catalog, source)


def test_matching_places_ranked_by_evidence(mini_ds, evidence, k01) -> None:
    res = search(mini_ds, request=k01, allergens=["PEANUT"], evidence=evidence)
    assert [(r.business_id, r.rank, r.request_value) for r in res] == [
        ("rm-aware", 1, 1), ("rm-bakery", 2, 1), ("rm-careful", 3, 1),
    ]  # fmt: skip
    assert [r.allergy["PEANUT"].level for r in res] == ["accommodating", "handles_allergen", "incidents_reported"]


def test_near_adds_places_failing_only_unknown_conditions(mini_ds, evidence, k01) -> None:
    res = search(mini_ds, request=k01, allergens=["PEANUT"], evidence=evidence, near=True)
    assert [(r.business_id, r.request_value) for r in res][-1] == ("rm-unknown", 0)
    unknown = res[-1]
    assert [(c.aspect, c.value) for c in unknown.conditions] == [("wifi_free", 0), ("good_for_kids", 1)]


def test_without_request_every_restaurant_is_a_candidate(mini_ds, evidence) -> None:
    res = search(mini_ds, allergens=["peanuts"], evidence=evidence)
    assert [r.business_id for r in res] == ["rm-aware", "rm-quiet", "rm-donut", "rm-unknown", "rm-bakery", "rm-careful"]
    assert {r.request_value for r in res} == {1} and all(r.conditions == () for r in res)


def test_json_contract_names_exactly(mini_ds, evidence, k01) -> None:
    r = search(mini_ds, request=k01, allergens=["PEANUT", "MILK"], evidence=evidence, limit=1)[0]
    obj = json.loads(json.dumps(r.to_json()))
    assert set(obj) == CONTRACT
    assert list(obj["allergy"]) == ["PEANUT", "MILK"]
    assert all(set(v) == ALLERGY_CONTRACT for v in obj["allergy"].values())
    assert obj["conditions"][0] == {"aspect": "wifi_free", "value": 1,
                                    "reason": obj["conditions"][0]["reason"]} and obj["conditions"][0]["reason"]
    assert obj["allergy"]["PEANUT"] == {
        "level": "accommodating", "summary": "staff accommodated twice", "reviews_read": 3, "relevant_reviews": 2,
        "incidents": 0, "exposure_mentions": 0, "review_ids": ["rm-aware-r0", "rm-aware-r1"],
    }  # fmt: skip


def test_limit_and_plain_facts(mini_ds, evidence, k01) -> None:
    res = search(mini_ds, request=k01, allergens=["PEANUT"], evidence=evidence, limit=2)
    assert len(res) == 2
    assert (res[0].address, res[0].stars, res[0].hours) == (
        "103 Test St, Philadelphia", 4.0, "Mon–Thu 7:00–15:00; Fri 7:00–18:00; Sat 8:00–18:00; closed Sun")
    with pytest.raises(RequestError, match="--limit must be at least 1"):
        search(mini_ds, limit=0)


def test_evidence_computed_on_the_fly_equals_a_built_index(mini_ds, k01) -> None:
    built = build_evidence(mini_ds, make_extractor("offline"), codes=("PEANUT",))[0]
    a = search(mini_ds, request=k01, allergens=["PEANUT"])
    b = search(mini_ds, request=k01, allergens=["PEANUT"], evidence=built)
    assert [r.to_json() for r in a] == [r.to_json() for r in b]


def test_missing_evidence_is_an_error_not_an_empty_answer(mini_ds, k01) -> None:
    with pytest.raises(StoreError, match=r"no allergy evidence for 3 of 3 restaurants .*dinecheck risk build"):
        search(mini_ds, request=k01, allergens=["PEANUT"], evidence=EvidenceIndex())


def test_restaurant_evidence(evidence) -> None:
    got = restaurant_evidence(evidence, "rm-careful", ["PEANUT", "dairy"])
    assert list(got) == ["PEANUT", "MILK"] and got["PEANUT"].level == "incidents_reported"
    assert len(restaurant_evidence(evidence, "rm-careful")) == 15
    with pytest.raises(DataError, match="no allergy evidence for restaurant 'nope'"):
        restaurant_evidence(evidence, "nope")


@pytest.mark.parametrize(("spec", "codes"), [
    ("PEANUT,MILK", ("PEANUT", "MILK")),
    ("milk, peanut", ("PEANUT", "MILK")),
    ("peanuts,dairy,tree nuts", ("PEANUT", "MILK", "TREE_NUTS")),
    ("Sulfites, soya, eggs, crustaceans", ("EGG", "SOY", "SHELLFISH", "SULPHITES")),
    ("all", None),
])  # fmt: skip
def test_parse_allergens(spec: str, codes: tuple[str, ...] | None) -> None:
    got = parse_allergens(spec)
    assert got == codes if codes else len(got) == 15


@pytest.mark.parametrize(("spec", "message"), [
    ("", "the allergen profile is empty"),
    ("PEANUT,KIWI", "unknown allergen KIWI; known: PEANUT, MILK"),
])  # fmt: skip
def test_parse_allergens_errors(spec: str, message: str) -> None:
    with pytest.raises(OntologyError, match=message):
        parse_allergens(spec)


def test_where_json_forms(mini_ds) -> None:
    cond = {"aspect": "wifi_free", "evidence": {"kind": "item_meta", "path": ["attributes", "WiFi"], "true": "u'free'"}}
    single = parse_where(json.dumps(cond))
    assert single.structure.op == "AND" and len(single.structure.args) == 1
    tree = parse_where(json.dumps({"op": "NOT", "args": [cond]}))
    assert {r.business_id for r in search(mini_ds, request=tree)} == {"rm-donut"}  # NOT(unknown) stays unknown
    full = parse_where(json.dumps({"id": "Q", "structure": {"op": "OR", "args": [cond]}}))
    assert full.id == "Q"


@pytest.mark.parametrize(("text", "error", "message"), [
    ("   ", RequestError, "--where: --where is empty"),
    ("{bad", RequestError, "--where: invalid JSON"),
    ("AND(wifi_fre)", ShorthandError, "--where: unknown condition name 'wifi_fre'; known (requests.jsonl): good_for_kids, wifi_free"),
    ("AND(wifi_free", ShorthandError, ""),
])  # fmt: skip
def test_where_errors(text: str, error: type[Exception], message: str) -> None:
    catalog, source = request_catalog_from(MINI)
    with pytest.raises(error) as exc:
        parse_where(text, catalog, source)
    assert str(exc.value).startswith(message)


@pytest.mark.parametrize(("hours", "words"), [
    (None, "hours unknown"),
    ({}, "hours unknown"),
    ({d: "8:0-16:30" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")},
     "Mon–Sun 8:00–16:30"),
    ({"Monday": "0:0-0:0", "Wednesday": "7:0-15:0", "Thursday": "7:0-15:0"},
     "Mon 0:00–0:00 (no opening window); closed Tue; Wed–Thu 7:00–15:00; closed Fri–Sun"),
    ({"Friday": "18:0-2:30", "Saturday": "18:0-2:30"}, "closed Mon–Thu; Fri–Sat 18:00–2:30 (past midnight); closed Sun"),
])  # fmt: skip
def test_hours_in_words(hours, words: str) -> None:
    assert hours_in_words(hours) == words


def test_find_restaurants_by_id_exact_name_or_part() -> None:
    names = [("a1", "Square One Coffee", None), ("a2", "Cafe Square One", None), ("a3", "Coffee", None)]
    assert find_restaurants(names, "a2") == [names[1]]
    assert find_restaurants(names, "coffee") == [names[2]]
    assert find_restaurants(names, "square one") == names[:2]
    assert find_restaurants(names, "zzz") == []


def test_the_public_api_names() -> None:
    import dinecheck
    from dinecheck.search import search as module_search

    assert dinecheck.search is module_search  # the function; import the module's other names with `from dinecheck.search import …`
    assert {"search", "restaurant_evidence", "parse_where", "parse_allergens", "SearchResult", "ConditionResult",
            "build_evidence", "open_risk_store", "AllergenEvidence", "EvidenceIndex"} <= set(dinecheck.__all__)
