"""A verdict on when a term ends (issue 25): the clause says "for three (3) years" and the
document dates its Effective Date elsewhere; the verdict counts the end, in any number and
date style, and never gives a start date as the end."""

from __future__ import annotations

import pytest

from clausegraph.answer.dates import document_dates
from clausegraph.answer.verdict import verdict
from clausegraph.models import AnswerLine, DirectAnswer
from clausegraph.text.term import SIGNATURE_DATE
from tests.written_graph import written_graph

CONTRACT = """SUPPLY AGREEMENT

This Supply Agreement is entered into as of {signed} and made effective as of {effective} \
(the "Effective Date") by and between Alpha Components Inc. and Beta Retail LLC.

1. DEFINITIONS
1.1 "Products" means the components listed in Exhibit A.

2. TERM AND TERMINATION
2.1 The term of this Agreement shall commence on the Effective Date and continue for a \
period of {length} (the "Initial Term"), unless terminated earlier under Section 2.2.
2.2 Either party may terminate this Agreement for a material breach that remains uncured \
thirty (30) days after written notice.

3. GOVERNING LAW
3.1 This Agreement is governed by the laws of the State of Delaware.
"""


@pytest.mark.parametrize(("signed", "effective", "length"), [
    ("October 1, 2019", "November 1, 2019", "three (3) years"),
    ("1 October 2019", "1 November 2019", "3 (three) years"),
    ("the 1st day of October, 2019", "the 1st day of November, 2019", "thirty-six months"),
])
def test_the_end_of_a_counted_term_is_stated(tmp_path, signed, effective, length):
    graph = written_graph(tmp_path, {"supply.txt": CONTRACT.format(
        signed=signed, effective=effective, length=length)})
    answer = graph.ask("When does the initial term of the agreement end?")
    assert answer.found and "2.1" in answer.direct.lines[0].label
    assert answer.verdict.label == "value" and answer.verdict.value == "2022-11-01"
    assert answer.verdict.text.startswith("Ends on 1 November 2022")
    assert "Effective Date (1 November 2019, " in answer.verdict.text


def _direct(text: str) -> DirectAnswer:
    line = AnswerLine(clause_id="doc:1", label="1", document="Contract", text=text,
                      span=(0, len(text)), pages=[1])
    return DirectAnswer(found=True, text=text, lines=[line], doc_id="doc")


def test_a_start_date_is_never_the_end():
    opening = _direct("This Agreement is made and entered into as of the 20th day of March, "
                      "2018 by and between A Inc. and B LLC.")
    assert verdict("When does the initial term end?", opening).label == "cannot_tell"
    assert verdict("When does the initial term end?", opening,
                   lambda doc_id: {"Effective Date": "2018-03-20"}).label == "cannot_tell"


# Asked how long it lasts (not when it ends), a start is no length either: "Until 26
# September 2019" of an employment that "shall commence on 26 September 2019 and shall
# continue unless and until either party gives notice" (CUAD: perpetual), "Until October 1,
# 2019" of an opening (session 46, the reworded dev questions).
@pytest.mark.parametrize("question", ["How long does the agreement last?",
                                      "What is the term of the agreement?",
                                      "How long will this contract remain in force?"])
@pytest.mark.parametrize(("quote", "expected"), [
    (("Your employment shall commence on 26 September 2019 and shall continue unless and "
      "until either party gives notice to the other."), "No fixed end (perpetual)"),
    (("The licence begins on 2019-09-26 and continues until terminated by either party "
      "giving three months' notice."), "No fixed end (perpetual)"),
    (("This Agreement is entered into on October 1, 2019 and is made effective as of "
      "November 1, 2019 by and between A Inc. and B LLC."), "Cannot tell"),
    ("This Contract is dated 1st October 2019 between A Ltd and B Ltd.", "Cannot tell"),
])
def test_asked_how_long_a_start_is_no_length(question, quote, expected):
    result = verdict(question, _direct(quote))
    assert result.text.startswith(expected), result.text
    assert "Until" not in result.text, result.text


def test_a_period_that_ends_is_asked_as_a_date():
    """"When does the policy period end?" asks a date though "period" reads as a length: a
    grace period beside it is not the end."""
    grace = _direct("At the end of the policy period, the policy shall terminate and can be "
                    "renewed within the Grace Period of 30 days.")
    result = verdict("When does the policy period end?", grace)
    assert result.label == "cannot_tell" and "30 days" not in result.text
    counted = _direct("The policy period is twelve (12) months commencing on 1 April 2024.")
    assert verdict("When does the policy period end?", counted).value == "2025-04-01"


def test_an_open_ended_term_and_a_named_date():
    open_ended = verdict("When does the agreement expire?", _direct(
        "This Agreement shall continue until terminated by either party on notice."))
    assert (open_ended.value, open_ended.text.split(":")[0]) == (
        "perpetual", "No fixed end (perpetual)")
    named = verdict("On what date does the agreement take effect?", _direct(
        "This Agreement is effective as of the date first written above."),
        lambda doc_id: {"Agreement Date": "2020-01-27"})
    assert (named.value, named.text) == ("2020-01-27", "27 January 2020 (the Agreement Date)")


SIGNED = """SERVICES AGREEMENT

This Services Agreement is made by and between Gamma Labs Inc. and Delta Health LLC.

1. SERVICES
1.1 Gamma shall provide the laboratory services described in Exhibit A.

2. PAYMENT
2.1 Delta shall pay each invoice within thirty (30) days of receipt.

IN WITNESS WHEREOF, the Parties have executed this Agreement as of the date below.

GAMMA LABS INC. By: /s/ A. Smith Date: {first}
DELTA HEALTH LLC By: /s/ B. Jones Date: {last}
"""


