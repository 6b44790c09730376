"""Retrieval strategies from the seed papers, adapted to the clause graph.

- ``causal``         CausalRAG (seed 000): dense seeds, graph expansion, causal paths first.
- ``causal-search``  GraphRAG causal search (seed 002): token-budgeted network data, a
                     five-section causal report (stage 1) and an answer (stage 2), saved.
- ``e2rag``          E2RAG (seed 003): per-clause entity-mention nodes + obligation/event
                     clause nodes joined by bipartite name-containment edges.
- ``lesegr``         LeSeGR of CG-RAG (seed 001): BM25 and dense relevance propagated over
                     the clause graph by relevance-weighted message passing.

Everything runs offline and deterministically by default. Where a paper calls an LLM
(causal path identification and summary, the causal report and answer, HyDE, entity
extraction) or a trained model (LeSeGR's graph transformer), each class docstring names the
stand-in used offline; ``causal``, ``causal-search`` and ``e2rag`` use the configured model
(``Strategy.llm``, set by ``ClauseGraph.retrieve``) when there is one. Every strategy honours ``doc_ids`` and, when
``doc_ids`` is None, the document scoping of the main retriever (``Retriever._scope``; the
scope is stored in ``retriever.last_scope`` and its shortened question is searched).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import weakref
from abc import abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.config import RetrievalConfig
from clausegraph.models import Clause, Edge, RelationType, RetrievedClause
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.strategies.factory import Strategy, register
from clausegraph.text.tokenize import tokenize

__all__ = [
    "CausalSearchStrategy",
    "CausalStrategy",
    "E2RAGStrategy",
    "LeSeGRStrategy",
    "SeedResult",
    "causal_grid",
    "fit_weights",
]


# -- shared helpers ------------------------------------------------------------------------


class SeedResult(RetrievedClause):
    """A RetrievedClause whose ``reason()`` is the strategy's own explanation."""

    explanation: str = ""
    strategy: str = ""

    def reason(self) -> str:
        base = self.explanation or super().reason()
        return f"[{self.strategy}] {base}" if self.strategy else base


@dataclass
class _Query:
    """The query after document scoping, with BM25 and dense scores over allowed clauses."""

    text: str
    positions: np.ndarray  # allowed clause positions (sorted)
    bm25: np.ndarray  # raw BM25, aligned with the whole index
    dense: np.ndarray  # cosine, aligned with the whole index (0 outside ``positions``)
    vector: np.ndarray
    bm25_max: float = 1e-9
    dense_max: float = 1e-9
    original: str = ""  # the query as asked, before scoping cut the document reference off

    def sim(self, position: int, bm25_weight: float = 0.5) -> float:
        """Fused similarity in [0, 1], as the main retriever's ``_fuse``."""
        b = float(self.bm25[position]) / self.bm25_max
        d = max(float(self.dense[position]), 0.0) / self.dense_max
        return bm25_weight * b + (1.0 - bm25_weight) * d

    def sims(self, bm25_weight: float = 0.5) -> np.ndarray:
        b = self.bm25 / self.bm25_max
        d = np.clip(self.dense, 0.0, None) / self.dense_max
        return bm25_weight * b + (1.0 - bm25_weight) * d


def _allowed_mask(index: Any, doc_ids: list[str] | None) -> np.ndarray | None:
    """1.0 for the clauses of ``doc_ids`` by row position (None: every clause)."""
    positions = index.clauses.positions(doc_ids)
    if positions is None:
        return None
    mask = np.zeros(index.clauses.count(), dtype=np.float32)
    mask[positions] = 1.0
    return mask


def _bm25_scores(retriever: Retriever, query: str, allowed: np.ndarray | None) -> np.ndarray:
    """BM25 of every clause by row position, zero outside ``allowed``."""
    scores = retriever.index.lexical.all_scores(retriever.query_tokens(query))
    return scores * allowed if allowed is not None else scores


def _prepare(
    retriever: Retriever, query: str, config: RetrievalConfig, doc_ids: list[str] | None
) -> _Query | None:
    """Scope like ``Retriever.retrieve`` and score every allowed clause (BM25 + dense)."""
    index = retriever.index
    if not index.clauses:
        return None
    original = query
    doc_ids, query = retriever.resolve_scope(query, config, doc_ids)
    allowed = _allowed_mask(index, doc_ids)
    n = len(index.clauses)
    positions = np.arange(n) if allowed is None else np.flatnonzero(allowed)
    bm25 = _bm25_scores(retriever, query, allowed)
    vector = retriever.embedder.encode_query(query)
    dense = np.zeros(n, dtype=np.float32)
    if len(positions):
        dense[positions] = index.vectors.at(positions) @ vector
    prepared = _Query(query, positions, bm25, dense, vector, original=original)
    if len(positions):
        prepared.bm25_max = max(float(bm25[positions].max()), 1e-9)
        prepared.dense_max = max(float(dense[positions].max()), 1e-9)
    return prepared


class _ScoredStrategy(Strategy):
    """A seed strategy: scope and score every allowed clause once (``_prepare``), then rank."""

    def retrieve(
        self,
        retriever: Retriever,
        query: str,
        config: RetrievalConfig,
        doc_ids: list[str] | None = None,
    ) -> list[RetrievedClause]:
        q = _prepare(retriever, query, config, doc_ids)
        return [] if q is None else self._rank(retriever, q, config)

    @abstractmethod
    def _rank(
        self, retriever: Retriever, q: _Query, config: RetrievalConfig
    ) -> list[RetrievedClause]:
        """The ranked clauses for the prepared query ``q``."""


def _top(scores: np.ndarray, positions: np.ndarray, k: int) -> list[int]:
    """The ``k`` best ``positions`` by ``scores`` (ties by position, so deterministic)."""
    if k <= 0 or not len(positions):
        return []
    values = scores[positions]
    order = np.lexsort((positions, -values))[:k]
    return [int(positions[i]) for i in order]


