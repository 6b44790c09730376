"""Reports for a file of questions, with an index page."""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup
from pydantic import BaseModel, Field

from clausegraph.report.build import index_info_of, index_record_of, location_of, report_for
from clausegraph.report.models import Report
from clausegraph.report.render import _css, _environment
from clausegraph.report.writers import write_report

# -- batches -------------------------------------------------------------------------------


class QuestionSpec(BaseModel):
    id: str
    question: str
    documents: list[str] | None = None


class BatchEntry(BaseModel):
    id: str
    question: str
    files: dict[str, str] = Field(default_factory=dict)
    verdict: str | None = None
    mode: str | None = None
    evidence: int = 0
    error: str | None = None


class BatchResult(BaseModel):
    out_dir: str
    index_files: dict[str, str]
    entries: list[BatchEntry]

    @property
    def failed(self) -> list[BatchEntry]:
        return [e for e in self.entries if e.error]


def _slug(text: str, limit: int = 48) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-") or "question"


def read_questions(path: str | Path) -> list[QuestionSpec]:
    """Questions from CSV (column ``question``; optional ``id``, ``documents`` separated by
    ';') or YAML (a list of strings, or of mappings with question/id/documents; or a
    mapping with a ``questions`` list)."""
    path = Path(path)
    raw: list[Any]
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            where = getattr(exc, "problem_mark", None)
            line = f" line {where.line + 1}" if where else ""
            raise ValueError(f"{path}:{line} invalid YAML ({getattr(exc, 'problem', exc)})") \
                from None
        raw = data.get("questions", []) if isinstance(data, dict) else (data or [])
    elif path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            if not reader.fieldnames or "question" not in [f.strip().lower()
                                                           for f in reader.fieldnames]:
                raise ValueError(f"{path}: the CSV needs a 'question' column")
            raw = [{k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
                   for row in reader]
    else:
        raise ValueError(f"{path}: questions file must be .csv, .yaml or .yml")
    specs: list[QuestionSpec] = []
    for n, item in enumerate(raw, start=1):
        if isinstance(item, str):
            item = {"question": item}
        if not isinstance(item, dict) or not str(item.get("question") or "").strip():
            continue
        documents = item.get("documents") or None
        if isinstance(documents, str):
            documents = [d.strip() for d in documents.split(";") if d.strip()] or None
        qid = str(item.get("id") or "").strip() or f"{n:03d}"
        specs.append(QuestionSpec(id=qid, question=str(item["question"]).strip(),
                                  documents=documents))
    if not specs:
        raise ValueError(f"{path}: no questions found")
    return specs


def write_batch(
    questions_file: str | Path,
    graph: Any,
    out_dir: str | Path,
    formats: Sequence[str] = ("html", "md", "json"),
    provider: Any = None,
    documents: Sequence[str] | None = None,
    **overrides: Any,
) -> BatchResult:
    """One report per question (in every format of ``formats``) plus index.html/index.md.

    ``documents`` limits every question to those documents, unless the questions file
    names documents for a question; ``overrides`` (strategy, top_k, ...) go to ``ask``.
    A question that fails (e.g. the provider is down) is listed with its error; the
    others are still written.
    """
    from clausegraph.errors import ClauseGraphError

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    entries: list[BatchEntry] = []
    reports: list[Report | None] = []
    for spec in read_questions(questions_file):
        stem = f"{_slug(spec.id, 16)}-{_slug(spec.question)}"
        entry = BatchEntry(id=spec.id, question=spec.question)
        try:
            report = report_for(graph, spec.question, provider=provider,
                                documents=spec.documents or documents, **overrides)
            for fmt in formats:
                written = write_report(report, out / f"{stem}.{fmt}", fmt)
                entry.files[fmt] = written.name
            entry.verdict, entry.mode, entry.evidence = (
                report.verdict, report.model or report.mode, len(report.evidence))
            reports.append(report)
        except (ClauseGraphError, ValueError, OSError) as exc:
            entry.error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            reports.append(None)
        entries.append(entry)
    manifest = index_record_of(graph)
    env = _environment()
    values = {"entries": entries, "css": Markup(_css("html")),
              "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
              "index": index_info_of(manifest, location_of(graph)),
              "source": Path(questions_file).name}
    index_files = {}
    (out / "index.html").write_text(env.get_template("report_index.html.j2").render(**values),
                                    encoding="utf-8")
    index_files["html"] = "index.html"
    (out / "index.md").write_text(env.get_template("report_index.md.j2").render(**values),
                                  encoding="utf-8")
    index_files["md"] = "index.md"
    return BatchResult(out_dir=str(out), index_files=index_files, entries=entries)


