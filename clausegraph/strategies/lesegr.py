"""LeSeGR of CG-RAG (seed 001): BM25 and dense relevance propagated over the clause graph
by relevance-weighted message passing; :func:`fit_weights` fits its two main weights."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from clausegraph.config import RetrievalConfig
from clausegraph.models import Edge, RelationType
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.strategies.base import StrategyConfig, StrategyResult
from clausegraph.strategies.common import (
    ScoredQuery,
    ScoredStrategy,
    SeedResult,
    edge_text,
    incident,
    make_result,
    score_query,
    top_rows,
)

DEFAULT_TYPE_WEIGHTS: dict[str, float] = {
    RelationType.CAUSES.value: 1.0,
    RelationType.ENTAILS.value: 0.9,
    RelationType.OVERRIDES.value: 0.9,
    RelationType.REFERS_TO.value: 0.8,
    RelationType.DEFINES.value: 0.6,
    RelationType.SAME_SECTION.value: 0.3,
}


class LeSeGRWeights(BaseModel):
    """LeSeGR's weights (a fitted file also records ``objective`` and ``queries``)."""

    model_config = ConfigDict(extra="allow")

    sparse: float = Field(0.5, ge=0.0, description="share of BM25 in the relevance")
    dense: float = Field(0.5, ge=0.0, description="share of cosine in the relevance")
    alpha: float = Field(0.6, ge=0.0, le=1.0, description="how much a clause keeps its score")
    layers: int = Field(2, ge=0, description="message-passing rounds")
    type_weights: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_TYPE_WEIGHTS))


DEFAULT_LESEGR_WEIGHTS: dict[str, Any] = LeSeGRWeights().model_dump()


class LeSeGRConfig(StrategyConfig):
    """Where LeSeGR's weights come from: the defaults, a weights file (fitted), then any
    weight given here explicitly."""

    weights_file: Path | None = Field(None, description="JSON saved by fit_weights")
    sparse: float | None = Field(None, ge=0.0)
    dense: float | None = Field(None, ge=0.0)
    alpha: float | None = Field(None, ge=0.0, le=1.0)
    layers: int | None = Field(None, ge=0)
    type_weights: dict[str, float] | None = None


def read_weights(path: Path) -> LeSeGRWeights:
    """A weights file; ``ValueError`` naming the file when it is unreadable or incomplete."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"LeSeGR weights {path}: cannot read ({exc})") from exc
    if not isinstance(data, dict) or not {"sparse", "dense", "alpha"} <= set(data):
        raise ValueError(f"LeSeGR weights {path}: needs sparse, dense and alpha")
    return LeSeGRWeights.model_validate(data)


def propagate(
    relevance: dict[int, float],
    neighbours: dict[int, list[tuple[int, float]]],
    alpha: float,
    layers: int,
) -> dict[int, float]:
    """Training-free LeSeGR message passing.

    h_i' = alpha * h_i + (1 - alpha) * sum_j w_ij rel_j h_j / sum_j w_ij rel_j, with w_ij the
    edge-type weight times edge confidence and rel_j the neighbour's own (layer-0) relevance:
    each clause moves toward the relevance-weighted mean of its neighbours. A clause with no
    (relevant) neighbours keeps its score.
    """
    h = dict(relevance)
    for _ in range(layers):
        new = {}
        for i, value in h.items():
            num = den = 0.0
            for j, w in neighbours.get(i, ()):
                gate = w * relevance.get(j, 0.0)
                num += gate * h.get(j, 0.0)
                den += gate
            new[i] = alpha * value + (1.0 - alpha) * (num / den) if den > 0 else value
        h = new
    return h


class LeSeGRStrategy(ScoredStrategy):
    """LeSeGR (seed 001, CG-RAG) as training-free message passing on the clause graph.

    relevance_i = sparse x BM25_i / max + dense x cosine_i / max over the candidate clauses;
    the subgraph is the ``candidate_k`` most relevant clauses plus their graph neighbours;
    :func:`propagate` runs ``layers`` (2) rounds with ``alpha`` 0.6 and edge-type weights
    (Causes 1.0, Entails/Overrides 0.9, RefersTo 0.8, Defines 0.6, SameSection 0.3, times
    confidence), edges walked both ways. Final score = propagated relevance. The paper's
    graph transformer trained on 10% labels is replaced by :func:`fit_weights`, a grid search
    of (sparse share, alpha) on labelled queries, saved to JSON and loaded with
    ``weights_file``; ``lesegr-fitted`` is this strategy with the settings' weights file
    (``strategies.lesegr_weights``, default ``docs/lesegr_weights.json``). The trace's
    ``scores`` map each clause of the subgraph to (relevance, propagated score).
    """

    name = "lesegr"

    def __init__(self, config: LeSeGRConfig | None = None, *, name: str = "lesegr",
                 **params: Any) -> None:
        self.config = config or LeSeGRConfig(**params)
        self.name = name
        weights = read_weights(self.config.weights_file) if self.config.weights_file \
            else LeSeGRWeights()
        explicit = self.config.model_dump(exclude={"weights_file"}, exclude_none=True)
        self.weights = weights.model_copy(update=explicit)

    def rank(self, retriever: Retriever, q: ScoredQuery, config: RetrievalConfig) -> StrategyResult:
        w = self.weights
        total = (w.sparse + w.dense) or 1.0
        rel_all = (w.sparse * q.bm25 / q.bm25_max
                   + w.dense * np.clip(q.dense, 0.0, None) / q.dense_max) / total
        pool = top_rows(rel_all, max(config.candidate_k, config.top_k))
        nodes, neighbours, strongest = self._subgraph(q, pool, rel_all)
        relevance = {r: float(rel_all[r]) for r in nodes}
        h = propagate(relevance, neighbours, float(w.alpha), int(w.layers))
        ranked = sorted(nodes, key=lambda r: (-h[r], r))[: config.top_k]
        before = {r: i + 1 for i, r in enumerate(pool)}
        hits = [self._result(q, r, relevance[r], h[r], before, strongest.get(r), config)
                for r in ranked]
        scores = {q.ids[r]: (relevance[r], h[r]) for r in nodes}
        return StrategyResult(hits, {}, {"scores": scores})

    def _subgraph(
        self, q: ScoredQuery, pool: list[int], rel_all: np.ndarray
    ) -> tuple[set[int], dict[int, list[tuple[int, float]]], dict[int, Edge]]:
        """The pool and its neighbours; weighted neighbour lists; each node's strongest edge."""
        nodes = set(pool)
        for row in pool:
            for neighbour, _ in incident(q.index.graph, q.ids[row]):
                j = q.row.get(neighbour)
                if j is not None:
                    nodes.add(j)
        type_weights = self.weights.type_weights
        neighbours: dict[int, list[tuple[int, float]]] = {}
        strongest: dict[int, Edge] = {}
        for row in nodes:
            best = 0.0
            for neighbour, edge in incident(q.index.graph, q.ids[row]):
                j = q.row.get(neighbour)
                if j is None or j not in nodes:
                    continue
                weight = type_weights.get(edge.type.value, 0.5) * edge.confidence
                neighbours.setdefault(row, []).append((j, weight))
                if weight * rel_all[j] > best:
                    best, strongest[row] = weight * rel_all[j], edge
        return nodes, neighbours, strongest

    def _result(
        self, q: ScoredQuery, row: int, relevance: float, score: float, before: dict[int, int],
        edge: Edge | None, config: RetrievalConfig,
    ) -> SeedResult:
        lifted = score > relevance + 1e-9
        origin = "seed" if before.get(row, 10**9) <= config.top_k else (
            "expanded" if lifted or row not in before else "hit")
        note = (f"relevance {relevance:.2f} -> {score:.2f} after {self.weights.layers} message-"
                "passing layers")
        if edge is not None:
            note += f" (strongest neighbour via {edge_text(edge)})"
        expanded = edge is not None and origin == "expanded"
        via_seed = None
        if expanded:
            via_seed = edge.source if edge.target == q.ids[row] else edge.target
        return make_result(
            q, row, score=score, origin=origin, strategy=self.name, explanation=note,
            seed_rank=before.get(row) if origin == "seed" else None,
            via=[edge] if expanded else [], via_seed=via_seed, bm25_weight=config.bm25_weight,
        )


