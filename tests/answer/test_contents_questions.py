"""A question about what a figure includes or leaves out is answered by the row that lists
it, not by the row that states the figure.

A US summary of benefits answers its own questions in a table: "What is the out-of-pocket
limit for this plan? | $2,500 individual / $5,000 family" and, in the next row, "What is not
included in the out-of-pocket limit? | Copayments for certain services, premiums, ...".
Asked "What is not included in the out-of-pocket limit?", the answer took the question for
an amount question ("limit") and quoted the dollar row, under the verdict "Cannot tell: the
quote states no money". The table is written in HTML with
three currencies and two names of the figure, and asked in three wordings.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import question_kind
from clausegraph.answer.verdict import asked_value_kinds

CURRENCIES = ["$", "£", "EUR "]
FIGURES = ["out-of-pocket limit", "annual maximum"]
VARIANTS = [(currency, figure) for currency in CURRENCIES for figure in FIGURES]


def summary(currency: str, figure: str) -> str:
    rows = [
        ("What is the overall deductible?",
         f"{currency}500 individual / {currency}1,000 family.",
         ("Generally, you must pay all of the costs from providers up to the deductible "
          "amount before this plan begins to pay.")),
        (f"What is the {figure} for this plan?",
         (f"For network providers {currency}2,500 individual / {currency}5,000 family; for "
          f"out-of-network providers {currency}4,000 individual / {currency}8,000 family."),
         f"The {figure} is the most you could pay in a year for covered services."),
        (f"What is not included in the {figure}?",
         ("Copayments for certain services, premiums, balance-billing charges, and health "
          "care this plan doesn't cover."),
         f"Even though you pay these expenses, they don't count toward the {figure}."),
        ("Do you need a referral to see a specialist?", "No.",
         "You can see the specialist you choose without a referral."),
    ]
    cells = "\n".join(f"<tr><td>{q}</td><td>{a}</td><td>{why}</td></tr>" for q, a, why in rows)
    return f"""<html><head><title>Summary of Benefits and Coverage</title></head><body>
<h1>Summary of Benefits and Coverage: What this Plan Covers and What You Pay</h1>
<table>
<tr><th>Important Questions</th><th>Answers</th><th>Why This Matters</th></tr>
{cells}
</table>
</body></html>"""


@pytest.fixture(scope="module")
def summaries(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("contents"),
                         [summary(*variant) for variant in VARIANTS], ".html")


@pytest.mark.parametrize("question", [
    "What is not included in the {figure}?",
    "Which costs are not counted toward the {figure}?",
    "What expenses are excluded from the {figure}?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_row_listing_what_is_left_out_answers(summaries, variant, question):
    currency, figure = VARIANTS[variant]
    answer = ask_variant(summaries, variant, question.format(figure=figure), ".html")
    text = direct_text(answer)
    assert "premiums" in text and "balance-billing" in text, text
    assert f"{currency}4,000" not in text, text
    # an open question: the quote answers it, no verdict line reads a figure into it
    assert answer.verdict is None, answer.verdict


@pytest.mark.parametrize("question", [
    "What is not included in the out-of-pocket limit?",
    "Which costs are excluded from the deductible?",
    "What charges are not counted toward the annual maximum?",
])
def test_a_question_about_contents_asks_no_value(question):
    assert question_kind(question) is None
    assert asked_value_kinds(question) == ()


@pytest.mark.parametrize("question", [
    "What is the out-of-pocket limit?",
    "What amount is included in the premium for the add-on?",
    "What limit is included for room rent?",
])
def test_a_question_about_the_figure_still_asks_an_amount(question):
    assert question_kind(question) == "amount"
    assert "money" in asked_value_kinds(question)
