"""A title set in capitals is no answer, however many of the question's words it holds.

Bajaj Allianz's "SECTION III – PERSONAL ACCIDENT COVER FOR OWNER-DRIVER" stands alone as a
clause, its list's title (the scale of compensation) holding percentages, so for "What is
the capital sum insured for the owner-driver's personal accident cover?" it scored as a
list item that states the asked amount, above the item that does ("the total liability of
the insurer shall not in the aggregate exceed the sum of Rs. 15 lakhs"). A short line in
capitals with no verb now counts as a bare heading (the weight of a sentence of fewer than
six words). Scored with three heading styles and three ways of writing the amount.
"""

from __future__ import annotations

import pytest

from clausegraph.answer.direct import _score_sentences
from clausegraph.models import Clause
from clausegraph.text.tokenize import tokenize

HEADINGS = ["SECTION III – PERSONAL ACCIDENT COVER FOR OWNER-DRIVER",
            "PART C: PERSONAL ACCIDENT COVER FOR THE OWNER-DRIVER",
            "ARTICLE 3 PERSONAL ACCIDENT COVER FOR OWNER-DRIVER"]
AMOUNTS = ["Rs. 15 lakhs", "₹15,00,000", "INR 1,500,000"]
QUESTION = "What is the capital sum insured for the owner-driver's personal accident cover?"


def best(text: str, rank: int, list_title: str = ""):
    clause = Clause(clause_id=f"d:{rank}", doc_id="d", number=str(rank), text=text,
                    span=(0, len(text)), segments=[(0, len(text))], pages=[1], order=rank)
    weights = {t: 1.0 for t in tokenize(QUESTION)}
    return max(_score_sentences(clause, rank, weights, sum(weights.values()), "amount",
                                list_title=list_title), key=lambda s: s.score)


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("amount", AMOUNTS)
def test_the_item_stating_the_amount_outscores_the_capitalised_title(heading, amount):
    title = best(heading, 0, list_title="Scale of compensation: Death 100%")
    item = best("A. Compensation shall be payable under only one of the items above and the "
                "total liability of the insurer shall not in the aggregate exceed the sum "
                f"of {amount} during any one period of insurance.", 2)
    assert item.score > title.score, (item.score, title.score)
