"""The features of an answer's clause pool and a logistic ranker over them (the session 12
experiment of docs/policies_bench.md: not on the default path)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from clausegraph.answer.direct import (FOCUS_VALUE_BONUS, DocumentTerms, _asks_value,
                                       _score_sentences, _value_list_title, asked_words,
                                       content_tokens, question_kind)
from clausegraph.classify.categories import CUAD_CATEGORIES
from clausegraph.classify.questions import type_affinity
from clausegraph.learn import FeatureLogistic
from clausegraph.models import RetrievedClause

FEATURES = (
    "sim", "bm25_share", "dense", "dense_gap", "centrality", "support", "expanded",
    "list_item", "log_rank", "focus", "words", "has_value", "title", "asks_value",
    "log_tokens", "definition", "table", "heading_only", "affinity", "asks_type",
)
_COLUMN = {name: i for i, name in enumerate(CUAD_CATEGORIES)}


class ClauseRanker(FeatureLogistic):
    FORMAT = "clausegraph-clause-ranker-experiment"
    FORMAT_VERSION = 1
    WHAT = "a clause ranker"

    def __init__(self, C: float = 1.0, features: Sequence[str] = FEATURES) -> None:
        super().__init__(C=C, features=features)


def ranking_features(terms: DocumentTerms, question: str, results: Sequence[RetrievedClause],
                     question_types: np.ndarray | None = None) -> list[dict[str, float]]:
    tokens, kind, asked = content_tokens(question), question_kind(question), asked_words(question)
    asks_type = question_types is not None and bool(np.any(question_types))
    bm25_top = max(max(r.bm25 for r in results), 1e-9)
    dense_top = max(r.dense for r in results)
    order = sorted(range(len(results)), key=lambda i: -results[i].score)
    rank = {i: position for position, i in enumerate(order)}
    rows = []
    for i, result in enumerate(results):
        clause = result.clause
        weights = terms.weights(clause.doc_id, tokens)
        total = sum(weights.values()) or 1.0
        sentences = _score_sentences(clause, 0, weights, total, kind,
                                     list_heading=terms.list_heading(clause), asked=asked,
                                     list_title=_value_list_title(terms, clause, kind))
        best = max(sentences, key=lambda s: s.words * (1 + FOCUS_VALUE_BONUS * s.has_value),
                   default=None)
        rows.append({
            "sim": result.sim, "bm25_share": result.bm25 / bm25_top, "dense": result.dense,
            "dense_gap": dense_top - result.dense, "centrality": result.centrality,
            "support": min(result.path_support, 1.0),
            "expanded": float(result.origin == "expanded"),
            "list_item": float(result.via_seed is not None and not result.via),
            "log_rank": math.log1p(rank[i]),
            "focus": 0.0 if best is None else best.words * (1 + FOCUS_VALUE_BONUS * best.has_value),
            "words": 0.0 if best is None else best.words,
            "has_value": float(best is not None and best.has_value),
            "title": 0.0 if best is None else best.title,
            "asks_value": float(_asks_value(kind)),
            "log_tokens": math.log1p(len(clause.text.split())),
            "definition": float(clause.kind == "definition"),
            "table": float(clause.kind == "table"),
            "heading_only": float(clause.kind == "heading"),
            "affinity": type_affinity(question_types, clause.clause_types, _COLUMN)
            if asks_type else 0.0,
            "asks_type": float(asks_type),
        })
    return rows
