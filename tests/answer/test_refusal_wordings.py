"""Refusals written with an active verb, and lists under "General Exceptions".

A travel wording's endorsement says "this insurance excludes loss ... caused by any act of
terrorism": the insurance is the subject and "excludes" the verb, where most wordings say
"is excluded" or "shall not cover". A motor wording lists what it does not pay for under
"GENERAL EXCEPTIONS", with no lead-in of its own in the quote. Both refuse cover; each is
written in three styles.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

ACTIVE = [
    ("it is agreed that this insurance excludes loss, damage, cost or expense of whatsoever "
     "nature caused by any act of {peril}"),
    "the Policy also excludes any loss or expense directly or indirectly caused by {peril}",
    "we exclude every claim for loss or damage arising out of {peril}",
]
PERILS = ["terrorism", "nuclear contamination", "war"]


def endorsement(refusal: str, peril: str) -> str:
    return f"""DOMESTIC TRAVEL INSURANCE

Section 2. Baggage cover
We will pay for loss of checked-in baggage up to the limit shown in the schedule.

Endorsement 12. Exclusion endorsement
Notwithstanding any provision to the contrary within this insurance, {refusal.format(peril=peril)}.

Endorsement 13. Trip cancellation
We will reimburse non-refundable travel costs if the trip is cancelled because of illness.
"""


ACTIVE_VARIANTS = [(refusal, peril) for refusal in ACTIVE for peril in PERILS]

HEADINGS = ["GENERAL EXCEPTIONS", "General Exceptions",
            "General exceptions (applicable to all sections)"]
MARKERS = [("1.", "2.", "3."), ("(a)", "(b)", "(c)"), ("i.", "ii.", "iii.")]


def motor(heading: str, markers: tuple[str, ...]) -> str:
    return f"""PRIVATE CAR PACKAGE POLICY

SECTION I. Loss of or damage to the vehicle insured
The Company will indemnify the insured against loss or damage to the vehicle by fire,
burglary or accidental external means.

{heading}
{markers[0]} Any accidental loss or damage suffered whilst the vehicle is used outside the
geographical area.
{markers[1]} Any consequential loss of any kind arising from an accident.
{markers[2]} Any claim arising out of any contractual liability.

CONDITIONS
Notice shall be given in writing to the Company immediately upon the occurrence of any
accident.
"""


EXCEPTION_VARIANTS = [(heading, markers) for heading in HEADINGS for markers in MARKERS]


@pytest.fixture(scope="module")
def refusals_graph(tmp_path_factory):
    texts = [endorsement(*v) for v in ACTIVE_VARIANTS] + \
        [motor(*v) for v in EXCEPTION_VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("refusal-wordings"), texts)


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(ACTIVE_VARIANTS)))
def test_an_active_excludes_refuses_cover(refusals_graph, variant):
    _, peril = ACTIVE_VARIANTS[variant]
    answer = ask_variant(refusals_graph, variant, f"Is {peril} excluded?")
    assert peril in direct_text(answer), direct_text(answer)
    assert answer.direct.verdict.text == "Yes: excluded", direct_text(answer)
    answer = ask_variant(refusals_graph, variant, f"Is loss caused by {peril} covered?")
    assert answer.direct.verdict.text == "No: excluded", direct_text(answer)


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(EXCEPTION_VARIANTS)))
def test_an_item_under_general_exceptions_is_excluded(refusals_graph, variant):
    number = len(ACTIVE_VARIANTS) + variant
    answer = ask_variant(refusals_graph, number, "Is consequential loss excluded?")
    assert "consequential loss" in direct_text(answer), direct_text(answer)
    assert answer.direct.verdict.text == "Yes: excluded", direct_text(answer)
    answer = ask_variant(refusals_graph, number, "Is consequential loss covered?")
    assert answer.direct.verdict.text == "No: excluded", direct_text(answer)
