"""What a retrieval strategy is: a config, one ``retrieve`` method, and what it returns.

A strategy keeps no per-query state: everything a query produced besides the ranking (a
causal summary, a HyDE clause, saved files, the seeds it started from) comes back in the
:class:`StrategyResult`, so one strategy object can serve many queries, in any order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from clausegraph.config import RetrievalConfig
from clausegraph.models import RetrievedClause
from clausegraph.retrieve.hybrid import Retriever


class StrategyConfig(BaseModel):
    """A strategy's own parameters (the shared knobs, top_k and so on, are in
    ``RetrievalConfig``); unknown names are an error, not a silent default."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass
class StrategyResult:
    """The ranked clauses for one query, and what else the strategy produced for it.

    ``notes`` are shown with an answer and recorded in reports (name -> text); ``trace``
    holds structured facts for tests and analysis (seeds, hop counts, network data).
    """

    hits: list[RetrievedClause]
    notes: dict[str, str] = field(default_factory=dict)
    trace: dict[str, Any] = field(default_factory=dict)


class Strategy(ABC):
    """Retrieves clauses for a query; ``config`` carries the shared knobs (top_k, ...).

    A strategy with an LLM stage sets ``uses_llm``; ``ClauseGraph.retrieve`` then hands it
    the configured model as ``llm`` (None offline, when the documented stand-in runs).
    """

    name: str
    uses_llm: ClassVar[bool] = False
    llm: Any = None

    @abstractmethod
    def retrieve(
        self,
        retriever: Retriever,
        query: str,
        config: RetrievalConfig,
        doc_ids: list[str] | None = None,
    ) -> StrategyResult:
        """The ranked clauses for ``query`` (within ``doc_ids`` if given) and their notes."""


def stage_notes(name: str, value: str, failure: str, error: str | None) -> dict[str, str]:
    """A strategy's notes: what its stage produced, and why the LLM stage fell back, if it did."""
    notes = {name: value} if value else {}
    if error:
        notes[failure] = error
    return notes
