"""Scanned PDFs: a page of a bundled CUAD PDF rendered to an image, rebuilt as an
image-only PDF and OCR'd with Tesseract; mixed PDFs page by page; OCR off; engine
missing; images with no text; low-confidence words marked for answers."""

from __future__ import annotations

import difflib
import re
import shutil
from pathlib import Path

import pymupdf
import pytest

from clausegraph.errors import IngestError
from clausegraph.ingest import load_document
from clausegraph.models import Document

DATASET = Path(__file__).resolve().parents[2] / "docs" / "dataset"
PHOTRONICS = next(DATASET.glob("Photronics*.pdf"))

needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None,
    reason="Tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng; "
    ".ci/run installs it)",
)


def blank_scan(path: Path) -> Path:
    """A one-page PDF holding only a grey image: a photo, or a scan of an empty page."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 260), False)
    pixmap.clear_with(180)
    page.insert_image(page.rect, pixmap=pixmap)
    pdf.save(path)
    return path


def image_only_pdf(path: Path, source: Path, pages: list[int], dpi: int = 200,
                   keep_text: tuple[int, ...] = ()) -> Path:
    """Pages of ``source`` as scans (rendered images, no text layer); ``keep_text`` pages
    are copied as they are, so the result is a mixed PDF."""
    with pymupdf.open(source) as original, pymupdf.open() as scan:
        for index in pages:
            if index in keep_text:
                scan.insert_pdf(original, from_page=index, to_page=index)
                continue
            page = original[index]
            pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            new = scan.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pixmap)
        scan.save(path)
    return path


def words_of(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def char_error_rate(reference: str, hypothesis: str) -> float:
    """1 - similarity of the whitespace-normalised strings (difflib's matching blocks)."""
    ref, hyp = " ".join(reference.split()), " ".join(hypothesis.split())
    matcher = difflib.SequenceMatcher(None, ref, hyp, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return (max(len(ref), len(hyp)) - matched) / max(len(ref), 1)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, str]:
    folder = tmp_path_factory.mktemp("scan")
    path = image_only_pdf(folder / "scan.pdf", PHOTRONICS, [1])
    with pymupdf.open(PHOTRONICS) as original:
        reference = original[1].get_text()
    return load_document(path), reference


@needs_tesseract
def test_scanned_page_is_read_back_close_to_its_text_layer(scanned) -> None:
    document, reference = scanned
    assert document.ocr_pages == [1]
    assert document.warnings == ["text of page 1 read by OCR"]
    assert char_error_rate(reference, document.text) < 0.03
    assert "Subject to the terms and conditions mentioned hereunder" in document.text


@needs_tesseract
def test_ocr_words_have_spans_and_boxes_on_the_page(scanned) -> None:
    document, _ = scanned
    assert len(document.ocr_words) > 100
    with pymupdf.open(PHOTRONICS) as original:
        page = original[1]
        checked = 0
        for word in document.ocr_words:
            text = document.text[word.start : word.end]
            assert text == text.strip() and text
            x0, y0, x1, y1 = word.bbox
            assert 0 <= x0 < x1 <= page.rect.width and 0 <= y0 < y1 <= page.rect.height
            if len(text) >= 6 and text.isalpha() and word.confidence > 0.9:
                # the original text layer has that very word under the OCR box
                clip = pymupdf.Rect(word.bbox) + (-2, -2, 2, 2)
                assert text in page.get_text("text", clip=clip), (text, word.bbox)
                checked += 1
    assert checked > 30


@needs_tesseract
def test_mixed_pdf_is_read_page_by_page(tmp_path: Path) -> None:
    path = image_only_pdf(tmp_path / "mixed.pdf", PHOTRONICS, [0, 1, 2], keep_text=(0, 2))
    document = load_document(path)
    with pymupdf.open(PHOTRONICS) as original:
        first = original[0].get_text()
    assert document.ocr_pages == [2]
    assert [w.page for w in document.ocr_words] == [2] * len(document.ocr_words)
    page_two = document.pages[1]
    assert all(page_two.start <= w.start < w.end <= page_two.end for w in document.ocr_words)
    assert words_of(first)[:6] == words_of(document.text)[:6]  # page 1 from its text layer


def test_ocr_switched_off(tmp_path: Path) -> None:
    path = image_only_pdf(tmp_path / "scan.pdf", PHOTRONICS, [1])
    with pytest.raises(IngestError) as caught:
        load_document(path, ocr=False)
    assert "OCR is off" in str(caught.value) and str(path) in str(caught.value)
    mixed = image_only_pdf(tmp_path / "mixed.pdf", PHOTRONICS, [0, 1], keep_text=(0,))
    document = load_document(mixed, ocr=False)  # the text page still ingests
    assert document.ocr_pages == [] and document.ocr_words == []
    assert document.pages[1].end - document.pages[1].start == 0


def test_missing_engine_says_how_to_install_it(tmp_path: Path, monkeypatch) -> None:
    path = image_only_pdf(tmp_path / "scan.pdf", PHOTRONICS, [1])
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    with pytest.raises(IngestError) as caught:
        load_document(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: page 1 scanned (no text layer); Tesseract OCR is not "
                              "installed")
    assert "apt-get install tesseract-ocr tesseract-ocr-eng" in message and "--no-ocr" in message


@needs_tesseract
def test_image_without_text(tmp_path: Path) -> None:
    path = blank_scan(tmp_path / "photo.pdf")
    with pytest.raises(IngestError) as caught:
        load_document(path)
    assert str(caught.value) == f"{path}: no text: OCR found no words on the scanned page 1"


def test_scan_with_ocr_off_says_so(tmp_path: Path) -> None:
    path = blank_scan(tmp_path / "scan.pdf")
    with pytest.raises(IngestError) as caught:
        load_document(path, ocr=False)
    assert str(caught.value) == f"{path}: no text layer (scanned PDF?) and OCR is off " \
        "(--no-ocr / ingest.ocr=false)"


@needs_tesseract
def test_poor_scan_is_marked_low_confidence(tmp_path: Path) -> None:
    path = image_only_pdf(tmp_path / "poor.pdf", PHOTRONICS, [1], dpi=60)
    document = load_document(path)
    low = [w for w in document.ocr_words if w.confidence < 0.8]
    assert low, "a 60 dpi scan should have some words Tesseract is unsure of"
    for word in low:
        assert document.is_low_confidence((word.start, word.end))
    sure = next(w for w in document.ocr_words if w.confidence >= 0.95)
    assert not any(s <= sure.start < e for s, e in document.low_confidence)
