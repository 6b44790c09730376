"""The kind of value a question asks for, learned from question wordings (issue 25: "question
kinds learned, not a fixed list").

A kind tells the direct answer what to look for: ``duration`` (a period, a deadline, an age
or a date), ``amount`` (money, a percentage, a rate), ``count``, ``coverage`` (whether, or
what, the document covers), ``definition``, ``law``, ``place``, ``method`` (how a figure is
worked out), ``contact``, ``incorporation``, or ``none``. :class:`QuestionKindModel` is a
multinomial logistic regression over the question's MiniLM vector (the packaged encoder,
whatever encoder the index uses: the weights were fitted on its vectors) and its hashed word
uni- and bigrams, question words kept ("how long" and "how many" are the signal BM25's stop
list drops). Shaped like a scikit-learn estimator: ``fit`` (scikit-learn, the ``train``
extra), ``predict_proba`` / ``predict`` with NumPy alone, ``save`` / ``load`` of one ``.npz``.

``scripts/train_question_kinds.py`` fits it on benchmarks/question_kinds/train.yaml
(questions written for it across contracts, policies, privacy notices and regulations) and
scores it against the rule it replaced on the dev labels (the policy and CUAD dev questions,
benchmarks/question_kinds/dev.yaml); docs/question_kinds.md has the figures.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.classify.features import term_bucket
from clausegraph.errors import ClauseGraphError
from clausegraph.learn import load_shipped
from clausegraph.text.tokenize import stemmed_words

log = logging.getLogger(__name__)

FORMAT = "clausegraph-question-kinds"
FORMAT_VERSION = 1
SHIPPED = Path(__file__).parent / "data" / "question_kinds.npz"
KINDS = ("duration", "amount", "count", "coverage", "definition", "law", "place", "method",
         "contact", "incorporation", "none")


def question_terms(question: str) -> list[str]:
    """Stemmed words, adjacent pairs, and the question's first two words as one term
    ("^how many"): no stop words dropped, since "how", "when" and "where" carry the kind."""
    words = stemmed_words(question)
    terms = words + [f"{a} {b}" for a, b in pairwise(words)]
    if words:
        terms.append("^" + " ".join(words[:2]))
    return terms


def hashed_questions(questions: Sequence[str], buckets: int) -> np.ndarray:
    """(n, buckets) binary rows, each scaled to unit length."""
    rows = np.zeros((len(questions), buckets), dtype=np.float32)
    for i, question in enumerate(questions):
        for term in question_terms(question):
            rows[i, term_bucket(term, buckets)] = 1.0
        norm = np.linalg.norm(rows[i])
        if norm:
            rows[i] /= norm
    return rows


class QuestionKindModel:
    """``fit(questions, vectors, kinds)``, ``predict_proba(questions, vectors)`` -> (n, K)
    over :attr:`kinds_`, ``predict`` -> kind names."""

    def __init__(self, C: float = 4.0, buckets: int = 2**12, features: str = "both",
                 max_iter: int = 2000) -> None:
        if features not in ("vector", "lexical", "both"):
            raise ValueError(f"features must be vector, lexical or both, not {features!r}")
        self.C, self.buckets, self.features, self.max_iter = C, buckets, features, max_iter
        self.kinds_: list[str] = []
        self.coef_: np.ndarray | None = None
        self.intercept_: np.ndarray | None = None
        self.embedding_model = ""

    def _matrix(self, questions: Sequence[str], vectors: np.ndarray | None) -> np.ndarray:
        parts = []
        if self.features in ("vector", "both"):
            if vectors is None:
                raise ValueError("this model reads the questions' vectors: pass them")
            parts.append(np.asarray(vectors, dtype=np.float32))
        if self.features in ("lexical", "both"):
            parts.append(hashed_questions(questions, self.buckets))
        return np.hstack(parts)

    def fit(self, questions: Sequence[str], vectors: np.ndarray | None,
            kinds: Sequence[str]) -> QuestionKindModel:
        from sklearn.linear_model import LogisticRegression

        unknown = sorted(set(kinds) - set(KINDS))
        if unknown:
            raise ValueError(f"unknown question kinds {unknown}; known: {', '.join(KINDS)}")
        model = LogisticRegression(C=self.C, max_iter=self.max_iter)
        model.fit(self._matrix(questions, vectors), list(kinds))
        self.kinds_ = [str(k) for k in model.classes_]
        coef, intercept = model.coef_, model.intercept_
        if len(self.kinds_) == 2:  # scikit-learn's binary case: one row for the second class
            coef, intercept = np.vstack([-coef[0] / 2, coef[0] / 2]), \
                np.array([-intercept[0] / 2, intercept[0] / 2])
        self.coef_, self.intercept_ = coef.astype(np.float32), intercept.astype(np.float32)
        return self

    def predict_proba(self, questions: Sequence[str],
                      vectors: np.ndarray | None = None) -> np.ndarray:
        if self.coef_ is None or self.intercept_ is None:
            raise ValueError("fit or load the model first")
        logits = self._matrix(questions, vectors) @ self.coef_.T + self.intercept_
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def predict(self, questions: Sequence[str], vectors: np.ndarray | None = None) -> list[str]:
        return [self.kinds_[i] for i in self.predict_proba(questions, vectors).argmax(axis=1)]

    def params(self) -> dict[str, Any]:
        return {"C": self.C, "buckets": self.buckets, "features": self.features}

    def save(self, path: str | Path, **facts: Any) -> None:
        header = {"format": FORMAT, "version": FORMAT_VERSION, "params": self.params(),
                  "kinds": self.kinds_, "embedding_model": self.embedding_model, **facts}
        np.savez_compressed(path, header=np.array(json.dumps(header)), coef=self.coef_,
                            intercept=self.intercept_)

    @classmethod
    def load(cls, path: str | Path) -> QuestionKindModel:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            if header.get("format") != FORMAT or header.get("version") != FORMAT_VERSION:
                raise ValueError(f"not a {FORMAT} file of version {FORMAT_VERSION}")
            model = cls(**header["params"])
            model.coef_, model.intercept_ = data["coef"], data["intercept"]
        model.kinds_ = list(header["kinds"])
        model.embedding_model = header.get("embedding_model", "")
        return model


@lru_cache(maxsize=1)
def shipped_model() -> QuestionKindModel:
    return load_shipped(QuestionKindModel.load, SHIPPED, "the question-kind model",
                        "scripts/train_question_kinds.py")


# a model used in place of the shipped one inside ``using_kind_model`` (a benchmark's fold)
_ACTIVE: ContextVar[QuestionKindModel | None] = ContextVar("question_kind_model", default=None)


@contextmanager
def using_kind_model(model: QuestionKindModel | None) -> Iterator[None]:
    """Inside the block questions are read by ``model`` (None: the shipped one)."""
    token = _ACTIVE.set(model)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


@lru_cache(maxsize=1)
def _encoder() -> Any:
    # the packaged MiniLM, whichever encoder the index uses: the weights read its vectors
    from clausegraph.embed.factory import create_embedder

    return create_embedder()


@lru_cache(maxsize=1024)
def _question_vector(question: str) -> np.ndarray:
    return _encoder().encode([question])


def learned_kind(question: str) -> str | None:
    """The model's kind for ``question`` (``"none"`` when it asks for no value), or None
    when the packaged MiniLM it reads is not installed (an index embedded by another encoder
    is asked without it; the log says so once)."""
    model = _ACTIVE.get() or shipped_model()
    vectors = None
    if model.features != "lexical":
        try:
            vectors = _question_vector(question)
        except ClauseGraphError as exc:
            _say_without_encoder(str(exc))
            return None
    return model.predict([question], vectors)[0]


@lru_cache(maxsize=8)
def _say_without_encoder(problem: str) -> None:
    log.warning("question kinds read by the hand rule, not the learned model: %s", problem)
