""""How is X calculated?" asks for the basis a figure is arrived at on.

The question kind ``method`` (answer/direct.py) takes a sentence naming the basis ("on a
pro-rata basis", "in proportion to", "on the basis of the short period scale") as one that
holds the asked value, as a period answers "how long". Written with three ways of stating
the basis and asked three ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import question_kind

BASES = ["will be made on a pro-rata basis",
         "will be calculated in proportion to the unexpired period",
         "will be worked out on the basis of the short period scale in the schedule"]
QUESTIONS = ["How is the refund calculated if the policy is cancelled?",
             "How will the premium refund be worked out on cancellation?",
             "On what basis is the premium refunded when the policy is cancelled?"]


def policy(basis: str) -> str:
    return f"""HEALTH GUARD POLICY

SECTION E. GENERAL CONDITIONS

1. Free look period
The insured person shall be allowed a free look period of fifteen days from the date of
receipt of the policy document to review the terms and conditions of the policy. If the
insured person is not satisfied, the policy may be returned for cancellation and the premium
refunded after deducting the stamp duty charges.

2. Cancellation
The policyholder may cancel this policy at any time by giving written notice to the company.
Where the policy is cancelled, the company shall refund the premium. The refund of premium
for the unexpired period {basis}, provided no claim has been made under the policy. The
company may cancel the policy on grounds of misrepresentation or fraud by giving fifteen
days' written notice.

3. Renewal
The policy shall ordinarily be renewable for life except on grounds of fraud or
misrepresentation. A grace period of thirty days is allowed for payment of the renewal
premium.
"""


def test_how_a_figure_is_arrived_at_is_a_method_question():
    for question in QUESTIONS:
        assert question_kind(question) == "method", question
    assert question_kind("How is the claim notified?") is None


@pytest.fixture(scope="module")
def method_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("method"), [policy(b) for b in BASES])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(BASES)))
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_sentence_naming_the_basis_is_quoted(method_graph, variant, question):
    answer = ask_variant(method_graph, variant, question)
    text = direct_text(answer)
    assert BASES[variant] in text, text
