"""OpenAI Chat Completions through the ``openai`` client: OpenAI itself, or any
OpenAI-compatible server given a ``base_url`` (Ollama ``http://localhost:11434/v1``,
vLLM ``http://localhost:8000/v1``, llama.cpp server ``http://localhost:8080/v1``).

The client's own retries are turned off (``max_retries=0``): :class:`LLMProvider`
retries, with the same bounded backoff and Retry-After cap as every provider.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from clausegraph.llm.base import (
    Failure,
    LLMConfig,
    LLMProvider,
    LLMResponse,
    ServerInfo,
    import_sdk,
    parse_retry_after,
)

DEFAULT_MODEL = "gpt-4.1-mini"
# Local servers ignore the key, but the client refuses to start without one.
LOCAL_PLACEHOLDER_KEY = "not-needed"


class OpenAICompatProvider(LLMProvider):
    """``generate`` / ``stream`` against ``/v1/chat/completions``.

    >>> config = LLMConfig(provider="openai", model="llama3.1",
    ...                    base_url="http://localhost:11434/v1")
    >>> OpenAICompatProvider(config, api_key=None).label  # doctest: +SKIP
    'openai:llama3.1'
    """

    name = "openai"
    default_model = DEFAULT_MODEL

    def __init__(self, config: LLMConfig, api_key: str | None) -> None:
        super().__init__(config, api_key)
        openai = import_sdk("openai")

        kwargs: dict[str, Any] = {
            "api_key": api_key or LOCAL_PLACEHOLDER_KEY,
            "timeout": config.timeout,
            "max_retries": 0,
        }
        if config.base_url:
            kwargs["base_url"] = config.base_url
        self._client = openai.OpenAI(**kwargs)

    def _request(self, system: str, user: str, schema: dict | None,
                 max_tokens: int | None) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "temperature": self.config.temperature,
        }
        if max_tokens:
            request["max_tokens"] = max_tokens
        if schema is not None and self.config.json_mode in ("auto", "schema"):
            # vLLM, llama.cpp and Ollama (0.5+) turn this into constrained decoding.
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema.get("title", "output"), "schema": schema},
            }
        elif schema is not None and self.config.json_mode == "object":
            request["response_format"] = {"type": "json_object"}
        return request

    def _generate_once(self, system: str, user: str, schema: dict | None,
                       max_tokens: int | None) -> LLMResponse:
        completion = self._client.chat.completions.create(
            **self._request(system, user, schema, max_tokens))
        choice = completion.choices[0] if completion.choices else None
        usage = completion.usage
        return LLMResponse(
            text=(choice.message.content or "") if choice else "",
            provider=self.name,
            model=completion.model or self.model,
            finish_reason=choice.finish_reason if choice else None,
            input_tokens=usage.prompt_tokens if usage else None,
            output_tokens=usage.completion_tokens if usage else None,
        )

    def _stream_once(self, system: str, user: str, schema: dict | None,
                     max_tokens: int | None) -> Iterator[str]:
        stream = self._client.chat.completions.create(
            **self._request(system, user, schema, max_tokens), stream=True
        )
        try:
            for chunk in stream:
                for choice in chunk.choices or []:
                    if choice.finish_reason:
                        self.last_finish_reason = choice.finish_reason
                    if choice.delta is not None and choice.delta.content:
                        yield choice.delta.content
        finally:
            stream.close()

    def _failure(self, exc: Exception) -> Failure:
        import openai

        if isinstance(exc, openai.APIStatusError):
            retry_after = parse_retry_after(exc.response.headers.get("retry-after"))
            body = exc.body if isinstance(exc.body, dict) else {}
            error = body.get("error")
            details = error if isinstance(error, dict) else body
            message = (error.get("message") if isinstance(error, dict) else error) \
                or body.get("message") or exc.message
            return Failure(status=exc.status_code, message=str(message), retry_after=retry_after,
                           url=str(exc.request.url), body=details)
        if isinstance(exc, openai.APITimeoutError):
            return Failure(status=None, message=type(exc).__name__, timed_out=True)
        if isinstance(exc, openai.APIConnectionError):
            return Failure(status=None, message=type(exc).__name__, transient=True)
        return Failure(status=None, message=f"{type(exc).__name__}: {exc}")

    # -- what the server says about itself ----------------------------------------------------

    def _probe(self, info: ServerInfo) -> None:
        """``/v1/models`` of a local server: the model(s) it serves and, for llama.cpp
        (``meta.n_ctx``) and vLLM (``max_model_len``), the context size."""
        if not self.config.base_url:
            return  # api.openai.com: the model is named, the context is large
        client = self._client.with_options(timeout=min(self.config.timeout, 10.0))
        models = list(client.models.list())
        info.models = [m.id for m in models]
        wanted = next((m for m in models if m.id == self.model), models[0] if models else None)
        extra = (wanted.model_extra or {}) if wanted is not None else {}
        meta = extra.get("meta") if isinstance(extra.get("meta"), dict) else {}
        for value in (meta.get("n_ctx"), extra.get("max_model_len"), extra.get("context_length")):
            if isinstance(value, int) and value > 0:
                info.context_tokens = value
                break
        if extra.get("owned_by") == "llamacpp" or (wanted is not None
                                                   and wanted.owned_by == "llamacpp"):
            root = self.config.base_url.rstrip("/").removesuffix("/v1")
            info.tokenize_url = f"{root}/tokenize"

    def _apply_probe(self, info: ServerInfo) -> None:
        if not self.config.base_url or info.models is None:
            if self.config.base_url and not self.config.model:
                self._note(f"no --model given and {self.config.base_url}/models listed none; "
                           f"sending {self.model!r}")
            return
        if not self.config.model and info.models:
            self.model = info.models[0]
            served = "the model" if len(info.models) == 1 else f"the first of {len(info.models)} models"
            self._note(f"no --model given: using {self.model!r}, {served} the server at "
                       f"{self.config.base_url} lists")
        elif self.config.model and info.models and self.config.model not in info.models:
            listed = ", ".join(repr(m) for m in info.models[:5])
            self._note(f"the server at {self.config.base_url} lists {listed}, not "
                       f"{self.config.model!r}; it may ignore --model or reject it")
