"""``clausegraph evaluate`` end to end on the bundled LegalBench-RAG sample and on
docs/dataset (real index, real MiniLM): CSV, plots, dump, JSON, the LeSeGR fit, errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clausegraph.eval.benchmark import load_benchmark
from clausegraph.eval.lesegr_fit import relevant_clauses
from clausegraph.eval.outputs import read_metrics_csv
from clausegraph.strategies.lesegr import LeSeGRStrategy
from tests.eval.conftest import (
    DATASET,
    REPO,
    SAMPLE,
    SAMPLE_BENCHMARKS,
    evaluate,
    sample_args,
)


@pytest.mark.slow
def test_harness_writes_csv_plots_and_dump(sample_run):
    rows = read_metrics_csv(sample_run / "eval_metrics.csv")
    assert rows
    modes = {r["mode"] for r in rows}
    assert modes == {"legalbench"}
    strategies = {r["strategy"] for r in rows}
    assert {"oracle", "dense", "bm25", "clausegraph", "*"} <= strategies
    for r in rows:
        if r["metric"] in ("precision", "recall"):
            assert 0.0 <= float(r["value"]) <= 1.0
            assert r["dataset"] in ("privacy_qa", "contractnli", "maud", "cuad", "ALL")
            if r["dataset"] != "ALL":
                assert r["n"] == "1"  # --limit 1
    ks = sorted({int(r["k"]) for r in rows if r["metric"] == "recall"})
    assert ks == [1, 2, 4, 8, 16, 32, 64]
    metrics = {r["metric"] for r in rows}
    assert {
        "latency_p50_ms",
        "latency_p95_ms",
        "peak_rss_mb",
        "index_chars_per_second",
        "index_embed_share",
    } <= metrics

    plots = sample_run / "plots"
    for name in ("legalbench_ALL.png", "legalbench_cuad.png", "latency_bar.png"):
        assert (plots / name).stat().st_size > 1000

    lines = (sample_run / "dump.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 * 4  # 4 strategies x 4 datasets x 1 query
    corpus_files = {
        str(p.relative_to(SAMPLE / "corpus")) for p in (SAMPLE / "corpus").rglob("*.txt")
    }
    for line in lines:
        record = json.loads(line)
        assert {"query", "strategy", "results"} <= set(record)
        assert len(record["results"]) <= 64
        scores = [item["score"] for item in record["results"]]
        assert scores == sorted(scores, reverse=True) or record["strategy"] == "oracle"
        for item in record["results"]:
            assert item["file_path"] in corpus_files
            start, end = item["span"]
            assert isinstance(start, int) and 0 <= start < end
            text = (SAMPLE / "corpus" / item["file_path"]).read_text(encoding="utf-8")
            assert end <= len(text)


@pytest.mark.slow
def test_oracle_gets_full_recall_and_retrievers_are_sane(sample_run):
    result = json.loads((sample_run / "result.json").read_text(encoding="utf-8"))
    runs = {r["strategy"]: r for r in result["runs"]}
    oracle = runs["oracle"]["datasets"]
    for dataset in ("privacy_qa", "contractnli", "maud", "cuad", "ALL"):
        assert oracle[dataset]["recall"][-1] == 1.0
        assert oracle[dataset]["precision"][-1] == 1.0
    # 4 small documents, 64 clauses: every real strategy covers most gold text at k=64
    for name in ("dense", "bm25", "clausegraph"):
        assert runs[name]["datasets"]["ALL"]["recall"][-1] > 0.5
        assert runs[name]["latency"]["n"] == 4
    assert result["indexing"]["documents"] == 4
    assert result["indexing"]["ingested_now"] == 4
    assert 0 < result["indexing"]["embed_share"] < 1


@pytest.mark.slow
def test_rerun_reuses_the_index(sample_run):
    tmp = sample_run
    done = evaluate(*sample_args(
        tmp, "--strategies", "oracle", "--no-plots", "--results-json", str(tmp / "again.json")))
    assert done.exit_code == 0, done.output
    result = json.loads((tmp / "again.json").read_text(encoding="utf-8"))
    assert result["indexing"]["ingested_now"] == 0
    assert result["indexing"]["source"] == "recorded"
    assert result["indexing"]["embed_seconds"] is not None
    # the earlier run's rows of the other strategies are kept in the CSV
    strategies = {r["strategy"] for r in read_metrics_csv(tmp / "eval_metrics.csv")}
    assert {"dense", "oracle"} <= strategies


@pytest.mark.slow
def test_dataset_mode_end_to_end(tmp_path):
    done = evaluate(
            "--dataset",
            str(DATASET),
            "--questions",
            str(DATASET / "questions.yaml"),
            "--strategies",
            "oracle,clausegraph",
            "--limit",
            "3",
            "--out",
            str(tmp_path / "m.csv"),
            "--plots-dir",
            str(tmp_path / "plots"),
            "--index-dir",
            str(tmp_path / "index"),
            "--dump",
            str(tmp_path / "d.jsonl"),
            "--results-json",
            str(tmp_path / "r.json"),
            "--no-progress",
    )
    assert done.exit_code == 0, done.output
    result = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert result["unlocated"] == []
    runs = {r["strategy"]: r for r in result["runs"]}
    assert runs["oracle"]["documents"]["ALL"]["recall"] == 1.0
    assert runs["oracle"]["documents"]["ALL"]["mrr"] == 1.0
    assert sorted(result["documents"]) == ["AudibleInc", "BellringBrandsInc", "PhotronicsInc"]
    rows = read_metrics_csv(tmp_path / "m.csv")
    for r in rows:
        if r["metric"] in ("recall", "ndcg", "mrr"):
            assert 0.0 <= float(r["value"]) <= 1.0
    assert (tmp_path / "plots" / "latency_bar.png").is_file()
    assert (tmp_path / "plots" / "dataset_retrieval.png").is_file()
    first = json.loads((tmp_path / "d.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["document"].endswith(".pdf") and first["results"]


def test_script_runs_from_the_repo_root():
    done = subprocess.run(
        [sys.executable, "scripts/batch_evaluate.py", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "--benchmarks" in done.stdout


@pytest.mark.slow
def test_fit_lesegr_saves_weights_and_scores_held_out_queries(sample_run):
    tmp = sample_run
    weights = tmp / "lesegr.json"
    done = evaluate(*sample_args(
        tmp, "--strategies", "lesegr", "--fit-lesegr", str(weights), "--fit-fraction", "0.5",
        "--no-plots", "--out", str(tmp / "fit.csv"), "--results-json", str(tmp / "fit.json"),
        "--dump", str(tmp / "fit.jsonl")))
    assert done.exit_code == 0, done.output
    saved = json.loads(weights.read_text(encoding="utf-8"))
    assert saved["sparse"] + saved["dense"] == pytest.approx(1.0) and saved["queries"] == 4
    result = json.loads((tmp / "fit.json").read_text(encoding="utf-8"))
    assert result["lesegr_fit"]["labelled_queries"] == {d: 1 for d in result["queries"]}
    assert result["queries"] == {d: 1 for d in result["queries"]}  # 2 per dataset, 1 held out
    assert {r["strategy"] for r in result["runs"]} == {"lesegr", "lesegr-fitted"}
    # The held-out query of each dataset is the one not labelled: no query is in both sets.
    scored = {json.loads(line)["query"] for line in (tmp / "fit.jsonl").open(encoding="utf-8")}
    everything = {q.query for path in SAMPLE_BENCHMARKS for q in load_benchmark(path).queries}
    assert len(scored) == 4 and scored < everything
    # lesegr-fitted ran with the weights just fitted: it differs from plain lesegr's ranking
    rankings = {}
    for line in (tmp / "fit.jsonl").open(encoding="utf-8"):
        record = json.loads(line)
        rankings.setdefault(record["strategy"], []).append(
            [r["clause_id"] for r in record["results"]])
    fitted = LeSeGRStrategy(weights_file=weights).weights
    if (fitted.sparse, fitted.alpha) != (0.5, 0.6):
        assert rankings["lesegr"] != rankings["lesegr-fitted"]


def test_relevant_clauses_overlap_the_gold_spans(sample_run):
    from clausegraph.api import ClauseGraph

    graph = ClauseGraph.open(sample_run / "index")
    benchmark = load_benchmark(SAMPLE_BENCHMARKS[0], SAMPLE / "corpus")
    query = benchmark.queries[0]
    doc_of = {
        snippet.file_path: doc_id
        for doc_id, entry in graph.store.read_manifest()["documents"].items()
        for snippet in query.snippets
        if Path(entry["source_path"]).name == Path(snippet.file_path).name
    }
    found = relevant_clauses(graph, query, doc_of)
    assert found
    for clause_id in found:
        clause = graph.index.clauses.clause(clause_id)
        assert any(clause.span[0] < s.span[1] and s.span[0] < clause.span[1]
                   for s in query.snippets)


def test_lesegr_fitted_without_weights_is_a_clean_error(tmp_path):
    missing = tmp_path / "missing.json"
    done = evaluate("--strategies", "lesegr-fitted", "--corpus", str(SAMPLE / "corpus"),
                    "--benchmarks", ",".join(map(str, SAMPLE_BENCHMARKS)),
                    "--set", f"strategies.lesegr_weights={missing}",
                    "--out", str(tmp_path / "x.csv"))
    assert done.exit_code == 2
    assert "missing.json" in done.stderr and "Traceback" not in done.output
    assert not (tmp_path / "x.csv").exists()


def test_bad_override_is_a_clean_error(tmp_path):
    done = evaluate("--set", "retrieval.nope=1", "--out", str(tmp_path / "x.csv"))
    assert done.exit_code == 2 and "retrieval.nope" in done.stderr


@pytest.mark.slow
def test_outputs_go_to_a_new_run_folder_not_docs(sample_run, tmp_path, monkeypatch):
    """Without --out-dir a run writes runs/<UTC time>/ under the working directory; with
    --out-dir it writes there; docs/ is never touched unless named."""
    monkeypatch.chdir(tmp_path)
    docs_before = {p: p.stat().st_mtime_ns for p in (REPO / "docs").rglob("*") if p.is_file()}
    args = ["--corpus", str(SAMPLE / "corpus"), "--benchmarks",
            ",".join(map(str, SAMPLE_BENCHMARKS)), "--index-dir", str(sample_run / "index"),
            "--strategies", "oracle", "--no-progress"]
    done = evaluate(*args)
    assert done.exit_code == 0, done.output
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert re.fullmatch(r"\d{8}T\d{6}Z", run_dir.name)
    assert {r["strategy"] for r in read_metrics_csv(run_dir / "eval_metrics.csv")} >= {"oracle"}
    assert (run_dir / "plots" / "legalbench_ALL.png").is_file()
    done = evaluate(*args, "--out-dir", str(tmp_path / "mine"), "--no-plots")
    assert done.exit_code == 0, done.output
    assert (tmp_path / "mine" / "eval_metrics.csv").is_file()
    assert not (tmp_path / "mine" / "plots").exists()
    assert docs_before == {p: p.stat().st_mtime_ns for p in (REPO / "docs").rglob("*")
                           if p.is_file()}
