""""Is X provided / available / offered?" asks whether the policy covers X.

A definition names X ("Preventive Health Check-up means a package of medical tests ...") and
a benefit clause pays for it ("We will pay towards the cost of a preventive health
check-up ..."). Asked with a verb of cover ("Is X covered?") the benefit clause answers;
asked "provided", "available" or "offered", the question had no kind and the definition,
which holds more of its words, was quoted. Written with two ways of stating the benefit.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import question_kind

PAYS = ["We will pay towards the cost of a preventive health check-up",
        "the Company shall reimburse the cost of a preventive health check-up"]
QUESTIONS = ["Is a preventive health check-up provided?",
             "Is a preventive health check-up available under the policy?",
             "Is a preventive health check-up offered?"]


def policy(pays: str) -> str:
    return f"""EASY HEALTH POLICY

SECTION 2. DEFINITIONS

2.14 Preventive Health Check-up means a package of medical tests undertaken for the general
assessment of health status; it does not include any diagnostic or investigative medical
tests for the evaluation of an illness or a disease.

2.15 Hospital means any institution established for in-patient care and day care treatment of
illness and injuries.

SECTION 5. BENEFITS

5.3 Health check-up benefit
If the insured person has maintained the policy for three continuous policy years, {pays}
once in every block of three years, up to 1% of the sum insured.

5.4 Ambulance
The Company shall reimburse the expenses incurred on an ambulance up to Rs. 2,000 per
hospitalisation.
"""


def test_provided_available_offered_ask_about_cover():
    for question in QUESTIONS:
        assert question_kind(question) == "coverage", question


@pytest.fixture(scope="module")
def cover_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("cover-phrasings"), [policy(p) for p in PAYS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(PAYS)))
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_benefit_clause_answers(cover_graph, variant, question):
    answer = ask_variant(cover_graph, variant, question)
    text = direct_text(answer)
    assert PAYS[variant] in text, text
