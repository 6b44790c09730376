"""The clause printed under a direct answer is shown where it answers, not from its start."""

from __future__ import annotations

import pytest

from clausegraph.models import EvidenceClause
from tests.written_graph import written_graph

FILLER = " ".join(f"The Insured shall keep record {n} of every premium paid and shall produce it "
                  "to the Company on request." for n in range(1, 13))
POLICY = f"""PREMIUM PAYMENT POLICY

1. DEFINITIONS
1.1 Premium means the amount payable by the Insured for the cover under this Policy.

2. PREMIUM
2.1 Payment of premium. {FILLER} The grace period for payment of a renewal premium is thirty
days from its due date, during which the cover continues.

3. CLAIMS
3.1 Every claim shall be notified to the Company in writing within seven days of the event.
"""


@pytest.fixture(scope="module")
def answer(tmp_path_factory):
    graph = written_graph(tmp_path_factory.mktemp("answering"), {"premium.txt": POLICY})
    return graph.ask("How long is the grace period for renewal premium?")


def test_a_long_clause_is_shown_around_the_sentence_it_answers_with(answer):
    assert answer.found and "thirty" in answer.direct_answer
    shown = answer.answer.split("**Answering clause:** [", 1)[1].split("\n(", 1)[0]
    assert "The grace period for payment of a renewal premium is thirty days" in " ".join(shown.split())
    assert '"…' in shown  # the clause's opening records are left out, and said so


def _clause(text: str, start: int = 1000) -> EvidenceClause:
    return EvidenceClause(clause_id="d:1", group="base_rule", label="1", heading=None,
                          section="", text=text, document="D", source_path="d.txt", doc_id="d",
                          pages=[1], span=(start, start + len(text)), score=1.0, reason="",
                          origin="seed")


def test_an_excerpt_without_a_quote_starts_at_the_clause():
    clause = _clause("word " * 300)
    shown = clause.excerpt(None, width=100)
    assert shown.startswith("word") and shown.endswith("…") and len(shown) <= 101
    assert _clause("A short clause.").excerpt(None) == "A short clause."


def test_an_excerpt_holds_the_quote_and_cuts_at_words():
    text = "alpha " * 200 + "The limit is Rs. 2,000 per day. " + "omega " * 200
    clause = _clause(text)
    at = clause.span[0] + text.index("The limit")
    shown = clause.excerpt((at, at + 30), width=200)
    assert "The limit is Rs. 2,000 per day." in shown
    assert shown.startswith("…alpha") and shown.endswith("omega…")


def test_an_answering_clause_quoted_only_as_a_heading_is_shown_from_its_start(answer):
    """The answering clause may be quoted only as a heading read above the answer (or, asked
    across documents, be another document's clause than the direct answer's lines): it is
    then shown from its first words, and the answer still renders."""
    from clausegraph.answer.extractive import template_values
    from clausegraph.text.templates import render

    headed = answer.model_copy(deep=True)
    headed.direct.lines = [line.model_copy(update={"heads": True}) for line in headed.direct.lines]
    text = render("answer_extractive.md.j2", **template_values(headed))
    shown = text.split("**Answering clause:** [", 1)[1].split("\n(", 1)[0].split('] "', 1)[1]
    assert not shown.startswith("…") and "record 1 of every premium" in shown, shown
