"""Lines that start with a reference are not sections: a subsection cited at a line start
("Section 3.1(c) of the Company Disclosure Schedule ...") opens no "Section 3", and the
section column of an index of defined terms set as text ("Acquiror" / "Section 15.2(a)" /
"Agreement" / "Preamble" / ...) opens nothing. Each case is written in several styles
(container word, letter case, numbering depth, what follows the number), and real headings
laid out the same way stay sections."""

from __future__ import annotations

import pytest

from clausegraph.models import Clause
from tests.segment_text import holding as _holding
from tests.segment_text import segment_text as _segment


def _own_id(clause: Clause) -> str:
    return clause.clause_id.split(":", 1)[1]


# (the document's section word, a line starting with a cited subsection)
CITED_AT_LINE_START = [
    ("Section", "Section 3.1(c) of the Company Disclosure Schedule lists each subsidiary."),
    ("SECTION", "SECTION 3.12(b)(iv) [Indemnification by the Seller], the Buyer shall pay."),
    ("Section", "Section 3.4.2(a), the Seller agrees to the following terms."),
    ("§", "§ 3.504(a)), the Plan Sponsor agrees to the following terms."),
]


@pytest.mark.parametrize(("word", "cited"), CITED_AT_LINE_START)
def test_a_subsection_cited_at_a_line_start_opens_no_section(word: str, cited: str) -> None:
    text = (
        "ARTICLE III REPRESENTATIONS\n"
        f"{word} 3.1 Organization. The Company is duly organized and in good standing.\n"
        "(c) Subsidiaries.\n"
        f"{cited}\n"
        f"{word} 3.2 Capitalization. The authorized capital stock of the Company is as stated.\n"
        f"{word} 3.3 Authority. The Company has full corporate power to sign this Agreement.\n"
    )
    clauses = _segment(text)
    for heading in ("Capitalization", "Authority"):
        clause = _holding(clauses, heading)
        # under the article itself, not under a "Section 3" made of the citation
        assert [p for p in clause.section_path if p.rstrip().endswith(" 3")] == [], \
            clause.section_path
        assert _own_id(clause).split("/")[-1] in ("3.2", "3.3"), clause.clause_id
    # the citation stays in the text of the section it is written in
    assert cited in _holding(clauses, "Organization").text


def _index_of_terms(reference: str) -> str:
    """An index of defined terms laid out as text, a term then where it is defined."""
    entries = [("Acquiror", f"{reference} 15.2(a)"), ("Agreement", "Preamble"),
               ("Alliance Manager", f"{reference} 2.1"),
               ("Base Net Sales", f"{reference} 9.3(c)(ii)"),
               ("Closing Conditions", f"{reference} 13.6"),
               ("Effective Date", f"{reference} 1.12")]
    lines = [line for term, where in entries for line in (term, where)]
    return "Defined Term\n" + reference + "\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize("reference", ["Section", "SECTION", "Article", "Clause"])
def test_the_section_column_of_an_index_of_terms_opens_nothing(reference: str) -> None:
    text = (
        "ARTICLE 1 DEFINITIONS\n"
        "1.1 \u201cAffiliate\u201d means any entity controlling or controlled by a Party.\n"
        "1.2 In addition, the following table identifies where other terms are defined:\n"
        + _index_of_terms(reference)
        + "ARTICLE 2 RESEARCH\n"
        "2.1 General. The Parties shall conduct the research program as agreed.\n"
    )
    clauses = _segment(text)
    # no clause opens at an entry's reference, none repeats a number (a "~2" id)
    assert not any(c.text.startswith(f"{reference} ") for c in clauses), \
        [_own_id(c) for c in clauses]
    assert not any("~" in _own_id(c) for c in clauses), [_own_id(c) for c in clauses]
    # the index stays in the definition that introduces it
    assert "Base Net Sales" in _holding(clauses, "identifies where other terms").text
    research = _holding(clauses, "conduct the research program")
    assert research.section_path[0].startswith("ARTICLE 2"), research.section_path


@pytest.mark.parametrize("word", ["Section", "SECTION"])
def test_headings_with_their_titles_below_stay_sections(word: str) -> None:
    text = (
        f"{word} 9.3\n"
        "Closing Conditions\n"
        "The obligations of each Party to close are subject to the conditions below.\n"
        f"{word} 9.4\n"
        "Termination\n"
        "This Agreement may be terminated at any time before the closing by consent.\n"
        f"{word} 9.5\n"
        "Notices\n"
        "All notices shall be in writing and delivered to the addresses set out above.\n"
    )
    clauses = _segment(text)
    for number, words in (("9.4", "terminated at any time"), ("9.5", "notices shall be")):
        assert _own_id(_holding(clauses, words)).startswith(number), \
            [_own_id(c) for c in clauses]
