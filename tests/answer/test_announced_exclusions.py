"""A list the outline did not nest under the sentence refusing it is still refused.

An add-on wording ends its cover paragraph with "We will not cover" and lists what it does
not cover as a top-level numbered list ("1. Any infertility treatments"): the outline makes
the items sections of their own, with no parent, so they were base rules, and asked "Is
infertility treatment covered?" the answer quoted an option period of the cover (Edelweiss'
Well Baby Well Mother add-on). An item of a list announced by a refusal is now an exception,
and its answer quotes the refusal before it. Written with three refusals (with and without
a colon) and two list styles, for two excluded treatments, asked two ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

REFUSALS = ["We will not cover", "We will not cover:", "We shall not be liable to pay for"]
LABELS = [("1.", "2.", "3."), ("1)", "2)", "3)")]
VARIANTS = [(refusal, labels) for refusal in REFUSALS for labels in LABELS]
TREATMENTS = [("infertility", "Any infertility treatments"),
              ("cosmetic", "Cosmetic or aesthetic treatments of any description")]


def wording(refusal: str, labels: tuple[str, ...]) -> str:
    a, b, c = labels
    return f"""Well Mother Add-On Cover
Well Mother Cover
Covers routine medical care provided to an insured female during her pregnancy, for the routine preventive care services and immunizations recommended by a doctor.
The insured shall have the option to opt for this cover for any one of the periods below, as stated in the Policy Schedule: from the onset of pregnancy up to the first discharge from hospital, or up to 30 days following the birth of the baby. {refusal}
{a} {TREATMENTS[0][1]}
{b} {TREATMENTS[1][1]}
{c} Expenses for the delivery itself, which are payable under the maternity section only.
Claims under this cover shall be notified within 30 days of the end of the treatment.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("announced"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", ["Is {name} treatment covered?",
                                      "Does the add-on cover {name} treatment?"])
@pytest.mark.parametrize("treatment", TREATMENTS)
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_item_of_a_list_announced_by_a_refusal_is_refused(wordings, variant, treatment,
                                                              question):
    refusal, _ = VARIANTS[variant]
    name, item = treatment
    answer = ask_variant(wordings, variant, question.format(name=name))
    text = direct_text(answer)
    assert item in text, text
    assert refusal.rstrip(":") in text, text
    assert "option to opt" not in text, text
    assert answer.verdict is not None and answer.verdict.text.startswith("No"), \
        (answer.verdict, text)
