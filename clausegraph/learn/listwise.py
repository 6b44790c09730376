"""A conditional logit: which one of a group of candidates is the right one.

The answer's sentence choice picks one sentence among a question's candidates; what
matters is how a candidate compares with the others of its question, not how likely it is
right on its own (a pointwise logistic fitted to the same rows chose no better than the
hand score: docs/answer_sentences.md). Fitted by Newton's method on the softmax log loss
within each group (plus ``||w||^2 / 2C``), features standardised as
:class:`~clausegraph.learn.logistic.FeatureLogistic` does and saved in its JSON form; no
intercept, which no softmax can identify.
"""

from __future__ import annotations

import numpy as np

from clausegraph.learn.logistic import FeatureLogistic


class ListwiseLogistic(FeatureLogistic):
    """Scores of candidates whose softmax within a group is P(this one is the right one)."""

    FORMAT = "clausegraph-listwise-logistic"
    FORMAT_VERSION = 1
    WHAT = "a listwise logistic model"

    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None,
            groups: np.ndarray | None = None) -> ListwiseLogistic:
        """Fit on candidates ``X`` (n, features) of the groups ``groups`` (n,: equal ids are
        one group), ``y`` 1 for a right candidate (a group's right ones share its target);
        groups with no right candidate teach nothing and are left out. ``sample_weight``
        weighs groups (its value on each group's first row)."""
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        if groups is None:
            raise ValueError("a listwise model needs the group of every candidate")
        if X.ndim != 2 or X.shape != (len(y), len(self.features)):
            raise ValueError(f"X must be (n, {len(self.features)}), not {X.shape}")
        groups = np.asarray(groups)
        order = np.argsort(groups, kind="stable")
        X, y, groups = X[order], y[order], groups[order]
        weight = np.ones(len(y)) if sample_weight is None \
            else np.asarray(sample_weight, np.float64)[order]
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        positives = np.add.reduceat(y, starts)
        keep = np.repeat(positives > 0, np.diff(np.r_[starts, len(y)]))
        X, y, groups, weight = X[keep], y[keep], groups[keep], weight[keep]
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        sizes = np.diff(np.r_[starts, len(y)])
        target = y / np.repeat(np.add.reduceat(y, starts), sizes)
        group_weight = weight[starts]
        row_weight = np.repeat(group_weight, sizes)
        known = ~np.isnan(X)
        self.mean_ = np.array([X[known[:, j], j].mean() if known[:, j].any() else 0.0
                               for j in range(X.shape[1])])
        filled = np.where(known, X, self.mean_)
        std = filled.std(axis=0)
        self.scale_ = np.where(std > 1e-9, std, 1.0)
        Z = self._standardised(X)
        beta = np.zeros(Z.shape[1])
        penalty = 1.0 / self.C
        for _ in range(self.max_iter):
            p = _group_softmax(Z @ beta, starts, sizes)
            gradient = Z.T @ (row_weight * (p - target)) + penalty * beta
            mean_z = np.add.reduceat(Z * p[:, None], starts)  # (groups, features)
            hessian = (Z * (row_weight * p)[:, None]).T @ Z \
                - (mean_z * group_weight[:, None]).T @ mean_z + penalty * np.eye(len(beta))
            step = np.linalg.solve(hessian, gradient)
            beta -= step
            if np.max(np.abs(step)) < 1e-8:
                break
        self.coef_, self.intercept_ = beta, 0.0
        return self

    def choose(self, X: np.ndarray) -> int:
        """The position of the best candidate of one group."""
        return int(np.argmax(self.decision_function(X)))


def _group_softmax(scores: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    top = np.repeat(np.maximum.reduceat(scores, starts), sizes)
    exp = np.exp(scores - top)
    return exp / np.repeat(np.add.reduceat(exp, starts), sizes)
