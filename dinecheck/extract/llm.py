"""The language-model extractor (``--extractor llm``): cache, batching, validation + repair, concurrency, budget.

For each review: a cache hit is answered locally; the misses are grouped into batches of ``batch_size`` and sent
concurrently (at most ``concurrency`` calls in flight) through :class:`~dinecheck.extract.chat.ChatClient`. Each answer
is validated (:mod:`dinecheck.extract.answers`):

* a review whose entry is valid becomes ``ok`` (and is cached);
* reviews with an invalid entry (value outside the enum, missing field, unparsable answer) get ONE repair call that
  shows the model its answer and the problems; still invalid → status ``invalid`` with the problems as ``error``;
* reviews missing from a batch answer are asked again, alone with the other missing ones (at most
  :data:`MAX_REASKS` times) → then ``invalid``;
* a call that fails for good (retries exhausted) → the reviews it served get status ``error``;
* once the next call could exceed ``max_cost``, no further calls are made: every unanswered review gets status
  ``error`` with reason "budget", and :attr:`LLMExtractor.budget_error` holds the :class:`BudgetExceeded`.

Nothing is ever filled in with a default value.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from dinecheck.errors import BudgetExceeded, ConfigError
from dinecheck.extract.answers import ReviewAnswer, check_answer
from dinecheck.extract.base import ExtractionResult, ExtractionStats, FieldSpec, ReviewInput
from dinecheck.extract.budget import Budget
from dinecheck.extract.cache import Cache, ExtractionCache, default_cache_path
from dinecheck.extract.chat import CallFailed, ChatClient, LLMConfig, resolve_config
from dinecheck.extract.prompt import answer_schema, extraction_messages, repair_messages, review_cache_key

MAX_REASKS = 2
MAX_REVIEW_CHARS = 100_000


def max_answer_tokens(n_fields: int, n_reviews: int) -> int:
    """The ``max_tokens`` of an extraction call: room for every value and a 25-word quote per field per review."""
    return 64 + n_reviews * (32 + 96 * n_fields)


@dataclass
class _Item:
    index: int
    review: ReviewInput
    key: str


class LLMExtractor:
    """Labels reviews with an OpenAI-compatible chat model; see the module docstring for the exact behaviour."""

    name = "llm"

    def __init__(
        self, config: LLMConfig, *, client: ChatClient | None = None, cache: Cache | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.config = config
        self.stats = ExtractionStats()
        self.client = client or ChatClient(config, self.stats, budget=budget)
        self.client.stats = self.stats
        if cache is None and config.use_cache:
            cache = ExtractionCache(config.cache_path or default_cache_path())
        self.cache = cache if config.use_cache else None
        self.budget_error: BudgetExceeded | None = None
        self._abort = threading.Event()

    @classmethod
    def from_options(cls, options: Any) -> LLMExtractor:
        """Build from :class:`~dinecheck.extract.factory.ExtractorOptions` (flags > environment > config file)."""
        config = resolve_config(options)
        cache: Cache | None = None
        if getattr(options, "cache_url", None) and config.use_cache:  # one PostgreSQL cache for workers on many machines
            from dinecheck.extract.cache_pg import PostgresExtractionCache

            cache = PostgresExtractionCache(options.cache_url)
        return cls(config, cache=cache, budget=getattr(options, "budget", None))

    # -- public -----------------------------------------------------------------------------------------------
    def extract(self, fields: Sequence[FieldSpec], reviews: Sequence[ReviewInput]) -> list[ExtractionResult]:
        """One result per review, in input order."""
        fields = list(fields)
        self._abort.clear()
        if not fields:
            raise ConfigError("the seed declares no extraction fields", "extract.fields")
        self.stats.reviews += len(reviews)
        results: list[ExtractionResult | None] = [None] * len(reviews)
        todo: list[_Item] = []
        for i, r in enumerate(reviews):
            if len(r.text) > MAX_REVIEW_CHARS:
                results[i] = _error(r, f"the review text is longer than {MAX_REVIEW_CHARS} characters")
                continue
            item = _Item(i, r, review_cache_key(self.config.model, fields, r))
            hit = self.cache.get(item.key) if self.cache else None
            if hit is not None:
                self.stats.cache_hits += 1
                results[i] = ExtractionResult(r.business_id, r.review_id, "ok", dict(hit[0]), dict(hit[1]))
            else:
                todo.append(item)
        with _Progress(self.config.progress and bool(todo), len(reviews), self.stats) as progress:
            progress.advance(len(reviews) - len(todo))
            for batch_results in self._run_batches(fields, _batches(todo, self.config.batch_size), progress.advance):
                for idx, res in batch_results:
                    results[idx] = res
        return [r for r in results if r is not None]

    def close(self) -> None:
        self.client.close()
        if self.cache is not None:
            self.cache.close()

    # -- internals --------------------------------------------------------------------------------------------
    def _run_batches(
        self, fields: list[FieldSpec], batches: list[list[_Item]], advance: Callable[[int], None]
    ) -> list[list[tuple[int, ExtractionResult]]]:
        if not batches:
            return []
        out: list[list[tuple[int, ExtractionResult]]] = []
        workers = max(1, min(self.config.concurrency, len(batches)))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dinecheck-llm") as pool:
            futures = [pool.submit(self._run_batch, fields, b) for b in batches]
            try:
                for fut in as_completed(futures):
                    res = fut.result()  # re-raises a fatal error (bad key, wrong URL)
                    out.append(res)
                    advance(len(res))
            except BaseException:
                self._abort.set()
                for fut in futures:
                    fut.cancel()
                raise
        return out

    def _run_batch(self, fields: list[FieldSpec], batch: list[_Item]) -> list[tuple[int, ExtractionResult]]:
        done: dict[str, ExtractionResult] = {}
        by_id = {it.review.review_id: it for it in batch}
        ask = [it.review for it in batch]
        reasks = 0
        try:
            while ask:
                if self._abort.is_set():
                    raise CallFailed("not asked: the run was aborted by a fatal endpoint error")
                if self.budget_error is not None:
                    raise self.budget_error
                messages = extraction_messages(fields, ask)
                reply = self.client.complete(
                    messages,
                    schema=answer_schema(fields, [r.review_id for r in ask]),
                    schema_name="review_labels",
                    max_tokens=max_answer_tokens(len(fields), len(ask)),
                )
                check = check_answer(reply.content, fields, ask)
                for rid, ans in check.valid.items():
                    done[rid] = self._ok(by_id[rid], ans)
                if check.invalid:
                    bad = [r for r in ask if r.review_id in check.invalid]
                    self._repair(fields, messages, reply.content or "", check.problems(), bad, by_id, done)
                if check.missing and reasks < MAX_REASKS:
                    reasks += 1
                    ask = [r for r in ask if r.review_id in check.missing]
                    continue
                for rid in check.missing:
                    done[rid] = _invalid(by_id[rid].review, f"the model's answers never included this review ({reasks + 1} asks)")
                ask = []
        except BudgetExceeded as exc:
            self.budget_error = self.budget_error or exc
            for it in batch:
                done.setdefault(it.review.review_id, _error(it.review, f"budget: {exc.reason}"))
        except CallFailed as exc:
            for it in batch:
                done.setdefault(it.review.review_id, _error(it.review, str(exc)))
        return [(it.index, done[it.review.review_id]) for it in batch]

    def _repair(
        self,
        fields: list[FieldSpec],
        messages: list[dict[str, str]],
        bad_answer: str,
        problems: list[str],
        bad: list[ReviewInput],
        by_id: dict[str, _Item],
        done: dict[str, ExtractionResult],
    ) -> None:
        ids = [r.review_id for r in bad]
        reply = self.client.complete(
            repair_messages(messages, bad_answer, problems, ids),
            schema=answer_schema(fields, ids),
            schema_name="review_labels",
            max_tokens=max_answer_tokens(len(fields), len(bad)),
        )
        check = check_answer(reply.content, fields, bad)
        for rid, ans in check.valid.items():
            done[rid] = self._ok(by_id[rid], ans)
        for rid, probs in check.invalid.items():
            done[rid] = _invalid(by_id[rid].review, "after one repair: " + "; ".join(probs))
        for rid in check.missing:
            done[rid] = _invalid(by_id[rid].review, "after one repair: the answer did not include this review")

    def _ok(self, item: _Item, ans: ReviewAnswer) -> ExtractionResult:
        if self.cache is not None:
            self.cache.put(item.key, self.config.model, ans.values, ans.evidence)
        r = item.review
        return ExtractionResult(r.business_id, r.review_id, "ok", dict(ans.values), dict(ans.evidence))


def _error(r: ReviewInput, reason: str) -> ExtractionResult:
    return ExtractionResult(r.business_id, r.review_id, "error", error=reason)


def _invalid(r: ReviewInput, reason: str) -> ExtractionResult:
    return ExtractionResult(r.business_id, r.review_id, "invalid", error=reason)


def _batches(items: list[_Item], size: int) -> list[list[_Item]]:
    """Consecutive groups of at most ``size`` items with distinct review ids (answers are keyed by review id)."""
    out: list[list[_Item]] = []
    cur: list[_Item] = []
    ids: set[str] = set()
    for it in items:
        if len(cur) >= max(1, size) or it.review.review_id in ids:
            out.append(cur)
            cur, ids = [], set()
        cur.append(it)
        ids.add(it.review.review_id)
    if cur:
        out.append(cur)
    return out


class _Progress:
    """A rich progress bar on stderr (reviews done, calls, cache hits, retries, tokens, cost), or nothing."""

    def __init__(self, enabled: bool, total: int, stats: ExtractionStats) -> None:
        self.enabled, self.total, self.stats = enabled, total, stats
        self._bar: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("extract"),
                BarColumn(bar_width=20),
                MofNCompleteColumn(),
                TextColumn("{task.fields[info]}"),
                TimeElapsedColumn(),
                console=Console(file=sys.stderr),
                transient=False,
            )
            self._bar.start()
            self._task = self._bar.add_task("extract", total=self.total, info=self._info())
        return self

    def _info(self) -> str:
        s = self.stats
        return (
            f"calls {s.calls} · hits {s.cache_hits} · retries {s.retries} · "
            f"tokens {s.tokens_in}/{s.tokens_out} · ${s.cost:.4f}"
        )

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, advance=n, info=self._info())

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.update(self._task, info=self._info())
            self._bar.stop()
