"""Named features as the rows of a matrix: what every learned part here reads."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np


def feature_matrix(rows: Sequence[Mapping[str, float | None]],
                   features: Sequence[str]) -> np.ndarray:
    """Rows of feature dicts as an (n, features) array in ``features`` order; a missing or
    None feature is NaN (unknown)."""
    return np.array([[math.nan if row.get(name) is None else float(row[name])
                      for name in features] for row in rows],
                    dtype=np.float64).reshape(len(rows), -1)
