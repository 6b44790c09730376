"""The local folder index loaded for reading: clauses in memory, bm25s, FAISS, edge maps.

One :class:`FolderReader` is a consistent snapshot: it reads the manifest once and then
only the immutable files that manifest names, so a concurrent writer never changes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clausegraph.errors import IndexStoreError, NotFoundError
from clausegraph.models import Clause, Document, DocumentGraph, Edge
from clausegraph.store.base import (
    ClauseStore,
    DocumentEntry,
    GraphStore,
    IndexReader,
    LexicalIndex,
    ScoredIds,
    VectorIndex,
    degree_centrality,
)

if TYPE_CHECKING:
    from clausegraph.store.local.folder import FolderStore


class LocalClauses(ClauseStore):
    """Every clause in one list, in document order; documents by id.

    Positions (``position``, ``doc_ranges``, ``positions``) and the list protocol
    (``len``, iteration) are this backend's own and serve its lexical and vector indexes;
    code above the store speaks clause ids.
    """

    def __init__(self, location: str) -> None:
        self.location = location
        self.by_doc: dict[str, Document] = {}
        self.rows: list[Clause] = []
        self.doc_ranges: dict[str, tuple[int, int]] = {}
        self.position: dict[str, int] = {}

    def add(self, document: Document, clauses: list[Clause]) -> None:
        start = len(self.rows)
        self.by_doc[document.doc_id] = document
        self.rows += clauses
        self.doc_ranges[document.doc_id] = (start, len(self.rows))

    def finish(self) -> None:
        self.position = {c.clause_id: i for i, c in enumerate(self.rows)}

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def document_ids(self) -> list[str]:
        return list(self.by_doc)

    def document(self, doc_id: str) -> Document:
        if doc_id not in self.by_doc:
            raise NotFoundError(f"no document {doc_id!r} in index {self.location}")
        return self.by_doc[doc_id]

    def documents(self) -> dict[str, Document]:
        return dict(self.by_doc)

    def clause(self, clause_id: str) -> Clause:
        if clause_id not in self.position:
            raise NotFoundError(f"no clause {clause_id!r} in index {self.location}")
        return self.rows[self.position[clause_id]]

    def has_clause(self, clause_id: str) -> bool:
        return clause_id in self.position

    def clauses(self, clause_ids: Sequence[str]) -> list[Clause]:
        return [self.clause(c) for c in clause_ids]

    def document_clauses(self, doc_id: str) -> list[Clause]:
        start, end = self.doc_ranges[doc_id]
        return self.rows[start:end]

    def clause_ids(self, doc_ids: Sequence[str] | None = None) -> list[str]:
        if doc_ids is None:
            return [c.clause_id for c in self.rows]
        return [c.clause_id for d in doc_ids for c in self.document_clauses(d)]

    def count(self) -> int:
        return len(self.rows)

    def positions(self, doc_ids: Sequence[str] | None) -> np.ndarray | None:
        """Row positions of ``doc_ids`` (None = every row), in document order."""
        if doc_ids is None:
            return None
        spans = [np.arange(*self.doc_ranges[d]) for d in doc_ids]
        return np.concatenate(spans) if spans else np.zeros(0, dtype=np.int64)

    def ids_at(self, positions: np.ndarray) -> list[str]:
        return [self.rows[int(p)].clause_id for p in positions]


class LocalLexical(LexicalIndex):
    """bm25s over every clause; scores for a query are computed once and reused."""

    def __init__(self, bm25: Any, clauses: LocalClauses) -> None:
        self.bm25 = bm25
        self._clauses = clauses
        self._last: tuple[tuple[str, ...], np.ndarray] | None = None

    def vocabulary_has(self, token: str) -> bool:
        return self.bm25 is not None and token in self.bm25.vocab_dict

    def all_scores(self, tokens: Sequence[str]) -> np.ndarray:
        """BM25 of every clause, by position (cached for the last query's tokens)."""
        known = tuple(t for t in tokens if self.vocabulary_has(t))
        if self._last is not None and self._last[0] == known:
            return self._last[1]
        if not known:
            scores = np.zeros(len(self._clauses), dtype=np.float32)
        else:
            scores = np.asarray(self.bm25.get_scores(list(known)), dtype=np.float32)
        self._last = (known, scores)
        return scores

    def top(self, tokens: Sequence[str], k: int, doc_ids: Sequence[str] | None = None) -> ScoredIds:
        scores = self.all_scores(tokens)
        allowed = self._clauses.positions(doc_ids)
        if allowed is not None:
            mask = np.zeros(len(scores), dtype=np.float32)
            mask[allowed] = 1.0
            scores = scores * mask
        top = np.argsort(-scores)[:k]
        top = top[scores[top] > 0]
        return self._clauses.ids_at(top), scores[top]

    def scores(self, tokens: Sequence[str], clause_ids: Sequence[str]) -> np.ndarray:
        scores = self.all_scores(tokens)
        positions = np.array([self._clauses.position[c] for c in clause_ids], dtype=np.int64)
        return scores[positions] if len(positions) else np.zeros(0, dtype=np.float32)


class LocalVectors(VectorIndex):
    """A FAISS flat inner-product index; filtered searches are exact products."""

    def __init__(self, faiss_index: Any, clauses: LocalClauses, dim: int) -> None:
        self.faiss = faiss_index
        self._clauses = clauses
        self._dim = dim

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def matrix(self) -> np.ndarray:
        """All clause vectors as a zero-copy (n, dim) view of the FAISS flat index."""
        import faiss

        if self.faiss is None:
            return np.zeros((0, self._dim), dtype=np.float32)
        flat = faiss.rev_swig_ptr(self.faiss.get_xb(), self.faiss.ntotal * self.faiss.d)
        return flat.reshape(self.faiss.ntotal, self.faiss.d)

    def at(self, positions: np.ndarray) -> np.ndarray:
        return self.matrix[np.asarray(positions, dtype=np.int64)]

    def search(self, vector: np.ndarray, k: int, doc_ids: Sequence[str] | None = None) -> ScoredIds:
        positions = self._clauses.positions(doc_ids)
        if positions is None:
            if self.faiss is None:
                return [], np.zeros(0, dtype=np.float32)
            scores, ids = self.faiss.search(vector[None, :].astype(np.float32), k)
            keep = ids[0] >= 0
            return self._clauses.ids_at(ids[0][keep]), scores[0][keep]
        scores = self.at(positions) @ vector
        order = np.argsort(-scores)[:k]
        return self._clauses.ids_at(positions[order]), scores[order]

    def vectors(self, clause_ids: Sequence[str]) -> np.ndarray:
        positions = np.array([self._clauses.position[c] for c in clause_ids], dtype=np.int64)
        return self.at(positions) if len(positions) else np.zeros((0, self._dim), np.float32)


class LocalGraph(GraphStore):
    """Per-document edge lists, with adjacency maps built on first use.

    Adjacency keeps one edge per (source, target, type), the last one stored, and lists
    neighbours in the order their first edge was stored: the order networkx's
    ``MultiDiGraph`` gave, so rankings are unchanged by the move to this interface.
    """

    def __init__(self, graphs: dict[str, DocumentGraph], clauses: LocalClauses) -> None:
        self.graphs = graphs
        self._clauses = clauses
        self._succ: dict[str, dict[str, dict[str, dict[str, Edge]]]] = {}
        self._pred: dict[str, dict[str, dict[str, dict[str, Edge]]]] = {}
        self._centrality: dict[str, dict[str, float]] = {}

    def document_edges(self, doc_id: str) -> list[Edge]:
        return self.graphs[doc_id].edges

    def unresolved(self, doc_id: str) -> list[Any]:
        return list(self.graphs[doc_id].unresolved)

    def _adjacency(self, doc_id: str) -> None:
        succ: dict[str, dict[str, dict[str, Edge]]] = {}
        pred: dict[str, dict[str, dict[str, Edge]]] = {}
        for edge in self.graphs[doc_id].edges:
            succ.setdefault(edge.source, {}).setdefault(edge.target, {})[edge.type.value] = edge
            pred.setdefault(edge.target, {}).setdefault(edge.source, {})[edge.type.value] = edge
        self._succ[doc_id], self._pred[doc_id] = succ, pred

    def _doc(self, clause_id: str) -> str:
        return self._clauses.clause(clause_id).doc_id

    def out_edges(self, clause_id: str) -> list[Edge]:
        doc_id = self._doc(clause_id)
        if doc_id not in self._succ:
            self._adjacency(doc_id)
        targets = self._succ[doc_id].get(clause_id, {})
        return [edge for by_type in targets.values() for edge in by_type.values()]

    def in_edges(self, clause_id: str) -> list[Edge]:
        doc_id = self._doc(clause_id)
        if doc_id not in self._pred:
            self._adjacency(doc_id)
        sources = self._pred[doc_id].get(clause_id, {})
        return [edge for by_type in sources.values() for edge in by_type.values()]

    def centrality(self, doc_id: str) -> dict[str, float]:
        if doc_id not in self._centrality:
            self._centrality[doc_id] = degree_centrality(self.graphs[doc_id].edges)
        return self._centrality[doc_id]


class FolderReader(IndexReader):
    """An index folder loaded for reading (see :mod:`clausegraph.store.local.folder`)."""

    def __init__(self, store: FolderStore) -> None:
        import bm25s
        import faiss

        self.store = store
        self.manifest = store.read_manifest()
        self.clauses = LocalClauses(store.location)
        graphs: dict[str, DocumentGraph] = {}
        try:
            for doc_id in self.manifest["documents"]:
                self.clauses.add(store.read_document(doc_id), store.read_clauses(doc_id))
                graphs[doc_id] = store.read_graph(doc_id)
            global_dir = store.root / self.manifest["global"] if self.manifest["global"] else None
            faiss_index = faiss.read_index(str(global_dir / "faiss.index")) if global_dir else None
            bm25 = bm25s.BM25.load(str(global_dir / "bm25")) if global_dir else None
            stored_ids = json.loads((global_dir / "clause_ids.json").read_bytes()) if global_dir else []
        except PermissionError as exc:
            raise IndexStoreError(
                store.root, f"permission denied reading {exc.filename or 'the index files'}; "
                "ask its owner to make the index readable"
            ) from exc
        except (OSError, ValueError, RuntimeError) as exc:
            raise IndexStoreError(store.root, f"damaged index files ({exc})") from exc
        if stored_ids != [c.clause_id for c in self.clauses.rows]:
            raise IndexStoreError(store.root, "global index does not match the stored clauses")
        self.clauses.finish()
        self.lexical = LocalLexical(bm25, self.clauses)
        self.vectors = LocalVectors(faiss_index, self.clauses, int(self.manifest.get("dim", 0)))
        self.graph = LocalGraph(graphs, self.clauses)

    @property
    def location(self) -> str:
        return self.store.location

    @property
    def embedding_model(self) -> str:
        return str(self.manifest.get("embedding_model", ""))

    def entries(self) -> dict[str, DocumentEntry]:
        return {k: DocumentEntry.model_validate(v) for k, v in self.manifest["documents"].items()}

    def info(self) -> dict[str, Any]:
        return {k: v for k, v in self.manifest.items() if k != "documents"}
