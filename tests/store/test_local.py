"""Index storage: content-addressed documents, atomic generations, no re-embedding."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from clausegraph.api import ClauseGraph
from clausegraph.config import Settings
from clausegraph.embed import Embedder, create_embedder
from clausegraph.errors import IndexStoreError
from clausegraph.store.local.folder import FolderStore as IndexStore
from clausegraph.text.tokenize import tokenize
from tests.conftest import TEST_DATA, dataset_pdf

PHOTRONICS = dataset_pdf("Photronics")
BELLRING = dataset_pdf("Bellring")


class CountingEmbedder(Embedder):
    """Wraps the real encoder and counts the texts it is asked to embed."""

    def __init__(self) -> None:
        self.inner = create_embedder()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.texts_embedded = 0

    def encode(self, texts):
        self.texts_embedded += len(texts)
        return self.inner.encode(texts)


def _graph_with(tmp_path: Path, *pdfs: Path) -> ClauseGraph:
    graph = ClauseGraph.open(tmp_path / "idx", create=True)
    report = graph.ingest(list(pdfs))
    assert not report.failed
    return graph


def test_reingesting_an_unchanged_file_does_nothing(tmp_path: Path) -> None:
    graph = _graph_with(tmp_path, PHOTRONICS)
    generation = graph.store.read_manifest()["generation"]
    again = graph.ingest([PHOTRONICS])
    assert [o.status for o in again.outcomes] == ["unchanged"]
    assert graph.store.read_manifest()["generation"] == generation


def test_an_unchanged_file_cut_with_other_segment_settings_is_reported(tmp_path: Path) -> None:
    # the index is content addressed: ingesting again with another segment setting keeps the
    # old clauses, and the user is told which settings differ and how to apply them
    text = tmp_path / "waiting.txt"
    text.write_text("4. Exclusions\n4.3 Specific waiting periods\n"
                    "The conditions below have a waiting period of 24 months:\n"
                    "1. Piles\n2. Hernia\n3. Varicose veins of the lower limbs\n",
                    encoding="utf-8")
    graph = _graph_with(tmp_path, text)
    doc_id = next(iter(graph.store.entries()))
    assert graph.store.entries()[doc_id].segment_settings["keep_worded_items"] is True
    (same,) = graph.ingest([text]).outcomes
    assert same.status == "unchanged" and same.warnings == []
    other = ClauseGraph.open(tmp_path / "idx", Settings(segment={"keep_worded_items": False}))
    (kept,) = other.ingest([text]).outcomes
    assert kept.status == "unchanged"
    (warning,) = kept.warnings
    assert "segment.keep_worded_items=True (now False)" in warning and "remove" in warning
    assert str(text) in warning


def test_a_byte_identical_copy_is_indexed_once(tmp_path: Path) -> None:
    # The LegalBench-RAG corpus has two such pairs ("... AGREEMENT.txt" and "...(1).txt").
    folder = tmp_path / "in"
    folder.mkdir()
    text = (TEST_DATA / "cuad_xinhua_section_5.txt").read_bytes()
    (folder / "contract.txt").write_bytes(text)
    (folder / "contract(1).txt").write_bytes(text)
    graph = ClauseGraph.open(tmp_path / "idx", create=True)
    counting = CountingEmbedder()
    graph._embedder = counting
    report = graph.ingest([folder])
    first, copy = sorted(report.outcomes, key=lambda o: o.status)
    assert (first.status, copy.status) == ("ingested", "unchanged")
    assert copy.same_as == str(Path(first.path).resolve()) and copy.doc_id == first.doc_id
    assert counting.texts_embedded == first.clauses > 0
    assert len(graph.store.read_manifest()["documents"]) == 1


def test_build_artifacts_records_each_stage(tmp_path: Path) -> None:
    graph = ClauseGraph.open(tmp_path / "idx", create=True)
    artifacts = graph.build_artifacts(TEST_DATA / "maud_capstead_section_8_3.txt")
    assert list(artifacts.stage_seconds) == [
        "load", "segment", "entities", "relate", "embed", "classify", "tokenize"]
    assert all(value >= 0 for value in artifacts.stage_seconds.values())
    assert artifacts.stage_seconds["embed"] > 0 and len(artifacts.embeddings) == len(
        artifacts.clauses)


def test_adding_a_document_embeds_only_that_document(tmp_path: Path) -> None:
    graph = _graph_with(tmp_path, PHOTRONICS)
    counting = CountingEmbedder()
    graph._embedder = counting
    report = graph.ingest([PHOTRONICS, BELLRING])
    statuses = {Path(o.path).name: o.status for o in report.outcomes}
    assert statuses[PHOTRONICS.name] == "unchanged"
    added = next(o for o in report.outcomes if o.status == "ingested")
    assert counting.texts_embedded == added.clauses > 0


def test_removing_a_document_keeps_the_other_untouched(tmp_path: Path) -> None:
    graph = _graph_with(tmp_path, PHOTRONICS, BELLRING)
    manifest = graph.store.read_manifest()
    keep, drop = list(manifest["documents"])
    kept_vectors = graph.store.doc_dir(keep) / "embeddings.npy"
    inode = kept_vectors.stat().st_ino
    removed = graph.remove(manifest["documents"][drop]["key"])
    assert removed == [drop]
    assert kept_vectors.stat().st_ino == inode
    assert not graph.store.doc_dir(drop).exists()
    assert {c.doc_id for c in graph.index.clauses} == {keep}


def test_a_crash_before_the_manifest_switch_leaves_the_previous_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = _graph_with(tmp_path, PHOTRONICS)
    before = graph.stats()

    def crash(*args, **kwargs):
        raise RuntimeError("simulated crash mid-ingest")

    monkeypatch.setattr(IndexStore, "_write_manifest", crash)
    with pytest.raises(RuntimeError, match="simulated crash"):
        graph.ingest([BELLRING])
    monkeypatch.undo()

    reopened = ClauseGraph.open(tmp_path / "idx")
    assert reopened.stats() == before
    hits = reopened.retrieve("outsourcing of photomask production", top_k=3)
    assert hits and {h.clause.doc_id for h in hits} == {before.documents[0]["doc_id"]}
    # the next successful write completes the work and sweeps what the crash left behind
    reopened.ingest([BELLRING])
    assert len(reopened.stats().documents) == 2
    leftovers = [p.name for p in (tmp_path / "idx").rglob(".tmp-*")]
    assert leftovers == []
    assert len(list((tmp_path / "idx").glob("global-*"))) == 1


def test_a_crash_while_writing_the_global_index_leaves_the_previous_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bm25s

    graph = _graph_with(tmp_path, PHOTRONICS)
    before = graph.stats()
    full = OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(bm25s.BM25, "save", lambda *a, **k: (_ for _ in ()).throw(full))
    with pytest.raises(IndexStoreError, match="nothing was committed.*no space left"):
        graph.ingest([BELLRING])
    monkeypatch.undo()
    assert ClauseGraph.open(tmp_path / "idx").stats() == before
    assert not list((tmp_path / "idx").glob(".tmp-*"))  # the attempt's temp folder is gone


def test_opening_a_missing_or_foreign_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(IndexStoreError, match="does not exist"):
        ClauseGraph.open(tmp_path / "nowhere")
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "cat.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(IndexStoreError, match="not a ClauseGraph index"):
        ClauseGraph.open(foreign)
    with pytest.raises(IndexStoreError, match="not a ClauseGraph index"):
        ClauseGraph.open(foreign, create=True)


def test_a_damaged_manifest_is_a_clear_error(tmp_path: Path) -> None:
    graph = _graph_with(tmp_path, PHOTRONICS)
    graph.store.manifest_path.write_text("{ not json", encoding="utf-8")
    with pytest.raises(IndexStoreError, match="unreadable manifest"):
        ClauseGraph.open(tmp_path / "idx")


def test_bm25_scores_match_rank_bm25(sample_graph: ClauseGraph) -> None:
    """bm25s (Robertson variant) must score like the rank-bm25 reference implementation."""
    store = sample_graph.store
    corpus = [t or [""] for d in sample_graph.index.clauses.document_ids() for t in store.read_tokens(d)]
    oracle = BM25Okapi(corpus, k1=1.5, b=0.75)
    query = tokenize("termination of the agreement for breach and insolvency")
    n = len(corpus)
    # rank-bm25 floors negative idf at epsilon * mean idf; compare on terms rarer than half
    query = [t for t in query if sum(t in doc for doc in corpus) < n / 2]
    assert query
    ours = np.asarray(sample_graph.index.lexical.bm25.get_scores(query))
    expected = oracle.get_scores(query)
    # bm25s leaves out rank-bm25's constant (k1 + 1) numerator factor: same ranking
    np.testing.assert_allclose(ours * (1.5 + 1), expected, rtol=1e-4, atol=1e-4)
    assert np.count_nonzero(expected) > 10


def test_a_snapshot_searches_its_generation_after_a_writer_collected_it(tmp_path: Path) -> None:
    """The reader loads BM25 and the vectors on first search; a writer that committed and
    collected the snapshot's global folder in between does not change what it finds."""
    question = "When may the agreement be terminated?"
    _graph_with(tmp_path, PHOTRONICS)
    expected = [(r.clause_id, r.score) for r in ClauseGraph.open(tmp_path / "idx").retrieve(question)]
    snapshot = ClauseGraph.open(tmp_path / "idx")
    clause_id = snapshot.index.clauses.clause_ids()[0]  # opened: clauses read, no search yet
    collected = snapshot.index.global_dir
    ClauseGraph.open(tmp_path / "idx").ingest([BELLRING])
    assert not collected.exists()
    assert [(r.clause_id, r.score) for r in snapshot.retrieve(question)] == expected
    assert snapshot.show(clause_id).clause.clause_id == clause_id
    assert len(ClauseGraph.open(tmp_path / "idx").stats().documents) == 2


