"""Request validation: every invalid shape is a RequestError naming the request id and JSON pointer; hostile input
(huge nonsense files, 10,000-deep nesting, over-long lines) ends in a clear error."""

from __future__ import annotations

import json
import random

import pytest

from dinecheck.errors import DataError, RequestError
from dinecheck.requests import load_groundtruth, load_request, load_requests, parse_request, request_json_schema
from dinecheck.requests.schema import MAX_DEPTH

OK_LEAF = {"aspect": "a", "evidence": {"kind": "item_meta", "path": ["attributes", "X"], "true": "True"}}


def req(structure, **top):
    return {"id": "R7", "structure": structure, **top}


@pytest.mark.parametrize(
    ("structure", "location", "reason"),
    [
        ({"op": "XOR", "args": [OK_LEAF]}, "/structure/op", "Input should be 'AND', 'OR' or 'NOT'"),
        ({"op": "AND", "args": []}, "/structure/args", "List should have at least 1 item after validation, not 0"),
        ({"op": "NOT", "args": [OK_LEAF, OK_LEAF]}, "/structure", "NOT takes exactly one child, got 2"),
        ({"op": "AND", "args": [{"aspect": "a", "evidence": {"kind": "magic"}}]}, "/structure/args/0/evidence",
         "Input tag 'magic' found using 'kind' does not match any of the expected tags: 'item_meta', "
         "'item_meta_hours', 'review_text', 'review_meta'"),
        ({"op": "AND", "args": [{"aspect": "a", "evidence": {"kind": "item_meta", "path": ["x"], "tru": "True"}}]},
         "/structure/args/0/evidence/tru", "Extra inputs are not permitted"),
        ({"op": "OR", "args": [{"op": "AND", "args": [
            {"aspect": "a", "evidence": {"kind": "review_text", "pattern": "caf(e"}}]}]},
         "/structure/args/0/args/0/evidence/pattern", "not a valid regular expression (missing ) at position 5)"),
        ({"op": "AND", "args": [{"aspect": "a", "evidence": {"kind": "review_text", "pattern": "x",
                                                             "social_filter": {"friends": []}}}]},
         "/structure/args/0/evidence/social_filter/friends",
         "List should have at least 1 item after validation, not 0"),
        ({"op": "AND", "args": [{"aspect": "a", "evidence": {"kind": "review_text", "pattern": "x",
                                                             "min_matches": 2}}]},
         "/structure/args/0/evidence", "min_matches needs social_filter"),
        ({"op": "AND", "args": [{"aspect": "a", "evidence": {"kind": "review_meta", "path": ["stars"], "op": "gte"}}]},
         "/structure/args/0/evidence", "op 'gte' needs a numeric 'value'"),
        ({"op": "AND", "args": [{"aspect": "a", "evidence": {"kind": "item_meta", "path": []}}]},
         "/structure/args/0/evidence/path", "path must name at least one key"),
        ({"op": "AND", "args": [{**OK_LEAF, "extra": 1}]}, "/structure/args/0/extra", "Extra inputs are not permitted"),
    ],
)
def test_validation_errors_name_request_and_pointer(structure, location, reason) -> None:
    with pytest.raises(RequestError) as info:
        parse_request(req(structure), "f.jsonl:4")
    assert info.value.location == f"f.jsonl:4 request R7 {location}"
    assert info.value.reason == reason


def test_root_must_be_an_operator_node() -> None:
    with pytest.raises(RequestError) as info:
        parse_request(req(OK_LEAF), "f.jsonl:2")
    assert str(info.value) == ("f.jsonl:2 request R7 /structure: the root of the structure must be an operator node "
                               "(a node with 'op': AND, OR or NOT)")


def test_unknown_top_level_key_is_kept_and_non_object_is_an_error() -> None:
    parsed = parse_request(req({"op": "AND", "args": [OK_LEAF]}, difficulty="hard"))
    assert parsed.model_extra == {"difficulty": "hard"}  # benchmark metadata: kept, not evaluated
    with pytest.raises(RequestError, match="a request must be a JSON object, got list"):
        parse_request([1, 2])


def test_ten_thousand_deep_structure_is_a_clear_error() -> None:
    node = OK_LEAF
    for _ in range(10_000):
        node = {"op": "NOT", "args": [node]}
    with pytest.raises(RequestError) as info:
        parse_request(req(node), "deep.json")
    assert info.value.reason == f"nested deeper than {MAX_DEPTH} levels"
    assert info.value.location.startswith("deep.json request R7 /structure/args/0/args/0/")


