"""The JSON API under /api/v1: a thin layer over ``ClauseGraph`` (same pydantic models)."""

from __future__ import annotations

import json
import logging
import queue
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Query, Request, UploadFile
from fastapi.responses import FileResponse, Response, StreamingResponse
from pydantic import BaseModel, Field

from clausegraph import __version__
from clausegraph.answer.extractive import GROUP_TITLES, GROUPS
from clausegraph.api import ClauseDetail, IndexStats
from clausegraph.errors import ClauseGraphError, NotFoundError
from clausegraph.models import Answer
from clausegraph.review.models import DocumentReview
from clausegraph.store.base import iter_edges
from clausegraph.web.highlight import Highlight, pdf_highlight, render_page_png, text_highlight
from clausegraph.web.history import HistoryEntry
from clausegraph.web.messages import for_web_user
from clausegraph.web.service import (
    Comparison,
    DirectAnswer,
    GraphService,
    IngestJob,
    answer_found,
    direct_answer,
    timed,
)
from clausegraph.web.sets import DocumentSet
from clausegraph.web.uploads import UploadRejected, check_upload, display_name, store_upload

log = logging.getLogger("clausegraph.web")
router = APIRouter(prefix="/api/v1")
ReportFormat = Literal["md", "html", "pdf", "json"]
CompareFormat = Literal["csv", "md", "html"]
COMPARE_MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "md": "text/markdown; charset=utf-8",
                       "html": "text/html; charset=utf-8"}
ORIGINAL_MEDIA_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "html": "application/octet-stream",  # downloaded, not rendered: it is the client's markup
}
MEDIA_TYPES = {"md": "text/markdown; charset=utf-8", "html": "text/html; charset=utf-8",
               "pdf": "application/pdf", "json": "application/json"}
MAX_QUESTION_CHARS = 2000
STREAM_TIMEOUT_SECONDS = 300


# -- models ------------------------------------------------------------------------------


class Health(BaseModel):
    status: str
    version: str
    workspace: str
    documents: int


class DocumentRow(BaseModel):
    doc_id: str
    key: str
    title: str
    file_name: str
    media_type: str
    pages: int
    clauses: int
    edges: int
    edges_by_type: dict[str, int]
    unresolved: int
    ingested_at: str | None = None


class Question(BaseModel):
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    documents: list[str] | None = Field(None, description="doc ids, keys or file names")
    strategy: str = "clausegraph"


class AskResult(BaseModel):
    """An answer with its history id (for the report export) and the short answer."""

    id: str
    seconds: float
    direct: DirectAnswer
    found: bool
    answer: Answer


class Neighbour(BaseModel):
    clause_id: str
    label: str
    heading: str | None
    relation: str
    direction: Literal["outgoing", "incoming"]


class ClauseView(BaseModel):
    detail: ClauseDetail
    label: str
    neighbours: list[Neighbour]
    previous: str | None = None
    next: str | None = None


class Removed(BaseModel):
    removed: list[str]


class DocumentAnswer(BaseModel):
    """One document's answer when several answer equally well."""

    document: str
    text: str
    citation: str | None = None


class HistoryItem(BaseModel):
    id: str
    question: str
    asked_at: str
    seconds: float
    direct_answer: str
    evidence: int
    documents: list[str] | None = Field(None, description="the documents the question "
                                        "was limited to (None: all)")
    by_document: list[DocumentAnswer] = Field(
        default_factory=list, description="each document's answer, when several answer "
        "equally well (``direct_answer`` then joins them)")


# -- helpers -----------------------------------------------------------------------------


def service_of(request: Request) -> GraphService:
    return request.app.state.service


def workspace_of(request: Request) -> str:
    return request.state.workspace


def _ask(request: Request, body: Question) -> tuple[Answer, HistoryEntry]:
    service = service_of(request)
    answer, seconds = timed(service.ask, workspace_of(request), body.question, body.documents,
                            strategy=body.strategy)
    entry = service.remember(workspace_of(request), request.state.session, body.question,
                             body.documents, answer, seconds)
    return answer, entry