def _result(
    retriever: Retriever,
    q: _Query,
    position: int,
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
    clause = retriever.index.clauses[position]
    return SeedResult(
        clause=clause,
        score=float(score),
        sim=q.sim(position, bm25_weight),
        bm25=float(q.bm25[position]),
        dense=float(q.dense[position]),
        centrality=retriever.index.graph.centrality(clause.doc_id).get(clause.clause_id, 0.0),
        path_support=float(min(max(path_support, 0.0), 1.0)),
        origin=origin,
        seed_rank=seed_rank,
        via=list(via),
        via_seed=via_seed,
        explanation=explanation,
        strategy=strategy,
    )


def _local(clause_id: str) -> str:
    return clause_id.split(":", 1)[-1]


def _edge_text(edge: Edge) -> str:
    return f"{_local(edge.source)} {edge.type.value} {_local(edge.target)}"


def _incident(graph: Any, node: str, skip: frozenset[RelationType] = frozenset()):
    """(neighbour, edge) over out- and in-edges of ``node``, both directions."""
    for _, target, data in graph.out_edges(node, data=True):
        edge: Edge = data["edge"]
        if edge.type not in skip:
            yield target, edge
    for source, _, data in graph.in_edges(node, data=True):
        edge = data["edge"]
        if edge.type not in skip:
            yield source, edge


@lru_cache(maxsize=1)
def _stage_notes(name: str, value: str, failure: str, error: str | None) -> dict[str, str]:
    """A strategy's notes: what its stage produced, and why the LLM stage fell back, if it did."""
    notes = {name: value} if value else {}
    if error:
        notes[failure] = error
    return notes


def _causal_cue_patterns() -> tuple[tuple[str, re.Pattern[str], float], ...]:
    """Every pattern of ``rules/causes.yaml`` (named-reference rules and target-less cues)."""
    from clausegraph.relate.rules import RuleSet

    rules = RuleSet.load(check_examples=False)
    return tuple((r.id, r.regex, r.confidence) for r in rules.for_type(RelationType.CAUSES))


def causal_cues(text: str) -> list[str]:
    """Ids of the causes.yaml patterns that match ``text`` (one id per matching rule)."""
    return [rule_id for rule_id, regex, _ in _causal_cue_patterns() if regex.search(text)]


# -- CausalRAG -----------------------------------------------------------------------------

_NO_SAME_SECTION = frozenset({RelationType.SAME_SECTION})
# How strongly each typed edge carries causation (CausalRAG's "causal path" test).
_CAUSAL_EDGE_WEIGHT: dict[RelationType, float] = {
    RelationType.CAUSES: 1.0,
    RelationType.ENTAILS: 0.8,
    RelationType.OVERRIDES: 0.7,
}
# A non-causal edge (RefersTo, Defines) counts as a causal link only into a clause whose
# text carries a causal cue from rules/causes.yaml, at this weight.
_CUE_LINK_WEIGHT = 0.5
_MAX_COLLECTED = 400


class CausalStrategy(_ScoredStrategy):
    """CausalRAG (seed 000) over the clause graph.

    1. ``k`` seed clauses by embedding distance only (cosine with the query).
    2. Expansion ``s`` steps along graph edges of every type except SameSection, both
       directions (capped at 400 collected clauses).
    3. Causal path identification. The paper asks an LLM to find the causal paths in the
       expanded subgraph and summarise them. With a model configured (``llm``) that is what
       happens: it reads the 40 most similar collected clauses and their typed links
       (``prompts/causal_paths.md.j2``), its paths rank first in its order, and its summary
       is ``last_summary``; ids it invents are dropped, and on a failure (``last_llm_error``)
       the offline stand-in runs. The offline stand-in uses typed Causes /
       Entails / Overrides edges (weights 1.0 / 0.8 / 0.7 times edge confidence) and the
       causal cue patterns of ``rules/causes.yaml``: any other edge counts as a causal link
       (weight 0.5 x confidence) when the clause it leads into matches a cue. A path's
       strength is the seed's cosine times the product of its link weights.
    4. Rank: clauses on causal paths from the seeds first (seeds that start or carry a
       causal path, and the clauses those paths reach, by path strength), then every other
       collected clause by similarity, then further dense hits to fill ``top_k``.
    """

    name = "causal"
    uses_llm = True

    def __init__(self, k: int = 3, s: int = 3) -> None:
        self.k, self.s = int(k), int(s)
        self.name = "causal" if (k, s) == (3, 3) else f"causal-k{k}-s{s}"
        self.last_reached: dict[str, int] = {}  # clause id -> hops from the nearest seed
        self.last_seeds: list[str] = []
        self.last_summary = ""  # the causal summary of the last query (LLM or offline)
        self.last_llm_error: str | None = None

    def notes(self) -> dict[str, str]:
        return _stage_notes("causal summary", self.last_summary,
                            "LLM stage failed, offline paths used", self.last_llm_error)

    def _rank(
        self, retriever: Retriever, q: _Query, config: RetrievalConfig
    ) -> list[RetrievedClause]:
        index = retriever.index
        cosine = q.dense
        seeds = _top(cosine, q.positions, self.k)
        self.last_seeds = [index.clauses[p].clause_id for p in seeds]
        # -- expansion: BFS s steps, remember the hop count and the edge path
        hops: dict[int, int] = {p: 0 for p in seeds}
        paths: dict[int, tuple[int, tuple[Edge, ...]]] = {p: (p, ()) for p in seeds}
        frontier = list(seeds)
        for step in range(1, self.s + 1):
            nxt: list[int] = []
            for position in frontier:
                clause = index.clauses[position]
                graph = index.nx_graph(clause.doc_id)
                for neighbour, edge in _incident(graph, clause.clause_id, _NO_SAME_SECTION):
                    npos = index.clauses.position[neighbour]
                    if npos in hops or len(hops) >= _MAX_COLLECTED:
                        continue
                    hops[npos] = step
                    paths[npos] = (paths[position][0], (*paths[position][1], edge))
                    nxt.append(npos)
            frontier = nxt
        self.last_reached = {index.clauses[p].clause_id: h for p, h in hops.items()}
        # -- causal paths among the collected clauses
        collected = set(hops)
        cue_cache: dict[int, list[str]] = {}

        def cues(position: int) -> list[str]:
            if position not in cue_cache:
                cue_cache[position] = causal_cues(index.clauses[position].text)
            return cue_cache[position]

        llm_why: dict[int, str] = {}
        self.last_llm_error = None
        found = self._llm_paths(q.text, index, collected, cosine) if self.llm is not None else None
        if found is not None:
            strength, causal_via, llm_why, self.last_summary = found
        else:  # offline, or the model failed: the typed edges and cue patterns decide
            strength, causal_via = self._offline_paths(index, seeds, collected, cosine, cues)
            self.last_summary = _causal_summary(index, strength, causal_via)
        # -- rank
        seed_rank = {p: i + 1 for i, p in enumerate(seeds)}
        causal_order = sorted(strength, key=lambda p: (-strength[p], p))
        rest = sorted(
            (p for p in collected if p not in strength), key=lambda p: (-float(cosine[p]), p)
        )
        ordered = causal_order + rest
        if len(ordered) < config.top_k:
            have = set(ordered)
            ordered += [p for p in _top(cosine, q.positions, config.top_k + len(have))
                        if p not in have]
        results = []
        for position in ordered[: config.top_k]:
            hop = hops.get(position)
            cue_ids = cues(position)
            cue_note = f"; causal cues: {', '.join(cue_ids)}" if cue_ids else ""
            if position in llm_why:
                seed = causal_via[position][0]
                origin = "seed" if position in seed_rank else "expanded"
                explanation = llm_why[position]
                score = 1.0 + strength[position]
                via, via_seed = (), index.clauses[seed].clause_id
            elif position in strength:
                seed, path = causal_via[position]
                origin = "seed" if position in seed_rank else "expanded"
                steps = ", ".join(_edge_text(e) for e in path)
                where = f"from seed {_local(index.clauses[seed].clause_id)} via {steps}" if path \
                    else f"seed #{seed_rank.get(position)} starting a causal path"
                explanation = f"on a causal path {where} (strength {strength[position]:.2f}{cue_note})"
                score = 1.0 + strength[position]
                via, via_seed = path, index.clauses[seed].clause_id
            else:
                seed, path = paths.get(position, (position, ()))
                origin = "seed" if position in seed_rank else ("expanded" if path else "hit")
                if position in seed_rank:
                    explanation = f"dense seed #{seed_rank[position]} (cosine {cosine[position]:.2f}{cue_note})"
                elif path:
                    explanation = (
                        f"reached in {hop} step(s) from {_local(index.clauses[seed].clause_id)} via "
                        + ", ".join(_edge_text(e) for e in path)
                        + f", no causal link (cosine {cosine[position]:.2f})"
                    )
                else:
                    explanation = f"dense hit outside the expansion (cosine {cosine[position]:.2f})"
                score = float(cosine[position])
                via, via_seed = path, index.clauses[seed].clause_id if path else None
            results.append(_result(
                retriever, q, position, score=score, origin=origin, strategy=self.name,
                explanation=explanation, seed_rank=seed_rank.get(position), via=via,
                via_seed=via_seed, path_support=strength.get(position, 0.0),
                bm25_weight=config.bm25_weight,
            ))
        return results


    def _offline_paths(
        self, index: Any, seeds: list[int], collected: set[int], cosine: np.ndarray,
        cues: Callable[[int], list[str]],
    ) -> tuple[dict[int, float], dict[int, tuple[int, tuple[Edge, ...]]]]:
        """Causal paths from typed Causes/Entails/Overrides edges and causal cue patterns:
        clause position -> path strength, and -> (seed, edge path)."""
        strength: dict[int, float] = {}
        causal_via: dict[int, tuple[int, tuple[Edge, ...]]] = {}
        for seed in seeds:
            base = max(float(cosine[seed]), 0.0)
            seen: dict[int, tuple[float, tuple[Edge, ...]]] = {seed: (base, ())}
            best = [(seed, base, ())]
            for _ in range(self.s):
                nxt_best = []
                for position, value, path in best:
                    graph = index.nx_graph(index.clauses[position].doc_id)
                    node = index.clauses[position].clause_id
                    for neighbour, edge in _incident(graph, node, _NO_SAME_SECTION):
                        npos = index.clauses.position[neighbour]
                        if npos not in collected:
                            continue
                        weight = _CAUSAL_EDGE_WEIGHT.get(edge.type, 0.0) * edge.confidence
                        if weight == 0.0 and cues(npos):
                            weight = _CUE_LINK_WEIGHT * edge.confidence
                        value2 = value * weight
                        if weight <= 0.0 or value2 <= seen.get(npos, (0.0, ()))[0]:
                            continue
                        seen[npos] = (value2, (*path, edge))
                        nxt_best.append((npos, value2, (*path, edge)))
                best = nxt_best
            if (len(seen) > 1 or cues(seed)) and base >= strength.get(seed, 0.0):
                strength[seed] = base
                causal_via[seed] = (seed, ())
            for position, (value, path) in seen.items():
                if position in seeds:
                    continue
                if value > strength.get(position, 0.0):
                    strength[position] = value
                    causal_via[position] = (seed, path)
        return strength, causal_via

    def _llm_paths(
        self, query: str, index: Any, collected: set[int], cosine: np.ndarray
    ) -> tuple[dict[int, float], dict[int, tuple[int, tuple[Edge, ...]]], dict[int, str], str] | None:
        """The LLM's causal paths among the collected clauses, or None (offline fallback)
        when it fails or names no collected clause. Returns strength, via, why, summary."""
        from clausegraph.llm.base import LLMError, read_json_reply
        from clausegraph.text.templates import render

        shown = sorted(collected, key=lambda p: (-float(cosine[p]), p))[:_LLM_MAX_CLAUSES]
        by_local = {_local(index.clauses[p].clause_id): p for p in shown}
        shown_set = set(shown)
        links = []
        for p in shown:
            clause = index.clauses[p]
            for neighbour, edge in _incident(index.nx_graph(clause.doc_id), clause.clause_id):
                if edge.source == clause.clause_id and index.clauses.position[neighbour] in shown_set:
                    links.append(_edge_text(edge))
        prompt = render(
            "causal_paths.md.j2", query=query, max_paths=5, links=sorted(set(links)),
            clauses=[{"id": local, "text": " ".join(index.clauses[p].text.split())[:600]}
                     for local, p in by_local.items()],
        )
        try:
            reply = self.llm.generate("You find cause-and-effect chains in contracts.", prompt,
                                      schema=_CAUSAL_PATHS_SCHEMA)
            data = read_json_reply(reply.text)
        except (LLMError, ValueError) as exc:
            self.last_llm_error = str(exc)
            return None
        strength: dict[int, float] = {}
        causal_via: dict[int, tuple[int, tuple[Edge, ...]]] = {}
        why: dict[int, str] = {}
        order = 0
        for path in data.get("paths", []) if isinstance(data, dict) else []:
            ids = [by_local[c] for c in path.get("clauses", []) if c in by_local]
            if not ids:
                continue
            chain = " -> ".join(_local(index.clauses[p].clause_id) for p in ids)
            for p in ids:
                if p not in strength:
                    strength[p] = 1.0 - 0.001 * order  # the model's order, paths first
                    causal_via[p] = (ids[0], ())
                    why[p] = f"on the LLM's causal path {chain}: {path.get('why', '')}".rstrip(": ")
                    order += 1
        if not strength:
            self.last_llm_error = "the model named no collected clause"
            return None
        summary = str(data.get("summary", "")) if isinstance(data, dict) else ""
        return strength, causal_via, why, summary


# The LLM reads at most this many collected clauses (the most similar), 600 chars each.
_LLM_MAX_CLAUSES = 40
_CAUSAL_PATHS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "paths": {"type": "array", "items": {"type": "object", "properties": {
            "clauses": {"type": "array", "items": {"type": "string"}},
            "why": {"type": "string"}}, "required": ["clauses"]}},
        "summary": {"type": "string"},
    },
    "required": ["paths", "summary"],
}


