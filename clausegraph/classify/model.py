"""The clause-type model: CUAD's 41 clause categories, one-vs-rest, from a clause's stored
MiniLM vector and its hashed word uni/bigram TF-IDF (:mod:`clausegraph.classify.features`).

Shaped like a scikit-learn estimator: ``fit`` on training arrays (scikit-learn does the
fitting, installed with the ``train`` extra), ``predict_proba``, ``save``/``load`` of one
``.npz``. Prediction is NumPy alone: the fitted network (one layer for logistic
regression, a hidden ReLU layer for the MLP) is stored as plain weight matrices.
``scripts/train_clause_types.py`` fits the shipped weights and writes the dev report
(docs/clause_types.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.classify.features import (
    document_frequencies,
    smooth_idf,
    sparse_product,
    tfidf_rows,
    to_csr,
)

FORMAT = "clausegraph-clause-types"
FORMAT_VERSION = 1
FEATURE_SETS = ("vector", "lexical", "both")
LEARNERS = ("logistic", "mlp")


class ClauseTypeModel:
    """Multi-label clause types: ``predict_proba(texts, vectors)`` -> (n, 41) probabilities,
    columns in :data:`CUAD_CATEGORIES` order.

    ``texts`` are what the clauses were embedded as (heading context, then text) and
    ``vectors`` their unit-length embeddings, as the index stores them.
    """

    def __init__(self, learner: str = "logistic", features: str = "both",
                 buckets: int = 2**14, C: float = 4.0, hidden: int = 256,
                 alpha: float = 1e-4, max_iter: int = 200, random_state: int = 0) -> None:
        if learner not in LEARNERS:
            raise ValueError(f"learner must be one of {LEARNERS}, not {learner!r}")
        if features not in FEATURE_SETS:
            raise ValueError(f"features must be one of {FEATURE_SETS}, not {features!r}")
        self.learner, self.features, self.buckets = learner, features, buckets
        self.C, self.hidden, self.alpha, self.max_iter = C, hidden, alpha, max_iter
        self.random_state = random_state
        self.categories: list[str] = list(CUAD_CATEGORIES)
        self.idf_: np.ndarray | None = None
        self.dim_: int = 0
        # layer i: (coef, intercept); the first coef's rows are [vector dims | hash buckets]
        self.layers_: list[tuple[np.ndarray, np.ndarray]] = []
        #: the encoder whose vectors it was fitted on (recorded by ``save``'s caller)
        self.embedding_model = ""

    # -- features -------------------------------------------------------------------------

    @property
    def _uses_vector(self) -> bool:
        return self.features in ("vector", "both")

    @property
    def _uses_lexical(self) -> bool:
        return self.features in ("lexical", "both")

    def _training_matrix(self, texts: Sequence[str], vectors: np.ndarray):  # -> csr_matrix
        from scipy.sparse import csr_matrix, hstack

        parts = []
        if self._uses_vector:
            parts.append(csr_matrix(np.asarray(vectors, dtype=np.float32)))
        if self._uses_lexical:
            parts.append(to_csr(tfidf_rows(texts, self.idf_), self.buckets))
        return hstack(parts, format="csr", dtype=np.float32)

    def _first_layer(self, texts: Sequence[str], vectors: np.ndarray) -> np.ndarray:
        coef, intercept = self.layers_[0]
        out = np.zeros((len(texts), coef.shape[1]), dtype=np.float32)
        if self._uses_vector:
            out += np.asarray(vectors, dtype=np.float32) @ coef[: self.dim_]
        if self._uses_lexical:
            lexical = coef[self.dim_:] if self._uses_vector else coef
            out += sparse_product(tfidf_rows(texts, self.idf_), lexical)
        return out + intercept

    # -- estimator ------------------------------------------------------------------------

    def fit(self, texts: Sequence[str], vectors: np.ndarray, labels: np.ndarray) -> ClauseTypeModel:
        """Fit on clauses (``texts``, their ``vectors``) and a 0/1 ``labels`` matrix
        (n, 41). Needs scikit-learn (``pip install -e '.[train]'``)."""
        labels = np.asarray(labels, dtype=np.int8)
        if labels.shape != (len(texts), len(self.categories)):
            raise ValueError(f"labels must be (n_texts, {len(self.categories)}), "
                             f"not {labels.shape}")
        vectors = np.asarray(vectors, dtype=np.float32)
        self.dim_ = vectors.shape[1] if self._uses_vector else 0
        self.idf_ = smooth_idf(document_frequencies(texts, self.buckets), len(texts)) \
            if self._uses_lexical else np.zeros(0, np.float32)
        self.layers_ = (self._fit_logistic(texts, vectors, labels) if self.learner == "logistic"
                        else self._fit_mlp(self._training_matrix(texts, vectors), labels))
        return self

    def _fit_logistic(self, texts: Sequence[str], vectors: np.ndarray,
                      labels: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """One-vs-rest L2 logistic regression (scikit-learn's objective: log loss summed
        over clauses plus ``||w||^2 / 2C`` per category), all 41 categories minimised
        together by SciPy's L-BFGS: the objective is a sum of independent per-category
        terms, so one dense product (vectors) and one sparse product (hashed terms) per step
        serve all of them (liblinear, one category at a time over a sparse matrix holding
        the vectors, was about 40 times slower)."""
        from scipy.optimize import minimize

        dense = np.asarray(vectors, dtype=np.float32)[:, : self.dim_]
        sparse = to_csr(tfidf_rows(texts, self.idf_), self.buckets) if self._uses_lexical \
            else to_csr([(np.zeros(0, np.int64), np.zeros(0, np.float32))] * len(texts), 0)
        sparse_t = sparse.T.tocsr()
        n_features, n_labels = self.dim_ + sparse.shape[1], labels.shape[1]
        targets = labels.astype(np.float32)

        def loss_and_gradient(flat: np.ndarray) -> tuple[float, np.ndarray]:
            weights = flat.reshape(n_features + 1, n_labels).astype(np.float32)
            coef = weights[:-1]
            logits = dense @ coef[: self.dim_] + sparse @ coef[self.dim_:] + weights[-1]
            # log(1 + e^z) - y z, computed without overflow
            loss = float(np.sum(np.logaddexp(0.0, logits) - targets * logits))
            loss += float(np.sum(coef.astype(np.float64) ** 2)) / (2 * self.C)
            residual = 1.0 / (1.0 + np.exp(-logits)) - targets
            gradient = np.vstack([dense.T @ residual, sparse_t @ residual]) + coef / self.C
            return loss, np.vstack([gradient, residual.sum(axis=0, keepdims=True)]).ravel() \
                .astype(np.float64)

        start = np.zeros((n_features + 1) * n_labels)
        result = minimize(loss_and_gradient, start, jac=True, method="L-BFGS-B",
                          options={"maxiter": self.max_iter})
        self.fit_iterations_ = int(result.nit)
        weights = result.x.reshape(n_features + 1, n_labels).astype(np.float32)
        return [(weights[:-1], weights[-1])]

    def _fit_mlp(self, matrix: Any, labels: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        from sklearn.neural_network import MLPClassifier

        # A fixed number of epochs: scikit-learn's early stopping scores multi-label output by
        # exact-match accuracy, which all-zero predictions maximise (it stopped a dev run at
        # micro AP 0.005).
        fitted = MLPClassifier(hidden_layer_sizes=(self.hidden,), alpha=self.alpha,
                               max_iter=self.max_iter, random_state=self.random_state
                               ).fit(matrix, labels)
        return [(c.astype(np.float32), b.astype(np.float32))
                for c, b in zip(fitted.coefs_, fitted.intercepts_, strict=True)]

    def predict_proba(self, texts: Sequence[str], vectors: np.ndarray) -> np.ndarray:
        """Probability of each category for each clause: (n, 41), CUAD_CATEGORIES order."""
        if not self.layers_:
            raise ValueError("the clause-type model is not fitted")
        if len(texts) == 0:
            return np.zeros((0, len(self.categories)), dtype=np.float32)
        activation = self._first_layer(texts, vectors)
        for coef, intercept in self.layers_[1:]:
            activation = np.maximum(activation, 0.0) @ coef + intercept
        return (1.0 / (1.0 + np.exp(-np.clip(activation, -30.0, 30.0)))).astype(np.float32)

    # -- persistence ----------------------------------------------------------------------

    def params(self) -> dict[str, Any]:
        return {"learner": self.learner, "features": self.features, "buckets": self.buckets,
                "C": self.C, "hidden": self.hidden, "alpha": self.alpha,
                "max_iter": self.max_iter, "random_state": self.random_state}

    def save(self, path: str | Path, **facts: Any) -> None:
        """One ``.npz``: the weights (the large lexical block as float16), IDF and a JSON
        header (format, parameters, categories, and any ``facts`` such as the training data)."""
        header = {"format": FORMAT, "version": FORMAT_VERSION, "params": self.params(),
                  "categories": self.categories, "dim": self.dim_,
                  "embedding_model": self.embedding_model, **facts}
        arrays: dict[str, np.ndarray] = {"header": np.array(json.dumps(header)),
                                         "idf": self.idf_.astype(np.float16)}
        for i, (coef, intercept) in enumerate(self.layers_):
            arrays[f"coef_{i}"] = coef.astype(np.float16)
            arrays[f"intercept_{i}"] = intercept.astype(np.float32)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> ClauseTypeModel:
        """A saved model; ``ValueError`` naming the file when it is not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                arrays = {name: data[name] for name in data.files}
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: not a clause-type model ({exc})") from exc
        if header.get("format") != FORMAT or header.get("version") != FORMAT_VERSION:
            raise ValueError(f"{path}: not a clause-type model of format {FORMAT} "
                             f"v{FORMAT_VERSION}")
        model = cls(**header["params"])
        model.categories = list(header["categories"])
        model.dim_ = int(header["dim"])
        model.idf_ = arrays["idf"].astype(np.float32)
        n_layers = sum(1 for name in arrays if name.startswith("coef_"))
        model.layers_ = [(arrays[f"coef_{i}"].astype(np.float32), arrays[f"intercept_{i}"])
                         for i in range(n_layers)]
        model.embedding_model = str(header.get("embedding_model", ""))
        model.header = header
        return model
