"""`clausegraph demo`: the bundled contracts, one sample question, a cited answer."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clausegraph.cli.ask import print_answer
from clausegraph.cli.common import (
    JsonOption,
    _fail,
    _open,
    _print_json,
    app,
    console,
)
from clausegraph.cli.ingest import print_ingest_table
from clausegraph.config import DATASET_DIR, SAMPLE_QUESTION
from clausegraph.errors import ClauseGraphError
from clausegraph.text.safe import markup, plain


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
    print_ingest_table(result)
    console.print(f"\n[bold]Question:[/] {markup(question)}\n", highlight=False)
    print_answer(answer)
    console.print(plain(f"\nAsk more in the web app: clausegraph serve --index {index}  "
                        "(needs: pip install -e '.[web]')"),
                  highlight=False, markup=False, soft_wrap=True)


