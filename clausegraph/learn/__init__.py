"""Small learned parts shared by the stages, each over named features and predicted with
NumPy alone: a logistic regression saved as readable JSON (the answer gate) and
gradient-boosted trees fitted by scikit-learn (the review's span ranker)."""

import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from clausegraph.errors import ClauseGraphError
from clausegraph.learn.logistic import FeatureLogistic
from clausegraph.learn.trees import BoostedTrees

Model = TypeVar("Model")
# what reading a damaged or foreign file raises: NumPy's npz reader (a zip archive), the
# JSON reader, a missing array or key, a truncated file
_UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


def load_shipped(load: Callable[[Path], Model], path: Path, what: str, script: str) -> Model:
    """A learned part shipped inside the package, or a clear error naming the file, what it
    is and the ``script`` that rebuilds it: missing (``FileNotFoundError``) or unreadable,
    truncated or of another format (:class:`~clausegraph.errors.ClauseGraphError`)."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: {what} is missing from the package; rebuild it "
                                f"with {script}")
    try:
        return load(path)
    except _UNREADABLE as exc:
        problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClauseGraphError(f"{path}: {what} cannot be read ({problem}); reinstall "
                               f"clausegraph or rebuild it with {script}") from exc


__all__ = ["BoostedTrees", "FeatureLogistic", "load_shipped"]
