"""The warm state behind the web app: one ClauseGraph per workspace, ingest jobs, history
and saved document sets.

One process keeps the embedding model and every loaded index in memory, so a question
costs retrieval only. Ingest runs on one background thread per workspace; the index
changes atomically when a job commits (``IndexStore.commit``), so questions asked in
the meantime are answered from the previous index. After a commit the worker loads
the new index before readers need it, and raises the workspace's version so that the
question worker processes (``workers`` > 1, web/pool.py) reopen it too.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from clausegraph.models import Answer
from clausegraph.api import ClauseGraph, IngestOutcome
from clausegraph.config import Settings
from clausegraph.errors import ClauseGraphError, NotFoundError
from clausegraph.web.history import HistoryEntry, HistoryStore
from clausegraph.web.jobs import JobJournal, delete_unused_uploads
from clausegraph.web.messages import for_web_user
from clausegraph.web.pool import AskPool
from clausegraph.web.sets import DocumentSet, DocumentSets
from clausegraph.web.uploads import UploadLimits, display_name

DEFAULT_WORKSPACE = "default"
HISTORY_PER_SESSION = 50
SESSIONS_KEPT = 200
JOBS_KEPT = 100
log = logging.getLogger("clausegraph.web")


class BusyError(ClauseGraphError):
    """The workspace is being written to; the caller may retry shortly."""


class FileProgress(BaseModel):
    """One uploaded file in an ingest job."""

    name: str = Field(description="the client's file name (a label only)")
    status: str = Field(description="rejected | queued | ingesting | ingested | unchanged | "
                        "replaced | failed")
    error: str | None = None
    doc_id: str | None = None
    key: str | None = None
    pages: int = 0
    clauses: int = 0
    edges: int = 0


class IngestJob(BaseModel):
    job_id: str
    workspace: str
    created_at: str
    state: str = Field(description="queued | running | done")
    done: int = 0
    total: int = 0
    files: list[FileProgress]
    note: str | None = Field(None, description="e.g. that the server restarted during the "
                             "job and ingested its files again")


class CompareRow(BaseModel):
    """One document's answer to the compared question."""

    doc_id: str
    document: str
    key: str
    found: bool
    answer: str
    citation: str | None = None
    clause_id: str | None = None
    span: tuple[int, int] | None = None


class Comparison(BaseModel):
    question: str
    rows: list[CompareRow]


