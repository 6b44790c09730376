"""`clausegraph report`: audit reports for one question or a batch."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from clausegraph.cli.common import (
    DEFAULT_INDEX,
    BaseUrlOption,
    DocOption,
    HopsOption,
    IndexOption,
    LLMOption,
    ModelOption,
    SetOption,
    StrategyOption,
    TopKOption,
    _fail,
    _first_error,
    _open,
    app,
    console,
    err_console,
)
from clausegraph.errors import ClauseGraphError


@app.command()
def report(
    question: Annotated[
        Optional[str], typer.Argument(help="the question (or use --questions)")
    ] = None,
    index: IndexOption = DEFAULT_INDEX,
    fmt: Annotated[Optional[str], typer.Option("--format", "-f", help="md | html | pdf | json "
                                               "(default: from -o, else html)")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="report file")] = None,
    questions: Annotated[
        Optional[Path], typer.Option("--questions", help="CSV (column 'question') or YAML file")
    ] = None,
    out_dir: Annotated[
        Optional[Path], typer.Option("--out-dir", help="folder for --questions")
    ] = None,
    formats: Annotated[
        str, typer.Option(help="formats for --questions, comma-separated")
    ] = "html,md,json",
    check: Annotated[
        Optional[Path], typer.Option("--check", help="re-derive the evidence of a JSON report")
    ] = None,
    set_: SetOption = None,
    top_k: TopKOption = None,
    hops: HopsOption = None,
    document: DocOption = None,
    strategy: StrategyOption = "clausegraph",
    llm: LLMOption = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
) -> None:
    """Write an audit report (Markdown, HTML, PDF or JSON) for a question or a list of them."""
    from clausegraph import report as reports

    try:
        graph = _open(index, set_, llm={"provider": llm, "model": model, "base_url": base_url})
        if check is not None:
            result = reports.rederive_check(check, graph)
            if result.same:
                console.print(f"{check}: the same evidence was re-derived", highlight=False)
            else:
                err_console.print(f"{check}: the evidence differs", highlight=False)
                for problem in result.problems:
                    err_console.print(f"  {problem}", highlight=False, markup=False)
            raise typer.Exit(0 if result.same else 1)
        if questions is not None:
            batch = reports.write_batch(
                questions, graph, out_dir or Path("reports"),
                formats=[f.strip() for f in formats.split(",") if f.strip()],
                documents=document, strategy=strategy, top_k=top_k, hops=hops,
            )
            for entry in batch.entries:
                status = entry.error or entry.verdict
                console.print(f"{entry.id:>6}  {status:9}  {entry.question}", highlight=False,
                              markup=False)
            console.print(f"index: {Path(batch.out_dir) / batch.index_files['html']}",
                          highlight=False)
            raise typer.Exit(1 if batch.failed else 0)
        if not question:
            _fail("give a QUESTION, --questions FILE or --check REPORT.json")
        chosen = (fmt or (output.suffix.lstrip(".") if output else "html")).lower()
        target = output or Path(f"report.{chosen}")
        result = graph.report(question, documents=document, strategy=strategy, top_k=top_k,
                              hops=hops)
        written = reports.write_report(result, target, chosen)
    except (ClauseGraphError, ValueError, OSError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    console.print(f"{written}  ({result.verification.summary()})", highlight=False)


