"""The persisted index: clause store, BM25, clause vectors and the clause graph in one directory.

Layout of an index directory::

    clausegraph-index.json        manifest: format, version, generation, documents
    docs/<doc_id>/                one immutable folder per document
        document.json clauses.json graph.json tokens.json embeddings.npy
    global-<generation>/          indexes over all clauses, rebuilt on every change
        bm25/ vectors.npy clause_ids.json      (indexes before vectors.npy: faiss.index)

Why this shape: a document's folder is written once and never changed, so adding or
removing a document never re-embeds the others; the global folder is cheap to rebuild
from the per-document files. A change becomes visible only when the manifest is
replaced (``os.replace`` is atomic), so a crash at any earlier point leaves the
previous index loadable; unreferenced folders are garbage-collected afterwards.
"""

from __future__ import annotations

import errno
import fcntl
import io
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from clausegraph.errors import IndexStoreError
from clausegraph.models import Clause, ClauseType, Document, DocumentGraph
from clausegraph.store.base import DocumentArtifacts, DocumentEntry, IndexStore

if TYPE_CHECKING:
    from clausegraph.store.local.reader import FolderReader

MANIFEST_NAME = "clausegraph-index.json"
INDEX_FORMAT = "clausegraph-index"
INDEX_VERSION = 1

