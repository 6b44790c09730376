"""Build the configured provider, or ``None`` for the offline extractive default.

Precedence for every setting: a value given on the :class:`LLMConfig` (CLI flag,
``--set llm.model=...``, Python) > ``CLAUSEGRAPH_LLM_*`` environment variables > the
defaults (a field holding its default value counts as not given). A provider is used only when one is chosen (``provider`` or
``CLAUSEGRAPH_LLM_PROVIDER``): an API key lying in the environment never, by itself,
sends contract text to a remote service.

Environment variables read:

- ``CLAUSEGRAPH_LLM_PROVIDER`` (none | gemini | openai), ``CLAUSEGRAPH_LLM_MODEL``,
  ``CLAUSEGRAPH_LLM_BASE_URL``, ``CLAUSEGRAPH_LLM_API_KEY_ENV``, ``CLAUSEGRAPH_LLM_TIMEOUT``,
  ``CLAUSEGRAPH_LLM_MAX_RETRIES``, ``CLAUSEGRAPH_LLM_MAX_OUTPUT_TOKENS``,
  ``CLAUSEGRAPH_LLM_CONTEXT_TOKENS``, ``CLAUSEGRAPH_LLM_JSON_MODE``
- keys: the variable named by ``api_key_env``, else ``CLAUSEGRAPH_LLM_API_KEY``, else
  ``GEMINI_API_KEY`` / ``GOOGLE_API_KEY`` (gemini) or ``OPENAI_API_KEY`` (openai).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from clausegraph.llm.base import (
    SDK_PACKAGES,
    LLMConfig,
    LLMConfigError,
    LLMProvider,
    import_sdk,
)

ENV_PREFIX = "CLAUSEGRAPH_LLM_"
_ENV_FIELDS = ("provider", "model", "base_url", "api_key_env", "timeout", "max_retries",
               "max_output_tokens", "context_tokens", "json_mode")
KEY_VARIABLES = {
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "openai": ("OPENAI_API_KEY",),
}


def resolve_config(config: LLMConfig | None = None,
                   env: Mapping[str, str] | None = None) -> LLMConfig:
    """``config`` completed from ``CLAUSEGRAPH_LLM_*`` for the fields it does not set."""
    env = os.environ if env is None else env
    config = config or LLMConfig()
    data = config.model_dump()
    defaults = LLMConfig().model_dump()
    for name in _ENV_FIELDS:
        value = env.get(ENV_PREFIX + name.upper())
        # A field still at its default counts as unset: Settings round-trips through
        # model_dump (``--set``), which marks every field as set.
        if value and data[name] == defaults[name]:
            data[name] = value
    data["provider"] = data["provider"] or "none"
    try:
        return LLMConfig.model_validate(data)
    except ValueError as exc:
        raise LLMConfigError(f"invalid LLM setting {_first_error(exc)}") from None


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        return f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
    return str(exc)


def find_api_key(config: LLMConfig, env: Mapping[str, str] | None = None) -> tuple[str | None, str]:
    """(key or None, the variable it came from or should come from)."""
    env = os.environ if env is None else env
    names = [config.api_key_env] if config.api_key_env else [
        ENV_PREFIX + "API_KEY", *KEY_VARIABLES.get(config.provider, ())
    ]
    for name in names:
        if env.get(name, "").strip():
            return env[name].strip(), name
    return None, " or ".join(names)


def create_provider(config: LLMConfig | None = None,
                    env: Mapping[str, str] | None = None) -> LLMProvider | None:
    """The provider ``config`` (plus environment) selects; ``None`` = offline.

    >>> create_provider(LLMConfig(provider="none")) is None
    True
    """
    config = resolve_config(config, env)
    if config.provider == "none":
        return None
    if config.provider in SDK_PACKAGES:
        import_sdk(config.provider)  # a missing client library is said before a missing key
    key, variable = find_api_key(config, env)
    # Record where the key comes from so error messages can point at it (never the key).
    config = config.model_copy(update={"api_key_env": variable})
    if config.provider == "gemini":
        if not key:
            raise LLMConfigError(
                f"gemini: no API key; set {variable} (or choose --llm none for offline answers)",
                provider="gemini")
        from clausegraph.llm.gemini import GeminiProvider

        return GeminiProvider(config, key)
    if config.provider == "openai":
        if not key and not config.base_url:
            raise LLMConfigError(
                f"openai: no API key; set {variable}, or give --base-url for a local "
                "OpenAI-compatible server (Ollama, vLLM, llama.cpp)", provider="openai")
        from clausegraph.llm.openai_compat import OpenAICompatProvider

        return OpenAICompatProvider(config, key)
    raise LLMConfigError(f"unknown LLM provider {config.provider!r}")  # pragma: no cover


def create_embedder(model: str | None = None, dim: int = 768,
                    config: LLMConfig | None = None, env: Mapping[str, str] | None = None):
    """A :class:`GeminiEmbedder` using the Gemini key and endpoint of ``config``."""
    import_sdk("gemini")
    from clausegraph.llm.gemini import DEFAULT_EMBEDDING_MODEL, GeminiEmbedder, GeminiProvider

    config = resolve_config(config, env).model_copy(update={"provider": "gemini"})
    key, variable = find_api_key(config, env)
    if not key:
        raise LLMConfigError(f"gemini embeddings: no API key; set {variable}", provider="gemini")
    provider = GeminiProvider(config.model_copy(update={"api_key_env": variable}), key)
    return GeminiEmbedder(provider, model or DEFAULT_EMBEDDING_MODEL, dim)