def _result(answer: Answer, entry: HistoryEntry) -> AskResult:
    return AskResult(id=entry.id, seconds=entry.seconds, direct=direct_answer(answer),
                     found=answer_found(answer), answer=answer)


# -- health, stats, documents ------------------------------------------------------------


@router.get("/health", response_model=Health)
def health(request: Request) -> Health:
    service = service_of(request)
    return Health(status="ok", version=__version__, workspace=workspace_of(request),
                  documents=len(service.documents(workspace_of(request))))


@router.get("/stats", response_model=IndexStats | None)
def stats(request: Request) -> IndexStats | None:
    workspace = service_of(request).workspace(workspace_of(request))
    return workspace.graph.stats() if workspace.has_index() else None


@router.get("/documents", response_model=list[DocumentRow])
def list_documents(request: Request) -> list[dict[str, Any]]:
    return service_of(request).documents(workspace_of(request))


@router.post("/documents", response_model=IngestJob, status_code=202)
def upload_documents(
    request: Request, files: Annotated[list[UploadFile], File(description="PDF or text files")]
) -> IngestJob:
    """Store the files (checked by content), then ingest them in the background.

    Poll ``/api/v1/jobs/{job_id}`` for per-file progress and errors.
    """
    service = service_of(request)
    workspace = service.workspace(workspace_of(request))
    limits = service.limits
    accepted: list[tuple[str, Path]] = []
    rejected: list[tuple[str, str]] = []
    for position, upload in enumerate(files):
        name = upload.filename or "unnamed file"
        if position >= limits.max_files:
            rejected.append((name, f"{display_name(name)}: over the limit of "
                             f"{limits.max_files} files per upload"))
            continue
        data = upload.file.read(limits.max_file_bytes + 1)
        try:
            suffix = check_upload(name, data, limits)
        except UploadRejected as exc:
            rejected.append((name, str(exc)))
            continue
        path = store_upload(workspace.uploads, name, data, suffix)
        if str(path) not in {str(p) for _, p in accepted}:
            accepted.append((name, path))
    return service.start_ingest(workspace.name, accepted, rejected)


@router.get("/jobs/{job_id}", response_model=IngestJob)
def job_progress(request: Request, job_id: str) -> IngestJob:
    job = service_of(request).job(workspace_of(request), job_id)
    if job is None:
        raise NotFoundError(f"no ingest job {job_id!r}")
    return job


@router.delete("/documents/{doc_id}", response_model=Removed)
def remove_document(request: Request, doc_id: str) -> Removed:
    return Removed(removed=service_of(request).remove(workspace_of(request), doc_id))


@router.get("/documents/{doc_id}/original", response_class=FileResponse)
def download_original(request: Request, doc_id: str) -> FileResponse:
    entry = service_of(request).document_entry(workspace_of(request), doc_id)
    path = Path(entry["source_path"])
    if not path.is_file():
        raise NotFoundError(f"the original of {entry['key']} is no longer where it was indexed")
    media = ORIGINAL_MEDIA_TYPES.get(entry["media_type"], "text/plain; charset=utf-8")
    # an uploaded HTML file is served as an attachment, never rendered on our origin
    return FileResponse(path, media_type=media, filename=path.name,
                        content_disposition_type="attachment")


