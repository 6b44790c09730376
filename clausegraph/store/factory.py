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
