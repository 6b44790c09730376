"""sentence-transformers + torch: any model sentence-transformers can load (the ``[torch]``
extra). The default ONNX backend runs the packaged MiniLM faster and without torch."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from clausegraph.embed.base import Embedder, quiet_loaders, weights_sha256
from clausegraph.errors import ClauseGraphError


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model loaded from a local directory.

    >>> embedder = SentenceTransformerEmbedder(packaged_minilm_dir(), "all-MiniLM-L6-v2")  # doctest: +SKIP
    >>> embedder.encode(["Waiting period means ..."]).shape  # doctest: +SKIP
    (1, 384)
    """

    def __init__(self, model_dir: str | Path, name: str, batch_size: int = 64,
                 max_chars: int = 2000) -> None:
        try:
            with quiet_loaders():
                import torch
                from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ClauseGraphError(
                "embedding.backend 'sentence-transformers' needs torch: "
                "pip install 'clausegraph[torch]'") from exc

        torch.set_num_threads(max(1, os.cpu_count() or 1))
        with quiet_loaders():
            self._model = SentenceTransformer(str(model_dir), device="cpu")
        self.name = name
        # sentence-transformers 5 renamed get_sentence_embedding_dimension
        dimension = (getattr(self._model, "get_embedding_dimension", None)
                     or self._model.get_sentence_embedding_dimension)
        self.dim = int(dimension())
        self.fingerprint = _fingerprint(Path(model_dir))
        self.batch_size = batch_size
        # MiniLM reads 256 word pieces (~1,000 chars); clipping long texts saves tokenizer time.
        self.max_chars = max_chars

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

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(text, add_special_tokens=False)["input_ids"])


def _fingerprint(model_dir: Path) -> str | None:
    try:
        return f"sha256:{weights_sha256(model_dir)}"
    except FileNotFoundError:
        return None  # a model with sharded or unusual weight files: name only
