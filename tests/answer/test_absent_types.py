"""A question about a clause type the contract does not have, in words the contract never
uses, is not answered (docs/cuad_dev.md, session 32).

LegalBench-RAG asks "What are the insurance requirements under this contract?"; of the
CUAD dev contracts without an insurance clause, every one was answered from some clause
(a governing-law clause, a fee schedule): the contract review found no Insurance clause and
the document used none of the question's words, but the answer gate, reading one
sentence's scores, gave it P(right) 0.73. The same contract with an insurance clause is
answered from it.
"""

from __future__ import annotations

import pytest

from tests.written_graph import written_graph

TERMS = """SERVICES AGREEMENT
This Services Agreement (the "Agreement") is entered into as of {date} by and between {a} ("Provider") and {b} ("Client").
1. SERVICES
Provider shall perform the consulting services described in Exhibit A.
2. FEES
Client shall pay Provider the fees set out in Exhibit B within thirty (30) days of each invoice.
3. GOVERNING LAW
This Agreement shall be governed by the laws of the State of {state}.
"""
COVER = """4. {heading}
Provider shall maintain, at its own expense, commercial general liability insurance with limits of not less than {amount} per occurrence and shall name Client as an additional insured.
"""
STYLES = [
    dict(date="March 1, 2019", a="Northwind Software, Inc.", b="Harbor Analytics LLC",
         state="New York", heading="INSURANCE", amount="$1,000,000"),
    dict(date="1 March 2019", a="Contoso Ltd", b="Fabrikam GmbH", state="Delaware",
         heading="Insurance Coverage", amount="USD 2 million"),
]
QUESTIONS = ["What are the insurance requirements under this contract?",
             "What insurance requirements does this contract impose?"]


@pytest.fixture(scope="module")
def contracts(tmp_path_factory):
    texts = {}
    for number, style in enumerate(STYLES):
        texts[f"bare-{number}.txt"] = TERMS.format(**style)
        texts[f"insured-{number}.txt"] = TERMS.format(**style) + COVER.format(**style)
    return written_graph(tmp_path_factory.mktemp("absent_types"), texts)


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("number", range(len(STYLES)))
def test_a_type_the_contract_lacks_asked_in_words_it_never_uses_is_not_found(
        contracts, number, question):
    answer = contracts.ask(question, documents=[f"bare-{number}.txt"])
    assert not answer.found, answer.direct_answer


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("number", range(len(STYLES)))
def test_the_same_contract_with_the_clause_is_answered_from_it(contracts, number, question):
    answer = contracts.ask(question, documents=[f"insured-{number}.txt"])
    assert answer.found and "insurance" in answer.direct_answer, answer.direct_answer
