"""`dinecheck requests …` through the real CLI entry point: the contract (flags, JSON fields, exit codes 0/1/2)."""

from __future__ import annotations

import json

import pytest

from dinecheck.sample import sample_dir
from tests.conftest import shared_file

SAMPLE = sample_dir()
REQS = SAMPLE / "requests.jsonl"


def test_validate_sample_human_output(cli) -> None:
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", REQS)
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[0].split() == ["request", "group", "status", "matches", "gold"]
    assert lines[1].split()[:4] == ["S01", "G01", "ok", "1"]
    assert "smp-golden-lantern (Golden Lantern)" in lines[1]
    assert "G10        1              1              0              0              0" in r.out
    assert lines[-1] == "8 of 8 requests ok"
    assert r.err == ""


def test_validate_json_contract(cli) -> None:
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", REQS, "--json")
    assert r.code == 0
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert len(rows) == 8
    assert rows[0] == {"request_id": "S01", "group": "G01", "status": "ok", "matches": ["smp-golden-lantern"],
                       "gold_restaurant": "smp-golden-lantern"}
    assert all(list(x) == ["request_id", "group", "status", "matches", "gold_restaurant"] for x in rows)


def test_validate_statuses_and_exit_1(cli, tmp_path) -> None:
    lines = [json.loads(x) for x in REQS.read_text().splitlines()]
    s01 = lines[0]
    wrong_gold = {**s01, "id": "X1", "gold_restaurant": "smp-night-owl"}
    nothing = {**s01, "id": "X2", "structure": {"op": "AND", "args": [
        {"aspect": "never", "evidence": {"kind": "review_text", "pattern": "zzzzqqq"}}]}, "shorthand": "AND(never)"}
    many = {**s01, "id": "X3", "shorthand": "AND(takeout)", "structure": {"op": "AND", "args": [
        s01["structure"]["args"][0]]}}
    bad_short = {**s01, "id": "X4", "shorthand": "AND(takeout, delivery)"}
    f = tmp_path / "r.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in (s01, wrong_gold, nothing, many, bad_short)) + "\n")
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", f, "--json")
    assert r.code == 1
    got = {(x["request_id"], x["status"]) for x in map(json.loads, r.out.splitlines())}
    assert got == {("S01", "ok"), ("X1", "gold_not_match"), ("X2", "no_match"), ("X3", "multi_match"), ("X4", "ok")}
    assert r.err == ("warning: request X2 /structure/args/0/evidence/pattern: pattern 'zzzzqqq' matches no review "
                     "in the dataset\n"
                     "warning: X4: shorthand: /structure: shorthand has AND with 2 argument(s), the structure has "
                     "AND with 3\n")
    human = cli("requests", "validate", "--data", SAMPLE, "--requests", f)
    assert human.code == 1
    assert "warning: X4: shorthand: /structure: shorthand has AND with 2 argument(s)" in human.out
    assert human.out.splitlines()[-1] == "2 of 5 requests ok"


def test_validate_groundtruth_overrides_gold(cli, tmp_path) -> None:
    gt = tmp_path / "gt.jsonl"
    gt.write_text("".join(json.dumps({"request_id": f"S0{i}", "gold_restaurant": "smp-night-owl"}) + "\n"
                          for i in range(1, 9)))
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", REQS, "--groundtruth", gt, "--json")
    assert r.code == 1
    statuses = [json.loads(x)["status"] for x in r.out.splitlines()]
    assert statuses == ["gold_not_match", "gold_not_match", "ok"] + ["gold_not_match"] * 5
    gt.write_text(json.dumps({"request_id": "S01", "gold_restaurant": "x"}) + "\n")
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", REQS, "--groundtruth", gt)
    assert (r.code, r.out) == (2, "")
    assert r.err == "error: --groundtruth: the groundtruth has no entry for request S02\n"


@pytest.mark.parametrize(
    ("content", "err"),
    [
        ('{"id": "R1", "structure": {"op": "XOR", "args": []}}\n',
         "error: {f}:1 request R1 /structure/op: Input should be 'AND', 'OR' or 'NOT' (and 1 more)\n"),
        ("not json\n", "error: {f}:1: invalid JSON (Expecting value at column 1)\n"),
    ],
)
def test_validate_invalid_requests_exit_2(cli, tmp_path, content, err) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text(content)
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", f)
    assert (r.code, r.out, r.err) == (2, "", err.format(f=f))


