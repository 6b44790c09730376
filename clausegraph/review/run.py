"""Reviewing stored documents: the clause-type model's probabilities for every clause of a
document (from its stored vector and text), then the items (``select.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.config import ReviewConfig
from clausegraph.models import Clause
from clausegraph.review.models import DocumentReview
from clausegraph.review.select import Narrower, review_items


class ClauseReviewer:
    """Reviews documents with one clause-type model.

    ``model.predict_proba(texts, vectors)`` gives each text's probability of each of
    ``categories``; ``encode(texts)`` embeds the sentences the model then scores to narrow
    a clause (None: whole clauses are reported); ``clause_text(clause)`` is the text a
    clause was embedded as.
    """

    def __init__(self, model: Any, categories: Sequence[str], config: ReviewConfig,
                 clause_text: Callable[[Clause], str],
                 encode: Callable[[list[str]], np.ndarray] | None = None,
                 model_name: str = "") -> None:
        self.model = model
        self.model_name = model_name
        self.categories = list(categories)
        self.config = config
        self.clause_text = clause_text
        self.encode = encode

    def score_texts(self, texts: list[str]) -> np.ndarray:
        """Category probabilities of free texts (sentences), embedded on the spot."""
        if self.encode is None:
            raise ValueError("no encoder to embed sentences with")
        return np.asarray(self.model.predict_proba(texts, self.encode(texts)))

    def probabilities(self, clauses: Sequence[Clause], vectors: np.ndarray) -> np.ndarray:
        """Each clause's probability of each category, from its stored vector."""
        if not clauses:
            return np.zeros((0, len(self.categories)))
        return np.asarray(self.model.predict_proba([self.clause_text(c) for c in clauses],
                                                    vectors))

    def review(self, index: Any, doc_id: str,
               configs: Sequence[ReviewConfig] | None = None) -> list[DocumentReview]:
        """The review of the stored document ``doc_id`` of ``index`` (an IndexReader),
        one per config of ``configs`` (default: this reviewer's): the probabilities and
        sentence scores are computed once for all of them."""
        document = index.clauses.document(doc_id)
        clauses = index.clauses.document_clauses(doc_id)
        vectors = index.vectors.vectors([c.clause_id for c in clauses])
        probabilities = self.probabilities(clauses, vectors)
        scorer = self.score_texts if self.encode is not None else None
        cache: dict = {}
        reviews = []
        for config in configs or [self.config]:
            items = review_items(document, clauses, probabilities, self.categories, config,
                                 Narrower(config, scorer, cache))
            reviews.append(DocumentReview(
                doc_id=doc_id, key=document.key, file=Path(document.source_path).name,
                title=document.title, items=items))
        return reviews