class Workspace:
    """One index with its graph, its write lock and its ingest worker, and the records
    kept beside its uploads: the job journal, the question history, the saved sets."""

    def __init__(self, name: str, graph: ClauseGraph, uploads: Path, location: str) -> None:
        self.name = name
        self.graph = graph
        # as given (a database URL keeps its password), for question workers to open it
        self.location = location
        self.uploads = uploads
        self.write_lock = threading.Lock()
        # raised after every ingest or removal: question workers reopen the index when it
        # differs from the version they opened (web/pool.py)
        self.version = 0
        self.journal = JobJournal(uploads, JOBS_KEPT)
        self.history = HistoryStore(uploads, HISTORY_PER_SESSION, SESSIONS_KEPT)
        self.sets = DocumentSets(uploads)
        self._jobs: queue.Queue[tuple[IngestJob, list[tuple[int, Path]]]] = queue.Queue()
        self._pending: dict[str, list[Path]] = {}  # unfinished jobs' stored files
        self._worker = threading.Thread(target=self._work, name=f"ingest-{name}", daemon=True)
        self._worker.start()

    def has_index(self) -> bool:
        return self.graph.store.exists()

    def warm(self) -> None:
        """Load the index and the retriever now, not on the next question."""
        if self.has_index():
            _ = self.graph.retriever

    def changed(self) -> None:
        """The index was written: load the new one here, and tell the question workers."""
        self.version += 1
        self.warm()

    def submit(self, job: IngestJob, files: list[tuple[int, Path]]) -> None:
        self._pending[job.job_id] = [path for _, path in files]
        self._save(job, files)
        self._jobs.put((job, files))

    def _save(self, job: IngestJob, files: list[tuple[int, Path]]) -> None:
        try:
            self.journal.save(job.model_dump(mode="json"), files)
        except OSError as exc:  # the job still runs; only a restart would lose it
            log.warning("could not record ingest job %s: %s", job.job_id, exc)

    def _work(self) -> None:
        while True:
            job, files = self._jobs.get()
            try:
                with self.write_lock:
                    self._run(job, files)
                self.changed()
            except Exception as exc:  # noqa: BLE001 - a job must never kill the worker
                for entry in job.files:
                    if entry.status in ("queued", "ingesting"):
                        entry.status, entry.error = "failed", _one_line(exc)
            finally:
                self._pending.pop(job.job_id, None)
                # files nothing uses go before the job reads "done": whoever sees it done
                # (the page, a test) finds no failed file left in the uploads folder
                self._delete_unused([path for _, path in files])
                job.state = "done"
                self._save(job, files)

    def _used_files(self) -> list[str | Path]:
        """The originals of indexed documents and the files of unfinished jobs."""
        used: list[str | Path] = [p for paths in list(self._pending.values()) for p in paths]
        if self.has_index():
            used += [entry.source_path for entry in self.graph.store.entries().values()]
        return used

    def _delete_unused(self, candidates: list[Path] | None = None) -> None:
        """Uploaded files no document or unfinished job uses (a failed file, a copy of a
        document indexed from elsewhere) are deleted: nothing is left orphaned."""
        try:
            delete_unused_uploads(self.uploads, self._used_files(), candidates)
        except (OSError, ClauseGraphError) as exc:
            log.warning("could not tidy the uploads of workspace %s: %s", self.name, exc)

    def recover(self) -> list[IngestJob]:
        """The jobs recorded before this server started. One the server stopped in the
        middle of is started again on the files still stored (or marked failed where none
        is); then stored files nothing uses are deleted."""
        jobs = []
        for record, files in self.journal.load():
            try:
                job = IngestJob.model_validate(record)
            except ValueError:
                continue
            if job.state != "done":
                self._resume(job, files)
            jobs.append(job)
        self._delete_unused()
        return jobs

    def _resume(self, job: IngestJob, files: list[tuple[int, Path]]) -> None:
        present = [(i, path) for i, path in files if path.is_file() and i < len(job.files)]
        for i, _ in files:
            if (i, _) not in present and i < len(job.files):
                job.files[i].status = "failed"
                job.files[i].error = (f"{job.files[i].name}: the server stopped before this "
                                      "file was indexed; upload it again")
        for i, _ in present:
            job.files[i].status, job.files[i].error = "queued", None
        job.done, job.state = 0, "queued" if present else "done"
        job.note = "The server restarted during this upload; its files are being indexed again."
        if present:
            self.submit(job, present)
        else:
            self._save(job, files)

    def _run(self, job: IngestJob, files: list[tuple[int, Path]]) -> None:
        job.state = "running"
        by_path = {str(path): job.files[i] for i, path in files}
        by_name = {path.name: job.files[i] for i, path in files}

        def progress(name: str, done: int, total: int) -> None:
            job.done = done
            if name in by_name and by_name[name].status == "queued":
                by_name[name].status = "ingesting"
                self._save(job, files)

        report = self.graph.ingest([path for _, path in files], progress=progress)
        for outcome in report.outcomes:
            entry = by_path.get(outcome.path)
            if entry is not None:
                _record(entry, outcome, Path(outcome.path))
        job.done = len(files)


def _record(entry: FileProgress, outcome: IngestOutcome, stored: Path) -> None:
    entry.status = outcome.status
    entry.doc_id, entry.key = outcome.doc_id, outcome.key
    entry.pages, entry.clauses = outcome.pages, outcome.clauses
    entry.edges = sum(outcome.edges.values())
    if outcome.error:
        # the stored path is ours, not the user's: name the file as the user did
        entry.error = for_web_user(outcome.error.replace(str(stored), entry.name))


