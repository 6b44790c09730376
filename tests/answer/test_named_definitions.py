""""What is X?" is answered by the definition of X (docs/policies_bench.md, session 34).

Evergreen's plan document sets each defined term on a line of its own above its
definition, with its short name beside it ("“Qualified Medical Child Support Order” or
“QMCSO”" / "“Qualified Medical Child Support Order” or “QMCSO” shall mean ..."). Asked
"What is a qualified medical child support order?", the answer read neither: the term was
not found in that layout (so the definition was dropped from the evidence as unrelated to
the question), and the definition reached the answer only as a clause governing the
retrieved ones, which the direct answer did not read. The same wording is written here in
several styles (quotes, labels, the term inline or on its own line, the defining verb);
the answer quotes the definition of the longest term the question names, not the
definition of "Child" that mentions it nor the clause that uses it.
"""

from __future__ import annotations

import pytest

from clausegraph.answer.defined import definition_terms
from tests.written_graph import ask_variant, direct_text, variant_graph

pytestmark = pytest.mark.slow

PLAN = """{title}

{article_a}

Enrolment of a Child under a court order. To be considered a Qualified Medical Child Support Order, the Medical Child Support Order must contain the name and the last known mailing address of the Participant and the name and mailing address of each Alternate Recipient covered by the order.

The Plan Administrator will notify the Participant and each Alternate Recipient when a Medical Child Support Order is received, and whether it is a Qualified Medical Child Support Order.

A Qualified Medical Child Support Order must state the type of coverage to be provided to each Alternate Recipient and the period to which the order applies.

A Qualified Medical Child Support Order may not require the Plan to provide any type or form of benefit that the Plan does not otherwise provide.

The Plan will pay benefits under a Qualified Medical Child Support Order to the Alternate Recipient or to the provider of the services.

Questions about a Qualified Medical Child Support Order may be sent to the Plan Administrator, who keeps the written procedures for qualified orders.

{article_b}

{child}

{mcso}

{qmcso}

{article_c}

The Plan Administrator decides all claims for benefits within thirty days of receiving them.
"""

CURLY_OWN_LINE = {
    "title": "EVERGREEN HEALTH AND WELFARE PLAN",
    "article_a": "ARTICLE 2 ENROLMENT",
    "article_b": "ARTICLE 7 DEFINITIONS",
    "child": "“Child”\n“Child” shall mean the Employee’s natural child, stepchild or legally adopted "
          "child. “Child” shall also mean a covered Employee’s child who is an Alternate "
          "Recipient under a Qualified Medical Child Support Order.",
    "mcso": "“Medical Child Support Order”\n“Medical Child Support Order” shall mean any judgment, "
         "decree or order issued by a court of competent jurisdiction that provides for child "
         "support with respect to a Participant’s child.",
    "qmcso": "“Qualified Medical Child Support Order” or “QMCSO”\n“Qualified Medical Child Support "
          "Order” or “QMCSO” shall mean a Medical Child Support Order which creates or "
          "recognizes the existence of an Alternate Recipient’s right to receive benefits for "
          "which a Participant is eligible under this Plan.",
    "article_c": "ARTICLE 9 CLAIMS",
}
STRAIGHT_INLINE = dict(
    CURLY_OWN_LINE,
    title="Welfare Benefit Plan",
    article_a="Section 2: Enrollment",
    article_b="Section 7: Defined Terms",
    child='7.1 "Child" means the Employee\'s natural child, stepchild or legally adopted child. '
          '"Child" also means a covered Employee\'s child who is an Alternate Recipient under a '
          'Qualified Medical Child Support Order.',
    mcso='7.2 "Medical Child Support Order" means any judgment, decree or order issued by a court '
         'of competent jurisdiction that provides for child support with respect to a '
         'Participant\'s child.',
    qmcso='7.3 "Qualified Medical Child Support Order" or "QMCSO" means a Medical Child Support '
          'Order which creates or recognizes the existence of an Alternate Recipient\'s right to '
          'receive benefits for which a Participant is eligible under this Plan.',
    article_c="Section 9: Claims",
)
NUMBERED_OWN_LINE = dict(
    CURLY_OWN_LINE,
    title="GROUP HEALTH PLAN DOCUMENT",
    article_a="PART B - ENROLMENT",
    article_b="PART G - DEFINITIONS",
    child="G.4 Child\nChild shall mean the Employee's natural child, stepchild or legally adopted "
          "child, and a covered Employee's child who is an Alternate Recipient under a Qualified "
          "Medical Child Support Order.",
    mcso="G.5 Medical Child Support Order\nMedical Child Support Order shall mean any judgment, "
         "decree or order issued by a court of competent jurisdiction that provides for child "
         "support with respect to a Participant's child.",
    qmcso="G.6 Qualified Medical Child Support Order\nQualified Medical Child Support Order shall "
          "mean a Medical Child Support Order which creates or recognizes the existence of an "
          "Alternate Recipient's right to receive benefits for which a Participant is eligible "
          "under this Plan.",
    article_c="PART H - CLAIMS",
)
STYLES = [CURLY_OWN_LINE, STRAIGHT_INLINE, NUMBERED_OWN_LINE]


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("named_definitions"),
                         [PLAN.format(**style) for style in STYLES])


