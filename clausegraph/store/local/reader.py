"""The local folder index opened for reading: clauses and edges parsed on demand, bm25s, vectors.

One :class:`FolderReader` is a consistent snapshot: it reads the manifest once and then
only the immutable files that manifest names, so a concurrent writer never changes it.
The stored clause and edge files are read when the reader opens and parsed per document
when first needed (a bounded number kept parsed); the bm25s index (and the library behind
it) and the vectors only when a search first needs them, so ``show`` stays fast. The files of
the global folder are opened with the snapshot, so a later search still reads this
generation after a writer has committed a newer one and collected its folder.
"""

from __future__ import annotations

import json
import tempfile
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import accumulate, pairwise
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from clausegraph.errors import IndexStoreError, NotFoundError
from clausegraph.models import Clause, Document, DocumentGraph, Edge, RelationType
from clausegraph.store.base import (
    ClauseStore,
    DocumentEntry,
    GraphStore,
    IndexReader,
    LexicalIndex,
    ScoredIds,
    VectorIndex,
    degree_centrality,
    degree_centrality_of,
)


class StoredFiles(Protocol):
    """What a reader reads an index folder through (``FolderStore`` implements it; the
    reader does not import the writer, which opens readers)."""

    root: Path

    @property
    def location(self) -> str: ...

    def read_manifest(self) -> dict[str, Any]: ...

    def read_document(self, doc_id: str) -> Document: ...

    def read_file(self, doc_id: str, name: str) -> bytes: ...

    def read_embeddings(self, doc_id: str) -> np.ndarray: ...


class ParsedCache:
    """Documents parsed from their stored JSON, the most recently used kept while their
    total weight (models held) stays within a budget.

    Why: the full LegalBench-RAG corpus is 108k clauses and 463k edges; as pydantic models
    they took 1.2 GB in every process that opened the index, when one question reads a few
    clauses in each of a hundred documents. The JSON bytes stay in memory (read at open, so
    the snapshot holds even after a writer removes a document's folder) and are parsed
    again if an evicted document is needed. An item may grow after it is handed out (a
    document's clauses are validated one by one), so its weight is taken again whenever
    it is asked for.
    """

    def __init__(self, parse: Callable[[str], Any], weight: Callable[[Any], int],
                 budget: int) -> None:
        self._parse, self._weight, self.budget = parse, weight, budget
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._weights: dict[str, int] = {}
        self._held = 0
        self._lock = threading.Lock()

    @property
    def held(self) -> int:
        return self._held

    def get(self, doc_id: str) -> Any:
        # one lock: the web server's threads share a reader, and a document evicted between
        # another thread's lookup and its move_to_end would be a KeyError
        with self._lock:
            if doc_id in self._items:
                self._items.move_to_end(doc_id)
            else:
                self._items[doc_id] = self._parse(doc_id)
            item = self._items[doc_id]
            weight = self._weight(item)
            self._held += weight - self._weights.get(doc_id, 0)
            self._weights[doc_id] = weight
            while self._held > self.budget and len(self._items) > 1:
                old, _ = self._items.popitem(last=False)
                self._held -= self._weights.pop(old)
            return item

    def __contains__(self, doc_id: str) -> bool:
        return doc_id in self._items


