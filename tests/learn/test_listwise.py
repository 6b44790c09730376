"""ListwiseLogistic: the conditional logit the answer-sentence ranker is, checked against
scikit-learn on the one case with a closed form (a softmax over two candidates is a logistic
regression on their difference) and on what a choice needs."""

from __future__ import annotations

import numpy as np
import pytest

from clausegraph.learn.listwise import ListwiseLogistic

FEATURES = ["a", "b", "c"]


def _pairs(n: int = 300, seed: int = 0):
    """Groups of two candidates; the right one tends to have more of "a" and less of "b"."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(2 * n, 3)) * [1.0, 4.0, 0.2] + [0.0, 3.0, 1.0]
    groups = np.repeat(np.arange(n), 2)
    utility = 1.2 * X[:, 0] - 0.3 * X[:, 1]
    first_right = rng.random(n) < 1 / (1 + np.exp(-(utility[0::2] - utility[1::2])))
    y = np.zeros(2 * n, dtype=int)
    y[0::2], y[1::2] = first_right, ~first_right
    return X, y, groups


def test_two_candidates_fit_a_logistic_regression_on_their_difference() -> None:
    sklearn = pytest.importorskip("sklearn.linear_model")
    X, y, groups = _pairs()
    model = ListwiseLogistic(C=0.5, features=FEATURES).fit(X, y, groups=groups)
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    right, wrong = Z[y == 1], Z[y == 0]  # one of each per group, in group order
    diff = right - wrong
    # scikit-learn minimises C x loss + |w|^2 / 2, this model loss + |w|^2 / 2C: with each
    # pair seen both ways (twice the loss) the optimum is the same at half this model's C
    reference = sklearn.LogisticRegression(C=0.25, fit_intercept=False, tol=1e-10,
                                           max_iter=1000).fit(
        np.vstack([diff, -diff]), np.r_[np.ones(len(diff)), np.zeros(len(diff))])
    assert np.allclose(model.coef_, reference.coef_[0], atol=1e-4)


def test_the_choice_follows_the_learned_preference_whatever_the_order() -> None:
    X, y, groups = _pairs(seed=1)
    model = ListwiseLogistic(features=FEATURES).fit(X, y, groups=groups)
    assert model.coef_[0] > 0 > model.coef_[1]
    candidates = np.array([[0.0, 3.0, 1.0], [2.0, 0.0, 1.0], [-1.0, 8.0, 1.0]])
    assert model.choose(candidates) == 1
    assert model.choose(candidates[::-1]) == 1


def test_groups_without_a_right_candidate_teach_nothing() -> None:
    X, y, groups = _pairs(seed=2)
    alone = ListwiseLogistic(features=FEATURES).fit(X, y, groups=groups)
    rng = np.random.default_rng(3)
    noise = rng.normal(size=(40, 3)) * 9.0  # ten groups of four, none right
    X2 = np.vstack([X, noise])
    y2 = np.r_[y, np.zeros(40, dtype=int)]
    groups2 = np.r_[groups, 10_000 + np.repeat(np.arange(10), 4)]
    padded = ListwiseLogistic(features=FEATURES).fit(X2, y2, groups=groups2)
    assert np.allclose(alone.coef_, padded.coef_)


def test_saved_and_loaded_it_chooses_alike(tmp_path) -> None:
    X, y, groups = _pairs(seed=4)
    model = ListwiseLogistic(C=2.0, features=FEATURES).fit(X, y, groups=groups)
    path = tmp_path / "ranker.json"
    model.save(path, trained_on="pairs")
    loaded = ListwiseLogistic.load(path)
    assert loaded.header["trained_on"] == "pairs"
    assert np.allclose(loaded.decision_function(X), model.decision_function(X))


def test_a_fit_without_groups_is_refused() -> None:
    X, y, _ = _pairs(n=10)
    with pytest.raises(ValueError, match="group"):
        ListwiseLogistic(features=FEATURES).fit(X, y)
