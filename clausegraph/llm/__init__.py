"""Optional language models: answer generation and relation extraction.

Nothing here is imported by the offline pipeline; ``create_provider`` returns ``None``
unless a provider is chosen, and the client libraries load only when one is.

>>> from clausegraph.llm import LLMConfig, create_provider
>>> create_provider(LLMConfig()) is None
True
"""

from clausegraph.llm.base import (
    LLMAuthError,
    LLMConfig,
    LLMConfigError,
    LLMContextError,
    LLMError,
    LLMModelNotFoundError,
    LLMOutputError,
    LLMProvider,
    LLMRequestError,
    LLMResponse,
    LLMTimeoutError,
    LLMUnavailableError,
)
from clausegraph.llm.factory import create_embedder, create_provider, resolve_config

__all__ = [
    "LLMAuthError",
    "LLMConfig",
    "LLMConfigError",
    "LLMContextError",
    "LLMError",
    "LLMModelNotFoundError",
    "LLMOutputError",
    "LLMProvider",
    "LLMRequestError",
    "LLMResponse",
    "LLMTimeoutError",
    "LLMUnavailableError",
    "create_embedder",
    "create_provider",
    "resolve_config",
]
