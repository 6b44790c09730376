"""A period that holds cover back is the waiting period asked about.

Indian health wordings state the pre-existing disease wait as an exclusion: "Expenses
related to the treatment of a Pre-Existing Disease ... shall be excluded until the expiry of
36 months of continuous coverage". The sentence never says "waiting period"; the sentences
that do are the specified-disease wait under a heading "Specified disease or procedure
waiting period" and the rule for two overlapping waits ("... then the longer of the two
waiting periods shall apply"). Asked "What is the waiting period for pre-existing diseases?",
the answer quoted one of those (on Bajaj Allianz's wording the rule, here the 24-month
specified-disease wait). A duration in a sentence that holds cover back ("excluded until",
"covered only after") now stands for the words "waiting period", as a duration already stands
for "how long". The wording is written with three list styles, three ways of writing the
period and two deferral phrasings, and asked three ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import DEFERS_COVER

LABELS = [("a.", "b.", "c."), ("(i)", "(ii)", "(iii)"), ("1)", "2)", "3)")]
PERIODS = ["36 months", "thirty-six (36) months", "3 years"]
DEFERRALS = [
    ("shall be excluded until the expiry of {period} of continuous coverage after the date of "
     "inception of the first policy with us"),
    ("shall be covered only after {period} of continuous coverage have elapsed since the "
     "inception of the first policy with us"),
]
VARIANTS = [(labels, period, deferral) for labels in LABELS for period in PERIODS
            for deferral in DEFERRALS][::2]


def wording(labels: tuple[str, ...], period: str, deferral: str) -> str:
    a, b, c = labels
    return f"""SECTION C - EXCLUSIONS
1. Pre-Existing Diseases
{a} Expenses related to the treatment of a Pre-Existing Disease (PED) and its direct complications {deferral.format(period=period)}.
{b} In case of enhancement of sum insured the exclusion shall apply afresh to the extent of the sum insured increase.
{c} Coverage under the policy after the expiry of {period} for any pre-existing disease is subject to the same being declared at the time of application and accepted by us.
2. Specified disease or procedure waiting period
{a} Expenses related to the treatment of the listed conditions shall be excluded until the expiry of 24 months of continuous coverage.
{b} If any of the specified diseases or procedures falls under the waiting period specified for Pre-Existing Diseases, then the longer of the two waiting periods shall apply.
{c} The waiting period for listed conditions shall apply even if contracted after the policy.
3. Claims
{a} Notice of a claim shall be given to us within 48 hours of admission to a hospital.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("waiting"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "What is the waiting period for pre-existing diseases?",
    "How long is the pre-existing disease waiting period?",
    "What waiting period applies to pre-existing diseases?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_period_that_holds_cover_back_answers(wordings, variant, question):
    _, period, _ = VARIANTS[variant]
    text = direct_text(ask_variant(wordings, variant, question))
    assert period in text, text
    assert "longer of the two" not in text and "24 months" not in text, text


@pytest.mark.parametrize("sentence", [
    "shall be excluded until the expiry of 36 months of continuous coverage",
    "are not covered until 2 years of continuous cover have passed",
    "will be payable only after 48 months from the inception of the first policy",
])
def test_cover_held_back_reads_as_a_wait(sentence):
    assert DEFERS_COVER.search(sentence)


@pytest.mark.parametrize("sentence", [
    "maternity hospitalisation and until 30 days following birth of the new born baby",
    "the policy shall continue until the end of the policy period of 1 year",
    "notice shall be given within 30 days after the expiry of the policy",
])
def test_a_period_of_cover_is_no_wait(sentence):
    assert DEFERS_COVER.search(sentence) is None