def test_an_unchanged_file_cut_by_other_code_is_reported(tmp_path: Path, monkeypatch) -> None:
    # after an upgrade the reader or segmenter may cut the same file differently: the index
    # keeps the old clauses, and ingest and stats say which documents other code cut
    from clausegraph.segment import version
    from clausegraph.segment.version import segmenter_version

    text = tmp_path / "notice.txt"
    text.write_text("1. Notices\nAll notices shall be given in writing within 30 days.\n"
                    "2. Term\nThis agreement lasts for two years from the effective date.\n",
                    encoding="utf-8")
    graph = _graph_with(tmp_path, text)
    (entry,) = graph.store.entries().values()
    assert entry.segmenter == segmenter_version()
    assert graph.stats().cut_by_other_segmenter == []
    (same,) = graph.ingest([text]).outcomes
    assert same.status == "unchanged" and same.warnings == []

    monkeypatch.setattr(version, "segmenter_version", lambda: "0" * 12)
    (kept,) = graph.ingest([text]).outcomes
    assert kept.status == "unchanged"
    (warning,) = kept.warnings
    assert str(text) in warning and entry.segmenter in warning and "0" * 12 in warning
    assert "remove" in warning
    stats = graph.stats()
    assert stats.segmenter == "0" * 12
    assert stats.cut_by_other_segmenter == [next(iter(graph.store.entries()))]


