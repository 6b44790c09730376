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
