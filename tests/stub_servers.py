"""Local HTTP stubs that speak the Gemini and OpenAI REST APIs, for the real clients.

Each stub is a ``ThreadingHTTPServer`` on 127.0.0.1 with a random free port (GET
``.../models`` lists ``models`` when given, as llama.cpp, vLLM and Ollama do), started
in a daemon thread and shut down when its ``with`` block ends. Replies come from a
responder: a scripted list (``Script``; once exhausted every request gets a 500, so a
client that loops is bounded by its own retry budget) or a fake model (``ModelStub``)
that maps the prompt to text and wraps it in whichever API shape was called.

Shapes (from google-genai and openai sources):

- Gemini ``POST /v1beta/models/{model}:generateContent`` ->
  ``{"candidates": [{"content": {"role": "model", "parts": [{"text": ...}]},
  "finishReason": "STOP"}], "usageMetadata": {...}, "modelVersion": ...}``;
  ``:streamGenerateContent?alt=sse`` -> the same objects as ``data: {...}`` SSE events;
  ``:batchEmbedContents`` -> ``{"embeddings": [{"values": [...]}, ...]}``;
  errors -> ``{"error": {"code": 429, "message": ..., "status": "RESOURCE_EXHAUSTED"}}``.
- OpenAI ``POST /v1/chat/completions`` -> a ``chat.completion`` object; with
  ``"stream": true`` -> ``chat.completion.chunk`` SSE events then ``data: [DONE]``;
  errors -> ``{"error": {"message": ..., "type": ..., "code": ...}}``.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import numpy as np


@dataclass
class StubRequest:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any

    @property
    def route(self) -> str:
        """'generate' | 'stream' | 'embed' | 'chat' | 'other'."""
        if self.path.endswith(":generateContent"):
            return "generate"
        if self.path.endswith(":streamGenerateContent"):
            return "stream"
        if self.path.endswith(":batchEmbedContents"):
            return "embed"
        if self.path.endswith("/chat/completions"):
            return "chat"
        return "other"

    @property
    def streaming(self) -> bool:
        return self.route == "stream" or (
            self.route == "chat" and isinstance(self.body, dict) and bool(self.body.get("stream"))
        )

    @property
    def model(self) -> str:
        if self.route == "chat":
            return str(self.body.get("model", ""))
        segment = self.path.rsplit("/", 1)[-1]
        return segment.split(":", 1)[0]

    def prompt(self) -> tuple[str, str]:
        """(system, user) text of a generate/chat request."""
        body = self.body or {}
        if self.route == "chat":
            messages = body.get("messages", [])
            system = "\n".join(m["content"] for m in messages if m["role"] == "system")
            user = "\n".join(m["content"] for m in messages if m["role"] == "user")
            return system, user
        system_parts = (body.get("systemInstruction") or {}).get("parts", [])
        system = "".join(p.get("text", "") for p in system_parts)
        user = "".join(
            p.get("text", "") for c in body.get("contents", []) for p in c.get("parts", [])
        )
        return system, user


@dataclass
class Reply:
    """One HTTP reply: JSON ``body``, or ``sse`` events (JSON objects or raw strings)."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    sse: list[Any] | None = None
    delay: float = 0.0


Responder = Callable[[StubRequest], Reply]


