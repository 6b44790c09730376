"""An insurer that "undertakes to pay" grants cover.

Indian motor endorsements grant their cover as "In consideration of the payment of an
additional premium it is hereby understood and agreed that the insurer undertakes to pay
compensation ..." (IMT16, Tata AIG's wording). None of the verbs that grant cover was in it,
so "Is personal accident cover for unnamed passengers available?" was "Not found" with the
endorsement ranked second. "Undertakes to pay / indemnify / reimburse" now grants cover and
the verdict line reads "Yes". Written with three subjects and verbs and two heading styles,
asked two ways; the same endorsement where the insurer does not undertake to pay is no
"Yes".
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.gate import using_gate

HEADINGS = ["IMT16. PERSONAL ACCIDENT TO UNNAMED PASSENGERS",
            "Endorsement 16 - Personal accident to unnamed passengers"]
PROMISES = ["the insurer undertakes to pay compensation",
            "the Company undertakes to indemnify the insured",
            "We undertake to reimburse the insured"]
VARIANTS = [(heading, promise) for heading in HEADINGS for promise in PROMISES]


def wording(heading: str, promise: str) -> str:
    return f"""{heading}
In consideration of the payment of an additional premium it is hereby understood and agreed that {promise} on the scale provided below for bodily injuries sustained by any unnamed passenger other than the insured and the paid driver.
GENERAL EXCEPTIONS
The Company shall not be liable for any accidental loss or damage outside the geographical area.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("undertaken"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "Is personal accident cover for unnamed passengers available?",
    "Are unnamed passengers covered for personal accident?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_undertaking_to_pay_is_read_as_cover(wordings, variant, question):
    # the reading, whatever the gate decides on a three-clause document
    with using_gate(None):
        answer = ask_variant(wordings, variant, question)
    assert VARIANTS[variant][1] in direct_text(answer)
    assert answer.direct.gate_features["holds_value"] == 1.0
    assert answer.verdict.text.startswith("Yes")


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_cover_question_is_answered(wordings, variant):
    answer = ask_variant(wordings, variant, "Are unnamed passengers covered for personal accident?")
    assert answer.found, [line.text for line in answer.direct.nearest]
    assert answer.verdict.text.startswith("Yes")


def test_no_undertaking_is_no_yes(tmp_path):
    text = wording(HEADINGS[0], PROMISES[0]).replace(
        "the insurer undertakes to pay compensation", "the insured may apply for compensation")
    graph = variant_graph(tmp_path, [text])
    answer = ask_variant(graph, 0, "Is personal accident cover for unnamed passengers available?")
    assert not (answer.found and answer.verdict and answer.verdict.text.startswith("Yes"))