@router.get("/documents/{doc_id}/pages/{number}.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}})
def page_image(request: Request, doc_id: str, number: int,
               zoom: Annotated[float, Query(ge=0.5, le=3.0)] = 1.5) -> Response:
    entry = service_of(request).document_entry(workspace_of(request), doc_id)
    if entry["media_type"] != "pdf":
        raise ClauseGraphError(f"{entry['key']} is a text document: it has no page images")
    if not Path(entry["source_path"]).is_file():
        raise NotFoundError(f"the original of {entry['key']} is no longer where it was indexed")
    try:
        png = render_page_png(entry["source_path"], number, zoom)
    except IndexError as exc:
        raise NotFoundError(f"{entry['key']}: {exc}") from exc
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=600"})


# -- questions ---------------------------------------------------------------------------


@router.post("/ask", response_model=AskResult)
def ask(request: Request, body: Question) -> AskResult:
    return _result(*_ask(request, body))


class AnswerView(BaseModel):
    """An answer as the Ask page shows it: the stream's ``answer``, ``evidence`` (one per
    group) and ``chain`` events in one record, so a stored answer is shown again (Back,
    Forward, reload, a History link) without asking again."""

    answer: dict[str, Any] = Field(description="the short answer, full text, mode, id, "
                                   "question and the documents it was limited to")
    evidence: list[dict[str, Any]] = Field(description="one entry per group: group, title, "
                                           "clauses (each with its citation)")
    chain: dict[str, Any] = Field(description="links: the chain's typed edges")


def answer_view(entry: HistoryEntry) -> AnswerView:
    answer = entry.answer
    summary = _result(answer, entry).model_dump(mode="json", exclude={"answer"})
    summary.update(question=answer.question, answer=answer.answer, mode=answer.mode,
                   documents=entry.documents)
    evidence = []
    for group in GROUPS:
        clauses = [e.model_dump(mode="json") | {"citation": e.citation()}
                   for e in answer.group(group)]
        evidence.append({"group": group, "title": GROUP_TITLES[group], "clauses": clauses})
    return AnswerView(answer=summary, evidence=evidence,
                      chain={"links": [link.model_dump(mode="json") for link in answer.chain]})


def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@router.get("/ask/stream", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}}}})
def ask_stream(
    request: Request,
    question: Annotated[str, Query(min_length=1, max_length=MAX_QUESTION_CHARS)],
    documents: Annotated[list[str] | None, Query()] = None,
    strategy: str = "clausegraph",
) -> StreamingResponse:
    """Server-sent events: ``chunk`` (LLM text as it streams), ``answer``, one ``evidence``
    event per group (definitions, base rules, exceptions), ``chain``, then ``done``
    (or ``error``)."""
    service = service_of(request)
    workspace, session = workspace_of(request), request.state.session
    events: queue.Queue[str | None] = queue.Queue()

    def run() -> None:
        try:
            answer, seconds = timed(service.ask, workspace, question, documents,
                                    strategy=strategy,
                                    on_chunk=lambda text: events.put(_sse("chunk", {"text": text})))
            entry = service.remember(workspace, session, question, documents, answer, seconds)
            view = answer_view(entry)
            events.put(_sse("answer", view.answer))
            for group in view.evidence:
                events.put(_sse("evidence", group))
            events.put(_sse("chain", view.chain))
            events.put(_sse("done", {"id": entry.id}))
        except ClauseGraphError as exc:
            events.put(_sse("error", {"detail": for_web_user(str(exc))}))
        except Exception:  # noqa: BLE001 - logged here, never sent to the client
            log.exception("streamed ask failed")
            events.put(_sse("error", {"detail": "internal error"}))
        finally:
            events.put(None)

    threading.Thread(target=run, daemon=True).start()

    def stream() -> Iterator[str]:
        while True:
            try:
                item = events.get(timeout=STREAM_TIMEOUT_SECONDS)
            except queue.Empty:
                yield _sse("error", {"detail": "the answer took too long"})
                return
            if item is None:
                return
            yield item

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"X-Accel-Buffering": "no"})


@router.post("/compare", response_model=Comparison)
def compare(request: Request, body: Question) -> Comparison:
    return service_of(request).compare(workspace_of(request), body.question, body.documents)


@router.get("/compare/export", response_class=Response,
            responses={200: {"content": {"text/csv": {}, "text/markdown": {}, "text/html": {}}}})
