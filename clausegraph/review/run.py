"""Reviewing stored documents: the clause-type model's probabilities for every clause of a
document (from its stored vector and text), then the items (``select.py``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.config import ReviewConfig
from clausegraph.models import Clause
from clausegraph.review.models import DocumentReview
from clausegraph.review.select import (
    Narrower,
    SentenceScorer,
    SpanConfidence,
    review_items,
)


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
                 model_name: str = "", ranker: SpanConfidence | None = None) -> None:
        self.model = model
        self.model_name = model_name
        self.categories = list(categories)
        self.config = config
        self.clause_text = clause_text
        self.encode = encode
        # the span ranker (``ranker.ReviewRanker``), used when config.span_confidence
        # is 'learned'
        self.ranker = ranker

    def sentence_scorer(self, vectors: dict[str, np.ndarray]) -> SentenceScorer | None:
        """Scores sentences with the model: each sentence embedded on its own
        (``sentence_vectors='encode'``), or with its clause's stored vector (``'clause'``:
        only the words differ between sentences, nothing is embedded); ``vectors`` holds
        the stored vectors by clause id."""
        if self.config.sentence_vectors == "clause":
            return lambda texts, owners: np.asarray(self.model.predict_proba(
                texts, np.stack([vectors[c.clause_id] for c in owners])))
        if self.encode is None:
            return None
        encode = self.encode
        return lambda texts, owners: np.asarray(self.model.predict_proba(texts, encode(texts)))

    def with_config(self, config: ReviewConfig) -> ClauseReviewer:
        return ClauseReviewer(self.model, self.categories, config, self.clause_text,
                              self.encode, self.model_name, self.ranker)

    def probabilities(self, clauses: Sequence[Clause], vectors: np.ndarray) -> np.ndarray:
        """Each clause's probability of each category, from its stored vector."""
        if not clauses:
            return np.zeros((0, len(self.categories)))
        return np.asarray(self.model.predict_proba([self.clause_text(c) for c in clauses],
                                                    vectors))

    def review(self, index: Any, doc_id: str,
               configs: Sequence[ReviewConfig] | None = None,
               categories: Collection[str] | None = None) -> list[DocumentReview]:
        """The review of the stored document ``doc_id`` of ``index`` (an IndexReader),
        one per config of ``configs`` (default: this reviewer's): the probabilities and
        sentence scores are computed once for all of them. ``categories``: review only
        these (the items of the others are left out)."""
        document = index.clauses.document(doc_id)
        clauses = index.clauses.document_clauses(doc_id)
        vectors = index.vectors.vectors([c.clause_id for c in clauses])
        probabilities = self.probabilities(clauses, vectors)
        by_id = {c.clause_id: v for c, v in zip(clauses, vectors)}
        reviews = []
        caches: dict[str, dict] = {}
        for config in configs or [self.config]:
            scorer = self.with_config(config).sentence_scorer(by_id)
            cache = caches.setdefault(config.sentence_vectors, {})
            ranker = self.ranker if config.span_confidence == "learned" else None
            items = review_items(document, clauses, probabilities, self.categories, config,
                                 Narrower(config, scorer, cache), ranker, categories)
            reviews.append(DocumentReview(
                doc_id=doc_id, key=document.key, file=Path(document.source_path).name,
                title=document.title, items=items))
        return reviews
