"""Connecting to the index database: URL parsing, one-line errors, schema migrations.

An index URL is ``postgresql://user[:password]@host[:port]/database`` with an optional
``?workspace=NAME`` (default ``default``); the password may also come from ``PGPASSWORD``
or ``~/.pgpass`` as for any libpq client. Every session is pinned to its workspace by the
``clausegraph.workspace`` setting that the row-level security policies read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from clausegraph.errors import IndexStoreError

DEFAULT_WORKSPACE = "default"
# A role without BYPASSRLS that sessions of privileged users switch to, so that row-level
# security binds superusers too (PostgreSQL exempts them otherwise).
RLS_ROLE = "clausegraph_rls"
_WORKSPACE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def is_postgres_url(index: object) -> bool:
    return str(index).startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True)
class IndexURL:
    """A parsed index URL: the libpq connection string, the workspace, a display name."""

    conninfo: str
    workspace: str
    display: str  # host:port/database, never the password

    @classmethod
    def parse(cls, url: str) -> IndexURL:
        parts = urlsplit(str(url))
        query = dict(parse_qsl(parts.query))
        workspace = query.pop("workspace", DEFAULT_WORKSPACE)
        if not _WORKSPACE.match(workspace):
            raise IndexStoreError(_redact(parts), f"workspace {workspace!r} is not a valid name "
                                  "(letters, digits, '_', '-', '.'; at most 64)")
        conninfo = urlunsplit(parts._replace(query=urlencode(query)))
        return cls(conninfo, workspace, _redact(parts))


def _redact(parts: Any) -> str:
    host = parts.hostname or "localhost"
    port = parts.port or 5432
    return f"postgresql://{parts.username or ''}@{host}:{port}{parts.path}"


def connect(url: IndexURL, *, autocommit: bool = False) -> Any:
    """A psycopg connection pinned to the URL's workspace; one-line errors otherwise."""
    import psycopg
    from pgvector.psycopg import register_vector

    try:
        conn = psycopg.connect(url.conninfo, autocommit=autocommit, connect_timeout=10,
                               application_name="clausegraph")
    except psycopg.OperationalError as exc:
        raise IndexStoreError(url.display, _connection_problem(str(exc))) from None
    try:
        _pin_workspace(conn, url)
        register_vector(conn)
    except psycopg.ProgrammingError as exc:
        conn.close()
        if "vector type not found" in str(exc):
            raise IndexStoreError(url.display, _missing_vector(conn, url)) from None
        raise
    except Exception:
        conn.close()
        raise
    return conn


def _connection_problem(message: str) -> str:
    text = " ".join(message.split())
    if "password authentication failed" in text:
        user = re.search(r'for user "([^"]+)"', text)
        return f"password authentication failed for user {user.group(1) if user else '?'}"
    if "no password supplied" in text:
        return "the server asks for a password and none was given (URL, PGPASSWORD or ~/.pgpass)"
    if "Connection refused" in text:
        return "connection refused (is PostgreSQL running and listening on that host and port?)"
    if "does not exist" in text:
        found = re.search(r'FATAL:\s*(.*?does not exist)', text)
        return found.group(1) if found else text
    if "timeout expired" in text:
        return "connection timed out"
    return text.split("failed:")[-1].strip() or text


def _pin_workspace(conn: Any, url: IndexURL) -> None:
    with conn.cursor() as cur:
        cur.execute("SELECT set_config('clausegraph.workspace', %s, false)", (url.workspace,))
        cur.execute(
            "SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user"
        )
        row = cur.fetchone()
        if row and row[0] and _rls_role_ready(cur):
            cur.execute(f"SET ROLE {RLS_ROLE}")
    if not conn.autocommit:
        conn.commit()


def _rls_role_ready(cur: Any) -> bool:
    cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (RLS_ROLE,))
    return cur.fetchone() is not None


def _missing_vector(conn: Any, url: IndexURL) -> str:
    return ("the pgvector extension is not installed in this database and this user may not "
            "install it; run 'CREATE EXTENSION vector;' as a superuser (or pick a server with "
            "pgvector)")


# -- migrations --------------------------------------------------------------------------------

def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql template) for every numbered file in ``migrations/``."""
    folder = resources.files("clausegraph.store.postgres") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = re.match(r"^(\d+)_.*\.sql$", entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(url: IndexURL, dim: int, embedding_model: str) -> None:
    """Create the vector extension (if allowed) and apply pending migrations, once.

    Several processes may call this at once: a transaction-level advisory lock makes the
    second wait and then find nothing left to do.
    """
    import psycopg

    conn = _connect_plain(url)
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('clausegraph-migrate'))")
            _ensure_vector(conn, url)
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer "
                         "PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL "
                         "DEFAULT now())")
            done = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
            for version, name, template in migration_files():
                if version in done:
                    continue
                conn.execute(template.replace("{dim}", str(int(dim))))
                conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                             (version, name))
            if not done:
                conn.execute("INSERT INTO store_settings VALUES ('embedding_model', %s), "
                             "('dim', %s)", (embedding_model, str(dim)))
            _grant_rls_role(conn)
    except psycopg.errors.InsufficientPrivilege as exc:
        raise IndexStoreError(url.display, f"cannot create the schema: {exc}") from None
    finally:
        conn.close()


def check_vector(url: IndexURL) -> None:
    """Connect, and create the vector extension if it is missing (one-line errors)."""
    conn = _connect_plain(url)
    try:
        with conn.transaction():
            _ensure_vector(conn, url)
    finally:
        conn.close()


def schema_version(url: IndexURL) -> int:
    conn = _connect_plain(url)
    try:
        row = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
        if not row[0]:
            return 0
        return int(conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations")
                   .fetchone()[0])
    finally:
        conn.close()


def latest_version() -> int:
    return max(v for v, _, _ in migration_files())


def _connect_plain(url: IndexURL) -> Any:
    import psycopg

    try:
        return psycopg.connect(url.conninfo, connect_timeout=10, application_name="clausegraph")
    except psycopg.OperationalError as exc:
        raise IndexStoreError(url.display, _connection_problem(str(exc))) from None


def _ensure_vector(conn: Any, url: IndexURL) -> None:
    import psycopg

    if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
        return
    try:
        with conn.transaction():
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.UndefinedFile,
            psycopg.errors.FeatureNotSupported):
        raise IndexStoreError(url.display, _missing_vector(conn, url)) from None


def _grant_rls_role(conn: Any) -> None:
    """Privileged users: make the role their sessions switch to (see ``RLS_ROLE``)."""
    row = conn.execute("SELECT rolsuper OR rolbypassrls, rolcreaterole OR rolsuper FROM pg_roles "
                       "WHERE rolname = current_user").fetchone()
    if not row or not row[0]:
        return
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (RLS_ROLE,)).fetchone()
    if not exists:
        if not row[1]:
            return
        import psycopg

        try:
            with conn.transaction():  # the role is cluster-wide: another database may win
                conn.execute(f"CREATE ROLE {RLS_ROLE} NOLOGIN NOBYPASSRLS")
        except (psycopg.errors.DuplicateObject, psycopg.errors.UniqueViolation):
            pass
    conn.execute(f"GRANT USAGE ON SCHEMA public TO {RLS_ROLE}")
    conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public "
                 f"TO {RLS_ROLE}")
    conn.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {RLS_ROLE}")
