"""The direct answer, the not-found path, scoping by a name inside a sentence, and the
per-document comparison, on the bundled CUAD PDFs (real model, real index)."""

from __future__ import annotations

import csv
import io

import pytest

from clausegraph.answer.direct import (
    NOT_FOUND,
    _condition_span,
    _split_proviso,
    _Scored,
    governs,
    is_ancestor,
    question_kind,
    split_sentences,
)
from clausegraph.models import Clause
from clausegraph.report.compare import render_comparison

AUDIBLE = "AudibleInc"
BELLRING = "BellringBrands"


def _doc(graph, fragment: str) -> str:
    return next(k for k, e in graph.index.entries().items() if fragment in e.source_path)


def test_list_labels_do_not_end_sentences():
    text = ("iii. Two years waiting period a. Cataract b. Hernia c. Hydrocele. "
            "The Company shall pay the claim. See clause 4.2. It applies.")
    sentences = [text[s:e] for s, e in split_sentences(text)]
    assert sentences[0] == "iii. Two years waiting period a. Cataract b. Hernia c. Hydrocele."
    assert sentences[1] == "The Company shall pay the claim."


def test_question_kinds():
    assert question_kind("Which law governs the agreement?") == "law"
    assert question_kind("What is the waiting period for cataract?") == "duration"
    assert question_kind("What is the room rent limit per day?") == "amount"
    assert question_kind("How is Affiliate defined?") == "definition"
    assert question_kind("Can the customer terminate the agreement?") is None
    # a time asked without "how long"
    for question in ("Within what time must a claim be intimated?",
                     "By when must the claim documents be submitted?",
                     "What is the time limit for notifying a claim?",
                     "What is the deadline for filing an appeal?",
                     "In what time frame must the insurer settle a claim?"):
        assert question_kind(question) == "duration", question


def test_direct_answer_quotes_the_deciding_sentence(sample_graph):
    doc = _doc(sample_graph, BELLRING)
    answer = sample_graph.ask("Which law governs the agreement?", documents=[doc])
    assert answer.found
    assert "State of California" in answer.direct_answer
    assert answer.direct_answer_citations
    cited = sample_graph.index.clauses.clause(answer.direct_answer_citations[0])
    line = answer.direct.lines[0]
    document = sample_graph.index.clauses.document(cited.doc_id)
    # the quoted sentence is the document's own text at the cited span
    assert " ".join(document.text[line.span[0]:line.span[1]].split()) == line.text
    # and it is printed first, before the clause list, after the short verdict it gives
    assert answer.verdict is not None and answer.verdict.text == "California"
    # the direct answer states the verdict's fact before the sentence, quoted verbatim
    assert answer.direct_quote == answer.direct.text and line.text in answer.direct_quote
    assert answer.direct_answer == f"California — “{answer.direct_quote}”"
    assert answer.answer.startswith("**Verdict:** California\n\n**Answer:**")
    assert answer.answer.index("California") < answer.answer.index("Answering clause")
    # the clause shown under the answer is the one it quotes
    shown = answer.answer.split("**Answering clause:** [", 1)[1].split("]", 1)[0]
    assert shown in answer.direct_answer_citations


def test_unscoped_question_is_answered_inside_each_document(sample_graph):
    answer = sample_graph.ask("Which law governs the agreement?")
    found = {d.file for d in answer.per_document if d.found}
    # each contract names its own law: both answers come from a search inside the document
    by_file = {d.file: d.text for d in answer.per_document if d.found}
    assert any(BELLRING in f and "California" in t for f, t in by_file.items()), by_file
    assert any(AUDIBLE in f and "Washington" in t for f, t in by_file.items()), by_file
    assert len(found) >= 2
    # every clause a direct answer cites is in the evidence, with its document
    shown = {e.clause_id for e in answer.evidence}
    assert set(answer.direct_answer_citations) <= shown


def test_conditions_question_adds_the_condition_sentence():
    text = ("3.1.14 Maternity The Company shall indemnify Maternity Expenses for any female "
            "Insured Person, subject to the limit in the Table of Benefits. The female Insured "
            "Person should have been continuously covered for at least 24 months before "
            "availing this benefit. The New Born Baby is covered from birth.")
    clause = _item("3.1.14", ["3 COVERS", "3.1"], text)
    best = _Scored(1.0, 1.0, clause, split_sentences(text)[0])
    span = _condition_span(best, "Does this policy cover maternity, and what are the conditions?")
    assert span is not None and "at least 24 months" in text[span[0]:span[1]]
    assert _condition_span(best, "Does this policy cover maternity expenses?") is None


def test_not_found_when_the_document_does_not_say(sample_graph):
    doc = _doc(sample_graph, AUDIBLE)
    answer = sample_graph.ask("What is the waiting period for cataract surgery?",
                              documents=[doc])
    assert not answer.found
    assert answer.direct_answer is None and answer.direct_quote is None
    assert answer.direct_answer_citations == []
    assert answer.direct.nearest, "nearest clauses are listed"
    assert NOT_FOUND in answer.answer
    data = answer.model_dump(mode="json")
    assert data["found"] is False and data["direct_answer"] is None


def test_document_named_inside_one_sentence_scopes_the_question(sample_graph):
    scoper = sample_graph.retriever.scoper(sample_graph.settings.retrieval.scope_margin)
    scope = scoper.scope("Which law governs the agreement between Photronics DNP Photomask "
                         "Corporation and the suppliers?")
    assert scope is not None
    assert scope.doc_ids == [_doc(sample_graph, "Photronics")]
    assert "Photronics DNP Photomask Corporation" not in scope.question
    assert scoper.scope("Which law governs the agreement?") is None


