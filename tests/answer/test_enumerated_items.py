"""An item of a granted enumeration is covered by its lead-in, whatever is joined to it.

"Is damage in transit by rail covered?" of a motor wording whose own-damage section grants
cover ("The Company will indemnify the insured against loss or damage to the vehicle insured
hereunder ... whilst thereon") over a list of perils, one per line, each ending in a
semicolon; the last item, which names rail transit, was cut together with what follows
it in the PDF (the lead-in of the depreciation table after the list; in a real wording also
the next item, whose number had lost its dot). Read alone its first sentence names things without a verb: the lead-in
grants it, and the answer says "Yes" with the lead-in and the item. Written with other
labels, perils and list punctuation.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

LABELS = [("1.", "3.", "2."), ("(a)", "(c)", "(b)"), ("i.", "iii.", "ii.")]
PERILS = [("Whilst in transit by road rail inland-waterway lift elevator or air",
           "Is damage in transit by rail covered?"),
          ("In transit by ferry, barge or other inland vessel",
           "Is damage to the car while carried by ferry covered?"),
          ("During loading or unloading from a lift, crane or hoist",
           "Is damage while the car is lifted by a crane covered?")]
VARIANTS = list(zip(LABELS, PERILS, strict=True))


def wording(labels: tuple[str, str, str], peril: str) -> str:
    before, item, after = labels
    return f"""<html><head><title>Private Car Package Policy</title></head><body>
<h1>PRIVATE CAR PACKAGE POLICY WORDING</h1>
<h2>SECTION I. LOSS OF OR DAMAGE TO THE VEHICLE INSURED</h2>
<p>The Company will indemnify the insured against loss or damage to the vehicle insured
hereunder and/or its accessories whilst thereon:</p>
<p>{before} By fire explosion self ignition or lightning;</p>
<p>{after} By landslide rockslide;</p>
<p>{item} {peril};<br/>Subject to a deduction for depreciation at the rates mentioned below
in respect of parts replaced:</p>
<p>For all rubber, nylon and plastic parts, tyres and tubes, batteries and air bags - 50%</p>
<h2>SECTION II. LIABILITY TO THIRD PARTIES</h2>
<p>The Company will indemnify the insured in the event of an accident caused by or arising
out of the use of the insured vehicle against all sums which the insured shall become
legally liable to pay in respect of death of or bodily injury to any person.</p>
<h2>GENERAL EXCEPTIONS</h2>
<p>The Company shall not be liable in respect of any accidental loss or damage suffered
whilst the insured or any person driving with the knowledge and consent of the insured is
under the influence of intoxicating liquor or drugs.</p>
</body></html>"""


@pytest.fixture(scope="module")
def motor_graph(tmp_path_factory):
    texts = [wording(labels, peril[0]) for labels, peril in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("enumerated-items"), texts, suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_joined_item_of_a_granted_list_is_covered(motor_graph, variant):
    _, (peril, question) = VARIANTS[variant]
    answer = ask_variant(motor_graph, variant, question, suffix=".html")
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found, question
    assert peril in text and "will indemnify the insured against loss or damage" in text, text
    assert answer.verdict is not None and answer.verdict.label == "yes", answer.verdict
