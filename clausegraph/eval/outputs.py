"""Where a run's numbers go: the long-format metrics CSV and the console tables."""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.table import Table

from clausegraph.eval.benchmark import load_published
from clausegraph.eval.models import (
    DatasetResult,
    IndexingStats,
    LegalBenchResult,
    LegalBenchRun,
    MemoryStats,
    MetricRow,
)

CSV_COLUMNS = ("mode", "variant", "strategy", "dataset", "k", "metric", "value", "n", "run_at")


CSV_HEADER = """\
# ClauseGraph retrieval evaluation (clausegraph/eval/; clausegraph evaluate).
# Long format, one value per row; read with pandas.read_csv(path, comment="#").
#   mode     legalbench | dataset
#   variant  default, grid:alpha=..,beta=..,gamma=.. or edges:<EdgeType> (ablations)
#   strategy retrieval strategy name ("*" = run-level facts: indexing, memory)
#   dataset  legalbench: privacy_qa | contractnli | maud | cuad | ALL (plain mean of datasets);
#            dataset: the document (PDF name up to the first "_") | ALL (mean of documents)
#   k        cut-off (legalbench: prefix of the top-64 ranking; dataset: @k, MRR uses the depth)
#   metric   legalbench: precision, recall (LegalBench-RAG character overlap, fraction 0..1),
#              retrieved_chars (mean merged characters returned at k);
#            dataset: recall, ndcg, mrr (fractions 0..1);
#            both: latency_p50_ms, latency_p95_ms, latency_mean_ms (one retrieve call/query);
#            run-level: index_documents, index_clauses, index_chars, index_build_seconds,
#              index_chars_per_second, index_embed_seconds, index_embed_share,
#              model_load_seconds, peak_rss_mb, retrieval_peak_rss_mb
#   n        number of queries (or documents) behind the value
#   run_at   UTC time of the run that wrote the row; a later run of the same
#            (mode, variant, strategy) replaces its rows, other rows are kept
"""


def read_metrics_csv(path: str | Path) -> list[dict[str, str]]:
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(lines))


def write_metrics_csv(rows: Sequence[MetricRow], path: str | Path, merge: bool = True) -> Path:
    """Write ``rows`` (long format, ``CSV_COLUMNS``) under the ``CSV_HEADER`` comment.

    With ``merge`` the rows already in the file are kept unless this run wrote the same
    (mode, variant, strategy): so a LegalBench run and a docs/dataset run share one file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    run_at = datetime.now(UTC).isoformat(timespec="seconds")
    replaced = {(r.mode, r.variant, r.strategy) for r in rows}
    kept = [
        r
        for r in (read_metrics_csv(path) if merge else [])
        if (r.get("mode"), r.get("variant"), r.get("strategy")) not in replaced
    ]
    new = [
        {
            "mode": r.mode,
            "variant": r.variant,
            "strategy": r.strategy,
            "dataset": r.dataset,
            "k": "" if r.k is None else r.k,
            "metric": r.metric,
            "value": f"{r.value:.10g}",
            "n": r.n,
            "run_at": run_at,
        }
        for r in rows
    ]
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as handle:
        handle.write(CSV_HEADER)
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(kept + new)
    os.replace(tmp, path)
    return path


def print_legalbench(
    result: LegalBenchResult, console: Any, published: dict[str, Any] | None = None
) -> None:

    published = published if published is not None else load_published()
    defaults = [r for r in result.runs if r.variant == "default"]
    for r in defaults:
        table = Table(title=f"{r.label}: precision / recall @k (%)")
        table.add_column("dataset")
        table.add_column("n", justify="right")
        for k in result.k_values:
            table.add_column(f"@{k}", justify="right")
        for dataset, scores in r.datasets.items():
            table.add_row(
                dataset,
                str(scores.n),
                *(
                    f"{100 * p:.1f} / {100 * rc:.1f}"
                    for p, rc in zip(scores.precision, scores.recall)
                ),
            )
        console.print(table)
    summary = Table(title="LegalBench-RAG summary (ALL = mean of datasets, %)")
    for column in ("run", "P@1", "P@8", "R@1", "R@8", "R@64", "chars@8", "p50 ms", "p95 ms"):
        summary.add_column(column, justify="left" if column == "run" else "right", overflow="fold")

    def cell(r: LegalBenchRun, metric: str, k: int) -> str:
        if "ALL" not in r.datasets or k not in result.k_values:
            return "-"
        value = getattr(r.datasets["ALL"], metric)[result.k_values.index(k)]
        return f"{value:.0f}" if metric == "retrieved_chars" else f"{100 * value:.2f}"

    for r in result.runs:
        summary.add_row(
            r.label,
            cell(r, "precision", 1),
            cell(r, "precision", 8),
            cell(r, "recall", 1),
            cell(r, "recall", 8),
            cell(r, "recall", 64),
            cell(r, "retrieved_chars", 8),
            f"{r.latency.p50_ms:.1f}",
            f"{r.latency.p95_ms:.1f}",
        )
    if "ALL" in published:
        p = published["ALL"]
        summary.add_row(
            "paper (Table 5)",
            f"{100 * p['precision'][0]:.2f}",
            f"{100 * p['precision'][3]:.2f}",
            f"{100 * p['recall'][0]:.2f}",
            f"{100 * p['recall'][3]:.2f}",
            f"{100 * p['recall'][6]:.2f}",
            "~4000",
            "",
            "",
        )
    console.print(summary)
    _print_run_facts(result.indexing, result.memory, console)


def print_dataset(result: DatasetResult, console: Any) -> None:

    table = Table(
        title=f"docs/dataset: Recall@{result.k} / nDCG@{result.k} / MRR "
        f"(depth {result.depth}, scope {result.scope})"
    )
    table.add_column("run", overflow="fold")
    for document in [*result.documents, "ALL"]:
        table.add_column(document, justify="right")
    table.add_column("p50 ms", justify="right")
    table.add_column("p95 ms", justify="right")
    for r in result.runs:
        cells = []
        for document in [*result.documents, "ALL"]:
            s = r.documents.get(document)
            cells.append(f"{s.recall:.2f} / {s.ndcg:.2f} / {s.mrr:.2f}" if s else "-")
        table.add_row(r.label, *cells, f"{r.latency.p50_ms:.1f}", f"{r.latency.p95_ms:.1f}")
    console.print(table)
    if result.unlocated:
        console.print(f"{len(result.unlocated)} expected excerpt(s) could not be located.")
    _print_run_facts(result.indexing, result.memory, console)


def _print_run_facts(
    indexing: IndexingStats | None, memory: MemoryStats | None, console: Any
) -> None:
    if indexing is not None:
        parts = [
            (
                f"index {indexing.index_dir}: {indexing.documents} documents, "
                f"{indexing.clauses} clauses, {indexing.chars:,} chars"
            )
        ]
        if indexing.build_seconds:
            parts.append(
                f"built in {indexing.build_seconds:.1f} s "
                f"({indexing.chars_per_second:,.0f} chars/s, {indexing.source})"
            )
        if indexing.embed_share is not None:
            parts.append(f"embedding {100 * indexing.embed_share:.0f}% of it")
        parts.append(f"this run ingested {indexing.ingested_now} in {indexing.wall_seconds:.1f} s")
        console.print("; ".join(parts), highlight=False)
        for failure in indexing.failed:
            console.print(f"[red]failed:[/] {failure}", highlight=False)
    if memory is not None:
        console.print(
            f"peak RSS {memory.peak_rss_mb:,.0f} MB (process), "
            f"{memory.retrieval_peak_rss_mb:,.0f} MB while retrieving",
            highlight=False,
        )
