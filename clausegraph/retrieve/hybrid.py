"""Hybrid retrieval over clauses: BM25 + dense seeds, typed graph expansion, rerank.

score = alpha * sim + beta * centrality + gamma * path_support      (seed 004, 4.4)

- ``sim`` fuses BM25 and cosine similarity, each divided by its best candidate's value;
- ``centrality`` is the clause's log-scaled degree in its document graph;
- ``path_support`` is the strongest typed path from a seed hit: the seed's sim times the
  product of edge confidences, times ``path_decay`` for every hop after the first. In the
  score it is floored at the clause's own ``sim`` (a clause supports itself), so a path can
  lift a clause up to the relevance of the seed it comes from but never above that seed.

Plus ``type_weight`` times the clause's type affinity with the question: a question that
asks about a CUAD clause type ("Can the licence be assigned?": Anti-Assignment) lifts the
clauses the clause-type model gives that type (``clausegraph.classify.questions``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.classify.questions import (QuestionTypeModel, descriptions, shipped_model,
                                            type_affinity)
from clausegraph.config import RetrievalConfig
from clausegraph.embed import Embedder
from clausegraph.models import Clause, Edge, RelationType, RetrievedClause
from clausegraph.retrieve.scope import (DocumentNaming, DocumentScope, DocumentScoper,
                                        document_naming, reframe, without_document_name)
from clausegraph.store.base import GraphStore, IndexReader
from clausegraph.text.tokenize import tokenize

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


@dataclass
class _Candidate:
    clause_id: str
    bm25: float = 0.0
    dense: float = 0.0
    sim: float = 0.0
    support: float = 0.0
    via: tuple[Edge, ...] = ()
    via_seed: str | None = None


class Retriever:
    """Runs hybrid retrieval against an :class:`~clausegraph.store.base.IndexReader`.

    >>> retriever = Retriever(index, embedder)  # doctest: +SKIP
    >>> hits = retriever.retrieve("Is cataract surgery covered?", RetrievalConfig(top_k=5))
    """

    def __init__(self, index: IndexReader, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder
        # The scope of this thread's latest search: the web app asks from many threads
        # through one retriever, and each answer must read its own question's scope.
        self._thread = threading.local()
        self._scopers: dict[float, DocumentScoper] = {}
        self._namings: dict[str, DocumentNaming] = {}
        self._doc_rank = {d: i for i, d in enumerate(index.clauses.document_ids())}
        # An answer searches the same question once overall and once inside each of its
        # best documents, and the web app repeats questions: embed each once (per index).
        self.query_vector = lru_cache(maxsize=256)(self._encode_query)
        self._question_model: QuestionTypeModel | None = None
        self._type_column = {name: i for i, name in enumerate(CUAD_CATEGORIES)}

    @property
    def last_scope(self) -> DocumentScope | None:
        """The document scope the latest search *of this thread* found in its question."""
        return getattr(self._thread, "scope", None)

    @last_scope.setter
    def last_scope(self, scope: DocumentScope | None) -> None:
        self._thread.scope = scope

    def question_types(self, query_vector: np.ndarray, question: str | None = None) -> np.ndarray:
        """The CUAD clause types the question asks about ((41,), zeros for none), read from
        its vector and, given its text, by the clause-type model too; the category
        descriptions are embedded by this retriever's encoder on first use."""
        texts = None if question is None else [question]
        return self.question_type_model().predict_proba(query_vector, texts)[0]

    def question_type_similarity(self, query_vector: np.ndarray) -> float:
        """How far the question is like a CUAD category at all: its best cosine with a
        category's description."""
        return float(self.question_type_model().similarities(query_vector).max())

    def question_type_model(self) -> QuestionTypeModel:
        if self._question_model is None:
            from clausegraph.classify import fits_encoder, load_clause_type_model

            clause_model = load_clause_type_model() \
                if fits_encoder(self.embedder.name, self.embedder.dim) else None
            self._question_model = shipped_model(self.embedder.encode(descriptions()),
                                                 clause_model)
        return self._question_model

    def _encode_query(self, query: str) -> np.ndarray:
        """The query's embedding (see ``query_vector``)."""
        vector = self.embedder.encode_query(query)
        vector.setflags(write=False)
        return vector

    def retrieve(
        self,
        query: str,
        config: RetrievalConfig | None = None,
        doc_ids: list[str] | None = None,
    ) -> list[RetrievedClause]:
        """The ``config.top_k`` best clauses for ``query``, optionally within ``doc_ids``."""
        config = config or RetrievalConfig()
        if not self.index.clauses.count():
            return []
        doc_ids, query = self.resolve_scope(query, config, doc_ids)
        tokens = self.query_tokens(query)
        query_vector = self.query_vector(query)
        pool = self._seed_pool(tokens, query_vector, doc_ids, config)
        seeds = sorted(pool.values(), key=lambda c: -c.sim)[: config.seed_k]
        self._add_graph_support(pool, seeds, config)
        self._score_new(pool, tokens, query_vector, config)
        return self._rank(pool, seeds, config, query_vector, query)

    def query_tokens(self, query: str) -> list[str]:
        """The query's BM25 tokens that occur in the index."""
        return [t for t in tokenize(query) if self.index.lexical.vocabulary_has(t)]

    def resolve_scope(
        self, query: str, config: RetrievalConfig, doc_ids: list[str] | None
    ) -> tuple[list[str] | None, str]:
        """The documents to search and the query text to search with.

        Explicit ``doc_ids`` win; otherwise, if the query names one document, that document
        and the rest of the query (recorded in ``last_scope``). Every strategy calls this.
        """
        query = reframe(query)
        self.last_scope = self._scope(query, config) if doc_ids is None else None
        if self.last_scope is not None:
            # a request may open the question after its naming ("Consider the Merger
            # Agreement between A and B; Information about the Closing Condition: ...")
            self.last_scope.question = reframe(self.last_scope.question)
            return self.last_scope.doc_ids, self.last_scope.question
        if config.scope_documents:
            # documents chosen by the caller (or an index of one) may still be named in the
            # question: "Consider the ... between A and B; what is ...?" asked with --doc
            chosen = doc_ids if doc_ids is not None else self.index.clauses.document_ids()
            if doc_ids is not None or len(chosen) == 1:
                question = reframe(without_document_name(query,
                                                         [self._naming(d) for d in chosen]))
                if question != query:
                    self.last_scope = DocumentScope(chosen, question, query)
                    return doc_ids, question
        return doc_ids, query

    def _naming(self, doc_id: str) -> DocumentNaming:
        """A document's name and opening as a question would name it (read once)."""
        if doc_id not in self._namings:
            self._namings[doc_id] = document_naming(self.index.clauses.document(doc_id))
        return self._namings[doc_id]

    def scoper(self, margin: float) -> DocumentScoper:
        """The document scoper for this index (built on first use, per margin)."""
        if margin not in self._scopers:
            scoper = self.index.document_scoper(margin)
            self._scopers[margin] = scoper or DocumentScoper(self.index, margin)
        return self._scopers[margin]

    def _scope(self, query: str, config: RetrievalConfig) -> DocumentScope | None:
        if not config.scope_documents or len(self._doc_rank) < 2:
            return None
        return self.scoper(config.scope_margin).scope(query)

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
            for edge in self.index.graph.in_edges(result.clause_id):
                source = edge.source
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
        clause = self.index.clauses.clause(source)
        return RetrievedClause(
            clause=clause, score=strength, sim=0.0, bm25=0.0, dense=0.0,
            centrality=self.index.graph.centrality(clause.doc_id).get(source, 0.0),
            path_support=edge.confidence, origin="governing", via=[edge],
            via_seed=governed.clause_id,
        )

    def rarest_word_hits(
        self, query: str, results: list[RetrievedClause], k: int
    ) -> list[RetrievedClause]:
        """The ``k`` clauses of each document among ``results`` that BM25 ranks best for the
        query's rarest word alone (of its words the document uses, the one in fewest of its
        clauses), those not in ``results``: what a question is about may be named once, in
        a long clause ("All types Hernia" in a table of listed conditions), that clauses
        repeating the question's common words ("waiting period") outrank. Each joins at the
        median score ``results`` gave its document (its own BM25 and dense kept), origin
        ``rare-word``: an answer reorders them by their sentences' match. (At the lowest
        score, "tonsillitis" of the HDFC ERGO group wording stayed below the five clauses
        an answer reads; at 0.9 of the highest, two policy answers were lost:
        docs/policies_bench.md, session 41.)"""
        tokens = list(dict.fromkeys(self.query_tokens(query)))
        have = {r.clause_id for r in results}
        found = []
        for doc_id in dict.fromkeys(r.clause.doc_id for r in results if r.origin != "governing"):
            rarest = self._rarest_word(tokens, doc_id)
            if rarest is None:
                continue
            ids, _ = self.index.lexical.top([rarest], k, [doc_id])
            ids = [i for i in ids if i not in have]
            if not ids:
                continue
            have.update(ids)
            middle = float(np.median([r.score for r in results if r.clause.doc_id == doc_id]))
            found += self._word_hits(ids, tokens, query, middle, _as_written(query, rarest))
        return found

    def _rarest_word(self, tokens: list[str], doc_id: str) -> str | None:
        """Of ``tokens``, the one the fewest of the document's clauses hold (None: none):
        its clauses with a BM25 score for the word alone are counted, none ranked."""
        ids = self.index.clauses.clause_ids([doc_id])
        counts = {t: int(np.count_nonzero(self.index.lexical.scores([t], ids)))
                  for t in tokens}
        used = [t for t in tokens if counts[t]]
        return min(used, key=counts.__getitem__) if used else None

    def _word_hits(self, ids: list[str], tokens: list[str], query: str, score: float,
                   word: str) -> list[RetrievedClause]:
        clauses = self.index.clauses.clauses(ids)
        dense = self.index.vectors.vectors(ids) @ self.query_vector(query)
        bm25 = self.index.lexical.scores(tokens, ids)
        return [
            RetrievedClause(
                clause=clause, score=score, sim=0.0, bm25=float(lexical), dense=float(cosine),
                centrality=self.index.graph.centrality(clause.doc_id).get(clause.clause_id, 0.0),
                path_support=0.0, origin="rare-word", rare_word=word)
            for clause, lexical, cosine in zip(clauses, bm25, dense, strict=True)
        ]

    # -- seeds ---------------------------------------------------------------------------

    def _in_document_order(self, clause_ids: set[str]) -> list[Clause]:
        """Clauses sorted as the index stores them (document, then position in it), so
        that ties between equal scores break the same way on every backend."""
        clauses = self.index.clauses.clauses(sorted(clause_ids))
        return sorted(clauses, key=lambda c: (self._doc_rank.get(c.doc_id, 0), c.order))

    def _seed_pool(
        self,
        tokens: list[str],
        query_vector: np.ndarray,
        doc_ids: list[str] | None,
        config: RetrievalConfig,
    ) -> dict[str, _Candidate]:
        k = min(max(config.candidate_k, config.top_k), self.index.clauses.count())
        bm25_ids, bm25_scores = self.index.lexical.top(tokens, k, doc_ids) if tokens else ([], [])
        dense_ids, _ = self.index.vectors.search(query_vector, k, doc_ids)
        bm25_of = dict(zip(bm25_ids, map(float, bm25_scores)))
        clauses = self._in_document_order(set(bm25_ids) | set(dense_ids))
        ids = [c.clause_id for c in clauses]
        dense = self.index.vectors.vectors(ids) @ query_vector if ids else np.zeros(0)
        # A dense-only candidate still has a BM25 score below the lexical top k.
        missing = [i for i in ids if i not in bm25_of]
        if missing and tokens:
            bm25_of.update(zip(missing, map(float, self.index.lexical.scores(tokens, missing))))
        pool = {
            cid: _Candidate(cid, bm25=bm25_of.get(cid, 0.0), dense=float(d))
            for cid, d in zip(ids, dense)
        }
        self._bm25_max = max(max((c.bm25 for c in pool.values()), default=0.0), 1e-9)
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
        self, pool: dict[str, _Candidate], seeds: list[_Candidate], config: RetrievalConfig
    ) -> None:
        """Walk ``config.hops`` typed hops from every seed; keep each clause's best path."""
        reached: dict[str, _Candidate] = {}
        seed_ids = {s.clause_id for s in seeds}
        paths = self.index.graph.walks({s.clause_id: s.sim for s in seeds}, config)
        if paths is None:
            paths = [(seed.clause_id, *step) for seed in seeds
                     for step in walk(self.index.graph, seed.clause_id, seed.sim, config)]
        for seed_id, clause_id, strength, path in paths:
            target = pool.get(clause_id) or reached.get(clause_id)
            if target is None:
                target = reached.setdefault(clause_id, _Candidate(clause_id))
            if strength > target.support and clause_id != seed_id:
                target.support = strength
                target.via = path
                target.via_seed = seed_id
        new = sorted(
            (c for i, c in reached.items() if i not in pool and i not in seed_ids),
            key=lambda c: -c.support,
        )
        for candidate in new[: config.max_expanded]:
            pool[candidate.clause_id] = candidate

    def _score_new(
        self,
        pool: dict[str, _Candidate],
        tokens: list[str],
        query_vector: np.ndarray,
        config: RetrievalConfig,
    ) -> None:
        """Give clauses reached only through the graph their own BM25/dense similarity."""
        new = [c for c in pool.values() if c.sim == 0.0 and c.bm25 == 0.0 and c.dense == 0.0]
        if not new:
            return
        ids = [c.clause_id for c in new]
        vectors = self.index.vectors.vectors(ids)
        bm25 = self.index.lexical.scores(tokens, ids) if tokens else np.zeros(len(ids))
        for candidate, vector, lexical in zip(new, vectors, bm25):
            candidate.bm25 = float(lexical)
            candidate.dense = float(vector @ query_vector)
            candidate.sim = min(self._fuse(candidate, config), 1.0)

    def _rank(
        self, pool: dict[str, _Candidate], seeds: list[_Candidate], config: RetrievalConfig,
        query_vector: np.ndarray | None = None, query: str | None = None,
    ) -> list[RetrievedClause]:
        seed_rank = {s.clause_id: i + 1 for i, s in enumerate(seeds)}
        clauses = {c.clause_id: c for c in self.index.clauses.clauses(list(pool))}
        # the type lift, when it is on and the candidates are typed (an index from before
        # clause types, or of another encoder, has none: nothing to lift)
        asked = None
        if config.type_weight and query_vector is not None and \
                any(c.clause_types for c in clauses.values()):
            asked = self.question_types(query_vector, query)
        scored = []
        for candidate in pool.values():
            clause = clauses[candidate.clause_id]
            centrality = self.index.graph.centrality(clause.doc_id).get(clause.clause_id, 0.0)
            support = min(candidate.support, 1.0)
            # A clause's support is at least its own similarity: a path passes on part of its
            # seed's relevance, so it can lift a weak neighbour towards that seed, never above
            # it (without this floor, neighbours of the best hit outranked it).
            floor = max(support, candidate.sim)
            score = config.alpha * candidate.sim + config.beta * centrality + config.gamma * floor
            if asked is not None and asked.any():
                score += config.type_weight * type_affinity(asked, clause.clause_types,
                                                            self._type_column)
            scored.append((score, clause, candidate, centrality, support))
        scored.sort(key=lambda item: (-item[0], item[1].order))
        # only the kept clauses become result models (a validated model each)
        return [
            RetrievedClause(
                clause=clause,
                score=score,
                sim=candidate.sim,
                bm25=candidate.bm25,
                dense=candidate.dense,
                centrality=centrality,
                path_support=support,
                origin="seed" if candidate.clause_id in seed_rank
                else ("expanded" if candidate.via else "hit"),
                seed_rank=seed_rank.get(candidate.clause_id),
                via=list(candidate.via),
                via_seed=candidate.via_seed,
            )
            for score, clause, candidate, centrality, support in scored[: config.top_k]
        ]


