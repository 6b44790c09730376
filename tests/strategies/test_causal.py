"""CausalRAG (seed 000) on one real contract: expansion, causal paths, the LLM stage."""

from __future__ import annotations

import json
import re

import networkx as nx
import numpy as np
import pytest

from clausegraph.config import RetrievalConfig
from clausegraph.models import RelationType
from clausegraph.strategies.causal import _LLM_MAX_CLAUSES, CausalStrategy
from tests.strategies.conftest import QUESTION, ScriptedLLM


def _undirected(index, doc_id, skip=(RelationType.SAME_SECTION,)):
    undirected = nx.Graph()
    undirected.add_nodes_from(index.clauses.clause_ids([doc_id]))
    for edge in index.graph.document_edges(doc_id):
        if edge.type not in skip:
            undirected.add_edge(edge.source, edge.target)
    return undirected


@pytest.mark.parametrize(("k", "s"), [(1, 1), (2, 2), (3, 3), (1, 4)])
def test_causal_expansion_reaches_only_connected_clauses(graph, k, s):
    found = CausalStrategy(k=k, s=s).retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8))
    seeds, reached = found.trace["seeds"], found.trace["reached"]
    assert len(seeds) == k
    index = graph.index
    undirected = _undirected(index, index.clauses.document_ids()[0])
    assert reached, "expansion collected nothing"
    for clause_id, hops in reached.items():
        assert hops <= s
        distance = min(
            nx.shortest_path_length(undirected, seed, clause_id)
            if nx.has_path(undirected, seed, clause_id) else 10**6
            for seed in seeds
        )
        assert distance <= hops, (clause_id, hops, distance)
    # expanded results carry the edge path they were reached by, starting at a seed
    for result in found.hits:
        if result.origin == "expanded" and result.path_support == 0:
            assert result.via and result.via_seed in seeds
            assert len(result.via) == reached[result.clause_id]


def test_causal_paths_rank_first(graph):
    results = CausalStrategy().retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=10)).hits
    flags = [r.path_support > 0 for r in results]
    # clauses on causal paths come before the rest (a prefix of the ranking)
    assert flags == sorted(flags, reverse=True)
    causal = [r for r in results if r.path_support > 0]
    assert [r.path_support for r in causal] == sorted((r.path_support for r in causal),
                                                      reverse=True)
    for result in causal:
        assert "causal path" in result.reason()


def test_causal_seeds_are_dense_only(graph):
    found = CausalStrategy(k=3, s=1).retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=5))
    index = graph.index
    ids = index.clauses.clause_ids()
    cosine = index.vectors.vectors(ids) @ graph.embedder.encode_query(QUESTION)
    best = [ids[i] for i in np.lexsort((np.arange(len(ids)), -cosine))[:3]]
    assert found.trace["seeds"] == best


def test_causal_llm_paths_rank_first_and_unknown_ids_are_dropped(graph):
    config = RetrievalConfig(top_k=8)
    offline = CausalStrategy().retrieve(graph.retriever, QUESTION, config)
    assert offline.notes["causal summary"] == offline.trace["summary"]
    reached = list(offline.trace["reached"])
    # the prompt shows the collected clauses closest to the question (dense), at most
    # _LLM_MAX_CLAUSES of them: take the two reached last among those
    cosine = graph.index.vectors.vectors(reached) @ graph.embedder.encode_query(QUESTION)
    shown = {reached[i] for i in np.argsort(-cosine, kind="stable")[:_LLM_MAX_CLAUSES]}
    reached = [clause_id for clause_id in reached if clause_id in shown]
    chosen = [reached[-1].split(":", 1)[1], reached[-2].split(":", 1)[1]]
    reply = {"paths": [{"clauses": ["99.99", *chosen], "why": "breach leads to termination"}],
             "summary": f"{chosen[0]} causes {chosen[1]}."}
    llm = ScriptedLLM(lambda prompt: json.dumps(reply))
    strategy = CausalStrategy()
    strategy.llm = llm
    found = strategy.retrieve(graph.retriever, QUESTION, config)
    results = found.hits
    assert len(llm.prompts) == 1 and QUESTION in llm.prompts[0]
    assert f"- {chosen[0]}:" in llm.prompts[0]  # the collected clauses are shown by id
    assert [r.clause_id.split(":", 1)[1] for r in results[:2]] == chosen
    assert "99.99" not in {r.clause_id.split(":", 1)[1] for r in results}
    assert "LLM's causal path" in results[0].reason()
    assert found.notes == {"causal summary": reply["summary"]}
    assert found.trace["llm_error"] is None
    assert [r.clause_id for r in results] != [r.clause_id for r in offline.hits]


