""""What is the minimum length of ..." asks for a period, not an amount.

"What is the minimum length of hospital stay for a claim?" was read as an amount question
(for "minimum"), so the definition that answers it ("admission in a Hospital for a minimum
period of 24 consecutive hours") held no value of the kind asked and the answer was "Not
found" (Bajaj Allianz's group mediclaim). "length of" now asks for a duration, as "how long"
does. The wording is written with three ways of writing the period and two list styles, beside
an amount a "minimum" could also ask for, and asked three ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import question_kind

LABELS = [("2.1", "2.2", "2.3"), ("(a)", "(b)", "(c)")]
PERIODS = ["24 consecutive hours", "twenty-four (24) hours", "one day"]
VARIANTS = [(labels, period) for labels in LABELS for period in PERIODS]


def wording(labels: tuple[str, ...], period: str) -> str:
    a, b, c = labels
    return f"""SECTION 2 - DEFINITIONS
{a} Hospitalisation means admission in a Hospital for a minimum period of {period} of in-patient care, except for specified day care procedures.
{b} Sum Insured means the amount stated in the Schedule, which shall not be less than a minimum of Rs. 50,000 per Insured Person.
{c} Room Rent means the amount charged by a Hospital for room and boarding, up to 1% of the Sum Insured per day.
SECTION 3 - CLAIMS
3.1 Notice of a claim shall be given to us at the earliest, and the claim documents shall be submitted after discharge.
3.2 We will settle a claim after receipt of the last necessary document.
3.3 A claim for a day care procedure shall be supported by the treating doctor's certificate.
3.4 If a claim is rejected, you may ask us to review the claim in writing.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("length"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "What is the minimum length of hospital stay for a claim?",
    "What length of stay in hospital counts as hospitalisation?",
    "What is the minimum length of hospitalisation?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_period_of_stay_answers(wordings, variant, question):
    _, period = VARIANTS[variant]
    text = direct_text(ask_variant(wordings, variant, question))
    assert period in text, text
    assert "50,000" not in text, text


@pytest.mark.parametrize("question", [
    "What is the minimum length of hospital stay?",
    "What is the length of the notice period?",
    "What is the maximum length of the initial term?",
])
def test_length_asks_for_a_duration(question):
    assert question_kind(question) == "duration"
