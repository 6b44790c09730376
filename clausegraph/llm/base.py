"""The provider interface every LLM backend implements, its settings and its errors.

A provider turns ``(system, user, schema)`` into text. Everything shared lives here:
bounded retries with exponential backoff on 429/408/5xx and transport errors (a
``Retry-After`` header is honoured, capped), one-line error messages that name the
provider and the model, and key hygiene: an API key is held only by the client object,
never stored in settings, never part of a message, a ``repr`` or a log record.
"""

from __future__ import annotations

import importlib
import json
import logging
import random
import re
import time
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from clausegraph.errors import ClauseGraphError

log = logging.getLogger("clausegraph.llm")

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class LLMConfig(BaseModel):
    """Which language model answers (and optionally extracts relations), and how.

    ``provider='none'`` (also the default when neither the setting nor
    CLAUSEGRAPH_LLM_PROVIDER chooses one) keeps ClauseGraph offline and extractive. The API
    key is never a setting: it is read from the environment variable ``api_key_env``
    (default: GEMINI_API_KEY / GOOGLE_API_KEY for Gemini, OPENAI_API_KEY for OpenAI).
    """

    # Same behaviour as config.StrictModel (not imported: config.py imports this module).
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    provider: Literal["none", "gemini", "openai"] | None = Field(
        None, description="'none' = offline extractive answers; unset = "
        "CLAUSEGRAPH_LLM_PROVIDER, else 'none'"
    )
    model: str | None = Field(None, description="model name; None = the provider's default")
    base_url: str | None = Field(
        None, description="API endpoint, e.g. http://localhost:11434/v1 for Ollama"
    )
    api_key_env: str | None = Field(
        None, description="name of the environment variable holding the API key"
    )
    timeout: float = Field(
        300.0, gt=0, description="seconds to wait for one reply; a CPU-hosted model reading "
        "a long prompt needs minutes. A reply that times out is not retried (a retry would "
        "restart the generation)")
    max_retries: int = Field(
        3, ge=0, le=10, description="retries on 429/5xx and refused connections (never on a "
        "timeout)")
    backoff_initial: float = Field(1.0, ge=0, description="first backoff delay, seconds")
    backoff_max: float = Field(30.0, ge=0, description="cap on any delay, Retry-After included")
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_output_tokens: int | None = Field(
        None, ge=1, description="cap on the tokens of one reply; unset = sized from the answer "
        "schema (the largest reply it allows)")
    context_tokens: int | None = Field(
        None, ge=256, description="the model's context window in tokens; unset = asked from "
        "the server (llama.cpp, vLLM, Gemini) or learnt from its error; evidence is trimmed "
        "by rank to fit")
    json_mode: Literal["auto", "schema", "object", "none"] = Field(
        "auto",
        description="how JSON output is requested: 'auto' = a JSON schema (constrained "
        "decoding on llama.cpp, vLLM, Ollama, Gemini), dropped for the prompt-only contract "
        "when the server rejects it; 'schema' = always; 'object' = plain JSON mode; 'none' = "
        "only by the prompt",
    )
    relation_batch_size: int = Field(12, ge=1, le=100, description="clauses per LLM call")


class LLMResponse(BaseModel):
    """One completed generation."""

    text: str
    provider: str
    model: str
    finish_reason: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    attempts: int = Field(1, description="HTTP attempts, retries included")
    seconds: float = 0.0
    structured: bool = Field(False, description="the JSON schema was sent with the request")


# -- errors ------------------------------------------------------------------------------


class LLMError(ClauseGraphError):
    """A language-model call failed; the message is one line and contains no secret."""

    def __init__(self, message: str, *, provider: str = "", model: str = "",
                 status: int | None = None) -> None:
        self.provider = provider
        self.model = model
        self.status = status
        super().__init__(message)


class LLMConfigError(LLMError):
    """The provider is not usable as configured (no key, unknown provider, ...)."""


# The client library each provider needs, and the pip package it comes in (extra "llm").
SDK_PACKAGES = {"gemini": ("google.genai", "google-genai"), "openai": ("openai", "openai")}


