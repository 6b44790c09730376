"""A figure left blank on a printed wording is the schedule's, not a missing value.

Indian motor endorsements print "a discount of Rs. ………. is allowed" and "an additional premium
of ₹ ...." for the schedule to fill. Asked "What discount is allowed for vintage cars?", the
vintage-car endorsement answers though its figure is blank; the sentence that states a
discount for another case ("a discount of 50% ... for vehicles designed for blind persons")
does not. Written with five ways of leaving the figure blank.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

BLANKS = ["Rs. ……….", "₹ ....", "INR ____", "Rs ***", "…..%"]


def policy(blank: str) -> str:
    return f"""PRIVATE CAR PACKAGE POLICY

ENDORSEMENTS

IMT 8. DISCOUNT FOR SPECIALLY DESIGNED VEHICLES
It is hereby understood and agreed that in consideration of the vehicle being specially
designed or modified for the use of blind, handicapped and mentally challenged persons, a
discount of 50% on the own damage premium is allowed to the insured.

IMT 9. DISCOUNT FOR VINTAGE CARS (Applicable to Private Cars only)
It is hereby understood and agreed that in consideration of the insured car having been
certified as a vintage car by the Vintage and Classic Car Club of India, a discount of
{blank} is allowed to the insured.

IMT 10. INSTALLATION OF ANTI-THEFT DEVICE
In consideration of certification that an anti-theft device approved by the Automobile
Research Association of India has been installed in the insured vehicle, a discount of 2.5%
on the own damage premium subject to a maximum of Rs. 500 is allowed.
"""


@pytest.fixture(scope="module")
def blank_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("blank-values"), [policy(b) for b in BLANKS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(BLANKS)))
def test_the_clause_with_a_blank_figure_answers(blank_graph, variant):
    answer = ask_variant(blank_graph, variant, "What discount is allowed for vintage cars?")
    text = direct_text(answer)
    assert "Vintage and Classic Car Club" in text, text
    assert "blind" not in text, text
