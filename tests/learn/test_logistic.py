"""FeatureLogistic: the small logistic regression the answer gate and the span ranker share,
checked against scikit-learn's LogisticRegression (same objective) on generated data."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clausegraph.learn import FeatureLogistic


def _data(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) * [1.0, 5.0, 0.1] + [0.0, 10.0, 0.0]
    logits = 1.5 * X[:, 0] - 0.4 * (X[:, 1] - 10.0) + 0.0 * X[:, 2]
    y = (rng.random(n) < 1 / (1 + np.exp(-logits))).astype(int)
    return X, y


def test_fit_matches_scikit_learn_on_standardised_features() -> None:
    sklearn = pytest.importorskip("sklearn.linear_model")
    X, y = _data()
    model = FeatureLogistic(C=0.5, features=["a", "b", "c"]).fit(X, y)
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    reference = sklearn.LogisticRegression(C=0.5, tol=1e-10, max_iter=1000).fit(Z, y)
    assert np.allclose(model.coef_, reference.coef_[0], atol=1e-4)
    assert model.intercept_ == pytest.approx(reference.intercept_[0], abs=1e-4)
    assert np.allclose(model.predict_proba(X)[:, 1], reference.predict_proba(Z)[:, 1],
                       atol=1e-5)


def test_unknown_features_read_as_the_training_mean_and_rows_name_them() -> None:
    X, y = _data()
    model = FeatureLogistic(features=["a", "b", "c"]).fit(X, y)
    rows = model.matrix([{"a": 1.0, "b": None}, {"a": 1.0, "b": model.mean_[1],
                                                 "c": model.mean_[2]}])
    assert np.isnan(rows[0, 1]) and np.isnan(rows[0, 2])
    first, second = model.predict_proba(rows)[:, 1]
    assert first == pytest.approx(second)


def test_save_load_round_trip_and_refusals(tmp_path) -> None:
    X, y = _data()
    model = FeatureLogistic(C=2.0, features=["a", "b", "c"]).fit(X, y)
    path = tmp_path / "model.json"
    model.save(path, fitted_on="generated rows")
    saved = json.loads(path.read_text())
    assert set(saved["coef"]) == {"a", "b", "c"} and saved["fitted_on"] == "generated rows"
    loaded = FeatureLogistic.load(path)
    assert np.allclose(loaded.predict_proba(X), model.predict_proba(X))
    assert loaded.C == 2.0
    path.write_text(json.dumps({**saved, "format": "another-format"}))
    with pytest.raises(ValueError, match="model.json: not a logistic model of format"):
        FeatureLogistic.load(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="model.json: not a logistic model"):
        FeatureLogistic.load(path)
    with pytest.raises(ValueError, match="not fitted"):
        FeatureLogistic(features=["a"]).predict_proba(np.zeros((1, 1)))
    with pytest.raises(ValueError, match="X must be"):
        FeatureLogistic(features=["a"]).fit(X, y)
