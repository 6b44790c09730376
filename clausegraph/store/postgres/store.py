"""The clause index in PostgreSQL + pgvector: one database (or workspace) shared by many.

Writers store each document in one transaction (readers never see half a document, a
killed writer leaves nothing); an advisory lock per content hash lets several ingest
processes load one database at once without duplicates. Readers push retrieval into SQL:
BM25 over term statistics kept in tables (the same Robertson BM25 as the local backend's
bm25s index), vector search through an HNSW index (exact within a small document filter),
and typed k-hop expansion as a recursive query, so no query loads the corpus.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from clausegraph.errors import IndexStoreError
from clausegraph.models import (
    Clause,
    ClauseType,
    Document,
    DocumentGraph,
    Edge,
    Entity,
    Page,
    RelationType,
    UnresolvedReference,
)
from clausegraph.store.base import degree_centrality
from clausegraph.store.postgres.connection import (
    IndexURL,
    connect,
    latest_version,
    migrate,
    schema_version,
)

# bm25s' defaults, which the local backend uses (method "robertson").
BM25_K1 = 1.5
BM25_B = 0.75
# Below this many candidate clauses a filtered vector search is an exact scan: cheaper
# than the HNSW graph, and never misses a clause the filter allows.
EXACT_SCAN_LIMIT = 20_000

_CLAUSE_COLUMNS = (
    "clause_id, doc_id, ord, number, section_path, heading, kind, text, span_start, span_end, "
    "segments, pages, entities, defined_terms, clause_types"
)


def term_counts(tokens: Sequence[str]) -> Counter[str]:
    """Term frequencies of one clause; an empty clause counts as the one empty token, as in
    the local index (bm25s keeps rows aligned that way), so lengths and N agree."""
    return Counter(tokens or [""])


# Document fields kept in the ``extra`` JSON column (migration 002): everything a reader
# adds beyond the columns of version 1.
_EXTRA_DOCUMENT_FIELDS = frozenset(Document.model_fields) - {
    "doc_id", "key", "source_path", "title", "media_type", "text", "pages", "excluded"}


class PostgresIndex:
    """One workspace of a ClauseGraph database.

    >>> index = PostgresIndex("postgresql://me@db:5432/clauses?workspace=legal")  # doctest: +SKIP
    >>> index.bm25_top(["indemnif"], doc_ids=None, k=10)  # doctest: +SKIP
    """

    def __init__(self, url: str, snapshot_seconds: float | None = None) -> None:
        self.url = IndexURL.parse(url)
        self._local = threading.local()
        self._settings: dict[str, str] | None = None
        # A reader keeps one REPEATABLE READ snapshot (all its queries see the same
        # documents) and renews it when older than this, so that a long-lived reader
        # (a server) sees documents added since. None: one transaction per call.
        self.snapshot_seconds = snapshot_seconds

    @property
    def workspace(self) -> str:
        return self.url.workspace

    @property
    def display(self) -> str:
        return f"{self.url.display}?workspace={self.workspace}"

    # -- connections -----------------------------------------------------------------------

    @property
    def conn(self) -> Any:
        """This thread's connection (opened on first use, re-opened after a loss)."""
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = connect(self.url)
            self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        if self.snapshot_seconds is not None:
            with self._snapshot() as conn:
                yield conn
            return
        conn = self.conn
        try:
            with conn.transaction():
                yield conn
        finally:
            if not conn.closed and conn.info.transaction_status != 0:  # idle
                conn.rollback()

    @contextmanager
    def _snapshot(self) -> Iterator[Any]:
        import psycopg

        conn = self.conn
        started = getattr(self._local, "snapshot_started", None)
        idle = conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        if started is None or idle or time.monotonic() - started > self.snapshot_seconds:
            if not idle:
                conn.rollback()
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            conn.read_only = True
            self._local.snapshot_started = time.monotonic()
        try:
            yield conn
        except BaseException:
            self._local.snapshot_started = None
            if not conn.closed:
                conn.rollback()
            raise

    def _query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[tuple]:
        with self.transaction() as conn:
            return conn.execute(sql, params).fetchall()

    # -- schema ----------------------------------------------------------------------------

    def exists(self) -> bool:
        return schema_version(self.url) > 0

    def create(self, dim: int, embedding_model: str) -> None:
        """Apply pending migrations (safe to call from several processes at once)."""
        migrate(self.url, dim, embedding_model)
        self._settings = None
        settings = self.settings
        if int(settings["dim"]) != dim:
            raise IndexStoreError(self.display, f"stores {settings['dim']}-dimensional vectors "
                                  f"({settings['embedding_model']}), not {dim}")

    def record_model(self, embedding_model: str, dim: int, fingerprint: str = "") -> None:
        """Record the embedding model and its weights fingerprint on first use; refuse
        vectors of another model or encoder (an fp32 database gets no int8 vectors)."""
        with self.transaction() as conn:
            stored = conn.execute("SELECT value FROM store_settings WHERE name = "
                                  "'embedding_model' FOR UPDATE").fetchone()
            if stored and stored[0] and embedding_model and stored[0] != embedding_model:
                raise IndexStoreError(self.display, f"holds vectors of {stored[0]!r}, not "
                                      f"{embedding_model!r}; use one model per database")
            printed = conn.execute("SELECT value FROM store_settings WHERE name = "
                                   "'embedding_fingerprint'").fetchone()
            if printed and printed[0] and fingerprint and printed[0] != fingerprint:
                raise IndexStoreError(self.display, f"holds vectors of another encoder "
                                      f"({printed[0][:19]}..., not {fingerprint[:19]}...)")
            if embedding_model and (not stored or not stored[0]):
                conn.execute("UPDATE store_settings SET value = %s WHERE name = "
                             "'embedding_model'", (embedding_model,))
                if fingerprint:
                    # Only with the first vectors: a database filled before fingerprints were
                    # kept has none, and is checked by the model name alone.
                    conn.execute("INSERT INTO store_settings VALUES ('embedding_fingerprint', "
                                 "%s) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
                                 (fingerprint,))
        self._settings = None
        if dim and self.dim != dim:
            raise IndexStoreError(self.display, f"stores {self.dim}-dimensional vectors, "
                                  f"not {dim}")

    def commit_entries(self, entries: dict[str, dict[str, Any]], remove: Sequence[str]) -> None:
        """Update stored documents' entries and remove others, in one transaction."""
        with self.transaction() as conn:
            # Rows in doc id order: two ingests of the same files (in any order) both update
            # the rows of every file they built, and lock them in the same order, so one
            # waits for the other instead of deadlocking.
            for doc_id, entry in sorted(entries.items()):
                conn.execute("UPDATE documents SET summary = %s WHERE workspace = %s AND "
                             "doc_id = %s", (json.dumps(entry), self.workspace, doc_id))
            self._remove_in(conn, remove)

    def replace_clause_types(self, types: dict[str, list[list[ClauseType]]],
                             model: str | None) -> None:
        """Store new clause types of every listed document and name ``model`` in its
        summary, one transaction per document (a document is never half typed)."""
        for doc_id, per_clause in types.items():
            with self.transaction() as conn:
                ids = [r[0] for r in conn.execute(
                    "SELECT clause_id FROM clauses WHERE workspace = %s AND doc_id = %s "
                    "ORDER BY ord", (self.workspace, doc_id)).fetchall()]
                if len(ids) != len(per_clause):
                    raise IndexStoreError(self.display, f"document {doc_id}: {len(per_clause)} "
                                          f"clause type lists for {len(ids)} clauses")
                with conn.cursor() as cur:
                    cur.executemany(
                        "UPDATE clauses SET clause_types = %s WHERE workspace = %s "
                        "AND clause_id = %s",
                        [(_types_json(t), self.workspace, clause_id)
                         for clause_id, t in zip(ids, per_clause, strict=True)])
                conn.execute("UPDATE documents SET summary = summary || jsonb_build_object("
                             "'clause_types', %s::text) WHERE workspace = %s AND doc_id = %s",
                             (model, self.workspace, doc_id))

    def check_schema(self) -> None:
        version = schema_version(self.url)
        if version == 0:
            raise IndexStoreError(self.display, "holds no ClauseGraph index; create one with "
                                  "'clausegraph ingest PATH --index URL'")
        if version > latest_version():
            raise IndexStoreError(self.display, f"schema version {version} is newer than this "
                                  f"ClauseGraph knows ({latest_version()}); upgrade ClauseGraph")
        if version < latest_version():
            # An index made by an older ClauseGraph: apply the pending migrations (each is
            # additive, and the migration lock makes concurrent upgrades safe).
            settings = self.settings
            migrate(self.url, int(settings["dim"]), settings.get("embedding_model", ""))

    @property
    def settings(self) -> dict[str, str]:
        if self._settings is None:
            self._settings = dict(self._query("SELECT name, value FROM store_settings"))
        return self._settings

    @property
    def embedding_model(self) -> str:
        return self.settings.get("embedding_model", "")

    @property
    def dim(self) -> int:
        return int(self.settings.get("dim", 0))

    # -- writing ---------------------------------------------------------------------------

    def add_document(
        self,
        document: Document,
        clauses: list[Clause],
        graph: DocumentGraph,
        embeddings: np.ndarray,
        tokens: list[list[str]],
        summary: dict[str, Any],
        replaces: Sequence[str] = (),
    ) -> bool:
        """Store one document in one transaction; False if it is already there.

        ``replaces`` are doc ids this document supersedes (an edited file at the same path);
        they are removed in the same transaction.
        """
        with self.transaction() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                         (f"{self.workspace}/{document.doc_id}",))
            names = _DocumentNames.of(document, clauses)
            inserted = conn.execute(
                "INSERT INTO documents (workspace, doc_id, key, title, source_path, media_type, "
                "text, pages, excluded, summary, title_tokens, name_tokens, extra) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) "
                "ON CONFLICT DO NOTHING RETURNING doc_id",
                (self.workspace, document.doc_id, document.key, document.title,
                 document.source_path, document.media_type, document.text,
                 json.dumps([p.model_dump() for p in document.pages]),
                 json.dumps(document.excluded), json.dumps(summary),
                 sorted(names.title_tokens), sorted(names.name_tokens),
                 json.dumps(document.model_dump(mode="json", include=_EXTRA_DOCUMENT_FIELDS))),
            ).fetchone()
            if inserted is None:
                return False  # another process (or an earlier run) stored these bytes
            self._remove_in(conn, [d for d in replaces if d != document.doc_id])
            self._insert_clauses(conn, document.doc_id, clauses, embeddings, tokens,
                                 degree_centrality(graph.edges))
            self._insert_graph(conn, document.doc_id, graph)
            self._insert_terms(conn, document.doc_id, "profile",
                               [(document.doc_id, names.profile_tokens)])
            self._add_term_stats(conn, document.doc_id)
        return True

    def _insert_clauses(self, conn: Any, doc_id: str, clauses: list[Clause],
                        embeddings: np.ndarray, tokens: list[list[str]],
                        centrality: dict[str, float]) -> None:
        # executemany runs in pipeline mode (one round trip per batch); COPY is not allowed
        # on tables with row-level security.
        vectors = np.asarray(embeddings, dtype=np.float32)
        ws = self.workspace
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO clauses (workspace, clause_id, doc_id, ord, number, section_path, "
                "heading, kind, text, span_start, span_end, segments, pages, entities, "
                "defined_terms, n_tokens, centrality, embedding, clause_types) VALUES "
                "(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s::vector,%s)",
                [(ws, c.clause_id, doc_id, c.order, c.number, c.section_path, c.heading, c.kind,
                  c.text, c.span[0], c.span[1], json.dumps(c.segments), c.pages,
                  json.dumps([e.model_dump() for e in c.entities]), c.defined_terms,
                  sum(term_counts(words).values()), centrality.get(c.clause_id, 0.0),
                  _vector_literal(vector), _types_json(c.clause_types))
                 for c, vector, words in zip(clauses, vectors, tokens, strict=True)],
            )
        self._insert_terms(conn, doc_id, "clause",
                           [(c.clause_id, words) for c, words in zip(clauses, tokens)])

    def _insert_terms(self, conn: Any, doc_id: str, field: str,
                      units: list[tuple[str, list[str]]]) -> None:
        rows = []
        for unit_id, words in units:
            counts = term_counts(words)
            length = sum(counts.values())
            rows += [(term, unit_id, tf, length) for term, tf in counts.items()]
        terms, unit_ids, tfs, lengths = (list(c) for c in zip(*rows)) if rows else ([],) * 4
        conn.execute(
            "INSERT INTO terms (workspace, field, doc_id, term, unit_id, tf, unit_length) "
            "SELECT %s, %s, %s, * FROM unnest(%s::text[], %s::text[], %s::int[], %s::int[])",
            (self.workspace, field, doc_id, terms, unit_ids, tfs, lengths),
        )

    def _insert_graph(self, conn: Any, doc_id: str, graph: DocumentGraph) -> None:
        ws = self.workspace
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO edges (workspace, doc_id, edge_no, type, source, target, "
                "confidence, rule_id, evidence, evidence_start, evidence_end, term) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                [(ws, doc_id, n, e.type.value, e.source, e.target, e.confidence, e.rule_id,
                  e.evidence, e.evidence_span[0], e.evidence_span[1], e.term)
                 for n, e in enumerate(graph.edges)],
            )
            cur.executemany(
                "INSERT INTO unresolved_references (workspace, doc_id, ref_no, source, text, "
                "span_start, span_end, rule_id) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
                [(ws, doc_id, n, r.source, r.text, r.span[0], r.span[1], r.rule_id)
                 for n, r in enumerate(graph.unresolved)],
            )

    def _add_term_stats(self, conn: Any, doc_id: str, sign: int = 1) -> None:
        """Add (``sign`` 1) or subtract (-1) one document's terms to the BM25 statistics."""
        # Terms in sorted order: two writers lock the shared term rows in the same order
        # and so wait for each other instead of deadlocking.
        params = {"ws": self.workspace, "doc": doc_id, "sign": sign}
        conn.execute(
            "INSERT INTO term_stats (workspace, field, term, df) "
            "SELECT workspace, field, term, %(sign)s * count(*) FROM terms "
            "WHERE workspace = %(ws)s AND doc_id = %(doc)s "
            "GROUP BY workspace, field, term ORDER BY field, term "
            "ON CONFLICT (workspace, field, term) DO UPDATE SET df = term_stats.df + EXCLUDED.df",
            params,
        )
        conn.execute(
            "INSERT INTO corpus_stats (workspace, field, n_units, total_tokens) "
            "SELECT %(ws)s, field, %(sign)s * count(*), %(sign)s * coalesce(sum(len), 0) FROM "
            "(SELECT DISTINCT field, unit_id, unit_length AS len FROM terms "
            " WHERE workspace = %(ws)s AND doc_id = %(doc)s) units GROUP BY field ORDER BY field "
            "ON CONFLICT (workspace, field) DO UPDATE SET "
            "n_units = corpus_stats.n_units + EXCLUDED.n_units, "
            "total_tokens = corpus_stats.total_tokens + EXCLUDED.total_tokens",
            params,
        )
        if sign < 0:
            conn.execute("DELETE FROM term_stats WHERE workspace = %s AND df <= 0",
                         (self.workspace,))

    def remove_documents(self, doc_ids: Sequence[str]) -> None:
        """Remove documents and their clauses, edges and term counts in one transaction."""
        with self.transaction() as conn:
            self._remove_in(conn, doc_ids)

    def _remove_in(self, conn: Any, doc_ids: Sequence[str]) -> None:
        for doc_id in sorted(set(doc_ids)):
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                         (f"{self.workspace}/{doc_id}",))
            self._add_term_stats(conn, doc_id, sign=-1)
            conn.execute("DELETE FROM terms WHERE workspace = %s AND doc_id = %s",
                         (self.workspace, doc_id))
            conn.execute("DELETE FROM documents WHERE workspace = %s AND doc_id = %s",
                         (self.workspace, doc_id))

    # -- documents -------------------------------------------------------------------------

    def document_entries(self) -> dict[str, dict[str, Any]]:
        """doc id -> summary (key, source_path, title, counts): the local manifest's entries."""
        rows = self._query(
            "SELECT doc_id, key, source_path, title, media_type, summary, ingested_at "
            "FROM documents WHERE workspace = %s ORDER BY seq",
            (self.workspace,),
        )
        entries = {}
        for doc_id, key, source, title, media, summary, at in rows:
            entry = dict(summary)
            entry.update(key=key, source_path=source, title=title, media_type=media,
                         ingested_at=at.isoformat(timespec="seconds"))
            entries[doc_id] = entry
        return entries

    def has_document(self, doc_id: str) -> bool:
        return bool(self._query("SELECT 1 FROM documents WHERE workspace = %s AND doc_id = %s",
                                (self.workspace, doc_id)))

    def document(self, doc_id: str) -> Document:
        rows = self._query(
            "SELECT doc_id, key, source_path, title, media_type, text, pages, excluded, extra "
            "FROM documents WHERE workspace = %s AND doc_id = %s", (self.workspace, doc_id))
        if not rows:
            raise IndexStoreError(self.display, f"no document {doc_id}")
        doc_id, key, source, title, media, text, pages, excluded, extra = rows[0]
        return Document(doc_id=doc_id, key=key, source_path=source, title=title,
                        media_type=media, text=text, pages=[Page(**p) for p in pages],
                        excluded=[tuple(s) for s in excluded], **(extra or {}))

    def clauses_of(self, doc_id: str) -> list[Clause]:
        rows = self._query(f"SELECT {_CLAUSE_COLUMNS} FROM clauses WHERE workspace = %s "
                           "AND doc_id = %s ORDER BY ord", (self.workspace, doc_id))
        return [_clause(row) for row in rows]

    def clauses(self, clause_ids: Iterable[str]) -> dict[str, Clause]:
        ids = list(dict.fromkeys(clause_ids))
        if not ids:
            return {}
        rows = self._query(f"SELECT {_CLAUSE_COLUMNS} FROM clauses WHERE workspace = %s "
                           "AND clause_id = ANY(%s)", (self.workspace, ids))
        return {row[0]: _clause(row) for row in rows}

    def info(self) -> dict[str, Any]:
        # "generation": the sequence number of the newest stored document, which changes
        # whenever a document is added (a report records which state it read).
        generation = self._query("SELECT coalesce(max(seq), 0) FROM documents "
                                 "WHERE workspace = %s", (self.workspace,))[0][0]
        return {"format": "clausegraph-postgres", "version": schema_version(self.url),
                "generation": int(generation), "workspace": self.workspace,
                "embedding_model": self.embedding_model, "dim": self.dim,
                "embedding_fingerprint": self.settings.get("embedding_fingerprint", ""),
                "documents": self.document_count()}

    def document_count(self) -> int:
        return int(self._query("SELECT count(*) FROM documents WHERE workspace = %s",
                               (self.workspace,))[0][0])

    def clause_count(self) -> int:
        rows = self._query("SELECT n_units FROM corpus_stats WHERE workspace = %s "
                           "AND field = 'clause'", (self.workspace,))
        return int(rows[0][0]) if rows else 0

    def name_tokens(self, doc_id: str) -> tuple[set[str], set[str]]:
        """(title tokens, title + party tokens) of a document, for document scoping."""
        rows = self._query("SELECT title_tokens, name_tokens FROM documents "
                           "WHERE workspace = %s AND doc_id = %s", (self.workspace, doc_id))
        return (set(rows[0][0]), set(rows[0][1])) if rows else (set(), set())

    def documents_named_with(self, word: str, inside_words: bool) -> int:
        """How many documents have ``word`` among their name tokens (or, with
        ``inside_words``, inside one: file names glue words together)."""
        test = "strpos(t, %(w)s) > 0" if inside_words else "t = %(w)s"
        sql = ("SELECT count(*) FROM documents WHERE workspace = %(ws)s AND EXISTS "
               f"(SELECT 1 FROM unnest(name_tokens) AS t WHERE {test})")
        return int(self._query(sql, {"ws": self.workspace, "w": word})[0][0])

    def graph(self, doc_id: str) -> DocumentGraph:
        edges = self._query(
            "SELECT type, source, target, confidence, rule_id, evidence, evidence_start, "
            "evidence_end, term FROM edges WHERE workspace = %s AND doc_id = %s "
            "ORDER BY edge_no", (self.workspace, doc_id))
        refs = self._query(
            "SELECT source, text, span_start, span_end, rule_id FROM unresolved_references "
            "WHERE workspace = %s AND doc_id = %s ORDER BY ref_no", (self.workspace, doc_id))
        return DocumentGraph(
            edges=[_edge(row) for row in edges],
            unresolved=[UnresolvedReference(source=s, text=t, span=(a, b), rule_id=r)
                        for s, t, a, b, r in refs],
        )

    def embeddings(self, clause_ids: Sequence[str]) -> np.ndarray:
        rows = dict(self._query("SELECT clause_id, embedding FROM clauses WHERE workspace = %s "
                                "AND clause_id = ANY(%s)", (self.workspace, list(clause_ids))))
        return np.array([_as_array(rows[c]) for c in clause_ids], dtype=np.float32).reshape(
            len(clause_ids), self.dim)

    def counts(self) -> dict[str, Any]:
        documents, clauses = self._query(
            "SELECT (SELECT count(*) FROM documents WHERE workspace = %s), "
            "(SELECT count(*) FROM clauses WHERE workspace = %s)",
            (self.workspace, self.workspace))[0]
        by_type = dict(self._query("SELECT type, count(*) FROM edges WHERE workspace = %s "
                                   "GROUP BY type ORDER BY type", (self.workspace,)))
        unresolved = self._query("SELECT count(*) FROM unresolved_references "
                                 "WHERE workspace = %s", (self.workspace,))[0][0]
        return {"documents": documents, "clauses": clauses, "edges_by_type": by_type,
                "unresolved_references": unresolved}

    # -- retrieval -------------------------------------------------------------------------

    def bm25_top(self, tokens: Sequence[str], doc_ids: Sequence[str] | None,
                 k: int, field: str = "clause") -> list[tuple[str, float]]:
        """The ``k`` best clauses by BM25 (score > 0), within ``doc_ids`` if given.

        ``field="profile"`` ranks documents by their profile (name + opening) instead.
        """
        return self._bm25(tokens, field, doc_ids, None, k)

    def bm25_scores(self, tokens: Sequence[str], clause_ids: Sequence[str]) -> dict[str, float]:
        """BM25 scores of the given clauses (0 for clauses matching no query term)."""
        scores = dict(self._bm25(tokens, "clause", None, list(clause_ids), None))
        return {c: scores.get(c, 0.0) for c in clause_ids}

    def _bm25(self, tokens: Sequence[str], field: str, doc_ids: Sequence[str] | None,
              unit_ids: Sequence[str] | None, k: int | None) -> list[tuple[str, float]]:
        if not tokens:
            return []
        # Each query token counts once per occurrence, as in bm25s.get_scores; the idf is
        # Robertson's log((N - df + 0.5) / (df + 0.5)) floored at 0, as bm25s computes it.
        sql = """
            WITH q AS (SELECT term, count(*) AS qtf FROM unnest(%(tokens)s::text[]) AS term
                       GROUP BY term),
                 s AS (SELECT n_units::float8 AS n, total_tokens::float8 / n_units AS avgdl
                       FROM corpus_stats
                       WHERE workspace = %(ws)s AND field = %(field)s AND n_units > 0),
                 w AS (SELECT q.term, q.qtf * ln(greatest((s.n - t.df + 0.5) / (t.df + 0.5), 1))
                              AS idf
                       FROM q JOIN term_stats t
                         ON t.workspace = %(ws)s AND t.field = %(field)s AND t.term = q.term
                       CROSS JOIN s)
            SELECT x.unit_id,
                   sum(w.idf * x.tf / (%(k1)s * (1 - %(b)s + %(b)s * x.unit_length / s.avgdl)
                                       + x.tf)) AS score
            FROM w
            JOIN terms x ON x.workspace = %(ws)s AND x.field = %(field)s AND x.term = w.term
            CROSS JOIN s
            WHERE w.idf > 0 {doc_filter} {unit_filter}
            GROUP BY x.unit_id
            ORDER BY score DESC, x.unit_id
            {limit}
        """.format(
            doc_filter="AND x.doc_id = ANY(%(docs)s)" if doc_ids is not None else "",
            unit_filter="AND x.unit_id = ANY(%(ids)s)" if unit_ids is not None else "",
            limit="LIMIT %(k)s" if k is not None else "",
        )
        params = {"tokens": list(tokens), "ws": self.workspace, "field": field, "k1": BM25_K1,
                  "b": BM25_B, "docs": list(doc_ids or []), "ids": list(unit_ids or []), "k": k}
        return [(uid, float(score)) for uid, score in self._query(sql, params)]

    def dense_top(self, vector: np.ndarray, doc_ids: Sequence[str] | None,
                  k: int) -> list[tuple[str, float]]:
        """The ``k`` clauses with the highest inner product with ``vector``.

        Without a filter, or a filter over many clauses, the HNSW index answers (iterative
        scans keep filling up to ``k`` when the filter rejects graph neighbours); a filter
        over fewer than ``EXACT_SCAN_LIMIT`` clauses is scanned exactly.
        """
        query = _vector_literal(np.asarray(vector, dtype=np.float32))
        with self.transaction() as conn:
            exact = doc_ids is not None and self._filtered_size(conn, doc_ids) < EXACT_SCAN_LIMIT
            conn.execute("SELECT set_config('hnsw.ef_search', %s, true), "
                         "set_config('hnsw.iterative_scan', 'relaxed_order', true)",
                         (str(min(1000, max(100, 2 * k))),))
            # "+ 0" hides the ordering from the HNSW index: an exact scan of the filter
            rows = conn.execute(
                "SELECT clause_id, -(embedding <#> %(q)s::vector) AS ip FROM clauses "
                "WHERE workspace = %(ws)s {filter} ORDER BY (embedding <#> %(q)s::vector){exact} "
                "LIMIT %(k)s".format(
                    filter="AND doc_id = ANY(%(docs)s)" if doc_ids is not None else "",
                    exact=" + 0" if exact else ""),
                {"q": query, "ws": self.workspace, "docs": list(doc_ids or []), "k": k},
            ).fetchall()
        # relaxed_order may return near-ties out of order: sort exactly on the client
        return sorted(((c, float(s)) for c, s in rows), key=lambda item: -item[1])

    def _filtered_size(self, conn: Any, doc_ids: Sequence[str]) -> int:
        row = conn.execute(
            "SELECT coalesce(sum((summary->>'clauses')::int), 0) FROM documents "
            "WHERE workspace = %s AND doc_id = ANY(%s)", (self.workspace, list(doc_ids))
        ).fetchone()
        return int(row[0])

    def expand(
        self,
        seeds: dict[str, float],
        walk: dict[str, Sequence[str]],
        hops: int,
        min_confidence: float,
        decay: float,
    ) -> list[tuple[str, str, float, list[Edge]]]:
        """Typed k-hop walks from ``seeds`` (clause id -> strength) as one recursive query.

        ``walk`` maps an edge type to the directions it is followed in ("out": source to
        target, "in": target to source). Returns (seed, reached clause, strength, edge
        path) exactly as the breadth-first walk of ``clausegraph.retrieve.hybrid.walk``
        yields them, seed by seed: each clause once, by the path a BFS meets first
        (shortest; among equals, the first by out-then-in edges in stored order), and
        the strength is the seed's times the edge confidences, times ``decay`` for every
        hop after the first.
        """
        if not seeds or hops <= 0:
            return []
        out_types = [t for t, dirs in walk.items() if "out" in dirs]
        in_types = [t for t, dirs in walk.items() if "in" in dirs]
        sql = """
            WITH RECURSIVE
            walk (seed_no, seed, node, hop, strength, visited, path, bfs) AS (
                SELECT s.seed_no, s.seed, s.seed, 0, s.strength, ARRAY[s.seed],
                       ARRAY[]::text[], ARRAY[]::bigint[]
                FROM unnest(%(seed_ids)s::text[], %(seed_strengths)s::float8[])
                     WITH ORDINALITY AS s(seed, strength, seed_no)
                UNION ALL
                SELECT w.seed_no, w.seed, st.node_to, w.hop + 1, w.strength * st.confidence,
                       w.visited || st.node_to, w.path || (st.doc_id || '#' || st.edge_no),
                       w.bfs || st.step
                FROM walk w
                CROSS JOIN LATERAL ({neighbours}) st
                WHERE w.hop < %(hops)s AND NOT st.node_to = ANY(w.visited)
            )
            SELECT seed, node, hop, strength, path FROM (
                SELECT DISTINCT ON (seed_no, node) seed_no, seed, node, hop, strength, path, bfs
                FROM walk WHERE hop > 0
                ORDER BY seed_no, node, hop, bfs
            ) first_met
            ORDER BY seed_no, hop, bfs
        """.format(neighbours=_NEIGHBOURS.format(node="w.node"))
        params = {"ws": self.workspace, "out": out_types, "in": in_types, "min": min_confidence,
                  "seed_ids": list(seeds), "seed_strengths": [float(v) for v in seeds.values()],
                  "hops": hops}
        rows = self._query(sql, params)
        edges = self._edges_by_ref({ref for *_, path in rows for ref in path})
        return [
            (seed, node, strength * decay ** (hop - 1), [edges[ref] for ref in path])
            for seed, node, hop, strength, path in rows
        ]

    def _edges_by_ref(self, refs: set[str]) -> dict[str, Edge]:
        if not refs:
            return {}
        pairs = [ref.rsplit("#", 1) for ref in refs]
        rows = self._query(
            "SELECT e.doc_id || '#' || e.edge_no, e.type, e.source, e.target, e.confidence, "
            "e.rule_id, e.evidence, e.evidence_start, e.evidence_end, e.term FROM edges e "
            "JOIN unnest(%s::text[], %s::int[]) AS r(doc_id, edge_no) "
            "ON e.doc_id = r.doc_id AND e.edge_no = r.edge_no WHERE e.workspace = %s",
            ([p[0] for p in pairs], [int(p[1]) for p in pairs], self.workspace))
        return {row[0]: _edge(row[1:]) for row in rows}

    def incident_edges(self, clause_id: str, direction: str) -> list[Edge]:
        """Edges leaving (``out``) or entering (``in``) a clause, in walk order."""
        types = [t.value for t in RelationType]
        rows = self._query(
            "SELECT x.doc_id, x.edge_no FROM ({}) x ORDER BY x.step".format(
                _NEIGHBOURS.format(node="%(node)s")),
            {"ws": self.workspace, "node": clause_id, "min": -1.0,
             "out": types if direction == "out" else [], "in": types if direction == "in" else []})
        edges = self._edges_by_ref({f"{d}#{n}" for d, n in rows})
        return [edges[f"{d}#{n}"] for d, n in rows]

