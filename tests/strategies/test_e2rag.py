"""E2RAG (seed 003): the entity/event bipartite graph, mention seeds, HyDE."""

from __future__ import annotations

import re

from clausegraph.config import RetrievalConfig
from clausegraph.strategies.e2rag import E2RAGStrategy, build_bipartite
from tests.strategies.conftest import QUESTION, ScriptedLLM


def test_e2rag_bipartite_edges_link_mentions_to_containing_clauses(graph):
    index = graph.index
    doc_id = index.clauses.document_ids()[0]
    part = build_bipartite(index, doc_id)
    assert build_bipartite(index, doc_id) is part  # cached
    assert part.mentions and part.events
    assert len({m.node_id for m in part.mentions}) == len(part.mentions)
    names = [m.name.lower() for m in part.mentions]
    assert len(set(names)) < len(names), "mentions of one name stay distinct per clause"
    text = {c.clause_id: c.text for c in index.clauses.document_clauses(doc_id)}
    linked_any = 0
    for m, mention in enumerate(part.mentions):
        linked = set(part.mention_edges.get(m, []))
        containing = {e for e in part.events if mention.name.lower() in text[e].lower()}
        assert linked == containing
        if mention.clause_id in part.events:
            assert mention.clause_id in linked  # the mention's own clause
        for event in linked:
            assert m in part.event_edges[event]
        linked_any += bool(linked)
    assert linked_any
    # events carry obligations or conditions
    for event in part.events:
        assert re.search(r"\b(shall|must|may not|will|if|unless|agree|subject to|upon|event|"
                         r"provided that|required|entitled|until|prior to)", text[event],
                         re.IGNORECASE)


def test_e2rag_mention_seeds_and_one_hop(graph):
    results = E2RAGStrategy().retrieve(graph.retriever, "What must Photronics pay?",
                                       RetrievalConfig(top_k=8)).hits
    assert len(results) == 8
    sims = [r.score for r in results]
    assert sims == sorted(sims, reverse=True)
    assert any("mention 'Photronics" in r.reason() or "Photronics" in r.reason() for r in results)


def test_e2rag_hyde_searches_with_the_hypothetical_clause(graph):
    index = graph.index
    question = "What must a party do about it?"  # says nothing a clause could match on
    config = RetrievalConfig(top_k=5)
    plain = [r.clause_id for r in E2RAGStrategy().retrieve(graph.retriever, question, config).hits]
    events = index.clauses.clauses(build_bipartite(index, index.clauses.document_ids()[0]).events)
    target = next(c for c in events
                  if c.clause_id not in plain and c.number and len(c.text) > 200)
    llm = ScriptedLLM(lambda prompt: target.text)
    strategy = E2RAGStrategy()
    strategy.llm = llm
    found = strategy.retrieve(graph.retriever, question, config)
    assert len(llm.prompts) == 1 and question in llm.prompts[0]
    assert found.notes["HyDE clause"] == target.text.strip()
    assert target.clause_id in [r.clause_id for r in found.hits]


def test_the_api_hands_the_configured_model_to_llm_strategies(graph, monkeypatch):
    llm = ScriptedLLM(lambda prompt: "Either party may terminate this Agreement on notice.")
    monkeypatch.setattr(graph, "_llm", llm)
    monkeypatch.setattr(graph, "_llm_ready", True)
    graph.retrieve(QUESTION, strategy="e2rag", top_k=3)
    assert len(llm.prompts) == 1
    graph.retrieve(QUESTION, strategy="lesegr", top_k=3)  # no LLM stage: not called
    assert len(llm.prompts) == 1
