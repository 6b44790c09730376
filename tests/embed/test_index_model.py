"""Indexes record which encoder made their vectors; another encoder is refused with a clear
message until the index is re-embedded on request; old indexes without a fingerprint open."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clausegraph.api import ClauseGraph
from clausegraph.embed import embedding_mismatch
from clausegraph.errors import IndexStoreError

TEST_DATA = Path(__file__).resolve().parents[1] / "data"
REPO = Path(__file__).resolve().parents[2]
QUESTION = "What does Conversion Services mean?"


@pytest.fixture(scope="module")
def built_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real index of two shipped contract excerpts (default ONNX encoder)."""
    root = tmp_path_factory.mktemp("model") / "index"
    graph = ClauseGraph.open(root, create=True)
    report = graph.ingest([TEST_DATA / "cuad_ofg_conversion_services.txt",
                           TEST_DATA / "cuad_bloom_definitions.txt"])
    assert not report.failed
    return root


def copy_with_manifest(source: Path, target: Path, **changes: object) -> ClauseGraph:
    shutil.copytree(source, target)
    manifest_path = target / "clausegraph-index.json"
    manifest = json.loads(manifest_path.read_text())
    for key, value in changes.items():
        if value is None:
            manifest.pop(key, None)
        else:
            manifest[key] = value
    manifest_path.write_text(json.dumps(manifest))
    return ClauseGraph.open(target)


def test_manifest_records_model_and_weights_fingerprint(built_index: Path) -> None:
    manifest = json.loads((built_index / "clausegraph-index.json").read_text())
    graph = ClauseGraph.open(built_index)
    assert manifest["embedding_model"] == "all-MiniLM-L6-v2"
    assert manifest["embedding_fingerprint"] == graph.embedder.fingerprint
    # the weights' SHA-256, plus "+int8-smooth" when embedding.quantize=int8 made the vectors
    assert re.fullmatch(r"sha256:[0-9a-f]{64}(\+int8-smooth)?", manifest["embedding_fingerprint"])


def test_other_model_is_refused_then_reembedded_on_request(built_index: Path,
                                                           tmp_path: Path) -> None:
    graph = copy_with_manifest(built_index, tmp_path / "index",
                               embedding_model="gemini-embedding-001", dim=768,
                               embedding_fingerprint="")
    clause_id = graph.index.clauses.clause_ids()[0]
    assert graph.show(clause_id).clause.clause_id == clause_id  # reading needs no encoder
    with pytest.raises(IndexStoreError) as refused:
        graph.retrieve(QUESTION)
    message = str(refused.value)
    assert "'gemini-embedding-001'" in message and "'all-MiniLM-L6-v2'" in message
    assert f"clausegraph reembed --index {tmp_path / 'index'}" in message
    with pytest.raises(IndexStoreError, match="reembed"):
        graph.ingest([TEST_DATA / "cuad_xinhua_section_5.txt"])  # nothing mixed in silently

    clauses = graph.reembed()
    assert clauses == graph.stats().clauses
    manifest = json.loads((tmp_path / "index" / "clausegraph-index.json").read_text())
    assert (manifest["embedding_model"], manifest["dim"]) == ("all-MiniLM-L6-v2", 384)
    assert manifest["embedding_fingerprint"] == graph.embedder.fingerprint
    found = [r.clause_id for r in graph.retrieve(QUESTION)]
    assert found == [r.clause_id for r in ClauseGraph.open(built_index).retrieve(QUESTION)]


def test_other_weights_of_the_same_model_are_refused(built_index: Path, tmp_path: Path) -> None:
    graph = copy_with_manifest(built_index, tmp_path / "index",
                               embedding_fingerprint="sha256:" + "0" * 64)
    with pytest.raises(IndexStoreError, match="other weights of 'all-MiniLM-L6-v2'"):
        graph.retrieve(QUESTION)


def test_index_without_fingerprint_opens_as_minilm(built_index: Path, tmp_path: Path) -> None:
    legacy = copy_with_manifest(built_index, tmp_path / "index", embedding_fingerprint=None)
    assert legacy.retrieve(QUESTION)
    nameless = copy_with_manifest(built_index, tmp_path / "older", embedding_fingerprint=None,
                                  embedding_model=None)
    assert nameless.retrieve(QUESTION)


def test_mismatch_rules_on_manifest_facts(built_index: Path) -> None:
    embedder = ClauseGraph.open(built_index).embedder
    same = {"embedding_model": "all-MiniLM-L6-v2", "embedding_fingerprint": embedder.fingerprint}
    assert embedding_mismatch(same, embedder) is None
    assert embedding_mismatch({}, embedder) is None
    assert "was built with embedding model 'bge-small'" in embedding_mismatch(
        {"embedding_model": "bge-small"}, embedder)


