"""The answer-sentence ranker: which of a question's candidate sentences states what it asks,
learned on the 22 policies' questions and CUAD train, choosing the sentence the direct answer
quotes (issues 25 and 26).

:func:`clausegraph.answer.direct.direct_answer` scores every sentence of the document's best
clauses by hand (question words held, weighted by rarity; a value of the asked kind; the
clause's retrieval rank; its heading; list and exception context). With
``RetrievalConfig.answer_sentences='learned'`` the best :data:`CANDIDATES` of them by that
score (plus the clause's CUAD type affinity times ``answer_type_prior``) are ranked again by
this model, a :class:`~clausegraph.learn.listwise.ListwiseLogistic` over the hand score's
parts and the sentence's meaning: its cosine with the question (the retrieval encoder,
MiniLM) and that cosine less the best candidate's. Fitted by
``scripts/train_sentence_ranker.py`` on which candidates state the answer (docs/
answer_sentences.md). The choice is all it changes: confidence and the not-found gate read
the chosen sentence's hand features as before.

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
  asks about, and whether it asks about one (classify/questions.py);
* ``cosine`` / ``cosine_gap``: the sentence's cosine with the question, and that less the
  best of the candidates (unknown, read as the training mean, when the caller embeds none).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

from clausegraph.answer.gate import KINDS
from clausegraph.learn import load_shipped
from clausegraph.learn.listwise import ListwiseLogistic

SHIPPED = Path(__file__).parent / "data" / "sentence_ranker.json"
FEATURES = (
    "hand_score", "coverage", "words", "has_value", "asks_value", "log_tokens", "rank",
    "title", "exclusion", "special_case", "pair", "type_affinity", "asks_type",
    *(f"kind_{kind}" for kind in KINDS), "cosine", "cosine_gap",
)
# How many of the hand score's best sentences the ranker orders again. Of 5, 10, 20 and all
# (about 15 a question), 10 chose best on the policies out of sample (docs/
# answer_sentences.md); it bounds the sentences embedded per answer.
CANDIDATES = 10


class SentenceRanker(ListwiseLogistic):
    """Scores whose softmax over a question's candidates is P(this one states the answer)."""

    FORMAT = "clausegraph-sentence-ranker"
    FORMAT_VERSION = 1
    WHAT = "an answer-sentence ranker"

    def __init__(self, C: float = 1.0, features: tuple[str, ...] | list[str] = FEATURES,
                 max_iter: int = 50) -> None:
        super().__init__(C=C, features=features, max_iter=max_iter)


@lru_cache(maxsize=1)
def shipped_ranker() -> SentenceRanker:
    """The ranker shipped with the package (loaded once)."""
    return load_shipped(SentenceRanker.load, SHIPPED, "the answer-sentence ranker",
                        "scripts/train_sentence_ranker.py")


_ACTIVE: ContextVar[SentenceRanker | None] = ContextVar("sentence_ranker", default=None)
_COLLECTED: ContextVar[list[dict[str, Any]] | None] = ContextVar("sentence_rows", default=None)


def active_ranker() -> SentenceRanker:
    """The ranker direct answers use here: the shipped one unless :func:`using_ranker`
    says otherwise."""
    return _ACTIVE.get() or shipped_ranker()


@contextmanager
def using_ranker(ranker: SentenceRanker) -> Iterator[None]:
    """Choose answer sentences with ``ranker`` inside the block (a training script's fit, a
    leave-one-out fold)."""
    token = _ACTIVE.set(ranker)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


@contextmanager
def collecting() -> Iterator[list[dict[str, Any]]]:
    """Inside the block every direct answer appends its candidate sentences (clause id,
    span in the clause, text, features) to the list yielded: what the ranker is fitted on."""
    rows: list[dict[str, Any]] = []
    token = _COLLECTED.set(rows)
    try:
        yield rows
    finally:
        _COLLECTED.reset(token)


def collector() -> list[dict[str, Any]] | None:
    return _COLLECTED.get()
