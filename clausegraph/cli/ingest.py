"""`clausegraph ingest` and `clausegraph remove`: documents in and out of an index."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from clausegraph.cli.common import (
    DEFAULT_INDEX,
    BaseUrlOption,
    IndexOption,
    JsonOption,
    LLMOption,
    ModelOption,
    SetOption,
    _fail,
    _open,
    _print_json,
    app,
    console,
    err_console,
)
from clausegraph.errors import ClauseGraphError


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="PDF, .txt or .md files or folders")],
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
    set_: SetOption = None,
    llm_relations: Annotated[
        bool, typer.Option("--llm-relations", help="also ask the LLM for typed edges (cached)")
    ] = False,
    llm: LLMOption = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
) -> None:
    """Add documents to the index (unchanged files are skipped)."""
    try:
        graph = _open(index, set_, create=True,
                      llm={"provider": llm, "model": model, "base_url": base_url})
        with Progress(
            TextColumn("[progress.description]{task.description}"), BarColumn(),
            MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
            disable=json_output or not err_console.is_terminal,
        ) as progress:
            task = progress.add_task("ingesting", total=None)

            def report(name: str, done: int, total: int) -> None:
                progress.update(task, description=f"ingesting {name}"[:60], completed=done,
                                total=total)

            result = graph.ingest(paths, progress=report, llm_relations=llm_relations)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json([o.model_dump() for o in result.outcomes])
    else:
        print_ingest_table(result)
    for outcome in result.failed:
        err_console.print(f"[bold red]error:[/] {outcome.error}", highlight=False)
    if result.failed:
        raise typer.Exit(1)


def print_ingest_table(result: Any) -> None:
    table = Table(title="Ingest")
    for column in ("file", "status", "pages", "clauses", "edges", "unresolved refs", "seconds"):
        table.add_column(column)
    for o in result.outcomes:
        table.add_row(
            Path(o.path).name[:60],
            f"{o.status} (same as {Path(o.same_as).name})" if o.same_as else o.status,
            str(o.pages or ""), str(o.clauses or ""),
            str(sum(o.edges.values()) or ""), str(o.unresolved or ""),
            f"{o.seconds:.2f}" if o.seconds else "",
        )
    console.print(table)


@app.command()
def remove(
    document: Annotated[str, typer.Argument(help="document id, key, path or file name")],
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
) -> None:
    """Remove a document from the index."""
    try:
        removed = _open(index, None).remove(document)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json({"removed": removed})
    else:
        console.print(f"removed {', '.join(removed)}")


