"""One real contract (Photronics, CUAD) indexed once for the strategy tests."""

from __future__ import annotations

import pytest

from tests.conftest import dataset_pdf

QUESTION = "What happens if the agreement is terminated or a party breaches it?"
SEED_STRATEGIES = ["causal", "causal-search", "e2rag", "lesegr"]


@pytest.fixture(scope="session")
def graph(tmp_path_factory: pytest.TempPathFactory):
    from clausegraph.api import ClauseGraph

    cg = ClauseGraph.open(tmp_path_factory.mktemp("seedstrat") / "index", create=True)
    report = cg.ingest([dataset_pdf("Photronics")])
    assert not report.failed, [o.error for o in report.failed]
    return cg


@pytest.fixture(autouse=True)
def _causal_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUSEGRAPH_CAUSAL_DIR", str(tmp_path / "causal"))


class ScriptedLLM:
    """Answers every prompt with ``reply(prompt)`` and records the prompts."""

    def __init__(self, reply):
        self.reply = reply
        self.prompts: list[str] = []

    def generate(self, system, user, schema=None):
        self.prompts.append(user)
        return type("Response", (), {"text": self.reply(user)})()