def walk(graph: GraphStore, start: str, strength: float, config: RetrievalConfig):
    """Breadth-first typed walk from one clause: yields (clause id, path strength, edges).

    Strength is multiplied by each edge's confidence and decays by ``path_decay`` per hop
    after the first; each clause is reached once, by its shortest path.
    """
    allowed_types = set(config.edge_types)
    frontier = [(start, strength, ())]
    visited = {start}
    for hop in range(config.hops):
        next_frontier = []
        decay = config.path_decay**hop
        for node, node_strength, path in frontier:
            for neighbour, edge in neighbours(graph, node, allowed_types):
                if neighbour in visited or edge.confidence < config.min_edge_confidence:
                    continue
                visited.add(neighbour)
                step_strength = node_strength * edge.confidence
                step_path = (*path, edge)
                yield neighbour, step_strength * decay, step_path
                next_frontier.append((neighbour, step_strength, step_path))
        frontier = next_frontier


def neighbours(graph: GraphStore, node: str, allowed_types: set[RelationType]):
    """(neighbour, edge) pairs of ``node`` in the walk directions of each edge type."""
    for edge in graph.out_edges(node):
        if edge.type in allowed_types and "out" in _WALK_DIRECTIONS[edge.type]:
            yield edge.target, edge
    for edge in graph.in_edges(node):
        if edge.type in allowed_types and "in" in _WALK_DIRECTIONS[edge.type]:
            yield edge.source, edge


def _as_written(query: str, token: str) -> str:
    """The query's word that BM25 reads as ``token`` ("myomectomy" for "myomectomi")."""
    words = (word.strip("?.,;:!\"'()[]{}") for word in query.split())
    return next((word for word in words if tokenize(word) == [token]), token)
