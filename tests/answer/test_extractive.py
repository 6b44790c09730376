"""The offline answer: evidence grouped by role, the chain, verbatim quotes with exact spans."""

from __future__ import annotations

import pytest
from synthetic_index import TEXTS, TextVectorEmbedder, add_documents

from clausegraph.answer.extractive import GROUP_TITLES, GROUPS, build_answer, sentence_spans
from clausegraph.answer.gate import using_gate
from clausegraph.config import RetrievalConfig
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.store.local.folder import FolderStore


@pytest.fixture(scope="module")
def answer_and_index(tmp_path_factory: pytest.TempPathFactory):
    store = FolderStore(tmp_path_factory.mktemp("answer") / "index")
    add_documents(store, "lease", "policy", "nda")
    reader = store.open_reader()
    retriever = Retriever(reader, TextVectorEmbedder())
    config = RetrievalConfig(scope_documents=False, top_k=3)
    question = "Is cataract surgery covered, and after what waiting period?"
    results = retriever.retrieve(question, config)
    results += retriever.governing(results, config)
    # The gate off: these tests are about roles, chain and quotes, and the toy encoder's
    # cosines (negative for the answering clause) are nothing a fitted gate has seen.
    with using_gate(None):
        return build_answer(reader, question, results, config.model_dump(mode="json")), reader


def test_evidence_is_grouped_definitions_then_rules_then_exceptions(answer_and_index) -> None:
    answer, _ = answer_and_index
    groups = {e.clause_id: e.group for e in answer.evidence}
    assert groups["policy:1"] == "definition"  # it defines a term policy:2 uses
    assert groups["policy:2"] == "base_rule"
    assert groups["policy:3"] == "exception"  # it overrides policy:2
    # ``evidence`` keeps rank order (a reader takes evidence[0] as the source); the answer
    # text presents the clauses by role: definitions, then base rules, then exceptions.
    titles = [f"**{GROUP_TITLES[g]}**" for g in GROUPS]
    positions = [answer.answer.index(title) for title in titles]
    assert positions == sorted(positions)


def test_the_chain_names_the_edges_between_evidence_clauses(answer_and_index) -> None:
    answer, _ = answer_and_index
    sentences = {link.sentence() for link in answer.chain}
    assert "3 OVERRIDES 2" in sentences
    assert '1 DEFINES "Waiting Period" used in 2' in sentences


def test_quotes_are_verbatim_and_cite_exact_document_spans(answer_and_index) -> None:
    answer, reader = answer_and_index
    assert answer.quotes
    for quote in answer.quotes:
        clause = reader.clauses.clause(quote.clause_id)
        document = reader.clauses.document(clause.doc_id)
        assert document.text[quote.span[0]:quote.span[1]].strip() == quote.text
    cited = next(q for q in answer.quotes if q.clause_id == "policy:2")
    assert cited.text == TEXTS["policy"][1]


def test_the_answer_text_cites_every_quote(answer_and_index) -> None:
    answer, _ = answer_and_index
    assert answer.mode == "extractive"
    for evidence in answer.evidence:
        assert evidence.label in answer.answer or evidence.clause_id in answer.context


def test_sentences_do_not_end_at_abbreviations() -> None:
    text = "Payment is due in U.S. Dollars to Acme Inc. within 30 days. Late fees apply."
    pieces = [text[a:b].strip() for a, b in sentence_spans(text)]
    assert pieces == ["Payment is due in U.S. Dollars to Acme Inc. within 30 days.",
                      "Late fees apply."]


@pytest.mark.parametrize("label", ["14.", "(b).", "iv.", "C.", "4.2."])
def test_a_list_label_is_no_sentence_of_its_own(label: str) -> None:
    # the evidence quotes "14. Hernia", never the bare "14."
    text = f"{label} Hernia of all types"
    assert [text[a:b] for a, b in sentence_spans(text)] == [text]
    text = f"{label} Hernia. Surgery for it is covered after two years."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        f"{label} Hernia.", "Surgery for it is covered after two years."]