def import_sdk(provider: str) -> Any:
    """The provider's client library, or a one-line ``LLMConfigError`` naming the extra
    that installs it (the SDKs are optional: offline answers need neither)."""
    module, package = SDK_PACKAGES[provider]
    try:
        return importlib.import_module(module)
    except ImportError:
        raise LLMConfigError(
            f"{provider}: the {package} package is not installed; install clausegraph[llm] "
            "(pip install 'clausegraph[llm]', or pip install -e '.[llm]' in a clone)",
            provider=provider) from None


class LLMAuthError(LLMError):
    """401/403: the key is missing, wrong, or lacks access."""


class LLMModelNotFoundError(LLMError):
    """404: the model (or endpoint) does not exist."""


class LLMUnavailableError(LLMError):
    """Retryable failures (429, 5xx, refused connections) persisted past the retry budget,
    or no reply in time (:class:`LLMTimeoutError`)."""


class LLMTimeoutError(LLMUnavailableError):
    """No reply within ``llm.timeout``; not retried (a retry restarts the generation)."""


class LLMRequestError(LLMError):
    """Any other rejected request (400, 422, ...)."""


class LLMContextError(LLMRequestError):
    """The prompt does not fit the model's context; ``context_tokens`` when the server said."""

    def __init__(self, message: str, *, context_tokens: int | None = None,
                 prompt_tokens: int | None = None, **kwargs: Any) -> None:
        self.context_tokens = context_tokens
        self.prompt_tokens = prompt_tokens
        super().__init__(message, **kwargs)


class LLMOutputError(LLMError):
    """The model answered, but not with the JSON the caller asked for."""


# -- helpers -----------------------------------------------------------------------------