def _one_line(exc: BaseException) -> str:
    text = for_web_user(str(exc))
    return text if isinstance(exc, ClauseGraphError) and str(exc).strip() else "internal error"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class GraphService:
    """Workspaces by name, ingest jobs, each browser session's question history, and the
    saved document sets."""

    def __init__(
        self,
        index: str | Path,
        settings: Settings | None = None,
        workspaces: list[str] | None = None,
        uploads: str | Path | None = None,
        limits: UploadLimits | None = None,
        workers: int = 1,
    ) -> None:
        self.index = str(index)
        self.settings = settings or Settings()
        # workers > 1: offline questions are answered in that many processes (web/pool.py)
        self._pool = AskPool(self.settings, workers) if workers > 1 else None
        self.limits = limits or UploadLimits()
        self._uploads = Path(uploads) if uploads else None
        self._workspaces: dict[str, Workspace] = {}
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, IngestJob] = OrderedDict()
        for name in [DEFAULT_WORKSPACE, *(workspaces or [])]:
            self.workspace(name)

    # -- workspaces ------------------------------------------------------------------------

    def _index_of(self, name: str) -> str:
        """Each workspace is its own index (a folder, or a database workspace under
        row-level security): isolation is the store's, not a filter."""
        if name == DEFAULT_WORKSPACE:
            return self.index
        from clausegraph.store.factory import workspace_location

        return workspace_location(self.index, name)

    def _uploads_of(self, name: str, location: str) -> Path:
        if self._uploads:
            return self._uploads / name
        if "://" in location:
            raise ClauseGraphError("a database index needs --uploads DIR for uploaded files")
        return Path(location) / ".uploads"

    def workspace(self, name: str = DEFAULT_WORKSPACE) -> Workspace:
        with self._lock:
            if name not in self._workspaces:
                root = self._index_of(name)
                graph = ClauseGraph.open(root, self.settings, create=True)
                if self._workspaces:  # one embedding model for every workspace
                    graph._embedder = next(iter(self._workspaces.values())).graph.embedder
                workspace = Workspace(name, graph, self._uploads_of(name, root), root)
                self._workspaces[name] = workspace
                for job in workspace.recover():  # jobs of an earlier run of the server
                    self._jobs[job.job_id] = job
            return self._workspaces[name]

    def warm(self) -> None:
        """Load the model and every index, and answer one question, before serving."""
        for workspace in list(self._workspaces.values()):
            workspace.warm()
            if workspace.has_index():
                workspace.graph.ask("warm up", llm="none")
                if self._pool is not None:
                    self._pool.warm(workspace.location, workspace.version)

    def close(self) -> None:
        """Stop the question workers (the server's shutdown)."""
        if self._pool is not None:
            self._pool.close()

    # -- documents -------------------------------------------------------------------------

    def documents(self, workspace: str) -> list[dict[str, Any]]:
        ws = self.workspace(workspace)
        if not ws.has_index():
            return []
        rows = []
        for entry in ws.graph.stats().documents:
            rows.append({
                "doc_id": entry["doc_id"], "key": entry["key"], "title": entry["title"],
                "file_name": Path(entry["source_path"]).name,
                "media_type": entry["media_type"], "pages": entry["pages"],
                "clauses": entry["clauses"], "edges": sum(entry["edges_by_type"].values()),
                "edges_by_type": entry["edges_by_type"], "unresolved": entry["unresolved"],
                "ingested_at": entry.get("ingested_at"),
            })
        return rows

    def document_entry(self, workspace: str, doc_id: str) -> dict[str, Any]:
        ws = self.workspace(workspace)
        entries = ws.graph.store.entries() if ws.has_index() else {}
        if doc_id not in entries:
            raise NotFoundError(f"no document {doc_id!r} in this workspace")
        return entries[doc_id].model_dump()

    def start_ingest(
        self, workspace: str, accepted: list[tuple[str, Path]], rejected: list[tuple[str, str]]
    ) -> IngestJob:
        files = [FileProgress(name=display_name(name), status="queued") for name, _ in accepted]
        files += [FileProgress(name=display_name(name), status="rejected", error=error)
                  for name, error in rejected]
        job = IngestJob(job_id=secrets.token_hex(8), workspace=workspace, created_at=_now(),
                        state="queued" if accepted else "done", total=len(accepted),
                        files=files)
        with self._lock:
            self._jobs[job.job_id] = job
            while len(self._jobs) > JOBS_KEPT:
                self._jobs.popitem(last=False)
        accepted_view = job.model_copy(deep=True)  # as accepted, before the worker moves on
        if accepted:
            self.workspace(workspace).submit(job, [(i, p) for i, (_, p) in enumerate(accepted)])
        return accepted_view

    def job(self, workspace: str, job_id: str) -> IngestJob | None:
        job = self._jobs.get(job_id)
        return job if job is not None and job.workspace == workspace else None

    def remove(self, workspace: str, doc_id: str) -> list[str]:
        ws = self.workspace(workspace)
        entry = self.document_entry(workspace, doc_id)
        if not ws.write_lock.acquire(timeout=2.0):
            raise BusyError("documents are being ingested; remove again when that finishes")
        try:
            removed = ws.graph.remove(doc_id)
        finally:
            ws.write_lock.release()
        original = Path(entry["source_path"])
        if ws.uploads.resolve() in original.resolve().parents:
            original.unlink(missing_ok=True)  # an uploaded copy goes with its document
        ws.changed()
        return removed

    # -- questions -------------------------------------------------------------------------

    def ask(self, workspace: str, question: str, documents: list[str] | None = None,
            **options: Any) -> Answer:
        ws = self.workspace(workspace)
        if not ws.has_index():
            raise ClauseGraphError("no documents yet: upload some on the Documents page")
        if self._pool is not None and ws.graph.llm is None:
            options.pop("on_chunk", None)  # an offline answer streams no model text
            try:
                return self._pool.ask(ws.location, ws.version, question,
                                      documents or None, **options)
            except BrokenProcessPool:
                log.error("a question worker process stopped; answering in the server")
        return ws.graph.ask(question, documents=documents or None, **options)

    def api_comparison(self, workspace: str, question: str,
                       documents: list[str] | None = None) -> Any:
        """The Python API's comparison (what the CLI's exports are written from)."""
        ws = self.workspace(workspace)
        if not ws.has_index():
            raise ClauseGraphError("no documents yet: upload some on the Documents page")
        return ws.graph.compare(question, documents=documents or None)

    def compare(self, workspace: str, question: str,
                documents: list[str] | None = None) -> Comparison:
        """The question asked of each document (or of ``documents``) on its own (the Python
        API's comparison), with each answer's clause and span so a click opens it
        highlighted."""
        ws = self.workspace(workspace)
        if not ws.has_index():
            return Comparison(question=question, rows=[])
        keys = {entry["doc_id"]: entry["key"] for entry in self.documents(workspace)}
        clauses = ws.graph.index.clauses
        rows = []
        for row in self.api_comparison(workspace, question, documents).rows:
            clause = clauses.clause(row.citations[0]) if row.found and row.citations else None
            rows.append(CompareRow(
                doc_id=row.doc_id, document=row.document, key=keys.get(row.doc_id, ""),
                found=clause is not None,
                answer=row.answer if clause is not None else "No answer found in this document.",
                citation=row.labels[0] if clause is not None and row.labels else None,
                clause_id=clause.clause_id if clause else None,
                span=clause.span if clause else None,
            ))
        return Comparison(question=question, rows=rows)

    def remember(self, workspace: str, session: str, question: str,
                 documents: list[str] | None, answer: Answer, seconds: float) -> HistoryEntry:
        entry = HistoryEntry(id=secrets.token_hex(6), question=question, asked_at=_now(),
                             documents=documents, seconds=round(seconds, 3), answer=answer)
        self.workspace(workspace).history.add(session, entry)
        return entry

    def history(self, workspace: str, session: str) -> list[HistoryEntry]:
        return self.workspace(workspace).history.entries(session)

    def history_entry(self, workspace: str, session: str, entry_id: str) -> HistoryEntry | None:
        return self.workspace(workspace).history.entry(session, entry_id)

    # -- saved document sets ---------------------------------------------------------------

    def _doc_ids(self, workspace: str) -> set[str]:
        ws = self.workspace(workspace)
        return set(ws.graph.store.entries()) if ws.has_index() else set()

    def document_sets(self, workspace: str) -> list[DocumentSet]:
        return self.workspace(workspace).sets.list(self._doc_ids(workspace))

    def save_document_set(self, workspace: str, name: str, documents: list[str]) -> DocumentSet:
        return self.workspace(workspace).sets.save(name, documents, self._doc_ids(workspace))

    def delete_document_set(self, workspace: str, name: str) -> None:
        self.workspace(workspace).sets.delete(name)


