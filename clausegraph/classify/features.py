"""Lexical features of a clause: hashed word uni- and bigrams, TF-IDF weighted, unit length.

The hash is CRC-32 of the UTF-8 token (fixed across processes and machines, unlike Python's
salted ``hash``), so inference needs no vocabulary file: only the IDF of each hash bucket,
learned on the training clauses and saved with the model. Tokens are the BM25 tokens
(:func:`clausegraph.text.tokenize.tokenize`: lower-cased, stop words dropped, stemmed), so
"terminates" and "termination" share a feature as they do in search.

A date written in digits alone ("2024-03-01", "01/03/2024") is read as the month-name form
CUAD's contracts use ("March 1, 2024", :func:`spelled_dates`): the model learned a date from
its month word, and a contract that writes its dates in digits would otherwise hold no date
for it (an ISO-dated commencement clause read as no Effective Date at all,
tests/answer/test_style_variants.py).
"""

from __future__ import annotations

import calendar
import zlib
from collections import Counter
from collections.abc import Sequence

import numpy as np

from clausegraph.text.tokenize import tokenize
from clausegraph.text.values import numeric_dates

SparseRow = tuple[np.ndarray, np.ndarray]  # (bucket ids, values)


def spelled_dates(text: str) -> str:
    """``text`` with each date written in digits alone in the month-name form ("March 1,
    2024"); other text, and dates that name their month, unchanged."""
    parts, at = [], 0
    for value in sorted(numeric_dates(text), key=lambda v: v.start):
        if value.start < at:
            continue
        year, month, day = (int(x) for x in value.iso.split("-"))
        parts += [text[at:value.start], f"{calendar.month_name[month]} {day}, {year}"]
        at = value.end
    return "".join(parts) + text[at:] if parts else text


def term_bucket(term: str, buckets: int) -> int:
    """The hash bucket of one term: CRC-32 of its UTF-8 bytes (stable across runs and
    machines, unlike ``hash``), modulo ``buckets``."""
    return zlib.crc32(term.encode("utf-8")) % buckets


def hashed_terms(text: str, buckets: int) -> Counter[int]:
    """Counts of the hash buckets of ``text``'s token unigrams and adjacent bigrams."""
    # each spelling as it is written: the shipped clause-type, question-type and span-word
    # weights were fitted on these tokens before the -ize family was spelt one way
    tokens = tokenize(spelled_dates(text), one_spelling=False)
    terms = tokens + [f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False)]
    return Counter(term_bucket(term, buckets) for term in terms)


def document_frequencies(texts: Sequence[str], buckets: int) -> np.ndarray:
    """In how many of ``texts`` each bucket occurs."""
    df = np.zeros(buckets, dtype=np.int64)
    for text in texts:
        df[list(hashed_terms(text, buckets))] += 1
    return df


def smooth_idf(df: np.ndarray, n_texts: int) -> np.ndarray:
    """scikit-learn's smoothed IDF: ``ln((1 + n) / (1 + df)) + 1``."""
    return (np.log((1.0 + n_texts) / (1.0 + df)) + 1.0).astype(np.float32)


def tfidf_rows(texts: Sequence[str], idf: np.ndarray) -> list[SparseRow]:
    """One sparse row per text: sublinear TF (1 + ln tf) times IDF, scaled to unit length."""
    rows = []
    for text in texts:
        counts = hashed_terms(text, len(idf))
        ids = np.fromiter(counts, dtype=np.int64, count=len(counts))
        tf = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
        values = (1.0 + np.log(tf)) * idf[ids]
        norm = float(np.linalg.norm(values))
        rows.append((ids, values / norm if norm > 0 else values))
    return rows


def sparse_product(rows: Sequence[SparseRow], weights: np.ndarray) -> np.ndarray:
    """``X @ weights`` for sparse rows ``X`` (NumPy only: no SciPy at inference)."""
    out = np.zeros((len(rows), weights.shape[1]), dtype=np.float32)
    for i, (ids, values) in enumerate(rows):
        if len(ids):
            out[i] = values @ weights[ids]
    return out


def to_csr(rows: Sequence[SparseRow], buckets: int):  # -> scipy.sparse.csr_matrix
    """The rows as a SciPy CSR matrix, for training with scikit-learn."""
    from scipy.sparse import csr_matrix

    indptr = np.cumsum([0] + [len(ids) for ids, _ in rows])
    indices = np.concatenate([ids for ids, _ in rows]) if rows else np.zeros(0, np.int64)
    data = np.concatenate([v for _, v in rows]) if rows else np.zeros(0, np.float32)
    return csr_matrix((data, indices, indptr), shape=(len(rows), buckets), dtype=np.float32)
