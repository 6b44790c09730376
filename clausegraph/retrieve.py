"""Hybrid retrieval over clauses: BM25 + dense seeds, typed graph expansion, rerank.

score = alpha * sim + beta * centrality + gamma * path_support      (seed 004, 4.4)

- ``sim`` fuses BM25 and cosine similarity, each divided by its best candidate's value;
- ``centrality`` is the clause's log-scaled degree in its document graph;
- ``path_support`` is the strongest typed path from a seed hit: the seed's sim times the
  product of edge confidences, times ``path_decay`` for every hop after the first. In the
  score it is floored at the clause's own ``sim`` (a clause supports itself), so a path can
  lift a clause up to the relevance of the seed it comes from but never above that seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, Field

from clausegraph.config import RetrievalConfig
from clausegraph.embed import Embedder
from clausegraph.index import ClauseIndex, tokenize
from clausegraph.models import Clause, Edge, RelationType
from clausegraph.scope import DocumentScope, without_document_name

# Which way each edge type is walked from a clause already in the pool. Defines edges
# point from a definition to every clause using the term: walking them forwards from a
# definition would flood the pool, walking them backwards brings in the definition.
_WALK_DIRECTIONS: dict[RelationType, tuple[str, ...]] = {
    RelationType.DEFINES: ("in",),
    RelationType.REFERS_TO: ("out", "in"),
    RelationType.OVERRIDES: ("in", "out"),
    RelationType.ENTAILS: ("in", "out"),
    RelationType.CAUSES: ("in", "out"),
    RelationType.SAME_SECTION: ("in", "out"),
}


class RetrievedClause(BaseModel):
    """A clause in the result, its scores, and why it is there."""

    clause: Clause
    score: float
    sim: float
    bm25: float = Field(description="raw BM25 score")
    dense: float = Field(description="cosine similarity to the query")
    centrality: float
    path_support: float
    origin: str = Field(
        description="'seed' (top fused hit, starts expansion), 'hit' (a lower BM25/dense "
        "candidate), 'expanded' (reached through the graph) or 'governing' (a definition "
        "or exception of a returned clause, added to an answer)"
    )
    seed_rank: int | None = Field(default=None, description="1-based rank among seed hits")
    via: list[Edge] = Field(default_factory=list, description="edges walked from the seed")
    via_seed: str | None = None

    @property
    def clause_id(self) -> str:
        return self.clause.clause_id

    def reason(self) -> str:
        """One line saying why this clause was retrieved."""
        scores = f"sim {self.sim:.2f}: BM25 {self.bm25:.2f}, dense {self.dense:.2f}"
        if self.origin == "seed":
            return f"seed hit #{self.seed_rank} ({scores})"
        if self.origin == "hit":
            return f"retrieval hit ({scores})"
        steps = ", ".join(
            f"{_local(e.source)} {e.type.value} {_local(e.target)}" for e in self.via
        )
        return f"reached from {_local(self.via_seed or '')} via {steps}"


@dataclass
class _Candidate:
    position: int
    bm25: float = 0.0
    dense: float = 0.0
    sim: float = 0.0
    support: float = 0.0
    via: tuple[Edge, ...] = ()
    via_seed: str | None = None


class Retriever:
    """Runs hybrid retrieval against a loaded :class:`ClauseIndex`.

    >>> retriever = Retriever(index, embedder)  # doctest: +SKIP
    >>> hits = retriever.retrieve("Is cataract surgery covered?", RetrievalConfig(top_k=5))
    """

    def __init__(self, index: ClauseIndex, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder
        self.last_scope: DocumentScope | None = None

    def retrieve(
        self,
        query: str,
        config: RetrievalConfig | None = None,
        doc_ids: list[str] | None = None,
    ) -> list[RetrievedClause]:
        """The ``config.top_k`` best clauses for ``query``, optionally within ``doc_ids``."""
        config = config or RetrievalConfig()
        if not self.index.clauses:
            return []
        doc_ids, query = self.resolve_scope(query, config, doc_ids)
        allowed = self._allowed_mask(doc_ids)
        bm25_all = self._bm25_scores(query, allowed)
        query_vector = self.embedder.encode_query(query)
        pool = self._seed_pool(bm25_all, query_vector, allowed, config)
        seeds = sorted(pool.values(), key=lambda c: -c.sim)[: config.seed_k]
        self._add_graph_support(pool, seeds, config)
        self._score_new(pool, bm25_all, query_vector, config)
        return self._rank(pool, seeds, config)

    def resolve_scope(
        self, query: str, config: RetrievalConfig, doc_ids: list[str] | None
    ) -> tuple[list[str] | None, str]:
        """The documents to search and the query text to search with.

        Explicit ``doc_ids`` win; otherwise, if the query names one document, that document
        and the rest of the query (recorded in ``last_scope``). Every strategy calls this.
        """
        self.last_scope = self._scope(query, config) if doc_ids is None else None
        if self.last_scope is not None:
            return self.last_scope.doc_ids, self.last_scope.question
        if config.scope_documents:
            chosen = doc_ids if doc_ids is not None else list(self.index.documents)
            if len(chosen) == 1:  # the one document may still be named in the question
                question = without_document_name(query, [self.index.documents[chosen[0]]])
                if question != query:
                    self.last_scope = DocumentScope(chosen, question, query)
                    return chosen if doc_ids is not None else None, question
        return doc_ids, query

    def _scope(self, query: str, config: RetrievalConfig) -> DocumentScope | None:
        if not config.scope_documents or len(self.index.documents) < 2:
            return None
        return self.index.scoper(config.scope_margin).scope(query)

    def governing(
        self, results: list[RetrievedClause], config: RetrievalConfig
    ) -> list[RetrievedClause]:
        """Definitions and exceptions that govern ``results`` but were not retrieved.

        An analyst must see the exception that limits a rule and the definition of the
        terms it uses even when they share no words with the question (seed 004's
        "context completion"). Exceptions come first, then definitions, strongest first.
        """
        have = {r.clause_id for r in results}
        found: dict[str, tuple[float, Edge, RetrievedClause]] = {}
        for result in results:
            graph = self.index.graph(result.clause.doc_id)
            for source, _, data in graph.in_edges(result.clause_id, data=True):
                edge: Edge = data["edge"]
                governs = edge.type in (RelationType.OVERRIDES, RelationType.DEFINES)
                if not governs or source in have or edge.confidence < config.min_edge_confidence:
                    continue
                strength = edge.confidence * result.score
                if source not in found or strength > found[source][0]:
                    found[source] = (strength, edge, result)
        ordered = sorted(
            found.items(),
            key=lambda item: (item[1][1].type is not RelationType.OVERRIDES, -item[1][0]),
        )
        return [
            self._governing_result(source, strength, edge, result)
            for source, (strength, edge, result) in ordered[: config.complete_k]
        ]

    def _governing_result(
        self, source: str, strength: float, edge: Edge, governed: RetrievedClause
    ) -> RetrievedClause:
        clause = self.index.clause(source)
        return RetrievedClause(
            clause=clause, score=strength, sim=0.0, bm25=0.0, dense=0.0,
            centrality=self.index.centrality(clause.doc_id).get(source, 0.0),
            path_support=edge.confidence, origin="governing", via=[edge],
            via_seed=governed.clause_id,
        )

    # -- seeds ---------------------------------------------------------------------------

    def _allowed_mask(self, doc_ids: list[str] | None) -> np.ndarray | None:
        if doc_ids is None:
            return None
        mask = np.zeros(len(self.index.clauses), dtype=np.float32)
        for doc_id in doc_ids:
            start, end = self.index.doc_ranges[doc_id]
            mask[start:end] = 1.0
        return mask

    def _bm25_scores(self, query: str, allowed: np.ndarray | None) -> np.ndarray:
        bm25 = self.index.bm25
        tokens = [t for t in tokenize(query) if t in bm25.vocab_dict]
        if not tokens:
            return np.zeros(len(self.index.clauses), dtype=np.float32)
        scores = np.asarray(bm25.get_scores(tokens), dtype=np.float32)
        return scores * allowed if allowed is not None else scores

    def _dense_top(
        self, query_vector: np.ndarray, allowed: np.ndarray | None, k: int
    ) -> tuple[np.ndarray, np.ndarray]:
        if allowed is None:
            scores, ids = self.index.faiss.search(query_vector[None, :], k)
            keep = ids[0] >= 0
            return ids[0][keep], scores[0][keep]
        positions = np.flatnonzero(allowed)
        scores = self.index.embeddings(positions) @ query_vector
        order = np.argsort(-scores)[:k]
        return positions[order], scores[order]

    def _seed_pool(
        self,
        bm25_all: np.ndarray,
        query_vector: np.ndarray,
        allowed: np.ndarray | None,
        config: RetrievalConfig,
    ) -> dict[int, _Candidate]:
        k = min(max(config.candidate_k, config.top_k), len(self.index.clauses))
        bm25_top = np.argsort(-bm25_all)[:k]
        bm25_top = bm25_top[bm25_all[bm25_top] > 0]
        dense_ids, _ = self._dense_top(query_vector, allowed, k)
        positions = np.unique(np.concatenate([bm25_top, dense_ids]).astype(np.int64))
        dense = self.index.embeddings(positions) @ query_vector
        pool = {
            int(p): _Candidate(int(p), bm25=float(bm25_all[p]), dense=float(d))
            for p, d in zip(positions, dense)
        }
        self._bm25_max = max(float(bm25_all[positions].max(initial=0.0)), 1e-9)
        self._dense_max = max(float(dense.max(initial=0.0)), 1e-9)
        for candidate in pool.values():
            candidate.sim = self._fuse(candidate, config)
        return pool

    def _fuse(self, candidate: _Candidate, config: RetrievalConfig) -> float:
        bm25_part = candidate.bm25 / self._bm25_max
        dense_part = max(candidate.dense, 0.0) / self._dense_max
        return config.bm25_weight * bm25_part + (1.0 - config.bm25_weight) * dense_part

    # -- graph -----------------------------------------------------------------------------

    def _add_graph_support(
        self, pool: dict[int, _Candidate], seeds: list[_Candidate], config: RetrievalConfig
    ) -> None:
        """Walk ``config.hops`` typed hops from every seed; keep each clause's best path."""
        reached: dict[int, _Candidate] = {}
        seed_positions = {s.position for s in seeds}
        for seed in seeds:
            for position, strength, path in self._walk(seed, config):
                target = pool.get(position) or reached.get(position)
                if target is None:
                    target = reached.setdefault(position, _Candidate(position))
                if strength > target.support and position != seed.position:
                    target.support = strength
                    target.via = path
                    target.via_seed = self.index.clauses[seed.position].clause_id
        new = sorted(
            (c for p, c in reached.items() if p not in pool and p not in seed_positions),
            key=lambda c: -c.support,
        )
        for candidate in new[: config.max_expanded]:
            pool[candidate.position] = candidate

    def _walk(self, seed: _Candidate, config: RetrievalConfig):
        """Breadth-first walk from one seed: yields (position, path strength, edge path)."""
        clause = self.index.clauses[seed.position]
        graph = self.index.graph(clause.doc_id)
        allowed_types = set(config.edge_types)
        frontier = [(clause.clause_id, seed.sim, ())]
        visited = {clause.clause_id}
        for hop in range(config.hops):
            next_frontier = []
            decay = config.path_decay**hop
            for node, strength, path in frontier:
                for neighbour, edge in _neighbours(graph, node, allowed_types):
                    if neighbour in visited or edge.confidence < config.min_edge_confidence:
                        continue
                    visited.add(neighbour)
                    step_strength = strength * edge.confidence
                    step_path = (*path, edge)
                    yield self.index.position[neighbour], step_strength * decay, step_path
                    next_frontier.append((neighbour, step_strength, step_path))
            frontier = next_frontier

    def _score_new(
        self,
        pool: dict[int, _Candidate],
        bm25_all: np.ndarray,
        query_vector: np.ndarray,
        config: RetrievalConfig,
    ) -> None:
        """Give clauses reached only through the graph their own BM25/dense similarity."""
        new = [c for c in pool.values() if c.sim == 0.0 and c.bm25 == 0.0 and c.dense == 0.0]
        if not new:
            return
        vectors = self.index.embeddings(np.array([c.position for c in new]))
        for candidate, vector in zip(new, vectors):
            candidate.bm25 = float(bm25_all[candidate.position])
            candidate.dense = float(vector @ query_vector)
            candidate.sim = min(self._fuse(candidate, config), 1.0)

    def _rank(
        self, pool: dict[int, _Candidate], seeds: list[_Candidate], config: RetrievalConfig
    ) -> list[RetrievedClause]:
        seed_rank = {s.position: i + 1 for i, s in enumerate(seeds)}
        results = []
        for candidate in pool.values():
            clause = self.index.clauses[candidate.position]
            centrality = self.index.centrality(clause.doc_id).get(clause.clause_id, 0.0)
            support = min(candidate.support, 1.0)
            # A clause's support is at least its own similarity: a path passes on part of its
            # seed's relevance, so it can lift a weak neighbour towards that seed, never above
            # it (without this floor, neighbours of the best hit outranked it).
            floor = max(support, candidate.sim)
            score = config.alpha * candidate.sim + config.beta * centrality + config.gamma * floor
            is_seed = candidate.position in seed_rank
            results.append(
                RetrievedClause(
                    clause=clause,
                    score=score,
                    sim=candidate.sim,
                    bm25=candidate.bm25,
                    dense=candidate.dense,
                    centrality=centrality,
                    path_support=support,
                    origin="seed" if is_seed else ("expanded" if candidate.via else "hit"),
                    seed_rank=seed_rank.get(candidate.position),
                    via=list(candidate.via),
                    via_seed=candidate.via_seed,
                )
            )
        results.sort(key=lambda r: (-r.score, r.clause.order))
        return results[: config.top_k]


def _local(clause_id: str) -> str:
    """A clause id without its document key: paths never leave one document."""
    return clause_id.split(":", 1)[-1]


def _neighbours(graph, node: str, allowed_types: set[RelationType]):
    """(neighbour, edge) pairs of ``node`` in the walk directions of each edge type."""
    for _, target, data in graph.out_edges(node, data=True):
        edge: Edge = data["edge"]
        if edge.type in allowed_types and "out" in _WALK_DIRECTIONS[edge.type]:
            yield target, edge
    for source, _, data in graph.in_edges(node, data=True):
        edge = data["edge"]
        if edge.type in allowed_types and "in" in _WALK_DIRECTIONS[edge.type]:
            yield source, edge
