"""An amount question whose quote states no amount is not answered.

"What is the premium for this add-on?" was answered from "In consideration of the payment of
additional premium to Us, We will cover ..." (Edelweiss), and "What is the monthly premium
for family coverage?" from a list that names premiums (the US SBC form): the quote names the
subject and states no figure, no share of one and no place where it is stated, so the
verdict line read "Cannot tell: the quote states no money" under an answer. Such a quote is
now "Not found", its lines shown as the nearest clauses. Where the wording states the
amount (in any currency style), points to the schedule for it, or states it as a share, the
answer stands. The rule is for amounts only: on CUAD dev the same rule for durations said
"not found" to 34 more asks whose contract has the clause (not-found precision 92.0 -> 89.2),
since a contract states a term in ways no figure reader knows ("until the end of the Term").
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

HEADINGS = ["SECTION 3 - ADD-ON COVER", "3. Add-On Cover", "ADD-ON COVER"]
# how the add-on's premium clause reads: (sentence, the figure the answer states or None)
PREMIUMS = [
    (("In consideration of the payment of additional premium to Us, We will cover the "
      "expenses incurred on air ambulance services."), None),
    (("The additional premium for this add-on is Rs. 1,250 per year, payable with the "
      "premium of the base policy."), "1,250"),
    (("The additional premium for this add-on is $45 per year, payable with the premium "
      "of the base policy."), "$45"),
    (("The additional premium for this add-on is as specified in the Policy Schedule, "
      "payable with the premium of the base policy."), "Policy Schedule"),
]
VARIANTS = [(heading, premium) for heading in HEADINGS for premium in PREMIUMS]


def wording(heading: str, premium: tuple[str, str | None]) -> str:
    return f"""{heading}
3.1 Air Ambulance
{premium[0]}
3.2 Limit
Our maximum liability under this add-on is restricted to the Sum Insured.
3.3 Waiting Period
This add-on is available after a waiting period of 30 days from the policy start date.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("unstated"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "What is the premium for this add-on?",
    "How much additional premium is charged for the add-on?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_amount_is_answered_only_where_the_wording_states_it(wordings, variant, question):
    figure = VARIANTS[variant][1][1]
    answer = ask_variant(wordings, variant, question)
    if figure is None:
        assert not answer.found, direct_text(answer)
        # the clause that names the premium is still shown, as the nearest
        assert any("additional premium" in line.text for line in answer.direct.nearest)
    else:
        assert answer.found, [line.text for line in answer.direct.nearest]
        assert figure in direct_text(answer) or figure in (answer.verdict.text or "")


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_duration_question_keeps_its_answer(wordings, variant):
    answer = ask_variant(wordings, variant, "What is the waiting period for this add-on?")
    assert answer.found and "30 days" in direct_text(answer)
