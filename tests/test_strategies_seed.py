"""The seed-paper strategies (causal, causal-search, e2rag, lesegr) on one real contract."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from clausegraph.config import RetrievalConfig
from clausegraph.models import RelationType
from clausegraph.strategies.factory import create_strategy, strategy_names
from clausegraph.strategies.seed import (
    CausalSearchStrategy,
    CausalStrategy,
    E2RAGStrategy,
    LeSeGRStrategy,
    build_bipartite,
    causal_grid,
    fit_weights,
    propagate,
    token_counter,
)
from tests.conftest import dataset_pdf

QUESTION = "What happens if the agreement is terminated or a party breaches it?"
SEED_STRATEGIES = ["causal", "causal-search", "e2rag", "lesegr"]


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory):
    from clausegraph.api import ClauseGraph

    cg = ClauseGraph.open(tmp_path_factory.mktemp("seedstrat") / "index", create=True)
    report = cg.ingest([dataset_pdf("Photronics")])
    assert not report.failed, [o.error for o in report.failed]
    return cg


@pytest.fixture(autouse=True)
def _causal_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUSEGRAPH_CAUSAL_DIR", str(tmp_path / "causal"))


def _undirected(index, doc_id, skip=(RelationType.SAME_SECTION,)):
    undirected = nx.Graph()
    undirected.add_nodes_from(index.nx_graph(doc_id).nodes)
    for edge in index.graph.document_edges(doc_id):
        if edge.type not in skip:
            undirected.add_edge(edge.source, edge.target)
    return undirected


# -- registry / API ------------------------------------------------------------------------


@pytest.mark.parametrize("name", SEED_STRATEGIES + ["causal-k1-s5", "causal-k5-s1"])
def test_callable_through_the_api(graph, name):
    causal_grid()
    results = graph.retrieve(QUESTION, strategy=name, top_k=5)
    assert len(results) == 5
    assert len({r.clause_id for r in results}) == 5
    for result in results:
        assert result.origin in {"seed", "hit", "expanded"}
        assert result.reason().startswith(f"[{create_strategy(name).name}]")
    # documents=... (doc_ids) is honoured: every clause comes from the named document
    doc = next(iter(graph.index.clauses.documents().values()))
    scoped = graph.retrieve(QUESTION, documents=[doc.doc_id], strategy=name, top_k=3)
    assert len(scoped) == 3 and {r.clause.doc_id for r in scoped} == {doc.doc_id}


def test_grid_names_registered():
    names = causal_grid()
    assert len(names) == 25 and "causal-k3-s4" in names
    assert set(names) <= set(strategy_names())
    strategy = create_strategy("causal-k2-s4")
    assert (strategy.k, strategy.s, strategy.name) == (2, 4, "causal-k2-s4")


def test_doc_ids_outside_everything_return_only_those(graph):
    retriever = graph.retriever
    doc_id = next(iter(graph.index.clauses.document_ids()))
    for name in SEED_STRATEGIES:
        results = create_strategy(name).retrieve(retriever, QUESTION, RetrievalConfig(top_k=4),
                                                 [doc_id])
        assert results and all(r.clause.doc_id == doc_id for r in results)


# -- causal --------------------------------------------------------------------------------


@pytest.mark.parametrize(("k", "s"), [(1, 1), (2, 2), (3, 3), (1, 4)])
def test_causal_expansion_reaches_only_connected_clauses(graph, k, s):
    strategy = CausalStrategy(k, s)
    results = strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8))
    assert len(strategy.last_seeds) == k
    index = graph.index
    doc_id = index.clauses[0].doc_id
    undirected = _undirected(index, doc_id)
    assert strategy.last_reached, "expansion collected nothing"
    for clause_id, hops in strategy.last_reached.items():
        assert hops <= s
        distance = min(
            nx.shortest_path_length(undirected, seed, clause_id)
            if nx.has_path(undirected, seed, clause_id) else 10**6
            for seed in strategy.last_seeds
        )
        assert distance <= hops, (clause_id, hops, distance)
    # expanded results carry the edge path they were reached by, starting at a seed
    for result in results:
        if result.origin == "expanded" and result.path_support == 0:
            assert result.via and result.via_seed in strategy.last_seeds
            assert len(result.via) == strategy.last_reached[result.clause_id]


def test_causal_paths_rank_first(graph):
    strategy = CausalStrategy(3, 3)
    results = strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=10))
    flags = [r.path_support > 0 for r in results]
    # clauses on causal paths come before the rest (a prefix of the ranking)
    assert flags == sorted(flags, reverse=True)
    causal = [r for r in results if r.path_support > 0]
    assert [r.path_support for r in causal] == sorted((r.path_support for r in causal),
                                                      reverse=True)
    for result in causal:
        assert "causal path" in result.reason()


def test_causal_seeds_are_dense_only(graph):
    strategy = CausalStrategy(3, 1)
    strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=5))
    index = graph.index
    vector = graph.embedder.encode_query(QUESTION)
    cosine = index.vectors.matrix @ vector
    best = [index.clauses[i].clause_id for i in sorted(range(len(cosine)),
                                                        key=lambda i: (-cosine[i], i))[:3]]
    assert strategy.last_seeds == best


# -- causal-search -------------------------------------------------------------------------


def test_causal_search_budget_split_and_files(graph, tmp_path):
    strategy = CausalSearchStrategy(output_dir=tmp_path / "out")
    results = strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8))
    run = strategy.last_run
    used = run["tokens_used"]
    assert run["tokenizer"] == "minilm-wordpiece"
    assert len(run["nodes"]) == (8 + 3) * 2
    assert used["entities"] <= 0.4 * 8000
    assert used["relationships"] <= 0.4 * 8000
    assert used["text_units"] <= 0.2 * 8000
    assert sum(used.values()) <= 8000
    data = run["data"]
    count, _ = token_counter(graph.retriever)
    for section in ("entities", "relationships", "text_units"):
        assert used[section] == sum(count(json.dumps(r, ensure_ascii=False))
                                    for r in data[section])
    # essential fields and orderings of seed 002
    assert all(set(e) == {"id", "entity", "description", "rank", "type"} for e in data["entities"])
    assert all(set(r) == {"id", "source", "target", "description", "weight", "rank"}
               for r in data["relationships"])
    assert all(set(u) == {"id", "text", "n_tokens"} for u in data["text_units"])
    ranks = [e["rank"] for e in data["entities"]]
    weights = [r["weight"] for r in data["relationships"]]
    sizes = [u["n_tokens"] for u in data["text_units"]]
    assert ranks == sorted(ranks, reverse=True) and weights == sorted(weights, reverse=True)
    assert sizes == sorted(sizes)
    assert all(len(u["text"]) <= 1003 for u in data["text_units"])
    # the result is the text units in context order
    in_context = [u["id"] for u in data["text_units"]]
    assert [r.clause_id for r in results[: len(in_context)]] == in_context[:8]
    # saved files named by the query id
    assert re.fullmatch(r"[0-9a-f]{8}_\d{10}", run["query_id"])
    out = tmp_path / "out"
    for suffix in ("network_data.json", "causal_report.md", "response.md"):
        assert (out / f"{run['query_id']}_{suffix}").is_file()
    saved = json.loads((out / f"{run['query_id']}_network_data.json").read_text())
    assert saved["text_units"] == data["text_units"]
    report = (out / f"{run['query_id']}_causal_report.md").read_text()
    headings = re.findall(r"^## \d\. (.+)$", report, re.MULTILINE)
    assert headings == ["Introduction", "Key Entities and Their Roles", "Major Causal Pathways",
                        "Confidence and Evidence Strength", "Implications and Recommendations"]


def test_causal_search_small_budget_truncates(graph, tmp_path):
    full = CausalSearchStrategy(output_dir=tmp_path, save=False)
    full.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8))
    small = CausalSearchStrategy(output_dir=tmp_path, save=False, max_tokens=600)
    results = small.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8))
    used = small.last_run["tokens_used"]
    assert used["entities"] <= 240 and used["relationships"] <= 240 and used["text_units"] <= 120
    for section in ("entities", "relationships", "text_units"):
        assert len(small.last_run["data"][section]) <= len(full.last_run["data"][section])
    assert len(small.last_run["data"]["relationships"]) < len(full.last_run["data"]["relationships"])
    assert len(small.last_run["data"]["text_units"]) < len(small.last_run["nodes"])
    # nodes left out of the context still fill top_k, after the in-context ones
    assert len(results) == 8
    assert any("outside the text-unit token budget" in r.reason() for r in results)
    assert not list(tmp_path.glob("*_network_data.json"))  # save=False writes nothing


def test_whitespace_token_fallback():
    count, name = token_counter(None)
    assert name == "whitespace" and count("one two  three") == 3


# -- e2rag ---------------------------------------------------------------------------------


def test_e2rag_bipartite_edges_link_mentions_to_containing_clauses(graph):
    index = graph.index
    doc_id = next(iter(index.clauses.document_ids()))
    part = build_bipartite(index, doc_id)
    assert build_bipartite(index, doc_id) is part  # cached
    assert part.mentions and part.events
    assert len({m.node_id for m in part.mentions}) == len(part.mentions)
    names = [m.name.lower() for m in part.mentions]
    assert len(set(names)) < len(names), "mentions of one name stay distinct per clause"
    linked_any = 0
    for m, mention in enumerate(part.mentions):
        linked = set(part.mention_edges.get(m, []))
        containing = {p for p in part.events if mention.name.lower() in index.clauses[p].text.lower()}
        assert linked == containing
        if mention.clause_position in part.events:
            assert mention.clause_position in linked  # the mention's own clause
        for p in linked:
            assert m in part.event_edges[p]
        linked_any += bool(linked)
    assert linked_any
    # events carry obligations or conditions
    for p in part.events:
        assert re.search(r"\b(shall|must|may not|will|if|unless|agree|subject to|upon|event|"
                         r"provided that|required|entitled|until|prior to)", index.clauses[p].text,
                         re.IGNORECASE)


def test_e2rag_mention_seeds_and_one_hop(graph):
    results = E2RAGStrategy().retrieve(graph.retriever, "What must Photronics pay?",
                                       RetrievalConfig(top_k=8))
    assert len(results) == 8
    sims = [r.score for r in results]
    assert sims == sorted(sims, reverse=True)
    assert any("mention 'Photronics" in r.reason() or "Photronics" in r.reason() for r in results)


# -- lesegr --------------------------------------------------------------------------------


def test_propagation_moves_toward_neighbours():
    relevance = {0: 0.2, 1: 0.9, 2: 0.8, 3: 0.1, 4: 0.5}
    neighbours = {0: [(1, 1.0)], 1: [(0, 1.0)], 2: [(3, 1.0)], 3: [(2, 1.0)]}
    h = propagate(relevance, neighbours, alpha=0.6, layers=2)
    assert h[0] > relevance[0]  # pulled up by a more relevant neighbour
    assert h[1] < relevance[1]
    assert h[2] < relevance[2]
    assert h[3] > relevance[3]
    assert h[4] == relevance[4]  # no neighbours: unchanged
    assert propagate(relevance, neighbours, alpha=1.0, layers=2) == relevance


def test_lesegr_scores_follow_neighbour_relevance(graph):
    strategy = LeSeGRStrategy(weights={"layers": 1})
    strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8))
    index = graph.index
    scores = strategy.last_scores
    changed = [c for c, (before, after) in scores.items() if abs(after - before) > 1e-9]
    assert changed
    type_weights = strategy.weights["type_weights"]
    for clause_id, (before, after) in scores.items():
        g = index.nx_graph(index.clauses.clause(clause_id).doc_id)
        num = den = 0.0
        for _, target, data in list(g.out_edges(clause_id, data=True)) + [
            (t, s, d) for s, t, d in g.in_edges(clause_id, data=True)
        ]:
            if target not in scores:
                continue
            edge = data["edge"]
            gate = type_weights[edge.type.value] * edge.confidence * scores[target][0]
            num, den = num + gate * scores[target][0], den + gate
        if den == 0:
            assert after == before
        elif num / den > before + 1e-9:
            assert after > before
        elif num / den < before - 1e-9:
            assert after < before


def test_fit_weights_saves_and_loads(graph, tmp_path):
    index = graph.index
    probe = graph.retrieve(QUESTION, strategy="bm25", top_k=2)
    labelled = [(QUESTION, [probe[0].clause_id]),
                ("confidential information", [index.clauses[5].clause_id])]
    path = tmp_path / "lesegr.json"
    fitted = fit_weights(graph, labelled, path=path, sparse_grid=(0.0, 1.0), alpha_grid=(0.6, 1.0))
    assert path.is_file() and json.loads(path.read_text())["sparse"] == fitted["sparse"]
    assert fitted["sparse"] + fitted["dense"] == pytest.approx(1.0)
    strategy = LeSeGRStrategy(weights_path=path)
    assert strategy.weights["alpha"] == fitted["alpha"]
    assert len(strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=3))) == 3


def test_causal_search_uses_prompts_when_an_llm_is_configured(graph, tmp_path):
    class FakeLLM:
        def __init__(self):
            self.prompts = []

        def generate(self, system, user, schema=None):
            self.prompts.append(user)
            return type("Response", (), {"text": f"LLM output {len(self.prompts)}"})()

    llm = FakeLLM()
    strategy = CausalSearchStrategy(output_dir=tmp_path, llm=llm)
    strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=4))
    assert len(llm.prompts) == 2
    assert "## 3. Major Causal Pathways" in llm.prompts[0] and '"text_units"' in llm.prompts[0]
    assert "LLM output 1" in llm.prompts[1] and QUESTION in llm.prompts[1]
    assert strategy.last_run["report"] == "LLM output 1"
    assert strategy.last_run["answer"] == "LLM output 2"


# -- LLM stages (a scripted model; the real clients are tested in test_llm_providers) -------


class ScriptedLLM:
    """Answers every prompt with ``reply(prompt)`` and records the prompts."""

    def __init__(self, reply):
        self.reply = reply
        self.prompts: list[str] = []

    def generate(self, system, user, schema=None):
        self.prompts.append(user)
        return type("Response", (), {"text": self.reply(user)})()


def test_causal_llm_paths_rank_first_and_unknown_ids_are_dropped(graph):
    offline = CausalStrategy()
    config = RetrievalConfig(top_k=8)
    before = offline.retrieve(graph.retriever, QUESTION, config)
    assert offline.last_summary  # the offline causal summary
    reached = list(offline.last_reached)
    chosen = [reached[-1].split(":", 1)[1], reached[-2].split(":", 1)[1]]
    reply = {"paths": [{"clauses": ["99.99", *chosen], "why": "breach leads to termination"}],
             "summary": f"{chosen[0]} causes {chosen[1]}."}
    llm = ScriptedLLM(lambda prompt: json.dumps(reply))
    strategy = CausalStrategy()
    strategy.llm = llm
    results = strategy.retrieve(graph.retriever, QUESTION, config)
    assert len(llm.prompts) == 1 and QUESTION in llm.prompts[0]
    assert f"- {chosen[0]}:" in llm.prompts[0]  # the collected clauses are shown by id
    assert [r.clause_id.split(":", 1)[1] for r in results[:2]] == chosen
    assert "99.99" not in {r.clause_id.split(":", 1)[1] for r in results}
    assert "LLM's causal path" in results[0].reason()
    assert strategy.last_summary == reply["summary"] and strategy.last_llm_error is None
    assert [r.clause_id for r in results] != [r.clause_id for r in before]


def test_causal_falls_back_offline_when_the_model_fails(graph):
    from clausegraph.llm.base import LLMUnavailableError

    def fail(prompt):
        raise LLMUnavailableError("server down")

    strategy = CausalStrategy()
    strategy.llm = ScriptedLLM(fail)
    config = RetrievalConfig(top_k=6)
    results = strategy.retrieve(graph.retriever, QUESTION, config)
    offline = CausalStrategy().retrieve(graph.retriever, QUESTION, config)
    assert [r.clause_id for r in results] == [r.clause_id for r in offline]
    assert "server down" in strategy.last_llm_error
    strategy.llm = ScriptedLLM(lambda prompt: "no JSON here")
    strategy.retrieve(graph.retriever, QUESTION, config)
    assert "not JSON" in strategy.last_llm_error


def test_e2rag_hyde_searches_with_the_hypothetical_clause(graph):
    index = graph.index
    question = "What must a party do about it?"  # says nothing a clause could match on
    config = RetrievalConfig(top_k=5)
    plain = [r.clause_id for r in E2RAGStrategy().retrieve(graph.retriever, question, config)]
    events = build_bipartite(index, index.clauses[0].doc_id).events
    target = next(index.clauses[p] for p in events
                  if index.clauses[p].clause_id not in plain and index.clauses[p].number
                  and len(index.clauses[p].text) > 200)
    llm = ScriptedLLM(lambda prompt: target.text)
    strategy = E2RAGStrategy()
    strategy.llm = llm
    hyde = [r.clause_id for r in strategy.retrieve(graph.retriever, question, config)]
    assert len(llm.prompts) == 1 and question in llm.prompts[0]
    assert strategy.last_hypothetical == target.text.strip()
    assert target.clause_id in hyde


def test_the_api_hands_the_configured_model_to_llm_strategies(graph, monkeypatch):
    llm = ScriptedLLM(lambda prompt: "Either party may terminate this Agreement on notice.")
    monkeypatch.setattr(graph, "_llm", llm)
    monkeypatch.setattr(graph, "_llm_ready", True)
    graph.retrieve(QUESTION, strategy="e2rag", top_k=3)
    assert len(llm.prompts) == 1
    graph.retrieve(QUESTION, strategy="lesegr", top_k=3)  # no LLM stage: not called
    assert len(llm.prompts) == 1


def test_answers_carry_what_the_strategy_produced(graph, tmp_path):
    from pathlib import Path

    from typer.testing import CliRunner

    from clausegraph.cli import app

    causal = graph.ask(QUESTION, strategy="causal")
    summary = causal.strategy_notes["causal summary"]
    assert "strength" in summary or summary.startswith("No causal path")
    search = graph.ask(QUESTION, strategy="causal-search")
    assert Path(search.strategy_notes["saved causal report"]).is_file()
    assert graph.ask(QUESTION).strategy_notes == {}
    printed = CliRunner().invoke(app, ["ask", QUESTION, "--index", str(graph.store.root),
                                       "--strategy", "causal"])
    assert printed.exit_code == 0 and "causal summary" in printed.stdout


def test_reports_record_the_strategy_notes(graph):
    from clausegraph.report import render_html, render_markdown

    report = graph.report(QUESTION, strategy="causal")
    summary = report.strategy_notes["causal summary"]
    first_line = summary.splitlines()[0]
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
        results = graph.retrieve(QUESTION, strategy="causal", top_k=5)
    assert len(server.requests) == 1
    assert [r.clause_id.split(":", 1)[1] for r in results[:2]] == shown[-2:]
    assert graph.last_strategy_notes["causal summary"] == f"{shown[-2]} leads to {shown[-1]}."
