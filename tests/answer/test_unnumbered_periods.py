"""A period stated by what it serves answers "how long".

Xunlei's privacy policy: "How long does Xunlei keep personal information?" quoted the right
sentence, "We will only keep your personal information for the shortest time required for the
purposes of providing products and services", and was refused as "Not found": asked a
duration, a sentence without a figure answered less than one with a figure. "For the shortest
time required", "as long as necessary", "no longer than is necessary" state a period without a
number, as "in perpetuity" does; the verdict states it. The policy is written with three
phrasings of its retention rule.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import WHILE_NEEDED
from clausegraph.answer.gate import using_gate

PERIODS = ["for the shortest time required for the purposes described in this Policy",
           "only as long as it is necessary to provide our products and services",
           "no longer than is strictly necessary for the purposes of processing"]


def privacy_policy(period: str) -> str:
    return f"""NORTHWIND CLOUD PRIVACY POLICY

1. Information We Collect
1.1 We collect the account name, phone number and device identifiers you give us when you
register, and log information about how you use the service.
2. How We Store Your Information
2.1 Storage location. Personal information collected in the course of our operations is
stored on servers located in the country where it was collected.
2.2 Storage period. We will keep your personal information {period}.
2.3 Deletion. Account logs are deleted within 90 days after the account is closed.
3. Sharing
3.1 We do not share personal information with third parties except as this Policy states.
"""


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("periods"),
                         [privacy_policy(period) for period in PERIODS])


@pytest.mark.parametrize("variant", range(len(PERIODS)))
def test_a_period_stated_by_its_purpose_answers_how_long(policies, variant):
    with using_gate(None):
        answer = ask_variant(policies, variant, "How long is personal information kept?")
    assert answer.found, [line.text for line in answer.direct.nearest]
    assert "Storage period" in direct_text(answer) or PERIODS[variant][:20] in \
        direct_text(answer), direct_text(answer)
    assert answer.verdict.label == "value", answer.verdict
    assert answer.verdict.text.lower().startswith(PERIODS[variant].split()[0].lower()) or \
        answer.verdict.text.lower().startswith(("as long", "no longer", "for the")), \
        answer.verdict.text


@pytest.mark.parametrize("variant", range(len(PERIODS)))
def test_a_numbered_period_is_still_read(policies, variant):
    with using_gate(None):
        answer = ask_variant(policies, variant,
                             "How long after an account is closed are its logs deleted?")
    assert "90 days" in answer.verdict.text, answer.verdict


@pytest.mark.parametrize(("text", "states"), [
    ("kept for the shortest time required for the purpose", True),
    ("retained as long as necessary", True),
    ("kept no longer than is necessary", True),
    ("for such period as is reasonably necessary", True),
    ("for as long as you use the service", False),
    ("as long as the Agreement is in force", False),
])
def test_while_needed(text, states):
    assert (WHILE_NEEDED.search(text) is not None) is states
