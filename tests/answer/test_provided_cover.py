"""A cover stated as "This Section provides for indemnity against ..." is cover.

A travel wording's optional cover ("Home Burglary Insurance") states its cover as what the
section "provides for", then lists what it does not pay for under a lead-in that names the
cover. "Is home burglary covered while the insured is travelling?" quoted the promise and
read "Cannot tell from the quote" (Cholamandalam group travel, session 44): "provides for
indemnity" was no wording of a promise. Written with three promise wordings, three refusal
lead-ins and three item styles.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

PROMISES = [("This Section provides for indemnity, against any loss, destruction or damage to "
             "the contents of the Insured's home caused by burglary and/or housebreaking whilst "
             "the Insured is on a trip covered by the Policy."),
            ("The Company shall provide cover for loss of or damage to the contents of the "
             "insured's home by burglary or housebreaking while the insured is on a trip."),
            ("This extension provides compensation for the contents of your home lost through "
             "burglary during your trip.")]
LEAD_INS = [("Special Exclusions applicable to Home Burglary Insurance (contents): The Company "
             "shall not be liable to make any payment under this Policy for:"),
            "What is not covered under Home Burglary Insurance - we will not pay for:",
            "Home Burglary Insurance exclusions. The following are excluded:"]
MARKERS = [("1.", "2.", "3."), ("(a)", "(b)", "(c)"), ("i.", "ii.", "iii.")]


def policy(variant: int) -> str:
    first, second, third = MARKERS[variant]
    return f"""GROUP TRAVEL POLICY WORDING

Section 1 Emergency Medical Expenses
We will reimburse the medical expenses of an insured person who falls ill or is injured during a trip abroad, up to the Sum Insured.

Endorsement 26 - HOME BURGLARY INSURANCE (CONTENTS)
a. Coverage
{PROMISES[variant]} The maximum amount payable under this Section is limited to the Sum Insured as specified in the Policy Schedule.
b. {LEAD_INS[variant]}
{first} Loss of jewellery, cash or securities kept in the home.
{second} Loss where the home was left unoccupied for more than 60 days.
{third} Loss caused by a member of the insured's family or household staff.

Section 3 Claims
Every claim must be notified within 30 days of the insured's return.
"""


@pytest.fixture(scope="module")
def burglary_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("provided-cover"),
                         [policy(variant) for variant in range(len(PROMISES))])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(PROMISES)))
def test_a_cover_the_section_provides_for_is_a_yes(burglary_graph, variant):
    answer = ask_variant(burglary_graph, variant,
                         "Is home burglary covered while the insured is travelling?")
    text = direct_text(answer)
    assert "burglary" in text.lower() and LEAD_INS[variant] not in text, text
    assert answer.direct.verdict.text.startswith("Yes"), (answer.direct.verdict, text)
