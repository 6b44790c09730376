"""The app factory: ``create_app(index)`` returns the FastAPI app (pages + /api/v1)."""

from __future__ import annotations

import importlib.util
import logging
import mimetypes
from collections.abc import Mapping
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from clausegraph import __version__
from clausegraph.config import Settings
from clausegraph.errors import ClauseGraphError, NotFoundError
from clausegraph.web.api_routes import MAX_QUESTION_CHARS
from clausegraph.web.api_routes import router as api_router
from clausegraph.web.messages import for_web_user, validation_message
from clausegraph.web.pool import single_threaded_blas
from clausegraph.web.security import AccessGuard
from clausegraph.web.service import BusyError, GraphService
from clausegraph.web.uploads import UploadLimits

HERE = Path(__file__).parent
# PDF.js is an ES module: served as JavaScript even where the system's MIME list lacks .mjs
mimetypes.add_type("text/javascript", ".mjs")
log = logging.getLogger("clausegraph.web")
PAGES = {"ask": "Ask", "documents": "Documents", "compare": "Compare", "history": "History"}


def create_app(
    index: str | Path,
    *,
    settings: Settings | None = None,
    tokens: Mapping[str, str] | None = None,
    allowed_hosts: list[str] | None = None,
    limits: UploadLimits | None = None,
    uploads: str | Path | None = None,
    warm: bool = True,
    torch_threads: int | None = 1,
    workers: int = 1,
) -> FastAPI:
    """The app over the index at ``index``.

    ``tokens`` maps each access token to its workspace (empty: no token needed, one
    workspace); ``allowed_hosts`` limits the Host header (set for loopback serving).
    ``warm`` loads the model and index and answers one question before returning.
    ``torch_threads`` caps PyTorch's threads: a question embeds one short query, and
    requests already run in parallel threads, so intra-op threads only contend (on a
    busy 2-core machine a warm ask took 1.86 s with 2 threads, 0.11 s with 1; docs/web.md).
    ``workers`` > 1 answers offline questions in that many processes (web/pool.py); the
    app's shutdown stops them.
    """
    if torch_threads and importlib.util.find_spec("torch"):  # only the [torch] backend has it
        import torch

        torch.set_num_threads(torch_threads)
    single_threaded_blas()
    service = GraphService(index, settings, workspaces=sorted(set((tokens or {}).values())),
                           uploads=uploads, limits=limits, workers=workers)
    if warm:
        service.warm()
    app = FastAPI(title="ClauseGraph", version=__version__, docs_url=None, redoc_url=None,
                  description="Question answering over contracts and policies with cited, "
                  "grouped evidence (definitions, base rules, exceptions) and the clause chain.")
    app.state.service = service
    app.router.add_event_handler("shutdown", service.close)
    app.middleware("http")(AccessGuard(tokens or {}, allowed_hosts))
    _add_error_handlers(app)
    app.include_router(api_router)
    _mount_swagger(app)  # before /static, which would otherwise shadow /static/swagger
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _add_pages(app)
    _add_review_page(app)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    def detail(exc: Exception) -> str:
        return for_web_user(str(exc))

    @app.exception_handler(NotFoundError)
    async def not_found(request: Request, exc: NotFoundError) -> JSONResponse:
        return JSONResponse({"detail": detail(exc)}, 404)

    @app.exception_handler(BusyError)
    async def busy(request: Request, exc: BusyError) -> JSONResponse:
        return JSONResponse({"detail": detail(exc)}, 409)

    @app.exception_handler(ClauseGraphError)
    async def bad_request(request: Request, exc: ClauseGraphError) -> JSONResponse:
        return JSONResponse({"detail": detail(exc)}, 400)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_message(exc.errors())}, 422)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed: %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "internal error"}, 500)


def _add_pages(app: FastAPI) -> None:
    templates = Jinja2Templates(directory=HERE / "templates")  # autoescapes .html

    def page(name: str):  # noqa: ANN202 - a route function
        def render(request: Request) -> HTMLResponse:
            return templates.TemplateResponse(request, f"{name}.html", {
                "page": name, "pages": PAGES, "version": __version__,
                "workspace": request.state.workspace, "max_question": MAX_QUESTION_CHARS,
            })

        render.__name__ = f"{name}_page"
        return render

    app.get("/", response_class=HTMLResponse, include_in_schema=False)(page("ask"))
    for name in ("documents", "compare", "history"):
        app.get(f"/{name}", response_class=HTMLResponse, include_in_schema=False)(page(name))
    app.get("/docs", response_class=HTMLResponse, include_in_schema=False)(page("docs"))


def _add_review_page(app: FastAPI) -> None:
    """A checklist page per document: CUAD's 41 categories, found or not, with the clause
    and the normalised answer (drawn on the server from the review API)."""
    from clausegraph.report.review import CAVEAT, item_values
    from clausegraph.web.api_routes import document_review

    templates = Jinja2Templates(directory=HERE / "templates")  # autoescapes .html

    @app.get("/documents/{doc_id}/review", response_class=HTMLResponse, include_in_schema=False)
    def review_page(request: Request, doc_id: str) -> HTMLResponse:
        review = document_review(request, doc_id)
        rows = [(item, item_values(item)) for item in review.items]
        return templates.TemplateResponse(request, "review.html", {
            "page": "documents", "pages": PAGES, "version": __version__,
            "workspace": request.state.workspace, "review": review, "rows": rows,
            "caveat": CAVEAT,
        })


def _mount_swagger(app: FastAPI) -> None:
    """Swagger UI from the swagger-ui-py package (Apache-2.0, its LICENSE is served beside
    it): served from the installed package, nothing fetched at run time."""
    try:
        import swagger_ui
    except ImportError:  # the docs page still links /openapi.json
        return
    static = Path(swagger_ui.__file__).parent / "static"
    app.mount("/static/swagger", StaticFiles(directory=static), name="swagger")