class _DocumentNames:
    """What document scoping matches a question against (see ``clausegraph.retrieve.scope``)."""

    def __init__(self, profile_tokens: list[str], title_tokens: set[str],
                 name_tokens: set[str]) -> None:
        self.profile_tokens = profile_tokens
        self.title_tokens = title_tokens
        self.name_tokens = name_tokens

    @classmethod
    def of(cls, document: Document, clauses: list[Clause]) -> _DocumentNames:
        from clausegraph.retrieve.scope import document_name, document_profile, opening_parties
        from clausegraph.text.tokenize import tokenize

        title = set(tokenize(document_name(document)))
        parties = set(tokenize(opening_parties(clauses).get(document.doc_id, "")))
        return cls(tokenize(document_profile(document)), title, title | parties)


# The typed neighbours of one clause, one row per walkable edge, ``step`` ordering them as
# the local backend does: out-edges before in-edges; neighbours in the order their first
# edge was stored, then edge types in the order first stored; of several edges with the
# same neighbour and type, the last stored (the local adjacency keeps one per type).
_NEIGHBOURS = """
    SELECT node_to, doc_id, edge_no, confidence, step FROM (
        SELECT e.target AS node_to, e.doc_id, e.edge_no, e.confidence, e.type,
               row_number() OVER (PARTITION BY e.target, e.type ORDER BY e.seq DESC) AS last,
               ARRAY[0, min(e.seq) OVER (PARTITION BY e.target),
                     min(e.seq) OVER (PARTITION BY e.target, e.type)] AS step
        FROM edges e WHERE e.workspace = %(ws)s AND e.source = {node}
    ) typed WHERE last = 1 AND type = ANY(%(out)s) AND confidence >= %(min)s
    UNION ALL
    SELECT node_to, doc_id, edge_no, confidence, step FROM (
        SELECT e.source AS node_to, e.doc_id, e.edge_no, e.confidence, e.type,
               row_number() OVER (PARTITION BY e.source, e.type ORDER BY e.seq DESC) AS last,
               ARRAY[1, min(e.seq) OVER (PARTITION BY e.source),
                     min(e.seq) OVER (PARTITION BY e.source, e.type)] AS step
        FROM edges e WHERE e.workspace = %(ws)s AND e.target = {node}
    ) typed WHERE last = 1 AND type = ANY(%(in)s) AND confidence >= %(min)s
"""


