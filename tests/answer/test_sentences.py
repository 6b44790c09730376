"""The answer-sentence scorer: the candidates a direct answer collects for fitting, and the
choice the scorer makes when ``learned_choice`` is on (with the shipped weights, and with a
scorer fitted here to prefer something else, to show the choice follows the scorer)."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic_index import read_texts

from tests.answer.test_gate import AGREEMENT as GATE_AGREEMENT
from tests.conftest import dataset_pdf

from clausegraph.answer.direct import DocumentTerms, direct_answer
from clausegraph.answer.gate import using_gate
from clausegraph.answer.sentences import (
    FEATURES,
    SentenceScorer,
    collecting,
    shipped_scorer,
    using_scorer,
)
from clausegraph.classify import CUAD_CATEGORIES

# the gate test's services agreement, with one more clause the questions do not ask about
AGREEMENT = GATE_AGREEMENT + """4. NOTICES
4.1 Notices under this Agreement shall be given in writing to the addresses above.
"""


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory):
    return read_texts(tmp_path_factory.mktemp("sentences"), {"agreement.txt": AGREEMENT})


def _ask(reader, question: str, learned: bool):
    """A question that asks about CUAD's Governing Law type (the scorer is applied only to
    questions like a CUAD category)."""
    doc_id = next(iter(reader.entries()))
    clauses = reader.clauses.document_clauses(doc_id)
    asks_law = np.eye(len(CUAD_CATEGORIES))[CUAD_CATEGORIES.index("Governing Law")]
    return direct_answer(reader, DocumentTerms(reader), question, clauses,
                         question_types=asks_law, learned_choice=learned)


def test_collecting_gathers_every_candidate_with_its_features(reader) -> None:
    # the choice, not whether to answer: the gate is off (this index has no vectors)
    with collecting() as rows, using_gate(None):
        hand = _ask(reader, "Which law governs the agreement?", learned=False)
    (row,) = rows
    assert all(c["features"]["asks_type"] == 1.0 for c in row["candidates"])
    assert row["question"] == "Which law governs the agreement?"
    candidates = row["candidates"]
    assert len(candidates) >= 4
    assert all(set(c["features"]) == set(FEATURES) for c in candidates)
    law = next(c for c in candidates if "State of New York" in c["text"])
    assert law["features"]["has_value"] == 1.0 and law["features"]["kind_law"] == 1.0
    # the hand choice is the candidate with the best hand score
    best = max(candidates, key=lambda c: c["features"]["hand_score"])
    assert "State of New York" in best["text"] and "State of New York" in hand.text


def test_the_shipped_scorer_quotes_the_answering_sentence(sample_graph) -> None:
    """On a bundled CUAD contract, asked as a user asks (retrieval ranks the clauses)."""
    assert shipped_scorer().header["trained_on"]["split"] == "train"
    bellring = dataset_pdf("Bellring").name
    for question, expected in [("Which law governs this agreement?", "California"),
                               ("Can this agreement be assigned to another party?", "assign")]:
        hand = sample_graph.ask(question, documents=[bellring], answer_sentences="hand")
        learned = sample_graph.ask(question, documents=[bellring],
                                   answer_sentences="learned")
        assert learned.found and expected in learned.direct_answer, (question, hand.direct_answer)


def test_the_learned_choice_follows_the_scorer(reader) -> None:
    """A scorer fitted to prefer the last-ranked clause's sentence quotes it, where the hand
    choice quotes the governing-law sentence: the choice is the scorer's."""
    with collecting() as rows:
        _ask(reader, "Which law governs the agreement?", learned=False)
    candidates = rows[0]["candidates"]
    contrary = SentenceScorer(C=10.0)
    X = contrary.matrix([c["features"] for c in candidates])
    last = max(c["features"]["rank"] for c in candidates)
    y = np.array([int(c["features"]["rank"] == last) for c in candidates])
    contrary.fit(np.vstack([X] * 5), np.concatenate([y] * 5))
    with using_scorer(contrary), using_gate(None):  # the gate may refuse a poor sentence
        chosen = _ask(reader, "Which law governs the agreement?", learned=True)
    assert "State of New York" not in chosen.lines[0].text
    last_clauses = {c["clause_id"] for c in candidates if c["features"]["rank"] == last}
    assert any(line.clause_id in last_clauses for line in chosen.lines)
    # a question like no CUAD category keeps the hand choice whatever the scorer says
    doc_id = next(iter(reader.entries()))
    with using_scorer(contrary), using_gate(None):
        plain = direct_answer(reader, DocumentTerms(reader), "Which law governs the agreement?",
                              reader.clauses.document_clauses(doc_id), learned_choice=True)
    assert "State of New York" in plain.text
