"""The HTML pages in-process: main flows without JavaScript, escaping of untrusted text, errors as pages."""

from __future__ import annotations

import json
import re

from dinecheck.sample import sample_dir
from tests.web.conftest import MARKUP_REVIEW


def _labels_for(html: str) -> set[str]:
    return set(re.findall(r'<label for="([^"]+)"', html))


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_find_page_form_controls_are_labelled(client):
    html = client.get("/").text
    for control in ("day", "time", "words", "friends"):
        assert control in _labels_for(html) and control in _ids(html)
    assert 'name="allergen" value="PEANUT"' in html and "Peanut" in html
    assert 'name="wish" value="attributes.WiFi=free"' in html


def test_find_page_shows_matches_with_conditions_and_links(client, sample_state):
    html = client.get("/", params={"go": "1", "wish": "attributes.WiFi=free", "allergen": "PEANUT"}).text
    free = [r for r in sample_state.dataset.restaurants if r.attributes.get("WiFi") == "u'free'"]
    assert f"<h2 id=\"results-h\">{len(free)} places</h2>" in html
    for r in free:
        assert f'href="/restaurants/{r.business_id}?allergen=PEANUT"' in html
    assert '<span class="v yes" title="holds">✓</span> Wi-Fi: free' in html


def test_find_page_open_at_time(client, sample_state):
    html = client.get("/", params={"go": "1", "day": "Monday", "time": "07:30"}).text
    open_monday = [r for r in sample_state.dataset.restaurants if "Monday" in r.hours]
    shown = re.findall(r'<h3><a href="/restaurants/([^"?]+)', html)
    assert shown and set(shown) <= {r.business_id for r in open_monday}


def test_find_page_bad_time_is_a_message(client):
    resp = client.get("/", params={"go": "1", "day": "Monday", "time": "25:99"})
    assert resp.status_code == 400
    assert "time: give the time as HH:MM (24-hour clock)" in resp.text


def test_restaurant_page_shows_attributes_hours_and_reviews(client, sample_state):
    r = sample_state.dataset.restaurant("smp-basil-lime-thai")
    html = client.get("/restaurants/smp-basil-lime-thai").text
    assert "<h1>Basil &amp; Lime Thai Kitchen</h1>" in html
    assert '<th scope="row">Wi-Fi</th><td>free</td>' in html
    assert '<th scope="row">Monday</th><td>closed</td>' in html
    assert '<th scope="row">Friday</th><td>11:00–23:30</td>' in html
    assert html.count('<li id="rv-') == len(sample_state.dataset.reviews_of(r.business_id))


def test_review_markup_is_text(hostile_client):
    resp = hostile_client.get("/restaurants/h-1")
    assert resp.status_code == 200
    assert "<script>alert" not in resp.text and "<b>scones</b>" not in resp.text
    assert "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt; Great &lt;b&gt;scones&lt;/b&gt; &amp; tea" in resp.text
    assert "<h1>Tea &lt;i&gt;Room&lt;/i&gt;</h1>" in resp.text
    assert MARKUP_REVIEW not in resp.text


def test_unknown_restaurant_page_is_404_html(client):
    resp = client.get("/restaurants/nope")
    assert resp.status_code == 404 and resp.headers["content-type"].startswith("text/html")
    assert "no restaurant with business_id &#39;nope&#39;" in resp.text


def test_label_form_post_highlights_by_level(client):
    resp = client.post("/labels", data={"ingredients_text": "sugar, peanuts, may contain <b>sesame</b>",
                                        "allergens": ["PEANUT", "SESAME"]})
    assert resp.status_code == 200
    html = resp.text
    assert '<span class="verdict">AVOID</span>' in html
    assert re.search(r'<mark class="lvl DEFINITE" title="[^"]*">peanuts</mark>', html)
    assert re.search(r'<mark class="lvl POSSIBLE" title="[^"]*">may contain &lt;b&gt;sesame', html)
    assert "<b>sesame" not in html


def test_label_form_marks_every_ingredient_not_only_the_first(client):
    html = client.post("/labels", data={"ingredients_text": "milk, butter, whey", "allergens": "MILK"}).text
    marked = re.findall(r'<mark class="lvl (\w+)" title="[^"]*">([^<]+)</mark>', html)
    assert [t for _, t in marked] == ["milk", "butter", "whey"]


