"""LegalBench-RAG mode: precision@k / recall@k per strategy and dataset (see the package doc)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from clausegraph.config import Settings
from clausegraph.eval.benchmark import (
    Benchmark,
    BenchmarkQuery,
    default_benchmarks,
    default_legalbench_dir,
    load_benchmark,
    sample_evenly,
)
from clausegraph.eval.harness import (
    Harness,
    check_strategies,
    console_for,
    default_variants,
    index_location,
    open_graph,
    peak_rss_mb,
    progress_bar,
)
from clausegraph.eval.index import DEFAULT_CACHE_DIR, build_index, content_ids, index_cache_dir
from clausegraph.eval.lesegr_fit import fit_lesegr, split_for_fit
from clausegraph.eval.metric import K_VALUES, precision_recall_at_k
from clausegraph.eval.models import (
    CurveScores,
    Hit,
    LatencyStats,
    LegalBenchResult,
    LegalBenchRun,
    MemoryStats,
    Variant,
)
from clausegraph.strategies.factory import FITTED_LESEGR


def load_benchmarks(
    corpus_dir: str | Path | None, benchmarks: Sequence[str | Path] | None
) -> tuple[Path, list[Benchmark]]:
    """The corpus folder and the benchmark files (default: the four mini benchmarks)."""
    base = default_legalbench_dir()
    corpus = Path(corpus_dir) if corpus_dir else base / "corpus"
    paths = [Path(p) for p in benchmarks] if benchmarks else default_benchmarks(base)
    if not paths:
        raise ValueError(f"no benchmark files given and none found under {base / 'benchmarks'}")
    loaded = [load_benchmark(p, corpus) for p in paths]
    names = [b.dataset for b in loaded]
    if len(set(names)) != len(names):
        raise ValueError(f"two benchmark files map to the same dataset name: {names}")
    return corpus, loaded


def evaluate_legalbench(
    corpus_dir: str | Path | None = None,
    benchmarks: Sequence[str | Path] | None = None,
    *,
    strategies: Sequence[str] | None = None,
    variants: Sequence[Variant] | None = None,
    settings: Settings | None = None,
    limit: int | None = None,
    k_values: Sequence[int] = K_VALUES,
    index_dir: str | Path | None = None,
    cache_dir: str | Path = DEFAULT_CACHE_DIR,
    dump: str | Path | None = None,
    progress: bool = False,
    console: Any = None,
    settings_overrides: Sequence[str] = (),
    fit_lesegr_to: str | Path | None = None,
    fit_fraction: float = 0.1,
) -> LegalBenchResult:
    """LegalBench-RAG precision@k / recall@k per strategy and dataset (see module doc).

    ``strategies`` (default: all registered, plus ``"oracle"`` if named) each run with
    their defaults; ``variants`` adds strategy+override runs (grid, edge-type ablation).
    With ``fit_lesegr_to``, LeSeGR's weights are fitted on ``fit_fraction`` of each
    dataset's queries and saved there, and every strategy is scored on the other queries
    (``lesegr-fitted`` with those weights).
    """
    corpus, loaded = load_benchmarks(corpus_dir, benchmarks)
    settings = settings or Settings()
    k_values = sorted({int(k) for k in k_values})
    runs_for = list(default_variants(strategies) if strategies or not variants else [])
    runs_for += list(variants or [])
    check_strategies([v for v in runs_for if not (fit_lesegr_to and v.strategy == FITTED_LESEGR)],
                     settings)
    console = console_for(console)
    files = sorted({f for b in loaded for f in b.files})
    file_paths = [corpus / f for f in files]
    root = index_location(index_dir) if index_dir else index_cache_dir(file_paths, settings, cache_dir)
    graph = open_graph(root, settings)
    selected = {b.dataset: sample_evenly(b.queries, limit) for b in loaded}

    with progress_bar(progress, console) as bar:
        indexing = build_index(graph, file_paths, progress=bar)
        key_of = content_ids(zip(files, file_paths))
        graph.index  # noqa: B018 - load the index before timing retrieval
        lesegr_fit, params = None, {}
        if fit_lesegr_to:
            labelled, selected = split_for_fit(selected, fit_fraction)
            lesegr_fit = fit_lesegr(graph, labelled, key_of, fit_lesegr_to, settings)
            params = {FITTED_LESEGR: {"weights_file": Path(fit_lesegr_to)}}
            if not any(v.strategy == FITTED_LESEGR for v in runs_for):
                runs_for.append(Variant(strategy=FITTED_LESEGR))
        with open(dump, "w", encoding="utf-8") if dump else nullcontext() as dump_file:
            harness = Harness(graph, key_of, dump_file, params)
            runs = [_run(harness, variant, selected, k_values, bar) for variant in runs_for]
    return LegalBenchResult(
        k_values=k_values,
        datasets=[b.dataset for b in loaded],
        queries={d: len(q) for d, q in selected.items()},
        limit=limit,
        runs=runs,
        indexing=indexing,
        memory=MemoryStats(peak_rss_mb=peak_rss_mb(),
                           retrieval_peak_rss_mb=harness.retrieval_peak),
        settings_overrides=list(settings_overrides),
        lesegr_fit=lesegr_fit,
    )


def _run(
    harness: Harness, variant: Variant, selected: dict[str, list[BenchmarkQuery]],
    k_values: list[int], bar: Any,
) -> LegalBenchRun:
    """One variant over every selected query: the top ``max(k)`` once, scored at each k."""
    top_k = max(k_values)
    strategy = harness.strategy(variant)
    task = bar.add_task(variant.label, total=sum(len(q) for q in selected.values()))
    first = next((q for qs in selected.values() for q in qs), None)
    if first is not None and strategy is not None:
        harness.retrieve(strategy, variant, first.query, top_k)  # warm-up, untimed
    per_dataset: dict[str, list[list[tuple[float, float, int]]]] = {}
    latencies: list[float] = []
    for dataset, queries in selected.items():
        scores = per_dataset.setdefault(dataset, [])
        for q in queries:
            gold = [s.file_span for s in q.snippets]
            if strategy is None:
                hits = harness.timed(latencies, lambda gold=gold: [Hit(f, s, e, 1.0)
                                                                   for f, s, e in gold])
            else:
                hits = harness.timed(latencies, lambda q=q: harness.retrieve(
                    strategy, variant, q.query, top_k))
            ranked = [(h.file_path, h.start, h.end) for h in hits]
            scores.append(precision_recall_at_k(ranked, gold, k_values))
            harness.dump(variant, q.query, hits, dataset=dataset)
            bar.advance(task)
    return LegalBenchRun(
        strategy=variant.strategy,
        variant=variant.name,
        overrides=variant.overrides,
        datasets=_curves(per_dataset, len(k_values)),
        latency=LatencyStats.from_seconds(latencies),
    )


def _curves(
    per_dataset: dict[str, list[list[tuple[float, float, int]]]], n_k: int
) -> dict[str, CurveScores]:
    out: dict[str, CurveScores] = {}
    for dataset, per_query in per_dataset.items():
        n = len(per_query)
        means = [
            [sum(q[i][j] for q in per_query) / n if n else 0.0 for i in range(n_k)]
            for j in range(3)
        ]
        out[dataset] = CurveScores(
            n=n, precision=means[0], recall=means[1], retrieved_chars=means[2]
        )
    present = [c for c in out.values() if c.n]
    if present:
        out["ALL"] = CurveScores(
            n=sum(c.n for c in present),
            precision=[sum(c.precision[i] for c in present) / len(present) for i in range(n_k)],
            recall=[sum(c.recall[i] for c in present) / len(present) for i in range(n_k)],
            retrieved_chars=[
                sum(c.retrieved_chars[i] for c in present) / len(present) for i in range(n_k)
            ],
        )
    return out