def compare_export(
    request: Request,
    question: Annotated[str, Query(min_length=1, max_length=MAX_QUESTION_CHARS)],
    documents: Annotated[list[str] | None, Query()] = None,
    format: CompareFormat = "csv",
) -> Response:
    """The comparison as a download: CSV, Markdown or HTML (the writers of
    ``clausegraph compare --format``)."""
    from clausegraph.report.compare import render_comparison

    comparison = service_of(request).api_comparison(workspace_of(request), question, documents)
    text = render_comparison(comparison, format)
    return Response(text.encode("utf-8"), media_type=COMPARE_MEDIA_TYPES[format], headers={
        "Content-Disposition": f'attachment; filename="clausegraph-compare.{format}"'})


@router.get("/clauses/{clause_id:path}", response_model=ClauseView)
def clause(request: Request, clause_id: str) -> ClauseView:
    graph = service_of(request).workspace(workspace_of(request)).graph
    detail = graph.show(clause_id)
    index = graph.index
    neighbours = []
    for other_id, edge, direction in iter_edges(index.graph, clause_id):
        other = index.clauses.clause(other_id)
        neighbours.append(Neighbour(
            clause_id=other.clause_id, label=other.label, heading=other.heading,
            relation=edge.type.value, direction="outgoing" if direction == "out" else "incoming",
        ))
    order = index.clauses.clause_ids([detail.clause.doc_id])
    position = order.index(clause_id)
    return ClauseView(
        detail=detail, label=detail.clause.label, neighbours=neighbours,
        previous=order[position - 1] if position > 0 else None,
        next=order[position + 1] if position + 1 < len(order) else None,
    )


@router.get("/highlight", response_model=Highlight)
def highlight(
    request: Request,
    clause: Annotated[str, Query(description="clause id")],
    start: int | None = None,
    end: int | None = None,
) -> Highlight:
    """Where a clause (or the part ``start``-``end`` of it, document offsets) is shown:
    rectangles on the PDF pages, or the text with context for a text document."""
    graph = service_of(request).workspace(workspace_of(request)).graph
    found = graph.index.clauses.clause(clause)
    document = graph.index.clauses.document(found.doc_id)
    spans = list(found.segments)
    if start is not None and end is not None:
        spans = [(max(s, start), min(e, end)) for s, e in spans if s < end and e > start]
        if not spans:
            raise ClauseGraphError(f"chars {start}-{end} are not inside clause {clause}")
    span = (spans[0][0], spans[-1][1])
    result = Highlight(clause_id=found.clause_id, label=found.label, doc_id=document.doc_id,
                       document=document.title, media_type=document.media_type, span=span)
    if document.media_type == "pdf" and Path(document.source_path).is_file():
        result.pages = pdf_highlight(document, spans)
    else:
        result.text = text_highlight(document, span)
    return result


# -- contract review ---------------------------------------------------------------------


ReviewFormat = Literal["csv", "md", "html", "pdf"]
REVIEW_MEDIA_TYPES = {**MEDIA_TYPES, "csv": "text/csv; charset=utf-8"}


def document_review(request: Request, doc_id: str) -> DocumentReview:
    """One document's review against CUAD's 41 categories (the Python API's review)."""
    graph = service_of(request).workspace(workspace_of(request)).graph
    return graph.review([doc_id]).documents[0]


@router.get("/documents/{doc_id}/review", response_model=DocumentReview)
def review(request: Request, doc_id: str) -> DocumentReview:
    """The document (id, key or file name) against CUAD's 41 clause categories: found or
    not, the clauses with page, span and confidence, and the normalised answer."""
    return document_review(request, doc_id)


@router.get("/documents/{doc_id}/review/export", response_class=Response)
def review_export(request: Request, doc_id: str, format: ReviewFormat = "csv") -> Response:
    """The review as a download: csv, md, html or pdf."""
    from clausegraph.report.review import render_review, write_review
    from clausegraph.review import Review

    graph = service_of(request).workspace(workspace_of(request)).graph
    result: Review = graph.review([doc_id])
    if format == "pdf":
        with tempfile.TemporaryDirectory(prefix="clausegraph-review-") as folder:
            data = write_review(result, Path(folder) / "review.pdf", "pdf").read_bytes()
    else:
        data = render_review(result, format).encode("utf-8")
    key = result.documents[0].key
    return Response(data, media_type=REVIEW_MEDIA_TYPES[format], headers={
        "Content-Disposition": f'attachment; filename="review-{key}.{format}"'})