def test_label_upload_of_a_file(client):
    lines = "\n".join(json.dumps(x) for x in [{"id": "p1", "ingredients_text": "rice"},
                                              {"id": "p2", "ingredients_text": "wheat flour"}])
    resp = client.post("/labels", data={"allergens": ["GLUTEN"]},
                       files={"labels_file": ("labels.jsonl", lines.encode(), "application/jsonl")})
    assert resp.status_code == 200
    assert 'aria-label="result for p1"' in resp.text and 'aria-label="result for p2"' in resp.text
    assert re.search(r'p2: <span class="verdict">AVOID</span>', resp.text)


def test_label_form_errors(client):
    resp = client.post("/labels", data={"ingredients_text": "milk"})
    assert resp.status_code == 400 and "allergens: choose at least one allergen" in resp.text
    resp = client.post("/labels", data={"allergens": "MILK"})
    assert resp.status_code == 400 and "paste the ingredient list or upload a file" in resp.text
    resp = client.post("/labels", data={"allergens": "MILK"},
                       files={"labels_file": ("x.jsonl", b'{"id": 1}\n', "application/jsonl")})
    assert resp.status_code == 400 and "labels_file:1: missing" in resp.text


def test_benchmark_runs_a_named_file_with_drill_down(client):
    resp = client.post("/benchmark", data={"requests_file": "requests.jsonl"})
    assert resp.status_code == 200
    assert "requests.jsonl: 8 of 8 ok" in resp.text
    assert resp.text.count("<details>") == 8 and 'class="tree"' in resp.text


def test_benchmark_upload_and_bad_upload(client):
    first = (sample_dir() / "requests.jsonl").read_text(encoding="utf-8").splitlines()[0]
    ok = client.post("/benchmark", files={"upload": ("r.jsonl", first.encode(), "application/jsonl")})
    assert "uploaded file: 1 of 1 ok" in ok.text
    bad = client.post("/benchmark", files={"upload": ("r.jsonl", b"{nope\n", "application/jsonl")})
    assert bad.status_code == 400 and "upload:1: invalid JSON" in bad.text


def test_restaurant_page_highlights_every_quoted_sentence(client, sample_state):
    from html import escape

    from dinecheck.allergens.ontology import ALLERGEN_CODES
    from dinecheck.search import restaurant_evidence

    bid = "smp-golden-lantern"
    evidence = restaurant_evidence(sample_state.evidence, bid, ALLERGEN_CODES)
    quotes = {q.text for ev in evidence.values() for q in ev.quotes}
    assert quotes, "the sample's Golden Lantern reviews describe reactions"
    html = client.get(f"/restaurants/{bid}").text
    marked = re.findall(r'<mark class="quote" title="quoted as evidence">([^<]*)</mark>', html)
    for q in quotes:
        assert any(escape(q) in m for m in marked), q
    for ev in evidence.values():
        assert f'<span class="badge">{ev.level.replace("_", " ")}</span>' in html


def test_label_unknown_words_get_suggestions(client):
    html = client.post("/labels", data={"ingredients_text": "sugar, peanutts, qzxv", "allergens": "PEANUT"}).text
    assert '<span class="verdict">VERIFY</span>' in html
    assert ('<li><mark class="lvl unknown">peanutts</mark> — did you mean <q>peanuts</q> (peanut), '
            '<q>peanut</q> (peanut)?</li>') in html
    assert '<li><mark class="lvl unknown">qzxv</mark> — no close known name</li>' in html


def test_allergens_without_any_review_share_one_line(client, sample_state):
    from dinecheck.search import restaurant_evidence

    bid = "smp-golden-lantern"
    evidence = restaurant_evidence(sample_state.evidence, bid, ("PEANUT", "LUPIN", "CELERY"))
    assert evidence["LUPIN"].relevant_reviews == 0 and evidence["PEANUT"].relevant_reviews > 0
    html = client.get(f"/restaurants/{bid}", params={"allergen": ["PEANUT", "LUPIN", "CELERY"]}).text
    assert html.count('<article class="ev') == 1
    assert ('No review here is about <span class="silent-name">celery</span>, <span class="silent-name">lupin</span>'
            " — too little to say anything, which is not the same as safe.") in html