class _DocumentClauses:
    """One document's stored clauses, each decoded and validated when first asked for.

    A question reads a few clauses in each of many documents; decoding a whole
    ``clauses.json`` for each (texts, spans, entities of every clause) cost more than the
    rest of the search on the full corpus. Each clause object of the stored list starts
    with its ``"clause_id"`` key (the model's first field; a quote inside a string is
    escaped, so the marker cannot occur in one), which cuts the bytes into clauses
    without decoding them. Bytes that do not cut into the expected count are decoded whole.
    """

    _MARKER = b'{"clause_id":'
    _decoder = json.JSONDecoder()

    def __init__(self, raw: bytes, ids: list[str], location: str, doc_id: str) -> None:
        self.raw, self.ids, self.location, self.doc_id = raw, ids, location, doc_id
        self.models: dict[int, Clause] = {}
        self.starts = self._cut(raw)
        self.decoded: list[Any] | None = None
        if len(self.starts) != len(ids):
            self.decoded = self._json(raw.decode("utf-8"), whole=True)

    def _cut(self, raw: bytes) -> list[int]:
        starts, at = [], raw.find(self._MARKER)
        while at >= 0:
            starts.append(at)
            at = raw.find(self._MARKER, at + len(self._MARKER))
        return starts

    def _json(self, text: str, whole: bool = False) -> Any:
        try:
            return json.loads(text) if whole else self._decoder.raw_decode(text)[0]
        except ValueError as exc:
            raise self._damaged(exc) from exc

    def _damaged(self, problem: Exception) -> IndexStoreError:
        return IndexStoreError(self.location, f"damaged index files (docs/{self.doc_id}/"
                               f"clauses.json: {problem})")

    def _item(self, offset: int) -> Any:
        if self.decoded is not None:
            return self.decoded[offset]
        end = self.starts[offset + 1] if offset + 1 < len(self.starts) else len(self.raw)
        return self._json(self.raw[self.starts[offset]:end].decode("utf-8"))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def weight(self) -> int:
        """Models held, and the offsets (about one model's memory per 50 clauses)."""
        return len(self.models) + len(self.ids) // 50 + 1

    def at(self, offset: int) -> Clause:
        if offset not in self.models:
            try:
                clause = Clause.model_validate(self._item(offset))
            except ValueError as exc:
                raise self._damaged(exc) from exc
            if clause.clause_id != self.ids[offset]:
                raise IndexStoreError(self.location, "global index does not match the stored "
                                      f"clauses of document {self.doc_id}")
            self.models[offset] = clause
        return self.models[offset]

    def all(self) -> list[Clause]:
        return [self.at(i) for i in range(len(self.ids))]


class LocalClauses(ClauseStore):
    """Every clause id in one list, in document order; documents by id; the clauses
    themselves parsed per document on first use (:class:`ParsedCache`).

    Positions (``position``, ``doc_ranges``, ``positions``) and the list protocol
    (``len``, iteration) are this backend's own and serve its lexical and vector indexes; code above
    the store speaks clause ids.
    """

    #: clauses kept parsed: a fifth of the full LegalBench-RAG corpus, every clause of a
    #: few-hundred-document index
    CACHE_CLAUSES = 20_000

    def __init__(self, location: str, load: Callable[[str], bytes],
                 cache_clauses: int = CACHE_CLAUSES) -> None:
        self.location = location
        self.by_doc: dict[str, Document] = {}
        self.ids: list[str] = []
        self.doc_ranges: dict[str, tuple[int, int]] = {}
        self.position: dict[str, int] = {}
        self._doc_at_start: list[str] = []
        self._starts: list[int] = []
        self.parsed = ParsedCache(self._of_document, lambda d: d.weight, cache_clauses)
        self._load = load

    def add(self, document: Document, clause_ids: list[str]) -> None:
        start = len(self.ids)
        self.by_doc[document.doc_id] = document
        self.ids += clause_ids
        self.doc_ranges[document.doc_id] = (start, len(self.ids))
        if clause_ids:
            self._starts.append(start)
            self._doc_at_start.append(document.doc_id)

    def finish(self) -> None:
        self.position = {clause_id: i for i, clause_id in enumerate(self.ids)}

    def _of_document(self, doc_id: str) -> _DocumentClauses:
        start, end = self.doc_ranges[doc_id]
        return _DocumentClauses(self._load(doc_id), self.ids[start:end], self.location, doc_id)

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[Clause]:
        """Every clause, document by document (each parsed in turn)."""
        for doc_id in self.by_doc:
            yield from self.document_clauses(doc_id)

    def document_ids(self) -> list[str]:
        return list(self.by_doc)

    def document(self, doc_id: str) -> Document:
        if doc_id not in self.by_doc:
            raise NotFoundError(f"no document {doc_id!r} in index {self.location}")
        return self.by_doc[doc_id]

    def documents(self) -> dict[str, Document]:
        return dict(self.by_doc)

    def doc_id_of(self, clause_id: str) -> str:
        """The document of a clause, without parsing its clauses."""
        if clause_id not in self.position:
            raise NotFoundError(f"no clause {clause_id!r} in index {self.location}")
        return self._doc_at_start[bisect_right(self._starts, self.position[clause_id]) - 1]

    def clause(self, clause_id: str) -> Clause:
        doc_id = self.doc_id_of(clause_id)
        return self.parsed.get(doc_id).at(self.position[clause_id] - self.doc_ranges[doc_id][0])

    def has_clause(self, clause_id: str) -> bool:
        return clause_id in self.position

    def clauses(self, clause_ids: Sequence[str]) -> list[Clause]:
        return [self.clause(c) for c in clause_ids]

    def document_clauses(self, doc_id: str) -> list[Clause]:
        start, end = self.doc_ranges[doc_id]
        return self.parsed.get(doc_id).all() if end > start else []

    def clause_ids(self, doc_ids: Sequence[str] | None = None) -> list[str]:
        if doc_ids is None:
            return list(self.ids)
        return [c for d in doc_ids for c in self.ids[slice(*self.doc_ranges[d])]]

    def count(self) -> int:
        return len(self.ids)

    def positions(self, doc_ids: Sequence[str] | None) -> np.ndarray | None:
        """Row positions of ``doc_ids`` (None = every row), in document order."""
        if doc_ids is None:
            return None
        spans = [np.arange(*self.doc_ranges[d]) for d in doc_ids]
        return np.concatenate(spans) if spans else np.zeros(0, dtype=np.int64)

    def ids_at(self, positions: np.ndarray) -> list[str]:
        return [self.ids[int(p)] for p in positions]


