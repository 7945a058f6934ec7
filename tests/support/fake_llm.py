"""A fake OpenAI-compatible Chat Completions server for tests and benchmarks, run as a separate process on 127.0.0.1.

Run ``python tests/support/fake_llm.py --data DIR [--seed-answers FILE] [--latency S] [--api-key K]``; it prints
``READY http://127.0.0.1:PORT/v1`` on stdout once it listens on a free port. :class:`FakeLLM` starts and stops it.

* ``POST /v1/chat/completions`` — an *extraction* request (the last user message that names review ids, as
  ``"review_id": "…"``) is answered from ``DIR/recorded_extractions.jsonl`` in the dinecheck answer shape, with a
  verbatim quote (the first sentence of the review in ``DIR/reviews.jsonl``) for every non-``none`` value; any other
  request (seed compilation) gets the next answer of ``--seed-answers`` (a JSON list; strings are sent as they are,
  other values as JSON; the last one repeats).
* ``POST /_control`` — ``{"latency": s, "reject_json_schema": bool, "faults": [...], "seed_answers": [...],
  "reset": bool}``. A fault is
  ``{"kind", "times"?: n, "every"?: n, "review_id"?: id, "retry_after"?: s, "delay"?: s, "repairs"?: bool}``; kinds:
  ``400``, ``429`` (with ``Retry-After``), ``500``, ``503``, ``slow`` (answers after ``delay`` s), ``drop`` (closes the
  connection), ``envelope`` (HTTP 200 with a non-JSON body), ``malformed`` (message content is not JSON),
  ``out_of_enum``, ``missing_field``, ``partial`` (omits the second half of a batch), ``fabricated_quote``, ``swap_ids``
  (each entry of a batch answer is sent under the next requested review's id), ``no_usage`` / ``negative_usage`` (the
  ``usage`` object is left out / holds negative counts), ``truncated`` (HTTP 200 whose body stops half-way while
  ``Content-Length`` promises all of it, then the connection closes: the answer was generated but is lost). At most one
  fault applies per request, the first that matches; ``times`` (default 1, or unlimited with ``every``) counts uses;
  content faults skip repair requests unless ``repairs`` is true.
* ``GET /_stats`` — request counts, faults applied, response formats, temperatures, batch sizes, asks per review id.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_ID = re.compile(r'"review_id":\s*"([^"]+)"')
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
CONTENT_FAULTS = {"malformed", "out_of_enum", "missing_field", "partial", "fabricated_quote", "swap_ids"}


class State:
    def __init__(self, data: Path | None, seed_answers: list[Any], latency: float, api_key: str | None) -> None:
        self.lock = threading.Lock()
        self.records: dict[str, dict[str, str]] = {}
        self.texts: dict[str, str] = {}
        if data is not None:
            with (data / "recorded_extractions.jsonl").open(encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        o = json.loads(line)
                        self.records.setdefault(o["review_id"], o["extraction"])
            with (data / "reviews.jsonl").open(encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        o = json.loads(line)
                        self.texts[o["review_id"]] = o["text"]
        self.seed_answers = seed_answers
        self.latency = latency
        self.api_key = api_key
        self.reject_json_schema = False
        self.faults: list[dict[str, Any]] = []
        self.reset_stats()

    def reset_stats(self) -> None:
        self.stats: dict[str, Any] = {
            "requests": 0,
            "extraction_requests": 0,
            "seed_requests": 0,
            "repair_requests": 0,
            "faults_applied": {},
            "response_formats": {},
            "temperatures": [],
            "batch_sizes": [],
            "asks": {},
            "ask_times": {},
            "seed_prompts": [],
            "seed_systems": [],
        }
        self.seed_index = 0

    def pick_fault(self, ids: list[str], is_repair: bool) -> dict[str, Any] | None:
        with self.lock:
            for f in self.faults:
                if f.get("review_id") and f["review_id"] not in ids:
                    continue
                if f["kind"] in CONTENT_FAULTS and (not ids or (is_repair and not f.get("repairs"))):
                    continue
                if f.get("times", 1) <= 0:
                    continue
                f["_seen"] = f.get("_seen", 0) + 1
                if f.get("every") and f["_seen"] % int(f["every"]) != 0:
                    continue
                if "times" in f or not f.get("every"):
                    f["times"] = f.get("times", 1) - 1
                self.stats["faults_applied"][f["kind"]] = self.stats["faults_applied"].get(f["kind"], 0) + 1
                return dict(f)
        return None


def first_sentence(text: str) -> str:
    m = _SENTENCE.search(text)
    words = (m.group(0) if m else text).strip().split(" ")
    return " ".join(words[:20])


def extraction_answer(state: State, ids: list[str], fault: dict[str, Any] | None) -> str:
    entries = []
    for rid in ids:
        rec = state.records.get(rid)
        if rec is None:
            continue
        entry: dict[str, Any] = {"review_id": rid}
        entry.update(rec)
        quote = first_sentence(state.texts.get(rid, ""))
        entry["evidence"] = {k: ("" if v == "none" else quote) for k, v in rec.items()}
        entries.append(entry)
    kind = fault["kind"] if fault else None
    target = fault.get("review_id") if fault else None
    for e in entries:
        if target and e["review_id"] != target:
            continue
        first = next(iter(k for k in e if k not in ("review_id", "evidence")), None)
        if kind == "out_of_enum" and first:
            e[first] = "not_a_declared_value"
        elif kind == "missing_field" and first:
            del e[first]
        elif kind == "fabricated_quote":
            e["evidence"] = {k: "the staff served us a unicorn steak" for k in e["evidence"]}
    if kind == "partial":
        entries = entries[: len(entries) // 2]
    if kind == "swap_ids" and len(entries) > 1:
        ids_in_order = [e["review_id"] for e in entries]
        for i, e in enumerate(entries):
            e["review_id"] = ids_in_order[(i + 1) % len(entries)]
    if kind == "malformed":
        return '{"reviews": [{"review_id": oops'
    return json.dumps({"reviews": entries})


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "Server"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(obj).encode(), headers)

    def _body(self) -> Any:
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n) or b"{}")

    def do_GET(self) -> None:  # noqa: N802
        st = self.server.state
        if self.path == "/_stats":
            with st.lock:
                self._json(200, st.stats)
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:  # noqa: N802
        st = self.server.state
        try:
            body = self._body()
        except ValueError:
            self._json(400, {"error": {"message": "request body is not JSON"}})
            return
        if self.path == "/_control":
            with st.lock:
                if body.get("reset"):
                    st.reset_stats()
                    st.faults = []
                if "latency" in body:
                    st.latency = float(body["latency"])
                if "reject_json_schema" in body:
                    st.reject_json_schema = bool(body["reject_json_schema"])
                if "faults" in body:
                    st.faults = [dict(f) for f in body["faults"]]
                if "seed_answers" in body:
                    st.seed_answers = list(body["seed_answers"])
                    st.seed_index = 0
            self._json(200, {"ok": True})
            return
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        self.completion(st, body)

    def completion(self, st: State, body: dict[str, Any]) -> None:
        if st.api_key and self.headers.get("Authorization") != f"Bearer {st.api_key}":
            self._json(401, {"error": {"message": "invalid api key"}})
            return
        messages = body.get("messages") or []
        if not body.get("model") or not isinstance(messages, list) or not messages:
            self._json(400, {"error": {"message": "model and messages are required"}})
            return
        rf = (body.get("response_format") or {}).get("type", "none")
        users = [m.get("content", "") for m in messages if m.get("role") == "user"]
        ids: list[str] = []
        for content in reversed(users):
            ids = [i for i in dict.fromkeys(_ID.findall(content)) if i != "<id>"]
            if ids:
                break
        is_repair = any(m.get("role") == "assistant" for m in messages)
        with st.lock:
            s = st.stats
            s["requests"] += 1
            s["response_formats"][rf] = s["response_formats"].get(rf, 0) + 1
            s["temperatures"].append(body.get("temperature"))
            now = time.time()
            if ids:
                s["extraction_requests"] += 1
                s["batch_sizes"].append(len(ids))
                for rid in ids:
                    s["asks"][rid] = s["asks"].get(rid, 0) + 1
                    s["ask_times"].setdefault(rid, []).append(now)
            else:
                s["seed_requests"] += 1
                s["seed_prompts"].append(users[-1] if users else "")
                s["seed_systems"].append(next((m.get("content", "") for m in messages if m.get("role") == "system"), ""))
            if is_repair:
                s["repair_requests"] += 1
            latency, reject = st.latency, st.reject_json_schema
        if latency:
            time.sleep(latency)
        if reject and rf == "json_schema":
            self._json(400, {"error": {"message": "response_format type 'json_schema' is not supported"}})
            return
        fault = st.pick_fault(ids, is_repair)
        kind = fault["kind"] if fault else None
        if kind in ("400", "429", "500", "503"):
            headers = {"Retry-After": str(fault.get("retry_after", 1))} if kind == "429" else {}
            self._json(int(kind), {"error": {"message": f"injected {kind}"}}, headers)
            return
        if kind == "drop":
            self.close_connection = True
            return
        if kind == "envelope":
            self._send(200, b"<html>bad gateway</html>")
            return
        if kind == "slow":
            time.sleep(float(fault.get("delay", 5.0)))
        if ids:
            content = extraction_answer(st, ids, fault)
        else:
            with st.lock:
                answers = st.seed_answers
                ans = answers[min(st.seed_index, len(answers) - 1)] if answers else "{}"
                st.seed_index += 1
            content = ans if isinstance(ans, str) else json.dumps(ans)
        tokens_in = sum(len(str(m.get("content", ""))) for m in messages) // 4
        reply: dict[str, Any] = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": tokens_in, "completion_tokens": len(content) // 4},
        }
        if kind == "no_usage":
            del reply["usage"]
        elif kind == "negative_usage":
            reply["usage"] = {"prompt_tokens": -100000, "completion_tokens": -153000}
        if kind == "truncated":
            raw = json.dumps(reply).encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw[: len(raw) // 2])
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        self._json(200, reply)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, state: State) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.state = state


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path)
    ap.add_argument("--seed-answers", type=Path)
    ap.add_argument("--latency", type=float, default=0.0)
    ap.add_argument("--api-key")
    args = ap.parse_args(argv)
    answers = json.loads(args.seed_answers.read_text(encoding="utf-8")) if args.seed_answers else []
    server = Server(State(args.data, answers, args.latency, args.api_key))
    print(f"READY http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    server.serve_forever()


class FakeLLM:
    """Starts the fake server as a child process; ``base_url``, ``control(...)``, ``stats()``, ``stop()``."""

    def __init__(
        self,
        data: Path | None = None,
        *,
        seed_answers: Path | None = None,
        latency: float = 0.0,
        api_key: str | None = None,
    ) -> None:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--latency", str(latency)]
        if data is not None:
            cmd += ["--data", str(data)]
        if seed_answers is not None:
            cmd += ["--seed-answers", str(seed_answers)]
        if api_key:
            cmd += ["--api-key", api_key]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line.startswith("READY "):
            self.stop()
            raise RuntimeError(f"the fake LLM server did not start (said {line!r})")
        self.base_url = line.split()[1]
        self.root = self.base_url.removesuffix("/v1")

    def control(self, **settings: Any) -> None:
        import httpx

        httpx.post(self.root + "/_control", json=settings, timeout=10).raise_for_status()

    def stats(self) -> dict[str, Any]:
        import httpx

        return httpx.get(self.root + "/_stats", timeout=10).json()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()

    def __enter__(self) -> FakeLLM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


if __name__ == "__main__":
    main()
