"""Shared pieces of the command line: the typer app, options, consoles and helpers.

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

from clausegraph.config import Settings
from clausegraph.text.safe import markup, visible

app = typer.Typer(
    add_completion=False,
    # docstrings are wrapped at 90 columns in the source: markdown joins a paragraph's lines
    # (the default mode printed them as they break in the source, ragged in a terminal)
    rich_markup_mode="markdown",
    no_args_is_help=True,
    help="ClauseGraph: cited, clause-graph-aware answers over contracts and policies.",
)
console = Console()
# Errors are never wrapped: they name files, and a path cut across lines cannot be copied.
err_console = Console(stderr=True, soft_wrap=True)

IndexOption = Annotated[
    str,
    typer.Option("--index", "-i", envvar="CLAUSEGRAPH_INDEX",
                 help="index folder, or a postgresql:// URL"),
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
DEFAULT_INDEX = ".clausegraph-index"
LLMOption = Annotated[
    Optional[str],
    typer.Option("--llm", help="answer with a language model: gemini | openai | none "
                 "(default: none = extractive, or CLAUSEGRAPH_LLM_PROVIDER)"),
]
ModelOption = Annotated[
    Optional[str],
    typer.Option("--model", help="LLM model (default: gemini-2.5-flash / gpt-4.1-mini; with "
                 "--base-url, the model the server lists in /v1/models)"),
]
BaseUrlOption = Annotated[
    Optional[str],
    typer.Option("--base-url", help="LLM endpoint, e.g. http://localhost:11434/v1 (Ollama)"),
]
TimeoutOption = Annotated[
    Optional[float],
    typer.Option("--timeout", help="seconds to wait for the model's reply (llm.timeout, "
                 "default 300: CPU-hosted models read long prompts slowly); not retried"),
]
StrictOption = Annotated[
    bool,
    typer.Option("--strict", help="exit 2 when the model's answer cannot be used (instead of "
                 "the offline answer with a warning) and 1 when its verification fails"),
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


def _open(index: str | Path, overrides: list[str] | None, create: bool = False,
          llm: dict[str, str | None] | None = None):
    from clausegraph.api import ClauseGraph

    return ClauseGraph.open(index, _with_llm(_settings(overrides), llm or {}), create=create)


def _with_llm(settings: Settings, flags: dict[str, str | None]) -> Settings:
    """``settings`` with --llm/--model/--base-url/--timeout applied (validated)."""
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


