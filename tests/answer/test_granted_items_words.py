"""An item of a list its lead-in grants is read with the lead-in's words.

"Is damage from flooding covered?" of a motor policy whose own-damage section grants cover
in a lead-in ("The Company will indemnify the insured against loss or damage to the vehicle
insured hereunder: ... (v) by flood, typhoon, storm ...") and whose endorsement, further on,
names the same peril in a sentence that limits cover ("Notwithstanding anything to the
contrary ... the insurer shall not be liable except in respect of loss or damage by fire ...
flood ..."). The item says "flood" but not "damage"; its lead-in says "damage" for it. The
answer quotes the item with its lead-in. Written with other markers, parties and perils.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

MARKERS = [("(i)", "(ii)", "(iii)", "(iv)", "(v)"), ("a)", "b)", "c)", "d)", "e)"),
           ("i.", "ii.", "iii.", "iv.", "v.")]
PARTIES = [("The Company", "the Insured"), ("We", "You"), ("The Insurer", "the Policyholder")]
PERILS = [("flood, typhoon, hurricane, storm, tempest, inundation", "flooding"),
          ("earthquake, fire, volcanic eruption or other convulsions of nature", "an earthquake"),
          ("riot, strike or malicious act", "a riot")]
VARIANTS = list(zip(MARKERS, PARTIES, PERILS, strict=True))


def policy(markers: tuple[str, ...], parties: tuple[str, str], peril: str) -> str:
    insurer, insured = parties
    first, second, third, fourth, fifth = markers
    return f"""PRIVATE CAR PACKAGE POLICY

SECTION I - LOSS OF OR DAMAGE TO THE VEHICLE INSURED

1. {insurer} will indemnify {insured} against loss or damage to the vehicle insured
hereunder and its accessories whilst thereon:
{first} by burglary, housebreaking or theft;
{second} by accidental external impact;
{third} by self-ignition or lightning;
{fourth} whilst in transit by road, rail or inland waterway;
{fifth} by {peril}.

SECTION II - LIABILITY TO THIRD PARTIES

2. {insurer} will indemnify {insured} in the event of an accident caused by the use of the
vehicle against all sums which {insured} shall become legally liable to pay.

ENDORSEMENTS

IMT 27. LIABILITY ONLY AND NAMED PERILS
Notwithstanding anything to the contrary contained in the Policy it is hereby understood and
agreed that under Section I of the Policy the insurer shall not be liable there under except
in respect of loss or damage by fire, explosion, {peril} and terrorism, the premium having
been reduced accordingly.
"""


@pytest.fixture(scope="module")
def granted_graph(tmp_path_factory):
    texts = [policy(markers, parties, peril[0]) for markers, parties, peril in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("granted-items"), texts)


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_granted_item_answers_with_its_lead_in(granted_graph, variant):
    markers, (insurer, insured), (peril, asked) = VARIANTS[variant]
    answer = ask_variant(granted_graph, variant, f"Is damage from {asked} covered?")
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found
    assert f"{markers[4]} by {peril}" in text, text
    assert f"{insurer} will indemnify {insured} against loss or damage" in text, text
    assert "Notwithstanding" not in text, text
    assert answer.verdict is not None and answer.verdict.text.startswith("Yes"), answer.verdict
