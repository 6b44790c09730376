"""OCR for PDF pages without a text layer, with word boxes and confidences (Tesseract).

Tesseract (Debian's ``tesseract-ocr`` + ``tesseract-ocr-eng``; its English model ships in
the package, nothing is fetched at run time) reads each scanned page rendered at
``OCR_DPI``; ``docs/formats.md`` has the comparison with RapidOCR that chose it. Its TSV
output gives every word's box and confidence, so an OCR'd page gets text like any other
page (lines top to bottom, one per line Tesseract found, ending with ``\\n``) plus an
``OcrWord`` per word: its offsets in that text, its box in PDF points and confidence.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from clausegraph.errors import IngestError

OCR_DPI = 300
# Tesseract word confidence (0-100) below which a word is marked low-confidence.
LOW_CONFIDENCE = 0.80
PAGE_TIMEOUT_SECONDS = 180
INSTALL_HINT = (
    "install Tesseract (Debian/Ubuntu: apt-get install tesseract-ocr tesseract-ocr-eng; "
    "macOS: brew install tesseract) or ingest with --no-ocr / --set ingest.ocr=false"
)


class OcrUnavailable(Exception):
    """The OCR engine is missing or failed; the message says what to do."""


@dataclass
class OcrText:
    """One page as OCR read it: text ending with a newline, and its words."""

    text: str
    # (start, end, (x0, y0, x1, y1) in points, confidence 0-1), offsets into ``text``
    words: list[tuple[int, int, tuple[float, float, float, float], float]] = field(
        default_factory=list
    )


def tesseract_path() -> str | None:
    """The ``tesseract`` program, or None when it is not installed."""
    return shutil.which("tesseract")


def ocr_page(page: pymupdf.Page, dpi: int = OCR_DPI, language: str = "eng") -> OcrText:
    """OCR one page with Tesseract; ``OcrUnavailable`` if it is missing or fails."""
    program = tesseract_path()
    if program is None:
        raise OcrUnavailable(f"Tesseract OCR is not installed: {INSTALL_HINT}")
    image = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY).tobytes("png")
    try:
        run = subprocess.run(
            [program, "stdin", "stdout", "-l", language, "--psm", "3", "tsv"],
            input=image, capture_output=True, timeout=PAGE_TIMEOUT_SECONDS, check=False,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},  # one thread: pages run one by one
        )
    except subprocess.TimeoutExpired as error:
        raise OcrUnavailable(f"Tesseract took over {PAGE_TIMEOUT_SECONDS} s on one page") from error
    if run.returncode != 0:
        detail = " ".join(run.stderr.decode("utf-8", "replace").split())[:200]
        if "Failed loading language" in detail or "Error opening data file" in detail:
            raise OcrUnavailable(f"Tesseract has no '{language}' language data: {INSTALL_HINT}")
        raise OcrUnavailable(f"Tesseract failed: {detail or f'exit code {run.returncode}'}")
    return parse_tsv(run.stdout.decode("utf-8", "replace"), scale=72.0 / dpi)


def parse_tsv(tsv: str, scale: float) -> OcrText:
    """Page text and word boxes from Tesseract's TSV (pixel boxes times ``scale``)."""
    lines: dict[tuple[int, int, int], list[tuple[str, tuple[float, ...], float]]] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        word = (row.get("text") or "").strip()
        if row.get("level") != "5" or not word:
            continue
        left, top = float(row["left"]), float(row["top"])
        box = (left * scale, top * scale, (left + float(row["width"])) * scale,
               (top + float(row["height"])) * scale)
        confidence = min(max(float(row["conf"]) / 100.0, 0.0), 1.0)
        key = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        lines.setdefault(key, []).append((word, box, confidence))
    parts: list[str] = []
    words: list[tuple[int, int, tuple[float, float, float, float], float]] = []
    offset = 0
    for line in lines.values():  # Tesseract writes lines in its reading order
        for index, (word, box, confidence) in enumerate(line):
            if index:
                parts.append(" ")
                offset += 1
            words.append((offset, offset + len(word), box, confidence))  # type: ignore[arg-type]
            parts.append(word)
            offset += len(word)
        parts.append("\n")
        offset += 1
    return OcrText(text="".join(parts), words=words)


def low_confidence_spans(words: list[tuple[int, int, float]],
                         threshold: float = LOW_CONFIDENCE) -> list[tuple[int, int]]:
    """Spans of consecutive words (start, end, confidence) below ``threshold``, merged."""
    spans: list[tuple[int, int]] = []
    for start, end, confidence in words:
        if confidence >= threshold:
            continue
        if spans and start - spans[-1][1] <= 1:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def is_scanned_page(page: pymupdf.Page, page_text: str, max_chars: int) -> bool:
    """Almost no text but an image: a page to OCR."""
    return len("".join(page_text.split())) < max_chars and bool(page.get_image_info())


def describe_pages(numbers: list[int]) -> str:
    """'page 3' or 'pages 1-4' or 'pages 1, 3, 5'."""
    if len(numbers) == 1:
        return f"page {numbers[0]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"pages {numbers[0]}-{numbers[-1]}"
    return "pages " + ", ".join(map(str, numbers))


@dataclass
class PdfOcr:
    """Which pages of a PDF were OCR'd and their words (offsets relative to each page)."""

    pages: list[int] = field(default_factory=list)  # 1-based
    words: dict[int, OcrText] = field(default_factory=dict)  # by 1-based page number


def ocr_scanned_pages(path: Path, pdf: pymupdf.Document, page_texts: list[str],
                      max_chars: int) -> tuple[list[str], PdfOcr]:
    """Page texts with every scanned page replaced by its OCR text.

    Pages that have a text layer are kept as they are (a mixed PDF is read page by
    page). ``IngestError`` names the file when the engine is missing or fails.
    """
    scanned = [index for index, text in enumerate(page_texts)
               if is_scanned_page(pdf[index], text, max_chars)]
    result = PdfOcr()
    texts = list(page_texts)
    for index in scanned:
        try:
            read = ocr_page(pdf[index])
        except OcrUnavailable as error:
            pages = describe_pages([i + 1 for i in scanned])
            raise IngestError(path, f"{pages} scanned (no text layer); {error}") from error
        texts[index] = read.text
        result.pages.append(index + 1)
        result.words[index + 1] = read
    return texts, result
