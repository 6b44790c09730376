"""Segmentation on real contract text: CUAD and MAUD excerpts (tests/data) and a CUAD PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from clausegraph.config import SegmentConfig
from clausegraph.models import Clause, Document, Page
from clausegraph.segment import segment

DATA = Path(__file__).parent / "data"
DATASET = Path(__file__).parent.parent / "docs" / "dataset"
PHOTRONICS = DATASET / (
    "PhotronicsInc_20171219_10-QA_EX-10.28_10982650_EX-10.28_Outsourcing Agreement.pdf"
)


def text_document(name: str) -> Document:
    """A .txt excerpt as ingest makes it: the file's text as one page, nothing excluded."""
    text = (DATA / name).read_text(encoding="utf-8")
    return Document(
        doc_id="0" * 16,
        key=name.removesuffix(".txt"),
        source_path=str(DATA / name),
        title=name,
        media_type="text",
        text=text,
        pages=[Page(number=1, start=0, end=len(text))],
    )


def pdf_document(path: Path) -> Document:
    """Pages joined by blank lines; each page's 'Source: ...' footer line excluded."""
    import pymupdf

    with pymupdf.open(path) as pdf:
        page_texts = [page.get_text() for page in pdf]
    text, pages, excluded = "", [], []
    for number, page_text in enumerate(page_texts, 1):
        if text:
            text += "\n\n"
        start = len(text)
        text += page_text
        pages.append(Page(number=number, start=start, end=len(text)))
        footer = text.find("Source: PHOTRONICS INC", start)
        if footer >= 0:
            excluded.append((footer, text.index("\n", footer)))
    return Document(
        doc_id="1" * 16,
        key="photronics",
        source_path=str(path),
        title=path.stem,
        media_type="pdf",
        text=text,
        pages=pages,
        excluded=excluded,
    )


def by_id(clauses: list[Clause]) -> dict[str, Clause]:
    return {clause.clause_id.split(":", 1)[1]: clause for clause in clauses}


def assert_partition(document: Document, clauses: list[Clause]) -> None:
    """Every visible non-space character is in exactly one clause; texts slice back."""
    excluded = set()
    for start, end in document.excluded:
        excluded.update(range(start, end))
    owner: dict[int, str] = {}
    for order, clause in enumerate(clauses):
        assert clause.order == order
        assert clause.text == "\n".join(document.text[a:b] for a, b in clause.segments)
        assert clause.span == (clause.segments[0][0], clause.segments[-1][1])
        assert clause.pages == document.pages_of(clause.span)
        for start, end in clause.segments:
            piece = document.text[start:end]
            assert piece and piece == piece.strip()
            for offset in range(start, end):
                if document.text[offset].isspace():
                    continue
                assert offset not in excluded, clause.clause_id
                assert offset not in owner, (clause.clause_id, owner.get(offset))
                owner[offset] = clause.clause_id
    uncovered = [
        offset
        for offset, char in enumerate(document.text)
        if not char.isspace() and offset not in excluded and offset not in owner
    ]
    assert not uncovered, document.text[uncovered[0] : uncovered[0] + 40]


EXCERPTS = [
    "cuad_xinhua_section_5.txt",
    "cuad_bloom_definitions.txt",
    "cuad_ofg_conversion_services.txt",
    "maud_capstead_article_vi.txt",
    "maud_capstead_section_8_3.txt",
]


@pytest.mark.parametrize("name", EXCERPTS)
def test_excerpts_are_partitioned(name: str) -> None:
    document = text_document(name)
    assert_partition(document, segment(document))


