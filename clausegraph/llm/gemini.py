"""Google Gemini through the ``google-genai`` client (Gemini Developer API, REST).

Requests go to ``{base_url}/v1beta/models/{model}:generateContent`` (and
``:streamGenerateContent?alt=sse``, ``:batchEmbedContents``). The client's own retries
are left off (``retry_options`` unset = one attempt): :class:`LLMProvider` retries, so
the count, the backoff and the Retry-After cap are the same for every provider.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from clausegraph.embed.base import Embedder
from clausegraph.llm.base import (
    Failure,
    LLMConfig,
    LLMProvider,
    LLMResponse,
    ServerInfo,
    import_sdk,
    parse_retry_after,
)

DEFAULT_MODEL = "gemini-2.5-flash"
API_VERSION = "v1beta"
DEFAULT_EMBEDDING_MODEL = "gemini-embedding-001"
EMBED_BATCH = 100  # batchEmbedContents accepts at most 100 requests


def _httpx_errors(*names: str) -> tuple[type[BaseException], ...]:
    classes: list[type[BaseException]] = []
    for module_name in ("httpx", "httpx2"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        classes += [getattr(module, n) for n in names if hasattr(module, n)]
    return tuple(classes)


def _timeout_errors() -> tuple[type[BaseException], ...]:
    return _httpx_errors("TimeoutException")


def _transport_errors() -> tuple[type[BaseException], ...]:
    return _httpx_errors("TransportError")


class GeminiProvider(LLMProvider):
    """``generate`` / ``stream`` against a Gemini model.

    >>> provider = GeminiProvider(LLMConfig(provider="gemini"), api_key="...")  # doctest: +SKIP
    >>> provider.generate("You answer briefly.", "Say hi").text  # doctest: +SKIP
    """

    name = "gemini"
    default_model = DEFAULT_MODEL

    def __init__(self, config: LLMConfig, api_key: str | None) -> None:
        super().__init__(config, api_key)
        genai = import_sdk("gemini")
        from google.genai import types

        self._types = types
        # v1beta: the Developer API version with JSON-schema output and system instructions
        # (google-genai 3.x would otherwise default to v1).
        options: dict[str, Any] = {"timeout": int(config.timeout * 1000), "api_version": API_VERSION}
        if config.base_url:
            options["base_url"] = config.base_url
        self._client = genai.Client(api_key=api_key, http_options=types.HttpOptions(**options))

    def _config(self, system: str, schema: dict | None, max_tokens: int | None) -> Any:
        values: dict[str, Any] = {
            "system_instruction": system,
            "temperature": self.config.temperature,
        }
        if max_tokens:
            values["max_output_tokens"] = max_tokens
        if schema is not None and self.config.json_mode != "none":
            values["response_mime_type"] = "application/json"
            if self.config.json_mode in ("auto", "schema"):
                values["response_json_schema"] = schema
        return self._types.GenerateContentConfig(**values)

    def _generate_once(self, system: str, user: str, schema: dict | None,
                       max_tokens: int | None) -> LLMResponse:
        response = self._client.models.generate_content(
            model=self.model, contents=user, config=self._config(system, schema, max_tokens)
        )
        candidate = response.candidates[0] if response.candidates else None
        usage = response.usage_metadata
        return LLMResponse(
            text=_text_of(response),
            provider=self.name,
            model=response.model_version or self.model,
            finish_reason=str(candidate.finish_reason.value)
            if candidate is not None and candidate.finish_reason is not None else None,
            input_tokens=usage.prompt_token_count if usage else None,
            output_tokens=usage.candidates_token_count if usage else None,
        )

    def _stream_once(self, system: str, user: str, schema: dict | None,
                     max_tokens: int | None) -> Iterator[str]:
        for chunk in self._client.models.generate_content_stream(
            model=self.model, contents=user, config=self._config(system, schema, max_tokens)
        ):
            candidates = chunk.candidates or []
            if candidates and candidates[0].finish_reason is not None:
                self.last_finish_reason = str(candidates[0].finish_reason.value)
            text = _text_of(chunk)
            if text:
                yield text

    def _failure(self, exc: Exception) -> Failure:
        from google.genai import errors

        if isinstance(exc, errors.APIError):
            headers = getattr(getattr(exc, "response", None), "headers", None) or {}
            retry_after = parse_retry_after(headers.get("retry-after")) if headers else None
            message = exc.message or exc.status or type(exc).__name__
            return Failure(status=exc.code, message=str(message), retry_after=retry_after,
                           url=self.config.base_url)
        if isinstance(exc, _timeout_errors()):
            return Failure(status=None, message=type(exc).__name__, timed_out=True)
        if isinstance(exc, _transport_errors()):
            return Failure(status=None, message=type(exc).__name__, transient=True)
        return Failure(status=None, message=f"{type(exc).__name__}: {exc}")

    def _probe(self, info: ServerInfo) -> None:
        """The model's input token limit (``models.get``)."""
        model = self._client.models.get(model=self.model)
        if isinstance(model.input_token_limit, int) and model.input_token_limit > 0:
            info.context_tokens = model.input_token_limit

    # -- embeddings -----------------------------------------------------------------------

    def embed(self, texts: Sequence[str], model: str, task_type: str,
              dimensions: int | None) -> list[list[float]]:
        """Vectors for ``texts`` via ``:batchEmbedContents`` (retried like generate)."""
        config: dict[str, Any] = {"task_type": task_type}
        if dimensions:
            config["output_dimensionality"] = dimensions
        vectors: list[list[float]] = []
        for start in range(0, len(texts), EMBED_BATCH):
            batch = list(texts[start:start + EMBED_BATCH])

            def call(batch: list[str] = batch) -> Any:
                return self._client.models.embed_content(
                    model=model, contents=batch,
                    config=self._types.EmbedContentConfig(**config),
                )

            response, _ = self._with_retries(call)
            vectors += [list(e.values or []) for e in response.embeddings or []]
        return vectors