def test_the_segmenter_version_follows_the_code(tmp_path: Path) -> None:
    from clausegraph.segment.version import PACKAGES, segmenter_version, source_digest

    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "rules.py").write_text("LIMIT = 3\n", encoding="utf-8")
    first = source_digest(tmp_path, PACKAGES)
    assert len(first) == 12 and source_digest(tmp_path, PACKAGES) == first
    (tmp_path / "segment" / "rules.py").write_text("LIMIT = 4\n", encoding="utf-8")
    assert source_digest(tmp_path, PACKAGES) != first
    (tmp_path / "segment" / "rules.py").write_text("LIMIT = 3\n", encoding="utf-8")
    (tmp_path / "ingest" / "tables.py").write_text("", encoding="utf-8")
    assert source_digest(tmp_path, PACKAGES) != first
    assert len(segmenter_version()) == 12


def test_the_segmenter_version_follows_the_tokenizer(tmp_path: Path) -> None:
    """A clause's BM25 tokens are made at ingest: an index searched with other tokens than
    it stores is flagged as one cut by other code."""
    from clausegraph.segment.version import MODULES, PACKAGES, source_digest

    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "rules.py").write_text("LIMIT = 3\n", encoding="utf-8")
    for module in MODULES:
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("STOPWORDS = ()\n", encoding="utf-8")
    first = source_digest(tmp_path, PACKAGES, MODULES)
    (tmp_path / MODULES[0]).write_text("STOPWORDS = ('a',)\n", encoding="utf-8")
    assert source_digest(tmp_path, PACKAGES, MODULES) != first
