"""An item of a list its own clause opens with is read under what the list is.

A summary of benefits lists, in one box each, "Services Your Plan Generally Does NOT Cover
(...)" over "• Cosmetic surgery", "• Long-term care", and "Other Covered Services (...)" over
"• Acupuncture", "• Hearing aids". Quoted alone, "• Cosmetic surgery" neither grants nor
refuses cover; read under its box's opening line it is not covered, and "• Hearing aids" is
(the items of a long box that the segmenter keeps in a clause of their own too). An item
that names all that is asked under such a line is answered whatever the gate makes of its
few words, and the other box, which names other things, is no exception to it. Written with three bullet styles and three wordings of each opening line.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

MARKERS = ["•", "-", "▪"]
REFUSING = [("Services Your Plan Generally Does NOT Cover (Check your policy or plan document "
             "for more information.)"),
            "What this plan does not cover:",
            "Excluded services (this is not a complete list):"]
GRANTING = ["Other Covered Services (Limitations may apply to these services.)",
            "Covered benefits (see the plan document for limits):",
            "What is covered under this plan:"]
VARIANTS = [(marker, REFUSING[i], GRANTING[(i + 1) % 3]) for i, marker in enumerate(MARKERS)] + \
    [(marker, REFUSING[(i + 2) % 3], GRANTING[i]) for i, marker in enumerate(MARKERS)]


def summary(marker: str, refusing: str, granting: str) -> str:
    """Each box its opening line over its items, the boxes set apart by space (as a PDF's
    boxes are read)."""
    def box(opening: str, items: list[str]) -> str:
        return "\n".join([opening, *(f"{marker} {item}" for item in items)])
    return f"""SUMMARY OF BENEFITS AND COVERAGE

Your share of the cost is stated in the plan document. The plan will pay its share of the
cost of covered services; excluded services are not paid for.

{box(refusing, ["Cosmetic surgery", "Weight loss programs", "Routine eye care",
                "Long-term care"])}

{box(granting, ["Acupuncture", "Bariatric surgery", "Private-duty nursing", "Hearing aids"])}

Your rights to continue coverage are described in the plan document.
"""


@pytest.fixture(scope="module")
def summaries_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("opening-lead-ins"),
                         [summary(*variant) for variant in VARIANTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize(("item", "verdict"), [("cosmetic surgery", "No: excluded"),
                                               ("long-term care", "No: excluded"),
                                               ("hearing aids", "Yes"),
                                               ("bariatric surgery", "Yes"),
                                               ("acupuncture", "Yes")])
def test_an_item_is_read_under_its_clauses_opening_line(summaries_graph, variant, item,
                                                         verdict):
    _, refusing, granting = VARIANTS[variant]
    answer = ask_variant(summaries_graph, variant, f"Is {item} covered?")
    opening = refusing if verdict.startswith("No") else granting
    text = direct_text(answer)
    assert opening in text, text  # quoted above the item, or with it
    assert answer.direct.verdict.text == verdict, text
    # the other box lists other things: no exception to what this one says
    other = granting if verdict.startswith("No") else refusing
    assert not any(other in line.text for line in answer.direct.exceptions), \
        [line.text for line in answer.direct.exceptions]


RENEWAL_TITLES = ["Renewal Benefits:", "Benefits on renewal:", "Renewal benefits are as follows:"]


def renewal_benefits(title: str) -> str:
    return f"""HEALTH INSURANCE POLICY

4. Premium
The premium is payable in advance for the policy period.

5. {title}
a) A 10% cumulative bonus will be applied on the Sum Insured for the next policy year
after every claim free policy year.
b) A free health check-up is offered every two claim free policy years.

6. Claims
A claim is notified within seven days of discharge.
"""


@pytest.fixture(scope="module")
def renewal_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("renewal-titles"),
                         [renewal_benefits(title) for title in RENEWAL_TITLES])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(RENEWAL_TITLES)))
def test_a_renewal_title_over_a_bonus_says_nothing_of_renewing(renewal_graph, variant):
    """What renews is read from what the quote states, not from the title it is quoted
    under: a bonus under "Renewal Benefits:" does not say the policy renews."""
    answer = ask_variant(renewal_graph, variant, "Can I renew the policy after a break?")
    said = answer.direct.verdict.text if answer.direct.verdict else ""
    assert not said.startswith(("Renews", "Yes: renews")), direct_text(answer)
