"""Export a contract :class:`~clausegraph.review.Review` as CSV, Markdown, HTML or PDF.

Every format shows the same cells per category (``item_values``); the terminal table and
the web checklist are drawn from them too. The PDF is the HTML laid out by
``pymupdf.Story`` (``writers.layout_html``), as the audit report is.
"""

from __future__ import annotations

import csv
import html
import io
from pathlib import Path
from typing import Any

REVIEW_FORMATS = ("csv", "md", "html", "pdf")
# "found from": the confidence the category is found from (each category has its own,
# fitted on CUAD train), so that a row found at 0.23 beside one not found at 0.36 reads right
COLUMNS = ("category", "found", "confidence", "found from", "answer", "clause", "page", "text")
CAVEAT = ("Found by ClauseGraph's clause-type model (trained on CUAD); a category not found "
          "may still be in the contract. Read the clause before relying on it.")


def item_values(item: Any) -> dict[str, str]:
    """One category's cells as text: what every format shows."""
    best = item.clauses[0] if item.clauses and item.found else None
    return {
        "category": item.category,
        "found": "yes" if item.found else "no",
        "confidence": f"{item.confidence:.2f}",
        "found from": f"{item.threshold:.2f}" if item.threshold is not None else "",
        "answer": item.answer or "",
        "clause": (best.number or best.clause_id) if best else "",
        "page": str(best.page) if best and best.page is not None else "",
        "text": " ".join(best.text.split()) if best else "",
    }


def render_review(review: Any, fmt: str) -> str:
    """The review as CSV, Markdown or HTML text (PDF: :func:`write_review`)."""
    if fmt == "csv":
        return _csv(review)
    if fmt == "md":
        return _markdown(review)
    if fmt == "html":
        return _html(review)
    raise ValueError(f"unknown review format {fmt!r}: choose one of {', '.join(REVIEW_FORMATS)}")


def write_review(review: Any, path: str | Path, fmt: str | None = None) -> Path:
    """Write the review in ``fmt`` (default: from the file suffix)."""
    from clausegraph.report.writers import layout_html

    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt not in REVIEW_FORMATS:
        raise ValueError(f"unknown review format {fmt!r}: choose one of "
                         f"{', '.join(REVIEW_FORMATS)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "pdf":
        tmp = path.with_name(path.name + ".tmp")
        layout_html(_html(review, for_pdf=True), tmp)
        tmp.replace(path)
    else:
        path.write_text(render_review(review, fmt), encoding="utf-8")
    return path


def _csv(review: Any) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["document", "file", *COLUMNS])
    writer.writeheader()
    for document in review.documents:
        for item in document.items:
            writer.writerow({"document": document.title, "file": document.file,
                             **item_values(item)})
    return out.getvalue()


def _markdown(review: Any) -> str:
    def cell(text: str) -> str:
        return " ".join(text.split()).replace("|", "\\|")

    lines = ["# Contract review (CUAD's 41 categories)", "", CAVEAT, ""]
    for document in review.documents:
        lines += [f"## {cell(document.title)}", "", f"File: {cell(document.file)}, "
                  f"{len(document.found)} of {len(document.items)} categories found", "",
                  "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        lines += ["| " + " | ".join(cell(v) for v in item_values(item).values()) + " |"
                  for item in document.items]
        lines.append("")
    return "\n".join(lines)


def _html(review: Any, for_pdf: bool = False) -> str:
    head = "".join(f"<th>{c}</th>" for c in COLUMNS)
    sections = []
    for document in review.documents:
        rows = "".join(
            f"<tr class='{'found' if item.found else 'missing'}'>"
            + "".join(f"<td>{html.escape(v)}</td>" for v in item_values(item).values())
            + "</tr>"
            for item in document.items)
        sections.append(
            f"<h2>{html.escape(document.title)}</h2><p>File: {html.escape(document.file)}, "
            f"{len(document.found)} of {len(document.items)} categories found</p>"
            f"<table><tr>{head}</tr>{rows}</table>")
    size = "font-size:8pt;" if for_pdf else ""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>ClauseGraph contract review"
        f"</title><style>body{{font-family:sans-serif;{size}}}table{{border-collapse:collapse}}"
        "td,th{border:1px solid #999;padding:3px 6px;vertical-align:top;text-align:left}"
        "tr.missing td{color:#666}</style></head><body>"
        f"<h1>Contract review (CUAD's 41 categories)</h1><p>{html.escape(CAVEAT)}</p>"
        + "".join(sections) + "</body></html>\n")
