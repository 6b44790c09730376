"""`clausegraph evaluate`: the retrieval benchmarks (LegalBench-RAG and docs/dataset)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from clausegraph.cli.common import SetOption, _fail, _settings, app, console, err_console

_LB = "LegalBench-RAG mode"
_DS = "docs/dataset mode"
_OUT = "outputs"


class Scope(str, Enum):
    document = "document"
    corpus = "corpus"


def _split(values: Optional[list[str]]) -> Optional[list[str]]:
    """Repeated options and comma-separated lists alike: --x a,b --x c -> [a, b, c]."""
    if not values:
        return None
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


# The longest function here only because typer reads the ~30 options from its signature.
@app.command()
def evaluate(
    corpus: Annotated[Optional[Path], typer.Option(
        help="corpus folder (default: ../shared/data/legalbench-rag/corpus or "
        "$CLAUSEGRAPH_LEGALBENCH_DIR/corpus)", rich_help_panel=_LB)] = None,
    benchmarks: Annotated[Optional[list[str]], typer.Option(
        help="benchmark JSON files, comma-separated or repeated (default: the four "
        "benchmarks/mini_*.json)", rich_help_panel=_LB)] = None,
    k: Annotated[str, typer.Option(
        "--k", help="comma-separated k values", rich_help_panel=_LB)] = "1,2,4,8,16,32,64",
    published: Annotated[Optional[Path], typer.Option(
        help="published_baselines.json for the paper curves (default: next to the corpus, "
        "else built-in numbers)", rich_help_panel=_LB)] = None,
    fit_lesegr: Annotated[Optional[Path], typer.Option(
        "--fit-lesegr", metavar="FILE",
        help="fit LeSeGR's weights on a labelled split of the queries, save them to FILE, add "
        "the 'lesegr-fitted' strategy and score every strategy on the held-out queries",
        rich_help_panel=_LB)] = None,
    fit_fraction: Annotated[float, typer.Option(
        help="share of queries labelled for the fit", rich_help_panel=_LB)] = 0.1,
    causal_grid: Annotated[bool, typer.Option(
        "--causal-grid", help="also run CausalRAG's k,s grid (causal-k1-s1 ... causal-k5-s5)",
        rich_help_panel=_LB)] = False,
    dataset: Annotated[Optional[Path], typer.Option(
        help="folder of PDFs (e.g. docs/dataset)", rich_help_panel=_DS)] = None,
    questions: Annotated[Optional[Path], typer.Option(
        help="questions YAML (default: DATASET/questions.yaml)", rich_help_panel=_DS)] = None,
    at: Annotated[int, typer.Option(
        help="cut-off for Recall@k and nDCG@k", rich_help_panel=_DS)] = 5,
    depth: Annotated[int, typer.Option(
        help="clauses retrieved per question; MRR depth", rich_help_panel=_DS)] = 10,
    scope: Annotated[Scope, typer.Option(
        help="search the question's document only, or all documents",
        rich_help_panel=_DS)] = Scope.document,
    strategies: Annotated[Optional[list[str]], typer.Option(
        help="comma-separated strategies (default: all registered; 'oracle' returns the gold "
        "spans as a sanity check)")] = None,
    limit: Annotated[Optional[int], typer.Option(
        help="queries per dataset (questions per document), spread evenly over the file")] = None,
    overrides: SetOption = None,
    grid: Annotated[bool, typer.Option(
        "--grid", help="also run an alpha/beta/gamma grid for the clausegraph strategy")] = False,
    grid_values: Annotated[Optional[str], typer.Option(
        help="grid as 'alpha=0.5,0.7;beta=0,0.1;gamma=0,0.2' "
        "(default alpha=0.5,0.7,0.9;beta=0,0.1,0.2;gamma=0,0.2,0.4)")] = None,
    edge_type_ablation: Annotated[bool, typer.Option(
        "--edge-type-ablation",
        help="also run the clausegraph strategy with each single edge type")] = False,
    index_dir: Annotated[Optional[str], typer.Option(
        help="use this index (a folder or a postgresql:// URL) instead of the cache")] = None,
    cache_dir: Annotated[Path, typer.Option(
        help="where cached eval indexes live")] = Path(".cache"),
    no_progress: Annotated[bool, typer.Option("--no-progress", help="no progress bars")] = False,
    out_dir: Annotated[Optional[Path], typer.Option(
        help="folder for this run's CSV and plots (default: a new runs/UTC-TIME/; the "
        "tracked results in docs/ change only with --out-dir docs)", rich_help_panel=_OUT)] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="metrics CSV (default: OUT-DIR/eval_metrics.csv)", rich_help_panel=_OUT)] = None,
    no_merge: Annotated[bool, typer.Option(
        "--no-merge", help="overwrite the CSV instead of merging", rich_help_panel=_OUT)] = False,
    plots_dir: Annotated[Optional[Path], typer.Option(
        help="plot folder (default: OUT-DIR/plots)", rich_help_panel=_OUT)] = None,
    no_plots: Annotated[bool, typer.Option(
        "--no-plots", help="skip the plots", rich_help_panel=_OUT)] = False,
    results_json: Annotated[Optional[Path], typer.Option(
        help="also write the full result as JSON", rich_help_panel=_OUT)] = None,
    dump: Annotated[Optional[Path], typer.Option(
        help="write every ranking to this JSONL file", rich_help_panel=_OUT)] = None,
) -> None:
    """Benchmark retrieval strategies. LegalBench-RAG mode (default): character-overlap
    precision/recall@k per dataset. docs/dataset mode (--dataset or --questions): Recall@k,
    nDCG@k, MRR per document. Both: latency, memory, indexing."""
    # Imported on use: the harness loads the whole pipeline, other commands need not wait.
    from clausegraph.errors import ClauseGraphError
    from clausegraph.eval.plots import require_matplotlib
    from clausegraph.eval.run import EvalOptions, write_outputs
    from clausegraph.eval.run import evaluate as run_evaluation

    settings = _settings(overrides)
    try:
        if not no_plots:
            require_matplotlib()
        options = EvalOptions(
            corpus=corpus, benchmarks=_split(benchmarks),
            k=[int(v) for v in k.split(",") if v.strip()], published=published,
            fit_lesegr=fit_lesegr, fit_fraction=fit_fraction, causal_grid=causal_grid,
            dataset=dataset, questions=questions, at=at, depth=depth, scope=scope.value,
            strategies=_split(strategies), limit=limit, overrides=overrides or [], grid=grid,
            grid_values=grid_values, edge_type_ablation=edge_type_ablation, dump=dump,
            out_dir=out_dir, out=out, no_merge=no_merge, plots_dir=plots_dir, no_plots=no_plots,
            results_json=results_json, index_dir=index_dir, cache_dir=cache_dir,
            progress=not no_progress,
        )
        result = run_evaluation(options, settings, err_console)
    except (ValueError, OSError, ClauseGraphError) as exc:
        _fail(str(exc).splitlines()[0])
        raise AssertionError("unreachable") from exc
    written = write_outputs(result, options, console)
    console.print("wrote " + ", ".join(str(p) for p in written), highlight=False)
