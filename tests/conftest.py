"""Shared fixtures: the shipped sample contracts, indexed once per test session."""

from __future__ import annotations

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
