"""The not-found gate of the direct answer: P(the direct answer is right), from what
:func:`clausegraph.answer.direct.direct_answer` already has when it would answer (issues 25
and 26).

Shaped like a scikit-learn estimator (``fit``, ``predict_proba``, ``predict``, ``save``,
``load``), as :mod:`clausegraph.classify.model`, its decision threshold fitted too. Two
models decide (:class:`TypedSplitGate`): a question like one of CUAD's clause categories
by boosted trees (:class:`TreeAnswerGate`, ``answer_gate_typed.npz``: fitted with
scikit-learn, predicted with NumPy), any other by a logistic regression over 23
standardised features (:class:`AnswerGate`, ``answer_gate.json``: Newton steps on the
L2-penalised log loss with NumPy alone). Both are written by ``scripts/fit_answer_gate.py``
(fitted on the 22 policies of benchmarks/policies and the CUAD dev asks together; what
they score out of sample, and why two: docs/answer_gate.md).

The features (:data:`FEATURES`), all read off the best sentence the direct answer would quote:

* ``document_coverage``: share of the question's word weight the document uses at all (a
  question about something the document never mentions scores low);
* ``sentence_score``, ``sentence_words``, ``sentence_coverage``: the best sentence's score
  (words, value bonus, rank prior), the share of the question's weight its own words hold,
  and the share with its heading context and the value's stand-in words;
* ``confidence``: min(sentence score, 1) x document coverage, the old combined figure;
* ``constants_pass``: 1 when the old hand thresholds (``MIN_DOCUMENT_COVERAGE``,
  ``MIN_SENTENCE_SCORE``, ``MIN_CONFIDENCE``) would all have answered: the old rule is one
  feature among the others, not the decision;
* ``holds_value`` / ``asks_value``: whether the question asks for a value (a period, an
  amount, a law, ...) and whether the sentence holds one of that kind; ``kind_*``: the
  question's kind, one-hot (no kind is the reference);
* ``question_words``: log(1 + number of content words): a long question's words are rarely
  all in one sentence;
* ``best_rank``: the retrieval rank (0..4) of the clause that holds the sentence;
* ``dense_top`` / ``dense_best``: the retrieval cosine (question vs clause vector) of the
  best retrieved clause and of the answering one: how close the document comes to the
  question in meaning, beside its words;
* ``asks_type`` / ``type_match``: whether the question is like one of CUAD's 41 clause
  categories (classify/questions.py) and, if so, how far the document's most fitting
  clause is of that type (its stored clause-type probability, classify/model.py, fitted on
  CUAD *train*): a contract asked about a clause it lacks has no clause of that type,
  though it may use the question's words. 0 when the question asks about no type.
* ``review_margin`` / ``review_quoted``: when the contract review (review/presence.py) read
  the document for the CUAD types the question asks about, its confidence in the type asked
  that it is least sure of minus the presence threshold (its span ranker reads the whole
  contract, fitted on CUAD train), and whether the answer quotes the review's best clause.
  Both 0 when the review did not read it: an unread review is neutral, not "none found" (as
  a flag beside a confidence of 0 it was: nearly every question the review skips is a
  policy's, so the flag learned "a policy question" and refused contract questions the
  review skips, docs/cuad_dev.md, "Session 14").

A caller that does not type the question (no ``question_types``: an index embedded by
another model than the clause-type model's) is answered by a second gate fitted on the same
rows without those four features (:data:`UNTYPED_FEATURES`, ``answer_gate_untyped.json``):
read as their mean, the review's weight would decide for it.

Unknown features (a caller that passes no retrieval scores or question types) read as the
training mean.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.learn import FeatureLogistic, load_shipped
from clausegraph.learn.trees import BoostedTrees

FORMAT = "clausegraph-answer-gate"
FORMAT_VERSION = 1
SHIPPED = Path(__file__).parent / "data" / "answer_gate.json"
# for callers that do not type the question (an index embedded by another model than the
# clause-type model's): the same fit without the features that need the question's types
SHIPPED_UNTYPED = Path(__file__).parent / "data" / "answer_gate_untyped.json"
# for questions like one of CUAD's 41 clause categories: boosted trees, which rank CUAD dev's
# hard negatives better than the logistic gate at every recall (out of sample, 5 folds by
# contract: not-found precision 88.5 -> 90.8 at 70% recall, docs/answer_gate.md)
SHIPPED_TYPED = Path(__file__).parent / "data" / "answer_gate_typed.npz"
_GATE_SCRIPT = "scripts/fit_answer_gate.py"
# the boosted trees of SHIPPED_TYPED: chosen on CUAD dev (docs/answer_gate.md, session 22)
TREE_PARAMS = {"max_iter": 200, "max_leaf_nodes": 7, "l2_regularization": 10.0,
               "learning_rate": 0.05}
KINDS = ("law", "definition", "duration", "amount", "count", "coverage", "incorporation")
FEATURES = (
    "document_coverage", "sentence_score", "sentence_words", "sentence_coverage",
    "confidence", "constants_pass", "holds_value", "asks_value",
    *(f"kind_{kind}" for kind in KINDS),
    "question_words", "best_rank", "dense_top", "dense_best", "asks_type", "type_match",
    "review_margin", "review_quoted",
)
TYPED_FEATURES = ("asks_type", "type_match", "review_margin", "review_quoted")
UNTYPED_FEATURES = tuple(f for f in FEATURES if f not in TYPED_FEATURES)


def answer_features(
    *, document_coverage: float, sentence_score: float, sentence_words: float,
    sentence_coverage: float, confidence: float, constants_pass: bool, holds_value: bool,
    asks_value: bool, kind: str | None, question_words: int, best_rank: int,
    dense_top: float | None = None, dense_best: float | None = None,
    type_match: float | None = None, review_margin: float | None = None,
    review_quoted: bool = False,
) -> dict[str, float | None]:
    """The gate's features of one would-be answer (None: unknown, read as the mean)."""
    row = {
        "document_coverage": document_coverage,
        # a very high score says no more than a high one
        "sentence_score": min(sentence_score, 1.5),
        "sentence_words": sentence_words, "sentence_coverage": min(sentence_coverage, 1.5),
        "confidence": confidence, "constants_pass": float(constants_pass),
        "holds_value": float(holds_value), "asks_value": float(asks_value),
        **{f"kind_{k}": float(kind == k) for k in KINDS},
        "question_words": math.log1p(question_words), "best_rank": float(best_rank),
        "dense_top": dense_top, "dense_best": dense_best,
        # -1: the question asks about no CUAD type; None: unknown
        "asks_type": None if type_match is None else float(type_match >= 0),
        "type_match": None if type_match is None else max(type_match, 0.0),
        # None: the review did not read the document for the question (neutral: 0, as a
        # confidence right at the presence threshold), not "it found nothing"
        "review_margin": review_margin or 0.0,
        "review_quoted": float(review_quoted),
    }
    return {name: None if value is None else round(float(value), 4)
            for name, value in row.items()}


