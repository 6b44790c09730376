"""Word files: automatic numbering as drawn, headings, tables, footnotes, tracked changes,
pages, spans, and every bad input (corrupt, encrypted, empty, zip bomb).

Every .docx is written in the test by python-docx, numbering through real
``numbering.xml`` definitions (tests/ingest/docx_builder.py): the numbers are never in
the paragraph text, so the reader has to draw them.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_BREAK
from docx_builder import (
    add_footnotes,
    add_list_definition,
    add_list_instance,
    add_numbered_paragraph,
    add_rendered_page_break,
    add_tracked_paragraph,
    numbered_contract,
)

import clausegraph.ingest.docx as ingest_docx
from clausegraph.errors import IngestError
from clausegraph.ingest import load_document
from clausegraph.segment import segment

CONTRACT_ITEMS = [
    (0, "DEFINITIONS"),
    (1, "“Products” means the photomasks listed in Schedule A, as amended from time to time."),
    (2, "first, the masks for logic devices;"),
    (2, "second, the masks for memory devices;"),
    (3, "including any reticles made for them;"),
    (1, "“Territory” means the People's Republic of China and Taiwan."),
    (0, "TERM AND TERMINATION"),
    (1, "This Agreement runs for five years from the Effective Date unless ended earlier."),
    (1, "Either party may terminate this Agreement on ninety days' written notice."),
]


def block_texts(document) -> list[str]:
    return [document.text[b.start : b.end] for b in document.blocks]


def assert_fails(path: Path, *words: str) -> IngestError:
    with pytest.raises(IngestError) as caught:
        load_document(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: "), message
    assert "\n" not in message
    for word in words:
        assert word.lower() in caught.value.problem.lower(), message
    return caught.value


def test_automatic_numbering_is_drawn_from_the_definitions(tmp_path: Path) -> None:
    path = numbered_contract(tmp_path / "supply.docx", CONTRACT_ITEMS, title="SUPPLY AGREEMENT")
    raw_text = "\n".join(p.text for p in docx.Document(str(path)).paragraphs)
    assert "1.1" not in raw_text and "(a)" not in raw_text  # only numbering.xml has them

    document = load_document(path)

    assert document.media_type == "docx"
    assert document.title == "SUPPLY AGREEMENT"
    assert [b.label for b in document.blocks] == [
        None, "ARTICLE I", "1.1", "(a)", "(b)", "(i)", "1.2", "ARTICLE II", "2.1", "2.2"
    ]
    texts = block_texts(document)
    assert texts[2] == "1.1 “Products” means the photomasks listed in Schedule A, as amended " \
        "from time to time."
    assert texts[5] == "(i) including any reticles made for them;"
    assert texts[7] == "ARTICLE II TERM AND TERMINATION"
    assert document.text == "".join(text + "\n" for text in texts)
    assert [b.number for b in document.blocks] == list(range(1, 11))
    assert document.blocks[0].kind == "heading" and document.blocks[0].level == 1


def test_numbered_clauses_segment_by_the_drawn_numbers(tmp_path: Path) -> None:
    document = load_document(numbered_contract(tmp_path / "supply.docx", CONTRACT_ITEMS))
    clauses = segment(document)
    labels = [c.clause_id.split(":", 1)[1] for c in clauses]
    assert {"1.1", "1.2", "2.1", "2.2"} <= set(labels)
    termination = next(c for c in clauses if c.clause_id.endswith(":2.2"))
    assert termination.text.startswith("2.2 Either party may terminate")
    assert document.text[termination.span[0] : termination.span[1]] == termination.text
    assert document.paragraphs_of(termination.span) == [9]  # no title: 9 paragraphs


def test_number_formats_starts_restarts_and_overrides(tmp_path: Path) -> None:
    word = docx.Document()
    add_list_definition(word, 1, [("upperLetter", "Schedule %1", 3), ("upperRoman", "%2.", 1),
                                  ("decimalZero", "%3)", 9), ("lowerRoman", "(%4)", 1)],
                        restart_never=[2])
    add_list_instance(word, 1, 1)
    add_list_instance(word, 2, 1, start_overrides={1: 4})  # "restart numbering at IV"
    for text, num_id, level in [
        ("Fees", 1, 0), ("Annual fee", 1, 1), ("Due in January", 1, 2), ("Late fee", 1, 1),
        ("Due in March", 1, 2), ("nested", 1, 3), ("Support", 1, 0), ("Hours", 2, 1),
        ("Response", 2, 1),
    ]:
        add_numbered_paragraph(word, text, num_id, level)
    path = tmp_path / "schedules.docx"
    word.save(path)

    labels = [b.label for b in load_document(path).blocks]

    # Level 2 never restarts (lvlRestart 0): 09, then 10 under the next level-1 item.
    assert labels == ["Schedule C", "I.", "09)", "II.", "10)", "(i)", "Schedule D", "IV.", "V."]


def test_many_items_count_past_z_and_into_roman_hundreds(tmp_path: Path) -> None:
    word = docx.Document()
    add_list_definition(word, 1, [("lowerLetter", "(%1)", 1), ("upperRoman", "%2", 1)])
    add_list_instance(word, 1, 1)
    for index in range(28):
        add_numbered_paragraph(word, f"item {index}", 1, 0)
    add_list_definition(word, 2, [("upperRoman", "Article %1", 149)])
    add_list_instance(word, 2, 2)
    add_numbered_paragraph(word, "Miscellaneous", 2, 0)
    path = tmp_path / "long.docx"
    word.save(path)
    labels = [b.label for b in load_document(path).blocks]
    assert labels[:2] == ["(a)", "(b)"]
    assert labels[25:28] == ["(z)", "(aa)", "(bb)"]
    assert labels[-1] == "Article CXLIX"


def test_heading_styles_are_headings(tmp_path: Path) -> None:
    word = docx.Document()
    word.add_heading("Master Services Agreement", level=0)
    word.add_heading("Payment", level=1)
    word.add_paragraph("Invoices are due within thirty days.")
    word.add_heading("Late payment", level=2)
    word.add_paragraph("Interest accrues at one percent a month.")
    path = tmp_path / "msa.docx"
    word.save(path)
    document = load_document(path)
    assert [(b.kind, b.level) for b in document.blocks] == [
        ("heading", 1), ("heading", 1), ("paragraph", None), ("heading", 2), ("paragraph", None)
    ]
    assert block_texts(document)[3] == "Late payment"


def test_table_rows_name_their_column_headers(tmp_path: Path) -> None:
    word = docx.Document()
    word.add_paragraph("The fees are set out below.")
    table = word.add_table(rows=3, cols=3)
    for row, values in zip(table.rows, [["Service", "Monthly fee", "Notice"],
                                        ["Hosting", "$1,200", "30 days"],
                                        ["Support", "$400", ""]], strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    word.add_paragraph("Fees rise with inflation.")
    path = tmp_path / "fees.docx"
    word.save(path)
    document = load_document(path)
    assert [b.kind for b in document.blocks] == ["paragraph", "table", "paragraph"]
    assert block_texts(document)[1] == (
        "Service | Monthly fee | Notice\n"
        "Hosting | Monthly fee: $1,200 | Notice: 30 days\n"
        "Support | Monthly fee: $400"
    )


def test_footnotes_follow_the_body_with_their_marks(tmp_path: Path) -> None:
    word = docx.Document()
    first = word.add_paragraph("The Supplier warrants the goods.")
    word.add_paragraph("No footnote here.")
    second = word.add_paragraph("Liability is capped.")
    add_footnotes(word, [(first, "For twelve months from delivery."),
                         (second, "Except for fraud.")])
    path = tmp_path / "notes.docx"
    word.save(path)
    document = load_document(path)
    assert block_texts(document) == [
        "The Supplier warrants the goods.[1]",
        "No footnote here.",
        "Liability is capped.[2]",
        "[1] For twelve months from delivery.",
        "[2] Except for fraud.",
    ]
    assert [b.kind for b in document.blocks][-2:] == ["footnote", "footnote"]


def test_tracked_changes_resolve_to_accepted_text_with_a_warning(tmp_path: Path) -> None:
    word = docx.Document()
    add_tracked_paragraph(word, "The term is ", "five", "three", " years.")
    word.add_paragraph("Untouched paragraph.")
    path = tmp_path / "redline.docx"
    word.save(path)
    document = load_document(path)
    assert block_texts(document) == ["The term is five years.", "Untouched paragraph."]
    assert "three" not in document.text
    assert document.warnings == [
        "tracked changes resolved to the accepted text: 1 insertion(s) kept, "
        "1 deletion(s) dropped"
    ]
    clean = tmp_path / "clean.docx"
    docx.Document().save(clean)  # no tracked changes, no warning (and no text: refused)
    assert_fails(clean, "no text")


def test_explicit_page_breaks_make_pages(tmp_path: Path) -> None:
    word = docx.Document()
    word.add_paragraph("Page one text.")
    word.add_paragraph("Still page one.").add_run().add_break(WD_BREAK.PAGE)
    word.add_paragraph("Page two text.")
    path = tmp_path / "breaks.docx"
    word.save(path)
    document = load_document(path)
    assert [(p.number, document.text[p.start : p.end]) for p in document.pages] == [
        (1, "Page one text.\nStill page one.\n"), (2, "Page two text.\n")
    ]
    two = document.text.index("Page two")
    assert document.pages_of((two, two + 8)) == [2]


def test_rendered_page_breaks_win_over_explicit_ones(tmp_path: Path) -> None:
    word = docx.Document()
    word.add_paragraph("First page.")
    second = word.add_paragraph("Word laid this out on page two.")
    add_rendered_page_break(second)
    third = word.add_paragraph("And this on page three.")
    add_rendered_page_break(third)
    path = tmp_path / "rendered.docx"
    word.save(path)
    document = load_document(path)
    assert [document.text[p.start : p.end] for p in document.pages] == [
        "First page.\n", "Word laid this out on page two.\n", "And this on page three.\n"
    ]


def test_unnumbered_document_is_one_page_with_paragraph_spans(tmp_path: Path) -> None:
    word = docx.Document()
    for sentence in ("Alpha paragraph.", "", "Beta paragraph.\twith a tab"):
        word.add_paragraph(sentence)
    path = tmp_path / "plain.docx"
    word.save(path)
    document = load_document(path)
    assert len(document.pages) == 1 and document.pages[0].end == len(document.text)
    assert block_texts(document) == ["Alpha paragraph.", "Beta paragraph.\twith a tab"]
    assert document.paragraphs_of((0, 5)) == [1]


# ------------------------------------------------------------------------------ bad input


def test_corrupt_and_truncated_word_files(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.docx"
    garbage.write_bytes(b"this is not a zip file at all")
    assert_fails(garbage, "not a readable Word file")

    good = numbered_contract(tmp_path / "good.docx", CONTRACT_ITEMS)
    truncated = tmp_path / "truncated.docx"
    truncated.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    assert_fails(truncated, "not a readable Word file")

    no_body = tmp_path / "nobody.docx"
    with zipfile.ZipFile(no_body, "w") as package:
        package.writestr("[Content_Types].xml", "<Types/>")
    assert_fails(no_body, "no word/document.xml")


def test_password_protected_word_file(tmp_path: Path) -> None:
    from msoffcrypto.format.ooxml import OOXMLFile

    plain = numbered_contract(tmp_path / "plain.docx", CONTRACT_ITEMS)
    encrypted = io.BytesIO()
    OOXMLFile(io.BytesIO(plain.read_bytes())).encrypt("s3cret", encrypted)
    path = tmp_path / "locked.docx"
    path.write_bytes(encrypted.getvalue())
    assert_fails(path, "password-protected")


def test_empty_word_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.docx"
    path.write_bytes(b"")
    assert_fails(path, "empty")


def test_zip_bomb_is_refused_before_unpacking(tmp_path: Path, monkeypatch) -> None:
    # A real bomb's ratio (8 MB of zeros in a few kB), under a cap lowered for the test.
    monkeypatch.setattr(ingest_docx, "MAX_UNPACKED_BYTES", 4 * 2**20)
    good = numbered_contract(tmp_path / "good.docx", CONTRACT_ITEMS)
    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            out.writestr(item, source.read(item))
        out.writestr("word/media/padding.bin", bytes(8 * 2**20))
    assert bomb.stat().st_size < 100_000
    assert_fails(bomb, "zip bomb", "limit")


def test_huge_document_ingests(tmp_path: Path) -> None:
    items = [(1 if i % 10 else 0, f"Clause text number {i} about delivery, fees and notices.")
             for i in range(4000)]
    document = load_document(numbered_contract(tmp_path / "huge.docx", items))
    assert len(document.blocks) == 4000
    assert document.blocks[-1].label == "400.9"
    assert document.blocks[-10].label == "ARTICLE CD"
    assert document.text.endswith("400.9 Clause text number 3999 about delivery, fees and "
                                  "notices.\n")


def test_set_numbering_value_carries_the_parent_number(tmp_path: Path) -> None:
    # "ARTICLE 2" is a plain heading; Word's "Set Numbering Value" makes the list below it
    # start at 2.1: a new list instance overriding both levels' starts.
    from docx_builder import DECIMAL_LEVELS

    word = docx.Document()
    add_list_definition(word, 1, DECIMAL_LEVELS)
    add_list_instance(word, 1, 1)
    add_list_instance(word, 2, 1, start_overrides={0: 2, 1: 1})
    add_list_instance(word, 3, 1, start_overrides={2: 1})
    word.add_paragraph("ARTICLE 1")
    add_numbered_paragraph(word, "Definitions apply.", 1, 1)
    word.add_paragraph("ARTICLE 2")
    add_numbered_paragraph(word, "Orders are placed monthly.", 2, 1)
    add_numbered_paragraph(word, "by email;", 3, 2)
    add_numbered_paragraph(word, "Orders may be cancelled.", 2, 1)
    path = tmp_path / "articles.docx"
    word.save(path)
    assert [b.label for b in load_document(path).blocks] == [
        None, "1.1", None, "2.1", "(a)", "2.2"
    ]
