"""Named retrieval strategies, selectable with ``--strategy`` everywhere.

A strategy is a base class with one method plus a registry (txtai's ``factory`` idea):
baselines and ablations of the clause-graph retriever are presets of ``RetrievalConfig``;
methods that need different machinery subclass :class:`Strategy`.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from clausegraph.config import RetrievalConfig
from clausegraph.models import RetrievedClause
from clausegraph.retrieve.hybrid import Retriever

# Baselines search the whole corpus with one signal, as plain RAG does; ablations switch off
# one part of the full retriever each, so the difference is that part's contribution.
_PLAIN = {"hops": 0, "beta": 0.0, "gamma": 0.0, "scope_documents": False}
PRESETS: dict[str, dict[str, Any]] = {
    "clausegraph": {},
    "dense": {**_PLAIN, "bm25_weight": 0.0},
    "bm25": {**_PLAIN, "bm25_weight": 1.0},
    "hybrid": dict(_PLAIN),
    "clausegraph-no-expansion": {"hops": 0},
    "clausegraph-no-scope": {"scope_documents": False},
}


class Strategy(ABC):
    """Retrieves clauses for a query; ``config`` carries the shared knobs (top_k, ...).

    A strategy with an LLM stage sets ``uses_llm``; ``ClauseGraph.retrieve`` then hands it
    the configured model as ``llm`` (None offline, when the documented stand-in runs).
    """

    name: str
    uses_llm: bool = False
    llm: Any = None

    def notes(self) -> dict[str, str]:
        """What the last query produced besides the ranking (a causal summary, a HyDE
        clause, saved files), shown with the answer; empty for most strategies."""
        return {}

    @abstractmethod
    def retrieve(
        self,
        retriever: Retriever,
        query: str,
        config: RetrievalConfig,
        doc_ids: list[str] | None = None,
    ) -> list[RetrievedClause]:
        """The ranked clauses for ``query``."""


class PresetStrategy(Strategy):
    """The clause-graph retriever with some settings fixed (baselines and ablations)."""

    def __init__(self, name: str, fixed: dict[str, Any]) -> None:
        self.name = name
        self.fixed = fixed

    def retrieve(
        self,
        retriever: Retriever,
        query: str,
        config: RetrievalConfig,
        doc_ids: list[str] | None = None,
    ) -> list[RetrievedClause]:
        adjusted = config.model_copy(update=self.fixed)
        return retriever.retrieve(query, adjusted, doc_ids)


_REGISTRY: dict[str, Callable[[], Strategy]] = {
    name: (lambda name=name, fixed=fixed: PresetStrategy(name, fixed))
    for name, fixed in PRESETS.items()
}


def register(name: str, factory: Callable[[], Strategy]) -> None:
    """Make a strategy available by name (used by the seed-paper strategies)."""
    _REGISTRY[name] = factory


def strategy_names() -> list[str]:
    return sorted(_REGISTRY)


def create_strategy(name: str) -> Strategy:
    """The strategy called ``name``; a clear error lists the known ones.

    ``causal-k{K}-s{S}`` names (CausalRAG's parameter grid) are made on first use, and
    ``lesegr-fitted`` reads its weights file (env ``CLAUSEGRAPH_LESEGR_WEIGHTS``) each time.
    """
    grid = re.fullmatch(r"causal-k(\d+)-s(\d+)", name)
    if name not in _REGISTRY and grid:
        strategies_seed.causal_grid([int(grid.group(1))], [int(grid.group(2))])
    if name == "lesegr-fitted":
        return strategies_seed.fitted_lesegr()
    if name not in _REGISTRY:
        raise ValueError(f"unknown strategy {name!r}; choose one of: {', '.join(strategy_names())}")
    return _REGISTRY[name]()
from clausegraph.strategies import seed as strategies_seed  # noqa: F401  (registers the seed-paper strategies)
