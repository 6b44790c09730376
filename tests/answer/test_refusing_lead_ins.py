""""... shall not be liable to make any payment in respect of:-" refuses the list under it.

Indian motor wordings open their exclusion lists with a lead-in ending ":-" ("The Company
shall not be liable to make any payment in respect of:-"), often at the end of a paragraph on
another matter. The ":-" was not read as the end of a lead-in, so the items were base rules,
and where the answer quoted one ("a. Consequential loss, depreciation, wear and tear,
mechanical or electrical breakdown") its title was the list's bare number ("5."), and the
verdict could not tell (ICICI Lombard, Bajaj Allianz). The lead-in now ends with ":-" too,
and an answer from such a list quotes the lead-in above the item. Written with three lead-in
endings, three item styles, asked two ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

ENDINGS = [":-", ":", " -"]
LABELS = [("a.", "b.", "c."), ("(a)", "(b)", "(c)"), ("i.", "ii.", "iii.")]
VARIANTS = [(ending, labels) for ending in ENDINGS for labels in LABELS]
LEAD_IN = "The Company shall not be liable to make any payment in respect of"


def wording(ending: str, labels: tuple[str, ...]) -> str:
    a, b, c = labels
    return f"""SECTION I - LOSS OF OR DAMAGE TO THE VEHICLE INSURED
4. The Company will indemnify the insured against loss or damage to the vehicle insured by fire, explosion, theft, flood or accidental external means.
5. Depreciation on parts replaced shall be deducted at the rates given in the schedule.
In case of a consolidated bill for painting charges, the material component shall be considered as 25% of the total painting charges for the purpose of applying the depreciation.
{LEAD_IN}{ending}
{a} Consequential loss, depreciation, wear and tear, mechanical or electrical breakdown, failures or breakages.
{b} Damage to tyres and tubes unless the vehicle is damaged at the same time, in which case the liability of the Company shall be limited to 50% of the cost of replacement, and any loss or damage to accessories by burglary, housebreaking or theft unless the vehicle is stolen at the same time, in which case the Company shall be liable only for the loss of the accessories fitted to the vehicle at the time of the theft and declared in the proposal.
{c} Any accidental loss or damage suffered whilst the insured or any person driving the vehicle with the knowledge and consent of the insured is under the influence of intoxicating liquor or drugs, or whilst the vehicle is driven by any person who does not hold an effective driving licence at the time of the accident, or whilst the vehicle is used otherwise than in accordance with the limitations as to use stated in the schedule of this policy, or in connection with any contractual liability assumed by the insured.
6. The insured may cancel this policy by giving seven days notice in writing.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("lead_ins"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize(("question", "verdict"), [
    ("Are mechanical breakdowns excluded?", "Yes: excluded"),
    ("Is damage from a mechanical breakdown covered?", "No: excluded"),
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_item_under_a_refusing_lead_in_is_refused(wordings, variant, question, verdict):
    answer = ask_variant(wordings, variant, question)
    text = direct_text(answer)
    assert "mechanical or electrical breakdown" in text, text
    assert LEAD_IN in text, text
    assert answer.verdict is not None and answer.verdict.text == verdict, (answer.verdict, text)


GENERAL = """PRIVATE CAR PACKAGE POLICY
SECTION III PERSONAL ACCIDENT COVER
1. The Company undertakes to pay compensation for bodily injury or death sustained by the owner-driver of the vehicle in direct connection with the vehicle insured.
{heading}
(Applicable to all Sections of the Policy) {lead_in}
1. any accidental loss or damage and/or liability caused sustained or incurred outside the Geographical area;
2. any claim arising out of any contractual liability;
3. any accidental loss damage and/or liability caused sustained or incurred whilst the vehicle insured herein is
{a} being used otherwise than in accordance with the Limitations as to Use or
{b} being driven by any person other than a Driver as stated in the Driver's Clause.
4. {a} Any accidental loss or damage to any property whatsoever or any consequential loss directly or indirectly caused by ionising radiations or contamination by radioactivity;
{b} any liability of whatsoever nature directly or indirectly caused by the radioactive, toxic or explosive properties of any nuclear assembly.
5. Any accidental loss damage and/or liability directly or indirectly occasioned by or arising out of war, invasion, the act of foreign enemies, hostilities or warlike operations, civil war or rebellion.
CONDITIONS
1. Notice shall be given in writing to the Company immediately upon the occurrence of any accidental loss or damage.
"""
GENERAL_STYLES = [
    {"heading": "GENERAL EXCEPTIONS",
     "lead_in": "The Company shall not be liable under this Policy in respect of:",
     "a": "(a)", "b": "(b)"},
    {"heading": "General Exclusions",
     "lead_in": "We will not pay for any claim in respect of:", "a": "a)", "b": "b)"},
]


@pytest.fixture(scope="module")
def general(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("general_exceptions"),
                         [GENERAL.format(**style) for style in GENERAL_STYLES])


@pytest.mark.parametrize("variant", range(len(GENERAL_STYLES)))
def test_an_item_after_lists_nested_in_earlier_items_is_refused_by_the_lead_in(general, variant):
    # Bajaj Allianz's motor wording: the lead-in's items 3 and 4 hold lists of their own, so
    # the clause before item 6 was item 4's last sub-item, not the lead-in, and "Are
    # war-related losses excluded?" quoted the item without the refusal ("Cannot tell")
    lead_in = GENERAL_STYLES[variant]["lead_in"]
    answer = ask_variant(general, variant, "Are war-related losses excluded?")
    text = direct_text(answer)
    assert "warlike operations" in text and lead_in in text, text
    assert answer.verdict is not None and answer.verdict.text == "Yes: excluded", \
        (answer.verdict, text)
