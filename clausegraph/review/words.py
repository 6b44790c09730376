"""The span's own words: P(CUAD highlights a span for a category) from the span's text alone.

The span ranker's other inputs come from the clause-type model, which learned from whole
clauses (a clause is of a category when it overlaps a highlight): its sentence scores read a
sentence through weights fitted on clauses, so within a clause that is of the category it
tells poorly which sentence CUAD highlights. This model learns that from the review's own
candidates on CUAD train: for each category, an L2 logistic regression over the hashed word
uni/bigram TF-IDF of the candidate span (the clause-type model's lexical features,
:mod:`clausegraph.classify.features`), labelled by CUAD's match rule (word-set Jaccard >=
0.5 with a highlight). Its logit is one more span-ranker feature (``span_words_logit``);
on train it comes from models that did not see the contract (``scripts/train_span_ranker.py``
cross-fits it, as it does the clause-type model).

Shaped like a scikit-learn estimator: ``fit`` needs scikit-learn (the ``train`` extra),
``decision_function`` is NumPy alone, ``save``/``load`` one ``.npz``
(``clausegraph/review/data/span_words.npz``, written by
``scripts/train_span_ranker.py --save-words``; docs/review.md has the dev report).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.classify.features import (
    SparseRow,
    document_frequencies,
    smooth_idf,
    sparse_product,
    tfidf_rows,
    to_csr,
)
from clausegraph.learn import load_shipped

SHIPPED = Path(__file__).parent / "data" / "span_words.npz"
FORMAT = "clausegraph-span-words"
FORMAT_VERSION = 1


class SpanWords:
    """Per-category logistic regressions over a span's hashed word TF-IDF:
    ``decision_function(texts, category)`` -> the logit that CUAD highlights each text for
    ``category``."""

    # 2**14 buckets (the clause-type model's) and C = 4, chosen on the dev candidates with
    # the ranker refitted on train each time (AUPR / precision at 80% recall of the ranker
    # alone, docs/review.md, session 27): without the feature 59.5 / 18.8; C = 0.25, 1, 4,
    # 16 at 2**14 buckets 60.6 / 22.1, 61.8 / 24.7, 63.1 / 24.7, 63.2 / 24.5; 2**16
    # buckets at C = 1 61.7 / 23.4 (a file four times the size)
    def __init__(self, buckets: int = 2**14, C: float = 4.0) -> None:
        self.buckets, self.C = buckets, C
        self.categories: list[str] = list(CUAD_CATEGORIES)
        self.idf_: np.ndarray | None = None
        self.coef_: np.ndarray | None = None  # (buckets, categories)
        self.intercept_: np.ndarray | None = None  # (categories,)
        self.header: dict[str, Any] = {}
        # a text's TF-IDF row, cached: the review scores the same sentence as a candidate of
        # many categories (tokenising them again was a quarter of a review's time)
        self._row = lru_cache(maxsize=16384)(self._tfidf_row)

    def _tfidf_row(self, text: str) -> SparseRow:
        return tfidf_rows([text], self.idf_)[0]

    def fit(self, texts: Sequence[str], categories: Sequence[str],
            labels: Sequence[int]) -> SpanWords:
        """Fit on candidate spans: ``texts[i]`` a candidate of ``categories[i]``, ``labels[i]``
        1 when it matches one of that category's highlights. A category with no positive
        (or no candidate) keeps a zero weight and a large negative intercept."""
        from sklearn.linear_model import LogisticRegression

        unique = sorted(set(texts))
        at = {text: i for i, text in enumerate(unique)}
        self.idf_ = smooth_idf(document_frequencies(unique, self.buckets), len(unique))
        self._row.cache_clear()
        matrix = to_csr(tfidf_rows(unique, self.idf_), self.buckets)
        rows_of = np.array([at[t] for t in texts])
        names, y = np.asarray(categories), np.asarray(labels, dtype=np.int8)
        self.coef_ = np.zeros((self.buckets, len(self.categories)), dtype=np.float32)
        self.intercept_ = np.full(len(self.categories), -10.0, dtype=np.float32)
        for j, category in enumerate(self.categories):
            rows = np.flatnonzero(names == category)
            if not len(rows) or y[rows].min() == y[rows].max():
                continue
            fitted = LogisticRegression(C=self.C, solver="liblinear", max_iter=200).fit(
                matrix[rows_of[rows]], y[rows])
            self.coef_[:, j] = fitted.coef_[0]
            self.intercept_[j] = fitted.intercept_[0]
        return self

    def decision_function(self, texts: Sequence[str], category: str) -> np.ndarray:
        """The logit of each text for ``category``."""
        if self.coef_ is None or self.idf_ is None or self.intercept_ is None:
            raise ValueError("the span words model is not fitted")
        j = self.categories.index(category)
        rows = [self._row(text) for text in texts]
        return sparse_product(rows, self.coef_[:, j:j + 1])[:, 0] + self.intercept_[j]

    def save(self, path: str | Path, **facts: Any) -> None:
        if self.coef_ is None or self.idf_ is None or self.intercept_ is None:
            raise ValueError("the span words model is not fitted")
        header = {"format": FORMAT, "version": FORMAT_VERSION, "buckets": self.buckets,
                  "C": self.C, "categories": self.categories, **facts}
        np.savez_compressed(path, header=np.array(json.dumps(header)),
                            idf=self.idf_.astype(np.float16), coef=self.coef_.astype(np.float16),
                            intercept=self.intercept_.astype(np.float32))

    @classmethod
    def load(cls, path: str | Path) -> SpanWords:
        with np.load(path, allow_pickle=False) as stored:
            try:
                header = json.loads(str(stored["header"]))
            except KeyError:
                raise ValueError(f"{path}: not a span words model (no header)") from None
            if header.get("format") != FORMAT or header.get("version") != FORMAT_VERSION:
                raise ValueError(f"{path}: not a span words model of format {FORMAT} "
                                 f"v{FORMAT_VERSION} ({header.get('format')} "
                                 f"v{header.get('version')})")
            model = cls(buckets=int(header["buckets"]), C=float(header["C"]))
            model.categories = list(header["categories"])
            model.idf_ = stored["idf"].astype(np.float32)
            model.coef_ = stored["coef"].astype(np.float32)
            model.intercept_ = stored["intercept"].astype(np.float32)
            model.header = header
        return model


@lru_cache(maxsize=1)
def shipped_span_words() -> SpanWords:
    """The span words model shipped with the package (loaded once)."""
    return load_shipped(SpanWords.load, SHIPPED, "the span words model",
                        "scripts/train_span_ranker.py --save-words")