# argv: the command's arguments, then the comma-separated top-level modules it may not load
LOADED_MODULES = """
import sys
from clausegraph.cli import app
forbidden = sys.argv[-1].split(",")
try:
    app(sys.argv[1:-1])
except SystemExit:
    pass
print("LOADED", sorted({name.split(".")[0] for name in sys.modules} & set(forbidden)))
"""
MODEL = ("torch", "sentence_transformers", "onnxruntime", "tokenizers")
PDF_AND_NLP = ("spacy", "pymupdf")
# search indexes and what the default install no longer has (optional extras)
SEARCH = ("bm25s", "scipy", "faiss")
OPTIONAL = ("matplotlib", "openai", "google")
# what each command may not load: reading commands need only the clauses and edges
FORBIDDEN = {
    "--help": MODEL + PDF_AND_NLP + SEARCH + OPTIONAL,
    "stats": MODEL + PDF_AND_NLP + SEARCH + OPTIONAL,
    "show": MODEL + PDF_AND_NLP + SEARCH + OPTIONAL,
    "remove-missing": MODEL + PDF_AND_NLP + SEARCH + OPTIONAL,
    "stats-missing": MODEL + PDF_AND_NLP + SEARCH + OPTIONAL,
    # removing a document rebuilds the global BM25 index (bm25s), nothing else
    "remove": MODEL + PDF_AND_NLP + ("faiss",) + OPTIONAL,
    # asking embeds the question and searches; no PDF, NLP, FAISS, plots or LLM client
    "ask": ("torch", "sentence_transformers") + PDF_AND_NLP + ("faiss",) + OPTIONAL,
}


@pytest.mark.parametrize("command", list(FORBIDDEN))
def test_commands_load_only_what_they_need(built_index: Path, tmp_path: Path,
                                           command: str) -> None:
    index = str(built_index)
    if command == "remove":
        index = str(tmp_path / "copy")
        shutil.copytree(built_index, index)
    reader = ClauseGraph.open(built_index)
    clause_id = reader.index.clauses.clause_ids()[0]
    arguments = {
        "--help": ["--help"],
        "stats": ["stats", "--index", index],
        "show": ["show", clause_id, "--index", index],
        "remove-missing": ["remove", "no-such-document", "--index", index],
        "stats-missing": ["stats", "--index", str(tmp_path / "missing")],
        "remove": ["remove", reader.index.clauses.document_ids()[0], "--index", index],
        "ask": ["ask", QUESTION, "--index", index, "--json"],
    }[command]
    forbidden = ",".join(FORBIDDEN[command])
    done = subprocess.run([sys.executable, "-c", LOADED_MODULES, *arguments, forbidden],
                          cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    loaded = [line for line in done.stdout.splitlines() if line.startswith("LOADED")]
    assert loaded == ["LOADED []"], (done.stdout[-500:], done.stderr[-500:])
    if command == "show":
        assert clause_id in done.stdout
    if command == "ask":
        answer = json.loads(done.stdout[:done.stdout.rindex("LOADED")])
        assert done.returncode == 0 and answer["evidence"]
    if command == "remove":
        assert len(ClauseGraph.open(index).stats().documents) == \
            len(reader.stats().documents) - 1
    if command.endswith("missing"):
        assert "error:" in done.stderr and ("missing" in done.stderr or "no document" in done.stderr)


@pytest.mark.skipif(
    not all(importlib.util.find_spec(name) for name in ("torch", "sentence_transformers")),
    reason="sentence-transformers/torch not installed (pip install 'clausegraph[torch]')")
def test_torch_backend_opens_the_same_index_and_ranks_alike(built_index: Path,
                                                           tmp_path: Path) -> None:
    from clausegraph.config import Settings

    # fp32 vectors whatever embedding.quantize defaults to (torch runs the fp32 model)
    fp32 = Settings().with_overrides(["embedding.quantize=none"])
    shutil.copytree(built_index, tmp_path / "index")
    default = ClauseGraph.open(tmp_path / "index", fp32)
    manifest = json.loads((built_index / "clausegraph-index.json").read_text())
    if manifest["embedding_fingerprint"] != default.embedder.fingerprint:
        default.reembed()  # built by an int8 default
    torch_backend = ClauseGraph.open(
        tmp_path / "index", fp32.with_overrides(["embedding.backend=sentence-transformers"]))
    for question in (QUESTION, "When may the agreement be terminated?", "payment terms"):
        assert [r.clause_id for r in torch_backend.retrieve(question)] == \
            [r.clause_id for r in default.retrieve(question)]
