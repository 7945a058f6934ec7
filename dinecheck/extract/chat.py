"""The one network seam: an OpenAI-compatible Chat Completions client with retries, accounting and a cost budget.

:func:`resolve_config` merges the three configuration sources (command-line flags win over the environment —
``DINECHECK_LLM_BASE_URL``, ``DINECHECK_LLM_MODEL``, ``DINECHECK_LLM_API_KEY`` — which wins over the ``[llm]`` table of
a TOML config file). :class:`ChatClient` posts ``{base_url}/chat/completions`` with temperature 0 and asks for
structured output (``response_format={"type": "json_schema", …}``); when the server rejects that with HTTP 400/422 the
call is repeated with ``{"type": "json_object"}``, and if that works JSON mode is used for the rest of the run. Transient failures (429, 5xx, timeouts, connection
errors, a garbled response envelope) are retried with exponential backoff and jitter, honouring ``Retry-After``.
Every request, retry, token and the estimated cost is counted in an :class:`~dinecheck.extract.base.ExtractionStats`;
before each attempt (retries included) its worst-case cost is reserved against ``max_cost`` and :class:`BudgetExceeded`
is raised instead of sending an attempt that could overrun it; an attempt whose ``usage`` is missing, negative or
unreadable, or whose completion is lost, is charged that worst case.
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import threading
import time
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard

import httpx
import platformdirs

from dinecheck.errors import BudgetExceeded, ConfigError, ExtractionError
from dinecheck.extract.base import ExtractionStats
from dinecheck.extract.budget import Budget
from dinecheck.files import require_file

ENV_BASE_URL = "DINECHECK_LLM_BASE_URL"
ENV_MODEL = "DINECHECK_LLM_MODEL"
ENV_API_KEY = "DINECHECK_LLM_API_KEY"
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
RETRY_STATUSES = frozenset({408, 409, 425, 429})

HOW_TO_CONFIGURE = (
    "no language model is configured; pass --base-url URL --model NAME (and --api-key KEY if needed), "
    f"or set {ENV_BASE_URL} and {ENV_MODEL} (and {ENV_API_KEY}), "
    "or put base_url and model in the [llm] table of a TOML file given with --config"
)


@dataclass(frozen=True)
class Price:
    """USD per million tokens, prompt (input) and completion (output)."""

    input: float
    output: float


@dataclass
class LLMConfig:
    """Everything the client and the LLM extractor need, after merging flags, environment and config file."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0
    max_retries: int = 5
    concurrency: int = 8
    batch_size: int = 1
    max_cost: float | None = None
    price: Price | None = None
    cache_path: Path | None = None
    use_cache: bool = True
    progress: bool = False
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    retry_after_max: float = 60.0

    @property
    def endpoint(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"


def default_config_path() -> Path:
    """``<user config dir>/dinecheck/config.toml`` (read only when it exists and no --config is given)."""
    return Path(platformdirs.user_config_dir("dinecheck")) / "config.toml"


def _read_toml(path: Path) -> dict[str, Any]:
    require_file(path, ConfigError)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read the config file ({exc.strerror})", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"invalid TOML ({exc})", str(path)) from None
    llm = data.get("llm", {})
    if not isinstance(llm, dict):
        raise ConfigError("[llm] must be a table", str(path))
    return llm


def configured_base_url(config_file: Path | None) -> str | None:
    """The ``[llm] base_url`` of ``config_file`` (or of the default config file when it exists), else None."""
    path = config_file or (default_config_path() if default_config_path().is_file() else None)
    if path is None:
        return None
    value = _read_toml(path).get("base_url")
    return value if isinstance(value, str) and value else None


def _number(table: dict[str, Any], key: str, where: str, *, minimum: float = 0.0) -> float | None:
    if key not in table:
        return None
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum:
        raise ConfigError(f"{key} must be a number ≥ {minimum:g}, got {value!r}", where)
    return float(value)


def _price(llm: dict[str, Any], model: str, where: str) -> Price | None:
    prices = llm.get("prices", {})
    if not isinstance(prices, dict):
        raise ConfigError("[llm.prices] must be a table of model = {input = …, output = …}", where)
    entry = prices.get(model)
    if entry is None:
        return None
    if not isinstance(entry, dict):
        raise ConfigError(f"[llm.prices] {model!r} must be a table {{input = …, output = …}}", where)
    loc = f"{where} [llm.prices.{model!r}]"
    pin, pout = _number(entry, "input", loc), _number(entry, "output", loc)
    if pin is None or pout is None:
        raise ConfigError("needs both input and output (USD per million tokens)", loc)
    return Price(pin, pout)


def resolve_config(options: Any, environ: dict[str, str] | None = None, *, location: str = "--extractor llm") -> LLMConfig:
    """Merge ``ExtractorOptions`` flags, the environment and the TOML config file; ConfigError when no model is set."""
    env = os.environ if environ is None else environ
    path: Path | None = options.config_file
    where = str(path) if path else None
    if path is None and default_config_path().is_file():
        path, where = default_config_path(), str(default_config_path())
    llm = _read_toml(path) if path else {}

    def pick(flag: str | None, env_key: str, key: str) -> str | None:
        if flag:
            return flag
        if env.get(env_key):
            return env[env_key]
        value = llm.get(key)
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{key} must be a string", where)
        return value or None

    base_url = pick(options.base_url, ENV_BASE_URL, "base_url")
    model = pick(options.model, ENV_MODEL, "model")
    api_key = pick(options.api_key, ENV_API_KEY, "api_key")
    if not base_url or not model:
        missing = "base URL" if not base_url else "model name"
        raise ConfigError(f"{HOW_TO_CONFIGURE} (the {missing} is missing)", location)
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"the base URL must start with http:// or https://, got {base_url!r}", "--base-url")
    loc = where or "config"
    price = _price(llm, model, loc)
    timeout = _number(llm, "timeout", loc, minimum=0.001)
    if options.max_cost is not None and price is None:
        raise ConfigError(
            f"--max-cost needs a price for model {model!r}: add [llm.prices.{json.dumps(model)}] with input and "
            "output in USD per million tokens to the config file",
            "--max-cost",
        )
    return LLMConfig(
        base_url=base_url,
        model=model,
        api_key=api_key,
        timeout=timeout if timeout is not None else options.timeout,
        max_retries=options.max_retries,
        concurrency=options.concurrency,
        batch_size=options.batch_size,
        max_cost=options.max_cost,
        price=price,
        cache_path=options.cache_path,
        use_cache=options.use_cache,
        progress=options.progress,
    )


