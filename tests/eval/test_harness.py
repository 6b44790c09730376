"""The harness's pieces: variants, the index cache key, the fit split, the metrics CSV."""

from __future__ import annotations

import math

import pytest

from clausegraph.config import Settings
from clausegraph.eval.benchmark import load_benchmark
from clausegraph.eval.harness import causal_grid_variants, grid_variants, parse_grid
from clausegraph.eval.index import index_cache_dir
from clausegraph.eval.lesegr_fit import split_for_fit
from clausegraph.eval.models import MetricRow
from clausegraph.eval.outputs import CSV_COLUMNS, read_metrics_csv, write_metrics_csv
from clausegraph.strategies.factory import create_strategy
from tests.eval.conftest import SAMPLE, SAMPLE_BENCHMARKS


def test_grid_and_cache_key(tmp_path):
    assert parse_grid("alpha=0.5,0.7; beta=0") == {"alpha": [0.5, 0.7], "beta": [0.0]}
    variants = grid_variants({"alpha": [0.5, 0.7], "gamma": [0.0]})
    assert [v.name for v in variants] == ["grid:alpha=0.5,gamma=0", "grid:alpha=0.7,gamma=0"]
    files = [tmp_path / "b.txt", tmp_path / "a.txt"]
    same = index_cache_dir(files, Settings(), tmp_path)
    assert same == index_cache_dir(list(reversed(files)), Settings(), tmp_path)
    assert same.name.startswith("eval-index-")
    other = Settings().with_overrides(["segment.max_clause_chars=1000"])
    assert index_cache_dir(files, other, tmp_path) != same
    retrieval_only = Settings().with_overrides(["retrieval.alpha=0.1"])
    assert index_cache_dir(files, retrieval_only, tmp_path) == same
    entities = Settings().with_overrides(["entities.ner=all"])
    assert index_cache_dir(files, entities, tmp_path) != same


def test_causal_grid_variants_cover_k_and_s():
    variants = causal_grid_variants(range(1, 6))
    names = [v.strategy for v in variants]
    assert len(names) == 25 and names[0] == "causal-k1-s1" and names[-1] == "causal-k5-s5"
    strategy = create_strategy("causal-k2-s4")
    assert (strategy.config.k, strategy.config.s) == (2, 4)


def test_split_for_fit_is_disjoint_and_even():
    sample = load_benchmark(SAMPLE_BENCHMARKS[1], SAMPLE / "corpus").queries
    queries = {"cuad": [q.model_copy() for _ in range(10) for q in sample]}
    labelled, held_out = split_for_fit(queries, 0.1)
    assert len(labelled["cuad"]) == math.ceil(0.1 * len(queries["cuad"]))
    assert len(labelled["cuad"]) + len(held_out["cuad"]) == len(queries["cuad"])
    assert not {id(q) for q in labelled["cuad"]} & {id(q) for q in held_out["cuad"]}
    with pytest.raises(ValueError, match="fit-fraction"):
        split_for_fit(queries, 1.5)


# -- CSV ----------------------------------------------------------------------------------


def test_csv_merges_modes_and_replaces_reruns(tmp_path):
    path = tmp_path / "m.csv"
    row = {
        "variant": "default",
        "strategy": "dense",
        "dataset": "ALL",
        "k": 1,
        "metric": "recall",
        "n": 3,
    }
    write_metrics_csv([MetricRow(mode="legalbench", value=0.1, **row)], path)
    write_metrics_csv([MetricRow(mode="dataset", value=0.2, **row)], path)
    write_metrics_csv([MetricRow(mode="legalbench", value=0.3, **row)], path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ClauseGraph retrieval evaluation")
    rows = read_metrics_csv(path)
    assert {(r["mode"], r["value"]) for r in rows} == {("dataset", "0.2"), ("legalbench", "0.3")}
    assert tuple(rows[0]) == CSV_COLUMNS


