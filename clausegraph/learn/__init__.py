"""Small learned parts shared by the stages, each over named features and predicted with
NumPy alone: a logistic regression saved as readable JSON (the answer gate) and
gradient-boosted trees fitted by scikit-learn (the review's span ranker)."""

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from clausegraph.learn.logistic import FeatureLogistic
from clausegraph.learn.trees import BoostedTrees

Model = TypeVar("Model")


def load_shipped(load: Callable[[Path], Model], path: Path, what: str, script: str) -> Model:
    """A learned part shipped inside the package, or a clear error naming the file, what it
    is and the ``script`` that rebuilds it."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: {what} is missing from the package; rebuild it "
                                f"with {script}")
    return load(path)


__all__ = ["BoostedTrees", "FeatureLogistic", "load_shipped"]
