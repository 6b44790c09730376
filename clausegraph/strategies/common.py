"""What the seed-paper strategies share: scope and score a query once, pick the top rows,
build explained results, walk clause edges.

A :class:`ScoredQuery` holds per-query arrays over the *candidate* clauses (the clauses
of the documents in scope, in index order), addressed by row; rows are local to the
query, clause ids are what the store speaks.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from clausegraph.config import RetrievalConfig
from clausegraph.models import Clause, Edge, RelationType, RetrievedClause
from clausegraph.relate.rules import RuleSet
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.store.base import GraphStore, IndexReader, iter_edges
from clausegraph.strategies.base import Strategy, StrategyResult


class SeedResult(RetrievedClause):
    """A RetrievedClause whose ``reason()`` is the strategy's own explanation."""

    explanation: str = ""
    strategy: str = ""

    def reason(self) -> str:
        base = self.explanation or super().reason()
        return f"[{self.strategy}] {base}" if self.strategy else base


@dataclass
class ScoredQuery:
    """The query after document scoping, with BM25 and dense scores of every candidate.

    ``ids`` are the candidate clause ids in index order (document, then clause order), so
    ties broken by row break as they would by position in the index.
    """

    text: str
    ids: list[str]
    bm25: np.ndarray  # raw BM25 by row
    dense: np.ndarray  # cosine with ``vector`` by row
    vector: np.ndarray
    index: IndexReader
    original: str = ""  # the query as asked, before scoping cut the document reference off
    bm25_max: float = 1e-9
    dense_max: float = 1e-9
    row: dict[str, int] = field(default_factory=dict)
    _clauses: dict[int, Clause] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.row = {clause_id: i for i, clause_id in enumerate(self.ids)}
        if self.ids:
            self.bm25_max = max(float(self.bm25.max()), 1e-9)
            self.dense_max = max(float(self.dense.max()), 1e-9)

    def clause(self, row: int) -> Clause:
        if row not in self._clauses:
            self._clauses[row] = self.index.clauses.clause(self.ids[row])
        return self._clauses[row]

    def sim(self, row: int, bm25_weight: float = 0.5) -> float:
        """Fused similarity in [0, 1], as the main retriever's ``_fuse``."""
        b = float(self.bm25[row]) / self.bm25_max
        d = max(float(self.dense[row]), 0.0) / self.dense_max
        return bm25_weight * b + (1.0 - bm25_weight) * d

    def sims(self, bm25_weight: float = 0.5) -> np.ndarray:
        b = self.bm25 / self.bm25_max
        d = np.clip(self.dense, 0.0, None) / self.dense_max
        return bm25_weight * b + (1.0 - bm25_weight) * d

    def with_vector(self, vector: np.ndarray) -> ScoredQuery:
        """The same query searched with another vector (dense scores recomputed)."""
        dense = (self.index.vectors.vectors(self.ids) @ vector if self.ids
                 else np.zeros(0, dtype=np.float32))
        return ScoredQuery(self.text, self.ids, self.bm25, dense, vector, self.index,
                           self.original)


def candidate_ids(index: IndexReader, doc_ids: list[str] | None) -> list[str]:
    """Clause ids of ``doc_ids`` (None: every document) in index order."""
    if doc_ids is None:
        return index.clauses.clause_ids()
    rank = {d: i for i, d in enumerate(index.clauses.document_ids())}
    ordered = sorted(dict.fromkeys(doc_ids), key=lambda d: rank.get(d, len(rank)))
    return index.clauses.clause_ids(ordered)


