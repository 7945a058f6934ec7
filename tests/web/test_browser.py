"""Browser tests: Debian's chromium driven by Playwright against ``dinecheck serve`` started on 127.0.0.1 with a free
port. Each page's main flow at desktop and phone (390 px) widths, with screenshots under ``test-artifacts/``.

Skips with a message when chromium (or the playwright package) is absent — except under ``CI=true``, where that fails.
No browser is ever downloaded: Playwright launches ``/usr/bin/chromium`` by its executable path.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("DINECHECK_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
IN_CI = os.environ.get("CI", "").lower() == "true"
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


def _unavailable(why: str) -> None:
    if IN_CI:
        pytest.fail(f"{why}, and CI=true requires the browser tests to run")
    pytest.skip(f"{why}; browser tests skipped outside CI")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], url: str) -> None:
        self.proc, self.url = proc, url


def _start(args: list[str], db: Path) -> Server:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "dinecheck", "serve", "--port", str(port), "--db", str(db), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise RuntimeError(f"dinecheck serve exited with {proc.returncode}: {out[-2000:]}")
        try:
            if httpx.get(url + "/", timeout=2).status_code == 200:
                return Server(proc, url)
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("dinecheck serve did not answer within 60 s")


def _stop(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = _start([], tmp_path_factory.mktemp("browser-db") / "ontology.sqlite")
    yield s
    _stop(s)


@pytest.fixture(scope="module")
def hostile_server(hostile_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = _start(["--data", str(hostile_dir)], tmp_path_factory.mktemp("browser-db2") / "ontology.sqlite")
    yield s
    _stop(s)


@pytest.fixture(params=list(WIDTHS))
def page(request: pytest.FixtureRequest, browser: object) -> Iterator[object]:
    w, h = WIDTHS[request.param]
    ctx = browser.new_context(viewport={"width": w, "height": h})  # type: ignore[attr-defined]
    pg = ctx.new_page()
    pg.width_name = request.param
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    ctx.close()
    assert errors == [], errors


def _shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{page.width_name}.png"), full_page=True)  # type: ignore[attr-defined]


def _fits(page: object) -> None:
    """Nothing wider than the viewport: no sideways scrolling on a phone."""
    sw = page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    vw = page.evaluate("window.innerWidth")  # type: ignore[attr-defined]
    assert sw <= vw, f"page is {sw}px wide in a {vw}px viewport"


def test_find_a_place_then_open_a_result(page, server):
    page.goto(server.url + "/")
    page.get_by_text("What you want").click()  # open the wishes
    page.locator('input[name="wish"][value="attributes.WiFi=free"]').check()
    page.get_by_role("checkbox", name="Peanut", exact=True).check()
    _shot(page, "find-form")
    page.get_by_role("button", name="Find places").click()
    heading = page.locator("#results-h")
    assert heading.inner_text().endswith("places")
    cards = page.locator("ol.results > li")
    assert cards.count() >= 1
    assert "Peanut" in cards.first.locator("ul.allergy").inner_text()
    assert "✓" in cards.first.locator("ul.conds").inner_text()
    _fits(page)
    _shot(page, "find-results")
    name = cards.first.locator("h3 a").inner_text()
    cards.first.locator("h3 a").click()
    assert page.locator("h1").inner_text() == name
    section = page.locator("section[aria-labelledby=allergy-h]").inner_text()
    assert "peanut" in section.lower() and "milk" not in section.lower()  # the profile chosen: Peanut only
    _fits(page)
    _shot(page, "restaurant")


def test_restaurant_page_quotes_are_highlighted(page, server):
    page.goto(server.url + "/restaurants/smp-golden-lantern")
    articles = page.locator("article.ev").count()
    silent = page.locator("p.silent .silent-name").count()
    assert articles + silent == 15
    marks = page.locator("mark.quote")
    assert marks.count() >= 1
    page.locator("article.ev details summary").first.click()
    _fits(page)
    _shot(page, "restaurant-evidence")


def test_check_a_label_with_the_keyboard(page, server):
    page.goto(server.url + "/labels")
    page.focus("#ingredients_text")
    page.keyboard.type("Sugar, peanuts, skimmed milk powder, may contain traces of sesame")
    page.keyboard.press("Tab")  # the file input
    page.keyboard.press("Tab")  # the first allergen checkbox (Peanut)
    assert page.evaluate("document.activeElement.value") == "PEANUT"
    page.keyboard.press("Space")
    for _ in range(40):  # on to the Check button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "BUTTON":
            break
    page.keyboard.press("Enter")
    page.wait_for_selector(".label-result")
    assert page.locator(".verdict").inner_text() == "AVOID"
    assert page.locator(".label-text mark.DEFINITE").first.inner_text() == "peanuts"
    _fits(page)
    _shot(page, "label")


def test_benchmark_validation_with_drill_down(page, server):
    page.goto(server.url + "/benchmark")
    page.get_by_label("Request file").select_option("requests.jsonl")
    page.get_by_role("button", name="Run validation").click()
    assert "8 of 8 ok" in page.locator("h2").first.inner_text()
    page.locator("table details summary").first.click()
    assert page.locator("table details ul.tree").first.is_visible()
    _fits(page)
    _shot(page, "benchmark")


def test_review_markup_is_shown_as_text(page, hostile_server):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(hostile_server.url + "/restaurants/h-1")
    text = page.locator("#rv-h-rv-1 .text").inner_text()
    assert text == "<script>alert('pwned')</script> Great <b>scones</b> & tea"
    assert page.locator("#rv-h-rv-1 b").count() == 0
    assert page.locator("script").count() == 0
    assert page.locator("h1").inner_text() == "Tea <i>Room</i>"
    assert dialogs == []
    _shot(page, "markup-as-text")
