"""An item of an attached list is read where the wording points to the list.

Indian health policies list their modern treatments and their non-payable items in
annexures ("Annexure III: ... G. Robotic surgeries"), and say what the list is for only in
the clause that names it ("We will pay ... for the Modern Treatment Methods as mentioned in
Annexure III"; "We will not pay for ... the items listed in Annexure I"). Quoted alone, "G.
Robotic surgeries" neither grants nor refuses cover: it is read under the sentence that
refers to its annexure. Written with three attachment words (Annexure, Schedule,
Appendix), three numbering styles and three wordings of the promise and of the refusal.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

# (the attachment granted, the one refused, its item markers)
ATTACHMENTS = [("Annexure III", "Annexure I", ("A.", "B.", "C.")),
               ("Schedule 2", "Schedule 1", ("(a)", "(b)", "(c)")),
               ("Appendix B", "Appendix A", ("1.", "2.", "3."))]
PROMISES = [("We will pay the reasonable and customary expenses for the Modern Treatment Methods "
             "as mentioned in {name}, subject to the Sum Insured and the terms, conditions and "
             "exclusions of this Policy."),
            ("The Company shall indemnify the medical expenses incurred for the advanced "
             "procedures listed in {name}, up to 50% of the Sum Insured."),
            ("The insurer will reimburse the expenses of the modern treatments set out in "
             "{name}, within the Sum Insured.")]
REFUSALS = ["We will not pay for any of the non-medical items listed in {name}.",
            "The Company shall not be liable for the items of expense set out in {name}.",
            "Expenses on the items listed in {name} are excluded."]


def policy(variant: int) -> str:
    granted, refused, (first, second, third) = ATTACHMENTS[variant]
    return f"""HEALTH GUARD POLICY WORDING

1. DEFINITIONS
1.1 Hospital means any institution established for in-patient care and day care treatment of illness and/or injuries.
1.2 Sum Insured means the amount stated in the Policy Schedule.

2. BENEFITS
2.1 In-patient Hospitalisation
We will pay the medical expenses for in-patient care of an insured person hospitalised for more than 24 hours.
2.2 Modern Treatment Methods
{PROMISES[variant].format(name=granted)}

3. EXCLUSIONS
3.1 Non-medical items
{REFUSALS[variant].format(name=refused)}
3.2 Cosmetic surgery
Expenses for cosmetic or plastic surgery are excluded unless needed after an accident.

4. CLAIMS
4.1 Notice of claim must be given within 7 days of admission.

{refused.upper()}
LIST OF NON-MEDICAL ITEMS
{first} Baby food
{second} Cold pack
{third} Walking aids

{granted.upper()}
LIST OF MODERN TREATMENT METHODS
{first} Robotic surgeries
{second} Deep brain stimulation
{third} Balloon sinuplasty
"""


@pytest.fixture(scope="module")
def attachments_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("attachment-lists"),
                         [policy(variant) for variant in range(len(ATTACHMENTS))])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(ATTACHMENTS)))
@pytest.mark.parametrize("item", ["robotic surgery", "balloon sinuplasty"])
def test_an_item_of_a_granted_attachment_is_covered_by_the_promise(attachments_graph, variant,
                                                                   item):
    answer = ask_variant(attachments_graph, variant, f"Is {item} covered?")
    text = direct_text(answer)
    promise = PROMISES[variant].format(name=ATTACHMENTS[variant][0])
    assert promise in text, text  # the promise is quoted above the item
    assert item.split()[0] in text.lower(), text
    assert answer.direct.verdict.text.startswith("Yes"), (answer.direct.verdict, text)


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(ATTACHMENTS)))
@pytest.mark.parametrize("item", ["walking aids", "baby food"])
def test_an_item_of_a_refused_attachment_is_excluded(attachments_graph, variant, item):
    answer = ask_variant(attachments_graph, variant, f"Is {item} covered?")
    text = direct_text(answer)
    refusal = REFUSALS[variant].format(name=ATTACHMENTS[variant][1])
    assert refusal in text, text
    assert item in text.lower(), text
    assert answer.direct.verdict.text == "No: excluded", (answer.direct.verdict, text)
