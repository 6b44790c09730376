"""A long governing-law sentence cut around the law keeps the whole place it names.

QIWI's cooperation agreement: "9.1 This Agreement and any dispute, controversy or claim
arising out of or in connection with it or its subject matter, existence, negotiation,
validity, termination, breach or enforceability (including non-contractual disputes or
claims) shall be governed by and construed in accordance with the laws of England and
Wales." The quote was cut to 320 characters after "the laws of England and", and the
verdict read "England". The law's value now spans the place it names, so the cut keeps it.
Written with three places and three headings. Under a sentence-case heading that holds every
word asked ("9. Governing law and jurisdiction"), the cut still keeps the heading's words
over the law at the sentence's end: a known defect, marked as such (strict: the test says
so when it is fixed).
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

PLACES = [("England and Wales", "England and Wales"), ("the State of New York", "New York"),
          ("the Commonwealth of Massachusetts", "Massachusetts")]
HEADINGS = ["9. GOVERNING LAW", "9. LAW", "9. Governing law and jurisdiction"]
# the heading that holds every word of the first question (see the module's docstring)
WORDY = "9. Governing law and jurisdiction"
VARIANTS = [(place, heading) for place in PLACES for heading in HEADINGS]
CLAIMS = ("This Agreement and any dispute, controversy or claim arising out of or in "
          "connection with it or its subject matter, existence, negotiation, validity, "
          "termination, breach, performance, interpretation or enforceability (including "
          "non-contractual disputes or claims and any question regarding its formation) "
          "shall be governed by and construed in accordance with the laws of")


def wording(place: tuple[str, str], heading: str) -> str:
    return f"""COOPERATION AGREEMENT
This Cooperation Agreement is entered into as of June 16, 2017 between Alpha Payments Ltd. and Beta Retail plc.
1. COOPERATION
The parties shall cooperate in the marketing of the payment services described in Schedule 1.
{heading}
9.1 {CLAIMS} {place[0]}.
9.2 Each party irrevocably submits to the exclusive jurisdiction of the courts of the place named in clause 9.1.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("long_laws"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", ["Which jurisdiction's law governs this agreement?",
                                      "What is the governing law of the agreement?"])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_whole_place_of_a_long_governing_law_sentence(wordings, variant, question, request):
    shown = VARIANTS[variant][0][1]
    if VARIANTS[variant][1] == WORDY and question.startswith("Which jurisdiction"):
        request.applymarker(pytest.mark.xfail(
            strict=True, reason="a heading holding every word asked outweighs the law's value"))
    answer = ask_variant(wordings, variant, question)
    assert answer.verdict is not None and answer.verdict.text == shown, \
        (answer.verdict, answer.direct_answer)
