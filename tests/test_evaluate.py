"""Tests of clausegraph.eval: the LegalBench-RAG metric against hand-computed cases, the
ranking metrics, loaders, CSV/dump formats and the harness end to end on the bundled sample
(tests/data/legalbench_sample: 4 excerpted documents, 8 real queries with shifted spans)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clausegraph.config import Settings
from clausegraph.eval import (
    CSV_COLUMNS,
    MetricRow,
    causal_grid_variants,
    grid_variants,
    index_cache_dir,
    load_benchmark,
    load_published,
    load_questions,
    locate_excerpt,
    main,
    merge_spans,
    parse_grid,
    precision_recall,
    precision_recall_at_k,
    rank_metrics,
    read_metrics_csv,
    relevant_clauses,
    sample_evenly,
    split_for_fit,
    write_metrics_csv,
)
from clausegraph.strategies.factory import create_strategy

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "data" / "legalbench_sample"
SAMPLE_BENCHMARKS = sorted((SAMPLE / "benchmarks").glob("sample_*.json"))
DATASET = REPO / "docs" / "dataset"


# -- the LegalBench-RAG metric, hand-computed -------------------------------------------------


def test_partial_overlap():
    # R = a[0,10), G = a[5,25): 5 shared chars; 5/10 of R, 5/20 of G.
    assert precision_recall([("a", 0, 10)], [("a", 5, 25)]) == (0.5, 0.25)


def test_multiple_gold_snippets():
    # G = a[0,10) + a[20,30), R = a[5,25): shares 5 + 5 = 10 of R's 20 and of G's 20.
    assert precision_recall([("a", 5, 25)], [("a", 0, 10), ("a", 20, 30)]) == (0.5, 0.5)


def test_gold_in_two_files():
    # G = a[0,10) + b[0,30) (40 chars), R = b[10,20): all 10 retrieved chars are gold.
    assert precision_recall([("b", 10, 20)], [("a", 0, 10), ("b", 0, 30)]) == (1.0, 0.25)


def test_retrieved_span_in_wrong_file():
    # Same offsets, other file: b[0,10) counts only in the denominator of precision.
    assert precision_recall([("b", 0, 10)], [("a", 0, 10)]) == (0.0, 0.0)
    p, r = precision_recall([("b", 0, 10), ("a", 0, 5)], [("a", 0, 10)])
    assert p == pytest.approx(5 / 15) and r == 0.5


def test_overlapping_retrieved_spans_are_merged():
    # R = a[0,8) + a[4,12) = a[0,12) as a set (12 chars); G = a[0,10).
    # Merged: precision 10/12, recall 1.0 (the reference's pairwise sum would say 14/16, 1.4).
    p, r = precision_recall([("a", 0, 8), ("a", 4, 12)], [("a", 0, 10)])
    assert p == pytest.approx(10 / 12) and r == 1.0
    # The same span twice is the same characters.
    assert precision_recall([("a", 0, 10), ("a", 0, 10)], [("a", 0, 10)]) == (1.0, 1.0)


def test_empty_retrieval_and_empty_spans():
    assert precision_recall([], [("a", 0, 10)]) == (0.0, 0.0)
    assert precision_recall([("a", 3, 3)], [("a", 0, 10)]) == (0.0, 0.0)
    assert precision_recall([("a", 0, 10)], []) == (0.0, 0.0)


def test_touching_spans_do_not_overlap():
    assert precision_recall([("a", 10, 20)], [("a", 0, 10)]) == (0.0, 0.0)


def test_prefixes_at_k():
    ranked = [("a", 0, 10), ("b", 0, 10), ("a", 10, 30)]
    gold = [("a", 0, 20)]
    at = precision_recall_at_k(ranked, gold, [1, 2, 4])
    assert at[0] == (1.0, 0.5, 10)
    assert at[1] == (0.5, 0.5, 20)
    assert at[2][0] == pytest.approx(20 / 40) and at[2][1] == 1.0 and at[2][2] == 40


def test_merge_spans():
    assert merge_spans([(5, 9), (0, 3), (2, 4), (9, 9), (9, 12)]) == [(0, 4), (5, 12)]
    assert merge_spans([]) == []


def _reference(retrieved, gold):
    """ZeroEntropy legalbenchrag QAResult.precision/recall, transcribed (pairwise sums)."""
    total_r = sum(e - s for _, s, e in retrieved)
    total_g = sum(e - s for _, s, e in gold)
    hit = sum(
        max(0, min(e, ge) - max(s, gs)) for f, s, e in retrieved for gf, gs, ge in gold if f == gf
    )
    return (hit / total_r if total_r else 0), (hit / total_g if total_g else 0)


def test_agrees_with_reference_on_disjoint_spans():
    import random

    rng = random.Random(7)
    for _ in range(300):

        def disjoint(n):
            cuts = sorted(rng.sample(range(400), 2 * n))
            return [(rng.choice("ab"), cuts[2 * i], cuts[2 * i + 1]) for i in range(n)]

        retrieved, gold = disjoint(rng.randint(0, 5)), disjoint(rng.randint(1, 3))
        # within one file the reference's gold is disjoint; make retrieved disjoint per file too
        ours = precision_recall(retrieved, gold)
        assert ours == pytest.approx(_reference(retrieved, gold))


# -- ranking metrics (docs/dataset mode) ------------------------------------------------------


def test_rank_metrics_hand_computed():
    recall, ndcg, mrr = rank_metrics([(0, 10), (55, 70), (100, 120)], [(50, 60)], k=5)
    assert (recall, mrr) == (1.0, 0.5)
    assert ndcg == pytest.approx(1 / math.log2(3))
    # two excerpts found at ranks 1 and 3
    recall, ndcg, mrr = rank_metrics([(0, 5), (20, 30), (40, 45)], [(0, 3), (41, 42)], k=5)
    assert (recall, mrr) == (1.0, 1.0)
    assert ndcg == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3)))
    # binary clause relevance: two relevant clauses on one excerpt, ideal = 2 relevant clauses
    recall, ndcg, _ = rank_metrics([(0, 5), (2, 8)], [(0, 10), (50, 60)], k=5, n_relevant=2)
    assert recall == 0.5 and ndcg == pytest.approx(1.0)
    # ... but 3 clauses of the document overlap the excerpts and the third was not retrieved
    recall, ndcg, _ = rank_metrics([(0, 5), (90, 95), (2, 8)], [(0, 10)], k=5, n_relevant=3)
    assert recall == 1.0
    assert ndcg == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3) + 1 / math.log2(4)))
    # relevant only below the cut-off: MRR still sees it
    ranked = [(100 + i, 101 + i) for i in range(5)] + [(0, 5)]
    assert rank_metrics(ranked, [(0, 10)], k=5) == (0.0, 0.0, pytest.approx(1 / 6))
    # other-document clauses are passed as (-1, -1) and never relevant
    assert rank_metrics([(-1, -1)], [(0, 10)], k=5) == (0.0, 0.0, 0.0)


# -- loaders -------------------------------------------------------------------------------


def test_load_sample_benchmarks():
    names = []
    for path in SAMPLE_BENCHMARKS:
        bench = load_benchmark(path, SAMPLE / "corpus")  # checks spans against answer text
        names.append(bench.dataset)
        assert len(bench.queries) == 2
        for q in bench.queries:
            assert q.query.startswith("Consider")
            assert all(s.file_path.startswith(bench.dataset + "/") for s in q.snippets)
    assert sorted(names) == ["contractnli", "cuad", "maud", "privacy_qa"]
    sizes = [p.stat().st_size for p in (SAMPLE / "corpus").rglob("*.txt")]
    assert len(sizes) == 4 and max(sizes) < 10_000


def test_load_benchmark_rejects_wrong_span(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "d.txt").write_text("hello world", encoding="utf-8")
    bench = tmp_path / "mini_x.json"
    bench.write_text(
        json.dumps(
            {
                "tests": [
                    {
                        "query": "q",
                        "snippets": [{"file_path": "c/d.txt", "span": [0, 5], "answer": "world"}],
                    }
                ]
            }
        )
    )
    with pytest.raises(ValueError, match="answer"):
        load_benchmark(bench, tmp_path)
    loaded = load_benchmark(bench)  # without a corpus nothing is checked
    assert loaded.dataset == "x" and loaded.queries[0].snippets[0].span == (0, 5)


def test_sample_evenly():
    assert sample_evenly(list(range(10)), 3) == [0, 3, 6]
    assert sample_evenly(list(range(3)), 10) == [0, 1, 2]
    assert sample_evenly(list(range(3)), None) == [0, 1, 2]
    assert sample_evenly(list(range(3)), 0) == []


def test_load_questions(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(
        "documents:\n"
        "  - file: a.pdf\n"
        "    questions:\n"
        "      - {id: a1, question: 'Is it?', expected: one excerpt}\n"
        "      - question: And this?\n"
        "        expected: [first, second]\n",
        encoding="utf-8",
    )
    questions = load_questions(path)
    assert [q.expected for q in questions] == [["one excerpt"], ["first", "second"]]
    assert questions[0].id == "a1" and questions[1].id == "a-02"
    path.write_text(path.read_text() + "      - {id: a1, question: x, expected: y}\n")
    with pytest.raises(ValueError, match="duplicate"):
        load_questions(path)


def test_locate_excerpt_normalises_whitespace_quotes_and_ligatures():
    text = "1.1  The “Term”\n  means the\tperiod;  eﬃcient — done."
    span = locate_excerpt(text, 'the "term" means THE period')
    assert span is not None and text[span[0] : span[1]] == "The “Term”\n  means the\tperiod"
    span = locate_excerpt(text, "efficient - done")
    assert text[span[0] : span[1]] == "eﬃcient — done"
    assert locate_excerpt(text, "not there") is None
    assert locate_excerpt(text, "   ") is None


def test_shipped_questions_file():
    questions = load_questions(DATASET / "questions.yaml")
    by_doc: dict[str, int] = {}
    for q in questions:
        by_doc[q.document] = by_doc.get(q.document, 0) + 1
    assert set(by_doc) == {p.name for p in DATASET.glob("*.pdf")}
    assert all(10 <= n <= 20 for n in by_doc.values())
    assert "ClauseGraph team" in (DATASET / "questions.yaml").read_text(encoding="utf-8")[:600]


@pytest.mark.slow
def test_shipped_excerpts_are_found_in_the_pdfs():
    from clausegraph.ingest import load_document

    texts: dict[str, str] = {}
    for q in load_questions(DATASET / "questions.yaml"):
        if q.document not in texts:
            texts[q.document] = load_document(DATASET / q.document).text
        for excerpt in q.expected:
            assert locate_excerpt(texts[q.document], excerpt) is not None, (q.id, excerpt)


def test_published_curves():
    published = load_published(None)
    assert set(published) == {"privacy_qa", "contractnli", "maud", "cuad", "ALL"}
    assert published["ALL"]["recall"][-1] == pytest.approx(0.6222, abs=1e-4)
    assert published["ALL"]["precision"][0] == pytest.approx(0.0641, abs=1e-4)


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
    assert (strategy.k, strategy.s) == (2, 4)


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


# -- the harness end to end on the bundled sample (real index, real MiniLM) ------------------


def _sample_args(tmp: Path, *extra: str) -> list[str]:
    return [
        "--corpus",
        str(SAMPLE / "corpus"),
        "--benchmarks",
        *map(str, SAMPLE_BENCHMARKS),
        "--out",
        str(tmp / "eval_metrics.csv"),
        "--plots-dir",
        str(tmp / "plots"),
        "--index-dir",
        str(tmp / "index"),
        "--no-progress",
        *extra,
    ]


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("legalbench")
    code = main(
        _sample_args(
            tmp,
            "--strategies",
            "oracle,dense,bm25,clausegraph",
            "--limit",
            "1",
            "--dump",
            str(tmp / "dump.jsonl"),
            "--results-json",
            str(tmp / "result.json"),
        )
    )
    assert code == 0
    return tmp


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
    code = main(
        _sample_args(
            tmp, "--strategies", "oracle", "--no-plots", "--results-json", str(tmp / "again.json")
        )
    )
    assert code == 0
    result = json.loads((tmp / "again.json").read_text(encoding="utf-8"))
    assert result["indexing"]["ingested_now"] == 0
    assert result["indexing"]["source"] == "recorded"
    assert result["indexing"]["embed_seconds"] is not None
    # the earlier run's rows of the other strategies are kept in the CSV
    strategies = {r["strategy"] for r in read_metrics_csv(tmp / "eval_metrics.csv")}
    assert {"dense", "oracle"} <= strategies


@pytest.mark.slow
def test_dataset_mode_end_to_end(tmp_path):
    code = main(
        [
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
        ]
    )
    assert code == 0
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
def test_fit_lesegr_saves_weights_and_scores_held_out_queries(sample_run, monkeypatch):
    from clausegraph.strategies.seed import LESEGR_WEIGHTS_ENV

    monkeypatch.delenv(LESEGR_WEIGHTS_ENV, raising=False)
    tmp = sample_run
    weights = tmp / "lesegr.json"
    args = _sample_args(tmp, "--strategies", "lesegr", "--fit-lesegr", str(weights),
                        "--fit-fraction", "0.5", "--no-plots", "--out", str(tmp / "fit.csv"),
                        "--results-json", str(tmp / "fit.json"), "--dump", str(tmp / "fit.jsonl"))
    assert main(args) == 0
    assert LESEGR_WEIGHTS_ENV not in os.environ  # the fitted weights were for that run only
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


def test_lesegr_fitted_without_weights_is_a_clean_error(tmp_path, capsys, monkeypatch):
    from clausegraph.strategies.seed import LESEGR_WEIGHTS_ENV

    monkeypatch.delenv(LESEGR_WEIGHTS_ENV, raising=False)
    code = main(["--strategies", "lesegr-fitted", "--benchmarks", *map(str, SAMPLE_BENCHMARKS),
                 "--corpus", str(SAMPLE / "corpus"), "--out", str(tmp_path / "x.csv")])
    assert code == 2
    assert LESEGR_WEIGHTS_ENV in capsys.readouterr().err
    monkeypatch.setenv(LESEGR_WEIGHTS_ENV, str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="missing.json"):
        create_strategy("lesegr-fitted")


def test_bad_override_is_a_clean_error(tmp_path, capsys):
    assert main(["--set", "retrieval.nope=1", "--out", str(tmp_path / "x.csv")]) == 2
