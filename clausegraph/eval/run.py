"""One evaluation run as ``clausegraph evaluate`` describes it: pick the mode and the runs,
evaluate, then write the CSV, plots and JSON into the run's output folder.

Outputs go to ``--out-dir`` (default: a new ``runs/<UTC time>/`` folder); the tracked
files in ``docs/`` change only when someone passes ``--out-dir docs`` (or ``--out``,
``--plots-dir`` naming files there) on purpose.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from clausegraph.config import Settings
from clausegraph.eval.benchmark import default_legalbench_dir, load_published
from clausegraph.eval.dataset import DEFAULT_DATASET_DIR, evaluate_dataset
from clausegraph.eval.harness import (
    causal_grid_variants,
    default_variants,
    edge_type_variants,
    grid_variants,
    parse_grid,
)
from clausegraph.eval.index import DEFAULT_CACHE_DIR
from clausegraph.eval.legalbench import evaluate_legalbench
from clausegraph.eval.metric import K_VALUES
from clausegraph.eval.models import DatasetResult, LegalBenchResult, Variant
from clausegraph.eval.outputs import (
    print_dataset,
    print_legalbench,
    read_metrics_csv,
    write_metrics_csv,
)
from clausegraph.eval.plots import plot_dataset, plot_latency, plot_legalbench

RUNS_DIR = Path("runs")
CSV_NAME = "eval_metrics.csv"
PLOTS_NAME = "plots"


class EvalOptions(BaseModel):
    """Everything ``clausegraph evaluate`` takes (the CLI's options, same names)."""

    model_config = ConfigDict(extra="forbid")

    # LegalBench-RAG mode
    corpus: Path | None = None
    benchmarks: list[Path] | None = None
    k: list[int] = list(K_VALUES)
    published: Path | None = None
    fit_lesegr: Path | None = None
    fit_fraction: float = 0.1
    causal_grid: bool = False
    # docs/dataset mode
    dataset: Path | None = None
    questions: Path | None = None
    at: int = 5
    depth: int = 10
    scope: Literal["document", "corpus"] = "document"
    # common
    strategies: list[str] | None = None
    limit: int | None = None
    overrides: list[str] = []
    grid: bool = False
    grid_values: str | None = None
    edge_type_ablation: bool = False
    dump: Path | None = None
    out_dir: Path | None = None
    out: Path | None = None
    no_merge: bool = False
    plots_dir: Path | None = None
    no_plots: bool = False
    results_json: Path | None = None
    index_dir: str | Path | None = None
    cache_dir: Path = DEFAULT_CACHE_DIR
    progress: bool = True

    @property
    def dataset_mode(self) -> bool:
        return self.dataset is not None or self.questions is not None

    def run_dir(self) -> Path:
        """``--out-dir``, or a new ``runs/<UTC time>`` folder (made when first written to)."""
        if self.out_dir is None:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            self.out_dir = RUNS_DIR / stamp
        return self.out_dir


def variants_for(options: EvalOptions, settings: Settings) -> list[Variant]:
    """The runs: every named (or registered) strategy, then the requested studies."""
    extra: list[Variant] = []
    if options.grid or options.grid_values:
        extra += grid_variants(parse_grid(options.grid_values) if options.grid_values else None)
    if options.edge_type_ablation:
        extra += edge_type_variants(settings)
    if options.causal_grid:
        extra += causal_grid_variants()
    return default_variants(options.strategies) + extra


def evaluate(options: EvalOptions, settings: Settings,
             console: Any) -> LegalBenchResult | DatasetResult:
    """Run the mode ``options`` ask for; ``ValueError``/``OSError`` name a bad input."""
    common: dict[str, Any] = {
        "variants": variants_for(options, settings),
        "settings": settings,
        "limit": options.limit,
        "index_dir": options.index_dir,
        "cache_dir": options.cache_dir,
        "dump": options.dump,
        "progress": options.progress,
        "console": console,
        "settings_overrides": options.overrides,
    }
    if options.dataset_mode:
        dataset_dir = options.dataset or (
            options.questions.parent if options.questions else DEFAULT_DATASET_DIR)
        return evaluate_dataset(dataset_dir, options.questions, k=options.at, depth=options.depth,
                                scope=options.scope, **common)
    return evaluate_legalbench(
        options.corpus, options.benchmarks, k_values=options.k, fit_lesegr_to=options.fit_lesegr,
        fit_fraction=options.fit_fraction, **common,
    )


def write_outputs(result: LegalBenchResult | DatasetResult, options: EvalOptions,
                  console: Any) -> list[Path]:
    """Print the tables; write the CSV, the plots and the JSON; return what was written."""
    csv_path = write_metrics_csv(result.rows(), options.out or options.run_dir() / CSV_NAME,
                                 merge=not options.no_merge)
    plots_dir = options.plots_dir or options.run_dir() / PLOTS_NAME
    written = [csv_path]
    if isinstance(result, LegalBenchResult):
        published_path = options.published or (
            (options.corpus.parent if options.corpus else default_legalbench_dir())
            / "published_baselines.json")
        published = load_published(published_path)
        print_legalbench(result, console, published)
        if not options.no_plots:
            written += plot_legalbench(result, plots_dir, published)
    else:
        print_dataset(result, console)
        if not options.no_plots:
            written.append(plot_dataset(result, plots_dir))
    if not options.no_plots:
        latency = plot_latency(read_metrics_csv(csv_path), plots_dir / "latency_bar.png")
        if latency:
            written.append(latency)
    if options.results_json:
        options.results_json.parent.mkdir(parents=True, exist_ok=True)
        options.results_json.write_text(result.model_dump_json(indent=1), encoding="utf-8")
        written.append(options.results_json)
    if options.dump:
        written.append(options.dump)
    return written