class LocalLexical(LexicalIndex):
    """bm25s over every clause, loaded on first use; scores for a query are computed once
    and reused."""

    def __init__(self, load: Callable[[], Any], clauses: LocalClauses) -> None:
        self._load = load
        self._bm25: Any = None
        self._loaded = False
        self._clauses = clauses
        self._last: tuple[tuple[str, ...], np.ndarray] | None = None

    @property
    def loaded(self) -> bool:
        return self._loaded

    @property
    def bm25(self) -> Any:
        """The ``bm25s.BM25`` index (None for an empty index)."""
        if not self._loaded:
            self._bm25, self._loaded = self._load(), True
        return self._bm25

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
    """Every clause vector in one (n, dim) float32 matrix, loaded on first use.

    A search is one exact matrix-vector product: the same inner products a FAISS flat index
    computes, without a 65 MB library for what NumPy does in a few milliseconds even on the
    full corpus (scripts/scale_run.py).
    """

    def __init__(self, load: Callable[[], np.ndarray], clauses: LocalClauses, dim: int) -> None:
        self._load = load
        self._matrix: np.ndarray | None = None
        self._clauses = clauses
        self._dim = dim

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def loaded(self) -> bool:
        return self._matrix is not None

    @property
    def matrix(self) -> np.ndarray:
        """All clause vectors, row ``i`` = the clause at position ``i``."""
        if self._matrix is None:
            self._matrix = self._load()
        return self._matrix

    def at(self, positions: np.ndarray) -> np.ndarray:
        return self.matrix[np.asarray(positions, dtype=np.int64)]

    def search(self, vector: np.ndarray, k: int, doc_ids: Sequence[str] | None = None) -> ScoredIds:
        positions = self._clauses.positions(doc_ids)
        candidates = self.matrix if positions is None else self.at(positions)
        if not len(candidates):
            return [], np.zeros(0, dtype=np.float32)
        scores = candidates @ vector.astype(np.float32)
        order = np.argsort(-scores)[:k]
        return self._clauses.ids_at(order if positions is None else positions[order]), scores[order]

    def vectors(self, clause_ids: Sequence[str]) -> np.ndarray:
        positions = np.array([self._clauses.position[c] for c in clause_ids], dtype=np.int64)
        return self.at(positions) if len(positions) else np.zeros((0, self._dim), np.float32)


