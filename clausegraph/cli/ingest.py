"""`clausegraph ingest` and `clausegraph remove`: documents in and out of an index."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    WaitOption,
    _error,
    _fail,
    _open,
    _print_json,
    _waiting,
    _warn,
    _with_wait,
    app,
    console,
    err_console,
)
from clausegraph.errors import ClauseGraphError
from clausegraph.text.safe import markup, plain, visible

ReembedOption = Annotated[
    bool, typer.Option("--reembed", help="first re-embed the clauses already in the index with "
                       "the configured model (after a model change)")
]


@app.command()
def ingest(
    paths: Annotated[
        list[Path], typer.Argument(help="PDF, Word (.docx), HTML, .txt or .md files or folders")
    ],
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
    set_: SetOption = None,
    llm_relations: Annotated[
        bool, typer.Option("--llm-relations", help="also ask the LLM for typed edges (cached)")
    ] = False,
    no_ocr: Annotated[
        bool, typer.Option("--no-ocr", help="do not OCR scanned PDF pages (ingest.ocr=false)")
    ] = False,
    llm: LLMOption = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
    wait: WaitOption = None,
    reembed_first: ReembedOption = False,
) -> None:
    """Add documents to the index (unchanged files are skipped)."""
    if no_ocr:
        set_ = [*(set_ or []), "ingest.ocr=false"]
    try:
        graph = _open(index, _with_wait(set_, wait), create=True,
                      llm={"provider": llm, "model": model, "base_url": base_url})
        with _progress(json_output) as report:
            if reembed_first and graph.store.exists():
                graph.reembed(progress=report("re-embedding"))
            result = graph.ingest(paths, progress=report("ingesting"),
                                  llm_relations=llm_relations, on_wait=_waiting)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json([o.model_dump() for o in result.outcomes])
    else:
        print_ingest_table(result)
    for outcome in result.outcomes:
        for warning in outcome.warnings:
            _warn(warning)
    for outcome in result.failed:
        _error(outcome.error or outcome.path)
    if result.failed:
        raise typer.Exit(1)


@app.command()
def reembed(
    index: IndexOption = DEFAULT_INDEX,
    json_output: JsonOption = False,
    set_: SetOption = None,
) -> None:
    """Embed every clause of the index again with the configured model (after a model change)
    and type every clause again (an index from before clause types gets them; vectors that
    already come from the configured model are kept)."""
    try:
        graph = _open(index, set_)
        with _progress(json_output) as report:
            clauses = graph.reembed(progress=report("re-embedding"))
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    result = {"index": graph.store.location, "clauses": clauses,
              "embedding_model": graph.embedder.name,
              "embedding_fingerprint": graph.embedder.fingerprint,
              "clause_types": graph.clause_type_model}
    if json_output:
        _print_json(result)
    else:
        console.print(f"{clauses} clauses of {result['index']}: vectors from "
                      f"{result['embedding_model']}, clause types from "
                      f"{result['clause_types'] or '(none: not fitted on this encoder)'}",
                      highlight=False)


@contextmanager
def _progress(json_output: bool) -> Iterator[Callable[[str], Callable[[str, int, int], None]]]:
    """A progress bar on stderr (terminals only); ``report(verb)`` makes its callback."""
    with Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(),
        MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
        disable=json_output or not err_console.is_terminal,
    ) as progress:
        task = progress.add_task("", total=None)

        def report(verb: str) -> Callable[[str, int, int], None]:
            def update(name: str, done: int, total: int) -> None:
                progress.update(task, description=markup(visible(f"{verb} {name}")[:60]),
                                completed=done, total=total)
            return update

        yield report


def print_ingest_table(result: Any) -> None:
    table = Table(title="Ingest")
    for column in ("file", "status", "pages", "clauses", "edges", "unresolved refs", "seconds"):
        table.add_column(column)
    for o in result.outcomes:
        table.add_row(
            markup(visible(Path(o.path).name)[:60]),
            markup(visible(f"{o.status} (same as {Path(o.same_as).name})" if o.same_as
                           else o.status)),
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
    wait: WaitOption = None,
) -> None:
    """Remove a document from the index."""
    try:
        removed = _open(index, _with_wait(None, wait)).remove(document, on_wait=_waiting)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json({"removed": removed})
    else:
        console.print(plain(f"removed {', '.join(removed)}"), highlight=False, markup=False)


