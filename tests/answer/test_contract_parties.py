"""The insurer is not the insured.

The stemmer makes "insurer", "insured" and "insurance" one word ("insur"), so to the answer
stage "Can the insurer cancel the policy?" asked as much of "The policy may be cancelled at
any time by the insured" as of the insurer's own right to cancel, and the first of the two
was quoted (Tata AIG's motor wording quoted the insured's right). The answer stage's tokens
now tell the two parties apart (``text.tokenize.answer_tokens``). Written with both orders
of the two rules and two styles of heading.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.gate import using_gate
from clausegraph.text.tokenize import answer_tokens, tokenize

BY_INSURED = ("The policy may be cancelled at any time by the insured by giving written notice, "
              "and the premium for the unexpired period shall be refunded on the short period "
              "scale.")
BY_INSURER = ("The policy may be cancelled by the insurer on grounds of misrepresentation, "
              "fraud or non-disclosure of material facts by giving fifteen days' notice, "
              "without any refund of premium.")
HEADINGS = [("4. CANCELLATION", "4.1", "4.2"), ("Section 9 - Cancellation", "9.1", "9.2")]
VARIANTS = [(heading, first_insured) for heading in HEADINGS for first_insured in (True, False)]


def policy(heading: tuple[str, str, str], first_insured: bool) -> str:
    title, a, b = heading
    first, second = (BY_INSURED, BY_INSURER) if first_insured else (BY_INSURER, BY_INSURED)
    return f"""PRIVATE CAR PACKAGE POLICY

{title}
{a} {first}
{b} {second}

GENERAL CONDITIONS
Notice shall be given in writing to the insurer immediately upon the occurrence of any accident.
"""


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("parties"),
                         [policy(*variant) for variant in VARIANTS])


@pytest.mark.parametrize(("question", "rule"), [
    ("Can the insurer cancel the policy?", BY_INSURER),
    ("Can the insured cancel the policy?", BY_INSURED),
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_each_party_s_right_to_cancel_answers_its_question(policies, variant, question, rule):
    with using_gate(None):
        answer = ask_variant(policies, variant, question)
    assert rule[:40] in direct_text(answer), direct_text(answer)


def test_the_parties_are_two_words_to_the_answer_stage_and_one_to_bm25():
    assert answer_tokens("insurer insurers insured insureds insurance") == \
        ["insurer", "insurer", "insured", "insured", "insur"]
    # the BM25 index keeps its own tokens (its stored vocabulary)
    assert len(set(tokenize("insurer insured insurance"))) == 1
