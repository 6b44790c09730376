"""The LegalBench-RAG metric (character-span precision/recall) and the ranking metrics of
docs/dataset mode (Recall@k, nDCG@k, MRR). Pure functions over spans; see the package doc."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Span = tuple[int, int]


FileSpan = tuple[str, int, int]


K_VALUES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    """Sort spans and merge the ones that overlap or touch; empty spans are dropped.

    >>> merge_spans([(5, 9), (0, 3), (2, 4), (9, 9), (9, 12)])
    [(0, 4), (5, 12)]
    """
    merged: list[Span] = []
    for start, end in sorted((int(s), int(e)) for s, e in spans if e > s):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _by_file(spans: Iterable[FileSpan]) -> dict[str, list[Span]]:
    grouped: dict[str, list[Span]] = {}
    for file_path, start, end in spans:
        grouped.setdefault(file_path, []).append((start, end))
    return {f: merge_spans(s) for f, s in grouped.items()}


def _total(grouped: dict[str, list[Span]]) -> int:
    return sum(end - start for spans in grouped.values() for start, end in spans)


def _intersection(a: Sequence[Span], b: Sequence[Span]) -> int:
    """Characters shared by two sorted, disjoint span lists."""
    i = j = shared = 0
    while i < len(a) and j < len(b):
        low, high = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if high > low:
            shared += high - low
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return shared


def span_overlap(retrieved: Iterable[FileSpan], gold: Iterable[FileSpan]) -> tuple[int, int, int]:
    """(characters shared, characters retrieved, characters gold), each span set merged."""
    r, g = _by_file(retrieved), _by_file(gold)
    shared = sum(_intersection(spans, g.get(f, [])) for f, spans in r.items())
    return shared, _total(r), _total(g)


def precision_recall(
    retrieved: Iterable[FileSpan], gold: Iterable[FileSpan]
) -> tuple[float, float]:
    """LegalBench-RAG character precision and recall of one query (0 when undefined).

    >>> precision_recall([("a.txt", 0, 10)], [("a.txt", 5, 25)])
    (0.5, 0.25)
    """
    shared, n_retrieved, n_gold = span_overlap(retrieved, gold)
    precision = shared / n_retrieved if n_retrieved else 0.0
    recall = shared / n_gold if n_gold else 0.0
    return precision, recall


def precision_recall_at_k(
    ranked: Sequence[FileSpan], gold: Sequence[FileSpan], k_values: Sequence[int] = K_VALUES
) -> list[tuple[float, float, int]]:
    """(precision, recall, retrieved characters) of every prefix ``ranked[:k]``."""
    out = []
    for k in k_values:
        shared, n_retrieved, n_gold = span_overlap(ranked[:k], gold)
        out.append(
            (
                shared / n_retrieved if n_retrieved else 0.0,
                shared / n_gold if n_gold else 0.0,
                n_retrieved,
            )
        )
    return out


def overlaps(a: Span, b: Span) -> bool:
    return min(a[1], b[1]) > max(a[0], b[0])


def rank_metrics(
    ranked: Sequence[Span], expected: Sequence[Span], k: int = 5, n_relevant: int | None = None
) -> tuple[float, float, float]:
    """(Recall@k, nDCG@k, MRR) of one ranking against the expected excerpt spans.

    ``ranked`` holds the spans of the retrieved clauses in rank order, already restricted
    to the question's document (clauses of other documents are passed as ``(-1, -1)``).
    A clause is relevant when it overlaps an expected excerpt. Recall@k is the share of
    excerpts overlapped by the top k. nDCG@k uses binary clause relevance; the ideal
    ranking puts ``n_relevant`` relevant clauses first (the number of the document's clauses
    that overlap an excerpt; default: one per excerpt). MRR: 1/rank of the first relevant
    clause in the whole ranking.

    >>> rank_metrics([(0, 10), (50, 60), (100, 120)], [(55, 58)], k=5)
    (1.0, 0.6309297535714575, 0.5)
    """
    if not expected:
        return 0.0, 0.0, 0.0
    found: set[int] = set()
    dcg = 0.0
    first_relevant = 0
    for rank, span in enumerate(ranked, start=1):
        hits = {i for i, e in enumerate(expected) if overlaps(span, e)}
        if hits and not first_relevant:
            first_relevant = rank
        if rank <= k and hits:
            dcg += 1.0 / math.log2(rank + 1)
            found |= hits
    n_ideal = min(max(n_relevant if n_relevant is not None else len(expected), 1), k)
    ideal = sum(1.0 / math.log2(r + 1) for r in range(1, n_ideal + 1))
    return (
        len(found) / len(expected),
        min(dcg / ideal, 1.0),
        1.0 / first_relevant if first_relevant else 0.0,
    )