class _Decides:
    """A gate's decision: answer where P(right) reaches the fitted ``threshold_``."""

    # mixed into a model class that has ``predict_proba`` and ``matrix``
    threshold_: float = 0.5
    predict_proba: Any
    matrix: Any

    def _extra_state(self) -> dict[str, Any]:
        return {"threshold": round(self.threshold_, 6)}

    def _load_extra_state(self, header: Mapping[str, Any]) -> None:
        self.threshold_ = float(header["threshold"])

    def predict(self, X: np.ndarray) -> np.ndarray:
        """1 (answer) where P(right) >= ``threshold_``, else 0 (not found)."""
        return (self.predict_proba(X)[:, 1] >= self.threshold_).astype(int)

    def fit_threshold(self, X: np.ndarray, y: np.ndarray,
                      sample_weight: np.ndarray | None = None) -> float:
        """The threshold on P(right) that makes the most weighted decisions right (answer a
        right answer, not-found a wrong one), of the midpoints between the fitted
        probabilities; stored as ``threshold_`` and returned."""
        y = np.asarray(y, dtype=np.float64)
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
        p = self.predict_proba(X)[:, 1]
        order = np.argsort(p)
        p, y, w = p[order], y[order], w[order]
        # cutting before position i: 0..i-1 said not found, i.. answered
        wrong_below = np.concatenate([[0.0], np.cumsum(w * (1 - y))])
        right_above = np.concatenate([np.cumsum((w * y)[::-1])[::-1], [0.0]])
        scores = wrong_below + right_above
        cuts = np.concatenate([[0.0], (p[:-1] + p[1:]) / 2, [1.0]])
        valid = np.concatenate([[True], p[:-1] < p[1:], [True]])
        best = int(np.argmax(np.where(valid, scores, -np.inf)))
        self.threshold_ = float(cuts[best])
        return self.threshold_

    def right_probability(self, features: Mapping[str, float | None]) -> float:
        """P(right) of one would-be answer's :func:`answer_features`."""
        return float(self.predict_proba(self.matrix([features]))[0, 1])

    def answers(self, features: Mapping[str, float | None]) -> tuple[bool, float]:
        """(answer or not found, P(right)) of one would-be answer."""
        probability = self.right_probability(features)
        return probability >= self.threshold_, probability


