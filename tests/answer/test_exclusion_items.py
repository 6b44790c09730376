"""A short item of an exclusion list answers "Is X covered?" when it names X.

An exclusion list states its refusal once, in its heading or lead-in ("Permanent
Exclusions", "We will not pay for:"); its items are a few words each ("iv. Ayurvedic and
Homeopathic treatment."). Such an item was scored as a bare heading line (too few words to
state anything), so asked "Is Ayurvedic treatment covered?", the answer quoted a cover
clause that shares only "treatment" and "cover" with the question (Max Bupa's group wording:
the OPD cover, verdict "Yes"). An item of an exclusion list that names what is asked now
states its refusal by its list. The wording is written with three list styles, three
exclusion headings and three excluded treatments.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

LABELS = [("i.", "ii.", "iii.", "iv."), ("(a)", "(b)", "(c)", "(d)"), ("1)", "2)", "3)", "4)")]
HEADINGS = ["PERMANENT EXCLUSIONS", "What we will not pay for", "Exclusions"]
TREATMENTS = [
    ("Ayurvedic", "Ayurvedic and Homeopathic treatment."),
    ("Cosmetic", "Cosmetic or plastic surgery treatment."),
    ("Acupuncture", "Acupuncture and naturopathy treatment."),
]
VARIANTS = [(labels, heading, treatment) for labels in LABELS for heading in HEADINGS
            for treatment in TREATMENTS][::2]


def wording(labels: tuple[str, ...], heading: str, treatment: tuple[str, str]) -> str:
    a, b, c, d = labels
    return f"""SECTION 2 - WHAT WE COVER
2.1 In-patient Treatment
We will pay the Medical Expenses for in-patient treatment of an Insured Person in a Hospital for more than 24 hours, up to the Sum Insured.
2.2 Out-patient Treatment Cover
If an Insured Person undergoes out-patient treatment, then we will reimburse the percentage of the admitted claim amount specified in the Schedule for the Medical Expenses incurred on consultations and prescribed medicines.
SECTION 4 - {heading}
We will not pay for any claim in respect of an Insured Person for, arising from or in connection with any of the following:
{a} Treatment taken outside India.
{b} Hearing aids and spectacles.
{c} {treatment[1]}
{d} Self-inflicted injury or attempted suicide.
SECTION 5 - CLAIMS
5.1 Notice of a claim shall be given to us within 48 hours of admission to a Hospital.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("exclusion_items"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "Is {name} treatment covered?",
    "Does the policy pay for {name} treatment?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_exclusion_item_that_names_the_treatment_answers(wordings, variant, question):
    _, _, (name, item) = VARIANTS[variant]
    answer = ask_variant(wordings, variant, question.format(name=name))
    text = direct_text(answer)
    assert item in text, text
    assert "reimburse" not in text, text
    assert answer.verdict is not None and answer.verdict.text.startswith("No"), \
        (answer.verdict, text)