def score_query(
    retriever: Retriever, query: str, config: RetrievalConfig, doc_ids: list[str] | None
) -> ScoredQuery | None:
    """Scope like ``Retriever.retrieve`` and score every candidate clause (BM25 + dense)."""
    index = retriever.index
    if not index.clauses.count():
        return None
    scoped_docs, text = retriever.resolve_scope(query, config, doc_ids)
    ids = candidate_ids(index, scoped_docs)
    tokens = retriever.query_tokens(text)
    bm25 = index.lexical.scores(tokens, ids)
    vector = retriever.embedder.encode_query(text)
    dense = index.vectors.vectors(ids) @ vector if ids else np.zeros(0, dtype=np.float32)
    return ScoredQuery(text, ids, bm25, dense, vector, index, original=query)


class ScoredStrategy(Strategy):
    """A seed strategy: scope and score the candidates once (:func:`score_query`), then rank."""

    def retrieve(
        self,
        retriever: Retriever,
        query: str,
        config: RetrievalConfig,
        doc_ids: list[str] | None = None,
    ) -> StrategyResult:
        q = score_query(retriever, query, config, doc_ids)
        return StrategyResult([]) if q is None else self.rank(retriever, q, config)

    @abstractmethod
    def rank(self, retriever: Retriever, q: ScoredQuery, config: RetrievalConfig) -> StrategyResult:
        """The ranked clauses for the scored query ``q``."""


def top_rows(scores: np.ndarray, k: int) -> list[int]:
    """The ``k`` best rows by ``scores`` (ties by row, so deterministic)."""
    if k <= 0 or not len(scores):
        return []
    rows = np.arange(len(scores))
    return [int(i) for i in np.lexsort((rows, -scores))[:k]]


def make_result(
    q: ScoredQuery,
    row: int,
    *,
    score: float,
    origin: str,
    strategy: str,
    explanation: str,
    seed_rank: int | None = None,
    via: Iterable[Edge] = (),
    via_seed: str | None = None,
    path_support: float = 0.0,
    bm25_weight: float = 0.5,
) -> SeedResult:
    clause = q.clause(row)
    return SeedResult(
        clause=clause,
        score=float(score),
        sim=q.sim(row, bm25_weight),
        bm25=float(q.bm25[row]),
        dense=float(q.dense[row]),
        centrality=q.index.graph.centrality(clause.doc_id).get(clause.clause_id, 0.0),
        path_support=float(min(max(path_support, 0.0), 1.0)),
        origin=origin,
        seed_rank=seed_rank,
        via=list(via),
        via_seed=via_seed,
        explanation=explanation,
        strategy=strategy,
    )


def local_id(clause_id: str) -> str:
    """A clause id without its document key: paths never leave one document."""
    return clause_id.split(":", 1)[-1]


def edge_text(edge: Edge) -> str:
    return f"{local_id(edge.source)} {edge.type.value} {local_id(edge.target)}"


def incident(
    graph: GraphStore, clause_id: str, skip: frozenset[RelationType] = frozenset()
) -> Iterator[tuple[str, Edge]]:
    """(neighbour, edge) over the out- then in-edges of ``clause_id``."""
    for neighbour, edge, _ in iter_edges(graph, clause_id):
        if edge.type not in skip:
            yield neighbour, edge


@lru_cache(maxsize=1)
def _causal_cue_patterns() -> tuple[tuple[str, re.Pattern[str], float], ...]:
    """Every pattern of ``rules/causes.yaml`` (named-reference rules and target-less cues)."""
    rules = RuleSet.load(check_examples=False)
    return tuple((r.id, r.regex, r.confidence) for r in rules.for_type(RelationType.CAUSES))


def causal_cues(text: str) -> list[str]:
    """Ids of the causes.yaml patterns that match ``text`` (one id per matching rule)."""
    return [rule_id for rule_id, regex, _ in _causal_cue_patterns() if regex.search(text)]


# How strongly each typed edge carries causation (CausalRAG's "causal path" test; also the
# relationship weights of causal search).
CAUSAL_EDGE_WEIGHT: dict[RelationType, float] = {
    RelationType.CAUSES: 1.0,
    RelationType.ENTAILS: 0.8,
    RelationType.OVERRIDES: 0.7,
}
