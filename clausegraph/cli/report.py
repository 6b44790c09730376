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
    StrictOption,
    TimeoutOption,
    TopKOption,
    _fail,
    _first_error,
    _open,
    app,
    console,
    err_console,
)
from clausegraph.errors import ClauseGraphError
from clausegraph.text.safe import plain


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
    timeout: TimeoutOption = None,
    strict: StrictOption = False,
) -> None:
    """Write an audit report (Markdown, HTML, PDF or JSON) for a question or a list of them."""
    from clausegraph import report as reports
    from clausegraph.cli.llm_output import exit_code, print_warnings, waiting

    try:
        graph = _open(index, set_, llm={"provider": llm, "model": model, "base_url": base_url,
                                        "timeout": timeout})
        if check is not None:
            result = reports.rederive_check(check, graph)
            if result.same:
                console.print(plain(f"{check}: the same evidence was re-derived"),
                              highlight=False, markup=False)
            else:
                err_console.print(plain(f"{check}: the evidence differs"), highlight=False,
                                  markup=False)
                for problem in result.problems:
                    err_console.print(plain(f"  {problem}"), highlight=False, markup=False)
            raise typer.Exit(0 if result.same else 1)
        if questions is not None:
            batch = reports.write_batch(
                questions, graph, out_dir or Path("reports"),
                formats=[f.strip() for f in formats.split(",") if f.strip()],
                documents=document, strategy=strategy, top_k=top_k, hops=hops,
            )
            for entry in batch.entries:
                status = entry.error or entry.verdict
                console.print(plain(f"{entry.id:>6}  {status:9}  {entry.question}"),
                              highlight=False, markup=False)
            console.print(plain(f"index: {Path(batch.out_dir) / batch.index_files['html']}"),
                          highlight=False, markup=False)
            raise typer.Exit(1 if batch.failed else 0)
        if not question:
            _fail("give a QUESTION, --questions FILE or --check REPORT.json")
        chosen = (fmt or (output.suffix.lstrip(".") if output else "html")).lower()
        target = output or Path(f"report.{chosen}")
        with waiting(err_console, graph.llm, quiet=False):
            result = graph.report(question, documents=document, strategy=strategy, top_k=top_k,
                                  hops=hops, strict=strict)
        written = reports.write_report(result, target, chosen)
    except (ClauseGraphError, ValueError, OSError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    console.print(plain(f"{written}  ({result.verification.summary()})"), highlight=False,
                  markup=False)
    print_warnings(err_console, result)
    raise typer.Exit(exit_code(result, strict))


