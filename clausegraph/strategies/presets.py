"""Baselines and ablations: the clause-graph retriever with some settings fixed.

Baselines search the whole corpus with one signal, as plain RAG does; ablations switch off
one part of the full retriever each, so the difference is that part's contribution.
"""

from __future__ import annotations

from typing import Any

from clausegraph.config import RetrievalConfig
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.strategies.base import Strategy, StrategyResult

_PLAIN = {"hops": 0, "beta": 0.0, "gamma": 0.0, "scope_documents": False}
PRESETS: dict[str, dict[str, Any]] = {
    "clausegraph": {},
    "dense": {**_PLAIN, "bm25_weight": 0.0},
    "bm25": {**_PLAIN, "bm25_weight": 1.0},
    "hybrid": dict(_PLAIN),
    "clausegraph-no-expansion": {"hops": 0},
    "clausegraph-no-scope": {"scope_documents": False},
}


class PresetStrategy(Strategy):
    """The clause-graph retriever with the ``fixed`` RetrievalConfig fields."""

    def __init__(self, name: str, fixed: dict[str, Any]) -> None:
        self.name = name
        self.fixed = fixed

    def retrieve(
        self,
        retriever: Retriever,
        query: str,
        config: RetrievalConfig,
        doc_ids: list[str] | None = None,
    ) -> StrategyResult:
        adjusted = config.model_copy(update=self.fixed)
        return StrategyResult(retriever.retrieve(query, adjusted, doc_ids))
