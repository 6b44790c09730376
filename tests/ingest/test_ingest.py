"""Ingest: canonical text, pages, running headers/footers, ids and keys, and bad inputs.

Real inputs are the CUAD PDFs shipped in docs/dataset/; PDFs with particular properties
(encrypted, scanned, two-column, repeated headers) are generated with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import itertools
import re
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from clausegraph.errors import IngestError
from clausegraph.ingest import (
    SUPPORTED_SUFFIXES,
    document_id,
    document_key,
    iter_input_files,
    load_document,
)
from clausegraph.ingest.pdf import _Block, _reading_order
from clausegraph.models import Document, Span

DATASET = Path(__file__).resolve().parents[2] / "docs" / "dataset"
SHIPPED_PDFS = sorted(DATASET.glob("*.pdf"))
PHOTRONICS_PDF = next(DATASET.glob("Photronics*.pdf"))
PHOTRONICS_FOOTER = "Source: PHOTRONICS INC, 10-Q/A, 12/19/2017"
PHOTRONICS_BODY = "Photronics and DNP wish to participate in a joint venture"
AES_256: int = pymupdf.PDF_ENCRYPT_AES_256  # type: ignore[attr-defined]  # missing from stubs

TextItem = tuple[float, float, str]  # x, y (points) and text of one insert_text call


# ----------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def photronics() -> Document:
    return load_document(PHOTRONICS_PDF)


def is_excluded(document: Document, start: int, end: int) -> bool:
    """Whether [start, end) lies inside one excluded span."""
    return any(low <= start and end <= high for low, high in document.excluded)


def occurrences(text: str, needle: str) -> list[Span]:
    return [(m.start(), m.end()) for m in re.finditer(re.escape(needle), text)]


def write_pdf(path: Path, pages: Sequence[Sequence[TextItem]], **save_options: Any) -> Path:
    """A PDF whose pages hold text at (x, y) points, in the order given (= stream order)."""
    pdf = pymupdf.open()
    for items in pages:
        page = pdf.new_page(width=595, height=842)
        for x, y, text in items:
            page.insert_text((x, y), text, fontsize=10)
    pdf.save(path, **save_options)
    pdf.close()
    return path


def running_pages(count: int, header: str) -> list[list[TextItem]]:
    """Pages with a running header, a 'Page n of N' footer and distinct body lines."""
    return [
        [
            (72, 40, header),
            (72, 100, f"Clause {number}. The insurer pays hospital costs for event {number}."),
            (72, 115, f"Body line {number} continues the clause with more particular words."),
            (300, 810, f"Page {number} of {count}"),
        ]
        for number in range(1, count + 1)
    ]


def assert_fails(path: Path, *problem_words: str) -> IngestError:
    """load_document raises an IngestError naming the file and (all words of) the problem."""
    with pytest.raises(IngestError) as caught:
        load_document(path)
    message = str(caught.value)
    assert str(path) in message
    for word in problem_words:
        assert word.lower() in caught.value.problem.lower(), message
    assert "\n" not in message
    return caught.value


# --------------------------------------------------------------------------- text files


def test_text_file_is_canonical_as_python_reads_it(tmp_path: Path) -> None:
    # BOM, CRLF and a lone CR: offsets must match open(path, encoding="utf-8").read().
    raw = "\ufeffMASTER SERVICES AGREEMENT\r\n\r\n1. Term. It runs two years.\rNext line\n"
    path = tmp_path / "msa.txt"
    path.write_bytes(raw.encode("utf-8"))
    document = load_document(path)
    expected = path.read_text(encoding="utf-8")  # universal newlines, like open().read()
    assert document.text == expected
    assert document.text[0] == "\ufeff"
    start = expected.index("1. Term.")
    span = (start, start + len("1. Term. It runs two years."))
    assert document.text[span[0] : span[1]] == "1. Term. It runs two years."
    assert [(p.number, p.start, p.end) for p in document.pages] == [(1, 0, len(expected))]
    assert document.pages_of(span) == [1]
    assert document.media_type == "text"
    assert document.excluded == []
    assert document.title == "MASTER SERVICES AGREEMENT"
    assert document.doc_id == document_id(path.read_bytes())


def test_text_of_a_real_contract_round_trips(tmp_path: Path, photronics: Document) -> None:
    path = tmp_path / "photronics.txt"
    path.write_text(photronics.text, encoding="utf-8")
    document = load_document(path)
    assert document.text == photronics.text
    start = document.text.index(PHOTRONICS_BODY)
    assert document.text[start : start + len(PHOTRONICS_BODY)] == PHOTRONICS_BODY


def test_markdown_title_comes_from_its_heading(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# Supply Agreement\n\nThe supplier delivers goods monthly.\n", "utf-8")
    document = load_document(path)
    assert document.title == "Supply Agreement"
    assert document.text == path.read_text("utf-8")


# ---------------------------------------------------------------------------------- PDFs


def test_pdf_pages_match_pymupdf_and_tile_the_text(photronics: Document) -> None:
    with pymupdf.open(PHOTRONICS_PDF) as pdf:
        page_count = pdf.page_count
    assert [p.number for p in photronics.pages] == list(range(1, page_count + 1))
    assert photronics.pages[0].start == 0
    assert photronics.pages[-1].end == len(photronics.text)
    for page, following in itertools.pairwise(photronics.pages):
        assert page.start < page.end < following.start
        assert photronics.page_of(page.start) == page.number
        assert photronics.page_of(page.end - 1) == page.number
    first, second = photronics.pages[0], photronics.pages[1]
    assert photronics.pages_of((first.end - 10, second.start + 10)) == [1, 2]
    assert photronics.media_type == "pdf"
    assert photronics.title == "OUTSOURCING AGREEMENT"


@pytest.mark.parametrize("pdf_path", SHIPPED_PDFS, ids=lambda p: p.name[:30])
def test_pdf_page_text_keeps_every_word_of_the_page(pdf_path: Path) -> None:
    # Reading order may move blocks, but no word may be lost, added or changed.
    document = load_document(pdf_path)
    flags = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
    with pymupdf.open(pdf_path) as pdf:
        for page, pdf_page in zip(document.pages, pdf, strict=True):
            ours = Counter(document.text[page.start : page.end].split())
            assert ours == Counter(pdf_page.get_text(flags=flags).split()), page.number


def test_running_footer_is_excluded_but_body_text_is_not(photronics: Document) -> None:
    footers = occurrences(photronics.text, PHOTRONICS_FOOTER)
    assert len(footers) >= 0.8 * len(photronics.pages)
    assert all(is_excluded(photronics, start, end) for start, end in footers)
    assert photronics.page_of(footers[0][0]) == 1
    body = occurrences(photronics.text, PHOTRONICS_BODY)
    assert len(body) == 1
    assert not any(low < body[0][1] and body[0][0] < high for low, high in photronics.excluded)
    excluded_chars = sum(end - start for start, end in photronics.excluded)
    assert excluded_chars < 0.05 * len(photronics.text)


def test_excluded_spans_are_sorted_disjoint_whole_lines(photronics: Document) -> None:
    spans = photronics.excluded
    assert spans
    assert all(start < end for start, end in spans)
    assert all(a_end < b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))
    text = photronics.text
    for start, end in spans:
        assert start == 0 or text[start - 1] == "\n"
        assert text[end - 1] == "\n"


def test_generated_headers_and_page_numbers_are_excluded(tmp_path: Path) -> None:
    header = "ACME Insurance Ltd - Policy Wording - UIN: ACMHLIP23001V012223"
    pages = running_pages(5, header)
    pages[2].insert(1, (72, 70, "17"))  # a lone number that does not count with the pages
    document = load_document(write_pdf(tmp_path / "policy.pdf", pages))
    for needle in [header] + [f"Page {n} of 5" for n in range(1, 6)]:
        found = occurrences(document.text, needle)
        assert found and all(is_excluded(document, *span) for span in found), needle
    for needle in ["The insurer pays hospital costs for event 3.", "\n17\n"]:
        (span,) = occurrences(document.text, needle)
        assert not is_excluded(document, span[0] + 1, span[1] - 1), needle


def test_two_page_document_printed_twice_keeps_its_lines_but_drops_page_numbers(
        tmp_path: Path) -> None:
    # every line of the second page repeats the first's but for its numbers: the text
    # itself, printed twice, not a header
    header = "ACME Insurance Ltd - Policy Wording"
    document = load_document(write_pdf(tmp_path / "short.pdf", running_pages(2, header)))
    assert not any(is_excluded(document, *span) for span in occurrences(document.text, header))
    for number in (1, 2):
        (span,) = occurrences(document.text, f"Page {number} of 2")
        assert is_excluded(document, *span)


def two_pages_with_own_text(header: list[str], footer: list[str]) -> list[list[TextItem]]:
    """Two pages that open with ``header``'s lines and close with ``footer``'s, each with
    body text of its own (a short add-on wording)."""
    bodies = [["Air Ambulance Cover", "We will cover air ambulance costs up to 150 km.",
               "The insured shall notify us within 48 hours.", "Exclusions of this cover:",
               "i. Transfers for convenience."],
              ["Well Mother Cover", "Covers routine medical care of expectant mothers.",
               "Routine preventive care services are included.", "Period of cover:",
               "ii. From the onset of pregnancy."]]
    pages = []
    for body in bodies:
        lines = [*header, *body, *footer]
        pages.append([(72, 40 + 14 * i, line) for i, line in enumerate(lines)])
    return pages


@pytest.mark.parametrize(("header", "footer"), [
    (["Well Baby Well Mother - Add On Wordings", "Add On UIN: ABCHLGA23009V012223"],
     ["Registered Office: 5th Floor, Tower 3, Mumbai - 400 070"]),
    (["ACME MUTUAL: TRAVEL EXTENSION"], ["Source: ACME CORP, S-1/A, 3/19/2007", "Page 1"]),
    ([], ["Registered office: 1 High Street, London EC1A 1AA", "Policy wording v2.1"]),
])
def test_two_page_document_drops_the_lines_both_pages_open_and_close_with(
        tmp_path: Path, header: list[str], footer: list[str]) -> None:
    document = load_document(write_pdf(tmp_path / "addon.pdf",
                                       two_pages_with_own_text(header, footer)))
    for line in [*header, *footer]:
        found = occurrences(document.text, line)
        assert len(found) == 2 and all(is_excluded(document, *span) for span in found), line
    for line in ["Air Ambulance Cover", "Well Mother Cover", "i. Transfers for convenience.",
                 "ii. From the onset of pregnancy."]:
        (span,) = occurrences(document.text, line)
        assert not is_excluded(document, *span), line


def test_two_page_document_keeps_a_line_repeated_inside_a_page(tmp_path: Path) -> None:
    # the second page's own first line repeats a line from inside the first page: a
    # subject named twice, not a running header
    pages = two_pages_with_own_text([], [])
    pages[1][0] = (72, 40, "Exclusions of this cover:")
    document = load_document(write_pdf(tmp_path / "addon.pdf", pages))
    assert not document.excluded


def test_two_columns_are_read_column_by_column(tmp_path: Path) -> None:
    def paragraph(x: float, y: float, name: str) -> TextItem:
        lines = [f"{name} paragraph line {i} holds running text of the column." for i in (1, 2)]
        return (x, y, "\n".join(lines))

    left = [paragraph(40, 100 + 40 * i, f"Left{i}") for i in range(6)]
    right = [paragraph(310, 120 + 40 * i, f"Right{i}") for i in range(6)]
    path = write_pdf(tmp_path / "columns.pdf", [right + left])  # stream: right column first
    with pymupdf.open(path) as pdf:
        stream_text = pdf[0].get_text()
    assert stream_text.index("Right0") < stream_text.index("Left0")
    text = load_document(path).text
    positions = [text.index(f"{side}{i} ") for side in ("Left", "Right") for i in range(6)]
    assert positions == sorted(positions)


def test_heading_atop_the_right_column_is_read_with_its_column(tmp_path: Path) -> None:
    """A heading level with the left column's first line, inside the top margin, opens the
    right column; it is no running header read before the page (a two-column policy's
    "SECTION-5 GENERAL EXCLUSIONS" had taken the left column's text as its own)."""
    def paragraph(x: float, y: float, name: str) -> TextItem:
        lines = [f"{name} paragraph line {i} holds running text of the column." for i in (1, 2)]
        return (x, y, "\n".join(lines))

    header = (72, 18, "ACME Insurance Ltd - Group Policy Wording")
    heading = (310, 44, "SECTION-5 GENERAL EXCLUSIONS")
    left = [paragraph(40, 44 + 40 * i, f"Left{i}") for i in range(6)]
    right = [paragraph(310, 70 + 40 * i, f"Right{i}") for i in range(6)]
    page = [header, heading, *right, *left]
    text = load_document(write_pdf(tmp_path / "columns.pdf", [page])).text
    order = [text.index(words) for words in
             ("ACME Insurance", "Left0 ", "Left5 ", "SECTION-5", "Right0 ", "Right5 ")]
    assert order == sorted(order)


def test_lines_atop_both_columns_are_read_with_the_columns_they_run_into() -> None:
    """The last word of a clause carried over to the top of the left column, and the next
    clause's heading atop the right column, each a block of its own inside the top margin
    right over its column's text (a group mediclaim wording's page, its geometry kept):
    each opens its column. Read as a running header, the heading came before the left
    column, and the clause it numbers before its predecessors."""
    def column(x0: float, x1: float, name: str, lines: int) -> list[_Block]:
        # paragraphs of different lengths in each column: text, not the cells of a table
        tops = [48 + (11 * lines + 6) * i for i in range(8)]
        return [_Block(x0, top, x1, top + 11 * lines, f"{name}{i} runs on in its column.\n")
                for i, top in enumerate(tops)]

    blocks = [_Block(128, 745, 486, 759, "insurer.example\n"),
              _Block(58, 35, 105, 46, "Policyholder.\n"),
              *column(36, 294, "Left", 3),
              _Block(304, 34, 405, 46, "8. Complete Discharge\n"),
              *column(304, 562, "Right", 4)]
    text = "".join(b.text for b in _reading_order(blocks, 595.0, 842.0))
    order = [text.index(words) for words in
             ("Policyholder.", "Left0 ", "Left7 ", "8. Complete", "Right0 ", "Right7 ")]
    assert order == sorted(order)
    assert text.rstrip().endswith("insurer.example")


def test_a_running_header_above_the_body_is_still_read_first() -> None:
    blocks = [_Block(72, 14, 300, 26, "ACME Insurance Ltd - Group Policy Wording\n"),
              *[_Block(36, 48 + 50 * i, 294, 92 + 50 * i, f"Left{i} text.\n") for i in range(8)],
              *[_Block(304, 60 + 50 * i, 562, 104 + 50 * i, f"Right{i} text.\n")
                for i in range(8)]]
    text = "".join(b.text for b in _reading_order(blocks, 595.0, 842.0))
    assert text.startswith("ACME Insurance")
    assert text.index("Left7 ") < text.index("Right0 ")


def test_pdf_metadata_title_is_used_when_the_text_bears_it_out(tmp_path: Path) -> None:
    pages = [[(72, 100, "Group Travel Cover. The insurer pays for lost baggage and delays.")]]
    path = write_pdf(tmp_path / "wording.pdf", pages)
    with pymupdf.open(path) as pdf:
        pdf.set_metadata({"title": "Group Travel Cover"})
        pdf.save(tmp_path / "titled.pdf")
        pdf.set_metadata({"title": "Golden Years Plan"})  # a template's stale title
        pdf.save(tmp_path / "stale.pdf")
    assert load_document(tmp_path / "titled.pdf").title == "Group Travel Cover"
    assert load_document(tmp_path / "stale.pdf").title != "Golden Years Plan"


def test_pdf_with_an_empty_user_password_is_ingested(tmp_path: Path) -> None:
    sentence = "The licensee shall pay royalties quarterly."
    path = write_pdf(
        tmp_path / "owner-only.pdf",
        [[(72, 100, sentence)]],
        encryption=AES_256,
        owner_pw="owner-secret",
        user_pw="",
    )
    assert sentence in load_document(path).text


def test_hundred_page_pdf_ingests_quickly(tmp_path: Path) -> None:
    lines = [
        (72, 80 + 14 * i, f"Line {i} of the clause text about payment terms.") for i in range(45)
    ]
    one_page = pymupdf.open(write_pdf(tmp_path / "one.pdf", [lines]))
    long_pdf = pymupdf.open()
    for _ in range(100):
        long_pdf.insert_pdf(one_page)
    long_pdf.save(tmp_path / "long.pdf")
    started = time.perf_counter()
    document = load_document(tmp_path / "long.pdf")
    assert time.perf_counter() - started < 5.0  # about 0.2 s on 2 cores; generous for CI
    assert len(document.pages) == 100


# --------------------------------------------------------------------------- bad inputs


def test_garbage_with_pdf_suffix_is_not_a_readable_pdf(tmp_path: Path) -> None:
    path = tmp_path / "garbage.pdf"
    path.write_bytes(b"this is not a PDF at all \x00\x01\x02" * 50)
    assert_fails(path, "not a readable PDF")


def test_truncated_pdf_is_refused(tmp_path: Path) -> None:
    data = PHOTRONICS_PDF.read_bytes()
    path = tmp_path / "truncated.pdf"
    path.write_bytes(data[: len(data) // 2])
    assert_fails(path, "not a readable PDF", "truncated")


def test_encrypted_pdf_needs_a_password(tmp_path: Path) -> None:
    path = write_pdf(
        tmp_path / "locked.pdf",
        [[(72, 100, "Secret terms.")]],
        encryption=AES_256,
        owner_pw="owner-secret",
        user_pw="user-secret",
    )
    assert_fails(path, "encrypted PDF", "password")


def test_pdf_of_blank_pages_has_no_text(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    pdf.new_page()
    path = tmp_path / "blank.pdf"
    pdf.save(path)
    assert_fails(path, "no text")


@pytest.mark.parametrize("name", ["empty.pdf", "empty.txt"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"")
    assert_fails(path, "empty file")


def test_whitespace_only_text_file(tmp_path: Path) -> None:
    path = tmp_path / "blank.md"
    path.write_text("\ufeff \n\t\n", encoding="utf-8")
    assert_fails(path, "no text")


def test_binary_bytes_in_a_text_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "random.txt"
    path.write_bytes(bytes(range(256)) * 8)  # NUL bytes and every control: no text encoding
    error = assert_fails(path, "not text in UTF-8 or another known encoding", "binary")
    assert "0x80" in error.problem and "position 128" in error.problem


def test_unsupported_suffix_lists_the_supported_ones(tmp_path: Path) -> None:
    path = tmp_path / "contract.xlsx"
    path.write_bytes(b"PK\x03\x04 not really a workbook")
    error = assert_fails(path, "unsupported file type '.xlsx'")
    assert all(suffix in error.problem for suffix in SUPPORTED_SUFFIXES)


def test_missing_path_and_directory(tmp_path: Path) -> None:
    assert_fails(tmp_path / "nowhere.pdf", "not found")
    assert_fails(tmp_path, "directory")


# ------------------------------------------------------------------------- ids and keys


def test_document_id_depends_on_content_only(tmp_path: Path) -> None:
    data = PHOTRONICS_PDF.read_bytes()
    changed = bytearray(data)
    changed[len(data) // 2] ^= 0x01
    assert document_id(data) == document_id(bytes(data))
    assert document_id(bytes(changed)) != document_id(data)
    assert re.fullmatch(r"[0-9a-f]{16}", document_id(data))
    copy = tmp_path / "renamed copy.pdf"
    copy.write_bytes(data)
    original, renamed = load_document(PHOTRONICS_PDF), load_document(copy)
    assert original.doc_id == renamed.doc_id == document_id(data)
    assert original.key != renamed.key


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        (
            "PhotronicsInc_20171219_10-QA_EX-10.28_10982650_EX-10.28_Outsourcing Agreement.pdf",
            "photronics-outsourcing",
        ),
        ("Arogya_Sanjeevani_Policy_National_Insurance.pdf", "arogya-sanjeevani-policy"),
        ("NU%20Confidentiality%20Agreement.txt", "nu-confidentiality"),
        ("Überweisung: Vertrag (final) v2.PDF", "uberweisung-vertrag"),
        ("2019-01-07.pdf", "doc"),
    ],
)
def test_document_key_is_a_short_safe_slug(name: str, slug: str) -> None:
    doc_id = "3fa2b1c4d5e6f708"
    key = document_key(name, doc_id)
    assert key == f"{slug}-3fa2b1"
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", key)
    assert len(key) <= 24 + 7
    assert document_key(Path("elsewhere") / name, doc_id) == key


def test_iter_input_files_expands_folders_and_keeps_explicit_files(tmp_path: Path) -> None:
    for relative in ["b.pdf", "a.txt", "sub/c.md", "sub/skip.docx", ".hidden/d.pdf", "e.PDF"]:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_bytes(b"x")
    explicit = tmp_path / "sub" / "skip.docx"
    found = iter_input_files([tmp_path, explicit, tmp_path / "a.txt", tmp_path / "missing.pdf"])
    names = [path.relative_to(tmp_path).as_posix() for path in found]
    assert names == ["a.txt", "b.pdf", "e.PDF", "sub/c.md", "sub/skip.docx", "missing.pdf"]
