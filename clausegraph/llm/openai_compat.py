"""OpenAI Chat Completions through the ``openai`` client: OpenAI itself, or any
OpenAI-compatible server given a ``base_url`` (Ollama ``http://localhost:11434/v1``,
vLLM ``http://localhost:8000/v1``, llama.cpp server ``http://localhost:8080/v1``).

The client's own retries are turned off (``max_retries=0``): :class:`LLMProvider`
retries, with the same bounded backoff and Retry-After cap as every provider.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from clausegraph.llm.base import Failure, LLMConfig, LLMProvider, LLMResponse, parse_retry_after

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
        import openai

        kwargs: dict[str, Any] = {
            "api_key": api_key or LOCAL_PLACEHOLDER_KEY,
            "timeout": config.timeout,
            "max_retries": 0,
        }
        if config.base_url:
            kwargs["base_url"] = config.base_url
        self._client = openai.OpenAI(**kwargs)

    def _request(self, system: str, user: str, schema: dict | None) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "temperature": self.config.temperature,
        }
        if self.config.max_output_tokens:
            request["max_tokens"] = self.config.max_output_tokens
        if schema is not None and self.config.json_mode == "schema":
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema.get("title", "output"), "schema": schema},
            }
        elif schema is not None and self.config.json_mode == "object":
            request["response_format"] = {"type": "json_object"}
        return request

    def _generate_once(self, system: str, user: str, schema: dict | None) -> LLMResponse:
        completion = self._client.chat.completions.create(**self._request(system, user, schema))
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

    def _stream_once(self, system: str, user: str, schema: dict | None) -> Iterator[str]:
        stream = self._client.chat.completions.create(
            **self._request(system, user, schema), stream=True
        )
        try:
            for chunk in stream:
                for choice in chunk.choices or []:
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
            message = (error.get("message") if isinstance(error, dict) else error) \
                or body.get("message") or exc.message
            return Failure(status=exc.status_code, message=str(message), retry_after=retry_after)
        if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
            return Failure(status=None, message=type(exc).__name__, transient=True)
        return Failure(status=None, message=f"{type(exc).__name__}: {exc}")
