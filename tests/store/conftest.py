"""Backends under test: every backend runs tests/store/test_contract.py.

``store_factory`` makes a new, empty index of one backend per call; a backend whose server
or extra is not available here is skipped with the reason shown by ``pytest -ra``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from clausegraph.store.base import IndexStore

BACKENDS = ["local"]


@pytest.fixture(params=BACKENDS)
def store_factory(request: pytest.FixtureRequest, tmp_path_factory) -> Callable[[], IndexStore]:
    if request.param == "local":
        from clausegraph.store.local.folder import FolderStore

        def make() -> IndexStore:
            return FolderStore(tmp_path_factory.mktemp("local") / "index")

        return make
    raise AssertionError(f"unknown backend {request.param}")
