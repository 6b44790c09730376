"""Which CUAD clause types a question asks about, from the question's wording.

A question is compared (cosine of its embedding) with CUAD's own description of each of the
41 categories (``CUAD_DESCRIPTIONS``, embedded once by the same encoder that embeds the
index), and the similarities become a probability over categories by a softmax at
``temperature``. A question like no description (cosine below ``min_similarity``: "What is
the waiting period for cataract surgery?") asks about no CUAD type and lifts nothing.

A question like some description is also read by the clause-type model (fitted on the
clauses of CUAD's train contracts, classify/model.py) as if it were a clause, and the two
distributions are averaged: a description is one sentence per category, and "Does either
party have exclusive rights ...?" is nearer the description of Parties than that of
Exclusivity, while the clause-type model has learned "exclusive" from hundreds of
Exclusivity clauses (on the 41 dev questions, the category ranked first: descriptions 35,
clause-type model 36, their mean 38; docs/clause_types.md, "Question types").

Retrieval lifts a clause by ``RetrievalConfig.type_weight`` times its affinity with the
question: the sum over categories of the question's probability times the clause's stored
type probability. ``scripts/fit_type_lift.py`` fits ``temperature``, ``min_similarity``
and the weight on CUAD's train contracts and writes ``data/question_types.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES, CUAD_DESCRIPTIONS
from clausegraph.learn import load_shipped
from clausegraph.models import ClauseType

PARAMETERS_PATH = Path(__file__).parent / "data" / "question_types.json"
# A question for a length or an end ("How long does the agreement last?", "For how many
# years is the licence granted?", "What is the length of the agreement?", "When does the
# agreement end?") is answered by a period or the day it ends, never by the day a contract
# was signed or took effect, its name or its parties (CUAD's normalised answers for those
# are dates and names): reworded, the dev question of Expiration Date was read as the
# Agreement Date (docs/cuad_dev.md, session 46).
ASKS_LENGTH = re.compile(r"^\s*(?:for\s+)?how\s+long\b|\bhow\s+many\s+(?:years|months|weeks|"
                         r"days)\b|\b(?:length|duration)\s+of\b|^\s*when\s+(?:does|do|will|"
                         r"shall|is)\b[^?]*\b(?:end|ends|expire|expires|terminate|terminates|"
                         r"lapse|lapses)\b", re.IGNORECASE)
NOT_A_LENGTH = frozenset({"Document Name", "Parties", "Agreement Date", "Effective Date"})
_NOT_A_LENGTH_COLUMNS = [CUAD_CATEGORIES.index(name) for name in sorted(NOT_A_LENGTH)]


class QuestionTypeModel:
    """``fit(description_vectors)``, then ``predict_proba(question_vectors)`` -> (n, 41),
    columns in :data:`CUAD_CATEGORIES` order; a row of zeros for a question like no
    category."""

    def __init__(self, temperature: float, min_similarity: float,
                 clause_model: Any | None = None) -> None:
        self.temperature = temperature
        self.min_similarity = min_similarity
        # ``predict_proba(texts, vectors)`` -> (n, 41): the clause-type model, or None
        self.clause_model = clause_model
        self.anchors_: np.ndarray | None = None

    def fit(self, description_vectors: np.ndarray) -> QuestionTypeModel:
        """``description_vectors``: (41, d) unit vectors of ``descriptions()``, in order."""
        self.anchors_ = np.asarray(description_vectors, dtype=np.float32)
        return self

    def similarities(self, question_vectors: np.ndarray) -> np.ndarray:
        if self.anchors_ is None:
            raise RuntimeError("QuestionTypeModel.fit has not been called")
        return np.atleast_2d(question_vectors).astype(np.float32) @ self.anchors_.T

    def predict_proba(self, question_vectors: np.ndarray,
                      texts: Sequence[str] | None = None) -> np.ndarray:
        """(n, 41) probabilities; with the questions' ``texts`` and a clause model, the mean
        of the description softmax and the clause model's reading (rows normalised)."""
        similarity = self.similarities(question_vectors)
        logits = (similarity - similarity.max(axis=1, keepdims=True)) * self.temperature
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        asks = similarity.max(axis=1) >= self.min_similarity
        probabilities[~asks] = 0.0
        if self.clause_model is not None and texts is not None and asks.any():
            rows = np.flatnonzero(asks)
            read = np.asarray(self.clause_model.predict_proba(
                [texts[i] for i in rows], np.atleast_2d(question_vectors)[rows]), dtype=np.float64)
            read /= np.maximum(read.sum(axis=1, keepdims=True), 1e-12)
            probabilities[rows] = (probabilities[rows] + read) / 2
        if texts is not None:
            probabilities = _answerable_forms(probabilities, texts)
        return probabilities


def _answerable_forms(probabilities: np.ndarray, texts: Sequence[str]) -> np.ndarray:
    """Each row with the categories its question's form cannot ask about set to 0 and the
    rest scaled to the row's total: a question for a length or an end asks no date, name
    or party."""
    for row, text in enumerate(texts):
        total = probabilities[row].sum()
        if total <= 0 or not ASKS_LENGTH.search(text):
            continue
        probabilities[row, _NOT_A_LENGTH_COLUMNS] = 0.0
        kept = probabilities[row].sum()
        if kept > 0:
            probabilities[row] *= total / kept
    return probabilities


def descriptions() -> list[str]:
    """What each category's anchor embeds: its name and CUAD's description of it."""
    return [f"{name}: {CUAD_DESCRIPTIONS[name]}" for name in CUAD_CATEGORIES]


@lru_cache(maxsize=1)
def shipped_parameters() -> dict:
    """The fitted ``temperature``, ``min_similarity`` and ``type_weight`` (with the figures
    that chose them), as ``scripts/fit_type_lift.py`` wrote them."""
    return load_shipped(_read_parameters, PARAMETERS_PATH, "the question-type parameters",
                        "scripts/fit_type_lift.py")


_PARAMETERS = ("temperature", "min_similarity", "type_weight")


def _read_parameters(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or any(key not in data for key in _PARAMETERS):
        raise ValueError(f"not the question-type parameters (needs {', '.join(_PARAMETERS)})")
    return data


def shipped_model(description_vectors: np.ndarray,
                  clause_model: Any | None = None) -> QuestionTypeModel:
    """The fitted model; ``clause_model`` (the clause-type model, when the encoder is the one
    it was fitted on) reads the questions too."""
    parameters = shipped_parameters()
    return QuestionTypeModel(parameters["temperature"], parameters["min_similarity"],
                             clause_model).fit(description_vectors)


def type_affinity(question: np.ndarray, clause_types: Sequence[ClauseType],
                  column: Mapping[str, int]) -> float:
    """How much a clause is of the types a question asks about: the sum over categories of
    the question's probability (a row of ``predict_proba``) times the clause's stored one."""
    return float(sum(question[column[t.label]] * t.probability for t in clause_types
                     if t.label in column))
