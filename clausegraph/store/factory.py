"""Which storage backend an index location names (txtai's factory pattern).

A folder path opens the local backend; ``postgresql://`` (or ``postgres://``) URLs open
the PostgreSQL backend, installed with the ``[postgres]`` extra.
"""

from __future__ import annotations

from pathlib import Path

from clausegraph.store.base import IndexStore

URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(location: str | Path) -> bool:
    return str(location).startswith(URL_SCHEMES)


def create_store(location: str | Path, **options: object) -> IndexStore:
    """The store for ``location``: a folder (default) or a database URL."""
    if is_url(location):
        from clausegraph.store.postgres import PostgresStore  # optional backend

        return PostgresStore(str(location), **options)
    from clausegraph.store.local.folder import FolderStore

    return FolderStore(Path(location))


def workspace_location(location: str | Path, name: str) -> str:
    """Where workspace ``name`` of the index at ``location`` lives: its own folder under a
    folder index, or the same database with ``?workspace=NAME`` (row-level security keeps
    workspaces of one database apart)."""
    if not is_url(location):
        return str(Path(location) / ".workspaces" / name)
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(str(location))
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "workspace"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("workspace", name)])))

