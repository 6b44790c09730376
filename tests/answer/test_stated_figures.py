"""A question that states a figure is answered only by a quote that states or brackets it.

Reliance's group policy: "Which illnesses have a two-year waiting period?" was answered "30
days" from the 30-day waiting period, and Arogya Sanjeevani's "What is the premium for a
40-year-old ...?" with the 5% cumulative bonus: the quote names the subject and states
another figure, or none of the kind the question states. A figure stated in a question
(a duration, an age, an amount, a percentage) must be met in the quote by an equal one of
its family (24 months for two years) or by two that bracket it ("aged 18 to 65 years" for a
45-year-old); otherwise the answer is "Not found"; and of the candidate sentences, one that
meets the stated figures is quoted where one does. The answer gate is off in the asks below
(its refusals are not what is tested). The wording is written with three ways of stating its
periods and two headings.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.gate import using_gate
from clausegraph.answer.verdict import misses_stated_figure, verdict
from clausegraph.models import AnswerLine, DirectAnswer

PERIODS = [("30 days", "24 months", "18 years", "65 years"),
           ("thirty (30) days", "twenty-four (24) months", "18 years", "65 years"),
           ("one month", "two years", "eighteen years", "sixty-five years")]
HEADINGS = [("WAITING PERIODS", "ELIGIBILITY"), ("Waiting periods", "Who can be covered")]
VARIANTS = [(p, h) for p in PERIODS for h in HEADINGS]


def wording(periods: tuple[str, ...], headings: tuple[str, str]) -> str:
    first, specified, youngest, oldest = periods
    waiting, eligibility = headings
    return f"""1. {eligibility}
