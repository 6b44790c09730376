"""A question asking when a term ends is answered by the whole sentence that sets the term.

A CUAD contract (DUOS Technologies) sets its term in one long sentence: "the term of this
Agreement shall begin on the Effective Date and continue for three (3) years thereafter (the
"Initial Term") and shall automatically renew for additional one (1) year terms ... unless
either party gives ... Notice of its intention to terminate this Agreement ninety (90) days
before the end of the Initial Term or Renewal Term". A long sentence is cut to 320 characters
around the question's words; for "When does the initial term of the agreement end?" the cut
kept the renewal's and the notice's lengths, dropped "three (3) years", and the verdict read
"Cannot tell: the quote states no end". Written with three length styles and two
headings.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

LENGTHS = [("three (3) years", "2022"), ("3 years", "2022"), ("thirty-six (36) months", "2022")]
HEADINGS = ["2. TERM", "2. Term and Renewal"]
VARIANTS = [(length, heading) for length in LENGTHS for heading in HEADINGS]


def wording(length: tuple[str, str], heading: str) -> str:
    return f"""STRATEGIC ALLIANCE AGREEMENT
This Strategic Alliance Agreement (the "Agreement") is entered into as of March 1, 2019 (the "Effective Date") by and between Northwind Software, Inc. ("Northwind") and Harbor Analytics LLC ("Harbor").
1. SERVICES
Northwind shall provide the hosted services described in Exhibit A to Harbor and its customers.
{heading}
2.1 Unless terminated sooner, the term of this Agreement shall begin on the Effective Date and continue for {length[0]} thereafter (the "Initial Term") and shall automatically renew for additional one (1) year terms on the terms and conditions set forth herein (each a "Renewal Term" and collectively, the "Term") unless either party gives the other Party Notice of its intention to terminate this Agreement ninety (90) days before the end of the Initial Term or Renewal Term, if any.
3. FEES
Harbor shall pay the fees set out in Exhibit B within thirty (30) days of each invoice.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("long_terms"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", ["When does the initial term of the agreement end?",
                                      "When does the Initial Term expire?",
                                      # a date asked without "when" (LegalBench-RAG's
                                      # wording): was the verdict "1 year", the renewal's
                                      "What is the expiration date of this contract?",
                                      "What is the end date of the initial term?"])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_end_of_a_term_set_in_a_long_sentence(wordings, variant, question):
    year = VARIANTS[variant][0][1]
    answer = ask_variant(wordings, variant, question)
    assert answer.verdict is not None and answer.verdict.text.startswith(
        f"Ends on 1 March {year}"), (answer.verdict, answer.direct_answer)


NOTICES = [("ninety (90) days", "90 days"), ("90 days", "90 days"),
           ("three (3) months", "3 months")]


@pytest.fixture(scope="module")
def notice_wordings(tmp_path_factory):
    # the sentence under a heading and a title that say "term" (DUOS Technologies' "6. TERM
    # AND TERMINATION; WITHDRAWAL." / "6.1 Term. Unless terminated sooner, ...")
    texts = [wording(LENGTHS[0], "2. TERM AND TERMINATION; WITHDRAWAL.")
             .replace("2.1 Unless", "2.1 Term. Unless")
             .replace("this Agreement ninety (90) days", "this Agreement, in the manner set "
                      f"out in Section 12 (Notices), no later than {notice}")
             for notice, _ in NOTICES]
    return variant_graph(tmp_path_factory.mktemp("long_term_notices"), texts)


@pytest.mark.parametrize("question", [
    "How much notice must be given to stop the agreement from renewing?",
    "What is the notice period required to terminate the renewal?"])
@pytest.mark.parametrize("variant", range(len(NOTICES)))
def test_the_notice_period_at_the_end_of_a_long_term_sentence(notice_wordings, variant,
                                                              question):
    """The cut of the long sentence holds the notice period, not the term's and the
    renewal's lengths before it: the verdict was "1 year", the renewal's."""
    answer = ask_variant(notice_wordings, variant, question)
    assert answer.verdict is not None and answer.verdict.text == NOTICES[variant][1], (
        answer.verdict, answer.direct_answer)
    assert NOTICES[variant][0] in answer.direct_answer
