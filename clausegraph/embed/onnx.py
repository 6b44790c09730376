"""The default encoder: a BERT sentence-transformers model run by ONNX Runtime, without torch.

The weights (``model.safetensors``) become an ONNX graph once (:mod:`clausegraph.embed.bert_onnx`)
and the graph is cached under the user's cache directory, keyed by the weights' SHA-256, so
later processes only open it. Texts are tokenised with the model's own ``tokenizer.json``
(the ``tokenizers`` package), sorted by length and batched, so a batch pads to similar lengths.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from clausegraph.embed.base import Embedder, cache_dir, weights_sha256
from clausegraph.errors import ClauseGraphError

# Bump when the graph builder changes what it writes, so stale cached graphs are rebuilt.
GRAPH_VERSION = 2


class OnnxEmbedder(Embedder):
    """A sentence-transformers BERT model (mean pooling, normalised) run by ONNX Runtime.

    >>> embedder = OnnxEmbedder(packaged_minilm_dir(), "all-MiniLM-L6-v2")  # doctest: +SKIP
    >>> embedder.encode(["Waiting period means ..."]).shape  # doctest: +SKIP
    (1, 384)
    """

    def __init__(
        self,
        model_dir: str | Path,
        name: str,
        batch_size: int = 64,
        max_chars: int = 2000,
        graph_dir: Path | None = None,
    ) -> None:
        # Rust-side parallel tokenising would warn (and stop) if a later fork() happened.
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from tokenizers import Tokenizer

        self.model_dir = Path(model_dir)
        self.name = name
        self.batch_size = batch_size
        # MiniLM reads 256 word pieces (~1,000 chars); clipping long texts saves tokenizer time.
        self.max_chars = max_chars
        self.fingerprint = f"sha256:{weights_sha256(self.model_dir)}"
        config = json.loads((self.model_dir / "config.json").read_text())
        self.dim = int(config["hidden_size"])
        self._tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=_max_seq_length(self.model_dir, config))
        self._counting_tokenizer = None
        graph = self._graph_path(graph_dir)
        self.graph_path = graph if isinstance(graph, Path) else None
        self._session = _open_session(graph)

    def _graph_path(self, graph_dir: Path | None) -> Path | bytes:
        """The cached graph file, built first if missing; bytes when no cache is writable."""
        from clausegraph.embed.bert_onnx import build_bert_encoder

        folder = graph_dir or cache_dir() / "onnx"
        digest = self.fingerprint.removeprefix("sha256:")[:16]
        path = folder / f"{self.name}-{digest}-g{GRAPH_VERSION}.onnx"
        if path.is_file():
            return path
        try:
            graph = build_bert_encoder(self.model_dir).SerializeToString()
        except (ValueError, KeyError, OSError) as exc:
            raise ClauseGraphError(
                f"{self.model_dir}: the onnx embedding backend runs BERT models with "
                f"model.safetensors ({exc}); for other models use "
                "--set embedding.backend=sentence-transformers") from exc
        try:
            folder.mkdir(parents=True, exist_ok=True)
            # Written under a temporary name and renamed: a reader never sees half a file.
            with tempfile.NamedTemporaryFile(dir=folder, suffix=".part", delete=False) as part:
                part.write(graph)
            os.replace(part.name, path)
        except OSError:
            return graph  # read-only home: build in memory every time (about 3 s)
        return path

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        vectors = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return vectors
        encodings = self._tokenizer.encode_batch([text[: self.max_chars] for text in texts])
        # Longest first: padding within a batch stays small and the first batch shows the
        # peak memory at once.
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            width = len(encodings[batch[0]].ids)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, index in enumerate(batch):
                tokens = encodings[index].ids
                ids[row, :len(tokens)] = tokens
                mask[row, :len(tokens)] = 1
            output = self._session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            vectors[batch] = output
        return vectors


    def count_tokens(self, text: str) -> int:
        if self._counting_tokenizer is None:
            from tokenizers import Tokenizer

            # A second copy without truncation: the encoding one stops at 256 word pieces.
            self._counting_tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            self._counting_tokenizer.no_padding()
            self._counting_tokenizer.no_truncation()
        return len(self._counting_tokenizer.encode(text, add_special_tokens=False).ids)


def _max_seq_length(model_dir: Path, config: dict) -> int:
    """sentence-transformers' limit for the model (256 for all-MiniLM-L6-v2), else BERT's."""
    settings = model_dir / "sentence_bert_config.json"
    limit = json.loads(settings.read_text()).get("max_seq_length") if settings.is_file() else None
    return int(limit or config.get("max_position_embeddings", 512))


def compute_threads() -> int:
    """ONNX Runtime's threads: ``CLAUSEGRAPH_THREADS`` if set (the web app's question
    workers use 1 each, their parallelism is the processes'), else one per core."""
    configured = os.environ.get("CLAUSEGRAPH_THREADS", "").strip()
    return max(1, int(configured)) if configured.isdigit() else max(1, os.cpu_count() or 1)


def _open_session(graph: Path | bytes):
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = compute_threads()
    options.inter_op_num_threads = 1
    # Idle worker threads sleep instead of spinning: on a shared machine spinning burned
    # ~10% more CPU and wall time in the micro benchmark (docs/embedding.md).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: no optimiser chatter on stderr
    source = str(graph) if isinstance(graph, Path) else graph
    return onnxruntime.InferenceSession(source, options, providers=["CPUExecutionProvider"])
