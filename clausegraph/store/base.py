"""The storage interface: what retrieval, answers and reports may ask of an index.

Everything speaks clause ids and document ids, never positions in some array, so a
backend may keep its clauses in memory (``store.local``), in PostgreSQL, or anywhere else.
A backend provides two objects (txtai's ``ann``/``scoring``/``graph`` split, in one place):

- an :class:`IndexStore` that writes: it adds and removes whole documents atomically
  (readers never see half a document) and opens readers;
- an :class:`IndexReader`, one consistent snapshot for reading, made of four parts:
  ``clauses`` (:class:`ClauseStore`), ``lexical`` (:class:`LexicalIndex`, BM25 over the
  tokens of :func:`clausegraph.text.tokenize.tokenize`), ``vectors`` (:class:`VectorIndex`,
  inner product of normalised embeddings) and ``graph`` (:class:`GraphStore`, typed edges).

``tests/store/test_contract.py`` is the suite every backend must pass.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from clausegraph.errors import IndexStoreError
from clausegraph.models import Clause, ClauseType, Document, DocumentGraph, Edge, RelationType

# Scores of clauses: parallel arrays of ids and values (no Python dict per clause on hot paths).
ScoredIds = tuple[list[str], np.ndarray]


@dataclass
class DocumentArtifacts:
    """Everything the pipeline produced for one document, ready to be stored."""

    document: Document
    clauses: list[Clause]
    graph: DocumentGraph
    embeddings: np.ndarray
    tokens: list[list[str]] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)  # where the build went
    clause_types_model: str | None = None  # the model that set the clauses' clause_types


# The opening of a document, where contracts and policies introduce their parties and
# document scoping reads its profile (clausegraph/retrieve/scope.py).
OPENING_CHARS = 3000


def opening_parties(clauses: Iterable[Clause]) -> dict[str, str]:
    """Organisation and person names in each document's opening: contracts are called by
    their parties ("the NDA between CEII and ...") as often as by their titles."""
    parties: dict[str, list[str]] = {}
    for clause in clauses:
        if clause.span[0] < OPENING_CHARS:
            parties.setdefault(clause.doc_id, []).extend(
                e.text for e in clause.entities if e.label in ("ORG", "PERSON")
            )
    return {doc_id: " ".join(names) for doc_id, names in parties.items()}


class DocumentEntry(BaseModel):
    """What an index records about one stored document (a row of ``stats``)."""

    model_config = ConfigDict(extra="allow")

    key: str
    source_path: str
    title: str
    media_type: str = "text"
    pages: int = 0
    chars: int = 0
    clauses: int = 0
    edges_by_type: dict[str, int] = Field(default_factory=dict)
    unresolved: int = 0
    ingest_seconds: float = 0.0
    ingested_at: str = ""
    #: organisation and person names in the document's opening, which document scoping
    #: matches questions against (None: an index written before they were recorded)
    parties: str | None = None
    #: the clause-type model that typed the document's clauses (``classify.model_id``);
    #: None: stored before clause types, so its clauses have none until ``reembed``
    clause_types: str | None = None
    #: the segment settings the document was cut with (``SegmentConfig``); None: stored
    #: before they were recorded
    segment_settings: dict[str, Any] | None = None
    #: the digest of the reader and segmenter code that cut it (``segment.version``);
    #: None: stored before it was recorded
    segmenter: str | None = None

    @classmethod
    def of(cls, artifacts: DocumentArtifacts, seconds: float) -> DocumentEntry:
        document = artifacts.document
        return cls(
            key=document.key,
            source_path=os.path.realpath(document.source_path),
            title=document.title,
            media_type=document.media_type,
            pages=len(document.pages),
            chars=len(document.text),
            clauses=len(artifacts.clauses),
            edges_by_type=dict(Counter(e.type.value for e in artifacts.graph.edges)),
            unresolved=len(artifacts.graph.unresolved),
            ingest_seconds=round(seconds, 3),
            ingested_at=datetime.now(UTC).isoformat(timespec="seconds"),
            parties=opening_parties(artifacts.clauses).get(document.doc_id, ""),
            clause_types=artifacts.clause_types_model,
        )


class ClauseStore(ABC):
    """Documents and their clauses, in document order."""

    @abstractmethod
    def document_ids(self) -> list[str]:
        """Ids of the stored documents, in the order they were added."""

    @abstractmethod
    def document(self, doc_id: str) -> Document:
        """The stored document (text, pages, excluded spans); ``NotFoundError`` if absent."""

    @abstractmethod
    def clause(self, clause_id: str) -> Clause:
        """One clause; ``NotFoundError`` naming the id and index if absent."""

    @abstractmethod
    def clauses(self, clause_ids: Sequence[str]) -> list[Clause]:
        """The clauses with these ids, in the order asked."""

    @abstractmethod
    def document_clauses(self, doc_id: str) -> list[Clause]:
        """All clauses of one document, in document order."""

    @abstractmethod
    def clause_ids(self, doc_ids: Sequence[str] | None = None) -> list[str]:
        """Ids of all clauses (of ``doc_ids`` only, if given), in document order."""

    @abstractmethod
    def count(self) -> int:
        """Number of clauses."""

    def has_clause(self, clause_id: str) -> bool:
        from clausegraph.errors import NotFoundError

        try:
            self.clause(clause_id)
        except NotFoundError:
            return False
        return True

    def documents(self) -> dict[str, Document]:
        """Every stored document by id (a backend with many documents may override this)."""
        return {doc_id: self.document(doc_id) for doc_id in self.document_ids()}


class LexicalIndex(ABC):
    """BM25 over clause tokens (bm25s' Robertson variant: k1 = 1.5, b = 0.75)."""

    @abstractmethod
    def vocabulary_has(self, token: str) -> bool:
        """Whether any clause contains ``token`` (query tokens not in the index are dropped)."""

    @abstractmethod
    def top(self, tokens: Sequence[str], k: int, doc_ids: Sequence[str] | None = None) -> ScoredIds:
        """The ``k`` best clauses with a positive score, best first, within ``doc_ids``."""

    @abstractmethod
    def scores(self, tokens: Sequence[str], clause_ids: Sequence[str]) -> np.ndarray:
        """The BM25 score of each of ``clause_ids`` (0 where no token matches)."""


class VectorIndex(ABC):
    """Normalised clause embeddings searched by inner product (= cosine)."""

    @property
    @abstractmethod
    def dim(self) -> int:
        """Dimension of the stored vectors."""

    @abstractmethod
    def search(
        self, vector: np.ndarray, k: int, doc_ids: Sequence[str] | None = None
    ) -> ScoredIds:
        """The ``k`` nearest clauses to ``vector``, best first, within ``doc_ids``."""

    @abstractmethod
    def vectors(self, clause_ids: Sequence[str]) -> np.ndarray:
        """The stored vectors of ``clause_ids`` as an (n, dim) float32 array."""


class GraphStore(ABC):
    """The typed clause graph; edges never cross documents."""

    @abstractmethod
    def document_edges(self, doc_id: str) -> list[Edge]:
        """All edges of one document."""

    @abstractmethod
    def out_edges(self, clause_id: str) -> list[Edge]:
        """Edges whose source is ``clause_id``."""

    @abstractmethod
    def in_edges(self, clause_id: str) -> list[Edge]:
        """Edges whose target is ``clause_id``."""

    @abstractmethod
    def centrality(self, doc_id: str) -> dict[str, float]:
        """Log-scaled degree over non-SameSection edges, in [0, 1], by clause id."""

    def unresolved(self, doc_id: str) -> list[Any]:
        """References that name no clause (e.g. "Section 99"), if the backend keeps them."""
        return []

    def walks(self, starts: dict[str, float], config: Any) -> list[Any] | None:
        """All typed walks from ``starts`` (clause id -> strength) in one call, as
        (start, clause id, strength, edges) in the order the breadth-first walk of
        :func:`clausegraph.retrieve.hybrid.walk` yields them; None (the default): the
        retriever walks edge by edge through ``out_edges``/``in_edges``."""
        return None


def degree_centrality(edges: Sequence[Edge]) -> dict[str, float]:
    """Degree over meaningful edges (SameSection excluded), log-scaled to [0, 1].

    Log scaling: a definition used 300 times should not drown everything else. Shared by
    every backend so that rankings do not depend on where the graph is kept.
    """
    return degree_centrality_of((e.source, e.target) for e in edges
                                if e.type is not RelationType.SAME_SECTION)


def degree_centrality_of(pairs: Iterable[tuple[str, str]]) -> dict[str, float]:
    """:func:`degree_centrality` of (source, target) pairs already stripped of SameSection."""
    degree: dict[str, int] = {}
    for source, target in pairs:
        degree[source] = degree.get(source, 0) + 1
        degree[target] = degree.get(target, 0) + 1
    top = max(degree.values(), default=0)
    scale = float(np.log1p(top)) or 1.0
    return {k: float(np.log1p(v) / scale) for k, v in degree.items()}


class IndexReader(ABC):
    """One consistent snapshot of an index, for reading."""

    clauses: ClauseStore
    lexical: LexicalIndex
    vectors: VectorIndex
    graph: GraphStore

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the index lives (a folder, a database URL without its password)."""

    @property
    @abstractmethod
    def embedding_model(self) -> str:
        """Name of the model that embedded the clauses."""

    @abstractmethod
    def entries(self) -> dict[str, DocumentEntry]:
        """What the index records about each document, by doc id, as of this snapshot."""

    @abstractmethod
    def info(self) -> dict[str, Any]:
        """Index-wide facts recorded with reports (format, version, generation, model ...)."""

    def document_scoper(self, min_margin: float) -> Any:
        """A scoper that finds named documents without loading them (a database does it
        in queries); None (the default): the retriever builds the in-memory one."""
        return None

    def close(self) -> None:
        """Release connections or files (no-op for in-memory readers)."""


class IndexStore(ABC):
    """Writes an index: whole documents in, whole documents out, atomically.

    Ingest calls ``stage`` once per built document (so a large batch never holds every
    document's vectors in memory), then ``commit`` once: documents staged and listed in
    ``add`` become visible together with the removal of ``remove``. A backend that
    commits each document in its own transaction (PostgreSQL) may make a staged document
    visible at once; it must still never show half a document.
    """

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the index lives (a folder, or a database URL without its password)."""

    @abstractmethod
    def exists(self) -> bool:
        """Whether an index is there."""

    @abstractmethod
    def ensure_writable(self) -> None:
        """Refuse a location that holds something else (a backend may create the index
        only at the first commit, so that a failed first ingest leaves nothing behind)."""

    @abstractmethod
    def check_readable(self) -> None:
        """Raise ``IndexStoreError`` with a clear message if there is no usable index."""

    @abstractmethod
    def write_lock(
        self, wait_seconds: float | None = None, on_wait: Callable[[str], None] | None = None
    ) -> AbstractContextManager[None]:
        """Exclusive right to change the index: another writer waits up to ``wait_seconds``
        (``on_wait`` is told once, so a person sees why nothing happens), then fails with
        an ``IndexStoreError`` naming ``--wait``."""

    @abstractmethod
    def entries(self) -> dict[str, DocumentEntry]:
        """The documents stored now, by doc id (read fresh, not from a snapshot)."""

    @abstractmethod
    def info(self) -> dict[str, Any]:
        """Index-wide facts: format, version, generation, embedding model, dim."""

    @abstractmethod
    def stage(self, artifacts: DocumentArtifacts) -> None:
        """Write one document's data; it becomes visible at ``commit``."""

    @abstractmethod
    def commit(self, add: Sequence[tuple[str, DocumentEntry]], remove: Sequence[str],
               embedding_model: str = "", dim: int = 0, embedding_fingerprint: str = "") -> None:
        """Make ``add`` (staged doc ids and their entries) visible and drop ``remove``,
        in one atomic step. Call inside ``write_lock()``. A new index records the embedding
        model, its dimension and its fingerprint (see :mod:`clausegraph.embed.base`)."""

    def replace_embeddings(self, vectors: Mapping[str, np.ndarray], embedding_model: str,
                           dim: int, embedding_fingerprint: str) -> None:
        """Swap every document's clause vectors for ``vectors`` (by doc id, rows in clause
        order) and record the new model. Call inside ``write_lock()``."""
        raise IndexStoreError(self.location, "this index backend cannot re-embed; re-ingest "
                              "the documents into a new index")

    def replace_clause_types(self, types: Mapping[str, list[list[ClauseType]]],
                             model: str | None) -> None:
        """Swap every document's clause types for ``types`` (by doc id, one list per clause
        in clause order) and record ``model`` in its entry. Call inside ``write_lock()``."""
        raise IndexStoreError(self.location, "this index backend cannot store new clause "
                              "types; re-ingest the documents into a new index")

    @abstractmethod
    def open_reader(self) -> IndexReader:
        """A reader over the current state; ``IndexStoreError`` if there is no index."""

    def cache_dir(self) -> Path | None:
        """A folder for caches that belong to this index (LLM relations), if any."""
        return None

    def remove_if_unused(self) -> None:
        """Remove what ``write_lock``/``stage`` created if no index was committed."""


def iter_edges(graph: GraphStore, clause_id: str) -> Iterator[tuple[str, Edge, str]]:
    """(neighbour, edge, direction) for every edge touching ``clause_id``."""
    for edge in graph.out_edges(clause_id):
        yield edge.target, edge, "out"
    for edge in graph.in_edges(clause_id):
        yield edge.source, edge, "in"
