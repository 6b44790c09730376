"""Question types: which CUAD clause types a question asks about, and the retrieval lift
they give clauses of those types (real encoder, real shipped parameters)."""

from __future__ import annotations

import numpy as np
import pytest

from clausegraph.api import ClauseGraph
from clausegraph.classify import CUAD_CATEGORIES, load_clause_type_model
from clausegraph.classify.categories import CUAD_DESCRIPTIONS
from clausegraph.classify.questions import (QuestionTypeModel, descriptions, shipped_model,
                                            shipped_parameters, type_affinity)
from clausegraph.config import RetrievalConfig
from clausegraph.models import ClauseType


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> ClauseGraph:
    return ClauseGraph.open(tmp_path_factory.mktemp("questions") / "index", create=True)


@pytest.fixture(scope="module")
def model(graph: ClauseGraph) -> QuestionTypeModel:
    parameters = shipped_parameters()
    return QuestionTypeModel(parameters["temperature"], parameters["min_similarity"]).fit(
        graph.embedder.encode(descriptions()))


def _top(model: QuestionTypeModel, graph: ClauseGraph, question: str) -> tuple[str, float]:
    row = model.predict_proba(graph.embedder.encode_query(question))[0]
    return CUAD_CATEGORIES[int(row.argmax())], float(row.max())


def test_every_category_has_cuads_description_in_order() -> None:
    assert list(CUAD_DESCRIPTIONS) == list(CUAD_CATEGORIES)
    assert all(len(text.split()) >= 4 for text in CUAD_DESCRIPTIONS.values())
    assert len(descriptions()) == 41


@pytest.mark.parametrize("question,category", [
    # wordings of others, not the benchmark's questions
    ("Which state's law governs this contract?", "Governing Law"),
    ("Is there a cap on the amount either party can be liable for?", "Cap on Liability"),
    ("Must the distributor carry liability insurance?", "Insurance"),
    ("Can the customer audit the supplier's books?", "Audit Rights"),
])
def test_a_contract_question_asks_for_its_cuad_type(model, graph, question, category) -> None:
    top, probability = _top(model, graph, question)
    assert top == category, (question, top, probability)


@pytest.mark.parametrize("question", [
    "What is the waiting period for cataract surgery?",
    "Is ambulance cost covered up to the sum insured?",
    "How many days of pre-hospitalisation expenses are paid?",
])
def test_a_question_like_no_category_asks_for_none(model, graph, question) -> None:
    row = model.predict_proba(graph.embedder.encode_query(question))[0]
    assert not row.any(), (question, CUAD_CATEGORIES[int(row.argmax())])


@pytest.mark.parametrize("question,category", [
    # the words a description lacks but the clauses of the type use (others' wordings)
    ("Is either side restricted to buying only from the other, on an exclusive basis?",
     "Exclusivity"),
    ("Is the reseller prohibited from selling competing products?", "Non-Compete"),
])
def test_the_clause_type_model_reads_the_question_too(graph, question, category) -> None:
    """The shipped question-type model reads a question by the clause-type model as well
    (the mean of the two): it finds types the descriptions alone miss."""
    vector = graph.embedder.encode_query(question)
    both = shipped_model(graph.embedder.encode(descriptions()), load_clause_type_model())
    shipped = both.predict_proba(vector, [question])[0]
    described = both.predict_proba(vector)[0]
    assert CUAD_CATEGORIES[int(shipped.argmax())] == category, (
        question, CUAD_CATEGORIES[int(shipped.argmax())])
    assert np.isclose(shipped.sum(), 1.0, atol=1e-5)
    # without the text, the descriptions alone: the same question types as before
    assert not np.allclose(shipped, described)


@pytest.mark.parametrize("question", [
    "How long does the agreement last?", "How long will this contract remain in force?",
    "For how long is the licence granted?", "How many years does the lease run?",
    "What is the length of the agreement?", "When does the agreement end?",
    "When will this contract expire?",
])
def test_a_question_for_a_length_asks_no_date_name_or_party(graph, question) -> None:
    """A length is never the day a contract was signed or took effect, its name or its
    parties: "How long does the agreement last?" was read as the Agreement Date (0.45) and
    answered from the opening (session 46); the form of the question rules those out."""
    vector = graph.embedder.encode_query(question)
    both = shipped_model(graph.embedder.encode(descriptions()), load_clause_type_model())
    row = both.predict_proba(vector, [question])[0]
    for name in ("Document Name", "Parties", "Agreement Date", "Effective Date"):
        assert row[CUAD_CATEGORIES.index(name)] == 0.0, (question, name)
    assert np.isclose(row.sum(), 1.0, atol=1e-5)
    assert CUAD_CATEGORIES[int(row.argmax())] in ("Expiration Date", "Renewal Term",
                                                  "Warranty Duration", "License Grant",
                                                  "Irrevocable or Perpetual License"), (
        question, CUAD_CATEGORIES[int(row.argmax())])


def test_a_question_like_no_category_stays_unlifted_with_the_clause_model(graph) -> None:
    question = "What is the waiting period for cataract surgery?"
    both = shipped_model(graph.embedder.encode(descriptions()), load_clause_type_model())
    assert not both.predict_proba(graph.embedder.encode_query(question), [question]).any()


def test_probabilities_sum_to_one_and_follow_similarity(model, graph) -> None:
    vectors = graph.embedder.encode(["Which law governs the agreement?",
                                     "Can this agreement be assigned to a third party?"])
    rows = model.predict_proba(vectors)
    assert np.allclose(rows.sum(axis=1), 1.0, atol=1e-5)
    similarity = model.similarities(vectors)
    assert (rows.argmax(axis=1) == similarity.argmax(axis=1)).all()


def test_affinity_weighs_the_clause_types_by_the_question() -> None:
    column = {name: i for i, name in enumerate(CUAD_CATEGORIES)}
    asked = np.zeros(41)
    asked[column["Governing Law"]] = 0.8
    asked[column["Anti-Assignment"]] = 0.2
    types = [ClauseType(label="Governing Law", probability=0.5),
             ClauseType(label="Insurance", probability=0.9)]
    assert type_affinity(asked, types, column) == pytest.approx(0.4)
    assert type_affinity(asked, [], column) == 0.0


@pytest.mark.slow
def test_the_lift_ranks_a_clause_of_the_asked_type_higher(sample_graph) -> None:
    """Retrieval with the lift scores a clause of the asked type higher than without it
    by exactly the weight times its affinity, and scores clauses of no type alike."""
    question = "Which jurisdiction's laws govern this agreement?"
    retriever = sample_graph.retriever
    off = retriever.retrieve(question, RetrievalConfig(type_weight=0.0, top_k=40))
    on = retriever.retrieve(question, RetrievalConfig(type_weight=0.5, top_k=40))
    asked = retriever.question_types(retriever.query_vector(question), question)
    assert CUAD_CATEGORIES[int(asked.argmax())] == "Governing Law"
    column = {name: i for i, name in enumerate(CUAD_CATEGORIES)}
    before = {r.clause_id: r.score for r in off}
    typed = [r for r in on if r.clause_id in before and any(
        t.label == "Governing Law" for t in r.clause.clause_types)]
    assert typed, "no clause of the sample contracts is typed Governing Law"
    for result in on:
        if result.clause_id in before:
            lift = 0.5 * type_affinity(asked, result.clause.clause_types, column)
            assert result.score == pytest.approx(before[result.clause_id] + lift, abs=1e-6)
    best = max(typed, key=lambda r: r.score)
    assert [r.clause_id for r in on].index(best.clause_id) <= \
        [r.clause_id for r in off].index(best.clause_id)
