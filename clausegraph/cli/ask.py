"""`clausegraph ask`: a cited answer in the terminal or as JSON."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Optional

import typer
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
    StrictOption,
    TimeoutOption,
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
from clausegraph.text.safe import markup, plain


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
    timeout: TimeoutOption = None,
    strict: StrictOption = False,
    stream: Annotated[
        bool, typer.Option("--stream", help="print the model's answer as it is written (on "
                           "stderr); with --json, print JSON Lines instead: one "
                           '{"event": "chunk", "text": ...} per piece of the raw reply, then '
                           '{"event": "answer", "answer": {...}}')
    ] = False,
) -> None:
    """Answer a question with cited clauses: definitions, base rules, exceptions, chain."""
    from clausegraph.cli.llm_output import exit_code, print_warnings, reply_printer, waiting

    try:
        graph = _open(index, set_, llm={"provider": llm, "model": model, "base_url": base_url,
                                        "timeout": timeout})
        with waiting(err_console, graph.llm, quiet=json_output) as status:
            on_chunk = reply_printer(err_console, status, as_json=json_output) if stream \
                else None
            answer = graph.ask(question, documents=document, strategy=strategy, top_k=top_k,
                               hops=hops, edge_types=edge_types, on_chunk=on_chunk,
                               strict=strict)
    except (ClauseGraphError, ValueError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    if json_output:
        data = answer.model_dump(mode="json")
        if stream:  # JSON Lines: the answer is the last line
            sys.stdout.write(json.dumps({"event": "answer", "answer": data},
                                        ensure_ascii=False) + "\n")
        else:
            _print_json(data)
    else:
        if stream:
            err_console.out("")  # end the streamed line
        print_answer(answer)
        print_warnings(err_console, answer)
    raise typer.Exit(exit_code(answer, strict))


def print_answer(answer: Any) -> None:
    # Printed as its Markdown source: rendered Markdown would drop inline HTML from a
    # document and turn its links into live terminal hyperlinks.
    console.print(plain(answer.answer), highlight=False, markup=False)
    verification = getattr(answer, "verification", None)
    if verification is not None:
        colour = {"verified": "green", "warnings": "yellow", "failed": "red",
                  "unanswered": "yellow"}.get(verification.verdict, "white")
        console.print(f"[bold {colour}]{markup(verification.summary())}[/]  "
                      f"({markup(answer.model)})", highlight=False)
        for issue in verification.issues:
            console.print(plain(f"  {issue.severity}: {issue.message}"), highlight=False,
                          markup=False)
    for name, note in getattr(answer, "strategy_notes", {}).items():
        console.print(f"[bold]{markup(name)}[/]", highlight=False)
        console.print(plain(note), highlight=False, markup=False)
    _print_evidence_table(answer)


def _print_evidence_table(answer: Any) -> None:
    table = Table(title="Evidence", show_lines=False)
    for column in ("group", "clause", "document", "pages", "chars", "why retrieved"):
        table.add_column(column, overflow="fold")
    for e in answer.evidence:
        table.add_row(*map(markup, (
            e.group, e.clause_id.split(":", 1)[-1], e.clause_id.split(":", 1)[0],
            ",".join(map(str, e.pages)), f"{e.span[0]}-{e.span[1]}", e.reason,
        )))
    console.print(table)


