"""Storage: where clauses, their vectors, BM25 statistics and edges are kept.

``base.py`` is the interface, ``factory.py`` picks a backend from the index location,
``local/`` is the folder backend (the default).
"""

from clausegraph.store.base import (
    ClauseStore,
    DocumentArtifacts,
    DocumentEntry,
    GraphStore,
    IndexReader,
    IndexStore,
    LexicalIndex,
    VectorIndex,
)
from clausegraph.store.factory import create_store, is_url

__all__ = [
    "ClauseStore", "DocumentArtifacts", "DocumentEntry", "GraphStore", "IndexReader",
    "IndexStore", "LexicalIndex", "VectorIndex", "create_store", "is_url",
]
