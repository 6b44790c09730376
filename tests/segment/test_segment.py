"""Segmentation on real contract text: CUAD and MAUD excerpts (tests/data) and a CUAD PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clausegraph.config import SegmentConfig
from clausegraph.ingest import load_document
from clausegraph.models import Clause, Document, Page
from clausegraph.segment import segment

DATA = Path(__file__).resolve().parents[1] / "data"
DATASET = Path(__file__).resolve().parents[2] / "docs" / "dataset"
PHOTRONICS = DATASET / (
    "PhotronicsInc_20171219_10-QA_EX-10.28_10982650_EX-10.28_Outsourcing Agreement.pdf"
)
BELLRING = DATASET / (
    "BellringBrandsInc_20190920_S-1_EX-10.12_11817081_EX-10.12_Manufacturing Agreement1.pdf"
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
    """Every visible non-space character is in exactly one clause; texts slice back. The
    running header and footer's clause (kind ``running``, last) holds excluded text only."""
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
                if clause.kind == "running":
                    assert offset in excluded and order == len(clauses) - 1, clause.clause_id
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
    "cuad_king_schedules.txt",
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
    # an unheaded parent is named by its number and its lead-in (segment.lead_in_paths)
    assert clauses["5.1(i)(ii)"].section_path == [
        "5 REPRESENTATIONS AND WARRANTIES",
        "5.1 CEIS represents and warrants to XFN that during the Term of this Agreement:",
        "5.1(i) the execution, delivery and performance of this Agreement by it does not and "
        "will not:",
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
    # A definition keeps its sub-items ("... all of the following activities: (a) ...").
    item = next(c for c in clauses if "(a) such Bloom System" in c.text)
    assert item.defined_terms == ["Commencement of Operations"]
    assert item.text.startswith('"Commencement of Operations" means')


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
    # the EDGAR footer of every page is in no clause of the text, and once in the running
    # header and footer's clause
    holding = [c for c in clauses if "Source: PHOTRONICS" in c.text]
    assert [c.kind for c in holding] == ["running"]
    assert holding[0].text.count("Source: PHOTRONICS") == 1
    # 1.1 runs into the page-1 footer and so ends before it; 1.2 starts page 2.
    crossing = [c for c in clauses if len(c.segments) > 1]
    assert crossing, "some clause should cross a page footer"
    for clause in crossing:
        for (_, end), (start, _) in zip(clause.segments, clause.segments[1:]):
            assert any(end <= a and b <= start for a, b in document.excluded)


def test_pdf_schedules_at_the_end_are_containers(
    photronics: tuple[Document, list[Clause]],
) -> None:
    _, clauses = photronics
    found = by_id(clauses)
    for number, heading in [("Schedule 1", "Definitions"), ("Schedule 2", "Product Prices")]:
        assert found[number].number == number
        assert found[number].heading == heading
        assert found[number].section_path == []
    assert found["Schedule 2"].text.startswith("Schedule 2\nProduct Prices")


def test_list_of_schedules_is_not_a_run_of_containers() -> None:
    # King Pharmaceuticals: "SCHEDULES" lists six schedules (one line each) before the
    # schedules themselves start; only the real headings open containers.
    clauses = by_id(segment(text_document("cuad_king_schedules.txt")))
    assert list(clauses)[-4:] == ["SCHEDULES", "Schedule 1.33", "Schedule 1.54", "Schedule 1.56"]
    assert "Schedule 6.3 — Volume Forecast" in clauses["SCHEDULES"].text
    assert clauses["Schedule 1.33"].text.startswith("Schedule 1.33\n\nDepomed Trademarks")
    assert clauses["Schedule 1.56"].heading == "Glumetza Initial Launch Plan"


# Bellring: section 1(a) is a table of basic terms whose cells say "Schedule C",
# "Schedule D", "Schedule E" on lines of their own; 4(e) holds a list "1. 2. 3." of reports.


@pytest.fixture(scope="module")
def bellring() -> tuple[Document, list[Clause]]:
    document = load_document(BELLRING)
    return document, segment(document)


def paths(clauses: list[Clause]) -> list[str]:
    return [clause.clause_id.split(":", 1)[1] for clause in clauses]


def test_schedule_named_in_a_table_cell_is_no_container(
    bellring: tuple[Document, list[Clause]],
) -> None:
    document, clauses = bellring
    found = by_id(clauses)
    assert "2(a)" in found and "4(e)" in found
    assert not any(path.startswith("Schedule ") for path in paths(clauses))  # no "Schedule E/2(a)"
    # The cell stays in the table row it belongs to; "(b)" after it is still 1(b).
    assert found["1(a)(x)"].text.endswith("Manual\nSchedule E")
    assert found["1(b)"].section_path == ["1 BASIC TERMS"]
    assert found["2(a)"].section_path == ["2 PRODUCTION OF PRODUCT"]
    assert_partition(document, clauses)
    assert len(set(paths(clauses))) == len(clauses)


def test_outer_numbering_resumes_after_an_inner_list(
    bellring: tuple[Document, list[Clause]],
) -> None:
    _, clauses = bellring
    found = by_id(clauses)
    # "1. Weekly ... 2. Monthly ... 3. Monthly ..." is a list inside 4(e) ...
    # (a short item is a clause of its own, not folded into its neighbour)
    assert found["4(e)"].text.endswith("at the indicated\nfrequency:")
    assert found["4(e)/1"].text == "1. Weekly Production Report."
    assert found["4(e)/2"].text.startswith("2. Monthly Inventory Reports")
    assert found["4(e)/2"].section_path[-1].startswith("4(e) The following series of standard")
    assert [path for path in paths(clauses) if re.fullmatch(r"4\(e\)/\d+", path)] == [
        "4(e)/1", "4(e)/2", "4(e)/3"]
    # ... and "5." after it continues the agreement's own sections 1..21 at the top.
    tops: list[int] = []
    for path in paths(clauses):
        head = re.match(r"(\d+)(?=[(/¶#~]|$)", path)
        if head and int(head.group(1)) not in tops:
            tops.append(int(head.group(1)))
    assert tops == list(range(1, 22))
    assert found["5"].heading == "TRADEMARKS" and found["5"].section_path == []
    assert found["6(a)(ii)"].section_path == [
        "6 QUALITY CONTROL",
        "6(a) Other quality control items to be performed under this Agreement are as follows:"]
    assert found["21"].section_path == []


def test_item_after_a_sentence_ending_in_a_reference(
    bellring: tuple[Document, list[Clause]],
) -> None:
    # 8(a) ends "... pursuant to Section 2." and the next line starts "(b) Heritage ...".
    _, clauses = bellring
    found = by_id(clauses)
    assert found["8(b)"].text.startswith("(b) Heritage and Jasper shall maintain insurance")
    assert found["8(b)(i)"].section_path == [
        "8 RISK OF LOSS AND INSURANCE", "8(b) Heritage and Jasper shall maintain insurance of the "
        "following kinds and in the following amounts during the Term of this Agreement:"]


def test_signature_block_and_list_of_schedules_after_it(
    bellring: tuple[Document, list[Clause]],
) -> None:
    _, clauses = bellring
    found = by_id(clauses)
    signature = found["¶1"]
    assert signature.text.startswith("IN WITNESS WHEREOF, the Parties")
    assert "PREMIER NUTRITION CORPORATION" in signature.text
    assert "/s/ Sam Stremick" in signature.text and signature.text.endswith("DATE:\n1/8/18")
    assert found["¶2"].text.startswith("[The schedules described below have been omitted")
    listed = [c for c in clauses if c.section_path == ["Schedules"]]
    assert paths(listed)[0] == "Schedules/(A)"
    assert "Products Processing and Analytical Requirements" in listed[0].text
    assert listed[-1].text.endswith("Post Holdings Quality Expectations Manual")
    # the last clause of the text (the running footer's clause follows it)
    assert [c for c in clauses if c.kind != "running"][-1] is listed[-1]
