"""E2RAG (seed 003): per-clause entity-mention nodes and obligation/event clause nodes
joined by bipartite name-containment edges."""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import Field

from clausegraph.config import RetrievalConfig
from clausegraph.llm.base import LLMError
from clausegraph.models import Clause, RelationType
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.store.base import IndexReader
from clausegraph.strategies.base import StrategyConfig, StrategyResult, stage_notes
from clausegraph.strategies.common import (
    ScoredQuery,
    ScoredStrategy,
    local_id,
    make_result,
    top_rows,
)
from clausegraph.text.templates import render
from clausegraph.text.tokenize import tokenize

_OBLIGATION = re.compile(
    r"\b(?:shall|must|may\s+not|will|agrees?\s+to|is\s+required\s+to|is\s+entitled\s+to|"
    r"if|unless|provided\s+that|subject\s+to|in\s+the\s+event|upon|until|prior\s+to)\b",
    re.IGNORECASE,
)
_MENTION_LABELS = frozenset({"ORG", "PERSON", "MONEY", "DATE", "GPE", "PERCENT", "LAW", "TIME"})


class E2RAGConfig(StrategyConfig):
    """How many seeds of each kind start the one-hop walk."""

    mention_seeds: int = Field(10, ge=0, description="entity mentions matching the query")
    event_seeds: int = Field(5, ge=0, description="event clauses by fused similarity")


@dataclass
class Mention:
    """One entity mention, kept distinct per clause (never merged across clauses)."""

    node_id: str
    name: str
    label: str
    clause_id: str
    description: str
    tokens: frozenset[str]


@dataclass
class Bipartite:
    """Entity-mention nodes, event/obligation clause nodes and the edges between them."""

    mentions: list[Mention] = field(default_factory=list)
    events: list[str] = field(default_factory=list)  # clause ids, in document order
    mention_edges: dict[int, list[str]] = field(default_factory=dict)  # mention -> events
    event_edges: dict[str, list[int]] = field(default_factory=dict)  # event -> mentions

    def edges(self) -> Iterable[tuple[str, str]]:
        """(mention node id, event clause id) pairs, for inspection."""
        for m, events in self.mention_edges.items():
            for event in events:
                yield self.mentions[m].node_id, event


_BIPARTITE_CACHE: weakref.WeakKeyDictionary[Any, dict[str, Bipartite]] = weakref.WeakKeyDictionary()


def _mentions(clause: Clause, terms_used: set[str]) -> list[Mention]:
    """The clause's entity mentions: spaCy entities, terms it defines, defined terms it uses."""
    names = [(e.text.strip(), e.label) for e in clause.entities if e.label in _MENTION_LABELS]
    names += [(t, "DEFINED_TERM") for t in clause.defined_terms]
    names += [(t, "TERM_USE") for t in sorted(terms_used)]
    mentions = []
    seen: set[str] = set()
    for name, label in names:
        key = name.lower()
        if len(key) < 3 or key in seen:
            continue
        seen.add(key)
        at = clause.text.lower().find(key)
        window = clause.text[max(at - 80, 0): at + len(name) + 80] if at >= 0 else clause.text[:160]
        mentions.append(Mention(
            node_id=f"{clause.clause_id}#{len(seen)}", name=name, label=label,
            clause_id=clause.clause_id, description=" ".join(window.split()),
            tokens=frozenset(tokenize(name)),
        ))
    return mentions


def build_bipartite(index: IndexReader, doc_id: str) -> Bipartite:
    """The document's entity/event bipartite graph (built on first use, cached per index)."""
    cache = _BIPARTITE_CACHE.setdefault(index, {})
    if doc_id in cache:
        return cache[doc_id]
    part = Bipartite()
    defined_in_use: dict[str, set[str]] = {}
    for edge in index.graph.document_edges(doc_id):
        if edge.type is RelationType.DEFINES and edge.term:
            defined_in_use.setdefault(edge.target, set()).add(edge.term)
    lowered: dict[str, str] = {}
    for clause in index.clauses.document_clauses(doc_id):
        part.mentions += _mentions(clause, defined_in_use.get(clause.clause_id, set()))
        if clause.kind != "heading" and _OBLIGATION.search(clause.text):
            part.events.append(clause.clause_id)
            lowered[clause.clause_id] = clause.text.lower()
    by_name: dict[str, list[int]] = {}
    for m, mention in enumerate(part.mentions):
        by_name.setdefault(mention.name.lower(), []).append(m)
    for name, mention_ids in by_name.items():
        linked = [e for e in part.events if name in lowered[e]]
        for m in mention_ids:
            part.mention_edges[m] = linked
            for event in linked:
                part.event_edges.setdefault(event, []).append(m)
    cache[doc_id] = part
    return part


@dataclass
class _Candidate:
    origin: str
    why: str
    bonus: float = 0.0
    rank: int | None = None


