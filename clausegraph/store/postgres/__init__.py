"""The PostgreSQL + pgvector backend: ``--index postgresql://user@host:port/db``.

Install with ``pip install 'clausegraph[postgres]'``. Many ingest processes (on many
machines) may load one database at once: each document is stored in its own transaction
under a per-document lock, so there is no global write lock, no duplicate and no lost
document. ``?workspace=NAME`` in the URL keeps teams apart (row-level security).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from clausegraph.errors import IndexStoreError
from clausegraph.models import ClauseType
from clausegraph.store.base import DocumentArtifacts, DocumentEntry, IndexReader, IndexStore


class PostgresStore(IndexStore):
    """Writes one workspace of a ClauseGraph database."""

    def __init__(self, url: str, **options: Any) -> None:
        try:
            from clausegraph.store.postgres.store import PostgresIndex
        except ImportError as exc:  # psycopg / pgvector missing
            raise IndexStoreError(url.split("@")[-1], f"needs the PostgreSQL extra ({exc.name} "
                                  "is not installed): pip install 'clausegraph[postgres]'") from None
        self.url = url
        self.index = PostgresIndex(url)
        self.options = options
        self._schema_ready = False

    @property
    def location(self) -> str:
        return self.index.display

    def exists(self) -> bool:
        return self.index.exists()

    def ensure_writable(self) -> None:
        """Connect and make sure pgvector is there now, before any document is built.

        The schema itself is created with the first document (its vector column needs the
        embedding dimension).
        """
        from clausegraph.store.postgres.connection import check_vector

        check_vector(self.index.url)

    def check_readable(self) -> None:
        self.index.check_schema()

    @contextmanager
    def write_lock(
        self, wait_seconds: float | None = None, on_wait: Callable[[str], None] | None = None
    ) -> Iterator[None]:
        # No global lock: documents are locked one at a time, in their own transactions.
        yield

    def entries(self) -> dict[str, DocumentEntry]:
        if not self.index.exists():
            return {}
        return {k: DocumentEntry.model_validate(v) for k, v in
                self.index.document_entries().items()}

    def info(self) -> dict[str, Any]:
        return self.index.info()

    def stage(self, artifacts: DocumentArtifacts) -> None:
        """Store the document now, in one transaction (visible at once, never in part)."""
        self._ensure_schema(int(artifacts.embeddings.shape[1]))
        self.index.add_document(
            artifacts.document, artifacts.clauses, artifacts.graph, artifacts.embeddings,
            artifacts.tokens, DocumentEntry.of(artifacts, 0.0).model_dump(mode="json"))

    def commit(self, add: Sequence[tuple[str, DocumentEntry]], remove: Sequence[str],
               embedding_model: str = "", dim: int = 0, embedding_fingerprint: str = "") -> None:
        """Record the added documents' entries and remove ``remove``, in one transaction.

        The model name, dimension and weights fingerprint are recorded with the first
        vectors (a database filled before fingerprints were kept is checked by name)."""
        if add:
            self._ensure_schema(dim)
            self.index.record_model(embedding_model, dim, embedding_fingerprint)
        if not (add or remove):
            return
        self.index.commit_entries({d: e.model_dump(mode="json") for d, e in add}, remove)

    def replace_clause_types(self, types: Mapping[str, list[list[ClauseType]]],
                             model: str | None) -> None:
        self.index.replace_clause_types(dict(types), model)

    def _ensure_schema(self, dim: int) -> None:
        if not self._schema_ready:
            self.index.create(dim, "")
            self._schema_ready = True

    def open_reader(self) -> IndexReader:
        from clausegraph.store.postgres.reader import PostgresReader

        return PostgresReader(self.url, **self.options)