class _QuietServer(ThreadingHTTPServer):
    """A client that gave up (timeout test) must not print a traceback from the server."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class StubServer:
    """``with StubServer(responder) as server: ... server.url ... server.requests``."""

    def __init__(self, responder: Responder, models: list[dict] | None = None) -> None:
        self.responder = responder
        self.models = models  # what GET .../models lists (None: 404, as Gemini stubs do)
        self.requests: list[StubRequest] = []
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                if stub.models is not None and urlsplit(self.path).path.endswith("/models"):
                    self._send(Reply(body={"object": "list", "data": stub.models}))
                else:
                    self._send(Reply(404, {"error": {"code": 404, "message": "File Not Found"}}))

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except json.JSONDecodeError:
                    body = raw.decode("utf-8", "replace")
                parts = urlsplit(self.path)
                request = StubRequest(
                    "POST", parts.path, parts.query,
                    {k.lower(): v for k, v in self.headers.items()}, body,
                )
                with stub._lock:
                    stub.requests.append(request)
                try:
                    reply = stub.responder(request)
                except Exception as exc:  # a broken test responder -> a visible 500
                    reply = Reply(500, {"error": {"code": 500, "message": f"stub: {exc!r}"}})
                if reply.delay:
                    time.sleep(reply.delay)
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                if reply.sse is not None:
                    self.send_response(reply.status)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("cache-control", "no-cache")
                    self.send_header("connection", "close")
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    for event in reply.sse:
                        data = event if isinstance(event, str) else json.dumps(event)
                        self.wfile.write(f"data: {data}\n\n".encode())
                        self.wfile.flush()
                    self.close_connection = True
                    return
                payload = (
                    reply.body.encode() if isinstance(reply.body, str)
                    else json.dumps(reply.body if reply.body is not None else {}).encode()
                )
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def count(self, route: str | None = None) -> int:
        return sum(1 for r in self.requests if route is None or r.route == route)

    def __enter__(self) -> StubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


# -- response bodies ----------------------------------------------------------------------


def gemini_body(text: str, model: str = "gemini-2.5-flash", finish: str = "STOP") -> dict:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": finish,
             "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 11, "candidatesTokenCount": 7,
                          "totalTokenCount": 18},
        "modelVersion": model,
    }


def gemini_error(status: int, message: str = "stub error") -> Reply:
    names = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
             404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL",
             503: "UNAVAILABLE"}
    return Reply(status, {"error": {"code": status, "message": message,
                                    "status": names.get(status, "UNKNOWN")}})


def gemini_embeddings(vectors: list[list[float]]) -> dict:
    return {"embeddings": [{"values": list(map(float, v))} for v in vectors]}


def openai_body(text: str, model: str = "gpt-4.1-mini") -> dict:
    return {
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 1700000000,
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def openai_chunk(text: str | None, model: str = "gpt-4.1-mini", finish: str | None = None) -> dict:
    delta = {"content": text} if text is not None else {}
    return {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 1700000000,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def openai_error(status: int, message: str = "stub error") -> Reply:
    kinds = {401: "invalid_request_error", 404: "invalid_request_error",
             429: "rate_limit_exceeded", 500: "server_error"}
    return Reply(status, {"error": {"message": message, "type": kinds.get(status, "error"),
                                    "code": None, "param": None}})


def split_chunks(text: str, size: int = 16) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def fake_vector(text: str, dim: int) -> list[float]:
    """A deterministic pseudo-embedding of ``text`` (not normalised, on purpose)."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return (np.random.default_rng(seed).normal(size=dim) * 3).round(6).tolist()


def text_reply(request: StubRequest, text: str) -> Reply:
    """Wrap ``text`` in the shape of whatever endpoint ``request`` called."""
    if request.route == "generate":
        return Reply(body=gemini_body(text, request.model))
    if request.route == "stream":
        return Reply(sse=[gemini_body(c, request.model) for c in split_chunks(text)])
    if request.route == "chat" and request.streaming:
        events: list[Any] = [openai_chunk(c, request.model) for c in split_chunks(text)]
        events += [openai_chunk(None, request.model, "stop"), "[DONE]"]
        return Reply(sse=events)
    if request.route == "chat":
        return Reply(body=openai_body(text, request.model))
    return Reply(404, {"error": {"code": 404, "message": f"no route {request.path}"}})


def error_reply(request: StubRequest, status: int, message: str = "stub error",
                headers: dict[str, str] | None = None) -> Reply:
    reply = openai_error(status, message) if request.route == "chat" else gemini_error(
        status, message)
    reply.headers.update(headers or {})
    return reply


# -- responders ---------------------------------------------------------------------------


class Script:
    """Replies in order; each item is a Reply, a text, or ``fn(request) -> Reply``.

    After the last item every request gets a 500 ('script exhausted').
    """

    def __init__(self, *items: Reply | str | Callable[[StubRequest], Reply]) -> None:
        self.items = list(items)
        self.position = 0

    def __call__(self, request: StubRequest) -> Reply:
        if self.position >= len(self.items):
            return error_reply(request, 500, "stub script exhausted")
        item = self.items[self.position]
        self.position += 1
        if isinstance(item, Reply):
            return item
        if isinstance(item, str):
            return text_reply(request, item)
        return item(request)


class ModelStub:
    """A fake model: ``fn(system, user) -> text`` for generate/chat; fake embeddings."""

    def __init__(self, fn: Callable[[str, str], str], embed_dim: int = 8) -> None:
        self.fn = fn
        self.embed_dim = embed_dim

    def __call__(self, request: StubRequest) -> Reply:
        if request.route == "embed":
            requests = request.body.get("requests", [])
            dim = requests[0].get("outputDimensionality") if requests else None
            vectors = [
                fake_vector("".join(p.get("text", "") for p in r["content"]["parts"]),
                            dim or self.embed_dim)
                for r in requests
            ]
            return Reply(body=gemini_embeddings(vectors))
        return text_reply(request, self.fn(*request.prompt()))