@dataclass
class _DocumentEdges:
    """One document's stored graph and its adjacency maps (source -> target -> type)."""

    graph: DocumentGraph
    succ: dict[str, dict[str, dict[RelationType, Edge]]] = field(default_factory=dict)
    pred: dict[str, dict[str, dict[RelationType, Edge]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for edge in self.graph.edges:
            # keyed by the enum member: ``.value`` is a slow property on every edge
            self.succ.setdefault(edge.source, {}).setdefault(edge.target, {})[edge.type] = edge
            self.pred.setdefault(edge.target, {}).setdefault(edge.source, {})[edge.type] = edge


class LocalGraph(GraphStore):
    """Per-document edge lists, parsed with their adjacency maps on first use.

    Adjacency keeps one edge per (source, target, type), the last one stored, and lists
    neighbours in the order their first edge was stored: the order networkx's
    ``MultiDiGraph`` gave, so rankings are unchanged by the move to this interface.
    """

    #: edges kept parsed (the full LegalBench-RAG corpus has 463k)
    CACHE_EDGES = 100_000

    def __init__(self, parse: Callable[[str], DocumentGraph], clauses: LocalClauses,
                 decode: Callable[[str], dict[str, Any]], cache_edges: int = CACHE_EDGES) -> None:
        self._clauses = clauses
        self._decode = decode
        self.parsed = ParsedCache(lambda d: _DocumentEdges(parse(d)),
                                   lambda e: len(e.graph.edges) + 1, cache_edges)
        self._centrality: dict[str, dict[str, float]] = {}

    def document_edges(self, doc_id: str) -> list[Edge]:
        return list(self.parsed.get(doc_id).graph.edges)

    def unresolved(self, doc_id: str) -> list[Any]:
        return list(self.parsed.get(doc_id).graph.unresolved)

    def out_edges(self, clause_id: str) -> list[Edge]:
        edges = self.parsed.get(self._clauses.doc_id_of(clause_id))
        targets = edges.succ.get(clause_id, {})
        return [edge for by_type in targets.values() for edge in by_type.values()]

    def in_edges(self, clause_id: str) -> list[Edge]:
        edges = self.parsed.get(self._clauses.doc_id_of(clause_id))
        sources = edges.pred.get(clause_id, {})
        return [edge for by_type in sources.values() for edge in by_type.values()]

    def centrality(self, doc_id: str) -> dict[str, float]:
        if doc_id not in self._centrality:
            self._centrality[doc_id] = self._degree_centrality(doc_id)
        return self._centrality[doc_id]

    def _degree_centrality(self, doc_id: str) -> dict[str, float]:
        """From the parsed edges if at hand, else from the decoded JSON: a question needs
        the centrality of clauses in many documents, the edges of only a few."""
        if doc_id in self.parsed:
            return degree_centrality(self.parsed.get(doc_id).graph.edges)
        same_section = RelationType.SAME_SECTION.value
        return degree_centrality_of((e["source"], e["target"])
                                    for e in self._decode(doc_id)["edges"]
                                    if e["type"] != same_section)


class FolderReader(IndexReader):
    """An index folder loaded for reading (see :mod:`clausegraph.store.local.folder`)."""

    def __init__(self, store: StoredFiles, cache_clauses: int = LocalClauses.CACHE_CLAUSES,
                 cache_edges: int = LocalGraph.CACHE_EDGES) -> None:
        self.store = store
        self.manifest = store.read_manifest()
        global_name = self.manifest["global"]
        self.global_dir = store.root / global_name if global_name else None
        doc_ids = list(self.manifest["documents"])
        with self._reading():
            documents = [store.read_document(d) for d in doc_ids]
            # the bytes, not the models: parsed per document when a search needs them
            self._clause_json = {d: store.read_file(d, "clauses.json") for d in doc_ids}
            self._graph_json = {d: store.read_file(d, "graph.json") for d in doc_ids}
            self._pinned = self._pin_global()
            stored_ids = (json.loads(self._pinned_bytes("clause_ids.json"))
                          if self.global_dir else [])
        self.clauses = LocalClauses(store.location, self._clause_json.__getitem__, cache_clauses)
        for document, ids in zip(documents, self._split_ids(doc_ids, stored_ids)):
            self.clauses.add(document, ids)
        self.clauses.finish()
        self.lexical = LocalLexical(self._load_bm25, self.clauses)
        self.vectors = LocalVectors(self._load_vectors, self.clauses, int(self.manifest.get("dim", 0)))
        self.graph = LocalGraph(self._parse_graph, self.clauses, self._decode_graph, cache_edges)

    def _split_ids(self, doc_ids: list[str], stored_ids: list[str]) -> list[list[str]]:
        """The global clause ids cut into documents by the clause counts the manifest
        records (every index has); each clause's id is checked against its place when the
        clause is parsed."""
        counts = [int(self.manifest["documents"][d].get("clauses", 0)) for d in doc_ids]
        if sum(counts) != len(stored_ids):
            raise IndexStoreError(self.store.root, "global index does not match the stored clauses")
        bounds = [0, *accumulate(counts)]
        return [stored_ids[a:b] for a, b in pairwise(bounds)]

    def _decode_graph(self, doc_id: str) -> dict[str, Any]:
        with self._reading():
            return json.loads(self._graph_json[doc_id])

    def _parse_graph(self, doc_id: str) -> DocumentGraph:
        with self._reading():
            return DocumentGraph.model_validate_json(self._graph_json[doc_id])

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Index files that cannot be read become one clear ``IndexStoreError``."""
        try:
            yield
        except PermissionError as exc:
            raise IndexStoreError(
                self.store.root, f"permission denied reading {exc.filename or 'the index files'}; "
                "ask its owner to make the index readable"
            ) from exc
        except FileNotFoundError as exc:
            if self._replaced():
                raise IndexStoreError(
                    self.store.root, "another process changed the index while this one was "
                    "reading it; run the command again") from exc
            raise IndexStoreError(self.store.root, f"damaged index files ({exc})") from exc
        except (OSError, ValueError, RuntimeError) as exc:
            raise IndexStoreError(self.store.root, f"damaged index files ({exc})") from exc

    def _replaced(self) -> bool:
        """Whether a writer committed a newer generation since this snapshot was read (and
        may have collected the folders it names)."""
        try:
            return self.store.read_manifest()["generation"] != self.manifest["generation"]
        except IndexStoreError:
            return True

    def _pin_global(self) -> dict[str, Any]:
        """Every file of the global folder, open for reading, by path inside the folder (an
        open file outlives its deletion on POSIX systems)."""
        if self.global_dir is None:
            return {}
        return {path.relative_to(self.global_dir).as_posix(): open(path, "rb")
                for path in sorted(self.global_dir.rglob("*")) if path.is_file()}

    def _pinned_bytes(self, name: str) -> bytes:
        handle = self._pinned[name]
        handle.seek(0)
        return handle.read()

    @contextmanager
    def _global_folder(self) -> Iterator[Path]:
        """The global folder of this snapshot: in place, or, once a writer has collected it,
        a private copy written from the files opened with the snapshot."""
        assert self.global_dir is not None
        if self.global_dir.is_dir():
            yield self.global_dir
            return
        with tempfile.TemporaryDirectory(prefix="clausegraph-snapshot-") as copy:
            for name in self._pinned:
                target = Path(copy) / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(self._pinned_bytes(name))
            yield Path(copy)

    def _release_if_done(self, just_loaded: str) -> None:
        """Close the global files once both indexes they hold are in memory."""
        if (just_loaded == "bm25" or self.lexical.loaded) and \
                (just_loaded == "vectors" or self.vectors.loaded):
            self.close()

    def close(self) -> None:
        for handle in self._pinned.values():
            handle.close()
        self._pinned = {}

    def _load_bm25(self) -> Any:
        if self.global_dir is None:
            return None
        import bm25s

        with self._reading(), self._global_folder() as folder:
            bm25 = bm25s.BM25.load(str(folder / "bm25"))
        self._release_if_done("bm25")
        return bm25

    def _load_vectors(self) -> np.ndarray:
        """``vectors.npy`` of the global folder; indexes written before it existed (they hold
        ``faiss.index``) stack the per-document ``embeddings.npy`` files, the same rows."""
        dim = int(self.manifest.get("dim", 0))
        if self.global_dir is None:
            return np.zeros((0, dim), dtype=np.float32)
        with self._reading(), self._global_folder() as folder:
            if (folder / "vectors.npy").is_file():
                matrix = np.load(folder / "vectors.npy")
            else:
                matrix = np.vstack([self.store.read_embeddings(d) for d in self.manifest["documents"]])
        if matrix.shape != (len(self.clauses), dim):
            raise IndexStoreError(self.store.root, f"damaged index files (vectors of shape "
                                  f"{matrix.shape}, expected {(len(self.clauses), dim)})")
        self._release_if_done("vectors")
        return np.ascontiguousarray(matrix, dtype=np.float32)

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
