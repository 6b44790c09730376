"""Whether something is covered is answered by a sentence that names it.

Asked "Is dental treatment covered?", Arogya Sanjeevani's answer was "Yes, up to 50%", from
its modern-treatment clause ("The following procedures will be covered ... subject to the
limit of 50% of the Sum Insured ... Oral Chemotherapy"), which names "treatment" and
"covered" and not dental treatment; the item "ii. Dental treatment, necessitated due to
disease or injury" ranked below it. Of the candidate sentences, those that name the
question's rarest subject word are chosen from, where any does
(``direct._naming_rarest``). Written in two styles with three subjects.
"""

from __future__ import annotations

import pytest
from synthetic_index import file_clauses, read_texts

from clausegraph.answer.direct import DocumentTerms, direct_answer
from clausegraph.answer.gate import using_gate

POLICY = """{title}
{cover_heading}
{a} Modern Treatment: the following procedures will be covered, either as in-patient or as day care treatment, subject to the limit of {share} of the sum insured: oral chemotherapy, robotic surgeries, stereotactic radio surgeries and immunotherapy.
{b} Other expenses:
(i) Expenses incurred on treatment of cataract subject to the sub limits.
(ii) {subject}, necessitated due to disease or injury.
(iii) Expenses incurred on road ambulance, up to {ambulance} per hospitalisation.
{exclusions_heading}
{c} Any treatment taken outside the country.
"""
STYLES = [
    {"title": "HEALTH GUARD POLICY", "cover_heading": "4. COVERAGE", "a": "4.1", "b": "4.2",
     "share": "50%", "ambulance": "Rs. 2,000", "exclusions_heading": "7. EXCLUSIONS",
     "c": "7.1"},
    {"title": "Family Health Plan", "cover_heading": "Section B - What we pay for", "a": "B.1",
     "b": "B.2", "share": "forty per cent", "ambulance": "USD 300",
     "exclusions_heading": "Section C - What we do not pay for", "c": "C.1"},
]
SUBJECTS = [("Dental treatment", "Is dental treatment covered?"),
            ("Hearing aids fitted in hospital", "Are hearing aids covered?"),
            ("Plastic surgery", "Is plastic surgery covered?")]
VARIANTS = [(style, subject) for style in range(len(STYLES)) for subject in range(len(SUBJECTS))]


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    return read_texts(tmp_path_factory.mktemp("cover_subject"), {
        f"policy-{i}.txt": POLICY.format(**STYLES[style], subject=SUBJECTS[subject][0])
        for i, (style, subject) in enumerate(VARIANTS)})


def _clauses(reader, variant: int):
    clauses = file_clauses(reader, f"policy-{variant}.txt")
    modern = next(c for c in clauses if "oral chemotherapy" in c.text)
    item = next(c for c in clauses if "necessitated due to disease" in c.text)
    return modern, item


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_sentence_naming_what_is_asked_is_quoted(reader, variant):
    subject, question = SUBJECTS[VARIANTS[variant][1]]
    modern, item = _clauses(reader, variant)
    with using_gate(None):
        answer = direct_answer(reader, DocumentTerms(reader), question, [modern, item])
    assert answer.found and subject in answer.text, answer.text


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_with_no_sentence_naming_it_the_best_sentence_stays(reader, variant):
    modern, item = _clauses(reader, variant)
    with using_gate(None):
        answer = direct_answer(reader, DocumentTerms(reader), "Is immunotherapy covered?",
                               [item, modern])
    assert answer.found and "immunotherapy" in answer.text, answer.text


NESTED = """{title}

{cover}. COVERAGE
{cover}.1. Hospitalization
The Company shall {grant} Medical Expenses incurred for Hospitalization of the Insured Person during the Policy Period, up to the Sum Insured specified in the Policy Schedule, for,
i. Room Rent, Boarding, Nursing Expenses as provided by the Hospital up to {room} of the sum insured per day
ii. Intensive Care Unit (ICU) expenses up to 5% of the sum insured per day
iii. Surgeon, Anesthetist, Medical Practitioner, Consultants, Specialist Fees
{cover}.1.1. Other expenses
i. Expenses incurred on treatment of cataract subject to the sub limits
ii. {subject}, necessitated due to disease or injury
iii. Expenses incurred on road Ambulance subject to a maximum of {ambulance} per hospitalization.

{excl}. EXCLUSIONS
{excl}.1. The Company shall not be liable to make any payment for any claim in respect of cosmetic or aesthetic treatments of any description.
"""
NESTED_STYLES = [
    {"title": "AROGYA HEALTH POLICY", "cover": "4", "grant": "indemnify", "room": "2%",
     "ambulance": "Rs 2,000", "excl": "7"},
    {"title": "Care Shield Policy Wording", "cover": "3", "grant": "pay", "room": "one per cent",
     "ambulance": "USD 250", "excl": "6"},
]
NESTED_VARIANTS = [(style, subject) for style in range(len(NESTED_STYLES))
                   for subject in range(len(SUBJECTS))]


@pytest.fixture(scope="module")
def nested(tmp_path_factory):
    from written_graph import variant_graph

    return variant_graph(tmp_path_factory.mktemp("nested_grant"), [
        NESTED.format(**NESTED_STYLES[style], subject=SUBJECTS[subject][0])
        for style, subject in NESTED_VARIANTS])


@pytest.mark.parametrize("variant", range(len(NESTED_VARIANTS)))
def test_an_item_under_a_heading_under_a_grant_is_covered(nested, variant):
    # Arogya's "4.1.1. Other expenses" is a heading the outline merges into its first item;
    # its items are granted by "4.1. Hospitalization The Company shall indemnify ... for,"
    from written_graph import ask_variant, direct_text

    subject, question = SUBJECTS[NESTED_VARIANTS[variant][1]]
    with using_gate(None):
        answer = ask_variant(nested, variant, question)
    assert subject in direct_text(answer), direct_text(answer)
    assert answer.verdict is not None and answer.verdict.label == "yes", answer.verdict
