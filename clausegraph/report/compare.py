"""Export a :class:`~clausegraph.api.Comparison` (one question, every document) as CSV,
markdown or HTML. The terminal table is drawn by the CLI from the same rows."""

from __future__ import annotations

import csv
import html
import io
from typing import Any

FORMATS = ("csv", "md", "html")
COLUMNS = ("document", "file", "answer", "source", "exceptions", "confidence")


def row_values(row: Any) -> dict[str, str]:
    """The cells of one row as text: what every format shows."""
    if row.found:
        answer, source = row.answer or "", "; ".join(row.labels)
    else:
        answer = "Not found in this document"
        source = ("nearest: " + "; ".join(row.nearest)) if row.nearest else ""
    return {
        "document": row.document, "file": row.file, "answer": answer, "source": source,
        "exceptions": " | ".join(row.exceptions), "confidence": f"{row.confidence:.2f}",
    }


def render_comparison(comparison: Any, fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    rows = [row_values(r) for r in comparison.rows]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=["question", *COLUMNS])
        writer.writeheader()
        for values in rows:
            writer.writerow({"question": comparison.question, **values})
        return out.getvalue()
    if fmt == "md":
        def cell(text: str) -> str:
            return " ".join(text.split()).replace("|", "\\|")

        lines = [f"**{cell(comparison.question)}**", "",
                 "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        lines += ["| " + " | ".join(cell(v[c]) for c in COLUMNS) + " |" for v in rows]
        return "\n".join(lines) + "\n"
    head = "".join(f"<th>{c}</th>" for c in COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(v[c])}</td>" for c in COLUMNS) + "</tr>"
        for v in rows
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>ClauseGraph comparison"
        "</title><style>body{font-family:sans-serif}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:4px 8px;vertical-align:top;text-align:left}"
        f"</style></head><body><h1>{html.escape(comparison.question)}</h1>"
        "<p>Offline extractive answers: the verdict, then quoted text of the cited clause, "
        f"no language model. Read the clause before relying on it.</p><table><tr>{head}</tr>{body}</table>"
        "</body></html>\n"
    )
