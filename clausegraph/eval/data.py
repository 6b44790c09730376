"""Where the evaluation data lives: found relative to the repository, never by a machine path.

The shared data (``shared/data``: LegalBench-RAG, CUAD labels, policies) sits beside a clone
of this repository (``<clone>/../shared/data``). ``$CLAUSEGRAPH_SHARED_DATA`` names another
folder; benchmarks and training scripts take it from here.
"""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATA_ENV = "CLAUSEGRAPH_SHARED_DATA"
REPO_ROOT = Path(__file__).resolve().parents[2]


def shared_data_dir() -> Path:
    """``$CLAUSEGRAPH_SHARED_DATA``, else ``../shared/data`` beside the working folder or the
    repository (the first that exists; the repository's when neither does)."""
    if os.environ.get(SHARED_DATA_ENV):
        return Path(os.environ[SHARED_DATA_ENV])
    for base in (Path.cwd(), REPO_ROOT):
        candidate = (base / ".." / "shared" / "data").resolve()
        if candidate.is_dir():
            return candidate
    return (REPO_ROOT / ".." / "shared" / "data").resolve()
