"""The Python API end to end on the bundled PDFs: ingest, ask, cite, scope, govern."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from clausegraph.api import ClauseGraph
from clausegraph.config import SAMPLE_QUESTION
from clausegraph.errors import NotFoundError
from clausegraph.models import RelationType

runner = CliRunner()


def test_sample_question_has_definitions_base_rules_and_exceptions(
    sample_graph: ClauseGraph,
) -> None:
    # a question about defined terms (issue 27 shows only the definitions of terms the
    # question or the governing clauses use)
    answer = sample_graph.ask("What happens to Confidential Information after termination, "
                              "and what exceptions apply?")
    groups = {e.group for e in answer.evidence}
    assert {"definition", "base_rule", "exception"} <= groups
    assert answer.chain, "the evidence should be connected by typed edges"
    assert "[" in answer.answer and answer.quotes


def test_every_citation_slices_back_to_the_clause(sample_graph: ClauseGraph) -> None:
    answer = sample_graph.ask("What are the payment terms for invoices?")
    index = sample_graph.index
    for evidence in answer.evidence:
        clause = index.clauses.clause(evidence.clause_id)
        document = index.clauses.document(clause.doc_id)
        assert "\n".join(document.text[a:b] for a, b in clause.segments) == evidence.text
        assert evidence.span == (clause.segments[0][0], clause.segments[-1][1])
        assert evidence.pages == document.pages_of(evidence.span)
    for quote in answer.quotes:
        clause = index.clauses.clause(quote.clause_id)
        document = index.clauses.document(clause.doc_id)
        # a quote never crosses a page-header gap in these contracts' quoted sentences
        assert quote.text.split()[0] in document.text[quote.span[0]:quote.span[1]]


def test_each_result_says_why_it_was_retrieved(sample_graph: ClauseGraph) -> None:
    results = sample_graph.retrieve(SAMPLE_QUESTION, top_k=12, hops=2)
    assert any(r.origin == "seed" for r in results)
    for result in results:
        if result.origin == "expanded":
            assert result.via and result.via_seed
            assert result.via[-1].source == result.clause_id or result.via[-1].target == result.clause_id
            assert "via" in result.reason()
        else:
            assert "BM25" in result.reason()


def test_answers_add_the_exceptions_and_definitions_that_govern_them(
    sample_graph: ClauseGraph,
) -> None:
    answer = sample_graph.ask(SAMPLE_QUESTION, top_k=5)
    ranked = {e.clause_id for e in answer.evidence if e.origin != "governing"}
    for item in (e for e in answer.evidence if e.origin == "governing"):
        detail = sample_graph.show(item.clause_id)
        governed = {e.target for e in detail.outgoing if e.type.value in ("Defines", "Overrides")}
        assert governed & ranked, item.clause_id


def test_expansion_brings_in_clauses_the_seeds_miss(sample_graph: ClauseGraph) -> None:
    flat = sample_graph.retrieve(SAMPLE_QUESTION, top_k=30, hops=0)
    expanded = sample_graph.retrieve(SAMPLE_QUESTION, top_k=30, hops=1)
    new = {r.clause_id for r in expanded} - {r.clause_id for r in flat}
    assert new
    assert all(r.via for r in expanded if r.clause_id in new and r.origin == "expanded")


def test_edge_type_filter_restricts_expansion(sample_graph: ClauseGraph) -> None:
    results = sample_graph.retrieve(SAMPLE_QUESTION, top_k=30, hops=2,
                                    edge_types="Defines")
    for result in results:
        assert all(edge.type is RelationType.DEFINES for edge in result.via)


def test_documents_can_be_scoped(sample_graph: ClauseGraph) -> None:
    key = next(d.key for d in sample_graph.index.clauses.documents().values() if "Bellring" in d.source_path)
    results = sample_graph.retrieve(SAMPLE_QUESTION, documents=[key], top_k=10)
    assert results and {sample_graph.index.clauses.document(r.clause.doc_id).key for r in results} == {key}


@pytest.mark.parametrize("naming", [
    ('Consider the MANUFACTURING AGREEMENT between STREMICK HERITAGE FOODS, LLC ("Stremick"); '
     'PREMIER NUTRITION CORPORATION ("Premier"); '),
    ("Consider the Manufacturing Agreement between Stremick Heritage Foods, LLC and Premier "
     "Nutrition Corporation\n\n"),
])
def test_a_question_naming_its_chosen_contract_is_answered_as_the_bare_question(
        sample_graph: ClauseGraph, naming: str) -> None:
    """Asked with the contract chosen (``--doc``) and named in the query as LegalBench-RAG
    names it, the naming is no part of the question: its words had ranked the preamble
    first and the answer was "Cannot tell"."""
    key = next(d.key for d in sample_graph.index.clauses.documents().values()
               if "Bellring" in d.source_path)
    question = "What is the governing law for this contract?"
    bare = sample_graph.ask(question, documents=[key])
    named = sample_graph.ask(naming + question, documents=[key])
    assert [e.clause_id for e in named.evidence] == [e.clause_id for e in bare.evidence]
    assert named.verdict is not None and named.verdict.text == bare.verdict.text == "California"


@pytest.mark.parametrize("request_words", ["Information about the ",
                                           "I want information about the "])
def test_a_request_after_the_naming_of_a_chosen_contract_leaves_the_question(
        sample_graph: ClauseGraph, request_words: str) -> None:
    """LegalBench-RAG's MAUD wordings open the question after the naming with a request
    ("Consider the Acquisition Agreement between ...; Information about the Closing
    Condition: ..."): the request was searched with it, its "information" matching every
    clause about information."""
    key = next(d.key for d in sample_graph.index.clauses.documents().values()
               if "Bellring" in d.source_path)
    subject = "governing law of this contract"
    naming = "Consider the Manufacturing Agreement between BellRing Brands and Premier Nutrition; "
    bare = sample_graph.retrieve(subject, documents=[key])
    asked = sample_graph.retrieve(naming + request_words + subject, documents=[key])
    assert [r.clause_id for r in asked] == [r.clause_id for r in bare]


@pytest.mark.parametrize("frame", ["According to the agreement, ", "As per this contract, "])
def test_a_question_after_a_frame_is_answered_as_the_bare_question(sample_graph: ClauseGraph,
                                                                   frame: str) -> None:
    """"According to the agreement, is there ...?": the verdict reads what the question
    asks from its opening words, which the frame had taken."""
    key = next(d.key for d in sample_graph.index.clauses.documents().values()
               if "Bellring" in d.source_path)
    question = "Is there a clause that restricts assignment?"
    bare = sample_graph.ask(question, documents=[key])
    framed = sample_graph.ask(frame + question[0].lower() + question[1:], documents=[key])
    assert [e.clause_id for e in framed.evidence] == [e.clause_id for e in bare.evidence]
    assert bare.verdict is not None and framed.verdict is not None
    assert framed.verdict.text == bare.verdict.text


@pytest.mark.parametrize("name", [
    "BellringBrandsInc_20190920_S-1_EX-10.12_11817081_EX-10.12_Manufacturing Agreement1",
    "cuad/BellringBrandsInc_20190920_S-1_EX-10.12_11817081_EX-10.12_Manufacturing Agreement1.txt",
])
def test_a_document_is_found_by_its_name_without_the_extension(sample_graph: ClauseGraph,
                                                               name: str) -> None:
    """The PDF is found by its bare name, or by the name of its text copy (LegalBench-RAG
    names CUAD's contracts "cuad/<name>.txt"); a name matching nothing is still an error."""
    key = next(d.key for d in sample_graph.index.clauses.documents().values()
               if "Bellring" in d.source_path)
    results = sample_graph.retrieve("Which law governs?", documents=[name], top_k=3)
    assert {sample_graph.index.clauses.document(r.clause.doc_id).key for r in results} == {key}
    with pytest.raises(NotFoundError, match="no document 'BellringBrandsInc' in index"):
        sample_graph.retrieve("Which law governs?", documents=["BellringBrandsInc"])


def test_text_file_spans_slice_the_file_itself(tmp_path: Path) -> None:
    source = Path(__file__).parent / "data"
    texts = sorted(source.rglob("*.txt"))
    assert texts, "tests/data should hold real contract excerpts"
    graph = ClauseGraph.open(tmp_path / "idx", create=True)
    report = graph.ingest(texts[:2])
    assert not report.failed
    index = graph.index
    for clause in index.clauses.clauses(index.clauses.clause_ids()):
        path = graph.index.clauses.document(clause.doc_id).source_path
        raw = Path(path).read_text(encoding="utf-8")
        assert raw[clause.span[0]:clause.span[1]] == clause.text

