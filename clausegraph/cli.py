"""Command line: a thin layer over :class:`clausegraph.api.ClauseGraph`.

Every read command takes ``--json``; errors are one line on stderr and a non-zero exit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from clausegraph.config import DATASET_DIR, SAMPLE_QUESTION, Settings
from clausegraph.errors import ClauseGraphError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="ClauseGraph: cited, clause-graph-aware answers over contracts and policies.",
)
console = Console()
err_console = Console(stderr=True)

IndexOption = Annotated[
    Path,
    typer.Option("--index", "-i", envvar="CLAUSEGRAPH_INDEX", help="index directory"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="print machine-readable JSON")]
SetOption = Annotated[
    Optional[list[str]],
    typer.Option("--set", help="override a setting, e.g. --set retrieval.hops=2 (repeatable)"),
]
DEFAULT_INDEX = Path(".clausegraph-index")


def _fail(message: str, code: int = 2) -> None:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def _settings(overrides: list[str] | None) -> Settings:
    try:
        return Settings().with_overrides(overrides or [])
    except ValueError as exc:
        _fail(str(exc).splitlines()[0] if "\n" not in str(exc) else _first_error(exc))
    raise AssertionError("unreachable")


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        return f"invalid setting {'.'.join(map(str, first['loc']))}: {first['msg']}"
    return str(exc).splitlines()[0]


def _open(index: Path, overrides: list[str] | None, create: bool = False):
    from clausegraph.api import ClauseGraph

    return ClauseGraph.open(index, _settings(overrides), create=create)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="PDF, .txt or .md files or folders")],
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
    set_: SetOption = None,
) -> None:
    """Add documents to the index (unchanged files are skipped)."""
    try:
        graph = _open(index, set_, create=True)
        with Progress(
            TextColumn("[progress.description]{task.description}"), BarColumn(),
            MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
            disable=json_output or not err_console.is_terminal,
        ) as progress:
            task = progress.add_task("ingesting", total=None)

            def report(name: str, done: int, total: int) -> None:
                progress.update(task, description=f"ingesting {name}"[:60], completed=done,
                                total=total)

            result = graph.ingest(paths, progress=report)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json([o.model_dump() for o in result.outcomes])
    else:
        _print_ingest_table(result)
    for outcome in result.failed:
        err_console.print(f"[bold red]error:[/] {outcome.error}", highlight=False)
    if result.failed:
        raise typer.Exit(1)


def _print_ingest_table(result: Any) -> None:
    table = Table(title="Ingest")
    for column in ("file", "status", "pages", "clauses", "edges", "unresolved refs", "seconds"):
        table.add_column(column)
    for o in result.outcomes:
        table.add_row(
            Path(o.path).name[:60], o.status, str(o.pages or ""), str(o.clauses or ""),
            str(sum(o.edges.values()) or ""), str(o.unresolved or ""),
            f"{o.seconds:.2f}" if o.seconds else "",
        )
    console.print(table)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="the question, in quotes")],
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
    set_: SetOption = None,
    top_k: Annotated[Optional[int], typer.Option(help="clauses to return")] = None,
    hops: Annotated[Optional[int], typer.Option(help="graph expansion depth")] = None,
    edge_types: Annotated[
        Optional[str], typer.Option(help="comma-separated edge types to expand over")
    ] = None,
    document: Annotated[
        Optional[list[str]], typer.Option("--doc", help="limit to a document (repeatable)")
    ] = None,
) -> None:
    """Answer a question with cited clauses: definitions, base rules, exceptions, chain."""
    try:
        graph = _open(index, set_)
        answer = graph.ask(question, documents=document, top_k=top_k, hops=hops,
                           edge_types=edge_types)
    except (ClauseGraphError, ValueError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    if json_output:
        _print_json(answer.model_dump(mode="json"))
        return
    _print_answer(answer)


def _print_answer(answer: Any) -> None:
    console.print(Markdown(answer.answer))
    _print_evidence_table(answer)


def _print_evidence_table(answer: Any) -> None:
    table = Table(title="Evidence", show_lines=False)
    for column in ("group", "clause", "document", "pages", "chars", "why retrieved"):
        table.add_column(column, overflow="fold")
    for e in answer.evidence:
        table.add_row(
            e.group, e.clause_id.split(":", 1)[-1], e.clause_id.split(":", 1)[0],
            ",".join(map(str, e.pages)), f"{e.span[0]}-{e.span[1]}", e.reason,
        )
    console.print(table)


@app.command()
def show(
    clause_id: Annotated[str, typer.Argument(help="a clause id as printed by ask")],
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
) -> None:
    """Print one clause with its citation and every edge in and out of it."""
    try:
        detail = _open(index, None).show(clause_id)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json(detail.model_dump(mode="json"))
        return
    clause = detail.clause
    console.print(f"[bold]{clause.clause_id}[/]  {clause.heading or ''}", highlight=False)
    console.print(
        f"{detail.document} | section: {' > '.join(clause.section_path) or '(top level)'} | "
        f"pages {','.join(map(str, clause.pages))} | chars {clause.span[0]}-{clause.span[1]}",
        highlight=False,
    )
    console.print(clause.text, highlight=False, markup=False)
    for title, edges in (("outgoing", detail.outgoing), ("incoming", detail.incoming)):
        for edge in edges:
            other = edge.target if title == "outgoing" else edge.source
            console.print(
                f"  {title:8} {edge.type.value:11} {other}  ({edge.confidence:.2f}, {edge.rule_id})",
                highlight=False, markup=False,
            )


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


@app.command()
def stats(index: IndexOption = DEFAULT_INDEX, json_output: JsonOption = False) -> None:
    """Documents, clauses, edges by type and unresolved references in the index."""
    try:
        result = _open(index, None).stats()
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json(result.model_dump())
        return
    console.print(f"index {result.index} ({result.embedding_model})", highlight=False)
    console.print(
        f"{len(result.documents)} documents, {result.clauses} clauses, "
        f"{sum(result.edges_by_type.values())} edges, "
        f"{result.unresolved_references} unresolved references", highlight=False,
    )
    table = Table()
    table.add_column("edge type")
    table.add_column("count", justify="right")
    for name, count in result.edges_by_type.items():
        table.add_row(name, str(count))
    console.print(table)


@app.command()
def demo(
    index: Annotated[Path, typer.Option("--index", "-i", help="index directory")] = Path(
        ".clausegraph-demo"
    ),
    question: Annotated[str, typer.Option(help="question to ask")] = SAMPLE_QUESTION,
    json_output: JsonOption = False,
) -> None:
    """The main job on the embedded defaults: ingest docs/dataset/ and answer a sample question."""
    try:
        graph = _open(index, None, create=True)
        if not json_output:
            console.print(f"Ingesting the bundled sample contracts in {DATASET_DIR} ...")
        result = graph.ingest([DATASET_DIR])
        answer = graph.ask(question)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json(answer.model_dump(mode="json"))
        return
    _print_ingest_table(result)
    console.print(f"\n[bold]Question:[/] {question}\n", highlight=False)
    _print_answer(answer)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
