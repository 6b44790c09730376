"""A definition's first sentence is read with the term it defines.

"3.11. PRE-HOSPITALISATION EXPENSES: Medical Expenses incurred during the period upto 30
days prior to the date of admission, provided that:" splits into the term and a sentence
that ends by introducing conditions; such a sentence was never read with the one before it
(a line that introduces what follows completes nothing before it), so the definition
answered "How many days of pre-hospitalisation are covered?" with the term's words at half
weight, and a domiciliary clause's "exceeding three days ... shall not cover" won (Oriental
group mediclaim, once its sections were read: session 45). Written with three term styles,
three figures and two ways of ending the sentence.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

TERMS = ["PRE-HOSPITALISATION EXPENSES:", "Pre-hospitalisation Medical Expenses:",
         "PRE-HOSPITALIZATION EXPENSES -"]
DAYS = [("30 days", "30"), ("sixty (60) days", "60"), ("45 days", "45")]
ENDINGS = [", provided that:", " and shall be payable if:"]
LABEL_DOTS = [".", "", "."]


def policy(variant: int) -> str:
    days, _ = DAYS[variant]
    ending = ENDINGS[variant % 2]
    return f"""GROUP MEDICLAIM POLICY

2. FOLLOWING EXPENSES ARE REIMBURSABLE
2.1 Domiciliary hospitalisation means medical treatment for a period exceeding three days for an illness which would require care at a hospital but is taken at home.
Subject however to the condition that Domiciliary Hospitalisation benefit shall not cover asthma, bronchitis or chronic nephritis.

3. DEFINITIONS
3.10 NETWORK PROVIDER: Hospitals enlisted by the insurer to provide medical services to an insured on payment by a cashless facility.
3.11{LABEL_DOTS[variant]} {TERMS[variant]} Medical Expenses incurred during the period upto {days} prior to the date of admission{ending}
a. such Medical Expenses are incurred for the same condition for which the hospitalisation was required, and
b. the in-patient hospitalisation claim is admissible by the insurer.
3.12 POST-HOSPITALISATION EXPENSES: Medical Expenses incurred for a period upto 90 days from the date of discharge from the hospital.
"""


@pytest.fixture(scope="module")
def definitions_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("defined-term-sentences"),
                         [policy(variant) for variant in range(len(TERMS))])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(TERMS)))
def test_the_defining_sentence_answers_with_its_term(definitions_graph, variant):
    answer = ask_variant(definitions_graph, variant,
                         "How many days of pre-hospitalisation are covered?")
    text = direct_text(answer)
    assert answer.direct.found and DAYS[variant][1] in text, text
    assert "three days" not in text and "90" not in text, text