@dataclass
class Failure:
    """A provider exception reduced to what the retry loop needs."""

    status: int | None
    message: str
    retry_after: float | None = None
    transient: bool = False  # transport error (refused connection, reset): retry
    timed_out: bool = False  # no reply in time: the server may still be generating, no retry
    url: str | None = None  # the URL that answered (named on a 404)
    body: dict = field(default_factory=dict)  # the error body, for context-size details


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?```\s*$", re.DOTALL)


def read_json_reply(text: str) -> Any:
    """The JSON value in a model's reply, tolerating a code fence and prose around an object.

    >>> read_json_reply('Here it is: {"a": 1} -- done')
    {'a': 1}

    Raises ValueError with a short reason when there is none.
    """
    if not text or not text.strip():
        raise ValueError("the reply is empty")
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    if fenced:
        stripped = fenced.group(1).strip()
    try:
        return json.loads(stripped)
    except json.JSONDecodeError as exc:
        first, last = stripped.find("{"), stripped.rfind("}")
        if first < 0 or last <= first:
            raise ValueError(f"not JSON ({exc.msg} at char {exc.pos})") from None
        try:
            return json.loads(stripped[first:last + 1])
        except json.JSONDecodeError as inner:
            raise ValueError(f"not JSON ({inner.msg} at char {first + inner.pos})") from None


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP date.

    >>> parse_retry_after("2")
    2.0
    >>> parse_retry_after(None) is None
    True
    """
    if not value:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def redact(text: str, secrets: list[str]) -> str:
    """Replace every secret (and any 'key=...' / 'Bearer ...' token) with '***'."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    text = re.sub(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{8,}", r"\1***", text)
    return re.sub(r"(?i)((?:api[_-]?)?key=)[^&\s\"']+", r"\1***", text)


_CONTEXT_EXCEEDED = re.compile(
    r"exceed\w*[_ ](the )?(available )?context|context[_ ]length[_ ]exceeded|maximum context "
    r"length|context (size|length|window)|too many tokens|prompt is too long", re.IGNORECASE)
_CONTEXT_SIZE = (
    re.compile(r"context size \((\d+) tokens\)"),             # llama.cpp
    re.compile(r"maximum context length is (\d+)"),            # OpenAI, vLLM
    re.compile(r"context (?:window|length) (?:of|is) (\d+)"),
)
_PROMPT_SIZE = (
    re.compile(r"request \((\d+) tokens\)"),
    re.compile(r"(?:messages|prompt|input) (?:resulted in|has|contains) (\d+) tokens"),
    re.compile(r"(\d+) in the messages"),                       # vLLM
)
SCHEMA_REJECTED = re.compile(
    r"response_format|json_schema|response_schema|response_json_schema|structured output|"
    r"grammar|schema", re.IGNORECASE)


def context_limits(failure: Failure) -> tuple[int | None, int | None] | None:
    """(context tokens, prompt tokens) when ``failure`` says the prompt is too long, else None.

    >>> context_limits(Failure(400, "request (2131 tokens) exceeds the available context "
    ...                        "size (2048 tokens), try increasing it"))
    (2048, 2131)
    """
    if failure.status not in (400, 413, 422) or not _CONTEXT_EXCEEDED.search(failure.message):
        return None

    def first(patterns: tuple[re.Pattern, ...], key: str) -> int | None:
        value = failure.body.get(key)
        if isinstance(value, int):
            return value
        for pattern in patterns:
            match = pattern.search(failure.message)
            if match:
                return int(match.group(1))
        return None

    return first(_CONTEXT_SIZE, "n_ctx"), first(_PROMPT_SIZE, "n_prompt_tokens")


def one_line(text: str, limit: int = 240) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class CallStats:
    """Counters a provider keeps across calls (the tests read them)."""

    requests: int = 0
    retries: int = 0
    delays: list[float] = field(default_factory=list)


@dataclass
class ServerInfo:
    """What one server (base URL + model) has shown about itself, learnt once per process."""

    structured: bool | None = None  # None = not tried yet
    context_tokens: int | None = None
    models: list[str] | None = None  # what /v1/models lists (None = not asked / no answer)
    chars_per_token: float = 3.0  # conservative for English; refined from reported usage
    tokenize_url: str | None = None  # llama.cpp's POST /tokenize: exact counts
    probed: bool = False


_SERVERS: dict[tuple[str, str, str], ServerInfo] = {}


# -- the interface -----------------------------------------------------------------------


class LLMProvider(ABC):
    """A language model behind a REST API.

    Subclasses implement ``_generate_once``, ``_stream_once`` and ``_failure`` (and may
    implement ``_probe`` to learn the served model and its context size); this class adds
    retries, timing, the structured-output fallback and error translation.
    """

    name: str = "llm"
    default_model: str = ""

    def __init__(self, config: LLMConfig, api_key: str | None) -> None:
        self.config = config
        self.model = config.model or self.default_model
        self._secrets = [api_key] if api_key else []
        self.stats = CallStats()
        self.sleep: Callable[[float], None] = time.sleep
        self.notes: list[str] = []  # what a user should know about this server (warnings)
        self.last_finish_reason: str | None = None  # of the last streamed reply

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.config.base_url!r})"

    @property
    def label(self) -> str:
        """E.g. 'gemini:gemini-2.5-flash', recorded as the answer's model."""
        return f"{self.name}:{self.model}"

    @property
    def server(self) -> ServerInfo:
        key = (self.name, self.config.base_url or "", self.config.model or "")
        return _SERVERS.setdefault(key, ServerInfo())

    # -- public ------------------------------------------------------------------------

    def prepare(self) -> list[str]:
        """Ask the server once (per process) which model it serves and its context size.

        Returns notes for the user (e.g. the model chosen because none was named).
        """
        info = self.server
        if not info.probed:
            info.probed = True
            try:
                self._probe(info)
            except Exception as exc:  # noqa: BLE001 - probing is optional; the call reports
                log.debug("%s: probing the server failed: %s", self.name, one_line(str(exc)))
        self._apply_probe(info)
        return list(self.notes)

    def _probe(self, info: ServerInfo) -> None:
        """Fill ``info.models`` / ``info.context_tokens`` from the server (optional)."""

    def _apply_probe(self, info: ServerInfo) -> None:
        """Use what the probe learnt: subclasses choose the model."""

    def context_window(self) -> int | None:
        """Tokens the model reads and writes in one call: the smaller of the setting and
        what the server reported (or its error taught); None when neither is known."""
        known = [n for n in (self.config.context_tokens, self.server.context_tokens) if n]
        return min(known) if known else None

    def count_tokens(self, text: str) -> int:
        """Tokens in ``text``: the server's own count where it offers one (llama.cpp),
        else an upper estimate (refined from the usage the server reports)."""
        url = self.server.tokenize_url
        if url:
            try:
                request = urllib.request.Request(
                    url, data=json.dumps({"content": text}).encode(),
                    headers={"content-type": "application/json"})
                with urllib.request.urlopen(request, timeout=10) as reply:
                    return len(json.loads(reply.read())["tokens"])
            except (OSError, ValueError, KeyError) as exc:
                log.debug("%s: %s failed (%s); estimating", self.name, url, exc)
                self.server.tokenize_url = None
        return int(len(text) / self.server.chars_per_token) + 1

    def wants_schema(self) -> bool:
        """Send the JSON schema? ('auto' stops once the server has rejected it.)"""
        mode = self.config.json_mode
        return mode == "schema" or (mode == "auto" and self.server.structured is not False)

    def generate(self, system: str, user: str, schema: dict | None = None,
                 max_tokens: int | None = None) -> LLMResponse:
        """One completion; with ``schema`` the model is asked for JSON matching it."""
        started = time.perf_counter()
        sent = schema if schema is not None and self.wants_schema() else None
        try:
            response, attempts = self._with_retries(
                lambda: self._generate_once(system, user, sent, max_tokens))
        except LLMRequestError as exc:
            if not self._schema_rejected(exc, sent):
                raise
            sent = None
            response, attempts = self._with_retries(
                lambda: self._generate_once(system, user, None, max_tokens))
        if sent is not None and self.config.json_mode == "auto":
            self.server.structured = True
        self._learn_ratio(system + user, response.input_tokens)
        response.attempts = attempts
        response.seconds = round(time.perf_counter() - started, 3)
        response.structured = sent is not None
        return response

    def stream(self, system: str, user: str, schema: dict | None = None,
               max_tokens: int | None = None) -> Iterator[str]:
        """Yield text chunks as they arrive (``last_finish_reason`` is set at the end).

        Retries happen only before the first chunk: once text has been handed out a
        failure is raised, because replaying would duplicate what the caller has seen.
        """
        sent = schema if schema is not None and self.wants_schema() else None
        self.last_finish_reason = None
        attempt = 0
        while True:
            attempt += 1
            yielded = False
            try:
                self.stats.requests += 1
                for chunk in self._stream_once(system, user, sent, max_tokens):
                    if chunk:
                        yielded = True
                        yield chunk
                if sent is not None and self.config.json_mode == "auto":
                    self.server.structured = True
                return
            except LLMError:
                raise
            except Exception as exc:  # noqa: BLE001 - translated below, never leaked raw
                failure = self._failure(exc)
                error = self._error(failure, attempt)
                if not yielded and self._schema_rejected(error, sent):
                    sent, attempt = None, 0
                    continue
                if yielded or not self._should_retry(failure, attempt):
                    raise error from None
                self._backoff(failure, attempt)

    # -- for subclasses -------------------------------------------------------------------

    @abstractmethod
    def _generate_once(self, system: str, user: str, schema: dict | None,
                       max_tokens: int | None) -> LLMResponse:
        """One request; with ``schema`` the server is asked to constrain the reply to it."""

    @abstractmethod
    def _stream_once(self, system: str, user: str, schema: dict | None,
                     max_tokens: int | None) -> Iterator[str]: ...

    @abstractmethod
    def _failure(self, exc: Exception) -> Failure:
        """Reduce a client-library exception to status, message and Retry-After."""

    # -- structured output and token accounting ------------------------------------------

    def _schema_rejected(self, error: Exception, sent: dict | None) -> bool:
        """The server refused the JSON schema: remember it and fall back to the prompt."""
        if sent is None or self.config.json_mode != "auto" or isinstance(error, LLMContextError):
            return False
        if not isinstance(error, LLMRequestError) or not SCHEMA_REJECTED.search(str(error)):
            return False
        self.server.structured = False
        note = (f"{self.name}: the server rejected the JSON schema (structured output); "
                "answers use the prompt-only JSON contract")
        self._note(note)
        log.warning(note)
        return True

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    def _learn_ratio(self, prompt: str, input_tokens: int | None) -> None:
        if input_tokens and input_tokens > 50:
            # 10 % under the measured ratio, so estimates stay on the safe side.
            self.server.chars_per_token = max(1.5, 0.9 * len(prompt) / input_tokens)

    # -- retry machinery ------------------------------------------------------------------

    def _with_retries(self, call: Callable[[], Any]) -> tuple[Any, int]:
        attempt = 0
        while True:
            attempt += 1
            self.stats.requests += 1
            try:
                return call(), attempt
            except LLMError:
                raise
            except Exception as exc:  # noqa: BLE001 - translated below, never leaked raw
                failure = self._failure(exc)
                if not self._should_retry(failure, attempt):
                    raise self._error(failure, attempt) from None
                self._backoff(failure, attempt)

    def _should_retry(self, failure: Failure, attempt: int) -> bool:
        if failure.timed_out:  # the server may still be generating: a retry starts over
            return False
        retryable = failure.transient or failure.status in RETRYABLE_STATUS
        return retryable and attempt <= self.config.max_retries

    def _backoff(self, failure: Failure, attempt: int) -> None:
        cap = self.config.backoff_max
        if failure.retry_after is not None:
            delay = min(failure.retry_after, cap)
        else:
            base = self.config.backoff_initial * (2 ** (attempt - 1))
            delay = min(base * (0.5 + random.random() / 2), cap)  # jitter in [50%, 100%]
        self.stats.retries += 1
        self.stats.delays.append(delay)
        log.info(
            "%s %s: %s; retry %d/%d in %.2fs", self.name, self.model,
            failure.status or "transport error", attempt, self.config.max_retries, delay,
        )
        self.sleep(delay)

    def _error(self, failure: Failure, attempts: int) -> LLMError:
        """The one-line, key-free error for a failure that will not be retried."""
        who = f"{self.name} model {self.model!r}"
        where = f" at {self.config.base_url}" if self.config.base_url else ""
        detail = one_line(redact(failure.message, self._secrets))
        status = failure.status
        kwargs = dict(provider=self.name, model=self.model, status=status)
        if failure.timed_out:
            return LLMTimeoutError(
                f"{self.name}: {who}{where} sent no reply within {self.config.timeout:g} s "
                "(llm.timeout, --timeout); not retried, as a retry would restart the "
                "generation: raise --timeout, lower llm.max_output_tokens or use a smaller "
                "model", **kwargs)
        if status in (401, 403):
            return LLMAuthError(
                f"{self.name}: the API key was rejected ({status}) for {who}{where}; check "
                f"{self._key_hint()}: {detail}", **kwargs)
        if status == 404:
            if re.search(r"\bmodel", failure.message, re.IGNORECASE) or not failure.url:
                return LLMModelNotFoundError(
                    f"{self.name}: model {self.model!r} not found{where} (404); check --model: "
                    f"{detail}", **kwargs)
            return LLMModelNotFoundError(
                f"{self.name}: {failure.url} answered 404 (not found); check --base-url "
                "(OpenAI-compatible servers answer under /v1, e.g. "
                f"http://localhost:11434/v1): {detail}", **kwargs)
        limits = context_limits(failure)
        if limits is not None:
            context, prompt = limits
            sizes = f" ({prompt or '?'} tokens for a context of {context or '?'})"
            return LLMContextError(
                f"{self.name}: the prompt does not fit the context of {who}{where}{sizes}; "
                f"set llm.context_tokens or lower retrieval.top_k: {detail}",
                context_tokens=context, prompt_tokens=prompt, **kwargs)
        if failure.transient or status in RETRYABLE_STATUS:
            tried = f"after {attempts} attempt{'s' if attempts != 1 else ''}"
            what = f"HTTP {status}" if status else "no response"
            return LLMUnavailableError(
                f"{self.name}: {who}{where} unavailable ({what}) {tried}: {detail}", **kwargs)
        return LLMRequestError(
            f"{self.name}: {who}{where} rejected the request (HTTP {status}): {detail}", **kwargs)

    def _key_hint(self) -> str:
        return self.config.api_key_env or "the API key environment variable"
