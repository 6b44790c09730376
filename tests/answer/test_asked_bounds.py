"""A question for the upper or lower end of a limit is answered by the figure on that side.

"What is the maximum age to buy the policy?" of a wording whose one sentence sets both ends
("provided that an Insured has attained the age of 3 months and is not older than 65 years
of age at the commencement of the first policy"): the figure the question's subject word
("age") stands nearest to is the lower one; the maximum is the one the words "not older
than" bound from above. Asked for the minimum, the lower end. Written with other bound words
and figures; the verdict is read from a direct answer quoting the sentence alone.
"""

from __future__ import annotations

import pytest

from clausegraph.answer.verdict import verdict
from clausegraph.models import AnswerLine, DirectAnswer

SENTENCES = [
    (("provided that an Insured has attained the age of {low} and is not older than {high} "
      "of age at the commencement of the first policy"), "3 months", "65 years"),
    ("Persons of the age of {low} and of not more than {high} may be covered", "91 days",
     "70 years"),
    ("An insured person must be aged at least {low} and at most {high} on entry", "18 years",
     "80 years"),
    ("cover is available from the age of {low} up to {high}", "5 years", "60 years"),
]


@pytest.mark.parametrize(("sentence", "low", "high"), SENTENCES)
@pytest.mark.parametrize(("question", "end"), [
    ("What is the maximum age to buy the policy?", "high"),
    ("What is the highest age at which a person can be insured?", "high"),
    ("What is the minimum age to buy the policy?", "low"),
    ("What is the lowest entry age?", "low"),
])
def test_the_asked_end_of_a_range_is_the_answer(sentence, low, high, question, end):
    text = sentence.format(low=low, high=high)
    line = AnswerLine(clause_id="doc:3.2", label="3.2", document="Policy", text=text,
                      span=(0, len(text)), pages=[2])
    result = verdict(question, DirectAnswer(found=True, text=text, lines=[line]))
    assert result is not None and result.text == (high if end == "high" else low), \
        (question, text, result)