def _causal_summary(
    index: Any, strength: dict[int, float], causal_via: dict[int, tuple[int, tuple[Edge, ...]]],
    limit: int = 5,
) -> str:
    """The offline causal summary: the strongest paths, each as its chain of typed edges."""
    lines = []
    for position in sorted(strength, key=lambda p: (-strength[p], p)):
        seed, path = causal_via[position]
        if not path:
            continue
        chain = "; ".join(_edge_text(edge) for edge in path)
        lines.append(f"- {_local(index.clauses[position].clause_id)} is reached from seed "
                     f"{_local(index.clauses[seed].clause_id)} by {chain} "
                     f"(strength {strength[position]:.2f})")
        if len(lines) == limit:
            break
    return "\n".join(lines) if lines else "No causal path links the collected clauses."


def causal_grid(
    k_values: Iterable[int] = range(1, 6), s_values: Iterable[int] | None = None
) -> list[str]:
    """Register ``causal-k{k}-s{s}`` for every k and s (1..5 by default); return the names."""
    names = []
    k_values = list(k_values)
    s_values = list(s_values) if s_values is not None else k_values
    for k in k_values:
        for s in s_values:
            name = f"causal-k{k}-s{s}"
            register(name, lambda k=k, s=s: CausalStrategy(k, s))
            names.append(name)
    return names