def fit_weights(
    graph: Any,
    labelled_queries: Iterable[tuple[str, Iterable[str]]],
    path: str | Path | None = None,
    top_k: int = 8,
    sparse_grid: Iterable[float] = (0.0, 0.25, 0.5, 0.75, 1.0),
    alpha_grid: Iterable[float] = (0.4, 0.6, 0.8, 1.0),
    config: RetrievalConfig | None = None,
) -> dict[str, Any]:
    """Fit LeSeGR's (sparse share, alpha) on labelled queries by grid search; save as JSON.

    ``graph`` is a :class:`~clausegraph.api.ClauseGraph` or a :class:`Retriever`;
    ``labelled_queries`` pairs a question with the ids of its relevant clauses. The objective
    is mean reciprocal rank of the first relevant clause plus recall@``top_k`` (ties keep the
    earlier, i.e. the more sparse-light and propagation-heavy, grid point). The queries are
    scored once and only the propagation is re-run per grid point. ``config`` (default:
    the default RetrievalConfig) decides scoping and candidates, as it will at query time.
    """
    retriever = graph.retriever if hasattr(graph, "retriever") else graph
    config = (config or RetrievalConfig()).model_copy(update={"top_k": top_k})
    prepared = []
    for question, relevant in labelled_queries:
        q = score_query(retriever, question, config, None)
        if q is not None:
            prepared.append((q, set(relevant)))
    best: tuple[float, dict[str, Any]] | None = None
    alpha_grid = list(alpha_grid)
    for sparse in sparse_grid:
        for alpha in alpha_grid:
            strategy = LeSeGRStrategy(sparse=sparse, dense=1.0 - sparse, alpha=alpha)
            objective = 0.0
            for q, relevant in prepared:
                ids = [r.clause_id for r in strategy.rank(retriever, q, config).hits]
                first = next((i for i, c in enumerate(ids) if c in relevant), None)
                objective += (1.0 / (first + 1) if first is not None else 0.0)
                objective += len(relevant & set(ids)) / max(len(relevant), 1)
            objective /= max(len(prepared), 1)
            if best is None or objective > best[0] + 1e-12:
                best = (objective, {"sparse": sparse, "dense": 1.0 - sparse, "alpha": alpha})
    fitted = {**DEFAULT_LESEGR_WEIGHTS, **(best[1] if best else {}),
              "objective": round(best[0], 6) if best else 0.0, "queries": len(prepared)}
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(fitted, indent=1), encoding="utf-8")
    return fitted
