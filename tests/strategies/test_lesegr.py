"""LeSeGR (seed 001): message passing over the clause graph, and fitting its weights."""

from __future__ import annotations

import json

import pytest

from clausegraph.config import RetrievalConfig
from clausegraph.store.base import iter_edges
from clausegraph.strategies.lesegr import LeSeGRStrategy, fit_weights, propagate
from tests.strategies.conftest import QUESTION


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
    strategy = LeSeGRStrategy(layers=1)
    scores = strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8)).trace["scores"]
    changed = [c for c, (before, after) in scores.items() if abs(after - before) > 1e-9]
    assert changed
    type_weights = strategy.weights.type_weights
    for clause_id, (before, after) in scores.items():
        num = den = 0.0
        for neighbour, edge, _ in iter_edges(graph.index.graph, clause_id):
            if neighbour not in scores:
                continue
            gate = type_weights[edge.type.value] * edge.confidence * scores[neighbour][0]
            num, den = num + gate * scores[neighbour][0], den + gate
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
                ("confidential information", [index.clauses.clause_ids()[5]])]
    path = tmp_path / "lesegr.json"
    fitted = fit_weights(graph, labelled, path=path, sparse_grid=(0.0, 1.0), alpha_grid=(0.6, 1.0))
    assert path.is_file() and json.loads(path.read_text())["sparse"] == fitted["sparse"]
    assert fitted["sparse"] + fitted["dense"] == pytest.approx(1.0)
    strategy = LeSeGRStrategy(weights_file=path)
    assert strategy.weights.alpha == fitted["alpha"]
    assert len(strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=3)).hits) == 3
