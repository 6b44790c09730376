"""Writing a report to a file: Markdown, HTML, JSON or PDF."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from clausegraph.report.chain import chain_svg
from clausegraph.report.models import FORMATS, Report
from clausegraph.report.render import (
    _BLANK_SVG,
    DIAGRAM_ID,
    PDF_DIAGRAM_WIDTH,
    _svg_size,
    render_html,
    render_markdown,
)

# -- writers -------------------------------------------------------------------------------


def _target(path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def write_markdown(report: Report, path: str | Path) -> Path:
    path = _target(path)
    path.write_text(render_markdown(report), encoding="utf-8")
    return path


def write_html(report: Report, path: str | Path) -> Path:
    path = _target(path)
    path.write_text(render_html(report, "html"), encoding="utf-8")
    return path


def write_json(report: Report, path: str | Path) -> Path:
    path = _target(path)
    path.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    return path


def write_pdf(report: Report, path: str | Path) -> Path:
    """Lay out the report's HTML with ``pymupdf.Story``, then add running header/footer.

    The chain diagram is placed as vector graphics: the HTML holds a blank placeholder
    image of the diagram's size, and the SVG (converted to a PDF page by MuPDF) is drawn
    into the placeholder's rectangle, so its text stays sharp and selectable.
    """
    import pymupdf

    path = _target(path)
    tmp = path.with_name(path.name + ".tmp")
    archive = pymupdf.Archive()
    archive.add(_BLANK_SVG, "chain-placeholder.svg")
    diagram_rects: list[tuple[int, Any]] = []

    def record(position: Any) -> None:
        if position.id == DIAGRAM_ID and position.open_close & 1:
            diagram_rects.append((position.page, pymupdf.Rect(position.rect)))

    layout_html(render_html(report, "pdf"), tmp, archive, record)
    document = pymupdf.open(str(tmp))
    svg = chain_svg(report)
    if svg and diagram_rects:
        drawing = pymupdf.open("pdf", pymupdf.open(stream=svg.encode(), filetype="svg")
                               .convert_to_pdf())
        number, rect = diagram_rects[0]
        width, height = _svg_size(svg)
        scale = PDF_DIAGRAM_WIDTH / width
        left = rect.x0 + max(rect.width - width * scale, 0) / 2  # centred like the image
        target = pymupdf.Rect(left, rect.y0, left + width * scale, rect.y0 + height * scale)
        document[number].show_pdf_page(target, drawing, 0)
    _decorate_pages(document, report)
    document.set_metadata({
        "title": f"ClauseGraph audit report: {report.question[:120]}",
        "subject": report.question,
        "author": "ClauseGraph",
        "creator": f"ClauseGraph {report.clausegraph_version}",
        "producer": "PyMuPDF Story",
        "keywords": f"report {report.report_id}; verdict {report.verdict}",
    })
    document.save(str(path), garbage=3, deflate=True)
    document.close()
    tmp.unlink(missing_ok=True)
    return path


def layout_html(html: str, path: Path, archive: Any = None,
                record: Callable[[Any], None] | None = None) -> Path:
    """Lay ``html`` out on A4 pages with ``pymupdf.Story`` into the PDF ``path``;
    ``record`` is told where each element with an id was placed."""
    import pymupdf

    page_rect = pymupdf.paper_rect("a4")
    body = page_rect + (48, 56, -48, -56)
    story = pymupdf.Story(html=html, archive=archive)
    writer = pymupdf.DocumentWriter(str(path))
    more, page_number = True, 0
    while more:
        device = writer.begin_page(page_rect)
        more, _ = story.place(body)
        if record is not None:
            story.element_positions(record, {"page": page_number})
        story.draw(device)
        writer.end_page()
        page_number += 1
        if page_number > 500:  # a runaway layout must not fill the disk
            break
    writer.close()
    return path


def _decorate_pages(document: Any, report: Report) -> None:
    """Running header (title, report id) and footer (hashes, page x of n)."""
    import pymupdf

    grey, rule = (0.39, 0.45, 0.55), (0.8, 0.83, 0.87)
    total = document.page_count
    generation = report.index.generation if report.index.generation is not None else "-"
    footer = (f"Index generation {generation}  |  documents "
              f"{', '.join(d.doc_id for d in report.documents)}  |  prompts "
              f"{', '.join(report.template_hashes.values())}")
    for number, page in enumerate(document, start=1):
        width, height = page.rect.width, page.rect.height
        page.draw_line((48, 40), (width - 48, 40), color=rule, width=0.6)
        page.insert_text((48, 34), "ClauseGraph audit report", fontsize=7.5, color=grey,
                         fontname="helv")
        right = f"Report {report.report_id}  |  {report.created_at}"
        page.insert_text((width - 48 - pymupdf.get_text_length(right, "helv", 7.5), 34),
                         right, fontsize=7.5, color=grey, fontname="helv")
        page.draw_line((48, height - 40), (width - 48, height - 40), color=rule, width=0.6)
        text = footer if pymupdf.get_text_length(footer, "helv", 6.5) < width - 170 else (
            footer[:110] + "...")
        page.insert_text((48, height - 30), text, fontsize=6.5, color=grey, fontname="helv")
        label = f"Page {number} of {total}"
        page.insert_text((width - 48 - pymupdf.get_text_length(label, "helv", 7.5),
                          height - 30), label, fontsize=7.5, color=grey, fontname="helv")


WRITERS: dict[str, Callable[[Report, str | Path], Path]] = {
    "md": write_markdown, "html": write_html, "pdf": write_pdf, "json": write_json,
}


def write_report(report: Report, path: str | Path, fmt: str | None = None) -> Path:
    """Write in ``fmt`` (default: from the file suffix: .md .html .pdf .json)."""
    fmt = (fmt or Path(path).suffix.lstrip(".")).lower()
    fmt = {"markdown": "md", "htm": "html"}.get(fmt, fmt)
    if fmt not in WRITERS:
        raise ValueError(f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}")
    return WRITERS[fmt](report, path)


def load_report(source: str | Path | dict[str, Any]) -> Report:
    """A Report from a JSON file path, a JSON string or a dict."""
    if isinstance(source, dict):
        return Report.model_validate(source)
    text = str(source)
    if text.lstrip().startswith("{"):
        return Report.model_validate_json(text)
    return Report.model_validate_json(Path(source).read_text(encoding="utf-8"))