def test_ten_thousand_deep_file_is_a_clear_error(tmp_path) -> None:
    text = '{"id": "R1", "structure": ' + '{"op": "NOT", "args": [' * 10_000 + json.dumps(OK_LEAF) + "]}" * 10_000 + "}"
    f = tmp_path / "deep.jsonl"
    f.write_text(text + "\n")
    with pytest.raises(RequestError) as info:
        load_requests(f)
    assert info.value.location == f"{f}:1" or info.value.location.startswith(f"{f}:1 request R1 ")
    assert "nested" in info.value.reason


def test_one_megabyte_of_nonsense(tmp_path) -> None:
    rnd = random.Random(7)
    f = tmp_path / "junk.jsonl"
    f.write_bytes(bytes(rnd.randrange(256) for _ in range(1_000_000)))
    with pytest.raises(RequestError) as info:
        load_requests(f)
    assert info.value.location.startswith(f"{f}:")
    assert info.value.reason.startswith(("invalid JSON", "not valid UTF-8", "a request is"))


def test_one_megabyte_single_line_is_over_the_request_limit(tmp_path) -> None:
    f = tmp_path / "big.jsonl"
    f.write_text('{"id": "R1", "text": "' + "x" * 1_000_000 + '"}\n')
    with pytest.raises(RequestError, match=r"big.jsonl:1: a request is 1000024 bytes, more than the limit of 262144"):
        load_requests(f)


def test_too_many_nodes(tmp_path) -> None:
    big = req({"op": "AND", "args": [OK_LEAF] * 600})
    with pytest.raises(RequestError, match="request R7: the request has more than 2000 JSON values"):
        parse_request(big)


def test_request_file_errors(tmp_path) -> None:
    f = tmp_path / "r.jsonl"
    line = json.dumps(req({"op": "AND", "args": [OK_LEAF]}))
    f.write_text(line + "\n\n" + line + "\n")
    with pytest.raises(RequestError, match=r"r.jsonl:3: duplicate request id 'R7' \(first at line 1\)"):
        load_requests(f)
    f.write_text(line + "\n{not json\n")
    with pytest.raises(RequestError, match=r"r.jsonl:2: invalid JSON \(Expecting property name enclosed in double "
                                           r"quotes at column 2\)"):
        load_requests(f)
    f.write_text("\n \n")
    with pytest.raises(RequestError, match="the file holds no requests"):
        load_requests(f)
    with pytest.raises(RequestError, match="no such file"):
        load_requests(tmp_path / "missing.jsonl")
    one = tmp_path / "one.json"
    one.write_text(json.dumps(req({"op": "AND", "args": [OK_LEAF]}), indent=2))
    assert load_request(one).id == "R7"


def test_groundtruth_errors(tmp_path) -> None:
    f = tmp_path / "gt.jsonl"
    f.write_text('{"request_id": "R1", "gold_restaurant": "x"}\n{"request_id": "R2"}\n')
    with pytest.raises(DataError, match=r"gt.jsonl:2: missing 'gold_restaurant' for request R2"):
        load_groundtruth(f)
    f.write_text('{"request_id": "R1", "gold_restaurant": "x"}\n')
    assert load_groundtruth(f) == {"R1": "x"}


def test_json_schema_export() -> None:
    schema = request_json_schema()
    assert schema["title"] == "Request"
    assert schema["additionalProperties"] is True  # top-level metadata keys are kept
    assert schema["$defs"]["Condition"]["additionalProperties"] is False
    assert set(schema["required"]) == {"id", "structure"}
    kinds = {d["properties"]["kind"]["const"] for name, d in schema["$defs"].items() if name.endswith("Evidence")}
    assert kinds == {"item_meta", "item_meta_hours", "review_text", "review_meta"}
    assert schema["$defs"]["OperatorNode"]["properties"]["op"]["enum"] == ["AND", "OR", "NOT"]


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_a_request_with_a_non_finite_number_is_rejected_naming_the_line(tmp_path, token) -> None:
    f = tmp_path / "r.jsonl"
    f.write_text('{"id": "Q", "structure": {"aspect": "a", "evidence": {"kind": "item_attribute", '
                 '"path": ["stars"], "min": ' + token + "}}}\n")
    with pytest.raises(RequestError) as ei:
        load_requests(f)
    assert (ei.value.location, ei.value.reason) == (f"{f}:1", f"{token} is not a number JSON allows (NaN and Infinity are not JSON)")
