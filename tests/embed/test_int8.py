"""The SmoothQuant int8 encoder (``embedding.quantize: int8``) against the fp32 graph on real
contract text, its packaged calibration, its own fingerprint, and the index mismatch check
that keeps fp32 and int8 vectors apart."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import pytest

from clausegraph.api import ClauseGraph
from clausegraph.config import Settings
from clausegraph.embed import embedding_mismatch
from clausegraph.embed.factory import PACKAGED_MODEL_NAME, packaged_minilm_dir
from clausegraph.embed.int8 import VARIANT, calibration_path, load_maxima
from clausegraph.embed.onnx import OnnxEmbedder
from clausegraph.errors import ClauseGraphError, IndexStoreError
from tests.embed.test_onnx import contract_paragraphs

TEST_DATA = Path(__file__).resolve().parents[1] / "data"
QUESTION = "What does Conversion Services mean?"
INT8 = ["embedding.quantize=int8"]
FP32 = ["embedding.quantize=none"]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("graphs")


@pytest.fixture(scope="module")
def fp32(graphs: Path) -> OnnxEmbedder:
    return OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME, graph_dir=graphs)


@pytest.fixture(scope="module")
def int8(graphs: Path) -> OnnxEmbedder:
    return OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME, graph_dir=graphs,
                        quantize="int8")


def test_int8_vectors_stay_close_to_fp32(fp32: OnnxEmbedder, int8: OnnxEmbedder) -> None:
    texts = contract_paragraphs()
    full, quantised = fp32.encode(texts), int8.encode(texts)
    assert quantised.shape == full.shape and quantised.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(quantised, axis=1), 1.0, atol=1e-5)
    cosine = (full * quantised).sum(axis=1)
    # docs/embedding.md: min 0.9948 / mean 0.9987 on 2,000 LegalBench-RAG clauses
    assert cosine.min() > 0.99, texts[int(cosine.argmin())][:80]
    assert cosine.mean() > 0.997
    assert cosine.mean() < 0.99999  # it really is another graph, not the fp32 one again
    # the nearest fp32 paragraph of each paragraph's int8 vector is still that paragraph
    # (or a verbatim repeat of it: the excerpts repeat a confidentiality legend)
    nearest = (quantised @ full.T).argmax(axis=1)
    assert all(texts[j] == text for j, text in zip(nearest, texts))


def test_int8_graph_quantises_the_smoothed_projections_only(int8: OnnxEmbedder) -> None:
    graph = onnx.load(str(int8.graph_path))
    ops = [node.op_type for node in graph.graph.node]
    assert ops.count("DynamicQuantizeLinear") >= 6 * 3  # QKV, attention out, FFN up per layer
    assert ops.count("MatMul") == 6  # FFN down stays fp32 in each of the 6 layers
    assert "QAttention" in ops or "DynamicQuantizeMatMul" in ops or "MatMulInteger" in ops


def test_int8_has_its_own_fingerprint_and_cached_graph(fp32: OnnxEmbedder, int8: OnnxEmbedder,
                                                      graphs: Path) -> None:
    assert int8.fingerprint == f"{fp32.fingerprint}+{VARIANT}"
    assert int8.graph_path != fp32.graph_path and VARIANT in int8.graph_path.name
    built = int8.graph_path.stat().st_mtime_ns
    again = OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME, graph_dir=graphs,
                         quantize="int8")
    assert again.graph_path == int8.graph_path and int8.graph_path.stat().st_mtime_ns == built
    text = contract_paragraphs()[3]
    np.testing.assert_array_equal(again.encode([text]), int8.encode([text]))


def test_calibration_is_packaged_for_these_weights(fp32: OnnxEmbedder) -> None:
    sha = fp32.fingerprint.removeprefix("sha256:")
    maxima = load_maxima(PACKAGED_MODEL_NAME, sha)
    assert len(maxima) == 18 and all(v.shape == (384,) and (v > 0).all() for v in maxima.values())
    with pytest.raises(ValueError, match="calibrated for other weights"):
        load_maxima(PACKAGED_MODEL_NAME, "0" * 64)
    assert calibration_path(PACKAGED_MODEL_NAME).stat().st_size < 100_000


def test_int8_refuses_a_model_without_calibration(tmp_path: Path) -> None:
    other = tmp_path / "my-bert"
    shutil.copytree(packaged_minilm_dir(), other)
    with pytest.raises(ClauseGraphError, match="no packaged int8 calibration for 'my-bert'"):
        OnnxEmbedder(other, "my-bert", graph_dir=tmp_path / "graphs", quantize="int8")
    with pytest.raises(ValueError, match="unknown embedding quantize 'int4'"):
        OnnxEmbedder(other, "my-bert", graph_dir=tmp_path / "graphs", quantize="int4")


def test_fp32_index_is_refused_by_int8_until_reembedded(tmp_path: Path) -> None:
    root = tmp_path / "index"
    graph = ClauseGraph.open(root, Settings().with_overrides(FP32), create=True)
    assert not graph.ingest([TEST_DATA / "cuad_ofg_conversion_services.txt",
                             TEST_DATA / "cuad_bloom_definitions.txt"]).failed
    fp32_hits = [r.clause_id for r in graph.retrieve(QUESTION)]

    quantised = ClauseGraph.open(root, Settings().with_overrides(INT8))
    with pytest.raises(IndexStoreError) as refused:
        quantised.retrieve(QUESTION)
    message = str(refused.value)
    assert f"the fp32 encoder of 'all-MiniLM-L6-v2' but its {VARIANT} encoder" in message
    assert "--set embedding.quantize=none reads it" in message
    assert f"clausegraph reembed --index {root}" in message
    with pytest.raises(IndexStoreError, match="reembed"):  # no int8 vectors mixed in silently
        quantised.ingest([TEST_DATA / "cuad_xinhua_section_5.txt"])

    assert quantised.reembed() == quantised.stats().clauses
    manifest = json.loads((root / "clausegraph-index.json").read_text())
    assert manifest["embedding_fingerprint"].endswith(f"+{VARIANT}")
    assert quantised.retrieve(QUESTION)[0].clause_id == fp32_hits[0]
    with pytest.raises(IndexStoreError, match=f"the {VARIANT} encoder .* its fp32 encoder"):
        # and the other way round
        ClauseGraph.open(root, Settings().with_overrides(FP32)).retrieve(QUESTION)


def test_mismatch_rules_for_the_int8_suffix(fp32: OnnxEmbedder, int8: OnnxEmbedder) -> None:
    name = {"embedding_model": PACKAGED_MODEL_NAME}
    assert embedding_mismatch({**name, "embedding_fingerprint": int8.fingerprint}, int8) is None
    assert "fp32 encoder" in embedding_mismatch(
        {**name, "embedding_fingerprint": fp32.fingerprint}, int8)
    # no fingerprint recorded (older folders and databases): checked by the name only
    assert embedding_mismatch(name, int8) is None and embedding_mismatch(name, fp32) is None
    other = {**name, "embedding_fingerprint": "sha256:" + "0" * 64 + f"+{VARIANT}"}
    assert "other weights" in embedding_mismatch(other, int8)


def test_int8_without_a_writable_cache_builds_in_memory(tmp_path: Path,
                                                        int8: OnnxEmbedder) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    in_memory = OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME,
                             graph_dir=blocker / "onnx", quantize="int8")
    assert in_memory.graph_path is None
    text = contract_paragraphs()[7]
    np.testing.assert_allclose(in_memory.encode([text]), int8.encode([text]), atol=1e-6)


def test_an_fp32_database_index_is_refused_by_int8(pg_url: str) -> None:
    """PostgreSQL keeps the first vectors' fingerprint too: an fp32 database is not searched
    with int8 question vectors, nor given int8 clause vectors."""
    from clausegraph.store.postgres.store import PostgresIndex

    graph = ClauseGraph.open(pg_url, Settings().with_overrides(FP32), create=True)
    assert not graph.ingest([TEST_DATA / "cuad_ofg_conversion_services.txt"]).failed
    assert PostgresIndex(pg_url).info()["embedding_fingerprint"] == graph.embedder.fingerprint
    assert graph.retrieve(QUESTION)

    quantised = ClauseGraph.open(pg_url, Settings().with_overrides(INT8))
    with pytest.raises(IndexStoreError, match=f"the fp32 encoder of 'all-MiniLM-L6-v2' but "
                                              f"its {VARIANT} encoder"):
        quantised.retrieve(QUESTION)
    with pytest.raises(IndexStoreError, match="fp32 encoder"):
        quantised.ingest([TEST_DATA / "cuad_bloom_definitions.txt"])
    # the store itself refuses another encoder's vectors, whoever calls it
    with pytest.raises(IndexStoreError, match="another encoder"):
        PostgresIndex(pg_url).record_model(PACKAGED_MODEL_NAME, 384,
                                           quantised.embedder.fingerprint)