class AnswerGate(_Decides, FeatureLogistic):
    """P(the direct answer is right) from :data:`FEATURES` (a
    :class:`~clausegraph.learn.FeatureLogistic`); ``predict`` says answer (1) or not found
    (0) at the fitted ``threshold_``."""

    FORMAT = FORMAT
    FORMAT_VERSION = FORMAT_VERSION
    WHAT = "an answer gate"

    def __init__(self, C: float = 1.0, features: Sequence[str] = FEATURES,
                 max_iter: int = 50) -> None:
        FeatureLogistic.__init__(self, C=C, features=features, max_iter=max_iter)
        self.threshold_ = 0.5


class TreeAnswerGate(_Decides, BoostedTrees):
    """The same decision from boosted trees (:class:`~clausegraph.learn.trees.BoostedTrees`,
    fitted with scikit-learn, predicted with NumPy): the gate of questions that ask about a
    CUAD clause type (:class:`TypedSplitGate`)."""

    FORMAT = "clausegraph-answer-gate-trees"
    FORMAT_VERSION = 1
    WHAT = "an answer gate of boosted trees"

    def __init__(self, features: Sequence[str] = FEATURES, **params: Any) -> None:
        BoostedTrees.__init__(self, features=features, **params)
        self.threshold_ = 0.5


Gate = AnswerGate | TreeAnswerGate


class TypedSplitGate:
    """Two gates, one answer each: ``typed`` decides the answers to questions like one of
    CUAD's clause categories (the ``asks_type`` feature is 1), ``other`` the rest. The
    questions of the two kinds are nearly disjoint by source (of the collected rows, 2,603
    of 2,645 CUAD asks and 22 of 290 policy questions are typed), and a model fitted on
    both ranks each kind differently (docs/answer_gate.md, session 22)."""

    def __init__(self, typed: Gate, other: Gate) -> None:
        self.typed, self.other = typed, other

    def gate_for(self, features: Mapping[str, float | None]) -> Gate:
        return self.typed if features.get("asks_type") == 1.0 else self.other

    @property
    def threshold_(self) -> float:
        """The threshold of the untyped questions' gate (what a policy question meets)."""
        return self.other.threshold_

    def right_probability(self, features: Mapping[str, float | None]) -> float:
        return self.gate_for(features).right_probability(features)

    def answers(self, features: Mapping[str, float | None]) -> tuple[bool, float]:
        """(answer or not found, P(right)) of one would-be answer, by its kind's gate."""
        return self.gate_for(features).answers(features)


AnyGate = Gate | TypedSplitGate