def _text_of(response: Any) -> str:
    """Concatenated text parts of the first candidate ('' when blocked or empty)."""
    candidates = getattr(response, "candidates", None) or []
    if not candidates or candidates[0].content is None:
        return ""
    parts = candidates[0].content.parts or []
    return "".join(p.text for p in parts if getattr(p, "text", None) and not p.thought)


class GeminiEmbedder(Embedder):
    """A Gemini embedding model as an alternative to the packaged MiniLM.

    Texts are embedded with task type RETRIEVAL_DOCUMENT, queries with RETRIEVAL_QUERY;
    vectors are L2-normalised (truncated Gemini embeddings are not) so that inner
    product is cosine, as the FAISS index expects.
    """

    def __init__(self, provider: GeminiProvider, model: str = DEFAULT_EMBEDDING_MODEL,
                 dim: int = 768, max_chars: int = 8000) -> None:
        self.provider = provider
        self.model = model
        self.dim = dim
        self.max_chars = max_chars
        self.name = f"gemini:{model}:{dim}"

    def _encode(self, texts: Sequence[str], task_type: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        raw = self.provider.embed(
            [t[: self.max_chars] for t in texts], self.model, task_type, self.dim
        )
        matrix = np.asarray(raw, dtype=np.float32)
        if matrix.shape != (len(texts), self.dim):
            from clausegraph.llm.base import LLMOutputError

            raise LLMOutputError(
                f"gemini: embedding model {self.model!r} returned shape {matrix.shape}, "
                f"expected ({len(texts)}, {self.dim})", provider="gemini", model=self.model)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return np.ascontiguousarray(matrix / np.where(norms == 0, 1.0, norms))

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, "RETRIEVAL_DOCUMENT")

    def encode_query(self, query: str) -> np.ndarray:
        return self._encode([query], "RETRIEVAL_QUERY")[0]
