"""Audit reports: one question, its answer, the evidence and everything needed to redo it.

A :class:`Report` records the question, the answer and its verification verdict, every
evidence clause (document, pages, character span, text with the cited or quoted part
highlighted), the reasoning chain, the retrieval parameters, the model, the prompt
template hashes, the documents' content hashes (doc ids) and the index generation.

Writers: :func:`write_markdown` (chain as Mermaid), :func:`write_html` (chain as inline
SVG; every piece of document text is HTML-escaped by Jinja autoescape, so a document
carrying ``<script>`` renders inert), :func:`write_pdf` (the same HTML laid out by
``pymupdf.Story``), :func:`write_json` (the Report itself, loadable with
:func:`load_report`). :func:`write_batch` answers a CSV/YAML list of questions into one
report per question plus an index page. :func:`rederive` re-runs retrieval with the
report's recorded parameters and says whether the same evidence comes back.
"""

from clausegraph.report.batch import (
    BatchEntry,
    BatchResult,
    QuestionSpec,
    read_questions,
    write_batch,
)
from clausegraph.report.build import build_report, extractive_claims, report_for
from clausegraph.report.chain import chain_mermaid, chain_svg
from clausegraph.report.models import FORMATS, Report, ReportClause, ReportDocument, ReportLink
from clausegraph.report.rederive import RederiveResult, rederive, rederive_check
from clausegraph.report.render import render_html, render_markdown
from clausegraph.report.writers import (
    load_report,
    write_html,
    write_json,
    write_markdown,
    write_pdf,
    write_report,
)

__all__ = [
    "FORMATS", "BatchEntry", "BatchResult", "QuestionSpec", "RederiveResult", "Report",
    "ReportClause", "ReportDocument", "ReportLink", "build_report", "chain_mermaid",
    "chain_svg", "extractive_claims", "load_report", "read_questions", "rederive",
    "rederive_check", "render_html", "render_markdown", "report_for", "write_batch",
    "write_html", "write_json", "write_markdown", "write_pdf", "write_report",
]