class DirectAnswer(BaseModel):
    """The short answer and the quote it comes from (what its citation opens)."""

    text: str
    clause_id: str | None = None
    span: tuple[int, int] | None = Field(None, description="document offsets of the quote")
    citation: str | None = None
    shown: str = Field("", description="the text as the page shows it: '…' where a quote "
                       "was cut from a longer sentence")
    document: str | None = Field(None, description="the document's title (file name)")
    verdict: str | None = Field(None, description="the short answer read from the quote: "
                                "'No: 36-month waiting period', '90 days', 'Cannot tell: ...'")
    by_document: list[DirectAnswer] = Field(
        default_factory=list, description="when several documents answer equally well and "
        "the question names none: each one's answer, with its own citation")


def direct_answer(answer: Answer) -> DirectAnswer:
    """The API's direct answer and the sentence it quotes first (what its citation opens);
    empty when the evidence supports no answer."""
    line = answer.direct.answering_line() if answer.found and answer.direct else None
    if line is None:
        check = answer.direct.type_check if answer.direct else None
        why = check.reason() if check is not None and check.present is False else None
        return DirectAnswer(text="", clause_id=None, span=None, citation=None, verdict=why)
    equal = answer.answering_documents()
    return DirectAnswer(
        text=answer.direct_quote or line.text, clause_id=line.clause_id, span=line.span,
        citation=f"{line.document}, {line.citation()}", shown=_shown(answer.direct.lines),
        verdict=answer.verdict.text if answer.verdict else None,
        by_document=[_document_direct(d) for d in equal] if len(equal) > 1 else [])


def _document_direct(document: Any) -> DirectAnswer:
    first = document.answering_line() or document.lines[0]
    name = f"{document.document} ({document.file})"
    return DirectAnswer(text=document.text, clause_id=first.clause_id, span=first.span,
                        citation=f"{name}, {first.citation()}", document=name,
                        shown=_shown(document.lines),
                        verdict=document.verdict.text if document.verdict else None)


def _shown(lines: Any) -> str:
    return " ".join(line.marked() for line in lines)


def answer_found(answer: Answer) -> bool:
    return answer.found


def timed(call: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    return call(*args, **kwargs), time.perf_counter() - started