def _as_array(value: Any) -> np.ndarray:
    return value.to_numpy() if hasattr(value, "to_numpy") else np.asarray(value)


def _vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form; COPY and parameters accept it without a registered adapter."""
    return "[" + ",".join(f"{float(x):.8g}" for x in vector) + "]"


def _types_json(types: Sequence[ClauseType]) -> str:
    return json.dumps([t.model_dump() for t in types])


def _clause(row: tuple) -> Clause:
    (clause_id, doc_id, order, number, section_path, heading, kind, text, start, end,
     segments, pages, entities, defined_terms, clause_types) = row
    return Clause(
        clause_id=clause_id, doc_id=doc_id, number=number, section_path=list(section_path),
        heading=heading, text=text, span=(start, end), segments=[tuple(s) for s in segments],
        pages=list(pages), order=order, kind=kind,
        entities=[Entity(**e) for e in entities], defined_terms=list(defined_terms),
        clause_types=[ClauseType(**t) for t in clause_types],
    )


def _edge(row: Sequence[Any]) -> Edge:
    type_, source, target, confidence, rule_id, evidence, start, end, term = row
    return Edge(type=type_, source=source, target=target, confidence=float(confidence),
                rule_id=rule_id, evidence=evidence, evidence_span=(start, end), term=term)