# -- GraphRAG causal search ----------------------------------------------------------------

DEFAULT_CAUSAL_DIR = ".clausegraph-causal"
_SECTION_SHARES = {"entities": 0.4, "relationships": 0.4, "text_units": 0.2}
_ENTITY_LABELS = frozenset(
    {"ORG", "PERSON", "MONEY", "DATE", "GPE", "LAW", "PERCENT", "NORP", "PRODUCT", "TIME"}
)
_REPORT_SECTIONS = (
    "Introduction",
    "Key Entities and Their Roles",
    "Major Causal Pathways",
    "Confidence and Evidence Strength",
    "Implications and Recommendations",
)


def token_counter(retriever: Retriever | None) -> tuple[Callable[[str], int], str]:
    """Count tokens with the embedder's MiniLM word-piece tokenizer when there is one
    (``retriever.embedder._model.tokenizer``); otherwise fall back to whitespace words."""
    model = getattr(getattr(retriever, "embedder", None), "_model", None)
    tokenizer = getattr(model, "tokenizer", None)
    if tokenizer is not None:
        def count(text: str) -> int:
            return len(tokenizer.encode(text, add_special_tokens=False, verbose=False))

        return count, "minilm-wordpiece"
    return (lambda text: len(text.split())), "whitespace"


class CausalSearchStrategy(_ScoredStrategy):
    """GraphRAG causal search (seed 002) on the clause graph.

    - Nodes: ``(k + s) * 2`` clauses (oversample scaler 2) by fused BM25 + dense similarity;
      ``k`` defaults to ``config.top_k``, ``s`` to 3.
    - Network data under an 8,000-token budget split 40% entities / 40% relationships / 20%
      text units. Entities are the named entities (spaCy ORG, PERSON, MONEY, DATE, ...) and
      defined terms of the node clauses, fields id/entity/description/rank/type, sorted by
      rank (number of node clauses mentioning them, then similarity); relationships are the
      graph edges touching the nodes, fields id/source/target/description/weight/rank, sorted
      by weight (confidence x causal type weight); text units are the clauses, fields
      id/text/n_tokens, shortest first, text cut at 1,000 characters with "...". Records are
      added in order while the section's token count (real counts of each JSON record, see
      :func:`token_counter`) stays within its share; the first record that would exceed it
      is dropped and the section stops ("reverting to the previous context state").
    - Stage 1, the five-section causal report, and stage 2, the answer: with ``llm`` (an
      :class:`~clausegraph.llm.base.LLMProvider`) the prompts ``causal_discovery.md.j2`` and
      ``causal_summary.md.j2`` are sent; offline (default) both are rendered
      deterministically from the network data (pathways = relationships in weight order,
      confidence = edge confidences and rule ids, answer = the report's pathways and the
      best text units quoted).
    - Saves ``{query_id}_network_data.json``, ``{query_id}_causal_report.md`` and
      ``{query_id}_response.md`` in ``output_dir`` (argument, else env
      ``CLAUSEGRAPH_CAUSAL_DIR``, else ``.clausegraph-causal/``); query_id is
      ``{sha256(query)[:8]}_{unix time}``.
    - Result: the text units that made it into the context, in context order, then (to fill
      ``top_k``) the remaining nodes by similarity.
    """

    name = "causal-search"
    uses_llm = True

    def __init__(
        self,
        k: int | None = None,
        s: int = 3,
        oversample: int = 2,
        max_tokens: int = 8000,
        output_dir: str | Path | None = None,
        llm: Any = None,
        save: bool = True,
    ) -> None:
        self.k, self.s, self.oversample, self.max_tokens = k, s, oversample, max_tokens
        self.output_dir = Path(
            output_dir or os.environ.get("CLAUSEGRAPH_CAUSAL_DIR") or DEFAULT_CAUSAL_DIR
        )
        self.llm = llm
        self.save = save
        self.last_run: dict[str, Any] = {}

    def notes(self) -> dict[str, str]:
        notes = {f"saved {name.replace('_', ' ')}": path
                 for name, path in self.last_run.get("files", {}).items()}
        if self.last_run.get("answer"):
            notes["causal-search answer"] = self.last_run["answer"]
        return notes

    # network data -----------------------------------------------------------------------

    def network_data(
        self, retriever: Retriever, q: _Query, nodes: list[int], bm25_weight: float = 0.5
    ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, int], str]:
        """The truncated network data, the tokens each section used, the tokenizer name."""
        index = retriever.index
        node_ids = {index.clauses[p].clause_id for p in nodes}
        sims = {p: q.sim(p, bm25_weight) for p in nodes}
        # entities
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for p in nodes:
            clause = index.clauses[p]
            names = [(e.text.strip(), e.label) for e in clause.entities if e.label in _ENTITY_LABELS]
            names += [(t, "DEFINED_TERM") for t in clause.defined_terms]
            for name, label in names:
                if len(name) < 2:
                    continue
                key = (name.lower(), label)
                item = found.setdefault(key, {"entity": name, "type": label, "clauses": [],
                                              "sim": 0.0})
                if clause.clause_id not in item["clauses"]:
                    item["clauses"].append(clause.clause_id)
                    item["sim"] += sims[p]
        entities = []
        for (name, label), item in found.items():
            clause_list = ", ".join(_local(c) for c in item["clauses"][:5])
            entities.append({
                "entity": item["entity"], "type": label,
                "description": f"{label.lower().replace('_', ' ')} mentioned in {clause_list}",
                "rank": len(item["clauses"]), "_sim": item["sim"],
            })
        entities.sort(key=lambda e: (-e["rank"], -e["_sim"], e["entity"]))
        for i, entity in enumerate(entities):
            entity.pop("_sim")
            entity["id"] = f"e{i}"
        entities = [{f: e[f] for f in ("id", "entity", "description", "rank", "type")}
                    for e in entities]
        # relationships
        degree: dict[str, int] = {}
        edges: dict[tuple[str, str, str], Edge] = {}
        for p in nodes:
            clause = index.clauses[p]
            graph = index.nx_graph(clause.doc_id)
            for _, edge in _incident(graph, clause.clause_id):
                edges[(edge.type.value, edge.source, edge.target)] = edge
        for edge in edges.values():
            degree[edge.source] = degree.get(edge.source, 0) + 1
            degree[edge.target] = degree.get(edge.target, 0) + 1
        relationships = []
        for edge in edges.values():
            type_weight = _CAUSAL_EDGE_WEIGHT.get(edge.type, 0.5 if edge.type is not
                                                  RelationType.SAME_SECTION else 0.2)
            inside = edge.source in node_ids and edge.target in node_ids
            relationships.append({
                "source": _local(edge.source), "target": _local(edge.target),
                "description": f"{edge.type.value} ({edge.rule_id}): "
                + " ".join(edge.evidence.split())[:200],
                "weight": round(edge.confidence * type_weight * (1.0 if inside else 0.8), 4),
                "rank": degree[edge.source] + degree[edge.target],
            })
        relationships.sort(key=lambda r: (-r["weight"], -r["rank"], r["source"], r["target"]))
        relationships = [{"id": f"r{i}", **r} for i, r in enumerate(relationships)]
        relationships = [{f: r[f] for f in ("id", "source", "target", "description", "weight",
                                            "rank")} for r in relationships]
        # text units
        count, tokenizer_name = token_counter(retriever)
        units = []
        for p in nodes:
            clause = index.clauses[p]
            text = clause.text if len(clause.text) <= 1000 else clause.text[:1000] + "..."
            units.append({"id": clause.clause_id, "text": text, "n_tokens": count(text)})
        units.sort(key=lambda u: (u["n_tokens"], u["id"]))
        # progressive truncation by real token counts
        data: dict[str, list[dict[str, Any]]] = {}
        used: dict[str, int] = {}
        for section, records in (("entities", entities), ("relationships", relationships),
                                 ("text_units", units)):
            limit = int(self.max_tokens * _SECTION_SHARES[section])
            kept, total = [], 0
            for record in records:
                cost = count(json.dumps(record, ensure_ascii=False))
                if total + cost > limit:
                    break  # reached the token limit: revert to the previous state
                kept.append(record)
                total += cost
            data[section], used[section] = kept, total
        return data, used, tokenizer_name

    # stage 1 and 2 ----------------------------------------------------------------------

    def causal_report(self, query: str, data: dict[str, list[dict[str, Any]]]) -> str:
        """Stage 1: the five-section causal report (LLM when configured, else offline)."""
        graph_data = json.dumps(data, ensure_ascii=False, indent=1)
        if self.llm is not None:
            from clausegraph.text.templates import render

            prompt = render("causal_discovery.md.j2", graph_data=graph_data, query=query)
            return self.llm.generate("You are a careful legal causal analyst.", prompt).text
        return render_offline_report(query, data)

    def causal_answer(self, query: str, report: str, data: dict[str, Any]) -> str:
        """Stage 2: the answer from the report (LLM when configured, else offline)."""
        if self.llm is not None:
            from clausegraph.text.templates import render

            prompt = render("causal_summary.md.j2", causal_summary=report, query=query,
                            response_type="Multiple Paragraphs")
            return self.llm.generate("You answer questions about contracts.", prompt).text
        lines = ["# Answer", "", f"Question: {query}", ""]
        units = data.get("text_units", [])
        best = units[:3]
        if not units:
            lines.append("The retrieved context holds no clause text within the token budget.")
        for unit in best:
            lines.append(f"- {_local(unit['id'])}: " + " ".join(unit["text"].split())[:300])
        pathways = _section(report, "Major Causal Pathways")
        if pathways:
            lines += ["", "Causal pathways considered:", pathways]
        return "\n".join(lines) + "\n"

    def _rank(
        self, retriever: Retriever, q: _Query, config: RetrievalConfig
    ) -> list[RetrievedClause]:
        k = self.k if self.k is not None else config.top_k
        n_nodes = (k + self.s) * self.oversample
        sims = q.sims(config.bm25_weight)
        nodes = _top(sims, q.positions, n_nodes)
        data, used, tokenizer_name = self.network_data(retriever, q, nodes, config.bm25_weight)
        report = self.causal_report(q.text, data)
        answer = self.causal_answer(q.text, report, data)
        query_id = f"{hashlib.sha256(q.original.encode('utf-8')).hexdigest()[:8]}_{int(time.time())}"
        files: dict[str, str] = {}
        if self.save:
            self.output_dir.mkdir(parents=True, exist_ok=True)
            network = {"query_id": query_id, "query": q.original, "scoped_query": q.text,
                       "nodes_requested": n_nodes, "token_budget": self.max_tokens,
                       "tokens_used": used, "tokenizer": tokenizer_name, **data}
            paths = {
                "network_data": self.output_dir / f"{query_id}_network_data.json",
                "causal_report": self.output_dir / f"{query_id}_causal_report.md",
                "response": self.output_dir / f"{query_id}_response.md",
            }
            paths["network_data"].write_text(json.dumps(network, ensure_ascii=False, indent=1),
                                             encoding="utf-8")
            paths["causal_report"].write_text(report, encoding="utf-8")
            paths["response"].write_text(answer, encoding="utf-8")
            files = {k2: str(v) for k2, v in paths.items()}
        self.last_run = {"query_id": query_id, "nodes": [retriever.index.clauses[p].clause_id
                                                         for p in nodes],
                         "data": data, "tokens_used": used, "tokenizer": tokenizer_name,
                         "report": report, "answer": answer, "files": files}
        position = retriever.index.clauses.position
        in_context = [position[u["id"]] for u in data["text_units"]]
        rest = [p for p in nodes if p not in set(in_context)]
        results = []
        for rank, p in enumerate(in_context + rest, start=1):
            inside = rank <= len(in_context)
            explanation = (
                f"text unit #{rank} of the causal-search context ({used['text_units']} of "
                f"{int(self.max_tokens * 0.2)} text tokens; sim {sims[p]:.2f})"
                if inside else
                f"causal-search node outside the text-unit token budget (sim {sims[p]:.2f})"
            )
            results.append(_result(
                retriever, q, p, score=float(sims[p]), origin="hit" if inside else "expanded",
                strategy=self.name, explanation=explanation, bm25_weight=config.bm25_weight,
            ))
            if len(results) >= config.top_k:
                break
        return results


