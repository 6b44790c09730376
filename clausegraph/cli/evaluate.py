"""`clausegraph evaluate`: the retrieval benchmarks."""

from __future__ import annotations

import typer

from clausegraph.cli.common import (
    app,
)


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                      "help_option_names": []},
    add_help_option=False,
)
def evaluate(ctx: typer.Context) -> None:
    """Benchmark retrieval strategies: LegalBench-RAG precision/recall@k, or Recall@5/nDCG/MRR
    on docs/dataset (--dataset). All options: clausegraph evaluate --help."""
    from clausegraph.eval import main as evaluate_main

    raise typer.Exit(evaluate_main(list(ctx.args), prog="clausegraph evaluate"))


