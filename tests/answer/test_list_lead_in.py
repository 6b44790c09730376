"""A bare list item is quoted with the sentence that announces its list.

Motor wordings print "Subject to a deduction for depreciation at the rates mentioned below
in respect of parts replaced:" and then "1. For all rubber / nylon / plastic parts, tyres
and tubes, batteries and air bags - 50%", "2. For fibre glass components - 30%". Where the
outline does not nest the items under the sentence (it ends an item of another list), the
direct answer quoted "1. For all rubber ... - 50%" alone: a reader could not tell that 50%
is a depreciation. The lead-in, the last sentence of the clause before the items when it
ends in a colon, is now quoted before it. Written with three item-number styles.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

NUMBERS = [("1.", "2.", "3."), ("(1)", "(2)", "(3)"), ("a)", "b)", "c)")]
LEAD_IN = ("Subject to a deduction for depreciation at the rates mentioned below in respect of "
           "parts replaced:")


def policy(numbers: tuple[str, str, str]) -> str:
    return f"""PRIVATE CAR PACKAGE POLICY

SECTION I. LOSS OF OR DAMAGE TO THE VEHICLE

(ii) The Company shall indemnify the insured against loss of or damage to the vehicle by
burglary, housebreaking or theft. {LEAD_IN}
{numbers[0]} For all rubber / nylon / plastic parts, tyres and tubes, batteries and air bags - 50%
{numbers[1]} For fibre glass components - 30%
{numbers[2]} For all parts made of glass - Nil

(iii) The Company shall not be liable for consequential loss or for wear and tear.
"""


@pytest.fixture(scope="module")
def lead_in_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("lead-in"), [policy(n) for n in NUMBERS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(NUMBERS)))
def test_the_item_is_quoted_with_its_lead_in(lead_in_graph, variant):
    answer = ask_variant(lead_in_graph, variant,
                         "How much depreciation is deducted on fibre glass components?")
    text = direct_text(answer)
    assert "For fibre glass components - 30%" in text, text
    assert LEAD_IN in text, text