@pytest.mark.parametrize(("first", "last"), [
    ("January 26, 2020", "January 27, 2020"),
    ("26 January 2020", "27 January 2020"),
    ("01/26/2020", "01/27/2020"),
])
def test_the_date_below_is_the_last_signature(tmp_path, first, last):
    """A quote that dates the agreement "as of the date below" is dated by the signature
    block: its latest date (the agreement binds when the last party signs)."""
    graph = written_graph(tmp_path, {"services.txt": SIGNED.format(first=first, last=last)})
    doc_id = next(iter(graph.index.entries()))
    dates = document_dates(graph.index, doc_id)
    assert dates[SIGNATURE_DATE] == "2020-01-27"
    witness = _direct("IN WITNESS WHEREOF, the Parties have executed this Agreement as of the "
                      "date below.").model_copy(update={"doc_id": doc_id})
    result = verdict("When was this agreement signed or dated?", witness,
                     lambda _: document_dates(graph.index, doc_id))
    assert result.value == "2020-01-27"
    assert result.text.startswith("27 January 2020 (the date of signature, ")


@pytest.mark.parametrize(("quote", "event"), [
    (("Coverage of a Dependent Child will continue until the end of the calendar month he or "
      "she turns 26 years of age."), "the end of the calendar month he or she turns 26"),
    ("The cover of a dependent child ends on the child's twenty-fifth birthday; see Part 4.",
     "the child's twenty-fifth birthday"),
    ("Cover for the member terminates upon the member leaving the employer's service.",
     "the member leaving the employer's service"),
])
def test_an_end_tied_to_an_event_is_stated(quote, event):
    """A policy ends cover at an event, not a date or a length: the verdict names it."""
    found = verdict("When does the dependent's coverage end?", _direct(quote))
    assert found.label == "value" and event in found.text
    assert found.text.startswith("Until ")


# A plan document's continuation coverage, which runs from the qualifying event, not from
# any date of the document (a US summary plan description's COBRA rules, in two number styles
# and two names of the cover); the same length said of the agreement itself counts from its
# Effective Date.
CONTINUATION = ("If the person is extending {cover}, such coverage will end on the last day of "
                "the initial {length} period.")


@pytest.mark.parametrize("length", ["18 month", "eighteen (18) month", "36 month"])
@pytest.mark.parametrize("cover", ["COBRA Continuation Coverage", "continuation cover"])
def test_a_length_not_tied_to_the_document_counts_from_no_document_date(length, cover):
    quote = _direct(CONTINUATION.format(cover=cover, length=length))
    result = verdict("When does coverage end?", quote,
                     lambda doc_id: {"Effective Date": "2020-01-01",
                                     "Agreement Date": "1999-02-01"})
    assert not result.text.startswith("Ends on"), result
    assert "from a start the quote does not date" in result.text, result


@pytest.mark.parametrize("subject", ["This Agreement", "The initial term of this Lease"])
def test_a_length_of_the_document_s_own_term_counts_from_its_effective_date(subject):
    quote = _direct(f"{subject} shall continue for a period of 18 months.")
    result = verdict("When does the agreement end?", quote,
                     lambda doc_id: {"Effective Date": "2020-01-01"})
    assert result.text.startswith("Ends on 1 July 2021: 18 months from the Effective Date"), result


@pytest.mark.parametrize("start", ["the Commencement Date", "the Services Commencement Date",
                                   "the Hosting Service Ready Date"])
@pytest.mark.parametrize("length, shown", [("five years", "5 years"),
                                           ("thirty-six (36) months", "36 months")])
def test_a_length_from_an_undated_start_names_that_start(start, length, shown):
    """"... shall commence on the Commencement Date and continue for an initial period of
    five years": the verdict names the start it counts from (it read "from a start the
    quote does not date") and says the documents do not date it."""
    quote = _direct(f"This Agreement shall commence on {start} and shall continue for an "
                    f"initial period of {length} unless terminated earlier.")
    result = verdict("When does the initial term of the agreement end?", quote,
                     lambda doc_id: {"Effective Date": None, "Agreement Date": None})
    name = start.removeprefix("the ")
    assert result.text == f"{shown} from the {name} (a date the documents do not state)", \
        result


@pytest.mark.parametrize("question", ["On what date does the agreement take effect?",
                                      "What is the effective date of this agreement?"])
def test_the_effective_date_a_document_defines_is_the_verdict(tmp_path, question):
    """A preamble dated by its signing ("the Execution Date") and a term clause that defines
    the Effective Date by another date: the verdict gives the defined date, citing where it
    is defined; asked of a document that defines none, the quote's date stays."""
    graph = written_graph(tmp_path, {"sponsor.txt": (
        "SPONSORSHIP AGREEMENT\n\nThis Sponsorship Agreement is entered into as of November 27, "
        '2017 (the "Execution Date") by and between Alpha Sports LLC and Beta Foods Inc.\n\n'
        "1. Term. The term of this Agreement shall commence as of April 1, 2018 (the "
        '"Effective Date") and shall expire on March 31, 2021.\n\n2. Fees. Sponsor shall pay '
        "the fees in Exhibit A.\n")})
    doc_id = next(iter(graph.index.entries()))
    opening = _direct("This Sponsorship Agreement is entered into as of November 27, 2017 (the "
                      '"Execution Date") by and between Alpha Sports LLC and Beta Foods Inc.')
    opening.doc_id = doc_id
    result = verdict(question, opening, lambda _: document_dates(graph.index, doc_id))
    assert (result.label, result.value) == ("value", "2018-04-01")
    assert result.text == "1 April 2018 (the Effective Date, 1)"
    plain = verdict(question, opening, lambda _: {"Effective Date": None})
    assert plain.label == "value" and "November 27, 2017" in plain.text
