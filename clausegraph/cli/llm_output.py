"""What the CLI shows while a language model answers: a spinner with the elapsed time,
the reply as it streams, warnings, and the exit code (``--strict``).

Everything goes to stderr, so ``--json`` output on stdout stays parseable.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from clausegraph.text.safe import plain

EXIT_OK = 0
EXIT_VERIFICATION_FAILED = 1
EXIT_LLM_FAILED = 2


class Waiting:
    """The spinner of one call; ``stop()`` hides it (when the reply starts streaming)."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


@contextmanager
def waiting(console: Console, provider: Any, quiet: bool) -> Iterator[Waiting]:
    """A transient 'answering with <model> 0:00:12' spinner on ``console`` while the body
    runs; nothing when there is no model, with ``quiet`` (--json) or off a terminal."""
    if provider is None or quiet or not console.is_terminal:
        yield Waiting(None)
        return
    where = provider.config.base_url or provider.name
    progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                        console=console, transient=True)
    progress.add_task(f"waiting for the language model at {where}", total=None)
    progress.start()
    status = Waiting(progress)
    try:
        yield status
    finally:
        status.stop()


def reply_printer(console: Console, status: Waiting, as_json: bool) -> Callable[[str], None]:
    """``on_chunk`` for ``--stream``: the claim texts as they arrive on stderr, or (with
    ``--json``) every raw chunk as a JSON line on stdout."""
    if as_json:
        def emit(chunk: str) -> None:
            sys.stdout.write(json.dumps({"event": "chunk", "text": chunk}) + "\n")
            sys.stdout.flush()

        return emit

    from clausegraph.answer.generate import ClaimStream

    claims = ClaimStream()

    def show(chunk: str) -> None:
        status.stop()
        text = claims.feed_text(chunk)
        if text:
            console.out(plain(text), end="", highlight=False)
            console.file.flush()

    return show


def print_warnings(console: Console, answer: Any) -> None:
    """Each warning on one line (their text may hold '[clause ids]': printed as is)."""
    for warning in getattr(answer, "warnings", []) or []:
        console.print(Text.assemble(("warning: ", "bold yellow"), plain(warning)), highlight=False)


def exit_code(answer: Any, strict: bool) -> int:
    """0, or with ``--strict``: 2 when the model's answer was replaced by the offline one
    (the LLM error itself exits 2 before this), 1 when verification failed."""
    if not strict:
        return EXIT_OK
    if getattr(answer, "mode", "") == "extractive-fallback":
        return EXIT_LLM_FAILED
    verification = getattr(answer, "verification", None)
    if verification is not None and verification.verdict == "failed":
        return EXIT_VERIFICATION_FAILED
    return EXIT_OK
