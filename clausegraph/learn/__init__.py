"""Small learned parts shared by the stages, each over named features and predicted with
NumPy alone: a logistic regression saved as readable JSON (the answer gate) and
gradient-boosted trees fitted by scikit-learn (the review's span ranker)."""

from clausegraph.learn.logistic import FeatureLogistic
from clausegraph.learn.trees import BoostedTrees

__all__ = ["BoostedTrees", "FeatureLogistic"]
