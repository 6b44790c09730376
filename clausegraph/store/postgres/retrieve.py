"""Hybrid retrieval with every corpus-wide step in SQL (the local ``Retriever``'s scoring).

The client fetches candidates, never the corpus: BM25 and vector top-k within the
document filter, BM25/cosine of the pooled candidates, the typed k-hop walk from the
seeds, and the final clauses. Scores, fusion, path support and reranking follow
``clausegraph.retrieve`` exactly, so a PostgreSQL index ranks as a folder index does
(up to HNSW's approximation when a query is not scoped to a few documents).
"""

from __future__ import annotations

import numpy as np

from clausegraph.config import RetrievalConfig
from clausegraph.embed import Embedder
from clausegraph.index import tokenize
from clausegraph.models import Clause, Edge, RelationType
from clausegraph.retrieve import _WALK_DIRECTIONS, RetrievedClause, _Candidate
from clausegraph.scope import DocumentScope, DocumentScoper, name_words
from clausegraph.store.postgres.store import PostgresIndex


class PostgresScoper(DocumentScoper):
    """``DocumentScoper`` over the profile terms kept in the database."""

    def __init__(self, index: PostgresIndex, min_margin: float = 1.3) -> None:
        self.index = index
        self.min_margin = min_margin
        self._count = index.document_count()

    @property
    def document_count(self) -> int:
        return self._count

    def named_doc_id(self, text: str) -> str | None:
        top = self.index.bm25_top(tokenize(text), None, 2, field="profile")
        if not top:
            return None
        best, score = top[0]
        runner_up = top[1][1] if len(top) > 1 else 0.0
        if score <= 0 or score < self.min_margin * max(runner_up, 1e-9):
            return None
        title, names = self.index.name_tokens(best)
        words = name_words(text, title)
        return best if any(self._distinctive(w, names) for w in words) else None

    def _distinctive(self, word: str, names: set[str]) -> bool:
        inside = len(word) >= 4
        in_name = word in names or (inside and any(word in t for t in names))
        if len(word) < 3 or not in_name:
            return False
        most = max(1, self._count // 50)
        return self.index.documents_named_with(word, inside) <= most


class PostgresRetriever:
    """``Retriever``'s interface (retrieve, resolve_scope, governing) over a database."""

    def __init__(self, index: PostgresIndex, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder
        self.last_scope: DocumentScope | None = None
        self._scopers: dict[float, PostgresScoper] = {}

    def retrieve(
        self,
        query: str,
        config: RetrievalConfig | None = None,
        doc_ids: list[str] | None = None,
    ) -> list[RetrievedClause]:
        config = config or RetrievalConfig()
        total = self.index.clause_count()
        if not total:
            return []
        doc_ids, query = self.resolve_scope(query, config, doc_ids)
        tokens = tokenize(query)
        vector = self.embedder.encode_query(query)
        pool = self._seed_pool(tokens, vector, doc_ids, min(max(config.candidate_k,
                                                                config.top_k), total), config)
        seeds = sorted(pool.values(), key=lambda c: -c.sim)[: config.seed_k]
        self._add_graph_support(pool, seeds, config)
        self._score_new(pool, tokens, vector, config)
        return self._rank(pool, seeds, config)

    def resolve_scope(
        self, query: str, config: RetrievalConfig, doc_ids: list[str] | None
    ) -> tuple[list[str] | None, str]:
        self.last_scope = None
        if doc_ids is None and config.scope_documents:
            self.last_scope = self._scoper(config.scope_margin).scope(query)
        if self.last_scope is not None:
            return self.last_scope.doc_ids, self.last_scope.question
        return doc_ids, query

    def _scoper(self, margin: float) -> PostgresScoper:
        if margin not in self._scopers:
            self._scopers[margin] = PostgresScoper(self.index, margin)
        return self._scopers[margin]

    # -- seeds ----------------------------------------------------------------------------

    def _seed_pool(self, tokens: list[str], vector: np.ndarray, doc_ids: list[str] | None,
                   k: int, config: RetrievalConfig) -> dict[str, _Candidate]:
        lexical = self.index.bm25_top(tokens, doc_ids, k)
        dense_hits = self.index.dense_top(vector, doc_ids, k)
        ids = list(dict.fromkeys([c for c, _ in lexical] + [c for c, _ in dense_hits]))
        bm25 = self.index.bm25_scores(tokens, ids)
        dense = self.index.dense_scores(vector, ids)
        pool = {c: _Candidate(0, bm25=bm25[c], dense=dense[c]) for c in ids}
        self._bm25_max = max(max(bm25.values(), default=0.0), 1e-9)
        self._dense_max = max(max(dense.values(), default=0.0), 1e-9)
        for candidate in pool.values():
            candidate.sim = self._fuse(candidate, config)
        return pool

    def _fuse(self, candidate: _Candidate, config: RetrievalConfig) -> float:
        bm25_part = candidate.bm25 / self._bm25_max
        dense_part = max(candidate.dense, 0.0) / self._dense_max
        return config.bm25_weight * bm25_part + (1.0 - config.bm25_weight) * dense_part

    # -- graph ------------------------------------------------------------------------------

    def _add_graph_support(self, pool: dict[str, _Candidate], seeds: list[_Candidate],
                           config: RetrievalConfig) -> None:
        seed_ids = {id(s): c for c, s in pool.items()}
        strengths = {seed_ids[id(s)]: s.sim for s in seeds}
        walk = {t.value: _WALK_DIRECTIONS[t] for t in config.edge_types}
        reached: dict[str, _Candidate] = {}
        paths = self.index.expand(strengths, walk, config.hops, config.min_edge_confidence,
                                  config.path_decay)
        for seed, node, strength, path in paths:
            target = pool.get(node) or reached.setdefault(node, _Candidate(0))
            if strength > target.support and node != seed:
                target.support = strength
                target.via = tuple(path)
                target.via_seed = seed
        new = sorted(((c, cand) for c, cand in reached.items()
                      if c not in pool and c not in strengths), key=lambda item: -item[1].support)
        for clause_id, candidate in new[: config.max_expanded]:
            pool[clause_id] = candidate

    def _score_new(self, pool: dict[str, _Candidate], tokens: list[str], vector: np.ndarray,
                   config: RetrievalConfig) -> None:
        new = [c for c, cand in pool.items()
               if cand.sim == 0.0 and cand.bm25 == 0.0 and cand.dense == 0.0]
        if not new:
            return
        bm25 = self.index.bm25_scores(tokens, new)
        dense = self.index.dense_scores(vector, new)
        for clause_id in new:
            candidate = pool[clause_id]
            candidate.bm25 = bm25[clause_id]
            candidate.dense = dense[clause_id]
            candidate.sim = min(self._fuse(candidate, config), 1.0)

    def _rank(self, pool: dict[str, _Candidate], seeds: list[_Candidate],
              config: RetrievalConfig) -> list[RetrievedClause]:
        seed_rank = {id(s): i + 1 for i, s in enumerate(seeds)}
        centrality = self.index.centrality(pool)
        scored = []
        for clause_id, candidate in pool.items():
            support = min(candidate.support, 1.0)
            floor = max(support, candidate.sim)
            score = (config.alpha * candidate.sim + config.beta * centrality.get(clause_id, 0.0)
                     + config.gamma * floor)
            scored.append((score, clause_id, candidate, support))
        # Order ties as the local index does (by position in the document) once the
        # clauses are fetched: only the top ones are.
        scored.sort(key=lambda item: -item[0])
        cutoff = scored[: config.top_k + 8]
        clauses = self.index.clauses(c for _, c, _, _ in cutoff)
        results = [
            RetrievedClause(
                clause=clauses[clause_id], score=score, sim=cand.sim, bm25=cand.bm25,
                dense=cand.dense, centrality=centrality.get(clause_id, 0.0),
                path_support=support,
                origin="seed" if id(cand) in seed_rank else ("expanded" if cand.via else "hit"),
                seed_rank=seed_rank.get(id(cand)), via=list(cand.via), via_seed=cand.via_seed,
            )
            for score, clause_id, cand, support in cutoff
        ]
        results.sort(key=lambda r: (-r.score, r.clause.order))
        return results[: config.top_k]

    # -- answers ------------------------------------------------------------------------------

    def governing(self, results: list[RetrievedClause],
                  config: RetrievalConfig) -> list[RetrievedClause]:
        """Definitions and exceptions governing ``results`` (see ``Retriever.governing``)."""
        have = {r.clause_id for r in results}
        by_id = {r.clause_id: r for r in results}
        found: dict[str, tuple[float, Edge, RetrievedClause]] = {}
        types = [RelationType.OVERRIDES.value, RelationType.DEFINES.value]
        for edge in self.index.edges_into(list(by_id), types):
            result = by_id[edge.target]
            if edge.source in have or edge.confidence < config.min_edge_confidence:
                continue
            strength = edge.confidence * result.score
            if edge.source not in found or strength > found[edge.source][0]:
                found[edge.source] = (strength, edge, result)
        ordered = sorted(
            found.items(),
            key=lambda item: (item[1][1].type is not RelationType.OVERRIDES, -item[1][0]),
        )[: config.complete_k]
        clauses: dict[str, Clause] = self.index.clauses(s for s, _ in ordered)
        centrality = self.index.centrality(clauses)
        return [
            RetrievedClause(
                clause=clauses[source], score=strength, sim=0.0, bm25=0.0, dense=0.0,
                centrality=centrality.get(source, 0.0), path_support=edge.confidence,
                origin="governing", via=[edge], via_seed=governed.clause_id,
            )
            for source, (strength, edge, governed) in ordered
        ]
