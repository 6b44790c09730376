"""How long an agreement lasts is not stated by the day it starts.

"How long does the agreement last?" of a services agreement (CUAD dev, Ability Inc) quoted
its opening, "This Services Agreement ... is entered into on October 1, 2019 and is made
effective as of November 1, 2019", and answered "Until October 1, 2019": the opening states
dates, and a date answers a question of how long when it is the day a term ends. A sentence
whose dates are all days something starts holds no such value; the clause that ends the
term is quoted. Written with three date styles and three opening wordings; asked of a start,
the opening still answers.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

OPENINGS = [
    ("This Services Agreement (this \"Agreement\") is entered into on {signed} and is made "
     "effective as of {effective} (the \"Effective Date\"), by and between Northwind Ltd (the "
     "\"Provider\") and Contoso Pte Ltd (the \"Recipient\")."),
    ("THIS AGREEMENT is dated {signed} and takes effect from {effective} between Northwind "
     "Ltd and Contoso Pte Ltd."),
    ("This Consulting Agreement is made and executed on {signed}, effective as of "
     "{effective}, by Northwind Ltd and Contoso Pte Ltd."),
]
DATES = [("October 1, 2019", "November 1, 2019", "December 31, 2020", "2020"),
         ("1st October 2019", "1 November 2019", "31 December 2021", "2021"),
         ("2019-10-01", "2019-11-01", "2022-06-30", "2022")]


def agreement(variant: int) -> str:
    signed, effective, end, _ = DATES[variant]
    opening = OPENINGS[variant].format(signed=signed, effective=effective)
    return f"""SERVICES AGREEMENT

{opening}

1. Services.
1.1 Provider agrees to provide the services set forth on Exhibit A to the Recipient.

2. Fees.
2.1 Recipient shall pay each invoice within fifteen (15) days after receiving it.

3. Termination.
3.1 Term of Agreement. This Agreement shall remain in force from the Effective Date and shall terminate on {end}, unless terminated earlier under this Section 3.
3.2 Either party may terminate this Agreement without cause on ninety (90) days' prior written notice.

4. Governing Law.
4.1 This Agreement is governed by the laws of Singapore.
"""


@pytest.fixture(scope="module")
def agreements(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("term-start-dates"),
                         [agreement(variant) for variant in range(len(DATES))])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(DATES)))
@pytest.mark.parametrize("question", ["How long does the agreement last?",
                                      "How long is this agreement in force?"])
def test_how_long_is_answered_by_the_end_not_the_start(agreements, variant, question):
    answer = ask_variant(agreements, variant, question)
    text = direct_text(answer)
    assert DATES[variant][3] in text, text
    assert "entered into" not in text and "dated" not in text and "executed" not in text, text


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(DATES)))
def test_asked_of_the_start_the_opening_answers(agreements, variant):
    answer = ask_variant(agreements, variant, "When does the agreement take effect?")
    assert "2019" in direct_text(answer), direct_text(answer)


# A start date beside an open end is the term's statement: "Your employment shall commence
# on 26 September 2019 and shall continue unless and until either party gives notice" is
# the answer to when the term ends (CUAD: perpetual), not a restrictive covenant's "twelve
# (12) month period ending with the Termination Date" (CUAD dev, a service agreement).
EMPLOYMENT = """SERVICE AGREEMENT

1. Appointment.
1.1 The Company appoints you as Chief Scientific Officer.
1.2 Your employment shall commence on {start} and shall continue {open_end}.

2. Restrictions.
2.1 "Restricted Customers" shall mean any person who was at any time in the twelve (12) month period ending with the Termination Date a customer of the Company.
"""
OPEN_ENDS = ["unless and until either party gives notice to the other under paragraph 9",
             "until terminated by either party giving three months' written notice",
             "indefinitely, unless terminated under clause 9"]


@pytest.fixture(scope="module")
def employments(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("open-term"), [
        EMPLOYMENT.format(start=start, open_end=open_end)
        for start, open_end in zip(["26 September 2019", "September 26, 2019", "2019-09-26"],
                                   OPEN_ENDS, strict=True)])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(OPEN_ENDS)))
def test_a_start_beside_an_open_end_states_the_term(employments, variant):
    answer = ask_variant(employments, variant, "How long does the employment last?")
    text = direct_text(answer)
    assert "shall commence on" in text and "Restricted Customers" not in text, text