def test_validate_bad_dataset_and_lenient(cli, tmp_path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    for name in ("restaurants.jsonl", "reviews.jsonl", "social.json"):
        (d / name).write_bytes((SAMPLE / name).read_bytes())
    with (d / "reviews.jsonl").open("a") as fh:
        fh.write('{"review_id": "z", "business_id": "ghost", "text": "x"}\n{oops\n')
    r = cli("requests", "validate", "--data", d, "--requests", REQS)
    assert r.code == 2
    assert r.err == f"error: {d}/reviews.jsonl:61: review of unknown restaurant 'ghost'\n"
    r = cli("requests", "validate", "--data", d, "--requests", REQS, "--lenient", "--json")
    assert r.code == 0
    assert r.err.splitlines() == [
        f"warning: skipped {d}/reviews.jsonl:61: review of unknown restaurant 'ghost'",
        f"warning: skipped {d}/reviews.jsonl:62: invalid JSON (Expecting property name enclosed in double quotes)",
        "warning: 2 bad line(s) skipped (--lenient)"]


def test_match_by_id_explain(cli) -> None:
    r = cli("requests", "match", "--data", SAMPLE, "--requests", REQS, "--id", "S03", "--explain")
    assert r.code == 0, r
    assert r.out.splitlines() == [
        "  1. [+1] smp-night-owl  Night Owl Diner  (3/3 conditions hold)",
        "    [+1] AND",
        "      [+1] hours_saturday_overnight: open 23:0-5:0 (hours.Saturday)",
        "            rule: window covers the required hours; open='22:0-6:0'; required=23:0-5:0",
        "      [+1] good_for_kids: attribute attributes.GoodForKids is 'True'",
        "            rule: true: value matches 'True'; value=True",
        "      [+1] NOT",
        "        [-1] delivery: attribute attributes.RestaurantsDelivery is 'True'",
        "              rule: true: value differs from 'True'; value=False",
        "1 restaurant(s) match request S03",
    ]


def test_match_all_json_ranked(cli) -> None:
    r = cli("requests", "match", "--data", SAMPLE, "--requests", REQS, "--id", "S01", "--all", "--json")
    assert r.code == 0
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert len(rows) == 10
    assert rows[0] == {"request_id": "S01", "rank": 1, "business_id": "smp-golden-lantern", "name": "Golden Lantern",
                       "value": 1, "leaves_true": 3, "n_leaves": 3}
    keys = [(-x["value"], -x["leaves_true"]) for x in rows]
    assert keys == sorted(keys)
    assert rows[1]["value"] == 0 and rows[1]["business_id"] == "smp-vinyl-vine"  # takeout/delivery unknown, loud


def test_match_single_request_file_and_no_match(cli, tmp_path) -> None:
    f = tmp_path / "one.json"
    f.write_text(json.dumps({"id": "Q", "structure": {"op": "AND", "args": [
        {"aspect": "x", "evidence": {"kind": "review_text", "pattern": "zzzzz"}}]}}, indent=2))
    r = cli("requests", "match", "--data", SAMPLE, "--request", f, "--explain", "--json")
    assert (r.code, r.out) == (1, "")
    r = cli("requests", "match", "--data", SAMPLE, "--request", f, "--all", "--explain", "--json")
    first = json.loads(r.out.splitlines()[0])
    assert first["explanation"]["args"][0]["rule"].endswith("reviews match")


@pytest.mark.parametrize(
    ("args", "err"),
    [
        ((), "error: match: give exactly one of --request FILE.json or --requests FILE --id ID\n"),
        (("--requests", REQS), "error: match: --requests needs --id to choose a request\n"),
        (("--requests", REQS, "--id", "S99"), f"error: {REQS}: no request with id 'S99'\n"),
    ],
)
def test_match_usage_errors(cli, args, err) -> None:
    r = cli("requests", "match", "--data", SAMPLE, *args)
    assert (r.code, r.err) == (2, err)


def test_schema_and_shorthand_commands(cli) -> None:
    r = cli("requests", "schema")
    assert r.code == 0 and json.loads(r.out)["title"] == "Request"
    r = cli("requests", "shorthand", "--requests", REQS)
    assert r.code == 0
    assert r.out.splitlines()[-1] == "S08\t2HOP(['Theo'], 'dumpling')"
    r = cli("requests", "shorthand", "--parse", "AND( a ,OR(b,c) )")
    assert (r.code, r.out) == (0, "AND(a, OR(b, c))\n")
    r = cli("requests", "shorthand", "--parse", "AND(a")
    assert (r.code, r.err) == (2, "error: shorthand column 6: expected ')', found end of text\n")


@pytest.mark.shared_data
def test_dev_benchmark_through_the_cli(cli, shared_data) -> None:
    root = shared_data / "philly_cafes"
    r = cli("requests", "validate", "--data", root, "--requests",
            shared_file(shared_data, "philly_cafes/requests_dev.jsonl"), "--groundtruth",
            shared_file(shared_data, "philly_cafes/groundtruth_dev.jsonl"), "--json")
    assert r.code == 0, r
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert len(rows) == 49 and {x["status"] for x in rows} == {"ok"}
    assert all(x["matches"] == [x["gold_restaurant"]] for x in rows)


def test_hostile_inputs_end_in_one_line_errors(cli, tmp_path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "restaurants.jsonl").write_text(json.dumps({"business_id": "x", "name": "X"}) + "\n")
    (d / "reviews.jsonl").write_text(json.dumps({"review_id": "v1", "business_id": "x", "text": "a" * 30_000 + "b"})
                                     + "\n")
    evil = tmp_path / "evil.jsonl"
    evil.write_text(json.dumps({"id": "E1", "structure": {"op": "AND", "args": [
        {"aspect": "evil", "evidence": {"kind": "review_text", "pattern": "(a+)+$"}}]}}) + "\n")
    r = cli("requests", "validate", "--data", d, "--requests", evil)
    assert (r.code, r.out) == (2, "")
    assert r.err == ("error: request E1 /structure/args/0 (evil): pattern '(a+)+$' ran longer than 0.25 s on review "
                     "v1 of restaurant x; use a simpler pattern\n")
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"id": "D", "structure": ' + '{"op": "NOT", "args": [' * 10_000 + "{}" + "]}" * 10_000 + "}\n")
    r = cli("requests", "validate", "--data", d, "--requests", deep)
    assert r.code == 2 and r.err.startswith(f"error: {deep}:1") and "nested" in r.err and r.err.count("\n") == 1
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"\x00\xff{[(" * 250_000)
    r = cli("requests", "validate", "--data", d, "--requests", junk)
    assert r.code == 2 and r.err.startswith(f"error: {junk}:1: ") and r.err.count("\n") == 1


def test_catalog_human_and_json(cli) -> None:
    r = cli("requests", "catalog", "--data", SAMPLE)
    assert r.code == 0, r
    assert r.out.splitlines()[0].startswith(f"dataset {SAMPLE}: ")
    assert "attributes (" in r.out and "hours (" in r.out and "review metadata" in r.out
    j = cli("requests", "catalog", "--data", SAMPLE, "--json")
    assert j.code == 0 and j.err == ""
    obj = json.loads(j.out)
    assert list(obj) == ["source", "n_restaurants", "n_reviews", "attributes", "fields", "categories", "hours",
                         "review_fields", "reviewers", "friend_graph"]
    wifi = next(a for a in obj["attributes"] if a["key"] == "WiFi")
    assert wifi["label"] == "Wi-Fi" and wifi["path"] == ["attributes", "WiFi"]
    assert sum(v["count"] for v in wifi["values"]) + wifi["n_missing"] == obj["n_restaurants"]


def test_catalog_bad_data_dir(cli, tmp_path) -> None:
    r = cli("requests", "catalog", "--data", tmp_path / "nope")
    assert r.code == 2 and r.err.startswith("error: ") and "not a dataset directory" in r.err


def _one(tmp_path, evidence, rid="L1", negate=False):
    leaf = {"aspect": "c", "evidence": evidence}
    node = {"op": "NOT", "args": [leaf]} if negate else leaf
    f = tmp_path / "one.jsonl"
    f.write_text(json.dumps({"id": rid, "group": "G01", "structure": {"op": "AND", "args": [node]},
                             "gold_restaurant": "smp-golden-lantern"}) + "\n")
    return f


@pytest.mark.parametrize("negate", [False, True])
def test_lint_error_exit_2_names_request_and_pointer(cli, tmp_path, negate) -> None:
    f = _one(tmp_path, {"kind": "item_meta", "path": ["attributes", "RestaurantsTakeout"], "true": "True"},
             negate=negate)
    ptr = "/structure/args/0/args/0/evidence/path" if negate else "/structure/args/0/evidence/path"
    for cmd in (("validate", "--requests", f), ("match", "--requests", f, "--id", "L1")):
        r = cli("requests", *cmd, "--data", SAMPLE)
        assert (r.code, r.out) == (2, ""), r
        assert r.err == (f"error: {f} request L1 {ptr}: unknown attribute path attributes.RestaurantsTakeout: "
                         "no restaurant has it (did you mean 'RestaurantsTakeOut'?)\n")
    # --no-lint restores the old silent behaviour (the condition is unknown for every restaurant)
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", f, "--json", "--no-lint")
    assert r.code == 1 and json.loads(r.out)["status"] == "no_match"


def test_lint_hours_window_error(cli, tmp_path) -> None:
    f = _one(tmp_path, {"kind": "item_meta_hours", "path": ["hours", "Friday"], "true": "9am-11am"})
    r = cli("requests", "validate", "--data", SAMPLE, "--requests", f)
    assert r.code == 2
    assert r.err.startswith(f"error: {f} request L1 /structure/args/0/evidence/true: malformed hours window '9am-11am'")


def test_lint_warning_then_strict(cli, tmp_path) -> None:
    f = _one(tmp_path, {"kind": "review_text", "pattern": "music", "social_filter": {"friends": ["zed"]}})
    r = cli("requests", "match", "--data", SAMPLE, "--requests", f, "--id", "L1")
    assert r.code == 1                       # evaluated as before: nobody in the circle
    assert r.err.startswith("warning: request L1 /structure/args/0/evidence/social_filter/friends/0: unknown friend "
                            "'zed'")
    s = cli("requests", "match", "--data", SAMPLE, "--requests", f, "--id", "L1", "--strict")
    assert (s.code, s.out) == (2, "")
    assert s.err.startswith(f"error: {f} request L1 /structure/args/0/evidence/social_filter/friends/0: unknown friend")


def test_dev_requests_validate_clean_with_strict_lint(cli, shared_data) -> None:
    d = shared_file(shared_data, "philly_cafes")
    r = cli("requests", "validate", "--data", d, "--requests", d / "requests_dev.jsonl", "--strict", "--json")
    assert r.code == 0 and r.err == ""


def test_suggest_cli_json_lines_validate_ok(cli, tmp_path) -> None:
    r = cli("requests", "suggest", "--data", SAMPLE, "--gold", "Golden Lantern", "--group", "G01", "--json")
    assert r.code == 0, r
    lines = [json.loads(x) for x in r.out.splitlines()]
    assert lines and all(x["gold_restaurant"] == "smp-golden-lantern" and x["group"] == "G01" for x in lines)
    f = tmp_path / "new.jsonl"
    f.write_text(r.out)
    v = cli("requests", "validate", "--data", SAMPLE, "--requests", f, "--strict", "--json")
    assert v.code == 0 and v.err == ""
    assert {json.loads(x)["status"] for x in v.out.splitlines()} == {"ok"}


def test_suggest_cli_human_and_errors(cli) -> None:
    r = cli("requests", "suggest", "--data", SAMPLE, "--gold", "smp-golden-lantern", "--limit", "2")
    assert r.code == 0
    assert r.out.splitlines()[0].startswith("1. AND(")
    assert r.out.splitlines()[1].startswith("   text: Looking for a ")
    assert r.out.splitlines()[-1] == "2 suggestion(s) of group G01 for smp-golden-lantern (Golden Lantern)"
    bad = cli("requests", "suggest", "--data", SAMPLE, "--gold", "Golden Lanter")
    assert (bad.code, bad.out) == (2, "")
    assert bad.err == (f"error: --gold Golden Lanter: no restaurant with business_id 'Golden Lanter' in {SAMPLE} "
                       "(did you mean 'Golden Lantern'?)\n")
    g = cli("requests", "suggest", "--data", SAMPLE, "--gold", "smp-golden-lantern", "--group", "G99")
    assert g.code == 2 and g.err.startswith("error: --group: unknown group 'G99'")
    none = cli("requests", "suggest", "--data", SAMPLE, "--gold", "smp-golden-lantern", "--max-conditions", "1")
    assert none.code == 1 and none.out.splitlines()[-1].startswith("0 suggestion(s) of group G01")


def test_list_cli(cli) -> None:
    r = cli("requests", "list", REQS)
    assert r.code == 0
    first = r.out.splitlines()[0].split()
    assert first == ["S01", "G01", "AND(takeout,", "delivery,", "loud)"]
    d = cli("requests", "list", REQS, "--data", SAMPLE)
    assert d.out.splitlines()[0].split()[:4] == ["S01", "G01", "ok", "1"]
    j = cli("requests", "list", REQS, "--data", SAMPLE, "--json")
    assert json.loads(j.out.splitlines()[0]) == {"id": "S01", "group": "G01", "shorthand": "AND(takeout, delivery, loud)",
                                                 "status": "ok", "matches": 1}


def test_restaurant_names_work_like_ids() -> None:
    from dinecheck.cli.common import resolve_restaurant
    from dinecheck.dataset import load_dataset
    from dinecheck.errors import DataError

    ds, _ = load_dataset(SAMPLE)
    r = ds.restaurants[0]
    assert resolve_restaurant(ds, r.business_id, SAMPLE, "w") is r
    assert resolve_restaurant(ds, r.name, SAMPLE, "w") is r
    assert resolve_restaurant(ds, r.name.upper(), SAMPLE, "w") is r
    twin = type(ds)(restaurants=(r, type(r)(**{**{f: getattr(r, f) for f in ("name", "categories", "attributes",
                                                                               "hours", "raw")},
                                                  "business_id": "other", "index": 1})),
                    reviews={}, social=ds.social)
    with pytest.raises(DataError, match=f"2 restaurants are named {r.name!r} \\({r.business_id}, other\\); give a "
                                        "business_id"):
        resolve_restaurant(twin, r.name, SAMPLE, "w")
