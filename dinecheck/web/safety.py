"""HTTP-level safety: the request body cap, security headers (CSP and friends), and errors as JSON.

Every error a client can cause is answered ``{"error": {"where", "why"}}`` with a 4xx status: dinecheck's own errors
(:class:`~dinecheck.errors.DinecheckError`, 400 or 422), unknown routes (404), bodies over the cap (413), unparsable
JSON and failed request validation (422). Anything else is a 500 with a fixed message — never a stack trace.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dinecheck.errors import DinecheckError, EvaluationError

log = logging.getLogger("dinecheck.web")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
            "object-src 'none'; frame-ancestors 'none'")


def error_body(where: str, why: str) -> dict[str, Any]:
    return {"error": {"where": where, "why": why}}


class WebError(Exception):
    """A client error raised by the web layer itself (status, where, why)."""

    def __init__(self, status: int, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.status, self.where, self.why = status, where, why


class BodyLimitMiddleware:
    """Refuse request bodies over ``max_bytes`` with 413: by Content-Length up front, and otherwise (a chunked body)
    by reading the body — at most ``max_bytes`` + 1 bytes — before the app sees any of it, then replaying it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared: int | None = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
        if declared is not None:
            if declared < 0 or declared > self.max_bytes:
                await self._refuse(send)
                return
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                await self.app(scope, _replay([msg], receive), send)
                return
            chunk = msg.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def _refuse(self, send: Send) -> None:
        resp = JSONResponse(error_body("body", f"the request body is larger than the limit of {self.max_bytes} bytes"),
                            status_code=413)
        await resp({"type": "http"}, _no_receive, send)


def _replay(messages: list[Message], then: Receive) -> Receive:
    """``messages`` first, then the real channel (so a later wait for the client's disconnect still works)."""
    pending = list(messages)

    async def receive() -> Message:
        return pending.pop(0) if pending else await then()

    return receive


async def _no_receive() -> Message:  # pragma: no cover - a response never reads the body
    return {"type": "http.disconnect"}


class SecurityHeadersMiddleware:
    """Content-Security-Policy (a looser one for the interactive ``/docs`` page only), no sniffing, no framing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = DOCS_CSP if scope.get("path") in ("/docs", "/redoc") else CSP

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers", []))
                headers += [(b"content-security-policy", csp.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
                msg["headers"] = headers
            await send(msg)

        await self.app(scope, receive, with_headers)


def _status_of(err: DinecheckError) -> int:
    return 422 if isinstance(err, EvaluationError) else 400


def install_error_handlers(app: FastAPI) -> None:
    """Map every exception to the JSON error shape (HTML pages render their own error template instead)."""

    @app.exception_handler(DinecheckError)
    async def _dinecheck(request: Request, exc: DinecheckError) -> JSONResponse:
        return JSONResponse(error_body(exc.location or request.url.path, exc.reason), status_code=_status_of(exc))

    @app.exception_handler(WebError)
    async def _web(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse(error_body(exc.where, exc.why), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        first = errs[0] if errs else {"loc": ("body",), "msg": "invalid request"}
        where = "/".join(str(p) for p in first.get("loc", ("body",)))
        more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
        return JSONResponse(error_body(where, f"{first.get('msg', 'invalid')}{more}"), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        why = exc.detail if isinstance(exc.detail, str) else "request refused"
        if exc.status_code == 404 and why == "Not Found":
            why = f"no such page or endpoint: {request.url.path}"
        return JSONResponse(error_body(request.url.path, why), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error on %s: %s", request.url.path, type(exc).__name__)
        return JSONResponse(error_body(request.url.path, "internal error (the server log has the details)"),
                            status_code=500)
