"""The storage interface's reading side over PostgreSQL (``IndexReader`` and its parts).

Every call is a query against one REPEATABLE READ snapshot of the reader's connection
(renewed after ``snapshot_seconds``); nothing but the answers comes to the client.
Documents are immutable once stored (their id is their content hash), so what belongs to
one document -- its edges and centrality -- is cached per reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from clausegraph.config import RetrievalConfig
from clausegraph.errors import NotFoundError
from clausegraph.models import Clause, Document, Edge
from clausegraph.store.base import (
    ClauseStore,
    DocumentEntry,
    GraphStore,
    IndexReader,
    LexicalIndex,
    ScoredIds,
    VectorIndex,
)
from clausegraph.store.postgres.store import PostgresIndex

SNAPSHOT_SECONDS = 10.0


class PostgresClauses(ClauseStore):
    def __init__(self, index: PostgresIndex) -> None:
        self.index = index

    def document_ids(self) -> list[str]:
        return [r[0] for r in self.index._query(
            "SELECT doc_id FROM documents WHERE workspace = %s ORDER BY seq",
            (self.index.workspace,))]

    def document(self, doc_id: str) -> Document:
        if not self.index.has_document(doc_id):
            raise NotFoundError(f"no document {doc_id!r} in index {self.index.display}")
        return self.index.document(doc_id)

    def clause(self, clause_id: str) -> Clause:
        return self.clauses([clause_id])[0]

    def has_clause(self, clause_id: str) -> bool:
        return bool(self.index._query(
            "SELECT 1 FROM clauses WHERE workspace = %s AND clause_id = %s",
            (self.index.workspace, clause_id)))

    def clauses(self, clause_ids: Sequence[str]) -> list[Clause]:
        found = self.index.clauses(clause_ids)
        missing = [c for c in clause_ids if c not in found]
        if missing:
            raise NotFoundError(f"no clause {missing[0]!r} in index {self.index.display}")
        return [found[c] for c in clause_ids]

    def document_clauses(self, doc_id: str) -> list[Clause]:
        return self.index.clauses_of(doc_id)

    def clause_ids(self, doc_ids: Sequence[str] | None = None) -> list[str]:
        rows = self.index._query(
            "SELECT c.clause_id FROM clauses c JOIN documents d USING (workspace, doc_id) "
            "WHERE c.workspace = %(ws)s {} ORDER BY d.seq, c.ord".format(
                "AND c.doc_id = ANY(%(docs)s)" if doc_ids is not None else ""),
            {"ws": self.index.workspace, "docs": list(doc_ids or [])})
        return [r[0] for r in rows]

    def count(self) -> int:
        return self.index.clause_count()


class PostgresLexical(LexicalIndex):
    def __init__(self, index: PostgresIndex) -> None:
        self.index = index

    def vocabulary_has(self, token: str) -> bool:
        return bool(self.index._query(
            "SELECT 1 FROM term_stats WHERE workspace = %s AND field = 'clause' AND term = %s",
            (self.index.workspace, token)))

    def top(self, tokens: Sequence[str], k: int, doc_ids: Sequence[str] | None = None) -> ScoredIds:
        hits = self.index.bm25_top(tokens, doc_ids, k)
        return [c for c, _ in hits], np.array([s for _, s in hits], dtype=np.float64)

    def scores(self, tokens: Sequence[str], clause_ids: Sequence[str]) -> np.ndarray:
        scores = self.index.bm25_scores(tokens, clause_ids)
        return np.array([scores[c] for c in clause_ids], dtype=np.float64)


class PostgresVectors(VectorIndex):
    def __init__(self, index: PostgresIndex) -> None:
        self.index = index

    @property
    def dim(self) -> int:
        return self.index.dim

    def search(self, vector: np.ndarray, k: int,
               doc_ids: Sequence[str] | None = None) -> ScoredIds:
        hits = self.index.dense_top(vector, doc_ids, k)
        return [c for c, _ in hits], np.array([s for _, s in hits], dtype=np.float32)

    def vectors(self, clause_ids: Sequence[str]) -> np.ndarray:
        return self.index.embeddings(list(clause_ids))


class PostgresGraph(GraphStore):
    def __init__(self, index: PostgresIndex) -> None:
        self.index = index
        self._centrality = lru_cache(maxsize=4096)(self._load_centrality)

    def document_edges(self, doc_id: str) -> list[Edge]:
        return self.index.graph(doc_id).edges

    def unresolved(self, doc_id: str) -> list[Any]:
        return self.index.graph(doc_id).unresolved

    def out_edges(self, clause_id: str) -> list[Edge]:
        return self.index.incident_edges(clause_id, "out")

    def in_edges(self, clause_id: str) -> list[Edge]:
        return self.index.incident_edges(clause_id, "in")

    def centrality(self, doc_id: str) -> dict[str, float]:
        return self._centrality(doc_id)

    def _load_centrality(self, doc_id: str) -> dict[str, float]:
        rows = self.index._query(
            "SELECT clause_id, centrality FROM clauses WHERE workspace = %s AND doc_id = %s "
            "AND centrality > 0", (self.index.workspace, doc_id))
        return {c: float(v) for c, v in rows}

    def walks(self, starts: dict[str, float],
              config: RetrievalConfig) -> list[tuple[str, str, float, tuple[Edge, ...]]]:
        """Every seed's breadth-first typed walk in one recursive query."""
        from clausegraph.retrieve.hybrid import _WALK_DIRECTIONS

        directions = {t.value: _WALK_DIRECTIONS[t] for t in config.edge_types}
        return [(seed, node, strength, tuple(path)) for seed, node, strength, path in
                self.index.expand(starts, directions, config.hops, config.min_edge_confidence,
                                  config.path_decay)]


class PostgresReader(IndexReader):
    """A reader over one workspace of a ClauseGraph database."""

    def __init__(self, url: str, snapshot_seconds: float = SNAPSHOT_SECONDS) -> None:
        self.index = PostgresIndex(url, snapshot_seconds=snapshot_seconds)
        self.index.check_schema()
        self.index._query("SELECT 1")  # takes the snapshot now: the reader reads as of now
        self.clauses = PostgresClauses(self.index)
        self.lexical = PostgresLexical(self.index)
        self.vectors = PostgresVectors(self.index)
        self.graph = PostgresGraph(self.index)

    @property
    def location(self) -> str:
        return self.index.display

    @property
    def embedding_model(self) -> str:
        return self.index.embedding_model

    def entries(self) -> dict[str, DocumentEntry]:
        return {k: DocumentEntry.model_validate(v) for k, v in
                self.index.document_entries().items()}

    def info(self) -> dict[str, Any]:
        return self.index.info()

    def document_scoper(self, min_margin: float) -> Any:
        from clausegraph.store.postgres.scope import PostgresScoper

        return PostgresScoper(self.index, min_margin)

    def close(self) -> None:
        self.index.close()
