"""Gradient-boosted trees over named features, for binary labels.

scikit-learn's ``HistGradientBoostingClassifier`` does the fitting (the ``train`` extra);
the fitted trees are kept as flat NumPy arrays (one row per node) and prediction walks them
with NumPy alone, all trees and all rows at once, so the package needs no scikit-learn at
run time. Features are numeric (a category is one-hot columns); NaN is "unknown" and goes
the side each split learned for missing values. Saved as one ``.npz`` with a JSON header.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from clausegraph.learn.features import feature_matrix

Model = TypeVar("Model", bound="BoostedTrees")
_NODE_FIELDS = ("feature", "threshold", "left", "right", "is_leaf", "missing_left", "value")


class BoostedTrees:
    """P(y = 1) as the logistic of a sum of regression trees (scikit-learn's histogram
    gradient boosting, log loss)."""

    FORMAT = "clausegraph-boosted-trees"
    FORMAT_VERSION = 1
    WHAT = "a boosted-trees model"

    def __init__(self, features: Sequence[str] = (), learning_rate: float = 0.05,
                 max_iter: int = 400, max_leaf_nodes: int = 15,
                 l2_regularization: float = 10.0, random_state: int = 0) -> None:
        self.features = list(features)
        self.learning_rate, self.max_iter = learning_rate, max_iter
        self.max_leaf_nodes, self.l2_regularization = max_leaf_nodes, l2_regularization
        self.random_state = random_state
        self.baseline_: float = 0.0
        # every tree's nodes end to end; a tree's child indices are global
        self.nodes_: dict[str, np.ndarray] = {}
        self.roots_: np.ndarray = np.zeros(0, dtype=np.int64)
        self.depth_: int = 0
        self.header: dict[str, Any] = {}

    def params(self) -> dict[str, Any]:
        return {"learning_rate": self.learning_rate, "max_iter": self.max_iter,
                "max_leaf_nodes": self.max_leaf_nodes,
                "l2_regularization": self.l2_regularization, "random_state": self.random_state}

    def matrix(self, rows: Sequence[Mapping[str, float | None]]) -> np.ndarray:
        """Rows of feature dicts as an (n, features) array in this model's order (a missing
        or None feature is NaN)."""
        return feature_matrix(rows, self.features)

    # -- estimator ------------------------------------------------------------------------

    def fit(self: Model, X: np.ndarray, y: np.ndarray,
            sample_weight: np.ndarray | None = None) -> Model:
        """Fit with scikit-learn (``pip install -e '.[train]'``) and keep its trees."""
        from sklearn.ensemble import HistGradientBoostingClassifier

        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != len(self.features):
            raise ValueError(f"X must be (n, {len(self.features)}), not {X.shape}")
        # a feature unknown in every row cannot be binned by scikit-learn; as a constant it
        # is never split on, so prediction sends any value of it the same way
        X = np.where(np.isnan(X).all(axis=0), 0.0, X)
        fitted = HistGradientBoostingClassifier(
            learning_rate=self.learning_rate, max_iter=self.max_iter,
            max_leaf_nodes=self.max_leaf_nodes, l2_regularization=self.l2_regularization,
            early_stopping=False, random_state=self.random_state,
        ).fit(X, np.asarray(y), sample_weight=sample_weight)
        self.baseline_ = float(np.ravel(fitted._baseline_prediction)[0])
        self._keep([predictors[0].nodes for predictors in fitted._predictors])
        return self

    def _keep(self, trees: Sequence[np.ndarray]) -> None:
        """Flatten scikit-learn's per-tree node records into global arrays."""
        parts: dict[str, list[np.ndarray]] = {name: [] for name in _NODE_FIELDS}
        roots, offset, depth = [], 0, 0
        for nodes in trees:
            if nodes["is_categorical"].any():
                raise ValueError("categorical splits are not supported: one-hot encode")
            roots.append(offset)
            parts["feature"].append(nodes["feature_idx"].astype(np.int32))
            parts["threshold"].append(nodes["num_threshold"].astype(np.float64))
            parts["left"].append(nodes["left"].astype(np.int64) + offset)
            parts["right"].append(nodes["right"].astype(np.int64) + offset)
            parts["is_leaf"].append(nodes["is_leaf"].astype(bool))
            parts["missing_left"].append(nodes["missing_go_to_left"].astype(bool))
            parts["value"].append(nodes["value"].astype(np.float64))
            depth = max(depth, int(nodes["depth"].max()))
            offset += len(nodes)
        self.nodes_ = {name: np.concatenate(arrays) for name, arrays in parts.items()}
        self.roots_ = np.array(roots, dtype=np.int64)
        self.depth_ = depth

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """The raw score (log-odds) of each row: the baseline plus every tree's leaf."""
        if not len(self.roots_):
            raise ValueError(f"{self.WHAT} is not fitted")
        X = np.asarray(X, dtype=np.float64)
        nodes = self.nodes_
        at = np.broadcast_to(self.roots_, (len(X), len(self.roots_))).copy()
        rows = np.arange(len(X))[:, None]
        for _ in range(self.depth_):
            leaf = nodes["is_leaf"][at]
            if leaf.all():
                break
            value = X[rows, nodes["feature"][at]]
            left = np.where(np.isnan(value), nodes["missing_left"][at],
                            value <= nodes["threshold"][at])
            at = np.where(leaf, at, np.where(left, nodes["left"][at], nodes["right"][at]))
        return self.baseline_ + nodes["value"][at].sum(axis=1)

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """(n, 2): P(0), P(1), as scikit-learn's binary classifiers."""
        positive = 1.0 / (1.0 + np.exp(-np.clip(self.decision_function(X), -30, 30)))
        return np.column_stack([1.0 - positive, positive])

    # -- persistence ----------------------------------------------------------------------

    def _extra_state(self) -> dict[str, Any]:
        """What a subclass saves in the header beside the trees."""
        return {}

    def _load_extra_state(self, header: Mapping[str, Any]) -> None:
        """Reads back what :meth:`_extra_state` saved."""

    def save(self, path: str | Path, **facts: Any) -> None:
        """One ``.npz``: the node arrays and a JSON header (format, parameters, features,
        baseline, any ``facts`` such as the training data)."""
        if not len(self.roots_):
            raise ValueError(f"{self.WHAT} is not fitted")
        header = {"format": self.FORMAT, "version": self.FORMAT_VERSION,
                  "params": self.params(), "features": self.features,
                  "baseline": self.baseline_, "depth": self.depth_, **self._extra_state(),
                  **facts}
        with open(path, "wb") as handle:  # np.savez would add ".npz" to another suffix
            np.savez_compressed(handle, header=np.array(json.dumps(header)), roots=self.roots_,
                                **{f"node_{name}": array for name, array in self.nodes_.items()})

    @classmethod
    def load(cls: type[Model], path: str | Path) -> Model:
        """A saved model; ``ValueError`` naming the file when it is not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                if header.get("format") != cls.FORMAT or header.get("version") != cls.FORMAT_VERSION:
                    raise ValueError(f"format {header.get('format')!r}")
                model = cls(features=header["features"], **header["params"])
                model.nodes_ = {name: data[f"node_{name}"] for name in _NODE_FIELDS}
                model.roots_ = data["roots"]
                model.baseline_ = float(header["baseline"])
                model.depth_ = int(header["depth"])
                model._load_extra_state(header)
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: not {cls.WHAT} of format {cls.FORMAT} "
                             f"v{cls.FORMAT_VERSION} ({exc})") from exc
        model.header = header
        return model