def test_numbering_hierarchy_and_letter_roman_ambiguity() -> None:
    # Xinhua 5.1: items (a)..(i) where "(i)" follows "(h)" so it is a letter, and
    # under it "(i)", "(ii)" restart as roman numerals.
    clauses = by_id(segment(text_document("cuad_xinhua_section_5.txt")))
    letters = [f"5.1({c})" for c in "abcdefghi"]
    assert [key for key in clauses if key.startswith("5.1(")][:9] == letters
    assert clauses["5.1(i)"].text.startswith("(i)  the execution, delivery and performance")
    assert clauses["5.1(i)(i)"].text.startswith("(i)  require any authorization")
    assert clauses["5.1(i)(ii)"].text.startswith("(ii) result in any violation")
    assert clauses["5.1(i)(ii)"].section_path == [
        "5 REPRESENTATIONS AND WARRANTIES",
        "5.1",
        "5.1(i)",
    ]
    assert clauses["5.1(b)"].number == "5.1(b)"
    # "5." is only a heading: it is folded into its first clause, 5.1.
    assert clauses["5.1"].text.startswith("5.   REPRESENTATIONS AND WARRANTIES")
    assert "5" not in clauses


def test_article_and_section_style_of_a_merger_agreement() -> None:
    clauses = by_id(segment(text_document("maud_capstead_article_vi.txt")))
    assert list(clauses) == ["ARTICLE VI", "6.1", "6.2(a)", "6.2(b)"]
    section = clauses["6.1"]
    assert section.heading == "Organization, Standing and Power"
    assert section.number == "6.1"
    assert section.section_path == ["ARTICLE VI REPRESENTATIONS AND WARRANTIES OF PARENT MANAGER"]
    assert section.text.startswith("Section 6.1 Organization, Standing and Power. Parent Manager")
    # Section 6.2 has no text of its own, so its heading opens its first item. (The
    # source writes its semicolons as U+037E GREEK QUESTION MARK, kept as is.)
    item = clauses["6.2(a)"]
    assert item.text.startswith("Section 6.2 Authority")
    assert "(a) Parent Manager has all requisite organizational power" in item.text
    assert item.section_path[-1].startswith("6.2 Authority")
    assert item.section_path[-1].endswith("No Violations\u037e Approvals")


def test_reference_at_line_start_stays_inside_its_clause() -> None:
    # After a page break the text resumes with "Section 6.1 (Organization; ...) and
    # Section 6.2b) ...": a cross-reference, not the start of a section.
    document = text_document("maud_capstead_section_8_3.txt")
    clauses = segment(document)
    ids = [clause.clause_id.split(":", 1)[1] for clause in clauses]
    assert not any(key.startswith("6.") for key in ids)
    offset = document.text.index("Section 6.1 (Organization")
    holder = next(c for c in clauses if any(a <= offset < b for a, b in c.segments))
    assert holder.number == "8.3(a)"
    # "(iv)" and "(1)" inside the sentence of 8.3(a) do not start clauses either.
    assert {c.number for c in clauses} == {"8.3", "8.3(a)", "8.3(b)"}


def test_long_clause_is_cut_into_sentence_windows() -> None:
    document = text_document("maud_capstead_section_8_3.txt")
    config = SegmentConfig(max_clause_chars=600)
    clauses = segment(document, config)
    windows = [c for c in clauses if c.clause_id.split(":", 1)[1].startswith("8.3(a)#w")]
    assert len(windows) >= 3
    assert [c.clause_id.rsplit("#", 1)[1] for c in windows] == [
        f"w{n}" for n in range(1, len(windows) + 1)
    ]
    assert all(c.kind == "window" and c.number == "8.3(a)" for c in windows)
    assert all(150 <= len(c.text) <= 600 for c in windows)
    # Windows never cut a word: each ends where the document has a space (or the clause ends).
    for window in windows:
        end = window.segments[-1][1]
        assert document.text[end].isspace()
    assert_partition(document, clauses)


def test_definitions_get_their_own_clauses_and_terms() -> None:
    clauses = segment(text_document("cuad_bloom_definitions.txt"))
    definitions = [c for c in clauses if c.kind == "definition" and c.number is None]
    terms = [term for c in definitions for term in c.defined_terms]
    assert terms[:3] == ["Actual kWh", "Administrative Services Agreement", "Affiliate"]
    assert "Code" in terms and "Business Day" in terms
    code = next(c for c in definitions if c.defined_terms == ["Code"])
    assert code.text == '"Code" means the Internal Revenue Code of 1986, as amended.'
    assert code.section_path == ["ARTICLE 1 DEFINITIONS", "1.1 Definitions"]
    assert code.clause_id.split(":", 1)[1].startswith("1.1¶")
    # A definition's sub-item belongs to that definition.
    item = next(c for c in clauses if c.text.startswith("(a) such Bloom System"))
    assert item.section_path[-1].startswith("1.1¶")


