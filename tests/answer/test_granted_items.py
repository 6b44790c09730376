"""An item of a list its lead-in grants is covered by its list (docs/policies_bench.md,
session 34).

Indian motor wordings list the perils Section I covers under one promise: "The Company
will indemnify the insured against loss or damage to the vehicle insured ... i. by fire
explosion self-ignition or lightning; ii. by burglary housebreaking or theft; ...". Asked
"Is theft of the car covered?", the answer quoted a compensation clause of another
section: the item names theft without a verb of its own, so it read as holding no answer,
and its few words as a heading's. It now answers as an item of an exclusion list does,
quoted under its lead-in, and the verdict reads the lead-in's grant. The same wording is
written with other promises, list markers and headings; a lead-in that offers a choice
("opt for this cover for any one of the periods below") grants nothing.
"""

from __future__ import annotations

import pytest

from tests.written_graph import ask_variant, direct_text, variant_graph

pytestmark = pytest.mark.slow

MOTOR = """PRIVATE CAR PACKAGE POLICY

{section_one}
1. {promise}
{a} by fire explosion self-ignition or lightning ;
{b} by burglary housebreaking or theft ;
{c} by riot and strike ;
{d} by earthquake (fire and shock damage) ;
{e} by flood typhoon hurricane storm tempest inundation cyclone hailstorm frost ;
2. The Company shall not be liable to make any payment in respect of consequential loss, depreciation, wear and tear, mechanical or electrical breakdown, failures or breakages.

{section_two}
1. Subject to the limits of liability the Company will indemnify the insured against all sums which the insured shall become legally liable to pay in respect of death of or bodily injury to any person caused by or arising out of the use of the vehicle.

{section_three}
1. Such compensation shall be payable directly to the insured or to his legal representatives, whose receipt shall be the full discharge in respect of the injury to the insured under this private car policy.
"""
STYLES = [
    dict(section_one="SECTION I. LOSS OF OR DAMAGE TO THE VEHICLE INSURED",
         promise="The Company will indemnify the insured against loss or damage to the vehicle "
                 "insured hereunder and / or its accessories whilst thereon :",
         a="i.", b="ii.", c="iii.", d="iv.", e="v.",
         section_two="SECTION II. LIABILITY TO THIRD PARTIES",
         section_three="SECTION III. PERSONAL ACCIDENT COVER FOR OWNER-DRIVER"),
    dict(section_one="Part A - Own Damage",
         promise="We will pay for loss of or damage to your car and its accessories caused:",
         a="(a)", b="(b)", c="(c)", d="(d)", e="(e)",
         section_two="Part B - Third Party Liability",
         section_three="Part C - Personal Accident"),
    dict(section_one="OWN DAMAGE COVER",
         promise="The insurer undertakes to indemnify the insured for loss or damage to the "
                 "insured vehicle:",
         a="1)", b="2)", c="3)", d="4)", e="5)",
         section_two="LIABILITY COVER",
         section_three="PERSONAL ACCIDENT BENEFIT"),
]


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("granted_items"),
                         [MOTOR.format(**style) for style in STYLES])


@pytest.mark.parametrize("question", ["Is theft of the car covered?",
                                      "Is damage by flood covered?"])
@pytest.mark.parametrize("variant", range(len(STYLES)))
def test_an_item_of_a_granted_list_answers_with_its_lead_in(graph, variant, question):
    answer = ask_variant(graph, variant, question)
    text = direct_text(answer)
    peril = "theft" if "theft" in question else "flood"
    assert text.startswith("Yes"), text
    assert f"by {'burglary housebreaking or theft' if peril == 'theft' else 'flood'}" in text
    assert STYLES[variant]["promise"].split()[1] in text  # the lead-in is quoted
    assert "Such compensation" not in text


def test_a_lead_in_offering_a_choice_grants_nothing(tmp_path):
    from tests.written_graph import written_graph

    text = """WELL MOTHER ADD-ON

Well mother Cover
Covers routine medical care provided to an insured female during the period opted.
The insured shall have option to opt for this cover for any one of the below mentioned periods:
i) At the onset of pregnancy and up to the pre-hospitalisation period for maternity.
ii) At the onset of pregnancy and maternity hospitalisation up to first discharge from hospital.
"""
    graph = written_graph(tmp_path, {"add_on.txt": text})
    from clausegraph.answer.direct import DocumentTerms, _granting_lead_in

    terms = DocumentTerms(graph.index)
    doc_id = graph.index.clauses.document_ids()[0]
    items = [c for c in graph.index.clauses.document_clauses(doc_id)
             if c.text.lstrip().startswith(("i)", "ii)"))]
    assert items
    assert all(_granting_lead_in(terms, item) is None for item in items)
