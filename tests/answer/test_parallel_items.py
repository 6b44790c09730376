"""Items of one list that answer alike are quoted together.

A co-payment clause lists "Co-payment of 5% on all claims for insured persons aged up to
75 years" and "Co-payment of 15% on all claims for insured persons aged above 75 years".
"What co-payment applies to claims?" names neither age: both items hold the question's words
alike and the first retrieved was quoted alone, so half the answer was missing. Now every
short item of the list that states another value and holds the same share of the question's
words is quoted after it. Written with four list markers and two ways of writing a share.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

MARKERS = [("•", "•"), ("-", "-"), ("(a)", "(b)"), ("i.", "ii.")]
SHARES = [("5%", "15%"), ("5 per cent", "15 per cent")]
VARIANTS = [(markers, shares) for markers in MARKERS for shares in SHARES]


def policy(markers: tuple[str, str], shares: tuple[str, str]) -> str:
    return f"""HEALTH SHIELD POLICY

9. GENERAL TERMS

9.2 Grace period
A grace period of thirty days is allowed for payment of the renewal premium.

9.3 Co-payment
Each and every claim under the policy shall be subject to a co-payment as mentioned below:
{markers[0]} Co-payment of {shares[0]} on all claims for insured persons aged up to 75 years
{markers[1]} Co-payment of {shares[1]} on all claims for insured persons aged above 75 years

9.4 Cancellation
The policyholder may cancel the policy by giving fifteen days' written notice.
"""


@pytest.fixture(scope="module")
def list_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("parallel-items"),
                         [policy(*variant) for variant in VARIANTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_both_items_of_the_list_are_quoted(list_graph, variant):
    _, shares = VARIANTS[variant]
    answer = ask_variant(list_graph, variant, "What co-payment applies to claims?")
    text = direct_text(answer)
    assert f"Co-payment of {shares[0]} on all claims" in text, text
    assert f"Co-payment of {shares[1]} on all claims" in text, text