def _section(markdown: str, title: str) -> str:
    match = re.search(rf"^## \d*\.?\s*{re.escape(title)}\n(.*?)(?=^## |\Z)", markdown,
                      re.DOTALL | re.MULTILINE)
    return match.group(1).strip() if match else ""


def render_offline_report(query: str, data: dict[str, list[dict[str, Any]]]) -> str:
    """The stage-1 report's five sections, written deterministically from network data."""
    entities = data.get("entities", [])
    relationships = data.get("relationships", [])
    units = data.get("text_units", [])
    causal = [r for r in relationships if r["description"].split(" ", 1)[0]
              in {"Causes", "Entails", "Overrides"}]
    other = [r for r in relationships if r not in causal]
    out = ["# Causal analysis report", "", f"Query: {query}", ""]
    out += [f"## 1. {_REPORT_SECTIONS[0]}", "",
            (f"The network holds {len(entities)} entities, {len(relationships)} relationships "
             f"and {len(units)} clauses selected for the query. {len(causal)} relationships are "
             "typed causal links (Causes, Entails, Overrides); the rest are references, "
             "definitions and section links that carry context."), ""]
    out += [f"## 2. {_REPORT_SECTIONS[1]}", ""]
    out += [f"- **{e['entity']}** ({e['type']}, rank {e['rank']}): {e['description']}"
            for e in entities[:10]] or ["- No named entities in the selected clauses."]
    out += ["", f"## 3. {_REPORT_SECTIONS[2]}", ""]
    out += [f"- {r['source']} -> {r['target']} (weight {r['weight']}): {r['description']}"
            for r in (causal + other)[:10]] or ["- No relationships within the budget."]
    out += ["", f"## 4. {_REPORT_SECTIONS[3]}", ""]
    if relationships:
        weights = [r["weight"] for r in relationships]
        out.append(f"Relationship weights range {min(weights):.2f}-{max(weights):.2f} "
                   f"(mean {sum(weights) / len(weights):.2f}); {len(causal)} causal links come "
                   "from explicit rule matches in the contract text, the rest are structural.")
    else:
        out.append("No relationships: the evidence is the clause text alone (weak).")
    out += ["", f"## 5. {_REPORT_SECTIONS[4]}", ""]
    if units:
        out += [f"- Review {_local(u['id'])}: " + " ".join(u["text"].split())[:160]
                for u in units[:5]]
    else:
        out.append("- No clause text fitted the budget; widen the budget or the query.")
    return "\n".join(out) + "\n"


