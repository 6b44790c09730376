"""CUAD's normalised answers read from clause text: dates, expiry, renewal term, notice
period, governing law and yes/no, in the wordings contracts use."""

from __future__ import annotations

import pytest

from clausegraph.review.answers import answer_kind, normalised_answer


@pytest.mark.parametrize(("text", "expected"), [
    ("This Agreement is made and entered into as of the 16th day of May, 2017.", "2017-05-16"),
    ("dated as of January 30, 2000 (\"Effective Date\")", "2000-01-30"),
    ("Effective as of 03/05/2019 between the parties", "2019-03-05"),
])
def test_dates_become_iso(text: str, expected: str) -> None:
    assert normalised_answer("Agreement Date", True, [text]) == expected


def test_an_expiry_is_the_end_date_or_the_start_plus_the_term() -> None:
    stated = ("The Joint Venture shall commence on the 1st of March, 2003, and shall be "
              "effective until February 28, 2004 unless extended.")
    assert normalised_answer("Expiration Date", True, [stated]) == "2004-02-28"
    counted = "The term of this Agreement shall continue for one (1) year following the Effective Date."
    known = {"Effective Date": "1999-06-21"}
    assert normalised_answer("Expiration Date", True, [counted], known) == "2000-06-21"
    assert normalised_answer("Expiration Date", True,
                             ["This Agreement shall remain in force in perpetuity."]) == "perpetual"


@pytest.mark.parametrize(("text", "renewal", "notice"), [
    ("Thereafter it renews automatically for successive one (1) year periods unless either "
     "party gives notice of non-renewal at least ninety (90) days before the end of the term.",
     "1 year", "90 days"),
    ("This Agreement shall be automatically renewed for additional two (2) year terms unless "
     "either party gives sixty (60) days prior written notice.", "2 years", "60 days"),
    ("The term shall renew automatically from year to year unless either party gives 30 days' "
     "written notice of termination.", "1 year", "30 days"),
])
def test_renewal_term_and_notice_period_are_told_apart(text: str, renewal: str, notice: str) -> None:
    assert normalised_answer("Renewal Term", True, [text]) == renewal
    assert normalised_answer("Notice Period to Terminate Renewal", True, [text]) == notice


def test_governing_law_and_yes_no() -> None:
    law = "This Agreement shall be governed by the laws of the State of New York."
    assert normalised_answer("Governing Law", True, [law]) == "New York"
    assert normalised_answer("Governing Law", False, [law]) is None
    assert normalised_answer("Audit Rights", True, []) == "Yes"
    assert normalised_answer("Audit Rights", False, ["anything"]) == "No"
    assert answer_kind("Parties") is None and answer_kind("Document Name") is None


def test_a_date_another_clause_states_wins_over_a_term_that_runs_until_terminated():
    """"unless terminated as set forth below" says the term may end sooner; a listed clause
    stating the end date is the better reading, whichever ranks first."""
    open_ended = ("This Agreement shall become effective on the date first written above and "
                  "shall continue unless terminated as set forth in this Section.")
    dated = "The initial term of this Agreement expires on March 31, 2021."
    for texts in ([open_ended, dated], [dated, open_ended]):
        assert normalised_answer("Expiration Date", True, texts) == "2021-03-31"
    assert normalised_answer("Expiration Date", True, [open_ended]) == "perpetual"
