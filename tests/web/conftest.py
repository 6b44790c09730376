"""Web app fixtures: an app over a copy of the sample index (the shared one stays as is)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install -e '.[web]'")

@pytest.fixture(scope="session")
def web_index(sample_graph, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample index (three CUAD PDFs) that web tests may change."""
    target = tmp_path_factory.mktemp("web") / "index"
    shutil.copytree(sample_graph.store.location, target)
    return target
