"""The local index reader: clauses and edges parsed per document on demand, within a
bounded cache, read from bytes taken when the snapshot opened."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clausegraph.api import ClauseGraph
from clausegraph.errors import IndexStoreError
from clausegraph.retrieve.scope import DocumentScoper, opening_parties
from clausegraph.store.local.folder import FolderStore
from clausegraph.store.local.reader import FolderReader, ParsedCache


def _copy(sample_graph: ClauseGraph, tmp_path: Path) -> FolderStore:
    """A private copy of the sample index, for tests that change files in it."""
    return FolderStore(shutil.copytree(sample_graph.store.root, tmp_path / "index"))


def _every_clause_and_edge(reader: FolderReader) -> list:
    """Each document's clauses, and for every clause its edges, centrality and document."""
    seen = []
    for doc_id in reader.clauses.document_ids():
        centrality = reader.graph.centrality(doc_id)
        for clause in reader.clauses.document_clauses(doc_id):
            clause_id = clause.clause_id
            seen.append((clause, reader.clauses.clause(clause_id), centrality.get(clause_id),
                         reader.graph.out_edges(clause_id), reader.graph.in_edges(clause_id)))
        seen.append((reader.graph.document_edges(doc_id), reader.graph.unresolved(doc_id)))
    return seen


def test_clauses_and_edges_read_on_demand_equal_the_stored_files(sample_graph: ClauseGraph) -> None:
    store = sample_graph.store
    reader = FolderReader(store)
    for doc_id in reader.clauses.document_ids():
        assert reader.clauses.document_clauses(doc_id) == store.read_clauses(doc_id)
        assert reader.graph.document_edges(doc_id) == store.read_graph(doc_id).edges
    clause_id = reader.clauses.clause_ids()[-1]
    assert reader.clauses.clause(clause_id).clause_id == clause_id


def test_a_tiny_cache_evicts_and_reads_the_same(sample_graph: ClauseGraph) -> None:
    """Documents evicted from the cache are parsed again, to the same clauses and edges,
    and the cache holds no more than its budget beyond the document in use."""
    roomy = FolderReader(sample_graph.store)
    tiny = FolderReader(sample_graph.store, cache_clauses=20, cache_edges=20)
    assert _every_clause_and_edge(tiny) == _every_clause_and_edge(roomy)
    largest_edges = max(len(roomy.graph.document_edges(d)) + 1 for d in roomy.clauses.document_ids())
    assert tiny.graph.parsed.held <= max(20, largest_edges)
    assert roomy.clauses.parsed.held > tiny.clauses.parsed.held


def test_a_snapshot_reads_a_document_removed_after_it_opened(
        sample_graph: ClauseGraph, tmp_path: Path) -> None:
    store = _copy(sample_graph, tmp_path)
    snapshot = FolderReader(store)
    removed = snapshot.clauses.document_ids()[0]
    expected = store.read_clauses(removed), store.read_graph(removed).edges
    key = snapshot.entries()[removed].key
    assert ClauseGraph.open(store.root).remove(key) == [removed]
    assert not store.doc_dir(removed).exists()
    assert (snapshot.clauses.document_clauses(removed),
            snapshot.graph.document_edges(removed)) == expected


def test_clauses_stored_with_another_key_order_are_read_whole(
        sample_graph: ClauseGraph, tmp_path: Path) -> None:
    """The clause id leads each stored clause object, which lets one clause be decoded
    alone; a file written otherwise is decoded whole, to the same clauses."""
    store = _copy(sample_graph, tmp_path)
    doc_id = next(iter(store.read_manifest()["documents"]))
    path = store.doc_dir(doc_id) / "clauses.json"
    stored = json.loads(path.read_bytes())
    path.write_text(json.dumps([dict(reversed(c.items())) for c in stored]), encoding="utf-8")
    assert FolderReader(store).clauses.document_clauses(doc_id) == store.read_clauses(doc_id)


def test_clauses_that_disagree_with_the_global_index_are_a_clear_error(
        sample_graph: ClauseGraph, tmp_path: Path) -> None:
    store = _copy(sample_graph, tmp_path)
    doc_id = list(store.read_manifest()["documents"])[1]
    path = store.doc_dir(doc_id) / "clauses.json"
    stored = json.loads(path.read_bytes())
    stored[0]["clause_id"] += "-changed"
    path.write_text(json.dumps(stored), encoding="utf-8")
    reader = FolderReader(store)
    with pytest.raises(IndexStoreError, match=f"stored clauses of document {doc_id}"):
        reader.clauses.document_clauses(doc_id)



def test_a_truncated_clause_file_is_a_clear_error_naming_it(
        sample_graph: ClauseGraph, tmp_path: Path) -> None:
    store = _copy(sample_graph, tmp_path)
    damaged, intact = list(store.read_manifest()["documents"])[:2]
    path = store.doc_dir(damaged) / "clauses.json"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    reader = FolderReader(store)
    with pytest.raises(IndexStoreError, match=f"docs/{damaged}/clauses.json"):
        reader.clauses.document_clauses(damaged)
    assert reader.clauses.document_clauses(intact) == store.read_clauses(intact)

def test_opening_parties_are_recorded_at_ingest(sample_graph: ClauseGraph, tmp_path: Path) -> None:
    """Each entry holds the names scoping matches; an index written before they were
    recorded finds the same names in its clauses."""
    store = sample_graph.store
    entries = store.entries()
    for doc_id, entry in entries.items():
        assert entry.parties == opening_parties(store.read_clauses(doc_id)).get(doc_id, "")
    assert any(entry.parties for entry in entries.values())
    older = _copy(sample_graph, tmp_path)
    manifest = older.read_manifest()
    for entry in manifest["documents"].values():
        del entry["parties"]
    older.manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    recorded, found = DocumentScoper(FolderReader(store)), DocumentScoper(FolderReader(older))
    assert recorded.party_tokens == found.party_tokens



def test_threads_sharing_a_cache_never_lose_a_document() -> None:
    """The web server's threads share one reader: a document evicted by one thread while
    another looks it up is parsed again, never lost (switching threads every microsecond
    makes the interleaving likely)."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    cache = ParsedCache(lambda doc_id: [doc_id], len, budget=2)
    keys = [f"doc-{i}" for i in range(4)]

    def hammer(offset: int) -> bool:
        return all(cache.get(keys[(offset + n) % 4]) == [keys[(offset + n) % 4]]
                   for n in range(20_000))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            assert all(pool.map(hammer, range(4)))
    finally:
        sys.setswitchinterval(interval)
    assert cache.held <= 2
