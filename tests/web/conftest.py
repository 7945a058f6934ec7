"""Web fixtures: one app state over the bundled sample (with a private SQLite store), an in-process HTTP client
(httpx over the ASGI transport), and a small hostile dataset (markup in a review, a review built to make a nested
quantifier backtrack)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from dinecheck.web.app import create_app
from dinecheck.web.config import WebConfig
from dinecheck.web.state import AppState, build_state

MARKUP_REVIEW = "<script>alert('pwned')</script> Great <b>scones</b> & tea"


class Client:
    """A synchronous facade over ``httpx.AsyncClient(transport=ASGITransport(app))``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
                return await c.request(method, url, **kw)

        return asyncio.run(go())

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)


@pytest.fixture(scope="session")
def web_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("webdb") / "ontology.sqlite")


@pytest.fixture(scope="session")
def sample_state(web_db: str) -> Iterator[AppState]:
    state = build_state(WebConfig(db=web_db))
    yield state
    state.close()


@pytest.fixture(scope="session")
def client(sample_state: AppState) -> Client:
    return Client(create_app(state=sample_state))


@pytest.fixture
def client_with(sample_state: AppState) -> Callable[..., Client]:
    """A client over the same loaded data with other settings (``admin_token=…``, ``max_body_bytes=…``)."""

    def make(**changes: Any) -> Client:
        cfg = replace(sample_state.config, **changes)
        return Client(create_app(cfg, replace(sample_state, config=cfg)))

    return make


def write_dataset(root: Path, restaurants: list[dict[str, Any]], reviews: list[dict[str, Any]]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "restaurants.jsonl").write_text("".join(json.dumps(r) + "\n" for r in restaurants), encoding="utf-8")
    (root / "reviews.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reviews), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def hostile_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    user = {"name": "Ann", "review_count": 3, "fans": 0, "elite": [], "average_stars": 4.0, "friends": []}
    restaurants = [{"business_id": "h-1", "name": "Tea <i>Room</i>", "address": "1 Main St", "city": "Philadelphia",
                    "stars": 4.0, "categories": "Cafes", "attributes": {"WiFi": "u'free'"},
                    "hours": {"Monday": "8:0-18:0"}}]
    reviews = [
        {"review_id": "h-rv-1", "business_id": "h-1", "stars": 5, "useful": 1, "date": "2024-01-02 10:00:00",
         "text": MARKUP_REVIEW, "user": user},
        {"review_id": "h-rv-2", "business_id": "h-1", "stars": 4, "useful": 0, "date": "2024-02-02 10:00:00",
         "text": "a" * 5000 + "!", "user": user},
    ]
    return write_dataset(tmp_path_factory.mktemp("hostile"), restaurants, reviews)


@pytest.fixture(scope="session")
def hostile_state(hostile_dir: Path, web_db: str) -> Iterator[AppState]:
    state = build_state(WebConfig(data=hostile_dir, db=web_db, regex_timeout_s=0.05))
    yield state
    state.close()


@pytest.fixture(scope="session")
def hostile_client(hostile_state: AppState) -> Client:
    return Client(create_app(state=hostile_state))