# -- E2RAG ---------------------------------------------------------------------------------

_OBLIGATION = re.compile(
    r"\b(?:shall|must|may\s+not|will|agrees?\s+to|is\s+required\s+to|is\s+entitled\s+to|"
    r"if|unless|provided\s+that|subject\s+to|in\s+the\s+event|upon|until|prior\s+to)\b",
    re.IGNORECASE,
)
_MENTION_LABELS = frozenset({"ORG", "PERSON", "MONEY", "DATE", "GPE", "PERCENT", "LAW", "TIME"})


@dataclass
class Mention:
    """One entity mention, kept distinct per clause (never merged across clauses)."""

    node_id: str
    name: str
    label: str
    clause_position: int
    description: str
    tokens: frozenset[str]


@dataclass
class Bipartite:
    """Entity-mention nodes, event/obligation clause nodes and the edges between them."""

    mentions: list[Mention] = field(default_factory=list)
    events: list[int] = field(default_factory=list)  # clause positions
    mention_edges: dict[int, list[int]] = field(default_factory=dict)  # mention -> events
    event_edges: dict[int, list[int]] = field(default_factory=dict)  # event -> mentions

    def edges(self) -> Iterable[tuple[str, str]]:
        """(mention node id, event clause position as str) pairs, for inspection."""
        for m, events in self.mention_edges.items():
            for e in events:
                yield self.mentions[m].node_id, str(e)


_BIPARTITE_CACHE: weakref.WeakKeyDictionary[Any, dict[str, Bipartite]] = weakref.WeakKeyDictionary()


def build_bipartite(index: Any, doc_id: str) -> Bipartite:
    """The document's entity/event bipartite graph (built on first use, cached per index)."""
    cache = _BIPARTITE_CACHE.setdefault(index, {})
    if doc_id in cache:
        return cache[doc_id]
    start, end = index.clauses.doc_ranges[doc_id]
    clauses: list[Clause] = index.clauses[start:end]
    part = Bipartite()
    defined_in_use: dict[str, set[str]] = {}
    for edge in index.graph.document_edges(doc_id):
        if edge.type is RelationType.DEFINES and edge.term:
            defined_in_use.setdefault(edge.target, set()).add(edge.term)
    for offset, clause in enumerate(clauses):
        position = start + offset
        names: list[tuple[str, str]] = []
        for entity in clause.entities:
            if entity.label in _MENTION_LABELS:
                names.append((entity.text.strip(), entity.label))
        names += [(t, "DEFINED_TERM") for t in clause.defined_terms]
        names += [(t, "TERM_USE") for t in sorted(defined_in_use.get(clause.clause_id, ()))]
        seen: set[str] = set()
        for name, label in names:
            key = name.lower()
            if len(key) < 3 or key in seen:
                continue
            seen.add(key)
            at = clause.text.lower().find(key)
            window = clause.text[max(at - 80, 0): at + len(name) + 80] if at >= 0 else clause.text[:160]
            part.mentions.append(Mention(
                node_id=f"{clause.clause_id}#{len(seen)}", name=name, label=label,
                clause_position=position, description=" ".join(window.split()),
                tokens=frozenset(tokenize(name)),
            ))
        if clause.kind != "heading" and _OBLIGATION.search(clause.text):
            part.events.append(position)
    lowered = {p: index.clauses[p].text.lower() for p in part.events}
    by_name: dict[str, list[int]] = {}
    for m, mention in enumerate(part.mentions):
        by_name.setdefault(mention.name.lower(), []).append(m)
    for name, mention_ids in by_name.items():
        linked = [p for p in part.events if name in lowered[p]]
        for m in mention_ids:
            part.mention_edges[m] = linked
            for p in linked:
                part.event_edges.setdefault(p, []).append(m)
    cache[doc_id] = part
    return part


