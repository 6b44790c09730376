"""The default ONNX encoder against sentence-transformers on the same weights, and its
batching, normalisation and graph cache, on real contract text."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from clausegraph.embed.factory import PACKAGED_MODEL_NAME, packaged_minilm_dir
from clausegraph.embed.onnx import OnnxEmbedder

TEST_DATA = Path(__file__).resolve().parents[1] / "data"
HAS_TORCH = all(importlib.util.find_spec(name) for name in ("torch", "sentence_transformers"))


def contract_paragraphs() -> list[str]:
    """Paragraphs of the shipped CUAD/MAUD excerpts: short lines, long clauses, headings."""
    texts = []
    for path in sorted(TEST_DATA.glob("*.txt")):
        texts += [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert len(texts) > 30
    return texts


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> OnnxEmbedder:
    return OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME, batch_size=8,
                        graph_dir=tmp_path_factory.mktemp("graphs"))


@pytest.mark.skipif(not HAS_TORCH, reason="sentence-transformers/torch not installed "
                    "(pip install 'clausegraph[torch]'): cannot compare with the torch encoder")
def test_vectors_match_sentence_transformers(embedder: OnnxEmbedder) -> None:
    from clausegraph.embed.sentence_transformers import SentenceTransformerEmbedder

    texts = contract_paragraphs()
    reference = SentenceTransformerEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME)
    cosine = (embedder.encode(texts) * reference.encode(texts)).sum(axis=1)
    assert cosine.min() > 0.9999, (cosine.argmin(), texts[int(cosine.argmin())][:80])
    # Same weights, same name and fingerprint: an index built by one opens with the other.
    assert (reference.name, reference.fingerprint) == (embedder.name, embedder.fingerprint)
    sample = texts[0] + " " + texts[1]
    assert embedder.count_tokens(sample) == reference.count_tokens(sample)


def test_vectors_are_unit_length_and_keep_input_order(embedder: OnnxEmbedder) -> None:
    texts = contract_paragraphs()[:40]
    together = embedder.encode(texts)  # length-sorted into batches of 8 inside
    assert together.shape == (len(texts), 384) and together.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    one_by_one = np.vstack([embedder.encode([text]) for text in texts])
    assert ((together * one_by_one).sum(axis=1) > 0.99999).all()  # padding changes nothing
    assert together[3] @ together[4] < 0.999  # and the rows are not all one vector


def test_empty_input_and_empty_text(embedder: OnnxEmbedder) -> None:
    assert embedder.encode([]).shape == (0, 384)
    vector = embedder.encode_query("")  # [CLS] [SEP] alone still gives a unit vector
    assert vector.shape == (384,) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_long_text_is_truncated_not_refused(embedder: OnnxEmbedder) -> None:
    long_clause = " ".join(contract_paragraphs())  # far beyond 256 word pieces
    head = long_clause[:embedder.max_chars]
    assert embedder.count_tokens(head) > 256
    np.testing.assert_allclose(embedder.encode([long_clause]), embedder.encode([head]),
                               atol=1e-6)


def test_graph_is_built_once_and_reused(embedder: OnnxEmbedder) -> None:
    path = embedder.graph_path
    assert path is not None and path.is_file()
    assert embedder.fingerprint.removeprefix("sha256:")[:16] in path.name
    built = path.stat().st_mtime_ns
    again = OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME, graph_dir=path.parent)
    assert again.graph_path == path and path.stat().st_mtime_ns == built
    text = contract_paragraphs()[5]
    np.testing.assert_array_equal(again.encode([text]), embedder.encode([text]))


def test_unusable_cache_dir_builds_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    embedder = OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME,
                            graph_dir=blocker / "onnx")
    assert embedder.graph_path is None
    assert embedder.encode(["Termination for convenience."]).shape == (1, 384)
