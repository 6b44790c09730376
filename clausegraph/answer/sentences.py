"""The answer-sentence scorer: P(a candidate sentence states what the question asks), learned
on CUAD train, choosing the sentence the direct answer quotes (issue 25).

:func:`clausegraph.answer.direct.direct_answer` scores every sentence of the document's best
clauses by hand (question words held, weighted by rarity; a value of the asked kind; the
clause's retrieval rank; its heading; list and exception context) and, before this model,
quoted the best by that score plus the clause's CUAD type affinity times a prior. This model
(a :class:`~clausegraph.learn.FeatureLogistic`) weighs the same parts, the hand score among
them, fitted on which sentences hold CUAD's highlighted text when CUAD's category
descriptions are asked of the 319 train contracts (``scripts/train_sentence_scorer.py``).
The choice is all it changes: confidence and the not-found gate still read the hand score.

The features (:data:`FEATURES`) of one sentence:

* ``hand_score``: the hand score (``direct._score_sentences``);
* ``coverage`` / ``words``: the share of the question's word weight the sentence holds with
  its heading context and the value's stand-in words / with its own words;
* ``has_value`` / ``asks_value``: whether the question asks for a value and the sentence
  holds one of that kind; ``kind_*``: the question's kind, one-hot;
* ``log_tokens``: log(1 + the sentence's words); ``rank``: the clause's retrieval rank;
  ``title``: the share of the question's weight the clause's own heading holds;
* ``exclusion``, ``special_case``, ``pair``: the sentence is in an exclusion asked about as
  cover, is the special case of the rule before it, reads with the sentence before it;
* ``type_affinity`` / ``asks_type``: how far the clause is of the CUAD type the question
  asks about, and whether it asks about one (classify/questions.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

from clausegraph.answer.gate import KINDS
from clausegraph.learn import FeatureLogistic, load_shipped

SHIPPED = Path(__file__).parent / "data" / "sentence_scorer.json"
FEATURES = (
    "hand_score", "coverage", "words", "has_value", "asks_value", "log_tokens", "rank",
    "title", "exclusion", "special_case", "pair", "type_affinity", "asks_type",
    *(f"kind_{kind}" for kind in KINDS),
)


class SentenceScorer(FeatureLogistic):
    """P(the sentence states the answer) from :data:`FEATURES`."""

    FORMAT = "clausegraph-sentence-scorer"
    FORMAT_VERSION = 1
    WHAT = "an answer-sentence scorer"

    def __init__(self, C: float = 1.0, features: tuple[str, ...] | list[str] = FEATURES,
                 max_iter: int = 50) -> None:
        super().__init__(C=C, features=features, max_iter=max_iter)


@lru_cache(maxsize=1)
def shipped_scorer() -> SentenceScorer:
    """The scorer shipped with the package (loaded once)."""
    return load_shipped(SentenceScorer.load, SHIPPED, "the answer-sentence scorer",
                        "scripts/train_sentence_scorer.py")


_ACTIVE: ContextVar[SentenceScorer | None] = ContextVar("sentence_scorer", default=None)
_COLLECTED: ContextVar[list[dict[str, Any]] | None] = ContextVar("sentence_rows", default=None)


def active_scorer() -> SentenceScorer:
    """The scorer direct answers use here: the shipped one unless :func:`using_scorer`
    says otherwise."""
    return _ACTIVE.get() or shipped_scorer()


@contextmanager
def using_scorer(scorer: SentenceScorer) -> Iterator[None]:
    """Choose answer sentences with ``scorer`` inside the block (a training script's fit)."""
    token = _ACTIVE.set(scorer)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


@contextmanager
def collecting() -> Iterator[list[dict[str, Any]]]:
    """Inside the block every direct answer appends its candidate sentences (clause id,
    span in the clause, text, features) to the list yielded: what the scorer is fitted on."""
    rows: list[dict[str, Any]] = []
    token = _COLLECTED.set(rows)
    try:
        yield rows
    finally:
        _COLLECTED.reset(token)


def collector() -> list[dict[str, Any]] | None:
    return _COLLECTED.get()
