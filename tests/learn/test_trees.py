"""BoostedTrees: trees fitted by scikit-learn, predicted by NumPy; checked against
scikit-learn's own predictions, with unknown values and a save/load round trip."""

from __future__ import annotations

import numpy as np
import pytest

from clausegraph.learn import BoostedTrees


def _data(n: int = 3000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = ((X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.normal(size=n)) > 1).astype(int)
    X[rng.random(X.shape) < 0.05] = np.nan  # unknown values go the side each split learned
    return X, y


def test_numpy_prediction_equals_scikit_learns() -> None:
    ensemble = pytest.importorskip("sklearn.ensemble")
    X, y = _data()
    model = BoostedTrees(features=["a", "b", "c", "d"], max_iter=60).fit(X, y)
    reference = ensemble.HistGradientBoostingClassifier(
        learning_rate=0.05, max_iter=60, max_leaf_nodes=15, l2_regularization=10.0,
        early_stopping=False, random_state=0).fit(X, y)
    assert np.allclose(model.predict_proba(X), reference.predict_proba(X), atol=1e-12)
    # it learned the relation: a curved one a line could not fit
    held_X, held_y = _data(seed=1)
    accuracy = ((model.predict_proba(held_X)[:, 1] >= 0.5) == held_y).mean()
    assert accuracy > 0.8


def test_save_load_round_trip_and_refusals(tmp_path) -> None:
    pytest.importorskip("sklearn.ensemble")
    X, y = _data()
    model = BoostedTrees(features=["a", "b", "c", "d"], max_iter=20).fit(X, y)
    path = tmp_path / "trees.npz"
    model.save(path, fitted_on="generated rows")
    loaded = BoostedTrees.load(path)
    assert np.array_equal(loaded.predict_proba(X), model.predict_proba(X))
    assert loaded.header["fitted_on"] == "generated rows" and loaded.max_iter == 20
    rows = loaded.matrix([{"a": 0.5, "b": None}])
    assert np.isnan(rows[0, 1]) and np.isnan(rows[0, 2])
    assert loaded.predict_proba(rows).shape == (1, 2)
    other = tmp_path / "other.npz"
    other.write_bytes(b"not an npz")
    with pytest.raises(ValueError, match="other.npz: not a boosted-trees model"):
        BoostedTrees.load(other)
    with pytest.raises(ValueError, match="not fitted"):
        BoostedTrees(features=["a"]).predict_proba(np.zeros((1, 1)))
    with pytest.raises(ValueError, match="X must be"):
        BoostedTrees(features=["a"]).fit(X, y)