def test_causal_falls_back_offline_when_the_model_fails(graph):
    from clausegraph.llm.base import LLMUnavailableError

    def fail(prompt):
        raise LLMUnavailableError("server down")

    strategy = CausalStrategy()
    strategy.llm = ScriptedLLM(fail)
    config = RetrievalConfig(top_k=6)
    found = strategy.retrieve(graph.retriever, QUESTION, config)
    offline = CausalStrategy().retrieve(graph.retriever, QUESTION, config)
    assert [r.clause_id for r in found.hits] == [r.clause_id for r in offline.hits]
    assert "server down" in found.notes["LLM stage failed, offline paths used"]
    strategy.llm = ScriptedLLM(lambda prompt: "no JSON here")
    assert "not JSON" in strategy.retrieve(graph.retriever, QUESTION, config).trace["llm_error"]


def test_answers_and_reports_carry_what_the_strategy_produced(graph):
    from pathlib import Path

    from typer.testing import CliRunner

    from clausegraph.cli import app
    from clausegraph.report import render_html, render_markdown

    causal = graph.ask(QUESTION, strategy="causal")
    summary = causal.strategy_notes["causal summary"]
    assert "strength" in summary or summary.startswith("No causal path")
    search = graph.ask(QUESTION, strategy="causal-search")
    assert Path(search.strategy_notes["saved causal report"]).is_file()
    assert graph.ask(QUESTION).strategy_notes == {}
    printed = CliRunner().invoke(app, ["ask", QUESTION, "--index", str(graph.store.root),
                                       "--strategy", "causal"])
    assert printed.exit_code == 0 and "causal summary" in printed.stdout
    report = graph.report(QUESTION, strategy="causal")
    first_line = report.strategy_notes["causal summary"].splitlines()[0]
    assert first_line in render_markdown(report)
    html = render_html(report)
    assert "causal summary" in html and "<pre class=\"note\">" in html


@pytest.mark.parametrize("kind", ["gemini", "openai"])
def test_causal_llm_stage_through_the_real_clients(graph, monkeypatch, kind):
    from stub_servers import ModelStub, StubServer

    from clausegraph.llm import LLMConfig, create_provider

    shown: list[str] = []

    def model(system: str, user: str) -> str:
        # Answer like a model would: a path over two of the clause ids the prompt lists.
        shown.extend(re.findall(r"^- ([^:\n]+): ", user, flags=re.MULTILINE))
        return json.dumps({"paths": [{"clauses": shown[-2:], "why": "termination follows"}],
                           "summary": f"{shown[-2]} leads to {shown[-1]}."})

    with StubServer(ModelStub(model)) as server:
        base_url = server.url if kind == "gemini" else f"{server.url}/v1"
        key = "GEMINI_API_KEY" if kind == "gemini" else "OPENAI_API_KEY"
        config = LLMConfig(provider=kind, base_url=base_url, timeout=5.0)
        provider = create_provider(config, env={key: "test-key"})
        monkeypatch.setattr(graph, "_llm", provider)
        monkeypatch.setattr(graph, "_llm_ready", True)
        found = graph.search(QUESTION, strategy="causal", top_k=5)
    assert len(server.requests) == 1
    assert [r.clause_id.split(":", 1)[1] for r in found.hits[:2]] == shown[-2:]
    assert found.notes["causal summary"] == f"{shown[-2]} leads to {shown[-1]}."