def _clause(graph, variant: int, words: str):
    doc_id = next(d for d, e in graph.index.entries().items()
                  if e.source_path.endswith(f"policy-{variant}.txt"))
    return next(c for c in graph.index.clauses.document_clauses(doc_id)
                if words in c.text and "shall also" not in c.text and "also means" not in c.text
                and "To be considered" not in c.text)


@pytest.mark.parametrize("variant", range(len(STYLES)))
def test_the_definition_of_the_named_term_answers(graph, variant):
    answer = ask_variant(graph, variant, "What is a qualified medical child support order?")
    assert answer.found, answer.direct
    text = direct_text(answer)
    assert "creates or recognizes the existence" in text, text
    cited = _clause(graph, variant, "creates or recognizes")
    assert answer.direct_answer_citations[0] == cited.clause_id
    assert answer.evidence[0].clause_id == cited.clause_id
    # the term set on its own line above the definition is not quoted twice
    quote = " ".join(answer.direct_quote.split())
    assert quote.count("Qualified Medical Child Support Order") == 1, quote
    assert answer.direct.lines[0].text in " ".join(cited.text.split())


@pytest.mark.parametrize("variant", range(len(STYLES)))
def test_a_shorter_named_term_has_its_own_definition(graph, variant):
    answer = ask_variant(graph, variant, "What does medical child support order mean?")
    text = direct_text(answer)
    assert "issued by a court of competent jurisdiction" in text, text


@pytest.mark.parametrize("variant", range(len(STYLES)))
def test_the_terms_of_a_definition_are_read_from_its_layout(graph, variant):
    terms = definition_terms(_clause(graph, variant, "creates or recognizes"))
    assert "Qualified Medical Child Support Order" in terms, terms
    if variant != 2:  # the numbered style gives no short name
        assert "QMCSO" in terms, terms


def test_a_label_or_a_list_heading_is_no_term(graph):
    from clausegraph.answer.defined import _opening_terms

    assert _opening_terms("38. \nPortability means the right accorded to an insured person "
                          "to transfer the credit gained.") == []
    assert _opening_terms("Def. 35. \nPortability means the right accorded to an insured "
                          "person to transfer the credit gained.") == []
    assert _opening_terms("1.1 Standard Definitions\n1. Accident means a sudden, unforeseen "
                          "and involuntary event.") == []
    assert _opening_terms("17. Hospital \nA hospital means any institution established for "
                          "in-patient care.") == ["Hospital"]


@pytest.mark.parametrize("variant", range(len(STYLES)))
def test_a_governing_definition_answers_over_the_ranked_clauses(graph, variant):
    """The definition that only governs the retrieved clauses (not among them) answers
    "What is X?"; a definition of a shorter term that the question also names does not."""
    from clausegraph.answer.direct import DocumentTerms, direct_answer
    from clausegraph.answer.gate import using_gate

    qmcso = _clause(graph, variant, "creates or recognizes")
    mcso = _clause(graph, variant, "issued by a court")
    child = next(c for c in graph.index.clauses.document_clauses(qmcso.doc_id)
                 if "stepchild" in c.text)
    ranked = [c for c in graph.index.clauses.document_clauses(qmcso.doc_id)
              if "Qualified Medical Child Support Order" in c.text and c.kind != "definition"
              and c.clause_id not in (qmcso.clause_id, child.clause_id)]
    assert ranked
    with using_gate(None):
        answer = direct_answer(graph.index, DocumentTerms(graph.index),
                               "What is a qualified medical child support order?",
                               [*ranked, child], definitions=[child, mcso, qmcso])
    assert answer.found and answer.citations()[0] == qmcso.clause_id, answer.text


@pytest.mark.parametrize("variant", range(len(STYLES)))
def test_a_definition_is_quoted_by_its_defining_sentence(graph, variant):
    """Beside an answer, a definition is quoted by the sentence that defines its term, not
    by the fragment that shares most words with the question."""
    from clausegraph.answer.extractive import definition_quote

    child = next(c for c in graph.index.clauses.document_clauses(
        _clause(graph, variant, "creates or recognizes").doc_id) if "stepchild" in c.text)
    quote = " ".join(definition_quote(child).text.split())
    assert "natural child, stepchild or legally adopted" in quote, quote
    qmcso = definition_quote(_clause(graph, variant, "creates or recognizes"))
    assert " ".join(qmcso.text.split()).count("Qualified Medical Child Support Order") == 1
    document = graph.index.clauses.document(child.doc_id)
    start, end = qmcso.span
    assert document.text[start:end].strip() == qmcso.text


@pytest.mark.parametrize("label", ["1.", "(a)", "i.", "•"])
def test_a_definition_introducing_a_list_is_quoted_to_its_colon(label):
    """"“Dependent” shall mean one or more of the following persons: 1." was the quote: the
    list's first label read as the end of the sentence."""
    from clausegraph.answer.extractive import definition_quote
    from clausegraph.models import Clause

    text = ("“Dependent”\n“Dependent” shall mean one or more of the following persons:\n"
            f"{label} the Employee's lawful spouse; and\n"
            f"{label} the Employee's children under the age of 26 years.")
    clause = Clause(clause_id="plan:7.5", doc_id="plan", text=text, span=(0, len(text)),
                    segments=[(0, len(text))], pages=[1], order=0, kind="definition")
    quote = " ".join(definition_quote(clause).text.split())
    assert quote == "“Dependent” shall mean one or more of the following persons:", quote
