"""What every dense encoder provides, and the fingerprint that ties an index to its weights."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import warnings
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")


class Embedder(ABC):
    """Maps texts to L2-normalised float32 vectors, so inner product is cosine.

    ``name`` is the model's name and ``fingerprint`` identifies its weights
    (``sha256:<hex>``), so two backends running the same weights share both and an index
    built by one opens with the other.
    """

    name: str
    dim: int
    fingerprint: str | None = None

    @abstractmethod
    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; returns an array of shape ``(len(texts), dim)``."""

    def encode_query(self, query: str) -> np.ndarray:
        """Embed one query; returns shape ``(dim,)``."""
        return self.encode([query])[0]

    def count_tokens(self, text: str) -> int | None:
        """Word pieces in ``text`` (no special tokens, no truncation); None when the encoder
        has no local tokenizer (a remote API)."""
        return None


def weights_file(model_dir: Path) -> Path:
    for name in WEIGHT_FILES:
        if (model_dir / name).is_file():
            return model_dir / name
    raise FileNotFoundError(f"{model_dir}: no {' or '.join(WEIGHT_FILES)}")


def weights_sha256(model_dir: Path) -> str:
    """SHA-256 of the model's weights file, remembered per (path, size, mtime) in the cache
    dir: hashing 90 MB costs ~0.3 s, which every cold ``ask`` would otherwise pay."""
    path = weights_file(model_dir).resolve()
    stat = path.stat()
    key = f"{path}:{stat.st_size}:{stat.st_mtime_ns}"
    memo_path = cache_dir() / "weights-sha256.json"
    try:
        memo = json.loads(memo_path.read_text())
    except (OSError, ValueError):
        memo = {}
    if key in memo:
        return memo[key]
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    memo[key] = digest
    try:
        memo_path.parent.mkdir(parents=True, exist_ok=True)
        part = memo_path.with_suffix(f".{os.getpid()}.part")
        part.write_text(json.dumps(memo, indent=1))
        os.replace(part, memo_path)
    except OSError:
        pass  # a read-only cache only costs the hash again next time
    return digest


def cache_dir() -> Path:
    """``$CLAUSEGRAPH_CACHE``, else the platform's user cache dir (XDG_CACHE_HOME on Linux)."""
    override = os.environ.get("CLAUSEGRAPH_CACHE")
    if override:
        return Path(override)
    from platformdirs import user_cache_path

    return user_cache_path("clausegraph")


@contextlib.contextmanager
def quiet_loaders() -> Iterator[None]:
    """No progress bars, advisories or hub lookups from third-party model loaders: a user
    asking a question should see the answer, not "Loading weights 100%"."""
    for variable, value in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"),
                            ("HF_HUB_DISABLE_PROGRESS_BARS", "1"), ("TQDM_DISABLE", "1"),
                            ("TRANSFORMERS_VERBOSITY", "error"),
                            ("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1"),
                            ("TOKENIZERS_PARALLELISM", "false")):
        os.environ.setdefault(variable, value)
    loggers = [logging.getLogger(name) for name in ("transformers", "sentence_transformers")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


# The packaged model; indexes written before fingerprints were recorded were all built with it.
PACKAGED_MODEL_NAME = "all-MiniLM-L6-v2"
# Fingerprint suffix of the SmoothQuant int8 graph (clausegraph/embed/int8.py), and each
# suffix (after "+") -> the embedding.quantize value whose encoder writes it.
INT8_VARIANT = "int8-smooth"
QUANTIZE_SETTING = {"": "none", INT8_VARIANT: "int8"}


def embedding_mismatch(info: Mapping[str, Any], embedder: Embedder) -> str | None:
    """Why vectors recorded in an index manifest (``info``) cannot be searched with
    ``embedder``'s query vectors, or None when they can. Same model name and, where both are
    known, the same weights fingerprint: the backend that ran the weights does not matter,
    but a quantised graph (fingerprint suffix such as ``+int8-smooth``) is another encoder.
    A side without a fingerprint (folder indexes written before fingerprints, databases
    filled before they kept one) is not checked beyond the name."""
    stored_name = str(info.get("embedding_model") or PACKAGED_MODEL_NAME)
    stored_print = str(info.get("embedding_fingerprint") or "")
    if stored_name != embedder.name:
        return (f"was built with embedding model {stored_name!r} but {embedder.name!r} is "
                "configured")
    if not (stored_print and embedder.fingerprint):
        return None
    stored_weights, _, stored_variant = stored_print.partition("+")
    weights, _, variant = embedder.fingerprint.partition("+")
    if stored_weights != weights:
        return (f"was built with other weights of {stored_name!r} ({stored_weights[:19]}, "
                f"configured: {weights[:19]})")
    if stored_variant != variant:
        setting = QUANTIZE_SETTING.get(stored_variant)
        hint = f"; --set embedding.quantize={setting} reads it" if setting else ""
        return (f"was built with the {stored_variant or 'fp32'} encoder of {stored_name!r} but "
                f"its {variant or 'fp32'} encoder is configured{hint}")
    return None
