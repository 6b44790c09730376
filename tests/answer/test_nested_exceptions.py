"""An item of a list inside a list of exclusions is read with both lead-ins.

Motor wordings refuse a list ("The Company shall not be liable in respect of:") whose item
is itself a lead-in ("3. any accidental loss ... whilst the vehicle insured herein is")
over a list of conditions ("(b) being driven by any person other than a Driver ..."). The
answer to "Is the car covered if driven by an unlicensed driver?" must quote the refusal
and the item's own lead-in above the condition, and its verdict must say it is excluded.
Written with three numbering styles and three wordings of the refusal.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

REFUSALS = ["The Company shall not be liable under this Policy in respect of:",
            "We will not pay for:",
            "The insurer shall not be liable to make any payment in respect of:-"]
NUMBERING = [("1.", "2.", "3.", "(a)", "(b)"), ("(i)", "(ii)", "(iii)", "a.", "b."),
             ("A.", "B.", "C.", "1)", "2)")]
VARIANTS = [(refusal, numbers) for refusal in REFUSALS for numbers in NUMBERING]


def wording(refusal: str, numbers: tuple[str, ...]) -> str:
    one, two, three, first, second = numbers
    return f"""PRIVATE CAR PACKAGE POLICY

SECTION I. LOSS OF OR DAMAGE TO THE VEHICLE INSURED
The Company will indemnify the insured against loss or damage to the vehicle insured
hereunder by fire, explosion, theft, flood and accidental external means.

GENERAL EXCEPTIONS
(Applicable to all Sections of the Policy)
{refusal}
{one}
any accidental loss or damage and/or liability caused sustained or incurred outside the
geographical area;
{two}
any claim arising out of any contractual liability;
{three}
any accidental loss damage and/or liability caused sustained or incurred whilst the
vehicle insured herein is
{first}
being used otherwise than in accordance with the Limitations as to Use or
{second}
being driven by or is for the purpose of being driven by him/her in the charge of any
person other than a Driver as stated in the Driver's Clause.

GENERAL CONDITIONS
1. Notice shall be given in writing to the Company immediately upon the occurrence of any
accidental loss or damage.
"""


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("nested-exceptions"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_item_of_an_excluded_list_is_read_with_both_lead_ins(graph, variant):
    refusal, _ = VARIANTS[variant]
    answer = ask_variant(graph, variant,
                         "Is the car covered if driven by someone other than a licensed driver?")
    assert answer.found, answer.answer
    quoted = " ".join(line.text for line in answer.direct.lines)
    assert "other than a Driver" in quoted, quoted
    assert " ".join(refusal.split()) in quoted, quoted
    assert "whilst the vehicle insured herein is" in quoted, quoted
    assert answer.verdict is not None and answer.verdict.text == "No: excluded", answer.verdict
