"""A limit left to a table is answered with that table's row.

"Up to the limit as shown in the Table of Benefits" answers only half: the direct answer
follows the pointer to the document's own table of that name and quotes the row of the
benefit asked ("Ambulance (per hospitalisation) | Plan A: Up to Rs. 2,500 | ..."), not a
neighbouring row ("Air Ambulance ..."). The policy is written as HTML with a real table,
its pointer three ways and its amounts in two currencies.
"""

from __future__ import annotations

import pytest
from written_graph import written_graph

POINTERS = ["as shown in the Table of Benefits", "as per the Table of Benefits",
            "specified in the Table of Benefits"]
CURRENCIES = ["Rs. ", "$"]
VARIANTS = [(p, c) for p in POINTERS for c in CURRENCIES]


def policy(pointer: str, cur: str) -> str:
    return f"""<html><head><title>Health Policy Wording</title></head><body>
<h1>HEALTH INSURANCE POLICY WORDING</h1>
<p>This Policy is a contract between You and Us. We will cover the medical expenses
described below.</p>
<h2>3. Benefits</h2>
<p>3.1 Ambulance. We will pay the ambulance charges for transport to the hospital, up to
the limit {pointer}.</p>
<p>3.2 Air Ambulance. We will reimburse the expenses of medical evacuation by air ambulance
following an emergency, up to the limit {pointer}.</p>
<h2>4. Claims</h2>
<p>4.1 You must tell Us of a claim within thirty days of discharge from the hospital.</p>
<p>Table of Benefits:</p>
<table>
<tr><th>Benefit</th><th>Plan A</th><th>Plan B</th></tr>
<tr><td>Sum insured</td><td>{cur}5,00,000</td><td>{cur}10,00,000</td></tr>
<tr><td>Air Ambulance (per policy year)</td><td>Not covered</td><td>Up to 5% of sum insured</td></tr>
<tr><td>Ambulance (per hospitalisation)</td><td>Up to {cur}2,500</td><td>Up to {cur}4,000</td></tr>
</table>
</body></html>"""


@pytest.fixture(scope="module")
def table_graph(tmp_path_factory):
    return written_graph(tmp_path_factory.mktemp("pointed-rows"), {
        f"policy-{i}.html": policy(*variant) for i, variant in enumerate(VARIANTS)})


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_limit_shown_in_a_table_is_answered_with_its_row(table_graph, variant):
    pointer, cur = VARIANTS[variant]
    answer = table_graph.ask("How much does the policy pay for ambulance charges?",
                             documents=[f"policy-{variant}.html"])
    text = " ".join((answer.direct_answer or "").split())
    assert pointer in text, text
    assert f"Up to {cur}2,500" in text and "5% of sum insured" not in text, text
    row = answer.direct.lines[-1]
    assert row.text.startswith("Ambulance (per hospitalisation)")
    clause = table_graph.index.clauses.clause(row.clause_id)
    assert clause.kind == "table"
