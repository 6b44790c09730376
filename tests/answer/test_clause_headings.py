"""A clause's heading written as a sentence of its own, the number sign, and a clause type
the review reads where the quote does not name it (found asking LegalBench-RAG's own CUAD
questions of the dev contracts, docs/cuad_dev.md, session 32).

- "10.2. HPIL ET agrees that the sole and exclusive remedy ..." was quoted as "10.2.", and
  "(ii) Exercise. Sanofi may exercise its Option ..." as "(ii) Exercise.": a heading that
  opens its clause as a sentence is quoted with the sentence after it.
- "AMENDMENT NO. 1 TO THE ... AGREEMENT" and "P.O. BOX 910091" were cut after "NO." and
  "P.O.".
- "Is there an anti-assignment clause in this contract?" of "This Agreement may not be
  assigned by either party without the prior written consent of the other party." was
  "Cannot tell: the quote does not name what is asked about": no clause names its own type;
  when the contract review reads the quoted clause as the type asked, the verdict is "Yes".
"""

from __future__ import annotations

import pytest

from clausegraph.answer.direct import split_sentences
from clausegraph.answer.verdict import verdict
from clausegraph.models import AnswerLine, DirectAnswer, TypeCheck
from tests.written_graph import written_graph

BODY = ("Licensor may exercise its Option at any time during the Term by providing "
        "Licensee with written notice of such exercise.")
HEADINGS = ["10.2.", "(ii) Exercise.", "5. Option Exercise.", "Section 7.3 Exercise.",
            "ARTICLE IV. EXERCISE."]


@pytest.fixture(scope="module")
def headed_contracts(tmp_path_factory):
    texts = {}
    for number, heading in enumerate(HEADINGS):
        texts[f"option-{number}.txt"] = (
            "OPTION AGREEMENT\nThis Option Agreement is made between Northwind Software, Inc. "
            "(\"Licensor\") and Harbor Analytics LLC (\"Licensee\").\n1. PAYMENT\nLicensee "
            "shall pay the fees within thirty (30) days of each invoice.\n"
            f"{heading} {BODY}\n")
    return written_graph(tmp_path_factory.mktemp("headings"), texts)


@pytest.mark.parametrize("number", range(len(HEADINGS)))
def test_a_heading_sentence_is_quoted_with_the_sentence_it_heads(headed_contracts, number):
    """A question none of whose words the clause holds ties its sentences; the first, the
    heading, was quoted alone (the gate off: the test is of the quote, not the refusal)."""
    from clausegraph.answer.gate import using_gate

    with using_gate(None):
        answer = headed_contracts.ask(
            "Does a party have a right of first refusal, first offer or first negotiation?",
            documents=[f"option-{number}.txt"])
    assert answer.direct_answer.strip() != HEADINGS[number], answer.direct_answer
    if answer.direct_answer.startswith(HEADINGS[number]):
        assert BODY in " ".join(answer.direct_answer.split())


@pytest.mark.parametrize(("text", "first"), [
    ("AMENDMENT NO. 1 TO THE SUPPLY AGREEMENT This Amendment is made today.",
     "AMENDMENT NO. 1 TO THE SUPPLY AGREEMENT This Amendment is made today."),
    ("Amendment No. 2 to the Supply Agreement. It is made today.",
     "Amendment No. 2 to the Supply Agreement."),
    ("P.O. BOX 910091 San Diego. SPONSORSHIP AGREEMENT", "P.O. BOX 910091 San Diego."),
    # "NO." before no number ends a sentence
    ("Is the fee refundable? NO. The fee is earned on payment.",
     "Is the fee refundable? NO."),
])
def test_the_number_sign_ends_no_sentence(text, first):
    spans = split_sentences(text)
    assert text[spans[0][0]:spans[0][1]] == first


QUOTES = [
    "This Agreement may not be assigned by either party without the prior written consent "
    "of the other party.",
    "Neither Party shall transfer or cede any rights hereunder without the other's consent.",
]


def _direct(text: str, check: TypeCheck | None) -> DirectAnswer:
    line = AnswerLine(clause_id="doc:9", label="9", document="Agreement", text=text,
                      span=(0, len(text)), pages=[1])
    return DirectAnswer(found=True, text=text, lines=[line], doc_id="doc", type_check=check)


def _check(present: bool | None, clause_id: str = "doc:9") -> TypeCheck:
    return TypeCheck(categories=["Anti-Assignment"], category="Anti-Assignment",
                     confidence=0.9, clause_id=clause_id, lead_clause_id=clause_id,
                     threshold=0.3, present=present)


@pytest.mark.parametrize("quote", QUOTES)
@pytest.mark.parametrize("question", ["Is there an anti-assignment clause in this contract?",
                                      "Does the contract contain a non-assignment provision?"])
def test_a_clause_type_the_review_reads_in_the_quote_is_a_yes(quote, question):
    found = verdict(question, _direct(quote, _check(True)))
    assert found is not None and found.label == "yes" and "Anti-Assignment" in found.text


@pytest.mark.parametrize("check", [None, _check(None), _check(False), _check(True, "doc:3")])
def test_without_the_review_reading_the_quoted_clause_so_it_cannot_tell(check):
    """No type check, one unsure or finding none, or one that reads another clause as the
    type: the quote alone does not say."""
    found = verdict("Is there an anti-assignment clause in this contract?",
                    _direct(QUOTES[0], check))
    assert found is not None and found.label == "cannot_tell"


@pytest.mark.parametrize(("question", "category"), [
    ("Are the licenses granted under this contract non-transferable?",
     "Non-Transferable License"),
    ("Is any license granted irrevocable or perpetual?", "Irrevocable or Perpetual License"),
])
def test_a_yes_or_no_the_quote_leaves_open_reads_the_reviewed_type(question, category):
    """"Are the licenses ... non-transferable?" of "grants ... a non-exclusive,
    non-transferable, perpetual license" was "Cannot tell from the quote"."""
    quote = ("Licensor hereby grants to Licensee a non-exclusive, non-transferable, "
             "perpetual license to use the Software in the Territory.")
    check = TypeCheck(categories=[category], category=category, confidence=0.9,
                      clause_id="doc:9", lead_clause_id="doc:9", threshold=0.3, present=True)
    found = verdict(question, _direct(quote, check))
    assert found is not None and found.label == "yes" and category in found.text
    unchecked = verdict(question, _direct(quote, None))
    assert unchecked is not None and unchecked.label == "cannot_tell"