class E2RAGStrategy(_ScoredStrategy):
    """E2RAG (seed 003): entity-mention and event nodes joined by bipartite edges.

    - Entity-mention nodes, one per (clause, name), never merged: spaCy entities of the
      clause (ORG, PERSON, MONEY, DATE, GPE, PERCENT, LAW, TIME), terms the clause defines
      (``Clause.defined_terms``) and defined terms it uses (Defines edges into it). The
      LLM-written context description is replaced by the text window around the mention.
    - Event/obligation nodes: clauses carrying a duty or condition ("shall", "must",
      "may not", "if", "unless", "subject to", "in the event", ...).
    - Bipartite edges: mention -> every event clause whose text contains the mention's name
      (case-insensitive substring, as the paper's name matching).
    - Seeds: mentions whose name tokens occur in the query (score = share of the name's
      tokens found, times 0.5 + 0.5 x the cosine of the mention's clause, the stand-in for a
      mention embedding) and event clauses by fused BM25+dense. With an LLM configured, HyDE:
      the query vector is joined by the embedding of a clause the model writes to answer it.
    - One hop over the bipartite edges: mention seeds reach the events they link to; event
      seeds reach their mentions and so the mentions' own clauses. Rerank by fused
      similarity plus 0.1 x the best mention score that reached the clause.
    Graphs are built per document on first use and cached per loaded index.
    """

    name = "e2rag"
    uses_llm = True

    def __init__(self, mention_seeds: int = 10, event_seeds: int = 5) -> None:
        self.mention_seeds, self.event_seeds = mention_seeds, event_seeds
        self.last_hypothetical = ""  # the HyDE clause of the last query (LLM only)
        self.last_llm_error: str | None = None

    def notes(self) -> dict[str, str]:
        return _stage_notes("HyDE clause", self.last_hypothetical,
                            "LLM stage failed, query searched alone", self.last_llm_error)

    def _hyde(self, retriever: Retriever, q: _Query) -> None:
        """HyDE: search with the query and a hypothetical clause that would answer it.

        The model writes the clause (``prompts/hyde.md.j2``); its embedding is added to the
        query's and the dense scores are recomputed. On a model failure the query is used
        alone (``last_llm_error`` says why)."""
        from clausegraph.llm.base import LLMError
        from clausegraph.text.templates import render

        self.last_hypothetical, self.last_llm_error = "", None
        try:
            reply = self.llm.generate("You draft contract and policy clauses.",
                                      render("hyde.md.j2", query=q.text))
        except LLMError as exc:
            self.last_llm_error = str(exc)
            return
        text = reply.text.strip()
        if not text:
            return
        self.last_hypothetical = text
        vector = q.vector + retriever.embedder.encode_query(text)
        q.vector = (vector / max(float(np.linalg.norm(vector)), 1e-9)).astype(np.float32)
        q.dense = np.zeros_like(q.dense)
        if len(q.positions):
            q.dense[q.positions] = retriever.index.vectors.at(q.positions) @ q.vector
            q.dense_max = max(float(q.dense[q.positions].max()), 1e-9)

    def _rank(
        self, retriever: Retriever, q: _Query, config: RetrievalConfig
    ) -> list[RetrievedClause]:
        if self.llm is not None:
            self._hyde(retriever, q)
        index = retriever.index
        sims = q.sims(config.bm25_weight)
        query_tokens = set(tokenize(q.text))
        # documents in play: those of the best clauses (bipartite graphs are built lazily)
        pool = _top(sims, q.positions, max(config.candidate_k, config.top_k))
        docs = list(dict.fromkeys(index.clauses[p].doc_id for p in pool))
        event_scores: list[tuple[float, int, str]] = []
        mention_scores: list[tuple[float, str, int]] = []
        graphs = {d: build_bipartite(index, d) for d in docs}
        for doc_id, part in graphs.items():
            for m, mention in enumerate(part.mentions):
                if not mention.tokens:
                    continue
                overlap = len(mention.tokens & query_tokens) / len(mention.tokens)
                if overlap > 0:
                    cos = max(float(q.dense[mention.clause_position]), 0.0) / q.dense_max
                    mention_scores.append((overlap * (0.5 + 0.5 * cos), doc_id, m))
            for p in part.events:
                event_scores.append((float(sims[p]), p, doc_id))
        mention_scores.sort(key=lambda t: (-t[0], t[1], t[2]))
        event_scores.sort(key=lambda t: (-t[0], t[1]))
        candidates: dict[int, dict[str, Any]] = {}

        def add(position: int, origin: str, why: str, bonus: float = 0.0, rank=None) -> None:
            item = candidates.setdefault(position, {"origin": origin, "why": why,
                                                    "bonus": 0.0, "rank": rank})
            item["bonus"] = max(item["bonus"], bonus)

        for rank, (score, p, doc_id) in enumerate(event_scores[: self.event_seeds], start=1):
            add(p, "seed", f"event seed #{rank} (sim {score:.2f})", rank=rank)
        for score, doc_id, m in mention_scores[: self.mention_seeds]:
            part = graphs[doc_id]
            mention = part.mentions[m]
            home = mention.clause_position
            add(home, "seed", f"holds mention '{mention.name}' ({mention.label}) matching the "
                f"query ({score:.2f})", bonus=score)
            for p in part.mention_edges.get(m, []):
                add(p, "expanded", f"event linked to mention '{mention.name}' of "
                    f"{_local(index.clauses[home].clause_id)}", bonus=score * 0.5)
        for score, p, doc_id in event_scores[: self.event_seeds]:
            part = graphs[doc_id]
            for m in part.event_edges.get(p, []):
                mention = part.mentions[m]
                if mention.clause_position != p and mention.tokens & query_tokens:
                    add(mention.clause_position, "expanded",
                        f"mention '{mention.name}' linked to event seed "
                        f"{_local(index.clauses[p].clause_id)}")
        # fill with the best fused hits so top_k is always met
        for p in pool:
            if len(candidates) >= config.top_k * 3:
                break
            add(p, "hit", "fused BM25+dense hit")
        ranked = sorted(candidates, key=lambda p: (-(sims[p] + 0.1 * candidates[p]["bonus"]), p))
        results = []
        for p in ranked[: config.top_k]:
            item = candidates[p]
            results.append(_result(
                retriever, q, p, score=float(sims[p] + 0.1 * item["bonus"]),
                origin=item["origin"], strategy=self.name,
                explanation=f"{item['why']}; reranked by similarity {sims[p]:.2f}",
                seed_rank=item["rank"] if item["origin"] == "seed" else None,
                bm25_weight=config.bm25_weight,
            ))
        return results


# -- LeSeGR --------------------------------------------------------------------------------

DEFAULT_TYPE_WEIGHTS: dict[str, float] = {
    RelationType.CAUSES.value: 1.0,
    RelationType.ENTAILS.value: 0.9,
    RelationType.OVERRIDES.value: 0.9,
    RelationType.REFERS_TO.value: 0.8,
    RelationType.DEFINES.value: 0.6,
    RelationType.SAME_SECTION.value: 0.3,
}
DEFAULT_LESEGR_WEIGHTS: dict[str, Any] = {
    "sparse": 0.5, "dense": 0.5, "alpha": 0.6, "layers": 2, "type_weights": DEFAULT_TYPE_WEIGHTS,
}


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


