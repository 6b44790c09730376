"""The persisted index: clause store, BM25, FAISS and the clause graph in one directory.

Layout of an index directory::

    clausegraph-index.json        manifest: format, version, generation, documents
    docs/<doc_id>/                one immutable folder per document
        document.json clauses.json graph.json tokens.json embeddings.npy
    global-<generation>/          indexes over all clauses, rebuilt on every change
        bm25/ faiss.index clause_ids.json

Why this shape: a document's folder is written once and never changed, so adding or
removing a document never re-embeds the others; the global folder is cheap to rebuild
from the per-document files. A change becomes visible only when the manifest is
replaced (``os.replace`` is atomic), so a crash at any earlier point leaves the
previous index loadable; unreferenced folders are garbage-collected afterwards.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.errors import IndexStoreError
from clausegraph.models import Clause, Document, DocumentGraph, RelationType

MANIFEST_NAME = "clausegraph-index.json"
INDEX_FORMAT = "clausegraph-index"
INDEX_VERSION = 1

_WORD = re.compile(r"[a-z0-9]+")
# A short list on purpose: legal words like "not", "any", "no", "all", "shall" carry meaning.
_STOPWORDS = frozenset(
    "a an and are as at be by for from has have in is it its of on or that the this to was "
    "were will with which who whom whose what when where how does do did i we you".split()
)


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    """BM25 tokens: lower-cased words and numbers, stop words dropped, Snowball-stemmed.

    >>> tokenize("The Insured Persons are covered")
    ['insur', 'person', 'cover']
    """
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]
    return _stemmer().stemWords(words)


@dataclass
class DocumentArtifacts:
    """Everything the pipeline produced for one document, ready to be stored."""

    document: Document
    clauses: list[Clause]
    graph: DocumentGraph
    embeddings: np.ndarray
    tokens: list[list[str]] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)  # where the build went


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class IndexStore:
    """Reads and atomically rewrites one index directory.

    >>> store = IndexStore("my-index")  # doctest: +SKIP
    >>> store.commit(add=[artifacts], remove=[])  # doctest: +SKIP
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST_NAME

    def exists(self) -> bool:
        return self.manifest_path.is_file()

    def read_manifest(self) -> dict[str, Any]:
        """The current manifest; a clear error if the folder is not a ClauseGraph index."""
        if not self.root.exists():
            raise IndexStoreError(self.root, "does not exist; create it with 'clausegraph ingest'")
        if not self.root.is_dir():
            raise IndexStoreError(self.root, "is not a directory")
        if not self.manifest_path.is_file():
            raise IndexStoreError(
                self.root, f"is not a ClauseGraph index (no {MANIFEST_NAME}); "
                "create one with 'clausegraph ingest PATH --index DIR'"
            )
        try:
            manifest = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise IndexStoreError(self.root, f"unreadable manifest ({exc})") from exc
        if not isinstance(manifest, dict) or manifest.get("format") != INDEX_FORMAT:
            raise IndexStoreError(self.root, "manifest is not a ClauseGraph index manifest")
        if manifest.get("version") != INDEX_VERSION:
            raise IndexStoreError(
                self.root,
                f"index version {manifest.get('version')} is not supported "
                f"(this ClauseGraph reads version {INDEX_VERSION}); re-ingest the documents",
            )
        return manifest

    def empty_manifest(self, embedding_model: str, dim: int) -> dict[str, Any]:
        return {
            "format": INDEX_FORMAT,
            "version": INDEX_VERSION,
            "generation": 0,
            "embedding_model": embedding_model,
            "dim": dim,
            "documents": {},
            "global": None,
        }

    def ensure_writable(self) -> None:
        """Create the folder for a new index; refuse a non-empty folder that is not one."""
        if self.root.exists() and not self.root.is_dir():
            raise IndexStoreError(self.root, "exists and is not a directory")
        if self.root.is_dir() and not self.exists():
            foreign = [p.name for p in self.root.iterdir() if not p.name.startswith(".")]
            if foreign:
                raise IndexStoreError(
                    self.root, "is a non-empty folder that is not a ClauseGraph index; "
                    "choose an empty or new folder"
                )
        self.root.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def write_lock(self) -> Iterator[None]:
        """One writer at a time; readers never block because they read a manifest snapshot."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise IndexStoreError(self.root, "another process is writing this index") from exc
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # -- per-document folders ---------------------------------------------------------

    def doc_dir(self, doc_id: str) -> Path:
        return self.root / "docs" / doc_id

    def write_document(self, artifacts: DocumentArtifacts) -> None:
        """Write one document's folder under a temporary name, then rename it into place."""
        final = self.doc_dir(artifacts.document.doc_id)
        if final.is_dir():
            return  # content-addressed: the same bytes were stored before
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{final.name}-", dir=final.parent))
        _write_json(tmp / "document.json", artifacts.document.model_dump(mode="json"))
        _write_json(tmp / "clauses.json", [c.model_dump(mode="json") for c in artifacts.clauses])
        _write_json(tmp / "graph.json", artifacts.graph.model_dump(mode="json"))
        _write_json(tmp / "tokens.json", artifacts.tokens)
        np.save(tmp / "embeddings.npy", artifacts.embeddings.astype(np.float32))
        os.replace(tmp, final)

    def read_document(self, doc_id: str) -> Document:
        return Document.model_validate_json((self.doc_dir(doc_id) / "document.json").read_bytes())

    def read_clauses(self, doc_id: str) -> list[Clause]:
        raw = json.loads((self.doc_dir(doc_id) / "clauses.json").read_bytes())
        return [Clause.model_validate(item) for item in raw]

    def read_clause_ids(self, doc_id: str) -> list[str]:
        """The clause ids alone, without validating whole clauses (global rebuilds need only these)."""
        raw = json.loads((self.doc_dir(doc_id) / "clauses.json").read_bytes())
        return [item["clause_id"] for item in raw]

    def read_graph(self, doc_id: str) -> DocumentGraph:
        return DocumentGraph.model_validate_json((self.doc_dir(doc_id) / "graph.json").read_bytes())

    def read_tokens(self, doc_id: str) -> list[list[str]]:
        return json.loads((self.doc_dir(doc_id) / "tokens.json").read_bytes())

    def read_embeddings(self, doc_id: str) -> np.ndarray:
        return np.load(self.doc_dir(doc_id) / "embeddings.npy")

    # -- commit -------------------------------------------------------------------------

    def commit(
        self,
        manifest: dict[str, Any],
        add: list[tuple[str, dict[str, Any]]],
        remove: list[str],
    ) -> dict[str, Any]:
        """Switch to a new generation: documents in ``add`` in, documents in ``remove`` out.

        ``add`` pairs a doc id whose folder was already written (``write_document``) with
        its manifest entry. Nothing is visible to readers until the manifest is replaced.
        Call inside ``write_lock()``. Returns the new manifest.
        """
        dropped = set(remove)
        documents = {k: v for k, v in manifest["documents"].items() if k not in dropped}
        for doc_id, entry in add:
            documents[doc_id] = entry
        new = dict(manifest, documents=documents, generation=manifest["generation"] + 1)
        new["global"] = self._write_global(list(documents), new["generation"]) if documents else None
        self._write_manifest(new)
        self.collect_garbage(new)
        return new

    def _write_global(self, doc_ids: list[str], generation: int) -> str:
        import bm25s
        import faiss

        name = f"global-{generation}"
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{name}-", dir=self.root))
        clause_ids: list[str] = []
        tokens: list[list[str]] = []
        vectors: list[np.ndarray] = []
        for doc_id in doc_ids:
            clause_ids += self.read_clause_ids(doc_id)
            tokens += self.read_tokens(doc_id)
            vectors.append(self.read_embeddings(doc_id))
        matrix = np.ascontiguousarray(np.vstack(vectors), dtype=np.float32)
        faiss_index = faiss.IndexFlatIP(matrix.shape[1])
        faiss_index.add(matrix)
        faiss.write_index(faiss_index, str(tmp / "faiss.index"))
        bm25 = bm25s.BM25(method="robertson")
        # An empty clause still needs one token so bm25s keeps rows aligned with clause ids.
        bm25.index([t or [""] for t in tokens], show_progress=False)
        bm25.save(str(tmp / "bm25"))
        _write_json(tmp / "clause_ids.json", clause_ids)
        final = self.root / name
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)
        return name

    def _write_manifest(self, manifest: dict[str, Any]) -> None:
        tmp = self.root / f".{MANIFEST_NAME}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, ensure_ascii=False, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.manifest_path)
        _fsync_dir(self.root)

    def collect_garbage(self, manifest: dict[str, Any]) -> None:
        """Delete folders the manifest no longer references (and leftovers of crashes)."""
        live_docs = set(manifest["documents"])
        docs_dir = self.root / "docs"
        if docs_dir.is_dir():
            for path in docs_dir.iterdir():
                if path.name not in live_docs:
                    shutil.rmtree(path, ignore_errors=True)
        for path in self.root.iterdir():
            stale_global = path.name.startswith("global-") and path.name != manifest["global"]
            if path.is_dir() and (stale_global or path.name.startswith(".tmp-")):
                shutil.rmtree(path, ignore_errors=True)