def _write_bytes(path: Path, data: bytes, sync: bool = False) -> None:
    """Write a new file through ``os.write`` (one place where a full disk shows up)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def _write_json(path: Path, data: Any, sync: bool = False, indent: int | None = None) -> None:
    _write_bytes(path, json.dumps(data, ensure_ascii=False, indent=indent).encode("utf-8"), sync)


def _write_npy(path: Path, array: np.ndarray) -> None:
    """``np.save``'s format through ``os.write``, without a second copy of the array."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, np.lib.format.header_data_from_array_1_0(array))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        for data in (header.getvalue(), np.ascontiguousarray(array).data.cast("B")):
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _npy_bytes(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _folder_mode() -> int:
    """The mode ``mkdir`` would give a new folder under the current umask (0o755 for 022).

    ``tempfile.mkdtemp`` creates folders 0700 whatever the umask; renamed into place,
    they would lock colleagues out of a shared index.
    """
    mask = os.umask(0)
    os.umask(mask)
    return 0o777 & ~mask


def _make_temp_dir(prefix: str, parent: Path) -> Path:
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    os.chmod(path, _folder_mode())
    return path


def storage_problem(error: OSError) -> str:
    """One line for what went wrong writing or reading the index folder."""
    reasons = {
        errno.ENOSPC: "no space left on the device",
        errno.EDQUOT: "disk quota exceeded",
        errno.EROFS: "read-only file system",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.EIO: "input/output error (failing disk?)",
    }
    reason = reasons.get(error.errno or 0, error.strerror or str(error))
    where = f" ({error.filename})" if error.filename else ""
    return f"{reason}{where}"


class FolderStore(IndexStore):
    """Reads and atomically rewrites one index directory.

    >>> store = IndexStore("my-index")  # doctest: +SKIP
    >>> store.commit(add=[artifacts], remove=[])  # doctest: +SKIP
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @property
    def location(self) -> str:
        return str(self.root)

    def check_readable(self) -> None:
        self.read_manifest()

    def entries(self) -> dict[str, DocumentEntry]:
        manifest = self.read_manifest()
        return {k: DocumentEntry.model_validate(v) for k, v in manifest["documents"].items()}

    def info(self) -> dict[str, Any]:
        manifest = self.read_manifest()
        return {k: v for k, v in manifest.items() if k != "documents"}

    def open_reader(self) -> FolderReader:
        from clausegraph.store.local.reader import FolderReader

        return FolderReader(self)

    def cache_dir(self) -> Path:
        return self.root

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
        except PermissionError as exc:
            raise IndexStoreError(self.root, f"permission denied reading {exc.filename}") from exc
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

    def empty_manifest(self, embedding_model: str, dim: int,
                       embedding_fingerprint: str = "") -> dict[str, Any]:
        return {
            "format": INDEX_FORMAT,
            "version": INDEX_VERSION,
            "generation": 0,
            "embedding_model": embedding_model,
            "embedding_fingerprint": embedding_fingerprint,
            "dim": dim,
            "documents": {},
            "global": None,
        }

    def ensure_writable(self) -> None:
        """Refuse a non-empty folder that is not an index (the folder itself is made by
        ``write_lock``, and removed again if nothing is committed: ``remove_if_unused``)."""
        if self.root.exists() and not self.root.is_dir():
            raise IndexStoreError(self.root, "exists and is not a directory")
        if self.root.is_dir() and not self.exists():
            foreign = [p.name for p in self.root.iterdir() if not p.name.startswith(".")]
            if foreign:
                raise IndexStoreError(
                    self.root, "is a non-empty folder that is not a ClauseGraph index; "
                    "choose an empty or new folder"
                )

    @contextmanager
    def write_lock(
        self, wait_seconds: float | None = None, on_wait: Callable[[str], None] | None = None
    ) -> Iterator[None]:
        """One writer at a time; readers never block because they read a manifest snapshot.

        A second writer polls the ``flock`` until ``wait_seconds`` have passed (``on_wait``
        is told once), then gives up with a clear error.
        """
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            handle = open(self.root / ".lock", "a")
        except OSError as exc:
            raise IndexStoreError(self.root, f"cannot write: {storage_problem(exc)}") from exc
        with handle:
            self._acquire(handle, wait_seconds or 0.0, on_wait)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _acquire(self, handle: Any, wait: float, on_wait: Callable[[str], None] | None) -> None:
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            if time.monotonic() >= deadline:
                waited = f" after waiting {wait:g} s" if wait > 0 else ""
                raise IndexStoreError(
                    self.root, f"another process is writing this index{waited}; try again "
                    "when it has finished (or wait longer: --wait SECONDS)"
                )
            if not told and on_wait is not None:
                on_wait(f"another process is writing index {self.root}; waiting up to "
                        f"{wait:g} s for it to finish")
                told = True
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))

    def remove_if_unused(self) -> None:
        """Delete the folder again if it holds no index (a first ingest that stored nothing)."""
        if self.exists() or not self.root.is_dir():
            return
        shutil.rmtree(self.root / "docs", ignore_errors=True)
        (self.root / ".lock").unlink(missing_ok=True)
        for path in self.root.glob(".tmp-*"):
            shutil.rmtree(path, ignore_errors=True)
        try:
            self.root.rmdir()
        except OSError:
            pass  # something else lives there now: leave it

    # -- per-document folders ---------------------------------------------------------

    def doc_dir(self, doc_id: str) -> Path:
        return self.root / "docs" / doc_id

    def stage(self, artifacts: DocumentArtifacts) -> None:
        """Write one document's folder under a temporary name, then rename it into place.

        On any OS error (disk full, read-only, permission) the temporary folder is
        removed at once and an ``IndexStoreError`` says what happened.
        """
        final = self.doc_dir(artifacts.document.doc_id)
        if final.is_dir():
            return  # content-addressed: the same bytes were stored before
        tmp: Path | None = None
        try:
            final.parent.mkdir(parents=True, exist_ok=True)
            tmp = _make_temp_dir(f".tmp-{final.name}-", final.parent)
            _write_json(tmp / "document.json", artifacts.document.model_dump(mode="json"))
            _write_json(tmp / "clauses.json",
                        [c.model_dump(mode="json") for c in artifacts.clauses])
            _write_json(tmp / "graph.json", artifacts.graph.model_dump(mode="json"))
            _write_json(tmp / "tokens.json", artifacts.tokens)
            _write_bytes(tmp / "embeddings.npy",
                         _npy_bytes(artifacts.embeddings.astype(np.float32)))
            os.replace(tmp, final)
        except OSError as exc:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            raise IndexStoreError(
                self.root, f"cannot store {artifacts.document.source_path}: {storage_problem(exc)}"
            ) from exc

    def read_document(self, doc_id: str) -> Document:
        return Document.model_validate_json((self.doc_dir(doc_id) / "document.json").read_bytes())

    def read_file(self, doc_id: str, name: str) -> bytes:
        """One stored file of a document, as bytes."""
        return (self.doc_dir(doc_id) / name).read_bytes()

    def read_clauses(self, doc_id: str) -> list[Clause]:
        raw = json.loads(self.read_file(doc_id, "clauses.json"))
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
        add: Sequence[tuple[str, DocumentEntry]],
        remove: Sequence[str],
        embedding_model: str = "",
        dim: int = 0,
        embedding_fingerprint: str = "",
    ) -> None:
        """Switch to a new generation: documents in ``add`` in, documents in ``remove`` out.

        ``add`` pairs a doc id whose folder was already written (``stage``) with its
        entry. Nothing is visible to readers until the manifest is replaced.
        Call inside ``write_lock()``.
        """
        manifest = self.read_manifest() if self.exists() else self.empty_manifest(
            embedding_model, dim, embedding_fingerprint)
        dropped = set(remove)
        documents = {k: v for k, v in manifest["documents"].items() if k not in dropped}
        for doc_id, entry in add:
            documents[doc_id] = entry.model_dump(mode="json")
        new = dict(manifest, documents=documents, generation=manifest["generation"] + 1)
        try:
            new["global"] = (
                self._write_global(list(documents), new["generation"]) if documents else None
            )
            self._write_manifest(new)
        except OSError as exc:
            self.collect_garbage(manifest)  # temp folders of this attempt, at once
            raise IndexStoreError(
                self.root, f"nothing was committed, the index is unchanged: {storage_problem(exc)}"
            ) from exc
        self.collect_garbage(new)

    def replace_embeddings(self, vectors: Mapping[str, np.ndarray], embedding_model: str,
                           dim: int, embedding_fingerprint: str) -> None:
        """New vectors in every document folder, then a new generation that names the model.

        Each ``embeddings.npy`` is swapped by rename; a crash before the manifest is replaced
        leaves an index that still names the old model, and ``reembed`` simply runs again.
        """
        manifest = self.read_manifest()
        if set(vectors) != set(manifest["documents"]):
            raise IndexStoreError(self.root, "re-embedding must cover every document")
        for doc_id, matrix in vectors.items():
            part = self.doc_dir(doc_id) / ".embeddings.npy.part"
            with open(part, "wb") as handle:
                np.save(handle, np.ascontiguousarray(matrix, dtype=np.float32))
            os.replace(part, self.doc_dir(doc_id) / "embeddings.npy")
        generation = manifest["generation"] + 1
        new = dict(manifest, generation=generation, embedding_model=embedding_model, dim=dim,
                   embedding_fingerprint=embedding_fingerprint)
        new["global"] = self._write_global(list(manifest["documents"]), generation) \
            if manifest["documents"] else None
        self._write_manifest(new)
        self.collect_garbage(new)

    def replace_clause_types(self, types: Mapping[str, list[list[ClauseType]]],
                             model: str | None) -> None:
        """New clause types in every document's ``clauses.json`` (swapped by rename, as
        ``replace_embeddings`` swaps vectors), then a new generation whose entries name the
        model. Clause ids and order stay, so the global folder stays too."""
        manifest = self.read_manifest()
        if set(types) != set(manifest["documents"]):
            raise IndexStoreError(self.root, "clause typing must cover every document")
        for doc_id, per_clause in types.items():
            clauses = self.read_clauses(doc_id)
            if len(clauses) != len(per_clause):
                raise IndexStoreError(self.root, f"document {doc_id}: {len(per_clause)} clause "
                                      f"type lists for {len(clauses)} clauses")
            for clause, clause_types in zip(clauses, per_clause, strict=True):
                clause.clause_types = clause_types
            part = self.doc_dir(doc_id) / ".clauses.json.part"
            _write_json(part, [c.model_dump(mode="json") for c in clauses])
            os.replace(part, self.doc_dir(doc_id) / "clauses.json")
        documents = {doc_id: dict(entry, clause_types=model)
                     for doc_id, entry in manifest["documents"].items()}
        new = dict(manifest, documents=documents, generation=manifest["generation"] + 1)
        self._write_manifest(new)
        self.collect_garbage(new)

    def _write_global(self, doc_ids: list[str], generation: int) -> str:
        import bm25s

        name = f"global-{generation}"
        tmp = _make_temp_dir(f".tmp-{name}-", self.root)
        clause_ids: list[str] = []
        tokens: list[list[str]] = []
        vectors: list[np.ndarray] = []
        # One string object per distinct word: JSON gives every occurrence its own (about
        # 60 bytes each, some 13 M of them on the 712-document corpus).
        words: dict[str, str] = {}
        for doc_id in doc_ids:
            clause_ids += self.read_clause_ids(doc_id)
            tokens += [[words.setdefault(t, t) for t in row] for row in self.read_tokens(doc_id)]
            vectors.append(self.read_embeddings(doc_id))
        matrix = np.ascontiguousarray(np.vstack(vectors), dtype=np.float32)
        del vectors
        _write_npy(tmp / "vectors.npy", matrix)
        del matrix
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
        try:
            _write_json(tmp, manifest, sync=True, indent=1)
            os.replace(tmp, self.manifest_path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise
        _fsync_dir(self.root)

    def collect_garbage(self, manifest: dict[str, Any]) -> None:
        """Delete folders the manifest no longer references (and leftovers of crashes)."""
        live_docs = set(manifest["documents"])
        if not self.root.is_dir():
            return
        docs_dir = self.root / "docs"
        if docs_dir.is_dir():
            for path in docs_dir.iterdir():
                if path.name not in live_docs:
                    shutil.rmtree(path, ignore_errors=True)
        for path in self.root.iterdir():
            stale_global = path.name.startswith("global-") and path.name != manifest["global"]
            if path.is_dir() and (stale_global or path.name.startswith(".tmp-")):
                shutil.rmtree(path, ignore_errors=True)
