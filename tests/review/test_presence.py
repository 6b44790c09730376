"""Whether a document has a clause of the CUAD types a question asks about
(clausegraph/review/presence.py): the threshold's fit, the types a question asks about, the
verdict, the shipped parameters, and asks of a real contract through the Python API."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clausegraph.answer.direct import SURE_ANSWER
from clausegraph.api import ClauseGraph
from clausegraph.config import SAMPLE_QUESTION
from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.eval.cuad import load_cuad_questions
from clausegraph.models import ClauseType, TypeCheck
from clausegraph.review.presence import TypePresence, pervasive_types, shipped_presence
from clausegraph.web.service import direct_answer as web_direct_answer
from tests.conftest import dataset_pdf


def _types(weights: dict[str, float]) -> np.ndarray:
    row = np.zeros(len(CUAD_CATEGORIES))
    for name, weight in weights.items():
        row[CUAD_CATEGORIES.index(name)] = weight
    return row


def test_fit_takes_the_largest_threshold_that_keeps_absent_precise() -> None:
    # absent pairs score low, present ones high, with one present pair among the low ones
    confidences = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.5, 0.6]
    present = [False, False, False, True, False, False, False, False, False, True, True, True]
    model = TypePresence(target_precision=0.85).fit(confidences, present)
    # below 0.095 eight of nine are absent (0.89); with 0.10 too, eight of ten (0.80)
    assert 0.09 < model.threshold_ < 0.10
    assert model.evidence_["precision"] == pytest.approx(8 / 9, abs=1e-3)
    assert model.evidence_["recall"] == 1.0
    # a stricter target keeps only the first three
    strict = TypePresence(target_precision=0.95).fit(confidences, present)
    assert 0.03 < strict.threshold_ < 0.04


def test_fit_refuses_a_target_no_threshold_reaches() -> None:
    with pytest.raises(ValueError, match="no threshold"):
        TypePresence(target_precision=0.9).fit([0.1, 0.2], [True, True])
    with pytest.raises(ValueError, match="one label per confidence"):
        TypePresence().fit([0.1, 0.2], [True])


def test_the_types_asked_are_the_most_probable_and_those_near_it() -> None:
    model = TypePresence(ratio=0.5)
    assert model.asked(_types({"Governing Law": 0.9, "Parties": 0.1})) == ["Governing Law"]
    # "When does the agreement commence?" is about either date
    assert model.asked(_types({"Agreement Date": 0.46, "Effective Date": 0.25,
                               "Expiration Date": 0.2})) == ["Agreement Date", "Effective Date"]
    # at most three, however flat the distribution
    assert len(model.asked(np.full(len(CUAD_CATEGORIES), 1 / len(CUAD_CATEGORIES)))) == 3
    # a question like no category asks about none
    assert model.asked(np.zeros(len(CUAD_CATEGORIES))) == []
    assert model.asked(None) == []


def test_check_decides_when_the_types_asked_agree() -> None:
    model = TypePresence(ratio=0.5)
    model.threshold_ = 0.1
    confidences = {"Exclusivity": (0.04, "c1"), "Non-Compete": (0.3, "c2"),
                   "Agreement Date": (0.07, "c3"), "Effective Date": (0.41, "c4"),
                   "Source Code Escrow": (0.01, "c5")}

    def read(names):
        return {name: confidences[name] for name in names}
    present = model.check(_types({"Non-Compete": 1.0}), 0.7, read)
    assert present is not None and present.present is True
    assert present.category == "Non-Compete" and present.clause_id == "c2"
    absent = model.check(_types({"Exclusivity": 0.6, "Source Code Escrow": 0.4}), 0.7,
                         read)
    assert absent is not None and absent.present is False and absent.confidence == 0.04
    assert absent.categories == ["Exclusivity", "Source Code Escrow"]
    assert absent.reason().startswith("No Exclusivity or Source Code Escrow clause:")
    # a contract that commences on a date but is dated by none: the gate decides
    mixed = model.check(_types({"Agreement Date": 0.46, "Effective Date": 0.25}), 0.7,
                        read)
    assert mixed is not None and mixed.present is None and mixed.category == "Effective Date"
    assert model.check(np.zeros(len(CUAD_CATEGORIES)), 0.7, read) is None
    # a question hardly like any category's description is not checked
    assert model.check(_types({"Exclusivity": 1.0}), model.min_similarity - 0.01,
                       read) is None
    with pytest.raises(RuntimeError, match="fit has not been called"):
        TypePresence().check(_types({"Exclusivity": 1.0}), 0.7, read)


def _clause_types(*labels: str | None) -> list[list[ClauseType]]:
    return [[] if label is None else [ClauseType(label=label, probability=0.6)]
            for label in labels]


def test_a_type_that_tops_a_tenth_of_a_documents_clauses_is_pervasive() -> None:
    # an insurance policy: a fifth of its clauses typed Insurance first
    policy = _clause_types(*(["Insurance"] * 2 + ["Renewal Term"] + [None] * 7))
    assert pervasive_types(policy) == frozenset({"Insurance"})
    # a contract with an insurance clause or two (CUAD dev: at most 8.0% of a contract's)
    contract = _clause_types(*(["Insurance"] + ["Parties", "Governing Law"] + [None] * 10))
    assert pervasive_types(contract) == frozenset()
    # a type of a contract's own provisions is never read so ("Non-Compete" tops 41% of
    # one short CUAD dev contract's clauses)
    assert pervasive_types(_clause_types("Non-Compete", "Non-Compete", None)) == frozenset()
    assert pervasive_types([]) == frozenset()


def test_a_pervasive_type_is_not_checked() -> None:
    model = TypePresence(ratio=0.5)
    model.threshold_ = 0.1

    def read(names):
        return {name: (0.78, "preamble") for name in names}
    asked = _types({"Insurance": 1.0})
    assert model.check(asked, 0.7, read) is not None
    assert model.check(asked, 0.7, read, frozenset({"Insurance"})) is None


def test_save_and_load_round_trip(tmp_path) -> None:
    model = TypePresence(target_precision=0.8).fit([0.01, 0.02, 0.9], [False, False, True])
    path = tmp_path / "presence.json"
    model.save(path)
    loaded = TypePresence.load(path)
    assert loaded.threshold_ == model.threshold_
    assert (loaded.target_precision, loaded.min_similarity, loaded.ratio) == \
        (model.target_precision, model.min_similarity, model.ratio)
    path.write_text(json.dumps({"format": "other"}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a clausegraph-type-presence file"):
        TypePresence.load(path)


def test_the_shipped_threshold_was_fitted_on_train() -> None:
    shipped = shipped_presence()
    assert 0.0 < shipped.threshold_ < 1.0
    assert shipped.evidence_["split"] == "train"
    assert shipped.evidence_["precision"] >= shipped.target_precision


# -- asks of a real contract (the bundled Bellring manufacturing agreement, a CUAD PDF) ----

pytest.importorskip("clausegraph.classify", reason="the clause-type model is not in this tree")
BELLRING = dataset_pdf("Bellring").name
QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "cuad_dev" / "questions.yaml"


@pytest.fixture(scope="module")
def bellring_review(sample_graph: ClauseGraph):
    return sample_graph.review([BELLRING]).documents[0]


def test_a_partial_review_gives_the_full_reviews_confidences(
        sample_graph: ClauseGraph, bellring_review) -> None:
    reviewer = sample_graph.reviewer()
    doc_id = bellring_review.doc_id
    wanted = ["Governing Law", "Source Code Escrow"]
    (partial,) = reviewer.review(sample_graph.index, doc_id, categories=wanted)
    assert [item.category for item in partial.items] == wanted
    for item in partial.items:
        assert item.confidence == bellring_review.item(item.category).confidence


def test_ask_reads_the_reviews_verdict_on_the_type_asked(
        sample_graph: ClauseGraph, bellring_review) -> None:
    threshold = shipped_presence().threshold_
    law = sample_graph.ask("Which state's law governs the agreement?", documents=[BELLRING])
    check = law.direct.type_check
    assert check is not None and check.categories == ["Governing Law"]
    assert check.present is True and law.found
    assert check.confidence == pytest.approx(
        bellring_review.item(check.category).confidence, abs=1e-4)
    # the review's clause for the type leads the evidence
    assert law.evidence[0].clause_id == check.clause_id
    # every benchmark question about a type the review finds absent is not found
    questions = load_cuad_questions(QUESTIONS)
    retriever = sample_graph.retriever
    presence = shipped_presence()
    absent = [q for q in questions
              if presence.asked(retriever.question_types(
                  retriever.query_vector(q.question), q.question)) == [q.category]
              and bellring_review.item(q.category).confidence < threshold]
    assert len(absent) >= 5
    for question in absent[:8]:
        asked = sample_graph.ask(question.question, documents=[BELLRING],
                                 answer_type_absent_refuses=True)
        check = asked.direct.type_check
        assert check is not None and check.categories == [question.category]
        assert check.present is False, question.question
        assert not asked.found or asked.direct.right_probability >= SURE_ANSWER
        if not asked.found:  # the reader is told why: in the text answer and on the web page
            assert check.reason() in " ".join(asked.answer.split())
            assert web_direct_answer(asked).verdict == check.reason()
    # with the check off, the gate decides and no check is reported
    off = sample_graph.ask("Which state's law governs the agreement?", documents=[BELLRING],
                           answer_type_check=False)
    assert off.direct.type_check is None


def test_a_gate_sure_of_its_answer_is_not_overruled_by_an_absence(tmp_path,
                                                                   monkeypatch) -> None:
    from written_graph import written_graph

    from clausegraph.models import TypeCheck
    from clausegraph.review.presence import TypePresence

    graph = written_graph(tmp_path, {"term.txt": (
        "1. Term\nThis Agreement lasts five (5) years from the Effective Date.\n"
        "2. Termination\nEither party may terminate on ninety days notice.\n")})

    # the review reads the question as a type the contract lacks (as "How long does the
    # agreement last?" was read as the Agreement Date until session 46); its term clause
    # answers, and the gate is sure of it
    def absent(self, question_types, similarity, confidences_of, pervasive=frozenset()):
        return TypeCheck(categories=["Agreement Date"], category="Agreement Date",
                         confidence=0.01, least_confidence=0.01, clause_id=None,
                         lead_clause_id=None, threshold=self.threshold_, present=False)

    monkeypatch.setattr(TypePresence, "check", absent)
    answer = graph.ask("How long does the agreement last?", documents=["term.txt"],
                       answer_type_absent_refuses=True)
    check = answer.direct.type_check
    assert check is not None and check.present is False
    assert answer.direct.right_probability >= SURE_ANSWER
    assert answer.found and "five (5) years" in answer.direct_answer


def test_lead_with_puts_one_clause_first_and_keeps_top_k(sample_graph: ClauseGraph) -> None:
    from clausegraph.answer.focus import lead_with
    from clausegraph.models import RetrievedClause

    doc_id = next(k for k, e in sample_graph.index.entries().items()
                  if BELLRING in e.source_path)
    clauses = sample_graph.index.clauses.document_clauses(doc_id)[:7]

    def retrieved(clause, origin="seed"):
        return RetrievedClause(clause=clause, score=1.0, sim=1.0, bm25=1.0, dense=1.0,
                               centrality=0.0, path_support=0.0, origin=origin)

    results = [retrieved(c) for c in clauses[:5]] + [retrieved(clauses[5], "governing")]
    ids = [c.clause_id for c in clauses]
    # a clause from outside the results leads; the last hit makes room; governing stay last
    led = lead_with(results, retrieved(clauses[6], "review"), top_k=5)
    assert [r.clause_id for r in led] == [ids[6], *ids[:4], ids[5]]
    # a clause already retrieved moves up
    led = lead_with(results, results[3], top_k=5)
    assert [r.clause_id for r in led] == [ids[3], ids[0], ids[1], ids[2], ids[4], ids[5]]


def test_a_question_near_a_type_keeps_its_answers(sample_graph: ClauseGraph) -> None:
    # termination for breach is typed Termination for Convenience, which two of the three
    # contracts lack: each still answers from its own termination-for-cause clause
    answer = sample_graph.ask(SAMPLE_QUESTION)
    assert len(answer.per_document) == 3
    for document in answer.per_document:
        assert document.type_check is not None
        assert document.type_check.categories[0] == "Termination for Convenience"
        assert document.found, document.file
        assert "terminat" in document.text.lower() and "insurance" not in document.text.lower()



def test_the_evidence_leads_with_the_type_most_asked_not_the_surest() -> None:
    """"Does either party have exclusive rights ...?" is 37% Exclusivity and 20% Parties:
    the review is surest of the parties (every contract names them), but the clause the
    evidence leads with and the quote comes from is the exclusivity clause."""
    model = TypePresence(ratio=0.5)
    model.threshold_ = 0.1
    confidences = {"Exclusivity": (0.3, "exclusivity-clause"), "Parties": (0.94, "preamble")}

    def read(names):
        return {name: confidences[name] for name in names}
    check = model.check(_types({"Exclusivity": 0.37, "Parties": 0.2}), 0.7, read)
    assert check is not None and check.present is True
    assert check.categories == ["Exclusivity", "Parties"]
    # the gate reads the surest type's confidence; the evidence leads with the asked type
    assert check.category == "Parties" and check.clause_id == "preamble"
    assert check.lead_clause_id == "exclusivity-clause"


EXCLUSIVE_CONTRACT = """DISTRIBUTION AGREEMENT
This Distribution Agreement (the "Agreement") is entered into as of March 1, 2019 (the "Effective Date") by and between Northwind Devices, Inc., a Delaware corporation ("Supplier"), and Harbor Medical Supply LLC, a Texas limited liability company ("Distributor"). Supplier and Distributor are each referred to herein as a "Party" and together as the "Parties."
1. Appointment. Subject to the terms of this Agreement, Supplier appoints Distributor as its distributor of the Products in the Territory.
2. Exclusivity. During the Term, Supplier shall not appoint any other distributor, agent or reseller of the Products in the Territory, and Distributor shall purchase all of its requirements of infusion pumps exclusively from Supplier and shall not sell any product that competes with the Products.
3. Prices. Distributor shall pay Supplier the prices set out in Exhibit A within thirty (30) days of the date of each invoice.
4. Term. This Agreement shall commence on the Effective Date and continue for three (3) years.
5. Governing Law. This Agreement shall be governed by the laws of the State of Texas.
"""


def test_ask_leads_with_the_exclusivity_clause(tmp_path) -> None:
    from written_graph import written_graph

    graph = written_graph(tmp_path, {"distribution.txt": EXCLUSIVE_CONTRACT})
    answer = graph.ask("Does either party have exclusive rights, or is a party barred from "
                       "dealing with anyone else?", documents=["distribution.txt"])
    assert answer.evidence[0].text.lstrip().startswith("2. Exclusivity"), \
        [e.text[:60] for e in answer.evidence]


LONG_CONTRACT = EXCLUSIVE_CONTRACT + "".join(
    f"{n}. Notices {n}. Any notice by a party to the other party under this Agreement shall be "
    f"in writing and delivered to the party's address set out in Schedule {n}.\n"
    for n in range(6, 16))


def _checked(lead: str, present: bool | None):
    check = TypeCheck(categories=["Exclusivity"], category="Exclusivity", confidence=0.3,
                      clause_id=lead, lead_clause_id=lead, threshold=0.16, present=present)
    return lambda doc_id: check


@pytest.mark.parametrize("present", [True, None, False])
def test_the_reviews_clause_is_shown_by_fifth_place_and_quoted_only_if_retrieved(
        tmp_path, present) -> None:
    """The review's best clause of the type asked leads when retrieval found it and the
    review finds a type asked; otherwise it is shown fifth; a clause only the review found
    is never quoted."""
    from written_graph import written_graph

    from clausegraph.api import REVIEW_SHOWN_BY

    graph = written_graph(tmp_path, {"long.txt": LONG_CONTRACT})
    found = graph.search("Which notices must a party deliver in writing?", ["long.txt"], top_k=8)
    hits = found.hits
    clause_ids = [c.clause_id for c in graph.index.clauses.document_clauses(hits[0].clause.doc_id)]
    # retrieved, but below the first five: first unless the review finds no type asked
    # (then the fifth place)
    lower = hits[6]
    shown = graph._review_first(hits, _checked(lower.clause_id, present), 8)
    place = REVIEW_SHOWN_BY - 1 if present is False else 0
    assert shown[place].clause_id == lower.clause_id and len(shown) == len(hits)
    assert shown[place].origin == lower.origin
    # not retrieved at all: shown fifth as the review's clause, whatever the presence
    missed = next(c for c in clause_ids if c not in {h.clause_id for h in hits})
    shown = graph._review_first(hits, _checked(missed, present), 8)
    assert shown[REVIEW_SHOWN_BY - 1].clause_id == missed
    assert shown[REVIEW_SHOWN_BY - 1].origin == "review" and len(shown) == 8
    assert "contract review" in shown[REVIEW_SHOWN_BY - 1].reason()
    # within the first five already: it leads unless the review finds no type asked
    first = graph._review_first(hits, _checked(hits[2].clause_id, present), 8)
    assert first[0].clause_id == (hits[0].clause_id if present is False else hits[2].clause_id)
