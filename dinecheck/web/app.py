"""The ASGI application: :func:`create_app` wires state, middleware (body cap, security headers), error handlers,
the JSON API, the HTML pages and the static files."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from dinecheck import __version__
from dinecheck.web import api, pages
from dinecheck.web.config import WebConfig
from dinecheck.web.safety import (
    BodyLimitMiddleware,
    SecurityHeadersMiddleware,
    install_error_handlers,
)
from dinecheck.web.state import AppState, build_state

STATIC_DIR = Path(__file__).parent / "static"


def create_app(config: WebConfig | None = None, state: AppState | None = None) -> FastAPI:
    """The app for ``config`` (default: the bundled sample). ``state`` may be given pre-built (tests share one);
    otherwise it is built at start-up and closed at shutdown."""
    cfg = config or (state.config if state is not None else WebConfig())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = getattr(app.state, "dinecheck", None) is None
        if own:
            app.state.dinecheck = build_state(cfg)
        try:
            yield
        finally:
            if own:
                app.state.dinecheck.close()

    app = FastAPI(title="dinecheck", version=__version__, lifespan=lifespan,
                  description="Which restaurant fits, how risky it is for an allergy, and whether a packaged food is "
                              "safe. The JSON shapes are the CLI's (`--json`). Errors: `{\"error\": {\"where\", "
                              "\"why\"}}` with a 4xx status.")
    if state is not None:
        app.state.dinecheck = state
    install_error_handlers(app)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodyLimitMiddleware, max_bytes=cfg.max_body_bytes)
    app.add_middleware(SecurityHeadersMiddleware)  # outermost: refusals get the headers too
    return app
