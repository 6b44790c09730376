"""A worked example does not answer where its clause states the rule.

Edelweiss's air ambulance clause: "The maximum distance of travel undertaken is 150 kms. ...
Example: If insured has travelled a distance of 300kms using an air ambulance we will pay
50% of the total cost ...". Asked "What is the maximum distance covered for an air ambulance
transfer?", the answer quoted the example (more of the question's words, and its own
figures). A sentence that opens a worked example, or follows an "Example:" line, is no
longer a candidate where a sentence of the same clause states a value of the kind asked. The
clause is written with three ways of introducing the example and two units, asked two ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

INTRODUCTIONS = ["Example:\n", "For example, ", "Illustration:\n"]
UNITS = [("150 kms", "300kms"), ("100 miles", "200 miles")]
VARIANTS = [(intro, unit) for intro in INTRODUCTIONS for unit in UNITS]


def wording(intro: str, unit: tuple[str, str]) -> str:
    rule, example = unit
    return f"""AIR AMBULANCE COVER
(i) We will cover the expenses incurred on air ambulance services up to the Sum Insured.
(ii) The maximum distance of travel undertaken is {rule}. In case of distance travelled is more than {rule}, proportionate amount of expenses up to {rule} shall be payable.
{intro}If insured has travelled a distance of {example} using an air ambulance we will pay 50% of the total cost or Sum Insured whichever is lower.
(iii) The air ambulance provider should be licensed by a competent government authority.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("examples"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "What is the maximum distance covered for an air ambulance transfer?",
    "Up to what distance is an air ambulance transfer paid for?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_rule_answers_not_its_example(wordings, variant, question):
    rule, example = VARIANTS[variant][1]
    answer = ask_variant(wordings, variant, question)
    assert answer.found, [line.text for line in answer.direct.nearest]
    # the quoted sentence is one of the rule's (with its figure), not the example's
    first = " ".join(answer.direct.lines[0].text.split())
    assert rule in first
    assert not first.startswith(("If insured", "Example", "Illustration", "For example"))
    assert not first.startswith(f"If insured has travelled a distance of {example}")
