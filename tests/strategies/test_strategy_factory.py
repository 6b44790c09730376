"""The strategy registry: names, aliases parsed into configs, settings, statelessness."""

from __future__ import annotations

import json

import pytest

from clausegraph.config import RetrievalConfig, Settings, StrategySettings
from clausegraph.errors import ClauseGraphError
from clausegraph.strategies.causal import CausalConfig, CausalStrategy
from clausegraph.strategies.factory import causal_grid, create_strategy, strategy_names
from clausegraph.strategies.lesegr import LeSeGRStrategy
from tests.strategies.conftest import QUESTION, SEED_STRATEGIES, ScriptedLLM


@pytest.mark.parametrize("name", SEED_STRATEGIES + ["causal-k1-s5", "causal-k5-s1"])
def test_callable_through_the_api(graph, name):
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


def test_grid_aliases_become_configs():
    names = causal_grid()
    assert len(names) == 25 and "causal-k3-s4" in names
    assert not set(names) & set(strategy_names())  # aliases, not registered names
    strategy = create_strategy("causal-k2-s4")
    assert isinstance(strategy, CausalStrategy)
    assert strategy.config == CausalConfig(k=2, s=4) and strategy.name == "causal-k2-s4"
    assert create_strategy("causal", k=2, s=4).name == "causal-k2-s4"
    assert create_strategy("causal-k3-s3").name == "causal"


def test_bad_names_and_parameters_are_clear_errors():
    with pytest.raises(ValueError, match="unknown strategy 'nope'.*bm25"):
        create_strategy("nope")
    with pytest.raises(ValueError, match="k"):
        create_strategy("causal", k=0)
    with pytest.raises(ValueError, match="unknown"):
        create_strategy("e2rag", unknown=1)
    with pytest.raises(ValueError, match="takes no parameters"):
        create_strategy("bm25", k=3)


def test_lesegr_fitted_reads_the_weights_file_of_the_settings(tmp_path):
    shipped = json.loads(StrategySettings().lesegr_weights.read_text(encoding="utf-8"))
    fitted = create_strategy("lesegr-fitted")
    assert isinstance(fitted, LeSeGRStrategy) and fitted.name == "lesegr-fitted"
    assert (fitted.weights.sparse, fitted.weights.alpha) == (shipped["sparse"], shipped["alpha"])
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"sparse": 1.0, "dense": 0.0, "alpha": 0.4}), encoding="utf-8")
    mine = create_strategy("lesegr-fitted", StrategySettings(lesegr_weights=path))
    assert (mine.weights.sparse, mine.weights.alpha, mine.weights.layers) == (1.0, 0.4, 2)
    assert create_strategy("lesegr-fitted", weights_file=path, alpha=0.9).weights.alpha == 0.9
    with pytest.raises(ValueError, match="missing.json"):
        create_strategy("lesegr-fitted", StrategySettings(lesegr_weights=tmp_path / "missing.json"))
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="needs sparse, dense and alpha"):
        create_strategy("lesegr", weights_file=path)


def test_settings_reach_the_strategy_through_the_api(graph, tmp_path):
    from clausegraph.api import ClauseGraph

    settings = Settings().with_overrides([f"strategies.lesegr_weights={tmp_path / 'none.json'}",
                                          f"strategies.causal_dir={tmp_path / 'out'}"])
    other = ClauseGraph.open(graph.store.root, settings)
    with pytest.raises(ClauseGraphError, match="none.json"):
        other.retrieve(QUESTION, strategy="lesegr-fitted")
    found = other.search(QUESTION, strategy="causal-search", top_k=3)
    assert found.notes["saved causal report"].startswith(str(tmp_path / "out"))


@pytest.mark.parametrize("name", SEED_STRATEGIES + ["clausegraph"])
def test_strategies_keep_no_state_between_queries(graph, name):
    """One object, two queries: each result stands alone, and the object is unchanged."""
    strategy = graph.make_strategy(name)
    state = dict(vars(strategy))
    config = RetrievalConfig(top_k=5)
    first = strategy.retrieve(graph.retriever, QUESTION, config)
    second = strategy.retrieve(graph.retriever, "confidential information", config)
    again = strategy.retrieve(graph.retriever, QUESTION, config)
    assert vars(strategy) == state
    assert [h.clause_id for h in first.hits] == [h.clause_id for h in again.hits]
    assert [h.clause_id for h in first.hits] != [h.clause_id for h in second.hits]
    if name == "causal":
        assert first.notes == again.notes and first.notes != second.notes
    if name == "causal-search":
        assert first.notes["causal-search answer"] != second.notes["causal-search answer"]
        assert first.trace["run"]["nodes"] != second.trace["run"]["nodes"]


def test_llm_notes_belong_to_their_query(graph):
    strategy = graph.make_strategy("e2rag")
    strategy.llm = ScriptedLLM(lambda prompt: f"A clause answering: {prompt[-40:]}")
    config = RetrievalConfig(top_k=3)
    one = strategy.retrieve(graph.retriever, QUESTION, config)
    two = strategy.retrieve(graph.retriever, "Who pays the fees?", config)
    assert one.notes["HyDE clause"] != two.notes["HyDE clause"]
    assert one.notes["HyDE clause"] == one.trace["hypothetical"]


def test_a_strategy_object_can_be_passed_to_the_api(graph):
    strategy = create_strategy("causal-k2-s2")
    by_object = graph.retrieve(QUESTION, strategy=strategy, top_k=4)
    by_name = graph.retrieve(QUESTION, strategy="causal-k2-s2", top_k=4)
    assert [r.clause_id for r in by_object] == [r.clause_id for r in by_name]
    answer = graph.ask(QUESTION, strategy=strategy, top_k=4)
    assert answer.strategy_notes["causal summary"]
