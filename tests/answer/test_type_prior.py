"""The direct answer quotes a clause of the CUAD type the question asks about over one that
only shares words with the question (``retrieval.answer_type_prior``)."""

from __future__ import annotations

import numpy as np

from clausegraph.answer.direct import _Scored, _type_preference
from clausegraph.classify import CUAD_CATEGORIES
from clausegraph.config import Settings
from clausegraph.models import Clause, ClauseType

LAW = ("This Agreement shall be governed by and construed in accordance with the laws of the "
       "State of New York.")
VENUE = "Any notice under this Agreement shall be governed by the terms of Section 12."


def _scored(text: str, score: float, types: list[ClauseType]) -> _Scored:
    clause = Clause(clause_id=f"d:{score}", doc_id="d", number="1", text=text,
                    span=(0, len(text)), segments=[(0, len(text))], pages=[1], order=0,
                    clause_types=types)
    return _Scored(score=score, coverage=score, clause=clause, span=(0, len(text)))


def _asks(category: str) -> np.ndarray:
    row = np.zeros(len(CUAD_CATEGORIES))
    row[CUAD_CATEGORIES.index(category)] = 1.0
    return row


def test_a_clause_of_the_asked_type_is_quoted_over_a_wordier_match() -> None:
    typed = _scored(LAW, 0.40, [ClauseType(label="Governing Law", probability=0.95)])
    wordy = _scored(VENUE, 0.55, [])
    prior = Settings().retrieval.answer_type_prior
    assert prior > 0
    key = _type_preference(_asks("Governing Law"), prior)
    assert max([wordy, typed], key=key) is typed
    # the score the gate and the confidence read is the sentence's own
    assert typed.score == 0.40


def test_without_an_asked_type_or_prior_the_score_alone_chooses() -> None:
    typed = _scored(LAW, 0.40, [ClauseType(label="Governing Law", probability=0.95)])
    wordy = _scored(VENUE, 0.55, [])
    for key in (_type_preference(None, 1.6),
                _type_preference(np.zeros(len(CUAD_CATEGORIES)), 1.6),
                _type_preference(_asks("Governing Law"), 0.0)):
        assert max([wordy, typed], key=key) is wordy
    # a type the question does not ask for lifts nothing
    key = _type_preference(_asks("Insurance"), 1.6)
    assert max([wordy, typed], key=key) is wordy
