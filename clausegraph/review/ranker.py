"""The review's span ranker: P(a candidate span is one CUAD highlights for its category).

The clause-type model says how likely a clause is of a category; what the review reports
are spans (a clause's best sentences, each other sentence, the whole clause, a date or a
title, ``select.SpanCandidate``), and CUAD's metric counts a span right when its words
overlap a highlighted span's by Jaccard >= 0.5. Which of a clause's spans that is depends on
the category (CUAD highlights a whole clause for some, one sentence or several for others),
on how the sentence scores against its clause and on how long it is against what the
category's highlights usually run to. Gradient-boosted trees over those features
(:class:`~clausegraph.learn.BoostedTrees`; chosen over a logistic regression on dev,
docs/review.md) learn it from CUAD *train*
(``scripts/train_span_ranker.py``, with clause probabilities from clause-type models that did
not see the contract: cross-fitted), and the review ranks spans by it.

The shipped trees are ``clausegraph/review/data/span_ranker.npz`` (docs/review.md has the
dev report).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.learn import BoostedTrees
from clausegraph.review.select import SPAN_KINDS, SpanCandidate

SHIPPED = Path(__file__).parent / "data" / "span_ranker.npz"
_EPSILON = 1e-4

BASE_FEATURES = (
    "clause_logit", "document_best_logit", "clause_gap", "clause_rank", "sentence_logit",
    "sentence_share", "is_best_sentence", "log_words", "length_misfit", "clause_share",
    "log_sentences", *(f"kind_{kind}" for kind in SPAN_KINDS),
    "rule_rank", "sentence_rank", "sentence_gap",
)
CATEGORY_FEATURES = tuple(f"category_{name}" for name in CUAD_CATEGORIES)
FEATURES = BASE_FEATURES + CATEGORY_FEATURES


def _logit(p: float) -> float:
    p = min(max(p, _EPSILON), 1 - _EPSILON)
    return math.log(p / (1 - p))


def _ranks(values: Sequence[float]) -> np.ndarray:
    """0 for the largest value, 1 for the next, ... (ties share the better rank)."""
    array = np.asarray(values, dtype=np.float64)
    return np.searchsorted(np.sort(-array), -array, side="left")


def span_features(candidates: Sequence[SpanCandidate], category: str,
                  median_words: Mapping[str, float]) -> list[dict[str, float]]:
    """The ranker's features of the candidates of one category in one document;
    ``median_words`` is the median length of CUAD's highlights per category (from the train
    labels, saved with the weights). Besides each span's own figures, where it stands among
    the category's candidates: by the hand rule's confidence and by its sentence's score."""
    if not candidates:
        return []
    best = _logit(candidates[0].document_best)
    typical = median_words.get(category) or 20.0
    rule_rank = _ranks([c.rule_confidence for c in candidates])
    sentence_rank = _ranks([c.sentence_score for c in candidates])
    top_sentence = _logit(max(c.sentence_score for c in candidates))
    rows = []
    for candidate, by_rule, by_sentence in zip(candidates, rule_rank, sentence_rank):
        clause = _logit(candidate.clause_probability)
        sentence = _logit(candidate.sentence_score)
        words = max(candidate.words, 1)
        rows.append({
            "clause_logit": clause, "document_best_logit": best, "clause_gap": clause - best,
            "clause_rank": math.log1p(candidate.clause_rank),
            "sentence_logit": sentence,
            "sentence_share": candidate.sentence_score / max(candidate.best_sentence_score,
                                                             _EPSILON),
            "is_best_sentence": float(candidate.sentence_score >= candidate.best_sentence_score),
            "log_words": math.log(words),
            "length_misfit": abs(math.log(words / typical)),
            "clause_share": words / max(candidate.clause_words, 1),
            "log_sentences": math.log(max(candidate.sentences, 1)),
            **{f"kind_{kind}": float(candidate.kind == kind) for kind in SPAN_KINDS},
            "rule_rank": math.log1p(float(by_rule)),
            "sentence_rank": math.log1p(float(by_sentence)),
            "sentence_gap": sentence - top_sentence,
            **{f"category_{name}": float(name == category) for name in CUAD_CATEGORIES},
        })
    return rows


class SpanRanker(BoostedTrees):
    """P(CUAD highlights this span) of review candidates (``rank``), from :data:`FEATURES`
    (or a subset: the training script compares feature sets on dev)."""

    FORMAT = "clausegraph-span-ranker"
    FORMAT_VERSION = 1
    WHAT = "a span ranker"

    def __init__(self, features: Sequence[str] = FEATURES, **params: Any) -> None:
        super().__init__(features=features, **params)
        #: median words of CUAD's highlights per category (train labels)
        self.median_words_: dict[str, float] = {}

    def _extra_state(self) -> dict[str, Any]:
        return {"median_words": self.median_words_}

    def _load_extra_state(self, header: Mapping[str, Any]) -> None:
        self.median_words_ = {k: float(v) for k, v in header["median_words"].items()}

    def rows(self, candidates: Sequence[SpanCandidate], category: str) -> np.ndarray:
        return self.matrix(span_features(candidates, category, self.median_words_))

    def rank(self, candidates: list[SpanCandidate], category: str) -> np.ndarray:
        """P(highlighted) of each candidate of one category (``select.SpanConfidence``)."""
        if not candidates:
            return np.zeros(0)
        return self.predict_proba(self.rows(candidates, category))[:, 1]


@lru_cache(maxsize=1)
def shipped_ranker() -> SpanRanker:
    """The span ranker shipped with the package (loaded once)."""
    if not SHIPPED.is_file():
        raise FileNotFoundError(f"{SHIPPED}: the span ranker's weights are missing from the "
                                "package; rebuild them with scripts/train_span_ranker.py")
    return SpanRanker.load(SHIPPED)