@dataclass(frozen=True, slots=True)
class ChatReply:
    """The assistant message of one completed call and its token usage."""

    content: str | None
    tokens_in: int
    tokens_out: int


class CallFailed(Exception):
    """A call failed for good (retries exhausted or a non-retryable answer); the reviews it served get status error."""


class _Transient(Exception):
    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class _Unreachable(_Transient):
    """No connection could be made (refused, unknown host, connect timeout): retried briefly, then fatal."""


#: A connection is given at most this long to open, whatever the read timeout.
CONNECT_TIMEOUT_MAX = 10.0
#: Retries when the endpoint cannot be reached at all; then the whole run stops with one clear error.
UNREACHABLE_RETRIES = 2


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date), or None when absent/invalid."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _is_count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def budget_tokens(text: str) -> int:
    """A deliberately pessimistic token bound for budget reservations: one token per 2 UTF-8 bytes.

    Tokenizers spend about 4 bytes per token on English and about 1 token per character (3 bytes) on CJK text, so this
    over-reserves in both cases: the budget stops a run early rather than late.
    """
    return len(text.encode("utf-8")) // 2 + 1


@dataclass
class ChatClient:
    """Posts chat completions to one OpenAI-compatible endpoint; thread-safe; counts into ``stats``."""

    config: LLMConfig
    stats: ExtractionStats = field(default_factory=ExtractionStats)
    transport: httpx.BaseTransport | None = None
    budget: Budget | None = None  # a shared budget (workers of one run) replaces the per-client max_cost check

    def __post_init__(self) -> None:
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        limits = httpx.Limits(max_connections=max(1, self.config.concurrency), max_keepalive_connections=max(1, self.config.concurrency))
        self._http = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(self.config.timeout, connect=min(self.config.timeout, CONNECT_TIMEOUT_MAX)),
            limits=limits,
            transport=self.transport,
        )
        self._lock = threading.Lock()
        self._reserved = 0.0
        self.structured = True  # False once json_schema was refused (HTTP 400/422) and JSON mode then worked
        self._rng = random.Random()

    # -- accounting -------------------------------------------------------------------------------------------
    def _cost(self, tokens_in: int, tokens_out: int) -> float:
        p = self.config.price
        return 0.0 if p is None else (tokens_in * p.input + tokens_out * p.output) / 1_000_000

    def _reserve(self, prompt_bound: int, max_tokens: int) -> float:
        """Reserve the worst case of ONE attempt against ``max_cost`` before it is sent; BudgetExceeded if it may not.
        With a shared :class:`~dinecheck.extract.budget.Budget` (workers of one run), the reservation is made there."""
        est = self._cost(prompt_bound, max_tokens)
        if self.budget is not None:
            denied = self.budget.reserve(est)
            if denied is not None:
                raise BudgetExceeded(denied, "--max-cost")
            return est
        with self._lock:
            limit = self.config.max_cost
            if limit is not None and self.stats.cost + self._reserved + est > limit:
                raise BudgetExceeded(
                    f"the next call could cost up to ${est:.6f}, and ${self.stats.cost:.6f} is spent "
                    f"(${self._reserved:.6f} more in flight) of the ${limit:.6f} budget",
                    "--max-cost",
                )
            self._reserved += est
        return est

    def _settle(self, est: float, tokens_in: int, tokens_out: int) -> None:
        """Release an attempt's reservation and charge what it is taken to have cost (in the shared budget too)."""
        cost = self._cost(tokens_in, tokens_out)
        if self.budget is not None:
            self.budget.settle(est, cost)
        with self._lock:
            if self.budget is None:
                self._reserved -= est
            self.stats.tokens_in += tokens_in
            self.stats.tokens_out += tokens_out
            self.stats.cost += cost

    def _count(self, *, retry: bool) -> None:
        with self._lock:
            self.stats.calls += 1
            if retry:
                self.stats.retries += 1

    # -- the call ---------------------------------------------------------------------------------------------
    def _body(
        self, messages: list[dict[str, str]], schema: dict[str, Any] | None, name: str, strict: bool, max_tokens: int
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.config.model, "messages": messages, "temperature": 0, "max_tokens": max_tokens}
        if schema is not None:
            body["response_format"] = {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": strict}}
        else:
            body["response_format"] = {"type": "json_object"}
        return body

    def _post(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        try:
            with self._http.stream("POST", self.config.endpoint, json=body) as resp:
                chunks, size = [], 0
                for chunk in resp.iter_bytes():
                    size += len(chunk)
                    if size > MAX_RESPONSE_BYTES:
                        raise _Transient(f"the response is larger than {MAX_RESPONSE_BYTES} bytes")
                    chunks.append(chunk)
                return resp.status_code, dict(resp.headers), b"".join(chunks)
        except httpx.ConnectTimeout:
            raise _Unreachable(f"no connection within {min(self.config.timeout, CONNECT_TIMEOUT_MAX):g} s") from None
        except httpx.ConnectError as exc:
            raise _Unreachable(f"connection failed ({exc})") from None
        except httpx.TimeoutException:
            raise _Transient(f"no answer within {self.config.timeout:g} s") from None
        except httpx.TransportError as exc:
            raise _Transient(f"connection failed ({type(exc).__name__}: {exc})") from None

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.config.retry_after_max)
        cap = min(self.config.backoff_max, self.config.backoff_base * (2**attempt))
        return cap * (0.5 + 0.5 * self._rng.random())

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        schema: dict[str, Any] | None = None,
        schema_name: str = "answer",
        strict: bool = True,
        max_tokens: int = 1024,
    ) -> ChatReply:
        """One chat completion (with retries). Raises CallFailed, BudgetExceeded, or ExtractionError when fatal.

        Every attempt (first try, retry, JSON-mode fallback) reserves its worst case — the pessimistic prompt bound plus
        ``max_tokens`` — before it is sent, and is charged when it ends: the server's ``usage`` when it is readable
        and non-negative, else that worst case (a completion lost to a timeout, a cut-off body or a garbled envelope
        may still have been generated and billed); an HTTP error status is charged the prompt bound.
        """
        prompt_bound = sum(budget_tokens(m["content"]) for m in messages) + 16 * len(messages)
        attempt = 0
        is_retry = False
        last = "no attempt made"
        started = time.monotonic()
        use_schema = schema is not None and self.structured
        while True:
            body = self._body(messages, schema if use_schema else None, schema_name, strict, max_tokens)
            est = self._reserve(prompt_bound, max_tokens)
            charge = (prompt_bound, max_tokens)  # until the attempt proves otherwise
            self._count(retry=is_retry)
            wait: float | None = None
            try:
                status, headers, raw = self._post(body)
                if status != 200:
                    charge = (prompt_bound, 0)
                else:
                    reply = self._parse(raw, prompt_bound, max_tokens)
                    charge = (reply.tokens_in, reply.tokens_out)
                    if schema is not None and not use_schema and self.structured:
                        self.structured = False  # JSON mode worked where json_schema was refused: keep using it
                    return reply
                snippet = raw[:300].decode("utf-8", "replace").replace("\n", " ")
                if status in (400, 422) and use_schema:
                    use_schema = False  # try JSON mode; not a retry of a transient fault
                    is_retry = False
                    continue
                if status in (401, 403):
                    raise ExtractionError(f"the endpoint refused the request (HTTP {status}: {snippet}); check the API key", self.config.endpoint)
                if status == 404:
                    raise ExtractionError(
                        f"HTTP 404 ({snippet}); check the base URL (it usually ends in /v1) and the model name", self.config.endpoint
                    )
                if status in RETRY_STATUSES or status >= 500:
                    ra = parse_retry_after(headers.get("retry-after"))
                    raise _Transient(f"HTTP {status} ({snippet})", ra)
                raise CallFailed(f"the endpoint answered HTTP {status} ({snippet})")
            except _Transient as exc:
                last = str(exc)
                if isinstance(exc, _Unreachable) and attempt >= min(self.config.max_retries, UNREACHABLE_RETRIES):
                    waited = time.monotonic() - started
                    raise ExtractionError(
                        f"cannot reach the endpoint: {attempt + 1} attempts in {waited:.1f} s, last: {last}; "
                        "is the server running and is the base URL right?",
                        self.config.endpoint,
                    ) from None
                if attempt >= self.config.max_retries:
                    raise CallFailed(f"gave up after {attempt + 1} attempts; last: {last}") from None
                wait = self._delay(attempt, exc.retry_after)
            finally:
                self._settle(est, *charge)
            if wait is not None:  # settled first: a backing-off attempt holds no reservation while it sleeps
                time.sleep(wait)
                attempt += 1
                is_retry = True

    def _parse(self, raw: bytes, prompt_bound: int, max_tokens: int) -> ChatReply:
        """The reply of an HTTP 200; token counts from ``usage``, or the attempt's worst case when it is unusable."""
        try:
            obj = json.loads(raw)
            msg = obj["choices"][0]["message"]
            content = msg.get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise _Transient("the response is not a chat completion object") from None
        if content is not None and not isinstance(content, str):
            raise _Transient("the response's message content is not a string")
        usage = obj.get("usage") if isinstance(obj, dict) else None
        tin = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        tout = usage.get("completion_tokens") if isinstance(usage, dict) else None
        if _is_count(tin) and _is_count(tout):
            return ChatReply(content=content, tokens_in=tin, tokens_out=tout)
        return ChatReply(content=content, tokens_in=prompt_bound, tokens_out=max_tokens)  # usage unusable: worst case

    def close(self) -> None:
        self._http.close()
