"""A contract filed or sent as a draft leaves its date to be filled in at signing
("September __, 2018", "this ___ day of _______, 2004", "[ ], 2020"): asked when it was made,
the verdict states the date as written and says what is left blank, in any blank style, and
the review's Agreement Date is the parts the document states."""

from __future__ import annotations

import pytest

from clausegraph.answer.verdict import verdict
from clausegraph.models import AnswerLine, DirectAnswer
from tests.written_graph import written_graph

CONTRACT = """MARKETING AGREEMENT

This Marketing Agreement (this "Agreement") is made and entered into as of {date} (the \
"Effective Date"), between Alpha Recycling Inc. ("Alpha") and Beta Polymers LLC ("Beta").

1. SERVICES
1.1 Beta shall market the Products in the Territory.

2. GOVERNING LAW
2.1 This Agreement is governed by the laws of the State of New York.
"""


def _direct(text: str) -> DirectAnswer:
    line = AnswerLine(clause_id="doc:1", label="1", document="Contract", text=text,
                      span=(0, len(text)), pages=[1])
    return DirectAnswer(found=True, text=text, lines=[line], doc_id="doc")


@pytest.mark.parametrize(("date", "shown", "blank"), [
    ("September __, 2018", "September __, 2018", "day"),
    ("SEPTEMBER ______ 2018", "SEPTEMBER ______ 2018", "day"),
    ("the [ ] day of September, 2018", "[ ] day of September, 2018", "day"),
    ("this ___ day of __________, 2018", "___ day of __________, 2018", "day and month"),
    ("[\u25cf], 2018", "[\u25cf], 2018", "day and month"),
])
def test_a_blank_date_is_stated_as_written_and_named_blank(date, shown, blank):
    opening = _direct(CONTRACT.format(date=date).split("\n\n")[1])
    found = verdict("When was this agreement made?", opening)
    assert found.label == "value"
    assert found.text == f"{shown} (the {blank} left blank)"


def test_a_whole_date_says_nothing_of_blanks():
    opening = _direct(CONTRACT.format(date="September 4, 2018").split("\n\n")[1])
    assert verdict("When was this agreement made?", opening).text == "September 4, 2018"


@pytest.mark.slow
def test_the_review_reads_the_parts_a_blank_date_states(tmp_path):
    graph = written_graph(tmp_path, {"marketing.txt": CONTRACT.format(
        date="September __, 2018")})
    answer = graph.ask("When was this agreement made?")
    assert answer.verdict.text == "September __, 2018 (the day left blank)"
    review = graph.review(["marketing.txt"])
    item = review.documents[0].item("Agreement Date")
    assert item.answer == "2018-09"
    assert item.clauses[0].text == "September __, 2018"
