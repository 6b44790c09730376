"""Access tokens, workspaces, sessions and response headers.

With no token configured the app serves one workspace to anyone who can reach it, which
``clausegraph serve`` allows only on a loopback address (and then checks the Host header,
so a web page elsewhere cannot reach the app through DNS rebinding). With tokens, every
page and API call needs one: ``Authorization: Bearer <token>``, or the cookie set when a
page is opened once as ``/?token=<token>``. Each token maps to its workspace.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

TOKEN_COOKIE = "cg_token"
SESSION_COOKIE = "cg_session"
# The session's question history is kept on the server (web/history.py); a cookie that
# outlives the browser finds it again after a browser restart. Each page visit renews it.
SESSION_MAX_AGE = 30 * 24 * 3600
WORKSPACE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")

# No inline script or style anywhere; images only from the app itself (page renders).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'; object-src 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}

_UNAUTHORISED_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>ClauseGraph: access token needed</title><link rel="stylesheet" href="/static/app.css">
</head><body><main class="narrow"><h1>Access token needed</h1>
<p>This ClauseGraph server needs an access token. Open the link the server printed,
of the form <code>/?token=...</code>, or send <code>Authorization: Bearer ...</code>.</p>
</main></body></html>"""


def parse_workspaces(pairs: list[str]) -> dict[str, str]:
    """``["team-a=TOKEN", ...]`` -> ``{TOKEN: "team-a"}``, with clear errors."""
    tokens: dict[str, str] = {}
    for pair in pairs:
        name, sep, token = pair.partition("=")
        if not sep or not token:
            raise ValueError(f"--workspace {pair!r}: use NAME=TOKEN")
        if not WORKSPACE_NAME.match(name):
            raise ValueError(f"--workspace {name!r}: names are 1-40 letters, digits, - or _")
        if len(token) < 16:
            raise ValueError(f"--workspace {name}: the token must be at least 16 characters")
        tokens[token] = name
    return tokens


def is_loopback(host: str) -> bool:
    return host in LOOPBACK_HOSTS or host.startswith("127.")


class AccessGuard:
    """ASGI-level check of token, host and origin; sets the workspace and session."""

    def __init__(self, tokens: Mapping[str, str], allowed_hosts: list[str] | None) -> None:
        self.tokens = dict(tokens)
        self.allowed_hosts = allowed_hosts

    def workspace_for(self, token: str | None) -> str | None:
        if not token:
            return None
        for known, workspace in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                return workspace
        return None

    async def __call__(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await self._guarded(request, call_next)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    async def _guarded(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        host = (request.headers.get("host") or "").rsplit(":", 1)[0]
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            return JSONResponse({"detail": f"host {host!r} is not served here"}, 400)
        origin = request.headers.get("origin")
        if request.method not in ("GET", "HEAD", "OPTIONS") and origin:
            if origin.split("://", 1)[-1] != request.headers.get("host"):
                return JSONResponse({"detail": "cross-origin request refused"}, 403)
        workspace = "default"
        if request.url.path.startswith("/static/"):  # the app's own CSS/JS: no data in it
            return await call_next(request)
        query_token = request.query_params.get("token")
        if self.tokens:
            token = _bearer(request) or query_token or request.cookies.get(TOKEN_COOKIE)
            found = self.workspace_for(token)
            if found is None:
                return _unauthorised(request)
            workspace = found
            if query_token and request.method == "GET":
                # Keep the token out of the address bar, history and logs from here on.
                params = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
                target = request.url.path + ("?" + urlencode(params) if params else "")
                response: Response = RedirectResponse(target, status_code=303)
                response.set_cookie(TOKEN_COOKIE, query_token, httponly=True, samesite="strict",
                                    secure=request.url.scheme == "https")
                return response
        request.state.workspace = workspace
        session = request.cookies.get(SESSION_COOKIE)
        new_session = not session or len(session) != 32
        if new_session:
            session = secrets.token_hex(16)
        request.state.session = f"{workspace}/{session}"
        response = await call_next(request)
        if new_session or not request.url.path.startswith("/api/"):
            response.set_cookie(SESSION_COOKIE, session, max_age=SESSION_MAX_AGE, httponly=True,
                                samesite="strict", secure=request.url.scheme == "https")
        return response


def _bearer(request: Request) -> str | None:
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _unauthorised(request: Request) -> Response:
    headers = {"WWW-Authenticate": "Bearer"}
    if request.url.path.startswith(("/api/", "/openapi.json")):
        return JSONResponse({"detail": "missing or wrong access token"}, 401, headers=headers)
    return HTMLResponse(_UNAUTHORISED_PAGE, 401, headers=headers)
