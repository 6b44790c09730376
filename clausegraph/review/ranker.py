"""The review's span ranker: P(a candidate span is one CUAD highlights for its category).

The clause-type model says how likely a clause is of a category; what the review reports
are spans (a clause's best sentences, each other sentence, the whole clause, a date or a
title, ``select.SpanCandidate``), and CUAD's metric counts a span right when its words
overlap a highlighted span's by Jaccard >= 0.5. Which of a clause's spans that is depends on
the category (CUAD highlights a whole clause for some, one sentence or several for others),
on how the sentence scores against its clause, on what the span's own words say
(``words.SpanWords``, fitted on the review's train candidates) and on how long it is against
what the category's highlights usually run to. Gradient-boosted trees over those features
(:class:`~clausegraph.learn.BoostedTrees`; chosen over a logistic regression on dev,
docs/review.md) learn it from CUAD *train*
(``scripts/train_span_ranker.py``, with clause probabilities from clause-type models that did
not see the contract: cross-fitted), and the review ranks spans by it.

The shipped trees are ``clausegraph/review/data/span_ranker.npz`` (docs/review.md has the
dev report).

CUAD's metric pools every listed span over all contracts and categories: a span matching no
highlight is a false positive at its confidence, one matching a highlight that a span
listed with a higher confidence already matched costs nothing and gains nothing. So a
category's second and later spans should be listed with the probability that they match a
highlight *none listed above them matches*, not that they match one: once a contract's
preamble is listed for Parties, the signature block naming the same parties adds nothing.
:class:`SpanNovelty`, a second set of boosted trees, learns that probability on CUAD train
from the ranker's own features and its out-of-fold probabilities plus where each span
stands among the spans the ranker puts above it (its rank, its share of the best, its
largest word overlap with one of them and how much of it they cover,
:func:`novelty_features`). The ranker's probability still decides whether a category is
found and which span leads (``select.review_items``); the novelty's is the listed
confidence of the spans after it (:class:`ReviewRanker`). Shipped as
``clausegraph/review/data/span_novelty.npz`` (``scripts/train_span_ranker.py --novelty``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.learn import BoostedTrees, load_shipped
from clausegraph.review.select import SPAN_KINDS, SPAN_SHAPES, SpanCandidate, SpanScores
from clausegraph.review.words import SpanWords, shipped_span_words

SHIPPED = Path(__file__).parent / "data" / "span_ranker.npz"
SHIPPED_NOVELTY = Path(__file__).parent / "data" / "span_novelty.npz"
_EPSILON = 1e-4

BASE_FEATURES = (
    "clause_logit", "document_best_logit", "clause_gap", "clause_rank", "sentence_logit",
    "sentence_share", "is_best_sentence", "log_words", "length_misfit", "clause_share",
    "log_sentences", *(f"kind_{kind}" for kind in SPAN_KINDS),
    "rule_rank", "sentence_rank", "sentence_gap",
)
CATEGORY_FEATURES = tuple(f"category_{name}" for name in CUAD_CATEGORIES)
# the span's own words (``review.words.SpanWords``), last so that the columns of a candidate
# cache collected before it keep their places
WORDS_FEATURE = "span_words_logit"
FEATURES = BASE_FEATURES + CATEGORY_FEATURES + (WORDS_FEATURE,)


def reads_words(kind: str, category: str) -> bool:
    """Whether the span words model reads a span of ``kind`` for ``category``: not a span
    cut down to its date (``select.SPAN_SHAPES``), whose only words are the date's (fitted
    on them, the model learned which years and months the train contracts were signed in,
    and the refitted ranker put a later date of the contract above its signing date)."""
    return not (kind == "narrowed" and SPAN_SHAPES.get(category) == "date")


# what the novelty stage reads besides the ranker's features (``novelty_features``)
NOVELTY_EXTRA = ("ranker_logit", "log_rank", "share_of_best", "max_overlap_above",
                 "covered_above", "log_repeats_above")
NOVELTY_FEATURES = FEATURES + NOVELTY_EXTRA
# the spans above a span that it is compared with: the ranker's first ten of the category
# (a category lists 70 candidates on average; the later ones rarely match a highlight). On
# the dev candidates 5, 10 and 30 score alike: AUPR 66.2 / 66.4 / 66.4, precision at 80%
# recall 22.1 / 22.1 / 21.9 (docs/review.md, session 25)
NOVELTY_REACH = 10


def _logit(p: float) -> float:
    p = min(max(p, _EPSILON), 1 - _EPSILON)
    return math.log(p / (1 - p))


def _ranks(values: Sequence[float]) -> np.ndarray:
    """0 for the largest value, 1 for the next, ... (ties share the better rank)."""
    array = np.asarray(values, dtype=np.float64)
    return np.searchsorted(np.sort(-array), -array, side="left")


def span_features(candidates: Sequence[SpanCandidate], category: str,
                  median_words: Mapping[str, float],
                  word_logits: Sequence[float] | None = None) -> list[dict[str, float | None]]:
    """The ranker's features of the candidates of one category in one document;
    ``median_words`` is the median length of CUAD's highlights per category (from the train
    labels, saved with the weights); ``word_logits`` the span words model's logit of each
    candidate (unknown when not given). Besides each span's own figures, where it stands
    among the category's candidates: by the hand rule's confidence and by its sentence's
    score."""
    if not candidates:
        return []
    best = _logit(candidates[0].document_best)
    typical = median_words.get(category) or 20.0
    rule_rank = _ranks([c.rule_confidence for c in candidates])
    sentence_rank = _ranks([c.sentence_score for c in candidates])
    top_sentence = _logit(max(c.sentence_score for c in candidates))
    rows: list[dict[str, float | None]] = []
    logits = [None] * len(candidates) if word_logits is None else [float(w) for w in word_logits]
    for candidate, by_rule, by_sentence, logit in zip(candidates, rule_rank, sentence_rank,
                                                      logits, strict=True):
        clause = _logit(candidate.clause_probability)
        sentence = _logit(candidate.sentence_score)
        words = max(candidate.words, 1)
        rows.append({
            "clause_logit": clause, "document_best_logit": best, "clause_gap": clause - best,
            "clause_rank": math.log1p(candidate.clause_rank),
            "sentence_logit": sentence,
            "sentence_share": candidate.sentence_score / max(candidate.best_sentence_score,
                                                             _EPSILON),
            "is_best_sentence": float(candidate.sentence_score >= candidate.best_sentence_score),
            "log_words": math.log(words),
            "length_misfit": abs(math.log(words / typical)),
            "clause_share": words / max(candidate.clause_words, 1),
            "log_sentences": math.log(max(candidate.sentences, 1)),
            **{f"kind_{kind}": float(candidate.kind == kind) for kind in SPAN_KINDS},
            "rule_rank": math.log1p(float(by_rule)),
            "sentence_rank": math.log1p(float(by_sentence)),
            "sentence_gap": sentence - top_sentence,
            **{f"category_{name}": float(name == category) for name in CUAD_CATEGORIES},
            WORDS_FEATURE: logit if reads_words(candidate.kind, category) else None,
        })
    return rows


@lru_cache(maxsize=8192)
def _word_set(text: str) -> frozenset[str]:
    """A span's words, lower-cased with ``.,;:`` stripped from their ends: close to the
    metric's ``eval.cuad.jaccard_words`` but not it (that one also splits at ``/`` and
    straightens quotes); the shipped novelty model (refitted in session 27) was fitted on
    these sets, so changing them means refitting it. Cached: a sentence is a candidate of many
    categories."""
    return frozenset(raw.strip(".,;:") for raw in text.lower().split()) - {""}


def novelty_features(texts: Sequence[str], highlighted: np.ndarray) -> np.ndarray:
    """(len(texts), len(NOVELTY_EXTRA)): for each span of one category in one document, its
    ranker probability (``highlighted``) as a logit, and, the spans put in the ranker's
    order: its rank, its share of the best probability, its largest word-set Jaccard with
    one of the first ``NOVELTY_REACH`` spans above it, the share of its words those spans
    hold, and how many of them it overlaps by half or more."""
    out = np.zeros((len(texts), len(NOVELTY_EXTRA)))
    if not len(texts):
        return out
    order = np.argsort(-np.asarray(highlighted), kind="stable")
    best = max(float(highlighted[order[0]]), _EPSILON)
    above: list[frozenset[str]] = []
    covered: set[str] = set()
    for rank, i in enumerate(order):
        words = _word_set(texts[i])
        overlaps = [len(words & other) / max(len(words | other), 1) for other in above]
        out[i] = (_logit(float(highlighted[i])), math.log1p(rank),
                  float(highlighted[i]) / best, max(overlaps, default=0.0),
                  len(words & covered) / max(len(words), 1),
                  math.log1p(sum(o >= 0.5 for o in overlaps)))
        if rank < NOVELTY_REACH:
            above.append(words)
            covered |= words
    return out


class SpanRanker(BoostedTrees):
    """P(CUAD highlights this span) of review candidates (``rank``), from :data:`FEATURES`
    (or a subset: the training script compares feature sets on dev)."""

    FORMAT = "clausegraph-span-ranker"
    FORMAT_VERSION = 1
    WHAT = "a span ranker"

    def __init__(self, features: Sequence[str] = FEATURES, **params: Any) -> None:
        super().__init__(features=features, **params)
        #: median words of CUAD's highlights per category (train labels)
        self.median_words_: dict[str, float] = {}
        #: the span words model whose logit the ranker reads (``WORDS_FEATURE``); the
        #: shipped one unless set
        self.words: SpanWords | None = None

    def _extra_state(self) -> dict[str, Any]:
        return {"median_words": self.median_words_}

    def _load_extra_state(self, header: Mapping[str, Any]) -> None:
        self.median_words_ = {k: float(v) for k, v in header["median_words"].items()}

    def rows(self, candidates: Sequence[SpanCandidate], category: str) -> np.ndarray:
        words = None
        if WORDS_FEATURE in self.features:
            model = self.words or shipped_span_words()
            words = model.decision_function([c.text for c in candidates], category)
        return self.matrix(span_features(candidates, category, self.median_words_, words))

    def rank(self, candidates: list[SpanCandidate], category: str) -> np.ndarray:
        """P(highlighted) of each candidate of one category (``select.SpanConfidence``)."""
        if not candidates:
            return np.zeros(0)
        return self.predict_proba(self.rows(candidates, category))[:, 1]


class SpanNovelty(BoostedTrees):
    """P(a candidate span matches a highlight that no span the ranker puts above it
    matches), from :data:`NOVELTY_FEATURES` (the module docstring says why)."""

    FORMAT = "clausegraph-span-novelty"
    FORMAT_VERSION = 1
    WHAT = "a span novelty model"

    def __init__(self, features: Sequence[str] = NOVELTY_FEATURES, **params: Any) -> None:
        super().__init__(features=features, **params)

    def novelty(self, ranker_rows: np.ndarray, texts: Sequence[str],
                highlighted: np.ndarray) -> np.ndarray:
        """The novelty of each span of one category, given the ranker's feature rows and
        probabilities."""
        rows = np.column_stack([ranker_rows, novelty_features(texts, highlighted)])
        return self.predict_proba(rows)[:, 1]


class ReviewRanker:
    """The review's span confidences (``select.SpanConfidence``): the ranker's probability
    that a span is highlighted, and the confidence it is listed with: the ranker's for its
    best span and the novelty's, at most that, for the others (or the ranker's again without
    a novelty model). On the dev candidates the best span at the ranker's probability scores
    as the novelty's for every span (AUPR 66.4 / 66.3, precision at 80% recall 22.1 / 21.9)
    and keeps the category's clause the one the ranker puts first."""

    def __init__(self, ranker: SpanRanker, novelty: SpanNovelty | None = None) -> None:
        self.ranker, self.novelty = ranker, novelty

    def __call__(self, candidates: list[SpanCandidate], category: str) -> SpanScores:
        if not candidates:
            return SpanScores(np.zeros(0), np.zeros(0))
        rows = self.ranker.rows(candidates, category)
        highlighted = self.ranker.predict_proba(rows)[:, 1]
        if self.novelty is None:
            return SpanScores(highlighted, highlighted)
        novelty = self.novelty.novelty(rows, [c.text for c in candidates], highlighted)
        # the ranker's best span leads at its own probability (it is the category's clause,
        # and nothing is above it to be new against); the others follow, never above it
        best = int(np.argmax(highlighted))
        listed = np.minimum(novelty, highlighted[best])
        listed[best] = highlighted[best]
        return SpanScores(highlighted, listed)


def shipped_review_ranker(novelty: bool = True) -> ReviewRanker:
    """The shipped ranker, with the shipped novelty model unless ``novelty`` is false."""
    return ReviewRanker(shipped_ranker(), shipped_novelty() if novelty else None)


@lru_cache(maxsize=1)
def shipped_novelty() -> SpanNovelty:
    """The span novelty model shipped with the package (loaded once)."""
    return load_shipped(SpanNovelty.load, SHIPPED_NOVELTY, "the span novelty model",
                        "scripts/train_span_ranker.py --novelty")


@lru_cache(maxsize=1)
def shipped_ranker() -> SpanRanker:
    """The span ranker shipped with the package (loaded once)."""
    return load_shipped(SpanRanker.load, SHIPPED, "the span ranker",
                        "scripts/train_span_ranker.py")