# -- saved document sets -----------------------------------------------------------------


class SetDocuments(BaseModel):
    documents: list[str] = Field(description="the set's doc ids (as GET /documents lists)")


class SetDeleted(BaseModel):
    deleted: str


@router.get("/document-sets", response_model=list[DocumentSet])
def document_sets(request: Request) -> list[DocumentSet]:
    """The workspace's saved sets by name, each with the documents still in the index."""
    return service_of(request).document_sets(workspace_of(request))


# ``:path``: a name is a label and may hold "/" (sent percent-encoded)
@router.put("/document-sets/{name:path}", response_model=DocumentSet)
def save_document_set(request: Request, name: str, body: SetDocuments) -> DocumentSet:
    """Save (or replace: names match up to case) the set ``name`` of these documents."""
    return service_of(request).save_document_set(workspace_of(request), name, body.documents)


@router.delete("/document-sets/{name:path}", response_model=SetDeleted)
def delete_document_set(request: Request, name: str) -> SetDeleted:
    service_of(request).delete_document_set(workspace_of(request), name)
    return SetDeleted(deleted=name)


# -- history and reports -----------------------------------------------------------------


@router.get("/history", response_model=list[HistoryItem])
def history(request: Request) -> list[HistoryItem]:
    items = []
    for entry in service_of(request).history(workspace_of(request), request.state.session):
        direct = direct_answer(entry.answer)
        items.append(HistoryItem(
            id=entry.id, question=entry.question, asked_at=entry.asked_at,
            seconds=entry.seconds, direct_answer=direct.text, evidence=len(entry.answer.evidence),
            documents=entry.documents,
            by_document=[DocumentAnswer(document=d.document or "", text=d.shown or d.text,
                                        citation=d.citation)
                         for d in direct.by_document]))
    return items


@router.get("/history/{entry_id}", response_model=HistoryEntry)
def history_entry(request: Request, entry_id: str) -> HistoryEntry:
    entry = service_of(request).history_entry(workspace_of(request), request.state.session,
                                              entry_id)
    if entry is None:
        raise NotFoundError(f"no question {entry_id!r} in this session's history")
    return entry


@router.get("/history/{entry_id}/view", response_model=AnswerView)
def history_view(request: Request, entry_id: str) -> AnswerView:
    """A stored answer as the Ask page shows it (the streamed events in one record)."""
    return answer_view(history_entry(request, entry_id))


def _report_response(request: Request, answer: Answer, documents: list[str] | None,
                     fmt: ReportFormat, name: str) -> Response:
    from clausegraph.report import build_report, write_report

    graph = service_of(request).workspace(workspace_of(request)).graph
    report = build_report(answer, manifest=graph.index_record(),
                          index_path=graph.store.location, documents_filter=documents)
    with tempfile.TemporaryDirectory(prefix="clausegraph-report-") as folder:
        path = write_report(report, Path(folder) / f"report.{fmt}", fmt)
        data = path.read_bytes()
    return Response(data, media_type=MEDIA_TYPES[fmt], headers={
        "Content-Disposition": f'attachment; filename="clausegraph-{name}.{fmt}"'})


@router.get("/history/{entry_id}/report", response_class=Response)
def history_report(request: Request, entry_id: str, format: ReportFormat = "html") -> Response:
    """The audit report of an earlier question (md, html, pdf or json)."""
    entry = history_entry(request, entry_id)
    return _report_response(request, entry.answer, entry.documents, format, entry.id)


class ReportRequest(Question):
    format: ReportFormat = "html"


@router.post("/report", response_class=Response)
def report(request: Request, body: ReportRequest) -> Response:
    """Ask ``question`` and return its audit report as a download."""
    answer, entry = _ask(request, body)
    return _report_response(request, answer, body.documents, body.format, entry.id)
