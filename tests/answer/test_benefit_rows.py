"""A row of a schedule of benefits answers whether what it names is covered.

"Does the plan cover hearing aids?" of a plan document whose schedule gives hearing aids a
row ("Hearing Aids | 90% of the Allowable Charge, after Deductible | Limited to $1,000 every
five Plan Years") and whose text says elsewhere, of other things, that "The following items
are covered at 100%, deductible waived": the row names what is asked and gives it a benefit;
the sentence grants cover in so many words but for something else. The answer quotes the row.
Written with other items, currencies and shares.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

ITEMS = [("Hearing Aids", "hearing aids"), ("Wigs after chemotherapy", "wigs"),
         ("Orthotic Devices", "orthotic devices")]
MONEY = ["$1,000", "£750", "€1.200"]
SHARES = ["90%", "80 percent", "70%"]
VARIANTS = list(zip(ITEMS, MONEY, SHARES, strict=True))


def plan(item: str, money: str, share: str) -> str:
    return f"""<html><head><title>Summary Plan Description</title></head><body>
<h1>HEALTH AND WELFARE PLAN - SUMMARY PLAN DESCRIPTION</h1>
<p>This Summary Plan Description describes the medical benefits of the Plan for
Participants and their Dependents.</p>
<h2>1. Preventive Care</h2>
<p>The following items are covered at 100%, deductible waived, as provided in the Families
First Coronavirus Response Act and notwithstanding any otherwise-applicable Medical Necessity
limitation: testing for the virus, the visit at which the test is ordered, and vaccines.</p>
<h2>2. Schedule of Medical Benefits</h2>
<table>
<tr><th>Covered Medical Expenses</th><th>Benefits</th><th>Limits</th></tr>
<tr><td>Durable Medical Equipment</td><td>{share} of the Allowable Charge, after
Deductible</td><td>None</td></tr>
<tr><td>{item}</td><td>{share} of the Allowable Charge, after Deductible</td><td>Limited to
{money} maximum every five Plan Years</td></tr>
<tr><td>Home Health Care</td><td>{share} of the Allowable Charge, after Deductible</td>
<td>Limited to 60 visits per Plan Year</td></tr>
</table>
<h2>3. Claims</h2>
<p>3.1 A claim must be filed within 90 days of the date of service.</p>
</body></html>"""


@pytest.fixture(scope="module")
def plan_graph(tmp_path_factory):
    texts = [plan(item[0], money, share) for item, money, share in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("benefit-rows"), texts, suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_benefit_row_answers_whether_its_item_is_covered(plan_graph, variant):
    (item, asked), money, share = VARIANTS[variant]
    answer = ask_variant(plan_graph, variant, f"Does the plan cover {asked}?", suffix=".html")
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found
    # the row's benefit is the verdict ("Yes: 90% of the Allowable Charge"), the row quoted
    assert answer.direct.verdict.text.startswith(f"Yes: {share}"), text
    quote = text.split(" — ", 1)[-1].lstrip("“")
    assert quote.startswith(item) and share in quote and money in quote, text
    assert "deductible waived" not in text, text
