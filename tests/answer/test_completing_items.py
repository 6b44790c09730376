"""A sentence its list items complete is quoted with them.

"Day Care Procedures means those medical treatment, and/or surgical procedure" is cut in
the middle: its items ("i. which is undertaken under General or Local Anaesthesia ...",
"ii. which would have otherwise required a Hospitalisation of more than 24 hours") finish
it. Written with three label styles and two ways of ending the lead-in.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

LABELS = [("i.", "ii."), ("(a)", "(b)"), ("1.", "2.")]
LEADS = ["Day Care Procedures means those medical treatments and/or surgical procedures",
         "Day Care Procedures means those medical treatments and/or surgical procedures:"]
VARIANTS = [(labels, lead) for labels in LABELS for lead in LEADS]


def wording(labels: tuple[str, str], lead: str) -> str:
    first, second = labels
    return f"""HEALTH GUARD POLICY WORDING

SECTION A. DEFINITIONS
Def. 11. Day Care Centre means any institution established for day care treatment of illness
and injuries which is registered with the local authorities.
Def. 12. {lead}
{first} which are undertaken under General or Local Anaesthesia in a Hospital or day care
centre in less than 24 hours because of technological advancement, and
{second} which would have otherwise required a Hospitalisation of more than 24 hours.
Def. 13. Deductible means a cost-sharing requirement under which the insurer is not liable
for a specified rupee amount.

SECTION B. BENEFITS
1. We will pay for Day Care Procedures listed in the annexure up to the Sum Insured.
"""


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("completing-items"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_definition_is_quoted_with_the_items_that_complete_it(graph, variant):
    text = direct_text(ask_variant(graph, variant, "What does 'Day Care Procedures' mean?"))
    assert "Day Care Procedures means" in text, text
    assert "General or Local Anaesthesia" in text, text
    assert "more than 24 hours" in text, text
