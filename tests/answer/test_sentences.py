"""The answer-sentence ranker: the candidates a direct answer collects for fitting, and the
choice the ranker makes when ``learned_choice`` is on (with the shipped weights, and with
rankers fitted here to prefer something else, to show the choice follows the ranker and
reads the sentences' meaning)."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic_index import read_texts

from tests.answer.test_gate import AGREEMENT as GATE_AGREEMENT
from tests.conftest import dataset_pdf

from clausegraph.answer.direct import DocumentTerms, direct_answer
from clausegraph.answer.gate import using_gate
from clausegraph.answer.sentences import (
    CANDIDATES,
    FEATURES,
    SentenceRanker,
    collecting,
    shipped_ranker,
    using_ranker,
)
from clausegraph.classify import CUAD_CATEGORIES
from clausegraph.embed import create_embedder

# the gate test's services agreement, with one more clause the questions do not ask about
AGREEMENT = GATE_AGREEMENT + """4. NOTICES
4.1 Notices under this Agreement shall be given in writing to the addresses above.
"""
QUESTION = "Which law governs the agreement?"


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory):
    return read_texts(tmp_path_factory.mktemp("sentences"), {"agreement.txt": AGREEMENT})


@pytest.fixture(scope="module")
def similarity():
    """The cosines of sentences with QUESTION by the packaged encoder, as ``ask`` gives them."""
    embedder = create_embedder()
    question = embedder.encode_query(QUESTION)
    return lambda texts: embedder.encode(list(texts)) @ question


def _ask(reader, learned: bool, similarity=None, typed: bool = True):
    doc_id = next(iter(reader.entries()))
    clauses = reader.clauses.document_clauses(doc_id)
    asks_law = np.eye(len(CUAD_CATEGORIES))[CUAD_CATEGORIES.index("Governing Law")] \
        if typed else None
    return direct_answer(reader, DocumentTerms(reader), QUESTION, clauses,
                         question_types=asks_law, learned_choice=learned,
                         sentence_similarity=similarity)


def _candidates(reader, similarity=None) -> list[dict]:
    with collecting() as rows, using_gate(None):  # the gate is off: this index has no vectors
        _ask(reader, learned=False, similarity=similarity)
    (row,) = rows
    assert row["question"] == QUESTION
    return row["candidates"]


def _fitted_to(candidates: list[dict], right: list[bool], features=FEATURES) -> SentenceRanker:
    ranker = SentenceRanker(C=10.0, features=features)
    X = ranker.matrix([c["features"] for c in candidates])
    y = np.array(right, dtype=int)
    copies = 5
    return ranker.fit(np.vstack([X] * copies), np.concatenate([y] * copies),
                      groups=np.repeat(np.arange(copies), len(y)))


def test_collecting_gathers_the_hand_scores_best_with_their_features(reader, similarity):
    candidates = _candidates(reader, similarity)
    assert 4 <= len(candidates) <= CANDIDATES
    assert all(set(c["features"]) == set(FEATURES) for c in candidates)
    law = next(c for c in candidates if "State of New York" in c["text"])
    assert law["features"]["has_value"] == 1.0 and law["features"]["kind_law"] == 1.0
    # the shortlist is in the hand choice's order: its first is what the hand choice quotes
    assert "State of New York" in candidates[0]["text"]
    # the meaning read by the encoder: the law sentence is nearer the question than notices
    notices = next(c for c in candidates if "Notices under" in c["text"])
    assert law["features"]["cosine"] > notices["features"]["cosine"]
    assert max(c["features"]["cosine_gap"] for c in candidates) == 0.0


def test_without_similarity_the_cosines_are_unknown(reader):
    candidates = _candidates(reader)
    assert all(c["features"]["cosine"] is None for c in candidates)


def test_the_learned_choice_follows_the_ranker(reader, similarity):
    """A ranker fitted to prefer the last-ranked clause's sentence quotes it, where the hand
    choice quotes the governing-law sentence; a question of no CUAD type is chosen alike."""
    candidates = _candidates(reader, similarity)
    last = max(c["features"]["rank"] for c in candidates)
    contrary = _fitted_to(candidates, [c["features"]["rank"] == last for c in candidates])
    last_clauses = {c["clause_id"] for c in candidates if c["features"]["rank"] == last}
    for typed in (True, False):
        with using_ranker(contrary), using_gate(None):  # the gate may refuse a poor sentence
            chosen = _ask(reader, learned=True, similarity=similarity, typed=typed)
        assert "State of New York" not in chosen.lines[0].text
        assert any(line.clause_id in last_clauses for line in chosen.lines)
    with using_gate(None):
        assert "State of New York" in _ask(reader, learned=False, similarity=similarity).text


def test_a_ranker_of_meaning_alone_reads_the_cosines_it_is_given(reader, similarity):
    """Fitted on the cosine alone to prefer the sentence farthest from the question, it
    quotes that one: the choice reads the encoder's cosines (the nearest is the law
    sentence the hand choice quotes)."""
    candidates = _candidates(reader, similarity)
    farthest = min(candidates, key=lambda c: c["features"]["cosine"])
    assert "State of New York" not in farthest["text"]
    ranker = _fitted_to(candidates, [c is farthest for c in candidates], features=["cosine"])
    assert ranker.coef_[0] < 0
    with using_ranker(ranker), using_gate(None):
        chosen = _ask(reader, learned=True, similarity=similarity)
    assert " ".join(farthest["text"].split()) in " ".join(chosen.text.split())


def test_the_shipped_ranker_quotes_the_answering_sentence(sample_graph) -> None:
    """On a bundled CUAD contract, asked as a user asks (retrieval ranks the clauses)."""
    trained = shipped_ranker().header["trained_on"]
    assert trained["cuad_split"] == "train" and trained["policy_questions"] > 0
    bellring = dataset_pdf("Bellring").name
    for question, expected in [("Which law governs this agreement?", "California"),
                               ("Can this agreement be assigned to another party?", "assign")]:
        learned = sample_graph.ask(question, documents=[bellring],
                                   answer_sentences="learned")
        assert learned.found and expected in learned.direct_answer, (question,
                                                                     learned.direct_answer)
