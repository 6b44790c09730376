"""Command line: a thin layer over :class:`clausegraph.api.ClauseGraph`.

One typer app (``common.app``); each module registers the commands of one group.
"""

from clausegraph.cli import (  # noqa: F401  (registers)
    ask,
    compare,
    demo,
    evaluate,
    ingest,
    report,
    review,
    serve,
    show,
)
from clausegraph.cli.common import app


def main() -> None:
    app()


if __name__ == "__main__":
    main()
