"""The run's plots (matplotlib, Agg backend): LegalBench-RAG curves, docs/dataset bars,
latency per strategy."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.errors import ClauseGraphError
from clausegraph.eval.benchmark import PUBLISHED_LABEL, load_published
from clausegraph.eval.metric import K_VALUES
from clausegraph.eval.models import ORACLE, DatasetResult, LegalBenchResult


def require_matplotlib() -> None:
    """Stop with one line naming the extra when matplotlib (optional) is missing; checked
    before an evaluation starts so a long run does not fail at its end."""
    if importlib.util.find_spec("matplotlib") is None:
        raise ClauseGraphError(
            "evaluate's plots need matplotlib, which is not installed: install "
            "clausegraph[plots] (pip install 'clausegraph[plots]'), or pass --no-plots")


def _pyplot() -> Any:
    # Imported on first plot (slow to import); the Agg backend must be chosen before pyplot.
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_legalbench(
    result: LegalBenchResult,
    plots_dir: str | Path,
    published: dict[str, dict[str, list[float]]] | None = None,
) -> list[Path]:
    """``legalbench_<dataset>.png`` (and ALL): recall@k and precision@k per strategy, in %,
    with the paper's best curve dashed. Only default (non-ablation) runs are drawn."""
    plt = _pyplot()
    plots_dir = Path(plots_dir)
    plots_dir.mkdir(parents=True, exist_ok=True)
    published = published if published is not None else load_published()
    runs = [r for r in result.runs if r.variant == "default"] or result.runs
    written = []
    for dataset in [*result.datasets, "ALL"]:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
        for ax, metric in zip(axes, ("recall", "precision")):
            for r in runs:
                if dataset in r.datasets:
                    ax.plot(
                        result.k_values,
                        [100 * v for v in getattr(r.datasets[dataset], metric)],
                        marker="o",
                        ms=3,
                        label=r.label,
                    )
            paper = published.get(dataset, {}).get(metric)
            if paper:
                ax.plot(
                    K_VALUES,
                    [100 * v for v in paper],
                    "k--",
                    marker="s",
                    ms=3,
                    label=PUBLISHED_LABEL,
                )
            ax.set_xscale("log", base=2)
            ax.set_xticks(result.k_values, [str(k) for k in result.k_values])
            ax.set_xlabel("k (retrieved clauses; paper: 500-char chunks)")
            ax.set_ylabel(f"{metric} @k (%)")
            ax.grid(alpha=0.3)
        n = next((r.datasets[dataset].n for r in runs if dataset in r.datasets), 0)
        fig.suptitle(f"LegalBench-RAG-mini {dataset} ({n} queries)")
        axes[0].legend(fontsize=7, loc="best")
        fig.tight_layout()
        out = plots_dir / f"legalbench_{dataset}.png"
        fig.savefig(out, dpi=120)
        plt.close(fig)
        written.append(out)
    return written


def plot_latency(rows: Sequence[dict[str, str]], path: str | Path) -> Path | None:
    """Bar chart of p50 (bar) and p95 (whisker) retrieval latency per strategy and mode,
    drawn from the CSV rows so both modes appear once both have run."""
    plt = _pyplot()
    data: dict[str, dict[str, tuple[float, float]]] = {}
    for r in rows:
        if (
            r["variant"] != "default"
            or r["strategy"] in ("*", ORACLE)
            or r["metric"] != "latency_p50_ms"
        ):
            continue
        p95 = next(
            (
                float(x["value"])
                for x in rows
                if x["mode"] == r["mode"]
                and x["variant"] == "default"
                and x["strategy"] == r["strategy"]
                and x["metric"] == "latency_p95_ms"
            ),
            float(r["value"]),
        )
        data.setdefault(r["mode"], {})[r["strategy"]] = (float(r["value"]), p95)
    if not data:
        return None
    fig, axes = plt.subplots(1, len(data), figsize=(5.5 * len(data), 4), squeeze=False)
    for ax, (mode, values) in zip(axes[0], sorted(data.items())):
        names = sorted(values)
        p50 = [values[n][0] for n in names]
        p95 = [values[n][1] for n in names]
        ax.bar(names, p50, color="tab:blue", label="p50")
        ax.errorbar(
            names,
            p50,
            yerr=[[0] * len(names), [b - a for a, b in zip(p50, p95)]],
            fmt="none",
            ecolor="k",
            capsize=4,
            label="p95",
        )
        ax.set_title(f"{mode}: retrieval latency per query")
        ax.set_ylabel("ms")
        ax.tick_params(axis="x", rotation=30)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
        ax.legend()
        ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_dataset(result: DatasetResult, plots_dir: str | Path) -> Path:
    """``dataset_retrieval.png``: Recall@k, nDCG@k and MRR (ALL) per strategy."""
    plt = _pyplot()

    runs = [r for r in result.runs if r.variant == "default" and "ALL" in r.documents]
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(runs) + 2), 4))
    x = np.arange(len(runs))
    for i, (metric, label) in enumerate(
        (
            ("recall", f"Recall@{result.k}"),
            ("ndcg", f"nDCG@{result.k}"),
            ("mrr", f"MRR (depth {result.depth})"),
        )
    ):
        ax.bar(
            x + (i - 1) * 0.27,
            [getattr(r.documents["ALL"], metric) for r in runs],
            0.27,
            label=label,
        )
    ax.set_xticks(x, [r.label for r in runs], rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_title(
        f"docs/dataset: {result.questions} questions over {len(result.documents)} contracts"
    )
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    out = Path(plots_dir) / "dataset_retrieval.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out
