"""The provider interface every LLM backend implements, its settings and its errors.

A provider turns ``(system, user, schema)`` into text. Everything shared lives here:
bounded retries with exponential backoff on 429/408/5xx and transport errors (a
``Retry-After`` header is honoured, capped), one-line error messages that name the
provider and the model, and key hygiene: an API key is held only by the client object,
never stored in settings, never part of a message, a ``repr`` or a log record.
"""

from __future__ import annotations

import json
import logging
import random
import re
import time
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
    timeout: float = Field(60.0, gt=0, description="seconds per request")
    max_retries: int = Field(3, ge=0, le=10, description="retries on 429/5xx/transport errors")
    backoff_initial: float = Field(1.0, ge=0, description="first backoff delay, seconds")
    backoff_max: float = Field(30.0, ge=0, description="cap on any delay, Retry-After included")
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_output_tokens: int | None = Field(None, ge=1)
    json_mode: Literal["schema", "object", "none"] = Field(
        "schema",
        description="how JSON output is requested: a JSON schema, plain JSON mode, or only "
        "by the prompt (for OpenAI-compatible servers without structured output)",
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


class LLMAuthError(LLMError):
    """401/403: the key is missing, wrong, or lacks access."""


class LLMModelNotFoundError(LLMError):
    """404: the model (or endpoint) does not exist."""


class LLMUnavailableError(LLMError):
    """Retryable failures (429, 5xx, timeouts, connection) persisted past the retry budget."""


class LLMRequestError(LLMError):
    """Any other rejected request (400, 422, ...)."""


class LLMOutputError(LLMError):
    """The model answered, but not with the JSON the caller asked for."""


# -- helpers -----------------------------------------------------------------------------


@dataclass
class Failure:
    """A provider exception reduced to what the retry loop needs."""

    status: int | None
    message: str
    retry_after: float | None = None
    transient: bool = False  # transport error (timeout, refused connection): retry


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


def one_line(text: str, limit: int = 240) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class CallStats:
    """Counters a provider keeps across calls (the tests read them)."""

    requests: int = 0
    retries: int = 0
    delays: list[float] = field(default_factory=list)


# -- the interface -----------------------------------------------------------------------


class LLMProvider(ABC):
    """A language model behind a REST API.

    Subclasses implement ``_generate_once``, ``_stream_once`` and ``_failure``; this
    class adds retries, timing and error translation.
    """

    name: str = "llm"
    default_model: str = ""

    def __init__(self, config: LLMConfig, api_key: str | None) -> None:
        self.config = config
        self.model = config.model or self.default_model
        self._secrets = [api_key] if api_key else []
        self.stats = CallStats()
        self.sleep: Callable[[float], None] = time.sleep

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.config.base_url!r})"

    @property
    def label(self) -> str:
        """E.g. 'gemini:gemini-2.5-flash', recorded as the answer's model."""
        return f"{self.name}:{self.model}"

    # -- public ------------------------------------------------------------------------

    def generate(self, system: str, user: str, schema: dict | None = None) -> LLMResponse:
        """One completion; with ``schema`` the model is asked for JSON matching it."""
        started = time.perf_counter()
        response, attempts = self._with_retries(lambda: self._generate_once(system, user, schema))
        response.attempts = attempts
        response.seconds = round(time.perf_counter() - started, 3)
        return response

    def stream(self, system: str, user: str, schema: dict | None = None) -> Iterator[str]:
        """Yield text chunks as they arrive.

        Retries happen only before the first chunk: once text has been handed out a
        failure is raised, because replaying would duplicate what the caller has seen.
        """
        attempt = 0
        while True:
            attempt += 1
            yielded = False
            try:
                self.stats.requests += 1
                for chunk in self._stream_once(system, user, schema):
                    if chunk:
                        yielded = True
                        yield chunk
                return
            except LLMError:
                raise
            except Exception as exc:  # noqa: BLE001 - translated below, never leaked raw
                failure = self._failure(exc)
                if yielded or not self._should_retry(failure, attempt):
                    raise self._error(failure, attempt) from None
                self._backoff(failure, attempt)

    # -- for subclasses -------------------------------------------------------------------

    @abstractmethod
    def _generate_once(self, system: str, user: str, schema: dict | None) -> LLMResponse: ...

    @abstractmethod
    def _stream_once(self, system: str, user: str, schema: dict | None) -> Iterator[str]: ...

    @abstractmethod
    def _failure(self, exc: Exception) -> Failure:
        """Reduce a client-library exception to status, message and Retry-After."""

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
        if status in (401, 403):
            return LLMAuthError(
                f"{self.name}: the API key was rejected ({status}) for {who}{where}; check "
                f"{self._key_hint()}: {detail}", **kwargs)
        if status == 404:
            return LLMModelNotFoundError(
                f"{self.name}: model {self.model!r} not found{where} (404); check --model: "
                f"{detail}", **kwargs)
        if failure.transient or status in RETRYABLE_STATUS:
            tried = f"after {attempts} attempt{'s' if attempts != 1 else ''}"
            what = f"HTTP {status}" if status else "no response"
            return LLMUnavailableError(
                f"{self.name}: {who}{where} unavailable ({what}) {tried}: {detail}", **kwargs)
        return LLMRequestError(
            f"{self.name}: {who}{where} rejected the request (HTTP {status}): {detail}", **kwargs)

    def _key_hint(self) -> str:
        return self.config.api_key_env or "the API key environment variable"
