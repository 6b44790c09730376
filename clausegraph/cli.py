"""Command line: a thin layer over :class:`clausegraph.api.ClauseGraph`.

Every read command takes ``--json``; errors are one line on stderr and a non-zero exit.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from clausegraph.config import DATASET_DIR, SAMPLE_QUESTION, Settings
from clausegraph.errors import ClauseGraphError
from clausegraph.text.safe import markup, plain, visible

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="ClauseGraph: cited, clause-graph-aware answers over contracts and policies.",
)
console = Console()
# Errors are never wrapped: they name files, and a path cut across lines cannot be copied.
err_console = Console(stderr=True, soft_wrap=True)

IndexOption = Annotated[
    Path,
    typer.Option("--index", "-i", envvar="CLAUSEGRAPH_INDEX", help="index directory"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="print machine-readable JSON")]
SetOption = Annotated[
    Optional[list[str]],
    typer.Option("--set", help="override a setting, e.g. --set retrieval.hops=2 (repeatable)"),
]
TopKOption = Annotated[Optional[int], typer.Option(help="clauses to return")]
HopsOption = Annotated[Optional[int], typer.Option(help="graph expansion depth")]
DocOption = Annotated[
    Optional[list[str]], typer.Option("--doc", help="limit to a document (repeatable)")
]
StrategyOption = Annotated[
    str, typer.Option("--strategy", help="retrieval strategy: clausegraph (default), dense, bm25, "
                      "hybrid, causal, causal-search, e2rag, lesegr, ablations")
]
DEFAULT_INDEX = Path(".clausegraph-index")
LLMOption = Annotated[
    Optional[str],
    typer.Option("--llm", help="answer with a language model: gemini | openai | none "
                 "(default: none = extractive, or CLAUSEGRAPH_LLM_PROVIDER)"),
]
ModelOption = Annotated[
    Optional[str],
    typer.Option("--model", help="LLM model (default gemini-2.5-flash / gpt-4.1-mini)"),
]
BaseUrlOption = Annotated[
    Optional[str],
    typer.Option("--base-url", help="LLM endpoint, e.g. http://localhost:11434/v1 (Ollama)"),
]


WaitOption = Annotated[
    Optional[float],
    typer.Option("--wait", help="seconds to wait for another process writing the same index "
                 "(default 300)"),
]


def _fail(message: str, code: int = 2) -> None:
    _error(message)
    raise typer.Exit(code)


def _error(message: str) -> None:
    """One line on stderr; the message names user files, so it is never markup."""
    err_console.print(f"[bold red]error:[/] {markup(visible(message))}", highlight=False)


def _warn(message: str) -> None:
    err_console.print(f"[bold yellow]warning:[/] {markup(visible(message))}", highlight=False)


def _waiting(message: str) -> None:
    err_console.print(f"[yellow]{markup(message)}[/] ...", highlight=False)


def _with_wait(overrides: list[str] | None, wait: float | None) -> list[str]:
    return [*(overrides or []), *([f"ingest.lock_wait_seconds={wait}"] if wait is not None else [])]


def _settings(overrides: list[str] | None) -> Settings:
    try:
        return Settings().with_overrides(overrides or [])
    except ValueError as exc:
        _fail(_first_error(exc))
    raise AssertionError("unreachable")


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        return f"invalid setting {'.'.join(map(str, first['loc']))}: {first['msg']}"
    return str(exc).splitlines()[0]


def _open(index: Path, overrides: list[str] | None, create: bool = False,
          llm: dict[str, str | None] | None = None):
    from clausegraph.api import ClauseGraph

    return ClauseGraph.open(index, _with_llm(_settings(overrides), llm or {}), create=create)


def _with_llm(settings: Settings, flags: dict[str, str | None]) -> Settings:
    """``settings`` with --llm/--model/--base-url applied (validated)."""
    updates = {k: v for k, v in flags.items() if v is not None}
    if not updates:
        return settings
    from clausegraph.llm import LLMConfig

    try:
        llm = LLMConfig.model_validate({**settings.llm.model_dump(), **updates})
    except ValueError as exc:
        _fail(_first_error(exc))
        raise AssertionError("unreachable") from exc
    return settings.model_copy(update={"llm": llm})


def _print_json(data: Any) -> None:
    # json escapes C0 controls but not C1 (0x9b is a CSI to some terminals) or bidi overrides.
    text = json.dumps(data, indent=2, ensure_ascii=False)
    sys.stdout.write(_JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


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
    wait: WaitOption = None,
) -> None:
    """Add documents to the index (unchanged files are skipped)."""
    try:
        graph = _open(index, _with_wait(set_, wait), create=True,
                      llm={"provider": llm, "model": model, "base_url": base_url})
        with Progress(
            TextColumn("[progress.description]{task.description}"), BarColumn(),
            MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
            disable=json_output or not err_console.is_terminal,
        ) as progress:
            task = progress.add_task("ingesting", total=None)

            def report(name: str, done: int, total: int) -> None:
                progress.update(task, description=markup(visible(f"ingesting {name}")[:60]),
                                completed=done, total=total)

            result = graph.ingest(paths, progress=report, llm_relations=llm_relations,
                                  on_wait=_waiting)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json([o.model_dump() for o in result.outcomes])
    else:
        _print_ingest_table(result)
    for outcome in result.outcomes:
        for warning in outcome.warnings:
            _warn(warning)
    for outcome in result.failed:
        _error(outcome.error or outcome.path)
    if result.failed:
        raise typer.Exit(1)


def _print_ingest_table(result: Any) -> None:
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
        from clausegraph.generate import ClaimStream

        claims = ClaimStream()

        def on_chunk(chunk: str) -> None:
            for text in claims.feed(chunk):
                err_console.print(f"  ... {plain(text)}", highlight=False, markup=False)

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
    _print_answer(answer)


def _print_answer(answer: Any) -> None:
    # Printed as its Markdown source: rendered Markdown would drop inline HTML from a
    # document and turn its links into live terminal hyperlinks.
    console.print(plain(answer.answer), highlight=False, markup=False)
    verification = getattr(answer, "verification", None)
    if verification is not None:
        colour = {"verified": "green", "warnings": "yellow", "failed": "red"}.get(
            verification.verdict, "white")
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
    console.print(plain(clause.text), highlight=False, markup=False)
    for title, edges in (("outgoing", detail.outgoing), ("incoming", detail.incoming)):
        for edge in edges:
            other = edge.target if title == "outgoing" else edge.source
            console.print(
                plain(f"  {title:8} {edge.type.value:11} {other}  ({edge.confidence:.2f}, "
                      f"{edge.rule_id})"),
                highlight=False, markup=False,
            )


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
    table = Table()
    table.add_column("edge type")
    table.add_column("count", justify="right")
    for name, count in result.edges_by_type.items():
        table.add_row(markup(name), str(count))
    console.print(table)


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
        result = graph.report(question, documents=document, strategy=strategy, top_k=top_k,
                              hops=hops)
        written = reports.write_report(result, target, chosen)
    except (ClauseGraphError, ValueError, OSError) as exc:
        _fail(_first_error(exc) if isinstance(exc, ValueError) else str(exc))
        return
    console.print(plain(f"{written}  ({result.verification.summary()})"), highlight=False,
                  markup=False)


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
            console.print(plain(f"Ingesting the bundled sample contracts in {DATASET_DIR} ..."),
                          highlight=False, markup=False)
        result = graph.ingest([DATASET_DIR])
        answer = graph.ask(question)
    except ClauseGraphError as exc:
        _fail(str(exc))
        return
    if json_output:
        _print_json(answer.model_dump(mode="json"))
        return
    _print_ingest_table(result)
    console.print(f"\n[bold]Question:[/] {markup(question)}\n", highlight=False)
    _print_answer(answer)


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                      "help_option_names": []},
    add_help_option=False,
)
def evaluate(ctx: typer.Context) -> None:
    """Benchmark retrieval strategies: LegalBench-RAG precision/recall@k, or Recall@5/nDCG/MRR
    on docs/dataset (--dataset). All options: clausegraph evaluate --help."""
    from clausegraph.evaluate import main as evaluate_main

    raise typer.Exit(evaluate_main(list(ctx.args), prog="clausegraph evaluate"))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
