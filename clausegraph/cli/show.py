"""`clausegraph show` and `clausegraph stats`: look inside an index."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from clausegraph.cli.common import (
    DEFAULT_INDEX,
    IndexOption,
    JsonOption,
    _fail,
    _open,
    _print_json,
    app,
    console,
)
from clausegraph.api import ClauseDetail
from clausegraph.classify import STORED_TYPE_FLOOR
from clausegraph.errors import ClauseGraphError
from clausegraph.text.safe import markup, plain


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
    console.print(f"[bold]{markup(clause.clause_id)}[/]  {markup(clause.heading or '')}",
                  highlight=False)
    console.print(
        plain(f"{detail.document} | section: {' > '.join(clause.section_path) or '(top level)'}"
              f" | pages {','.join(map(str, clause.pages))} | chars {clause.span[0]}-"
              f"{clause.span[1]}"),
        highlight=False, markup=False,
    )
    console.print(plain(_types_line(detail)), highlight=False, markup=False)
    console.print(plain(clause.text), highlight=False, markup=False)
    for title, edges in (("outgoing", detail.outgoing), ("incoming", detail.incoming)):
        for edge in edges:
            other = edge.target if title == "outgoing" else edge.source
            console.print(
                plain(f"  {title:8} {edge.type.value:11} {other}  ({edge.confidence:.2f}, "
                      f"{edge.rule_id})"),
                highlight=False, markup=False,
            )


def _types_line(detail: ClauseDetail) -> str:
    """The clause's CUAD types with probabilities, or why it has none."""
    if detail.clause_types_note:
        return f"types: {detail.clause_types_note}"
    types = detail.clause.clause_types
    if not types:
        return f"types: none at or above {STORED_TYPE_FLOOR:.2f}"
    return "types: " + ", ".join(f"{t.label} {t.probability:.2f}" for t in types)


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
    console.print(plain(f"index {result.index} ({result.embedding_model})"), highlight=False,
                  markup=False)
    console.print(
        f"{len(result.documents)} documents, {result.clauses} clauses, "
        f"{sum(result.edges_by_type.values())} edges, "
        f"{result.unresolved_references} unresolved references", highlight=False,
    )
    documents = Table(title="Documents (use the id, key or file name with --doc)")
    for column in ("id", "key", "title", "file", "pages", "clauses"):
        documents.add_column(column, overflow="fold",
                             justify="right" if column in ("pages", "clauses") else "left")
    for entry in result.documents:
        documents.add_row(entry["doc_id"], entry["key"], entry["title"],
                          Path(entry["source_path"]).name, str(entry["pages"]),
                          str(entry["clauses"]))
    console.print(documents)
    if result.cut_by_other_segmenter:
        console.print(plain(
            f"{len(result.cut_by_other_segmenter)} of {len(result.documents)} documents were "
            f"cut into clauses by other ClauseGraph code than this version "
            f"({result.segmenter}): remove and ingest them again to cut them with it"),
            highlight=False, markup=False)
    table = Table()
    table.add_column("edge type")
    table.add_column("count", justify="right")
    for name, count in result.edges_by_type.items():
        table.add_row(markup(name), str(count))
    console.print(table)


