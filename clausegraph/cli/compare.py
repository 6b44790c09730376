"""`clausegraph compare`: one question answered by every document, side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table
from rich.text import Text

from clausegraph.cli.common import (
    DEFAULT_INDEX,
    DocOption,
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
from clausegraph.report.compare import FORMATS, render_comparison, row_values
from clausegraph.text.safe import plain


@app.command()
def compare(
    question: Annotated[str, typer.Argument(help="the question, in quotes")],
    index: IndexOption = DEFAULT_INDEX,
    document: DocOption = None,
    fmt: Annotated[Optional[str], typer.Option(
        "--format", "-f", help="export as csv | md | html (default: a table in the terminal)")
    ] = None,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="write the export to this file (default: stdout)")] = None,
    json_output: JsonOption = False,
    set_: SetOption = None,
) -> None:
    """Answer the same question for every document (or each --doc), side by side."""
    if fmt is not None and fmt not in FORMATS:
        _fail(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    try:
        comparison = _open(index, set_).compare(question, documents=document)
    except (ClauseGraphError, ValueError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    if json_output:
        _print_json(comparison.model_dump(mode="json"))
        return
    if fmt is not None:
        text = render_comparison(comparison, fmt)
        if output is None:
            typer.echo(text, nl=False)
        else:
            output.write_text(text, encoding="utf-8")
            console.print(f"wrote {output}", highlight=False, markup=False)
        return
    table = Table(title=Text(plain(question)), show_lines=True, expand=True)
    for column, ratio in (("document", 2), ("answer", 6), ("source", 1), ("exceptions", 3),
                          ("confidence", 1)):
        table.add_column(column, overflow="fold", ratio=ratio)
    for row in comparison.rows:
        values = row_values(row)
        values["document"] = f"{values['document']}\n({values['file']})"
        table.add_row(*(Text(plain(values[c])) for c in (  # Text: "[***]" is not markup
            "document", "answer", "source", "exceptions", "confidence")))
    console.print(table)
    console.print("Offline extractive answers: the verdict, then the quoted sentence of the "
                  "cited clause, no language model. Read the clause before relying on it.",
                  highlight=False)