class E2RAGStrategy(ScoredStrategy):
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
      the query vector is joined by the embedding of a clause the model writes to answer it
      (the "HyDE clause" note).
    - One hop over the bipartite edges: mention seeds reach the events they link to; event
      seeds reach their mentions and so the mentions' own clauses. Rerank by fused
      similarity plus 0.1 x the best mention score that reached the clause.
    Graphs are built per document on first use and cached per loaded index.
    """

    name = "e2rag"
    uses_llm = True

    def __init__(self, config: E2RAGConfig | None = None, **params: Any) -> None:
        self.config = config or E2RAGConfig(**params)

    def _hyde(self, retriever: Retriever, q: ScoredQuery) -> tuple[ScoredQuery, str, str | None]:
        """HyDE: search with the query and a hypothetical clause that would answer it.

        The model writes the clause (``prompts/hyde.md.j2``); its embedding is added to the
        query's and the dense scores are recomputed. On a model failure the query is used
        alone. Returns the query to search with, the clause, and the error if any."""
        try:
            reply = self.llm.generate("You draft contract and policy clauses.",
                                      render("hyde.md.j2", query=q.text))
        except LLMError as exc:
            return q, "", str(exc)
        text = reply.text.strip()
        if not text:
            return q, "", None
        vector = q.vector + retriever.embedder.encode_query(text)
        vector = (vector / max(float(np.linalg.norm(vector)), 1e-9)).astype(np.float32)
        return q.with_vector(vector), text, None

    def rank(self, retriever: Retriever, q: ScoredQuery, config: RetrievalConfig) -> StrategyResult:
        hypothetical, error = "", None
        if self.llm is not None:
            q, hypothetical, error = self._hyde(retriever, q)
        sims = q.sims(config.bm25_weight)
        # documents in play: those of the best clauses (bipartite graphs are built lazily)
        pool = top_rows(sims, max(config.candidate_k, config.top_k))
        docs = list(dict.fromkeys(q.clause(r).doc_id for r in pool))
        graphs = {d: build_bipartite(q.index, d) for d in docs}
        candidates = self._candidates(q, sims, graphs, pool, config.top_k)
        ranked = sorted(candidates, key=lambda r: (-(sims[r] + 0.1 * candidates[r].bonus), r))
        hits = []
        for row in ranked[: config.top_k]:
            item = candidates[row]
            hits.append(make_result(
                q, row, score=float(sims[row] + 0.1 * item.bonus),
                origin=item.origin, strategy=self.name,
                explanation=f"{item.why}; reranked by similarity {sims[row]:.2f}",
                seed_rank=item.rank if item.origin == "seed" else None,
                bm25_weight=config.bm25_weight,
            ))
        notes = stage_notes("HyDE clause", hypothetical,
                            "LLM stage failed, query searched alone", error)
        return StrategyResult(hits, notes, {"hypothetical": hypothetical, "llm_error": error})

    def _candidates(
        self, q: ScoredQuery, sims: np.ndarray, graphs: dict[str, Bipartite], pool: list[int],
        top_k: int,
    ) -> dict[int, _Candidate]:
        """Seeds (events and mentions), their one-hop neighbours, then fused hits, by row."""
        query_tokens = set(tokenize(q.text))
        event_scores: list[tuple[float, int, str]] = []
        mention_scores: list[tuple[float, str, int]] = []
        for doc_id, part in graphs.items():
            for m, mention in enumerate(part.mentions):
                if not mention.tokens:
                    continue
                overlap = len(mention.tokens & query_tokens) / len(mention.tokens)
                if overlap > 0:
                    cos = max(float(q.dense[q.row[mention.clause_id]]), 0.0) / q.dense_max
                    mention_scores.append((overlap * (0.5 + 0.5 * cos), doc_id, m))
            for event in part.events:
                row = q.row[event]
                event_scores.append((float(sims[row]), row, doc_id))
        mention_scores.sort(key=lambda t: (-t[0], t[1], t[2]))
        event_scores.sort(key=lambda t: (-t[0], t[1]))
        candidates: dict[int, _Candidate] = {}

        def add(row: int, origin: str, why: str, bonus: float = 0.0, rank=None) -> None:
            item = candidates.setdefault(row, _Candidate(origin, why, 0.0, rank))
            item.bonus = max(item.bonus, bonus)

        for rank, (score, row, _) in enumerate(event_scores[: self.config.event_seeds], start=1):
            add(row, "seed", f"event seed #{rank} (sim {score:.2f})", rank=rank)
        for score, doc_id, m in mention_scores[: self.config.mention_seeds]:
            mention = graphs[doc_id].mentions[m]
            add(q.row[mention.clause_id], "seed", f"holds mention '{mention.name}' "
                f"({mention.label}) matching the query ({score:.2f})", bonus=score)
            for event in graphs[doc_id].mention_edges.get(m, []):
                add(q.row[event], "expanded", f"event linked to mention '{mention.name}' of "
                    f"{local_id(mention.clause_id)}", bonus=score * 0.5)
        for _, row, doc_id in event_scores[: self.config.event_seeds]:
            part = graphs[doc_id]
            for m in part.event_edges.get(q.ids[row], []):
                mention = part.mentions[m]
                if mention.clause_id != q.ids[row] and mention.tokens & query_tokens:
                    add(q.row[mention.clause_id], "expanded",
                        f"mention '{mention.name}' linked to event seed {local_id(q.ids[row])}")
        # fill with the best fused hits so top_k is always met
        for row in pool:
            if len(candidates) >= top_k * 3:
                break
            add(row, "hit", "fused BM25+dense hit")
        return candidates
