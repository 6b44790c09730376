"""`clausegraph serve`: the web app and HTTP API over one index (``clausegraph.web``)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from clausegraph.cli.common import SetOption, _fail, _settings, app, console
from clausegraph.errors import ClauseGraphError
from clausegraph.text.safe import plain


@app.command()
def serve(
    index: Annotated[str, typer.Option("--index", "-i", envvar="CLAUSEGRAPH_INDEX",
                                       help="index directory or postgresql:// URL")
                     ] = ".clausegraph-index",
    host: Annotated[str, typer.Option(help="address to bind; other than loopback needs --token")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8000,
    token: Annotated[Optional[str], typer.Option(
        envvar="CLAUSEGRAPH_TOKEN", help="access token for every page and API call")] = None,
    workspace: Annotated[Optional[list[str]], typer.Option(
        "--workspace", help="NAME=TOKEN: a token that sees only its own workspace's documents "
        "(repeatable; folder indexes)")] = None,
    max_upload_mb: Annotated[int, typer.Option(help="largest file an upload may hold")] = 50,
    max_files: Annotated[int, typer.Option(help="most files per upload")] = 20,
    uploads: Annotated[Optional[str], typer.Option(
        help="folder for uploaded files (default: INDEX/.uploads)")] = None,
    workers: Annotated[Optional[int], typer.Option(
        min=1, help="processes answering offline questions (default: one per core, at most "
        "4; 1 = the server process alone)")] = None,
    overrides: SetOption = None,
) -> None:
    """Serve the web app (Ask, Documents, Compare, History) and the API at /api/v1."""
    try:
        from clausegraph.web.server import serve as run
    except ImportError as exc:
        _fail(f"the web app needs its extra: pip install 'clausegraph[web]' ({exc.name} is missing)")
        return
    try:
        run(index, host=host, port=port, token=token, workspaces=workspace or [],
            settings=_settings(overrides), max_upload_mb=max_upload_mb, max_files=max_files,
            uploads=uploads, workers=workers,
            announce=lambda text: console.print(plain(text), highlight=False, markup=False,
                                               soft_wrap=True))
    except ClauseGraphError as exc:
        _fail(str(exc))
