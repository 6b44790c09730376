"""When the review says a contract has a clause of a category: a confidence per category.

A category is found when its best span's confidence (the span ranker's, ``ranker.py``)
reaches a threshold. One threshold for all 41 categories fits none of them well: nearly
every contract has an Agreement Date, a Document Name and Parties, so their best span is
right to count as found at a low confidence, while a covenant not to sue is in one contract
in six and needs a sure span. The ranker's confidences also move with every refit, so a
threshold chosen by hand for one set of weights is wrong for the next.

``FoundThresholds.fit`` learns each category's threshold on CUAD *train*: each contract's
best-span confidence per category from span rankers that did not see the contract
(cross-fitted, ``scripts/fit_type_presence.py --save-found``), against CUAD's labels (a
category with a highlighted span is present), and the threshold at which "found" agrees
with the labels most often (the middle of the best thresholds when several tie). A category
with fewer than ``min_present`` train contracts that have it takes the threshold fitted on
all categories pooled. ``ReviewConfig.found_threshold`` set to a number overrides them all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.learn import load_shipped

SHIPPED = Path(__file__).parent / "data" / "found_thresholds.json"
FORMAT = "clausegraph-found-thresholds"
FORMAT_VERSION = 1
# the thresholds tried: every hundredth from 0.01 to 0.99
GRID = np.round(np.arange(1, 100) / 100, 2)


def best_threshold(confidences: Sequence[float], present: Sequence[bool]) -> tuple[float, float]:
    """(threshold, accuracy): the threshold of ``GRID`` at which ``confidence >= threshold``
    agrees with ``present`` most often; the middle one (the lower of the two middle ones)
    when several do."""
    c = np.asarray(confidences, dtype=np.float64)
    y = np.asarray(present, dtype=bool)
    accuracy = np.array([np.mean((c >= t) == y) for t in GRID])
    best = np.flatnonzero(accuracy >= accuracy.max() - 1e-12)
    return float(GRID[best[(len(best) - 1) // 2]]), float(accuracy.max())


class FoundThresholds:
    """Per-category found thresholds: ``threshold(category)``."""

    def __init__(self, min_present: int = 10) -> None:
        self.min_present = min_present
        self.pooled_: float | None = None
        self.thresholds_: dict[str, float] = {}
        self.evidence_: dict[str, Any] = {}

    def fit(self, categories: Sequence[str], confidences: Sequence[float],
            present: Sequence[bool]) -> FoundThresholds:
        """Fit on (contract, category) pairs: the category, the best span's confidence from
        a ranker that did not see the contract, and whether the contract has the clause."""
        names = np.asarray(categories)
        c = np.asarray(confidences, dtype=np.float64)
        y = np.asarray(present, dtype=bool)
        self.pooled_, pooled_accuracy = best_threshold(c, y)
        self.thresholds_, per_category = {}, {}
        for category in sorted(set(names.tolist())):
            rows = names == category
            threshold, accuracy = best_threshold(c[rows], y[rows])
            own = int(y[rows].sum()) >= self.min_present
            self.thresholds_[category] = threshold if own else self.pooled_
            per_category[category] = {"pairs": int(rows.sum()), "present": int(y[rows].sum()),
                                      "accuracy": round(accuracy, 4), "own": own}
        chosen = c >= np.array([self.thresholds_[n] for n in names.tolist()])
        self.evidence_ = {"pairs": int(len(c)), "pooled_accuracy": round(pooled_accuracy, 4),
                          "accuracy": round(float(np.mean(chosen == y)), 4),
                          "categories": per_category}
        return self

    def threshold(self, category: str) -> float:
        """The category's threshold (the pooled one for a category not fitted)."""
        if self.pooled_ is None:
            raise ValueError("the found thresholds are not fitted")
        return self.thresholds_.get(category, self.pooled_)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": FORMAT_VERSION, "min_present": self.min_present,
                "pooled": self.pooled_, "thresholds": self.thresholds_,
                "evidence": self.evidence_}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> FoundThresholds:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not found thresholds ({error})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT \
                or data.get("version") != FORMAT_VERSION:
            raise ValueError(f"{path}: not found thresholds of format {FORMAT} "
                             f"v{FORMAT_VERSION}")
        model = cls(min_present=int(data["min_present"]))
        model.pooled_ = float(data["pooled"])
        model.thresholds_ = {k: float(v) for k, v in data["thresholds"].items()}
        model.evidence_ = dict(data.get("evidence", {}))
        return model


@lru_cache(maxsize=1)
def shipped_found_thresholds() -> FoundThresholds:
    """The thresholds shipped with the package (loaded once)."""
    return load_shipped(FoundThresholds.load, SHIPPED, "the review's found thresholds",
                        "scripts/fit_type_presence.py --save-found")
