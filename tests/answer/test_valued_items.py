"""A list row that names what is asked and states its figure answers, however few its words.

Bajaj Allianz's motor wording lists its depreciation rates as short rows under a lead-in
("Subject to a deduction for depreciation at the rates mentioned below ...: 1. For all
rubber / nylon / plastic parts ... 50%  2. For fibre glass components 30%  3. For all parts
made of glass Nil"), followed by a long sentence on painting with the words "rate" and
"depreciation" and a figure of its own. Asked "What is the rate of depreciation for fibre
glass components?", the answer quoted the painting sentence: a sentence of fewer than six
words was scored as a bare heading line ("3.1.9 Ambulance"), at 0.4 of its weight, even when
it held the asked figure. A row that holds a value of the kind asked and one of the
question's words is now weighed as a rule. The list is written with three list markers,
two ways of stating a percentage and two headings, and asked two ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

MARKERS = [("1.", "2.", "3.", "4."), ("(a)", "(b)", "(c)", "(d)"), ("i)", "ii)", "iii)", "iv)")]
RATES = [("50%", "30%", "40%", "25%"), ("50 per cent", "30 per cent", "40 per cent", "25 per cent")]
HEADINGS = ["LOSS OF OR DAMAGE TO THE VEHICLE", "Loss of or damage to your car"]
VARIANTS = [(m, r, h) for m in MARKERS for r in RATES for h in HEADINGS]


def wording(markers: tuple[str, ...], rates: tuple[str, ...], heading: str) -> str:
    first, second, third, fourth = markers
    rubber, fibre, painting, material = rates
    return f"""SECTION I. {heading}
The Company will indemnify the insured against loss or damage to the vehicle insured.
Subject to a deduction for depreciation at the rates mentioned below in respect of parts replaced:
{first} For all rubber / nylon / plastic parts, tyres and tubes, batteries and air bags {rubber}
{second} For fibre glass components {fibre}
{third} For all parts made of glass Nil
{fourth} Rate of depreciation for painting: in the case of painting, a depreciation rate of {painting} shall be applied only on the material cost of total painting charges. In case of a consolidated bill for painting charges, the material component shall be considered as {material} of the total painting charges for the purpose of applying the depreciation.
SECTION II. LIABILITY TO THIRD PARTIES
The Company will indemnify the insured against all sums which the insured shall become legally liable to pay.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("valued_items"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "What is the rate of depreciation for fibre glass components?",
    "How much depreciation is deducted for fibre glass parts?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_row_that_names_the_part_answers(wordings, variant, question):
    fibre = VARIANTS[variant][1][1]
    answer = ask_variant(wordings, variant, question)
    assert answer.found, [line.text for line in answer.direct.nearest]
    # the quote is the row (after its list's lead-in), not the painting sentence
    quote = direct_text(answer)
    assert f"fibre glass components {fibre}" in quote, quote
    assert "painting" not in quote, quote
