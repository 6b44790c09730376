"""A question that asks for the members of a set is answered by the list, not one item.

"What documents are needed to make a claim?" of ICICI's "1.2 CLAIM DOCUMENTS You shall be
required to furnish the following documents ...:" quoted only its last item, "vii. Any other
document as required by Us ...", the item that held most of the question's words; Arogya's
"Which illnesses have a 24-month waiting period?" quoted the first disease of its list. A list
question ("What / Which <plural noun> are ...?", "What are the ...?", "List the ...") now
quotes the list's lead-in and its items. A section's numbered paragraphs are no such list
(a benefit each: "What ambulance expenses are reimbursed?" quoted every benefit of a group
policy's plan in a first version).
The wording is written with three label styles and two ways of announcing the list.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph, written_graph

from clausegraph.answer.direct import asks_list
from clausegraph.answer.gate import using_gate

LABELS = [("i.", "ii.", "iii.", "iv."), ("(a)", "(b)", "(c)", "(d)"), ("1.", "2.", "3.", "4.")]
LEADS = ["You shall furnish the following documents in support of a claim:",
         "Documents listed below are to be submitted for every claim"]
VARIANTS = [(labels, lead) for labels in LABELS for lead in LEADS]
ITEMS = ["Duly completed claim form signed by the Insured Person.",
         "Original bills and receipts issued by the hospital.",
         "Discharge summary and investigation reports.",
         # the item holding most of the question's words, which alone was quoted
         "Any other document needed by the Company to make a decision on the claim."]


def wording(labels: tuple[str, ...], lead: str) -> str:
    items = "\n".join(f"{label} {item}" for label, item in zip(labels, ITEMS, strict=True))
    return f"""GROUP HEALTH POLICY WORDING

4. BENEFITS
4.1 Road Ambulance
We will pay for road ambulance expenses up to Rs 2,000 per hospitalisation.
4.2 Day Care Treatment
We will pay for day care procedures taken in a hospital for less than 24 hours.
4.3 Organ Donor Expenses
We will pay for the harvesting of an organ donated to the Insured Person.

5. CLAIMS
5.1 Notice of claim
The Insured Person shall notify every claim to the Company within 7 days of admission to a
hospital, and before admission for a planned hospitalisation.
5.2 Claim documents
{lead}
{items}
5.3 Settlement of claims
The Company shall settle or reject a claim within 30 days of receiving the last necessary
document, and shall pay interest for any delay beyond that.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("lists"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_list_question_is_answered_by_the_whole_list(wordings, variant):
    with using_gate(None):
        answer = ask_variant(wordings, variant, "What documents are needed to make a claim?")
    text = direct_text(answer)
    assert all(item.rstrip(".") in text for item in ITEMS), text
    assert "the following documents" in text or "Documents listed below" in text, text


TREATMENTS = ["Immunotherapy by monoclonal antibody injection", "Oral chemotherapy",
              "Deep brain stimulation", "Robotic surgery"]
ANNOUNCING = ["the below mentioned Modern Treatment Methods",
              "the Modern Treatment Methods given below"]
MARKERS = ["•", "-"]


def modern_treatment(announcing: str, marker: str) -> str:
    bullets = "\n".join(f"{marker} {item}" for item in TREATMENTS)
    return f"""GROUP HEALTH POLICY WORDING

SECTION 3 SCOPE OF COVER
6. Ambulance
The Company will pay for road ambulance expenses up to Rs 2,000 per hospitalisation.
7. Modern Treatment
The Company will indemnify the Insured Person up to 50% of the Sum Insured for the Medical
Expenses incurred on In-patient Treatment or Day Care Treatment of {announcing}
{bullets}
8. Cumulative Bonus
The Sum Insured increases by 5% for each claim-free year, up to 50% of the Sum Insured.
"""


MODERN = [(announcing, marker) for announcing in ANNOUNCING for marker in MARKERS]


# one value asked is not a list; nor are a section's numbered paragraphs, though "What
# ambulance expenses are reimbursed?" asks for a set
@pytest.mark.parametrize(("question", "said", "unsaid"), [
    ("Within how many days must a claim be notified?", "7 days", "Original bills"),
    ("What ambulance expenses are reimbursed?", "road ambulance expenses", "Day Care"),
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_no_list_is_quoted_where_none_answers(wordings, variant, question, said, unsaid):
    with using_gate(None):
        answer = ask_variant(wordings, variant, question)
    text = direct_text(answer)
    assert said in text and unsaid not in text, text


@pytest.mark.parametrize(("question", "listed"), [
    ("What documents are needed to make a claim?", True),
    ("Which illnesses have a two-year waiting period?", True),
    ("What are the grounds on which the company can cancel the policy?", True),
    ("List the exclusions", True),
    ("Which family members can be enrolled?", True),
    ("What is the grace period?", False),
    ("What bonus is given for a claim-free year?", False),
    ("What does the policy cover?", False),
    ("What happens if the premium is not paid?", False),
])
def test_asks_list(question, listed):
    assert asks_list(question) is listed


DISEASES = ["Benign ENT disorders", "Tonsillectomy", "Adenoidectomy", "Hysterectomy"]
TITLES = [("b) List of specific diseases/procedures", "i. 24 Months waiting period"),
          ("b) LIST OF SPECIFIC DISEASES", "(i) Twenty-four months waiting period")]


def waiting_list(titles: tuple[str, str]) -> str:
    items = "\n".join(f"{n}. {disease}" for n, disease in enumerate(DISEASES, 1))
    return f"""HEALTH POLICY WORDING

6. WAITING PERIOD
6.3 Specified disease/procedure waiting period
a) Expenses related to the treatment of the listed conditions shall be excluded until the
expiry of the months of continuous coverage stated against each.
{titles[0]}
{titles[1]}
{items}
7. CLAIMS
7.1 The Insured Person shall notify the claim within 7 days of hospitalisation.
"""


ANNOUNCED = {**{f"modern-{i}.txt": modern_treatment(*variant)
                for i, variant in enumerate(MODERN)},
             **{f"waiting-{i}.txt": waiting_list(titles) for i, titles in enumerate(TITLES)}}
MODERN_QUESTION = "Which treatments are covered as modern treatment methods?"
WAITING_QUESTION = "Which illnesses have a 24-month waiting period?"


@pytest.fixture(scope="module")
def announced_graph(tmp_path_factory):
    return written_graph(tmp_path_factory.mktemp("announced"), ANNOUNCED)


# A sentence that ends "... of the below mentioned Modern Treatment Methods" is read with the
# unnumbered bullets of its section after it. A list whose first item holds its title ("b)
# List of specific diseases/procedures i. 24 Months waiting period 1. Benign ENT disorders")
# is its numbered siblings, not the rest of that first item.
@pytest.mark.parametrize(("name", "question", "listed", "unlisted"), [
    *((f"modern-{i}.txt", MODERN_QUESTION, TREATMENTS, ("Cumulative Bonus", "ambulance"))
      for i in range(len(MODERN))),
    *((f"waiting-{i}.txt", WAITING_QUESTION, DISEASES, ()) for i in range(len(TITLES))),
])
def test_an_announced_list_is_quoted_whole(announced_graph, name, question, listed, unlisted):
    with using_gate(None):
        answer = announced_graph.ask(question, documents=[name])
    text = direct_text(answer)
    assert all(item in text for item in listed), text
    assert not any(other in text for other in unlisted), text
