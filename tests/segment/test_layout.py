"""Segment settings that read the page layout and name lists by their lead-in."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from clausegraph.config import SegmentConfig
from clausegraph.ingest import load_document
from clausegraph.models import Clause, Document, Page
from clausegraph.segment import segment

STYLE = SegmentConfig(style_headings=True)


def policy_pdf(path: Path) -> Path:
    """A policy page whose headings are told by weight and size, not by letter case."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    lines = [
        ("hebo", 13, "What we cover"),
        ("helv", 10, "We pay for the treatment of the insured person in a hospital when"),
        ("helv", 10, "the treatment is medically necessary and prescribed by a doctor."),
        ("hebo", 13, "What we don't pay for"),
        ("helv", 10, "We do not pay for cosmetic surgery or for the treatment of obesity."),
        ("helv", 10, "We do not pay for any claim arising out of war or invasion."),
    ]
    y = 80
    for font, size, text in lines:
        page.insert_text((72, y), text, fontname=font, fontsize=size)
        y += 24 if font == "hebo" else 14
    pdf.save(path)
    pdf.close()
    return path


def clause_with(clauses: list[Clause], words: str) -> Clause:
    return next(clause for clause in clauses if words in clause.text)


def headed_by(clause: Clause) -> list[str]:
    """The headings a clause carries: its own and its ancestors'."""
    return [*clause.section_path, *([clause.heading] if clause.heading else [])]


def test_a_bold_sentence_case_heading_heads_the_paragraphs_under_it(tmp_path: Path) -> None:
    document = load_document(policy_pdf(tmp_path / "policy.pdf"))
    styled = segment(document, STYLE)
    war = clause_with(styled, "war or invasion")
    assert "What we don't pay for" in headed_by(war)
    assert "What we cover" not in headed_by(war)
    assert headed_by(clause_with(styled, "medically necessary")) == ["What we cover"]
    # By letter case alone the line ends in "for": running text, no heading.
    plain = segment(document)
    assert "What we don't pay for" not in headed_by(clause_with(plain, "war or invasion"))


def text_document(text: str) -> Document:
    return Document(doc_id="2" * 16, key="policy", source_path="policy.txt", title="policy",
                    media_type="text", text=text, pages=[Page(number=1, start=0, end=len(text))])


WAITING = """6. Waiting periods

6.1 Specific waiting periods
(a) The following diseases have a waiting period of 24 months:
(i) Cataract and diseases of the lens
(ii) Benign prostatic hypertrophy
(b) The following procedures have a waiting period of 36 months:
(i) Joint replacement surgery of the knee or the hip
(ii) Surgery for spinal disorders unless caused by an accident
"""


def test_a_list_item_carries_its_lead_in_when_the_list_has_no_heading() -> None:
    document = text_document(WAITING)
    knee = clause_with(segment(document, SegmentConfig(lead_in_paths=True)), "knee")
    assert knee.number == "6.1(b)(i)"
    assert "36 months" in knee.section_path[-1] and "24 months" not in knee.section_path[-1]
    plain = clause_with(segment(document), "knee")
    assert not any("36 months" in part for part in plain.section_path)


REGULATION = """CHAPTER I
GENERAL PROVISIONS

Article 1 Scope
These rules apply to every insurer registered under the Act.

Article 2 Definitions
In these rules the words below have the meanings given to them.

CHAPTER II
POLICYHOLDER PROTECTION

Article 3 Disclosure
An insurer shall give every prospect the policy wording before the sale.

CHAPTER III
GRIEVANCES

Rule 4 Time limits
An insurer shall answer every grievance within fifteen days of its receipt.
"""


def test_chapters_contain_articles_and_rules_number_like_sections() -> None:
    clauses = segment(text_document(REGULATION), SegmentConfig(more_containers=True))
    ids = [clause.clause_id.split(":", 1)[1] for clause in clauses]
    assert "CHAPTER II/Article 3" in ids
    assert "CHAPTER III/Rule 4" in ids
    disclosure = clause_with(clauses, "policy wording before the sale")
    assert disclosure.section_path[0].startswith("CHAPTER II")
    plain = [c.clause_id.split(":", 1)[1] for c in segment(text_document(REGULATION))]
    assert not any(part.startswith("CHAPTER") for part in plain)
