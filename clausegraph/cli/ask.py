"""`clausegraph ask`: a cited answer in the terminal or as JSON."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer
from rich.markdown import Markdown
from rich.table import Table

from clausegraph.cli.common import (
    DEFAULT_INDEX,
    BaseUrlOption,
    DocOption,
    HopsOption,
    IndexOption,
    JsonOption,
    LLMOption,
    ModelOption,
    SetOption,
    StrategyOption,
    TopKOption,
    _fail,
    _first_error,
    _open,
    _print_json,
    app,
    console,
    err_console,
)
from clausegraph.errors import ClauseGraphError


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="the question, in quotes")],
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
    set_: SetOption = None,
    top_k: TopKOption = None,
    hops: HopsOption = None,
    edge_types: Annotated[
        Optional[str], typer.Option(help="comma-separated edge types to expand over")
    ] = None,
    document: DocOption = None,
    strategy: StrategyOption = "clausegraph",
    llm: LLMOption = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
    stream: Annotated[
        bool, typer.Option("--stream", help="print the LLM's claims as they are written")
    ] = False,
) -> None:
    """Answer a question with cited clauses: definitions, base rules, exceptions, chain."""
    on_chunk = None
    if stream and not json_output:
        from clausegraph.answer.generate import ClaimStream

        claims = ClaimStream()

        def on_chunk(chunk: str) -> None:
            for text in claims.feed(chunk):
                err_console.print(f"  ... {text}", highlight=False, markup=False)

    try:
        graph = _open(index, set_, llm={"provider": llm, "model": model, "base_url": base_url})
        answer = graph.ask(question, documents=document, strategy=strategy, top_k=top_k,
                           hops=hops, edge_types=edge_types, on_chunk=on_chunk)
    except (ClauseGraphError, ValueError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    if json_output:
        _print_json(answer.model_dump(mode="json"))
        return
    print_answer(answer)


def print_answer(answer: Any) -> None:
    console.print(Markdown(answer.answer))
    verification = getattr(answer, "verification", None)
    if verification is not None:
        colour = {"verified": "green", "warnings": "yellow", "failed": "red"}.get(
            verification.verdict, "white")
        console.print(f"[bold {colour}]{verification.summary()}[/]  ({answer.model})",
                      highlight=False)
        for issue in verification.issues:
            console.print(f"  {issue.severity}: {issue.message}", highlight=False, markup=False)
    for name, note in getattr(answer, "strategy_notes", {}).items():
        console.print(f"[bold]{name}[/]", highlight=False)
        console.print(note, highlight=False, markup=False)
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


