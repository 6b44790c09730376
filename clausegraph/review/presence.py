"""Whether a document has a clause of the CUAD types a question asks about.

A contract asked about a clause it lacks ("Is there a change of control clause?" of a
contract with none) should get "Not found", and a contract that has one should get its
clause. The answer gate (answer/gate.py) judges that from the best sentence's words, which
a contract of the same kind uses whether or not it has the clause. The review (``select.py``
with the span ranker fitted on CUAD *train*) reads the whole document for one category and
gives its best span's confidence: that is the evidence here. A question asks about the most
probable type of its question-type distribution (classify/questions.py) and about those at
least ``ratio`` as probable (at most three): "When does the agreement commence?" is 46%
Agreement Date and 25% Effective Date. A type is present when the review's confidence for
it reaches ``threshold``. When every type asked is present the answer is given; otherwise
the answer gate decides, reading the review's confidence in the type asked it is least sure
of (``TypeCheck.least_confidence``, answer/gate.py); with
``retrieval.answer_type_absent_refuses`` none present is "not found" unless the gate is sure
of its answer. (Present when any type asked is present was measured on CUAD dev and
dropped: a question about a change of control is also 18% about the parties, which every
contract names, so it was never "not found"; not-found recall 79.4 -> 58.8,
docs/cuad_dev.md, session 13.)

Only a question close to a CUAD category's description (cosine ``min_similarity`` or more)
is checked: a policy's "Is there a co-payment on claims?" is like no category (cosine 0.46,
typed Source Code Escrow) but passes the question-type model's own floor of 0.45, and the
review, which finds no such clause, would refuse an answer the policy gives.
``min_similarity`` = 0.5 is a design choice on dev data (in sample): on the 290 policy
questions it leaves out 13 of the 22 typed questions, none of the 41 CUAD dev questions,
and changes no CUAD dev not-found figure. ``ratio`` = 0.5, also a dev choice, costs 1.2
points of not-found recall on CUAD dev against the most probable type alone (docs/cuad_dev.md,
session 13).

``threshold`` is fitted on CUAD train (``fit``): each train contract's confidence per
category from span rankers that did not see the contract (cross-fitted), against CUAD's
labels (a category with no highlighted span is absent), and the largest threshold at which
"absent" is right ``target_precision`` of the time. ``scripts/fit_type_presence.py`` writes
the shipped parameters, ``data/type_presence.json`` (its dev figures: docs/cuad_dev.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.learn import load_shipped
from clausegraph.models.answer import TypeCheck

FORMAT = "clausegraph-type-presence"
FORMAT_VERSION = 1
SHIPPED = Path(__file__).parent / "data" / "type_presence.json"


class TypePresence:
    """``fit(confidences, present)``, then ``check(question_types, confidence_of)``."""

    def __init__(self, target_precision: float = 0.9, min_similarity: float = 0.5,
                 ratio: float = 0.5) -> None:
        self.target_precision = target_precision
        self.min_similarity = min_similarity
        self.ratio = ratio
        self.threshold_: float | None = None
        self.evidence_: dict[str, Any] = {}

    def fit(self, confidences: Sequence[float], present: Sequence[bool]) -> TypePresence:
        """The largest threshold below which a category is absent (CUAD's label) in at
        least ``target_precision`` of the (contract, category) pairs: the most "Not found"
        answers that are right that often."""
        scores = np.asarray(confidences, dtype=np.float64)
        labels = np.asarray(present, dtype=bool)
        if scores.shape != labels.shape or not len(scores):
            raise ValueError("fit needs one label per confidence, and at least one")
        order = np.argsort(scores, kind="stable")
        scores, labels = scores[order], labels[order]
        absent_below = np.cumsum(~labels)  # absent pairs among the k lowest
        precision = absent_below / np.arange(1, len(scores) + 1)
        # a threshold sits just above a score, and pairs with equal scores fall together
        last_of_value = np.r_[scores[1:] != scores[:-1], True]
        good = np.flatnonzero((precision >= self.target_precision) & last_of_value)
        if not len(good):
            raise ValueError(f"no threshold reaches a precision of {self.target_precision}")
        k = int(good[-1])
        above = scores[k + 1] if k + 1 < len(scores) else scores[k] + 1e-6
        self.threshold_ = float((scores[k] + above) / 2)
        absent = int((~labels).sum())
        self.evidence_ = {
            "pairs": int(len(scores)), "absent": absent,
            "precision": round(float(precision[k]), 4),
            "recall": round(float(absent_below[k]) / max(absent, 1), 4),
        }
        return self

    def asked(self, question_types: np.ndarray | None) -> list[str]:
        """The CUAD types a question asks about, most probable first: that one and those at
        least ``ratio`` as probable, at most three (none for a question like no category,
        whose row is zeros)."""
        if question_types is None:
            return []
        row = np.asarray(question_types, dtype=np.float64).ravel()
        order = np.argsort(-row, kind="stable")[:3]
        if row[order[0]] <= 0:
            return []
        return [CUAD_CATEGORIES[int(j)] for j in order if row[j] >= self.ratio * row[order[0]]]

    def check(self, question_types: np.ndarray | None, similarity: float,
              confidences_of: Callable[[list[str]], Mapping[str, tuple[float, str | None]]],
              pervasive: frozenset[str] = frozenset()) -> TypeCheck | None:
        """The verdict for one document: ``confidences_of(categories)`` gives the review's
        confidence and best clause id of each (one review of them all); ``similarity`` is
        the question's best cosine with a category's description. None when the question
        asks about no type, or is not close enough to one, or when the type it most asks
        about is ``pervasive`` in the document (``pervasive_types``)."""
        if self.threshold_ is None:
            raise RuntimeError("TypePresence.fit has not been called")
        names = self.asked(question_types)
        if not names or similarity < self.min_similarity or names[0] in pervasive:
            return None
        read = confidences_of(names)
        best = max(names, key=lambda name: read[name][0])
        found = {read[name][0] >= self.threshold_ for name in names}
        return TypeCheck(categories=names, category=best,
                         confidence=round(read[best][0], 4), clause_id=read[best][1],
                         lead_clause_id=read[names[0]][1],
                         least_confidence=round(min(read[name][0] for name in names), 4),
                         threshold=round(self.threshold_, 4),
                         present=found.pop() if len(found) == 1 else None)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": FORMAT_VERSION,
                "target_precision": self.target_precision,
                "min_similarity": self.min_similarity, "ratio": self.ratio,
                "threshold": self.threshold_,
                "evidence": self.evidence_}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> TypePresence:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise ValueError(f"{path}: not a {FORMAT} file of version {FORMAT_VERSION}")
        model = cls(data["target_precision"], data["min_similarity"], data["ratio"])
        model.threshold_ = float(data["threshold"])
        model.evidence_ = dict(data.get("evidence", {}))
        return model


@lru_cache(maxsize=1)
def shipped_presence() -> TypePresence:
    """The fitted parameters shipped with the package (loaded once)."""
    return load_shipped(TypePresence.load, SHIPPED, "the type-presence parameters",
                        "scripts/fit_type_presence.py")


# A type is pervasive in a document when it is the most probable type of more than this
# share of its clauses. On the 105 CUAD dev contracts no contract has more than 8.0% of its
# clauses typed Insurance first; the 20 insurance policies and plan documents of
# benchmarks/policies that are typed Insurance at all have 11% to 48% (docs/cuad_dev.md,
# session 36): there the type names the whole document, not a clause of it.
PERVASIVE_SHARE = 0.1
# only a type whose clause is a distinct provision of a contract, which a document of
# another kind can be made of throughout
PERVASIVE_CATEGORIES = frozenset({"Insurance"})


def pervasive_types(clause_types: Sequence[Sequence[Any]]) -> frozenset[str]:
    """The types of ``PERVASIVE_CATEGORIES`` that are the most probable type of more than
    ``PERVASIVE_SHARE`` of a document's clauses (``clause_types``: each clause's stored
    types, most probable first): "Can I port my policy to another insurer?", typed
    Insurance, of an insurance policy is not answered by the review's "Insurance clause"."""
    if not clause_types:
        return frozenset()
    counts: dict[str, int] = {}
    for types in clause_types:
        if types:
            counts[types[0].label] = counts.get(types[0].label, 0) + 1
    return frozenset(name for name in PERVASIVE_CATEGORIES
                     if counts.get(name, 0) > PERVASIVE_SHARE * len(clause_types))