class ClauseIndex:
    """An index loaded for reading: clauses, vectors, BM25 and per-document graphs.

    Graphs are built per document on first use: retrieval only ever walks the graphs
    of the documents its seed hits come from, and one graph for 700 documents would
    cost gigabytes in networkx.
    """

    def __init__(self, store: IndexStore) -> None:
        import bm25s
        import faiss

        self.store = store
        self.manifest = store.read_manifest()
        self.documents: dict[str, Document] = {}
        self.clauses: list[Clause] = []
        self._graphs: dict[str, DocumentGraph] = {}
        self.doc_ranges: dict[str, tuple[int, int]] = {}
        try:
            for doc_id in self.manifest["documents"]:
                self.documents[doc_id] = store.read_document(doc_id)
                start = len(self.clauses)
                self.clauses += store.read_clauses(doc_id)
                self.doc_ranges[doc_id] = (start, len(self.clauses))
                self._graphs[doc_id] = store.read_graph(doc_id)
            global_dir = store.root / self.manifest["global"] if self.manifest["global"] else None
            self.faiss = faiss.read_index(str(global_dir / "faiss.index")) if global_dir else None
            self.bm25 = bm25s.BM25.load(str(global_dir / "bm25")) if global_dir else None
            stored_ids = json.loads((global_dir / "clause_ids.json").read_bytes()) if global_dir else []
        except (OSError, ValueError, RuntimeError) as exc:
            raise IndexStoreError(store.root, f"damaged index files ({exc})") from exc
        if stored_ids != [c.clause_id for c in self.clauses]:
            raise IndexStoreError(store.root, "global index does not match the stored clauses")
        self.position = {c.clause_id: i for i, c in enumerate(self.clauses)}
        self._nx_cache: dict[str, Any] = {}
        self._centrality_cache: dict[str, dict[str, float]] = {}
        self._scopers: dict[float, Any] = {}

    def scoper(self, margin: float) -> Any:
        """The document scoper for this index (built on first use, per margin)."""
        from clausegraph.scope import DocumentScoper

        if margin not in self._scopers:
            self._scopers[margin] = DocumentScoper(self, margin)
        return self._scopers[margin]

    @classmethod
    def open(cls, root: str | Path) -> ClauseIndex:
        return cls(IndexStore(root))

    @property
    def embedding_model(self) -> str:
        return str(self.manifest.get("embedding_model", ""))

    @property
    def vectors(self) -> np.ndarray:
        """All clause vectors as a zero-copy (n, dim) view of the FAISS flat index."""
        import faiss

        if self.faiss is None:
            return np.zeros((0, int(self.manifest.get("dim", 0))), dtype=np.float32)
        flat = faiss.rev_swig_ptr(self.faiss.get_xb(), self.faiss.ntotal * self.faiss.d)
        return flat.reshape(self.faiss.ntotal, self.faiss.d)

    def embeddings(self, positions: np.ndarray) -> np.ndarray:
        """Stored vectors of the clauses at ``positions``."""
        return self.vectors[np.asarray(positions, dtype=np.int64)]

    def clause(self, clause_id: str) -> Clause:
        from clausegraph.errors import NotFoundError

        if clause_id not in self.position:
            raise NotFoundError(f"no clause {clause_id!r} in index {self.store.root}")
        return self.clauses[self.position[clause_id]]

    def document_of(self, clause: Clause) -> Document:
        return self.documents[clause.doc_id]

    def graph_data(self, doc_id: str) -> DocumentGraph:
        return self._graphs[doc_id]

    def graph(self, doc_id: str) -> Any:
        """The document's clause graph as a networkx MultiDiGraph (built once, cached)."""
        if doc_id not in self._nx_cache:
            import networkx as nx

            graph = nx.MultiDiGraph()
            start, end = self.doc_ranges[doc_id]
            graph.add_nodes_from(c.clause_id for c in self.clauses[start:end])
            for edge in self._graphs[doc_id].edges:
                graph.add_edge(edge.source, edge.target, key=edge.type.value, edge=edge)
            self._nx_cache[doc_id] = graph
        return self._nx_cache[doc_id]

    def centrality(self, doc_id: str) -> dict[str, float]:
        """Degree centrality over meaningful edges (see :func:`graph_centrality`)."""
        if doc_id not in self._centrality_cache:
            self._centrality_cache[doc_id] = graph_centrality(self._graphs[doc_id])
        return self._centrality_cache[doc_id]


def graph_centrality(graph: DocumentGraph) -> dict[str, float]:
    """Degree centrality over meaningful edges (SameSection excluded), scaled to [0, 1]."""
    degree: dict[str, int] = {}
    for edge in graph.edges:
        if edge.type is RelationType.SAME_SECTION:
            continue
        degree[edge.source] = degree.get(edge.source, 0) + 1
        degree[edge.target] = degree.get(edge.target, 0) + 1
    top = max(degree.values(), default=0)
    # log scaling: a definition used 300 times should not drown everything else
    scale = np.log1p(top) or 1.0
    return {k: float(np.log1p(v) / scale) for k, v in degree.items()}
