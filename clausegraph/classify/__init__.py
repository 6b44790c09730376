"""Clause types: CUAD's 41 clause categories predicted for every clause at ingest.

>>> from clausegraph.classify import CUAD_CATEGORIES, load_clause_type_model
>>> model = load_clause_type_model()  # the shipped weights, loaded once  # doctest: +SKIP
>>> model.predict_proba(texts, vectors).shape  # doctest: +SKIP
(len(texts), 41)

The weights (``data/clause_types.npz``) are fitted on CUAD's train split by
``scripts/train_clause_types.py``; docs/clause_types.md has the dev report.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.classify.model import ClauseTypeModel
from clausegraph.learn import load_shipped
from clausegraph.models import Clause, ClauseType

WEIGHTS_PATH = Path(__file__).parent / "data" / "clause_types.npz"
# A clause stores the types at or above this probability: the lowest floor of those tried
# on CUAD dev at which a stored type is right at least half the time (0.1: 61% right, 49% of
# the gold (clause, type) pairs kept; 0.05: 43% right). docs/clause_types.md, "Stored types".
STORED_TYPE_FLOOR = 0.1

__all__ = ["CUAD_CATEGORIES", "STORED_TYPE_FLOOR", "WEIGHTS_PATH", "ClauseTypeModel",
           "assign_clause_types", "clause_types_from", "fits_encoder", "load_clause_type_model",
           "model_id"]


@lru_cache(maxsize=1)
def load_clause_type_model() -> ClauseTypeModel:
    """The shipped clause-type model, loaded once per process."""
    return load_shipped(ClauseTypeModel.load, WEIGHTS_PATH, "the clause-type weights",
                        "scripts/train_clause_types.py")


@lru_cache(maxsize=1)
def model_id() -> str:
    """Names the shipped weights (first 12 hex digits of their sha256): an index records
    which model typed its clauses."""
    return "cuad-41:" + hashlib.sha256(WEIGHTS_PATH.read_bytes()).hexdigest()[:12]


def fits_encoder(embedding_model: str, dim: int) -> bool:
    """Whether vectors of this encoder are what the shipped model was fitted on (the same
    model name and dimension; its int8 variant embeds the same way)."""
    model = load_clause_type_model()
    return model.dim_ == dim and model.embedding_model in ("", embedding_model)


def clause_types_from(probabilities: np.ndarray, floor: float = STORED_TYPE_FLOOR,
                      categories: Sequence[str] = CUAD_CATEGORIES) -> list[list[ClauseType]]:
    """Per row of (n, 41) probabilities: the types at or above ``floor``, most probable first."""
    result = []
    for row in np.asarray(probabilities):
        kept = np.flatnonzero(row >= floor)
        kept = kept[np.argsort(-row[kept], kind="stable")]
        result.append([ClauseType(label=categories[j], probability=round(float(row[j]), 4))
                       for j in kept])
    return result


def assign_clause_types(clauses: Sequence[Clause], texts: Sequence[str],
                        vectors: np.ndarray) -> None:
    """Set ``clause_types`` of each clause from its embedded text and stored vector."""
    model = load_clause_type_model()
    for clause, types in zip(clauses, clause_types_from(model.predict_proba(texts, vectors)),
                             strict=True):
        clause.clause_types = types