def test_compare_answers_every_document(sample_graph):
    comparison = sample_graph.compare("Which law governs the agreement?")
    assert len(comparison.rows) == len(sample_graph.index.entries())
    by_file = {row.file: row for row in comparison.rows}
    bellring = next(r for f, r in by_file.items() if BELLRING in f)
    audible = next(r for f, r in by_file.items() if AUDIBLE in f)
    assert bellring.found and "California" in bellring.answer
    assert audible.found and "Washington" in audible.answer
    rows = list(csv.DictReader(io.StringIO(render_comparison(comparison, "csv"))))
    assert {r["file"] for r in rows} == set(by_file)
    markdown = render_comparison(comparison, "md")
    assert markdown.count("\n|") == len(comparison.rows) + 2
    page = render_comparison(comparison, "html")
    assert "<table>" in page and "California" in page


def _item(number: str, path: list[str], text: str) -> Clause:
    return Clause(clause_id=f"d:{number}", doc_id="d", number=number, section_path=path,
                  text=text, span=(0, len(text)), segments=[(0, len(text))], pages=[1],
                  order=0)


def test_sibling_list_items_are_not_exceptions_to_the_answer():
    # policy wording: "Specified disease waiting period: i. 90 days ... iii. Two years
    # waiting period a. Cataract ... iv. Three years ...": iii answers, i and iv are other rules
    path = ["4 EXCLUSIONS", "4.2", "4.2(f)"]
    answer = _item("4.2(f)(iii)", path, "iii. Two years waiting period a. Cataract")
    sibling = _item("4.2(f)(iv)", path, "iv. Three years waiting period a. Joint replacement")
    heading = _item("4.2(f)", ["4 EXCLUSIONS", "4.2"], "Specified disease waiting period")
    other = _item("4.3", ["4 EXCLUSIONS"], "Cataract surgery is not covered outside India.")
    none: frozenset = frozenset()
    assert not governs(sibling, answer, none, relevance=1.0)
    assert not governs(heading, answer, none, relevance=1.0)
    assert governs(other, answer, none, relevance=1.0)
    assert not governs(other, answer, none, relevance=0.2), "must speak of what is asked"
    # an explicit Overrides edge wins over the list structure
    assert governs(sibling, answer, frozenset({(sibling.clause_id, answer.clause_id)}), 0.0)


def test_inline_proviso_becomes_the_first_exception():
    text = ("10.2 Termination for Breach. Either Party may terminate this Agreement if the other "
            "Party materially breaches its obligations hereunder, provided that, except as "
            "provided in Section 10.3, the breaching Party does not cure the breach within "
            "thirty (30) days following its receipt of such notice.")
    sentence = split_sentences(text)[1]
    rule, proviso = _split_proviso(text, sentence)
    assert text[rule[0]:rule[1]].endswith("obligations hereunder,")
    assert text[proviso[0]:proviso[1]].startswith("provided that, except as provided")
    # a sentence that opens with "except" is not cut before its rule
    opening = "Except as set out in Section 4, neither Party may assign this Agreement."
    assert _split_proviso(opening, (0, len(opening))) == ((0, len(opening)), None)


def test_a_numeral_opening_a_line_is_not_a_list_item():
    text = "Company shall comply within sixty\n(60) days from the date of the notice. Next."
    assert [text[a:b] for a, b in split_sentences(text)][0].endswith("of the notice.")


def test_an_item_numbered_like_a_section_is_no_ancestor_of_its_list():
    # "4 Exclusions" > "4(c) Specific waiting periods": 24 months > "4. Uterine Polyps"
    section = _item("4", [], "4. Exclusions")
    lead = _item("4(c)", ["4 Exclusions"], "c. Specific waiting periods of 24 months:")
    item = _item("4", ["4 Exclusions", "4(c) Specific waiting periods"], "4. Uterine Polyps")
    assert is_ancestor(section, lead) and is_ancestor(section, item)
    assert is_ancestor(lead, item)
    assert not is_ancestor(item, lead)


@pytest.mark.parametrize(("line", "cut"), [
    ("SECTION D) EXCLUSIONS APPLICABLE TO THE DOMESTIC COVER UNDER", True),
    ("Exclusions applying to the cover of", True),
    ("SECTION D) EXCLUSIONS APPLICABLE TO THE DOMESTIC COVER", False),
    ("We will not cover the following:", False),
    ("Benefits under Part A", False),  # a letter that numbers, not the article
])
def test_a_quoted_line_that_ends_mid_phrase_is_marked_as_going_on(line, cut):
    from types import SimpleNamespace

    from clausegraph.answer.direct import _line

    text = line + "\n20) Investigations into and treatment for loss of hair."
    clause = Clause(clause_id="doc:D", doc_id="0" * 16, text=text, span=(0, len(text)),
                    segments=[(0, len(text))], pages=[3], order=0)
    document = SimpleNamespace(title="Policy", pages=[])
    index = SimpleNamespace(clauses=SimpleNamespace(document=lambda doc_id: document))
    quoted = _line(index, clause, (0, len(line)))
    assert quoted.text == line
    assert quoted.cut_after is cut
    assert quoted.marked().endswith("…") is cut
