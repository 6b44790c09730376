"""`clausegraph review`: a contract against CUAD's 41 clause categories."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table
from rich.text import Text

from clausegraph.cli.common import (
    DEFAULT_INDEX,
    IndexOption,
    JsonOption,
    SetOption,
    _fail,
    _first_error,
    _open,
    _print_json,
    app,
    console,
)
from clausegraph.errors import ClauseGraphError
from clausegraph.report.review import CAVEAT, REVIEW_FORMATS, item_values, render_review, write_review
from clausegraph.text.safe import plain


@app.command()
def review(
    documents: Annotated[Optional[list[str]], typer.Argument(
        help="documents to review: doc id, key, file name or path (as stats lists them), "
             "or the file name without its extension")
    ] = None,
    index: IndexOption = DEFAULT_INDEX,
    every: Annotated[bool, typer.Option("--all", help="review every document of the index")
                     ] = False,
    fmt: Annotated[Optional[str], typer.Option(
        "--format", "-f", help="export as csv | md | html | pdf (pdf needs -o)")] = None,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="write the export to this file (default: stdout)")] = None,
    json_output: JsonOption = False,
    set_: SetOption = None,
) -> None:
    """Review contracts against CUAD's 41 clause categories: found or not, the clause,
    page and confidence, and the normalised answer (dates, governing law, terms, yes/no)."""
    if fmt is not None and fmt not in REVIEW_FORMATS:
        _fail(f"unknown format {fmt!r}: choose one of {', '.join(REVIEW_FORMATS)}")
    if fmt == "pdf" and output is None:
        _fail("--format pdf needs --output FILE")
    if not documents and not every:
        _fail("name the documents to review (or --all)")
    try:
        graph = _open(index, set_)
        result = graph.review(list(graph.index.entries()) if every else documents)
    except (ClauseGraphError, ValueError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    if json_output:
        _print_json(result.model_dump(mode="json"))
        return
    if fmt is not None:
        if output is None:
            typer.echo(render_review(result, fmt), nl=False)
        else:
            write_review(result, output, fmt)
            console.print(f"wrote {output}", highlight=False, markup=False)
        return
    for document in result.documents:
        table = Table(title=Text(plain(f"{document.title} ({document.file}): "
                                       f"{len(document.found)} of {len(document.items)} "
                                       f"categories found")), expand=True)
        table.add_column("category", overflow="fold", ratio=3)
        table.add_column("found", no_wrap=True, min_width=5)
        table.add_column("confidence", no_wrap=True, min_width=10, justify="right")
        table.add_column("found from", no_wrap=True, min_width=5, justify="right")
        table.add_column("answer", overflow="fold", ratio=3)
        table.add_column("clause", overflow="fold", ratio=2)
        for item in document.items:
            values = item_values(item)
            where = values["clause"] + (f", p. {values['page']}" if values["page"] else "")
            style = None if item.found else "dim"
            table.add_row(*(Text(plain(v)) for v in (
                values["category"], values["found"], values["confidence"],
                values["found from"], values["answer"], where)), style=style)
        console.print(table)
    console.print(CAVEAT, highlight=False)
