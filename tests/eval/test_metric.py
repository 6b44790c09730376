"""The LegalBench-RAG metric against hand-computed spans, and the ranking metrics of
docs/dataset mode."""

from __future__ import annotations

import math
import random

import pytest

from clausegraph.eval.metric import (
    merge_spans,
    precision_recall,
    precision_recall_at_k,
    rank_metrics,
)

# -- the LegalBench-RAG metric, hand-computed -------------------------------------------------


def test_partial_overlap():
    # R = a[0,10), G = a[5,25): 5 shared chars; 5/10 of R, 5/20 of G.
    assert precision_recall([("a", 0, 10)], [("a", 5, 25)]) == (0.5, 0.25)


def test_multiple_gold_snippets():
    # G = a[0,10) + a[20,30), R = a[5,25): shares 5 + 5 = 10 of R's 20 and of G's 20.
    assert precision_recall([("a", 5, 25)], [("a", 0, 10), ("a", 20, 30)]) == (0.5, 0.5)


def test_gold_in_two_files():
    # G = a[0,10) + b[0,30) (40 chars), R = b[10,20): all 10 retrieved chars are gold.
    assert precision_recall([("b", 10, 20)], [("a", 0, 10), ("b", 0, 30)]) == (1.0, 0.25)


def test_retrieved_span_in_wrong_file():
    # Same offsets, other file: b[0,10) counts only in the denominator of precision.
    assert precision_recall([("b", 0, 10)], [("a", 0, 10)]) == (0.0, 0.0)
    p, r = precision_recall([("b", 0, 10), ("a", 0, 5)], [("a", 0, 10)])
    assert p == pytest.approx(5 / 15) and r == 0.5


def test_overlapping_retrieved_spans_are_merged():
    # R = a[0,8) + a[4,12) = a[0,12) as a set (12 chars); G = a[0,10).
    # Merged: precision 10/12, recall 1.0 (the reference's pairwise sum would say 14/16, 1.4).
    p, r = precision_recall([("a", 0, 8), ("a", 4, 12)], [("a", 0, 10)])
    assert p == pytest.approx(10 / 12) and r == 1.0
    # The same span twice is the same characters.
    assert precision_recall([("a", 0, 10), ("a", 0, 10)], [("a", 0, 10)]) == (1.0, 1.0)


def test_empty_retrieval_and_empty_spans():
    assert precision_recall([], [("a", 0, 10)]) == (0.0, 0.0)
    assert precision_recall([("a", 3, 3)], [("a", 0, 10)]) == (0.0, 0.0)
    assert precision_recall([("a", 0, 10)], []) == (0.0, 0.0)


def test_touching_spans_do_not_overlap():
    assert precision_recall([("a", 10, 20)], [("a", 0, 10)]) == (0.0, 0.0)


def test_prefixes_at_k():
    ranked = [("a", 0, 10), ("b", 0, 10), ("a", 10, 30)]
    gold = [("a", 0, 20)]
    at = precision_recall_at_k(ranked, gold, [1, 2, 4])
    assert at[0] == (1.0, 0.5, 10)
    assert at[1] == (0.5, 0.5, 20)
    assert at[2][0] == pytest.approx(20 / 40) and at[2][1] == 1.0 and at[2][2] == 40


def test_merge_spans():
    assert merge_spans([(5, 9), (0, 3), (2, 4), (9, 9), (9, 12)]) == [(0, 4), (5, 12)]
    assert merge_spans([]) == []


def _reference(retrieved, gold):
    """ZeroEntropy legalbenchrag QAResult.precision/recall, transcribed (pairwise sums)."""
    total_r = sum(e - s for _, s, e in retrieved)
    total_g = sum(e - s for _, s, e in gold)
    hit = sum(
        max(0, min(e, ge) - max(s, gs)) for f, s, e in retrieved for gf, gs, ge in gold if f == gf
    )
    return (hit / total_r if total_r else 0), (hit / total_g if total_g else 0)


def test_agrees_with_reference_on_disjoint_spans():
    rng = random.Random(7)
    for _ in range(300):

        def disjoint(n):
            cuts = sorted(rng.sample(range(400), 2 * n))
            return [(rng.choice("ab"), cuts[2 * i], cuts[2 * i + 1]) for i in range(n)]

        retrieved, gold = disjoint(rng.randint(0, 5)), disjoint(rng.randint(1, 3))
        # within one file the reference's gold is disjoint; make retrieved disjoint per file too
        ours = precision_recall(retrieved, gold)
        assert ours == pytest.approx(_reference(retrieved, gold))


# -- ranking metrics (docs/dataset mode) ------------------------------------------------------


def test_rank_metrics_hand_computed():
    recall, ndcg, mrr = rank_metrics([(0, 10), (55, 70), (100, 120)], [(50, 60)], k=5)
    assert (recall, mrr) == (1.0, 0.5)
    assert ndcg == pytest.approx(1 / math.log2(3))
    # two excerpts found at ranks 1 and 3
    recall, ndcg, mrr = rank_metrics([(0, 5), (20, 30), (40, 45)], [(0, 3), (41, 42)], k=5)
    assert (recall, mrr) == (1.0, 1.0)
    assert ndcg == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3)))
    # binary clause relevance: two relevant clauses on one excerpt, ideal = 2 relevant clauses
    recall, ndcg, _ = rank_metrics([(0, 5), (2, 8)], [(0, 10), (50, 60)], k=5, n_relevant=2)
    assert recall == 0.5 and ndcg == pytest.approx(1.0)
    # ... but 3 clauses of the document overlap the excerpts and the third was not retrieved
    recall, ndcg, _ = rank_metrics([(0, 5), (90, 95), (2, 8)], [(0, 10)], k=5, n_relevant=3)
    assert recall == 1.0
    assert ndcg == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3) + 1 / math.log2(4)))
    # relevant only below the cut-off: MRR still sees it
    ranked = [(100 + i, 101 + i) for i in range(5)] + [(0, 5)]
    assert rank_metrics(ranked, [(0, 10)], k=5) == (0.0, 0.0, pytest.approx(1 / 6))
    # other-document clauses are passed as (-1, -1) and never relevant
    assert rank_metrics([(-1, -1)], [(0, 10)], k=5) == (0.0, 0.0, 0.0)