1.1 Persons aged between {youngest} and {oldest} can be covered under this Policy as Insured Persons.
1.2 The premium is payable in advance for the Policy Period as per the premium chart of the Company.
2. {waiting}
2.1 Expenses related to the treatment of any illness within {first} from the first policy commencement date shall be excluded, except claims arising due to an accident.
2.2 Expenses related to the treatment of the following listed conditions shall be excluded until the expiry of {specified} of continuous coverage after the date of inception of the first policy: cataract, hernia, benign prostatic hypertrophy and joint replacement.
3. CLAIMS
3.1 The Insured Person shall notify the claim within 7 days of hospitalisation.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("figures"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "Which illnesses have a three-year waiting period?",
    "What premium is charged for a 45-year-old?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_figure_the_quote_does_not_state_is_not_answered(wordings, variant, question):
    with using_gate(None):
        answer = ask_variant(wordings, variant, question)
    assert not answer.found, direct_text(answer)


@pytest.mark.parametrize("question, holds", [
    ("Which illnesses have a two-year waiting period?", "cataract"),
    ("Is there a 30-day waiting period at the start of the policy?", "commencement"),
    ("Can a 45-year-old be covered under the policy?", "can be covered"),
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_figure_the_quote_states_or_brackets_is_answered(wordings, variant, question,
                                                            holds):
    with using_gate(None):
        answer = ask_variant(wordings, variant, question)
    assert answer.found, [line.text for line in answer.direct.nearest]
    assert holds in direct_text(answer), direct_text(answer)


def _quoting(text: str) -> DirectAnswer:
    line = AnswerLine(clause_id="d:1", label="1", document="d", text=text, span=(0, len(text)),
                      pages=[1])
    return DirectAnswer(found=True, text=text, lines=[line])


@pytest.mark.parametrize("question, quote, misses", [
    ("Is there a 36-month waiting period?", "excluded until the expiry of three years", False),
    ("Is there a 36-month waiting period?", "excluded until the expiry of 48 months", True),
    # asked yes or no, a range that leaves the figure out answers: "No"
    ("Is a 70-year-old covered?", "persons aged 18 to 65 years can be covered", False),
    # ... when it says whom the range admits: bare, it is a range of anything
    ("Is a 70-year-old covered?", "persons aged 18 to 65 years", True),
    ("What premium is charged for a 70-year-old?", "persons aged 18 to 65 years", True),
    # ... when it is about what is asked: a surgery's condition is not the policy's
    ("Can a child aged 2 be covered?", "The member has to be 18 years of age or older", True),
    ("Is a 70-year-old covered?", "persons aged 18 to 80 years", False),
    ("Is there a 10% co-payment?", "a co-payment of 10% applies to each claim", False),
    ("Is there a 10% co-payment?", "a co-payment of 20% applies to each claim", True),
    ("Is cover for $5,000 of dental work included?", "dental work up to $ 5000", False),
    ("What is the waiting period for cataract?", "24 months", False),  # states no figure
    # a measure is met by the same measure, not by a sum of the same number
    ("What premium is payable for a car of 1500 cc?", "a premium of Rs. 1500/-", True),
    ("What premium is payable for a car of 1500 cc?", "cars not exceeding 1.5 litres", False),
    ("Is towing covered up to 50 km?", "towing beyond fifty (50) kilometres", False),
    ("Is towing covered up to 50 km?", "towing up to $50", True),
])
def test_misses_stated_figure(question, quote, misses):
    assert misses_stated_figure(question, _quoting(quote)) is misses


# An age asked yes or no is read against the range the wording sets: outside it is "No",
# inside "Yes", each with the range (the three period styles and two headings above).
@pytest.mark.parametrize("question, label, shown", [
    ("Can a 70-year-old be covered under the policy?", "no", "outside"),
    ("Can a person aged 45 be covered under the policy?", "yes", "within"),
    ("Can a 17 year old be covered under the policy?", "no", "outside"),
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_age_asked_yes_or_no_is_answered_by_the_range(wordings, variant, question, label,
                                                         shown):
    with using_gate(None):
        answer = ask_variant(wordings, variant, question)
    assert answer.found, [line.text for line in answer.direct.nearest]
    assert "can be covered" in direct_text(answer), direct_text(answer)
    assert answer.verdict.label == label and shown in answer.verdict.text, answer.verdict.text
    youngest, oldest = VARIANTS[variant][0][2:]
    assert f"{youngest} to {oldest}" in answer.verdict.text, answer.verdict.text


@pytest.mark.parametrize("question, quote, label", [
    ("Can an 85-year-old be covered?", "Persons aged above 80 years are not eligible.", "no"),
    ("Can an 85-year-old be covered?", "Persons above 80 years of age shall not be covered.",
     "no"),
    # a refusal of older persons says nothing of a younger one
    ("Can a 60-year-old be covered?", "Persons aged above 80 years are not eligible.",
     "cannot_tell"),
    ("Can a person aged 85 be insured?",
     "Entry age for the member should be between 03 months to 90 years (completed age).",
     "yes"),
    ("Can a 95-year-old be insured?",
     "Entry age for the member should be between 3 months and 90 years.", "no"),
])
def test_an_age_asked_yes_or_no_against_one_quote(question, quote, label):
    read = verdict(question, _quoting(quote))
    assert read is not None and read.label == label, read


@pytest.mark.parametrize("quote", [
    ("Every proposer above 45 years of age must undergo a medical examination before the "
     "policy is issued."),
    "A medical examination is required for proposers aged forty-five (45) years or over.",
])
@pytest.mark.parametrize("question, applies", [
    ("Does a 50-year-old proposer need a medical examination?", True),
    ("Does a proposer aged 30 need a medical examination?", False),
])
def test_a_range_a_condition_is_set_for_says_whether_it_applies(quote, question, applies):
    # neither yes nor no: whether the condition applies ("Can a 50-year-old buy the policy
    # without a check-up?" is not "Yes" because 50 is over 45)
    read = verdict(question, _quoting(quote))
    assert read is not None and read.label == "conditional", read
    assert ("does not apply" not in read.text) is applies, read.text
    assert "45" in read.text, read.text


@pytest.mark.parametrize("question, quote", [
    # the condition of a surgery's cover is not who the policy covers
    ("Can a child aged 2 be covered?", "The member has to be 18 years of age or older"),
    # nor is a benefit for minor children who the policy takes
    ("Can a person aged 85 be insured?",
     ("The policy shall reimburse the travelling expenses of the Insured Person's minor "
      "children aged below 17 years for return to home town.")),
    # the document's kind, where the question names it, is no subject
    ("Can a person aged 85 be insured under the group domestic travel policy?",
     ("The policy shall reimburse the travelling expenses of the Insured Person's minor "
      "children aged below 17 years for return to home town.")),
])
def test_a_range_of_another_subject_does_not_answer(question, quote):
    read = verdict(question, _quoting(quote))
    assert read is None or "outside" not in read.text, read


SERVICE = [("above 60 years of age", "60-year-old"),
           ("older than seventy (70) years", "70-year-old")]


def service_wording(senior: str) -> str:
    return f"""HEALTH SHIELD POLICY WORDING

1. ELIGIBILITY
1.1 Persons aged between 18 years and 75 years can enrol in this Policy as Insured Persons.
1.2 Children may be covered from 91 days of age with a parent.
2. SERVICE TO POLICYHOLDERS
2.1 A dedicated helpline enrols and serves policyholders who are {senior} in this Policy.
3. CLAIMS
3.1 The Insured Person shall notify the claim within 7 days of hospitalisation.
"""


@pytest.fixture(scope="module")
def service_wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("service"),
                         [service_wording(senior) for senior, _ in SERVICE])


@pytest.mark.parametrize("variant", range(len(SERVICE)))
def test_the_range_that_holds_an_age_is_quoted_over_the_same_age_stated(service_wordings,
                                                                        variant):
    # a helpline for those "above 60 years" states 60 (a bound 60 is outside); the entry
    # range holds it
    asked = SERVICE[variant][1]
    with using_gate(None):
        answer = ask_variant(service_wordings, variant, f"Can a {asked} enrol in this policy?")
    assert "between 18 years and 75 years" in direct_text(answer), direct_text(answer)
    assert answer.verdict.label == "yes", answer.verdict
