"""An amount stated as a share ("proportionate premium", "pro rata") answers "how much".

"If I cancel the policy, how much premium is refunded?" is answered by "refund proportionate
premium for unexpired policy period": the wording states the amount as a share of the
premium, with no figure. The sentence held no value of the kind asked, so the answer was
"Not found" (National Insurance's Parivar policy), and where it was given the verdict line
said "Cannot tell: the quote states no money". A share of an amount now states the amount,
and the verdict line names it. The wording is written with three ways of stating the share
and two list styles, beside a clause stating a fee in money, and asked four ways ("What
refund ...?" asks an amount as "How much ...?" does).
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph


LABELS = [("(a)", "(b)"), ("i.", "ii.")]
SHARES = [
    ("refund proportionate premium for the unexpired policy period", "Proportionate premium"),
    ("refund the premium on a pro rata basis for the unexpired policy period", "Pro rata basis"),
    ("make a pro-rata refund of the premium for the unexpired policy period", "Pro-rata refund"),
]
VARIANTS = [(labels, share) for labels in LABELS for share in SHARES]


def wording(labels: tuple[str, ...], share: tuple[str, str]) -> str:
    a, b = labels
    return f"""SECTION 6 - GENERAL CONDITIONS
6.1 Renewal
The policy may be renewed by mutual consent for a further period of one year, on payment of the renewal premium.
6.2 Cancellation
The policyholder may cancel this policy at any time by giving 15 days notice in writing, and the Company shall
{a} {share[0]}, if the term of the policy is up to one year and no claim has been made during the policy period;
{b} retain the full premium if a claim has been made during the policy period.
6.3 Duplicate Policy
A duplicate policy may be issued on request, on payment of a fee of Rs. 250.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("proportional"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "If I cancel the policy, how much premium is refunded?",
    "What amount of premium is refunded on cancellation?",
    "How much is refunded when the policy is cancelled?",
    "What refund is given if the policyholder cancels the policy?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_share_of_the_premium_answers(wordings, variant, question):
    _, (stated, shown) = VARIANTS[variant]
    answer = ask_variant(wordings, variant, question)
    text = direct_text(answer)
    assert stated in text, text
    assert "250" not in text, text
    assert answer.verdict is not None and answer.verdict.text.startswith(shown), answer.verdict