class LeSeGRStrategy(_ScoredStrategy):
    """LeSeGR (seed 001, CG-RAG) as training-free message passing on the clause graph.

    relevance_i = sparse x BM25_i / max + dense x cosine_i / max over the allowed clauses;
    the subgraph is the ``candidate_k`` most relevant clauses plus their graph neighbours;
    :func:`propagate` runs ``layers`` (2) rounds with ``alpha`` 0.6 and edge-type weights
    (Causes 1.0, Entails/Overrides 0.9, RefersTo 0.8, Defines 0.6, SameSection 0.3, times
    confidence), edges walked both ways. Final score = propagated relevance. The paper's
    graph transformer trained on 10% labels is replaced by :func:`fit_weights`, a grid search
    of (sparse share, alpha) on labelled queries, saved to JSON and loaded with
    ``weights_path``; the ``lesegr-fitted`` strategy loads the file named by env
    ``CLAUSEGRAPH_LESEGR_WEIGHTS`` (``lesegr`` itself is always training-free).
    """

    name = "lesegr"

    def __init__(self, weights_path: str | Path | None = None,
                 weights: dict[str, Any] | None = None) -> None:
        self.weights = {**DEFAULT_LESEGR_WEIGHTS, "type_weights": dict(DEFAULT_TYPE_WEIGHTS)}
        if weights_path:
            self.weights.update(_read_weights(Path(weights_path)))
        if weights:
            self.weights.update(weights)
        self.last_scores: dict[str, tuple[float, float]] = {}

    def _rank(
        self, retriever: Retriever, q: _Query, config: RetrievalConfig
    ) -> list[RetrievedClause]:
        index = retriever.index
        w = self.weights
        total = (w["sparse"] + w["dense"]) or 1.0
        rel_all = (w["sparse"] * q.bm25 / q.bm25_max
                   + w["dense"] * np.clip(q.dense, 0.0, None) / q.dense_max) / total
        pool = _top(rel_all, q.positions, max(config.candidate_k, config.top_k))
        allowed = set(q.positions.tolist()) if len(q.positions) < len(index.clauses) else None
        type_weights = w["type_weights"]
        nodes = set(pool)
        neighbours: dict[int, list[tuple[int, float]]] = {}
        strongest: dict[int, Edge] = {}
        for p in pool:
            clause = index.clauses[p]
            graph = index.nx_graph(clause.doc_id)
            for neighbour, edge in _incident(graph, clause.clause_id):
                j = index.clauses.position[neighbour]
                if allowed is not None and j not in allowed:
                    continue
                nodes.add(j)
        for p in nodes:
            clause = index.clauses[p]
            graph = index.nx_graph(clause.doc_id)
            best = 0.0
            for neighbour, edge in _incident(graph, clause.clause_id):
                j = index.clauses.position[neighbour]
                if j not in nodes:
                    continue
                weight = type_weights.get(edge.type.value, 0.5) * edge.confidence
                neighbours.setdefault(p, []).append((j, weight))
                if weight * rel_all[j] > best:
                    best, strongest[p] = weight * rel_all[j], edge
        relevance = {p: float(rel_all[p]) for p in nodes}
        h = propagate(relevance, neighbours, float(w["alpha"]), int(w["layers"]))
        self.last_scores = {index.clauses[p].clause_id: (relevance[p], h[p]) for p in nodes}
        ranked = sorted(nodes, key=lambda p: (-h[p], p))[: config.top_k]
        before = {p: i + 1 for i, p in enumerate(pool)}
        results = []
        for p in ranked:
            edge = strongest.get(p)
            lifted = h[p] > relevance[p] + 1e-9
            origin = "seed" if before.get(p, 10**9) <= config.top_k else (
                "expanded" if lifted or p not in before else "hit")
            note = (f"relevance {relevance[p]:.2f} -> {h[p]:.2f} after {w['layers']} message-"
                    "passing layers")
            if edge is not None:
                note += f" (strongest neighbour via {_edge_text(edge)})"
            results.append(_result(
                retriever, q, p, score=h[p], origin=origin, strategy=self.name,
                explanation=note, seed_rank=before.get(p) if origin == "seed" else None,
                via=[edge] if edge is not None and origin == "expanded" else [],
                via_seed=(edge.source if edge.target == index.clauses[p].clause_id
                          else edge.target) if edge is not None and origin == "expanded" else None,
                bm25_weight=config.bm25_weight,
            ))
        return results


LESEGR_WEIGHTS_ENV = "CLAUSEGRAPH_LESEGR_WEIGHTS"


def _read_weights(path: Path) -> dict[str, Any]:
    try:
        weights = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"LeSeGR weights {path}: cannot read ({exc})") from exc
    if not isinstance(weights, dict) or not {"sparse", "dense", "alpha"} <= set(weights):
        raise ValueError(f"LeSeGR weights {path}: needs sparse, dense and alpha")
    return weights


def fitted_lesegr() -> LeSeGRStrategy:
    """``lesegr-fitted``: LeSeGR with the weights saved by :func:`fit_weights`, read from the
    file named by ``CLAUSEGRAPH_LESEGR_WEIGHTS`` (``batch_evaluate.py --fit-lesegr`` writes one)."""
    path = os.environ.get(LESEGR_WEIGHTS_ENV)
    if not path:
        raise ValueError(
            f"lesegr-fitted needs {LESEGR_WEIGHTS_ENV}=<weights.json>; fit one with "
            "'batch_evaluate.py --fit-lesegr FILE'"
        )
    strategy = LeSeGRStrategy(weights_path=path)
    strategy.name = "lesegr-fitted"
    return strategy


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
        q = _prepare(retriever, question, config, None)
        if q is not None:
            prepared.append((q, set(relevant)))
    best: tuple[float, dict[str, Any]] | None = None
    for sparse in sparse_grid:
        for alpha in alpha_grid:
            weights = {**DEFAULT_LESEGR_WEIGHTS, "sparse": sparse, "dense": 1.0 - sparse,
                       "alpha": alpha}
            strategy = LeSeGRStrategy(weights=weights)
            objective = 0.0
            for q, relevant in prepared:
                ids = [r.clause_id for r in strategy._rank(retriever, q, config)]
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


# -- registration --------------------------------------------------------------------------

register("causal", CausalStrategy)
register("causal-search", CausalSearchStrategy)
register("e2rag", E2RAGStrategy)
register("lesegr", LeSeGRStrategy)
# lesegr-fitted is made on demand (strategies.create_strategy) because it needs a weights file.
# The k,s grid is registered on demand (causal_grid()): registering 25 names at import would
# put them all into every default evaluation run (evaluate.py runs all strategy_names()).
