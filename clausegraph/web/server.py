"""Starting the app: the checks ``clausegraph serve`` makes before it binds a port."""

from __future__ import annotations

from pathlib import Path

from clausegraph.config import Settings
from clausegraph.errors import ClauseGraphError
from clausegraph.web.security import LOOPBACK_HOSTS, is_loopback, parse_workspaces

MIN_TOKEN_CHARS = 16


def access_tokens(host: str, token: str | None, workspaces: list[str]) -> dict[str, str]:
    """Token -> workspace, refusing to serve another host without a token."""
    try:
        tokens = parse_workspaces(workspaces)
    except ValueError as exc:
        raise ClauseGraphError(str(exc)) from exc
    if token:
        if len(token) < MIN_TOKEN_CHARS:
            raise ClauseGraphError(f"the access token must be at least {MIN_TOKEN_CHARS} "
                                   "characters (try: python -c 'import secrets; "
                                   "print(secrets.token_urlsafe(24))')")
        tokens[token] = "default"
    if not tokens and not is_loopback(host):
        raise ClauseGraphError(
            f"serving on {host} exposes the documents to the network: give an access token "
            "with --token or CLAUSEGRAPH_TOKEN (or serve on 127.0.0.1)"
        )
    return tokens


def serve(
    index: str | Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    token: str | None = None,
    workspaces: list[str] | None = None,
    settings: Settings | None = None,
    max_upload_mb: int = 50,
    max_files: int = 20,
    uploads: str | Path | None = None,
    workers: int | None = None,
    announce=print,  # noqa: ANN001 - a print-like callable
) -> None:
    """Load the model and index, then serve until interrupted. ``workers``: processes
    answering offline questions (default: one per core, web/pool.py; 1 = in this process)."""
    import uvicorn

    from clausegraph.web.app import create_app
    from clausegraph.web.pool import default_workers
    from clausegraph.web.uploads import MB, UploadLimits

    tokens = access_tokens(host, token, workspaces or [])
    # Without a token, only requests naming this machine are served (DNS rebinding).
    allowed = None if tokens else [*LOOPBACK_HOSTS, host]
    announce(f"Loading the model and the index {index} ...")
    app = create_app(index, settings=settings, tokens=tokens, allowed_hosts=allowed,
                     limits=UploadLimits(max_file_bytes=max_upload_mb * MB, max_files=max_files),
                     uploads=uploads, workers=default_workers() if workers is None else workers)
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    announce(f"ClauseGraph is ready: open {address}"
             + (" with ?token=<your token> once" if tokens else "")
             + f"  (API docs: {address}docs; Ctrl+C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