def fit_gate(rows: Sequence[Mapping[str, Any]], C: float = 1.0,
             features: Sequence[str] = FEATURES, fit_unsure: bool = True,
             unsure_gain: float = 1.0, trees: Mapping[str, Any] | None = None) -> Gate:
    """A gate and its threshold fitted on collected rows (scripts/fit_answer_gate.py): each
    with its ``features`` (None: no sentence to answer with, never answered: left out),
    ``label`` (1: the would-be answer is right), ``answerable`` (the document holds the
    answer) and ``source`` (policy, cuad).

    The regression fits ``label``, each source weighing the same in total (the policies'
    few hundred questions count as much as the CUAD asks); ``fit_unsure=False`` leaves out
    the rows whose document answers but whose sentence is wrong. The threshold is the one
    that makes the most not-found decisions right, per source (as a share of its rows) and
    then averaged: an answerable question answered, an unanswerable one said not found, as
    the benchmarks' not-found figures count them (CUAD's not-found precision counts every
    not-found on a positive as wrong, bench_policies counts "answerable said not found");
    an answerable question whose answer is wrong counts ``unsure_gain`` (0..1) of a right
    one when answered (0: only what the direct-answer figures count). ``trees``: fit a
    :class:`TreeAnswerGate` with these parameters instead of the logistic gate."""
    usable = [r for r in rows if r.get("features")]
    sources = sorted({r["source"] for r in usable})
    gate: Gate = AnswerGate(C=C, features=features) if trees is None \
        else TreeAnswerGate(features=features, **trees)
    X = gate.matrix([r["features"] for r in usable])
    y = np.array([int(r["label"]) for r in usable])
    answerable = np.array([bool(r["answerable"]) for r in usable])
    source = np.array([r["source"] for r in usable])
    fit_weight = np.zeros(len(usable))
    threshold_weight = np.zeros(len(usable))
    for name in sources:
        own = source == name
        kept = own & (fit_unsure | ~answerable | (y == 1))
        fit_weight[kept] = len(usable) / (len(sources) * kept.sum())
        threshold_weight[own] = 1.0 / (len(sources) * own.sum())
    threshold_weight[answerable & (y == 0)] *= unsure_gain
    kept = fit_weight > 0
    gate.fit(X[kept], y[kept], fit_weight[kept])
    gate.fit_threshold(X, answerable.astype(int), threshold_weight)
    return gate


def fit_split_gate(rows: Sequence[Mapping[str, Any]], C: float = 1.0,
                   features: Sequence[str] = FEATURES,
                   trees: Mapping[str, Any] = TREE_PARAMS, **options: Any) -> TypedSplitGate:
    """The shipped design (:class:`TypedSplitGate`): boosted trees for typed questions, the
    logistic gate for the others, each fitted on all ``rows`` as :func:`fit_gate` fits."""
    return TypedSplitGate(fit_gate(rows, C, features, trees=trees, **options),
                          fit_gate(rows, C, features, **options))


def shipped_gate(typed: bool = True) -> AnyGate:
    """The gate shipped with the package (loaded once): for typed questions the split gate
    (:class:`TypedSplitGate`, boosted trees for questions like a CUAD category), else the
    logistic gate fitted without the question-type features."""
    if not typed:
        return _load(SHIPPED_UNTYPED)
    return _split()


@lru_cache(maxsize=1)
def _split() -> TypedSplitGate:
    return TypedSplitGate(load_shipped(TreeAnswerGate.load, SHIPPED_TYPED,
                                       "the answer gate's trees", _GATE_SCRIPT), _load(SHIPPED))


@lru_cache(maxsize=2)
def _load(path: Path) -> AnswerGate:
    return load_shipped(AnswerGate.load, path, "the answer gate", _GATE_SCRIPT)


_OFF = "off"
_ACTIVE: ContextVar[AnyGate | str | None] = ContextVar("answer_gate", default=None)


def active_gate(typed: bool = True) -> AnyGate | None:
    """The gate direct answers use here: the shipped one (for a typed question or not),
    unless :func:`using_gate` says otherwise (None: no gate, every answer that has a
    sentence is given)."""
    gate = _ACTIVE.get()
    if gate == _OFF:
        return None
    return shipped_gate(typed) if gate is None else gate  # type: ignore[return-value]


@contextmanager
def using_gate(gate: AnyGate | None) -> Iterator[None]:
    """Answer with ``gate`` inside the block (None: the gate off, as when collecting the
    features and outcomes a gate is fitted on)."""
    token = _ACTIVE.set(_OFF if gate is None else gate)
    try:
        yield
    finally:
        _ACTIVE.reset(token)
