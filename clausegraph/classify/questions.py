"""Which CUAD clause types a question asks about, from the question's wording.

A question is compared (cosine of its embedding) with CUAD's own description of each of the
41 categories (``CUAD_DESCRIPTIONS``, embedded once by the same encoder that embeds the
index), and the similarities become a probability over categories by a softmax at
``temperature``. A question like no description (cosine below ``min_similarity``: "What is
the waiting period for cataract surgery?") asks about no CUAD type and lifts nothing.

Retrieval lifts a clause by ``RetrievalConfig.type_weight`` times its affinity with the
question: the sum over categories of the question's probability times the clause's stored
type probability. ``scripts/fit_type_lift.py`` fits ``temperature``, ``min_similarity``
and the weight on CUAD's train contracts and writes ``data/question_types.json``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES, CUAD_DESCRIPTIONS
from clausegraph.models import ClauseType

PARAMETERS_PATH = Path(__file__).parent / "data" / "question_types.json"


class QuestionTypeModel:
    """``fit(description_vectors)``, then ``predict_proba(question_vectors)`` -> (n, 41),
    columns in :data:`CUAD_CATEGORIES` order; a row of zeros for a question like no
    category."""

    def __init__(self, temperature: float, min_similarity: float) -> None:
        self.temperature = temperature
        self.min_similarity = min_similarity
        self.anchors_: np.ndarray | None = None

    def fit(self, description_vectors: np.ndarray) -> QuestionTypeModel:
        """``description_vectors``: (41, d) unit vectors of ``descriptions()``, in order."""
        self.anchors_ = np.asarray(description_vectors, dtype=np.float32)
        return self

    def similarities(self, question_vectors: np.ndarray) -> np.ndarray:
        if self.anchors_ is None:
            raise RuntimeError("QuestionTypeModel.fit has not been called")
        return np.atleast_2d(question_vectors).astype(np.float32) @ self.anchors_.T

    def predict_proba(self, question_vectors: np.ndarray) -> np.ndarray:
        similarity = self.similarities(question_vectors)
        logits = (similarity - similarity.max(axis=1, keepdims=True)) * self.temperature
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        probabilities[similarity.max(axis=1) < self.min_similarity] = 0.0
        return probabilities


def descriptions() -> list[str]:
    """What each category's anchor embeds: its name and CUAD's description of it."""
    return [f"{name}: {CUAD_DESCRIPTIONS[name]}" for name in CUAD_CATEGORIES]


@lru_cache(maxsize=1)
def shipped_parameters() -> dict:
    """The fitted ``temperature``, ``min_similarity`` and ``type_weight`` (with the figures
    that chose them), as ``scripts/fit_type_lift.py`` wrote them."""
    return json.loads(PARAMETERS_PATH.read_text(encoding="utf-8"))


def shipped_model(description_vectors: np.ndarray) -> QuestionTypeModel:
    parameters = shipped_parameters()
    return QuestionTypeModel(parameters["temperature"], parameters["min_similarity"]).fit(
        description_vectors)


def type_affinity(question: np.ndarray, clause_types: Sequence[ClauseType],
                  column: Mapping[str, int]) -> float:
    """How much a clause is of the types a question asks about: the sum over categories of
    the question's probability (a row of ``predict_proba``) times the clause's stored one."""
    return float(sum(question[column[t.label]] * t.probability for t in clause_types
                     if t.label in column))
