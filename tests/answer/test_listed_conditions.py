"""An item of a list answers with the period its section states for "the listed conditions".

Indian health wordings state the specified-disease wait once, for a list given after it:
"a) Expenses related to the treatment of the listed Conditions, surgeries/treatments shall be
excluded until the expiry of 24 months ..." and, items later, "f) List of specific diseases /
procedures: ... • Cataract". The item names the disease but holds no period, and its list's
title ("List of specific diseases") none either, so asked "How long do I have to wait for
cataract treatment to be covered?", the answer quoted the 30-day initial wait (HDFC ERGO's
Easy Health, Aditya Birla's Activ Health). The rule a section states for its list now gives
the item its period, as a list title that holds one ("24 Months waiting period" over "9.
Cataract") already did. The wording is written with three list styles for the diseases, three
ways of writing the period, and asked about two diseases two ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import DocumentTerms, bare_item

ITEM_STYLES = ["{n}. {name}", "• {name}", "({letter}) {name}"]
PERIODS = ["24 months", "two years", "twenty-four (24) months"]
DISEASES = ["Cataract", "Hernia of all types", "Benign prostatic hypertrophy", "Sinusitis"]
VARIANTS = [(style, period) for style in ITEM_STYLES for period in PERIODS]


def wording(style: str, period: str) -> str:
    items = "\n".join(style.format(n=i, letter="abcd"[i - 1], name=name)
                      for i, name in enumerate(DISEASES, 1))
    return f"""SECTION C - EXCLUSIONS AND WAITING PERIODS
1. Initial waiting period (Code- Excl03)
a) Expenses related to the treatment of any illness within 30 days from the first policy commencement date shall be excluded, except claims arising due to an accident.
b) This exclusion shall not apply if the Insured Person has continuous coverage for more than twelve months.
2. Specified disease/procedure waiting period (Code- Excl02)
a) Expenses related to the treatment of the listed conditions, surgeries or treatments shall be excluded until the expiry of {period} of continuous coverage after the date of inception of the first policy with us.
b) If any of the specified diseases or procedures falls under the waiting period specified for pre-existing diseases, then the longer of the two waiting periods shall apply.
c) List of specific diseases or procedures:
{items}
3. Claims
a) Notice of a claim shall be given to us within 48 hours of admission to a hospital.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("listed"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "What is the waiting period for {disease}?",
    "How long do I have to wait for {disease} treatment to be covered?",
])
@pytest.mark.parametrize("disease", ["cataract", "sinusitis"])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_listed_item_reads_its_section_rule(wordings, variant, disease, question):
    _, period = VARIANTS[variant]
    text = direct_text(ask_variant(wordings, variant, question.format(disease=disease)))
    assert period in text, text
    assert disease.capitalize() in text, text
    assert "within 30 days" not in text, text


def test_a_rule_stated_by_an_item_of_its_own_reads_no_list_rule(wordings):
    """ "b) If any of the specified diseases ... the longer of the two waiting periods shall
    apply" states its own rule: the section's 24-month rule is not its value."""
    index = wordings.index
    doc_id = index.clauses.document_ids()[0]
    clauses = index.clauses.document_clauses(doc_id)
    terms = DocumentTerms(index)
    own_rule = next(c for c in clauses if "longer of the two" in c.text)
    item = next(c for c in clauses if c.text.rstrip().endswith("Sinusitis"))
    assert bare_item(item.text) and not bare_item(own_rule.text)
    assert terms.list_rules(own_rule) == []
    rule_clause, (start, end) = terms.list_rules(item)[0]
    assert "listed conditions" in rule_clause.text[start:end]
