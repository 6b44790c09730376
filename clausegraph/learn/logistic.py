"""A logistic regression over a few dozen named, standardised features.

Shaped like a scikit-learn estimator (``fit``, ``decision_function``, ``predict_proba``),
fitted by Newton's method with NumPy alone (a few dozen features need nothing more), saved
as one small JSON file whose weights are listed by feature name so that a reader sees what
the model learned. A subclass names its file ``FORMAT`` and its features; unknown features
(None or NaN) read as the training mean.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from clausegraph.learn.features import feature_matrix

Model = TypeVar("Model", bound="FeatureLogistic")


class FeatureLogistic:
    """P(y = 1) from named features: L2-penalised logistic regression (scikit-learn's
    objective: the weighted log loss plus ``||w||^2 / 2C``, the intercept not penalised)
    on features standardised by their training mean and spread."""

    FORMAT = "clausegraph-feature-logistic"
    FORMAT_VERSION = 1
    WHAT = "a logistic model"  # how errors name a file that is not one

    def __init__(self, C: float = 1.0, features: Sequence[str] = (), max_iter: int = 50) -> None:
        self.C, self.max_iter = C, max_iter
        self.features = list(features)
        self.mean_: np.ndarray | None = None
        self.scale_: np.ndarray | None = None
        self.coef_: np.ndarray | None = None
        self.intercept_: float = 0.0
        self.classes_ = np.array([0, 1])
        self.header: dict[str, Any] = {}

    # -- features -------------------------------------------------------------------------

    def matrix(self, rows: Sequence[Mapping[str, float | None]]) -> np.ndarray:
        """Rows of feature dicts as an (n, features) array in this model's order (a missing
        or None feature is NaN)."""
        return feature_matrix(rows, self.features)

    def _standardised(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        X = np.where(np.isnan(X), self.mean_, X)  # unknown: the training mean
        return (X - self.mean_) / self.scale_

    # -- estimator ------------------------------------------------------------------------

    def fit(self: Model, X: np.ndarray, y: np.ndarray,
            sample_weight: np.ndarray | None = None) -> Model:
        """Fit on features ``X`` (n, features) and 0/1 ``y`` by Newton's method."""
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
        if X.ndim != 2 or X.shape != (len(y), len(self.features)):
            raise ValueError(f"X must be (n, {len(self.features)}), not {X.shape}")
        known = ~np.isnan(X)
        self.mean_ = np.array([np.average(X[known[:, j], j], weights=w[known[:, j]])
                               if known[:, j].any() else 0.0 for j in range(X.shape[1])])
        filled = np.where(known, X, self.mean_)
        std = np.sqrt(np.average((filled - self.mean_) ** 2, axis=0, weights=w))
        self.scale_ = np.where(std > 1e-9, std, 1.0)
        Z = np.hstack([self._standardised(X), np.ones((len(y), 1))])
        beta = np.zeros(Z.shape[1])
        penalty = np.full(Z.shape[1], 1.0 / self.C)
        penalty[-1] = 0.0
        for _ in range(self.max_iter):
            p = 1.0 / (1.0 + np.exp(-np.clip(Z @ beta, -30, 30)))
            gradient = Z.T @ (w * (p - y)) + penalty * beta
            hessian = (Z * (w * p * (1 - p))[:, None]).T @ Z + np.diag(penalty + 1e-9)
            step = np.linalg.solve(hessian, gradient)
            beta -= step
            if np.max(np.abs(step)) < 1e-8:
                break
        self.coef_, self.intercept_ = beta[:-1], float(beta[-1])
        return self

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        if self.coef_ is None:
            raise ValueError(f"{self.WHAT} is not fitted")
        return self._standardised(X) @ self.coef_ + self.intercept_

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """(n, 2): P(0), P(1), as scikit-learn's binary classifiers."""
        positive = 1.0 / (1.0 + np.exp(-np.clip(self.decision_function(X), -30, 30)))
        return np.column_stack([1.0 - positive, positive])

    # -- persistence ----------------------------------------------------------------------

    def to_dict(self, **facts: Any) -> dict[str, Any]:
        if self.coef_ is None:
            raise ValueError(f"{self.WHAT} is not fitted")
        return {"format": self.FORMAT, "version": self.FORMAT_VERSION,
                "params": {"C": self.C, "max_iter": self.max_iter},
                "features": self.features, **self._extra_state(),
                "intercept": self.intercept_,
                "coef": dict(zip(self.features, map(float, self.coef_), strict=True)),
                "mean": dict(zip(self.features, map(float, self.mean_), strict=True)),
                "scale": dict(zip(self.features, map(float, self.scale_), strict=True)),
                **facts}

    def _extra_state(self) -> dict[str, Any]:
        """What a subclass saves beside the weights (e.g. a threshold)."""
        return {}

    def _load_extra_state(self, header: Mapping[str, Any]) -> None:
        """Reads back what :meth:`_extra_state` saved."""

    def save(self, path: str | Path, **facts: Any) -> None:
        """One small JSON file: weights (per feature, on standardised features), the
        standardisation, and any ``facts`` (how it was fitted)."""
        Path(path).write_text(json.dumps(self.to_dict(**facts), indent=1) + "\n",
                              encoding="utf-8")

    @classmethod
    def load(cls: type[Model], path: str | Path) -> Model:
        """A saved model; ``ValueError`` naming the file when it is not one."""
        try:
            header = json.loads(Path(path).read_text(encoding="utf-8"))
            features = header["features"]
            model = cls(features=features, **header["params"])
            model.coef_ = np.array([header["coef"][f] for f in features], dtype=np.float64)
            model.mean_ = np.array([header["mean"][f] for f in features], dtype=np.float64)
            model.scale_ = np.array([header["scale"][f] for f in features], dtype=np.float64)
            model.intercept_ = float(header["intercept"])
            model._load_extra_state(header)
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: not {cls.WHAT} ({exc})") from exc
        if header.get("format") != cls.FORMAT or header.get("version") != cls.FORMAT_VERSION:
            raise ValueError(f"{path}: not {cls.WHAT} of format {cls.FORMAT} "
                             f"v{cls.FORMAT_VERSION}")
        model.header = header
        return model
