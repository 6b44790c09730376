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
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from clausegraph.embed.base import Embedder, cache_dir, weights_sha256
from clausegraph.errors import ClauseGraphError

# Bump when the graph builder changes what it writes, so stale cached graphs are rebuilt.
GRAPH_VERSION = 2
# embedding.quantize: "none" = the fp32 graph; "int8" = SmoothQuant + dynamic int8
# (clausegraph/embed/int8.py, docs/embedding.md).
QUANTIZE_MODES = ("none", "int8")


class OnnxEmbedder(Embedder):
    """A sentence-transformers BERT model (mean pooling, normalised) run by ONNX Runtime;
    with ``quantize="int8"`` its SmoothQuant int8 graph (:mod:`clausegraph.embed.int8`), whose
    fingerprint carries ``+int8-smooth``.

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
        quantize: str = "none",
    ) -> None:
        # Rust-side parallel tokenising would warn (and stop) if a later fork() happened.
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from tokenizers import Tokenizer

        self.model_dir = Path(model_dir)
        self.name = name
        self.batch_size = batch_size
        # MiniLM reads 256 word pieces (~1,000 chars); clipping long texts saves tokenizer time.
        self.max_chars = max_chars
        if quantize not in QUANTIZE_MODES:
            raise ValueError(f"unknown embedding quantize {quantize!r}: use "
                             f"{' or '.join(map(repr, QUANTIZE_MODES))}")
        self.quantize = quantize
        self._weights_sha256 = weights_sha256(self.model_dir)
        self.fingerprint = f"sha256:{self._weights_sha256}"
        if quantize == "int8":
            from clausegraph.embed.int8 import VARIANT

            self.fingerprint += f"+{VARIANT}"
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
        stem = f"{self.name}-{self._weights_sha256[:16]}-g{GRAPH_VERSION}"
        if self.quantize == "int8":
            from clausegraph.embed.int8 import INT8_VERSION, VARIANT, calibration_digest

            # the calibration's digest: a re-calibrated package rebuilds the cached graph
            stem += f"-{VARIANT}-q{INT8_VERSION}-{calibration_digest(self.name)}"
        path = folder / f"{stem}.onnx"
        if path.is_file():
            return path
        try:
            model = build_bert_encoder(self.model_dir)
        except (ValueError, KeyError, OSError) as exc:
            raise ClauseGraphError(
                f"{self.model_dir}: the onnx embedding backend runs BERT models with "
                f"model.safetensors ({exc}); for other models use "
                "--set embedding.backend=sentence-transformers") from exc
        if self.quantize == "int8":
            from clausegraph.embed.int8 import load_maxima, write_int8_graph

            try:
                maxima = load_maxima(self.name, self._weights_sha256)
            except ValueError as exc:
                raise ClauseGraphError(f"{self.model_dir}: embedding.quantize=int8: {exc}; "
                                       "use --set embedding.quantize=none") from exc
            return _cache_graph(folder, path, lambda out: write_int8_graph(model, maxima, out))
        return _cache_graph(folder, path,
                            lambda out: out.write_bytes(model.SerializeToString()))

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


def _cache_graph(folder: Path, path: Path, write: Callable[[Path], None]) -> Path | bytes:
    """``write`` the graph to ``path`` under a temporary name, then rename it, so a reader
    never sees half a file; when ``folder`` cannot take it (read-only home, full disk), the
    graph's bytes instead (built in memory every time, a few seconds)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=folder, suffix=".onnx.part")
        os.close(handle)
        part = Path(name)
        try:
            write(part)
            os.replace(part, path)
        finally:
            part.unlink(missing_ok=True)
        return path
    except OSError:
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) / path.name
            write(out)
            return out.read_bytes()


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