def test_caps_heading_title_headings_and_bullets() -> None:
    clauses = segment(text_document("cuad_ofg_conversion_services.txt"))
    bullets = [c for c in clauses if "•" in c.text]
    assert all(c.number is None for c in bullets)
    first = next(c for c in clauses if "Overall Implementation Management" in c.text)
    assert first.section_path == ["STANDARD CONVERSION SERVICES", "Project Management"]
    onsite = next(c for c in clauses if "Onsite Scope Definition" in c.text)
    assert onsite.section_path == ["STANDARD CONVERSION SERVICES", "Project Planning"]
    # The "Project Planning" heading starts a new clause rather than ending the last bullet.
    assert onsite.text.startswith("Project Planning")
    # Every bullet line starts a clause or was folded into a neighbour as a tiny fragment.
    assert all(c.text.startswith(("•", "Project", "STANDARD")) for c in clauses)


def test_ids_unique_and_stable() -> None:
    for name in EXCERPTS:
        first = [c.clause_id for c in segment(text_document(name))]
        second = [c.clause_id for c in segment(text_document(name))]
        assert first == second
        assert len(set(first)) == len(first)
        assert all(clause_id.startswith(name.removesuffix(".txt") + ":") for clause_id in first)
        for clause_id in first:
            path = clause_id.split(":", 1)[1]
            assert path == " ".join(path.split())  # at most single spaces, no newlines


def test_tiny_fragments_merge_but_not_across_top_level() -> None:
    config = SegmentConfig(min_clause_chars=40)
    clauses = segment(text_document("cuad_bloom_definitions.txt"), config)
    # '"BE" is defined in the recitals.' is 32 characters: it joins the entry before it.
    merged = next(c for c in clauses if '"BE" is defined in the recitals.' in c.text)
    assert merged.defined_terms == ["Base Case Model", "BE"]
    assert all(len(c.text) >= 40 for c in clauses)


@pytest.fixture(scope="module")
def photronics() -> tuple[Document, list[Clause]]:
    document = pdf_document(PHOTRONICS)
    return document, segment(document)


def test_pdf_numbers_alone_on_their_line(photronics: tuple[Document, list[Clause]]) -> None:
    _, clauses = photronics
    found = by_id(clauses)
    # In the PDF text "1.1" sits alone on a line, its heading on the next.
    assert found["1.1"].heading == "Defined Terms"
    assert found["1.1"].text.startswith("1.1\nDefined Terms")
    assert found["1.2"].heading == "Incorporation by Reference"
    # "Section 12 (Miscellaneous) of the ..." opens a line of 1.2's text: not a clause.
    assert "Section 12 (Miscellaneous) of the China JV" in found["1.2"].text
    assert found["1.2"].section_path == ["ARTICLE 1 BACKGROUND"]
    for number, heading in [("2.2", "Purchase Orders"), ("4.3", "Taxes"), ("7.1", "Term")]:
        assert found[number].heading == heading
        assert found[number].section_path[0].startswith(f"ARTICLE {number[0]}")
    assert found["2.1(C)(b)"].text.startswith("(b) PDMC and the Company")
    assert found["Schedule 1/1"].kind == "definition"
    assert found["Schedule 1/1"].defined_terms == ["Affiliate"]
    assert found["1.1"].pages == [1]
    assert found["1.2"].pages == [2]


def test_pdf_partition_skips_excluded_footers(photronics: tuple[Document, list[Clause]]) -> None:
    document, clauses = photronics
    assert_partition(document, clauses)
    assert not any("Source: PHOTRONICS" in c.text for c in clauses)
    # 1.1 runs into the page-1 footer and so ends before it; 1.2 starts page 2.
    crossing = [c for c in clauses if len(c.segments) > 1]
    assert crossing, "some clause should cross a page footer"
    for clause in crossing:
        for (_, end), (start, _) in zip(clause.segments, clause.segments[1:]):
            assert any(end <= a and b <= start for a, b in document.excluded)
