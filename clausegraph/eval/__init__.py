"""Retrieval evaluation: LegalBench-RAG character-span precision/recall and docs/dataset QA.

Two modes share one harness (``scripts/batch_evaluate.py`` and ``clausegraph evaluate``):

**LegalBench-RAG** (``evaluate_legalbench``). One index is built over every document the
benchmark queries cite (always all queries of the given files, also under ``--limit``, so
the retrieval corpus is the paper's). Each strategy retrieves the top ``max(k)`` clauses
once per query; the prefixes of that ranking are scored at every k. A retrieved item is the
clause's character span ``clause.span`` in its source ``.txt`` file.

The metric is LegalBench-RAG's (ZeroEntropy ``legalbenchrag/run_benchmark.py``,
``QAResult.precision`` / ``QAResult.recall``, averaged with equal weights per query):

- precision = characters of the retrieved spans R that overlap gold spans G *in the same
  file* / total characters of R;
- recall = characters of G covered by R / total characters of G;
- files are compared by their path relative to the corpus folder (``cuad/x.txt``); a
  retrieved span in another file contributes only to the denominator of precision;
- an empty retrieval scores precision 0 and recall 0 (the reference returns 0 when a
  denominator is 0);
- **overlapping retrieved spans are merged first** (R and G are treated as sets of
  characters). The reference sums pairwise overlaps, so it would count a character twice
  when two retrieved spans overlap (and recall could exceed 1); its own baseline cannot
  produce overlaps (disjoint 500-character chunks), so on disjoint spans the two agree
  exactly. Clause retrieval can return overlapping spans (a heading and its sub-clauses),
  and counting the same characters twice would reward redundancy;
- per dataset the metric is the plain mean over queries; "ALL" is the plain mean of the
  datasets (as in the paper's table).

**docs/dataset** (``evaluate_dataset``). Questions written for the bundled CUAD PDFs
(``docs/dataset/questions.yaml``) name a document and one or more verbatim excerpts of the
expected clause(s). Each excerpt is located in the document's canonical text with
whitespace-, quote- and dash-insensitive matching; a retrieved clause is relevant when its
span overlaps a located excerpt. Per question: Recall@k = share of expected excerpts hit by
the top k; nDCG@k with binary clause relevance, the ideal ranking putting all of the
document's relevant clauses (those overlapping an excerpt) first; MRR = 1/rank of the first
relevant clause within the retrieved depth (0 if none). Per document the mean over its
questions; "ALL" is the plain mean of the documents.

Both modes report per-strategy latency (p50/p95 of one retrieve call per query, model and
index loaded, one warm-up query not counted), peak RSS, and indexing time, chars/s and the
share of indexing time spent in the embedder.

Outputs: ``docs/eval_metrics.csv`` (long format, see ``CSV_COLUMNS``), plots under
``docs/plots/``, optional ``--dump`` JSONL of every ranking and ``--results-json``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import json
import math
import os
import re
import resource
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from clausegraph.config import PACKAGE_DIR, RULES_DIR, Settings

Span = tuple[int, int]
FileSpan = tuple[str, int, int]

K_VALUES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
ORACLE = "oracle"
"""Pseudo-strategy that returns the gold spans: a sanity check of the harness (recall 1)."""

REPO_ROOT = PACKAGE_DIR.parent
LEGALBENCH_DIR_ENV = "CLAUSEGRAPH_LEGALBENCH_DIR"
DEFAULT_CACHE_DIR = Path(".cache")
DEFAULT_CSV = Path("docs/eval_metrics.csv")
DEFAULT_PLOTS_DIR = Path("docs/plots")
DEFAULT_DATASET_DIR = Path("docs/dataset")
DEFAULT_QUESTIONS = DEFAULT_DATASET_DIR / "questions.yaml"
BUILD_RECORD = ".eval-build.json"

CSV_COLUMNS = ("mode", "variant", "strategy", "dataset", "k", "metric", "value", "n", "run_at")
CSV_HEADER = """\
# ClauseGraph retrieval evaluation (clausegraph/evaluate.py; scripts/batch_evaluate.py).
# Long format, one value per row; read with pandas.read_csv(path, comment="#").
#   mode     legalbench | dataset
#   variant  default, grid:alpha=..,beta=..,gamma=.. or edges:<EdgeType> (ablations)
#   strategy retrieval strategy name ("*" = run-level facts: indexing, memory)
#   dataset  legalbench: privacy_qa | contractnli | maud | cuad | ALL (plain mean of datasets);
#            dataset: the document (PDF name up to the first "_") | ALL (mean of documents)
#   k        cut-off (legalbench: prefix of the top-64 ranking; dataset: @k, MRR uses the depth)
#   metric   legalbench: precision, recall (LegalBench-RAG character overlap, fraction 0..1),
#              retrieved_chars (mean merged characters returned at k);
#            dataset: recall, ndcg, mrr (fractions 0..1);
#            both: latency_p50_ms, latency_p95_ms, latency_mean_ms (one retrieve call/query);
#            run-level: index_documents, index_clauses, index_chars, index_build_seconds,
#              index_chars_per_second, index_embed_seconds, index_embed_share,
#              model_load_seconds, peak_rss_mb, retrieval_peak_rss_mb
#   n        number of queries (or documents) behind the value
#   run_at   UTC time of the run that wrote the row; a later run of the same
#            (mode, variant, strategy) replaces its rows, other rows are kept
"""

# LegalBench-RAG paper, Table 5 (RCTS 500-char chunks + text-embedding-3-large, no reranker),
# values in %; the same numbers as published_baselines.json, kept here so plots work without
# the data folder. Pipitone & Houir Alami, arXiv:2408.10343v1 (2024).
PUBLISHED_RCTS: dict[str, dict[str, list[float]]] = {
    "privacy_qa": {
        "precision": [14.38, 13.55, 12.34, 9.03, 6.06, 4.17, 2.81],
        "recall": [8.85, 15.21, 27.92, 42.37, 55.12, 71.19, 84.19],
    },
    "contractnli": {
        "precision": [6.63, 5.29, 3.89, 2.81, 1.98, 1.29, 0.90],
        "recall": [7.63, 11.33, 17.34, 24.99, 35.80, 46.57, 61.72],
    },
    "maud": {
        "precision": [2.65, 1.77, 1.96, 1.40, 1.39, 1.15, 0.82],
        "recall": [1.65, 2.09, 4.59, 6.18, 12.93, 21.04, 28.28],
    },
    "cuad": {
        "precision": [1.97, 4.03, 4.83, 4.20, 2.94, 1.99, 1.25],
        "recall": [1.62, 8.11, 17.72, 31.68, 44.38, 60.04, 74.70],
    },
}
PUBLISHED_LABEL = "paper: 500-char chunks + text-embedding-3-large"

DEFAULT_GRID: dict[str, list[float]] = {
    "alpha": [0.5, 0.7, 0.9],
    "beta": [0.0, 0.1, 0.2],
    "gamma": [0.0, 0.2, 0.4],
}

# Sources whose changes change what an index contains: part of the cache key, so a cached
# index is never silently reused after the segmenter, relation rules or embedder change.
# From api.py only the functions that build a document's artifacts count (api.py changes for
# many other reasons).
_PIPELINE_SOURCES = (
    "ingest",
    "segment",
    "relate",
    "entities.py",
    "text",
    "embed",
    "store",
    "models",
)
_API_BUILD_FUNCTIONS = ("build_artifacts", "_embedding_text", "_manifest_entry")


# =============================================================================================
# The LegalBench-RAG metric
# =============================================================================================


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


# =============================================================================================
# Ranking metrics for docs/dataset mode
# =============================================================================================


def _overlaps(a: Span, b: Span) -> bool:
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
        hits = {i for i, e in enumerate(expected) if _overlaps(span, e)}
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


# =============================================================================================
# Loaders
# =============================================================================================


class GoldSnippet(BaseModel):
    file_path: str
    span: Span
    answer: str | None = None

    @property
    def file_span(self) -> FileSpan:
        return (self.file_path, self.span[0], self.span[1])


class BenchmarkQuery(BaseModel):
    query: str
    snippets: list[GoldSnippet]
    dataset: str = ""
    position: int = Field(0, description="index of the test in its benchmark file")


class Benchmark(BaseModel):
    dataset: str
    path: str
    queries: list[BenchmarkQuery]

    @property
    def files(self) -> list[str]:
        return sorted({s.file_path for q in self.queries for s in q.snippets})


def dataset_name(path: str | Path) -> str:
    """``mini_privacy_qa.json`` -> ``privacy_qa`` (the paper's dataset keys)."""
    return re.sub(r"^(mini|full|sample)_", "", Path(path).stem)


def load_benchmark(path: str | Path, corpus_dir: str | Path | None = None) -> Benchmark:
    """Read a LegalBench-RAG benchmark file ``{"tests": [{"query", "snippets"}]}``.

    With ``corpus_dir`` every snippet is checked: the file exists, the span lies inside it
    and, where the test carries an ``answer``, ``text[start:end] == answer``.
    """
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    tests = data["tests"] if isinstance(data, dict) else data
    name = dataset_name(path)
    queries = [
        BenchmarkQuery(query=t["query"], snippets=t["snippets"], dataset=name, position=i)
        for i, t in enumerate(tests)
    ]
    if corpus_dir is not None:
        _check_snippets(queries, Path(corpus_dir), path)
    return Benchmark(dataset=name, path=str(path), queries=queries)


def _check_snippets(queries: list[BenchmarkQuery], corpus: Path, source: Path) -> None:
    texts: dict[str, str] = {}
    for q in queries:
        for s in q.snippets:
            if s.file_path not in texts:
                file = corpus / s.file_path
                if not file.is_file():
                    raise ValueError(f"{source}: snippet file {file} does not exist")
                texts[s.file_path] = file.read_text(encoding="utf-8")
            text = texts[s.file_path]
            start, end = s.span
            if not 0 <= start <= end <= len(text):
                raise ValueError(
                    f"{source}: span {s.span} outside {s.file_path} ({len(text)} chars)"
                )
            if s.answer is not None and text[start:end] != s.answer:
                raise ValueError(f"{source}: span {s.span} of {s.file_path} != its answer text")


def sample_evenly(items: Sequence[Any], limit: int | None) -> list[Any]:
    """``limit`` items spread evenly over ``items`` (the mini files are sorted by document,
    so the first N queries would all come from one or two documents).

    >>> sample_evenly(list(range(10)), 3)
    [0, 3, 6]
    """
    if limit is None or limit >= len(items):
        return list(items)
    if limit <= 0:
        return []
    return [items[(i * len(items)) // limit] for i in range(limit)]


class DatasetQuestion(BaseModel):
    """One docs/dataset question: the document it is about and the expected excerpt(s)."""

    id: str
    document: str = Field(description="file name of the PDF inside the dataset folder")
    question: str
    expected: list[str] = Field(min_length=1, description="verbatim excerpts of the answer clauses")
    category: str | None = None


def load_questions(path: str | Path) -> list[DatasetQuestion]:
    """Read ``questions.yaml``: ``documents: [{file, questions: [{id, question, expected}]}]``.

    ``expected`` may be one string or a list of strings.
    """
    import yaml

    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    questions: list[DatasetQuestion] = []
    seen: set[str] = set()
    for document in data.get("documents", []):
        for i, item in enumerate(document.get("questions", []), start=1):
            expected = item["expected"]
            qid = str(item.get("id") or f"{Path(document['file']).stem[:20]}-{i:02d}")
            if qid in seen:
                raise ValueError(f"{path}: duplicate question id {qid!r}")
            seen.add(qid)
            questions.append(
                DatasetQuestion(
                    id=qid,
                    document=document["file"],
                    question=item["question"],
                    expected=[expected] if isinstance(expected, str) else list(expected),
                    category=item.get("category"),
                )
            )
    return questions


_CHAR_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u00ad": None,
        "\u200b": None,
        "\ufeff": None,
    }
)


def normalise_with_offsets(text: str) -> tuple[str, list[int]]:
    """Lower-cased text with whitespace runs collapsed to one space, quotes, dashes and
    compatibility characters (ligatures) folded; ``offsets[i]`` is the index in ``text``
    of normalised character ``i``."""
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            if chars and chars[-1] != " ":
                chars.append(" ")
                offsets.append(i)
            continue
        folded = unicodedata.normalize("NFKC", ch).translate(_CHAR_FOLD).lower()
        for c in folded:
            if c.isspace():
                if chars and chars[-1] != " ":
                    chars.append(" ")
                    offsets.append(i)
            else:
                chars.append(c)
                offsets.append(i)
    return "".join(chars), offsets


def locate_excerpt(text: str, excerpt: str, _cache: dict[int, Any] | None = None) -> Span | None:
    """Span of ``excerpt`` in ``text`` under whitespace-/quote-/case-insensitive matching.

    >>> locate_excerpt("A  term\\nmeans “X”.", 'term means "x"')
    (3, 17)
    """
    if _cache is not None and id(text) in _cache:
        norm_text, offsets = _cache[id(text)]
    else:
        norm_text, offsets = normalise_with_offsets(text)
        if _cache is not None:
            _cache[id(text)] = (norm_text, offsets)
    needle = normalise_with_offsets(excerpt)[0].strip()
    if not needle:
        return None
    at = norm_text.find(needle)
    if at < 0:
        return None
    return offsets[at], offsets[at + len(needle) - 1] + 1


def default_legalbench_dir() -> Path:
    """``$CLAUSEGRAPH_LEGALBENCH_DIR``, else ``../shared/data/legalbench-rag`` next to the repo."""
    if os.environ.get(LEGALBENCH_DIR_ENV):
        return Path(os.environ[LEGALBENCH_DIR_ENV])
    for base in (Path.cwd(), REPO_ROOT):
        candidate = (base / ".." / "shared" / "data" / "legalbench-rag").resolve()
        if candidate.is_dir():
            return candidate
    return (REPO_ROOT / ".." / "shared" / "data" / "legalbench-rag").resolve()


def default_benchmarks(legalbench_dir: Path) -> list[Path]:
    return sorted((legalbench_dir / "benchmarks").glob("mini_*.json"))


def load_published(path: str | Path | None = None) -> dict[str, dict[str, list[float]]]:
    """The paper's best curves as fractions, per dataset plus "ALL" (mean of datasets)."""
    table = PUBLISHED_RCTS
    if path is not None and Path(path).is_file():
        table = json.loads(Path(path).read_text(encoding="utf-8")).get("rcts_no_reranker", table)
    out = {
        name: {m: [v / 100.0 for v in values] for m, values in curves.items()}
        for name, curves in table.items()
    }
    if out:
        out["ALL"] = {
            m: [sum(c[m][i] for c in out.values()) / len(out) for i in range(len(K_VALUES))]
            for m in ("precision", "recall")
        }
    return out


# =============================================================================================
# Result models
# =============================================================================================


class Variant(BaseModel):
    """A strategy with RetrievalConfig overrides (``name`` 'default' = no overrides)."""

    strategy: str
    name: str = "default"
    overrides: dict[str, Any] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.strategy if self.name == "default" else f"{self.strategy}[{self.name}]"


class LatencyStats(BaseModel):
    n: int = 0
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    mean_ms: float = 0.0
    max_ms: float = 0.0

    @classmethod
    def from_seconds(cls, seconds: Sequence[float]) -> LatencyStats:
        if not seconds:
            return cls()
        import numpy as np

        ms = np.asarray(seconds, dtype=float) * 1000.0
        return cls(
            n=len(ms),
            p50_ms=float(np.percentile(ms, 50)),
            p95_ms=float(np.percentile(ms, 95)),
            mean_ms=float(ms.mean()),
            max_ms=float(ms.max()),
        )


class IndexingStats(BaseModel):
    index_dir: str
    documents: int = 0
    clauses: int = 0
    chars: int = 0
    ingested_now: int = Field(0, description="documents built by this run (0 = cache hit)")
    failed: list[str] = Field(default_factory=list)
    wall_seconds: float = Field(0.0, description="this run's ingest calls, commits included")
    build_seconds: float | None = Field(None, description="sum of per-document build times")
    chars_per_second: float | None = None
    embed_seconds: float | None = None
    embed_share: float | None = Field(None, description="embed_seconds / build_seconds")
    model_load_seconds: float = 0.0
    source: str = Field("measured", description="measured | recorded (cache) | manifest")


class MemoryStats(BaseModel):
    peak_rss_mb: float = Field(description="process peak RSS (ru_maxrss), indexing included")
    retrieval_peak_rss_mb: float = Field(0.0, description="max RSS sampled while retrieving")


class MetricRow(BaseModel):
    mode: str
    variant: str
    strategy: str
    dataset: str
    k: int | None = None
    metric: str
    value: float
    n: int = 0


class CurveScores(BaseModel):
    """Mean precision/recall/retrieved characters at each k (aligned with ``k_values``)."""

    n: int
    precision: list[float]
    recall: list[float]
    retrieved_chars: list[float]


class LegalBenchRun(BaseModel):
    strategy: str
    variant: str = "default"
    overrides: dict[str, Any] = Field(default_factory=dict)
    datasets: dict[str, CurveScores] = Field(description="per dataset plus 'ALL'")
    latency: LatencyStats

    @property
    def label(self) -> str:
        return self.strategy if self.variant == "default" else f"{self.strategy}[{self.variant}]"


class LegalBenchResult(BaseModel):
    mode: str = "legalbench"
    k_values: list[int]
    datasets: list[str]
    queries: dict[str, int] = Field(description="queries evaluated per dataset")
    limit: int | None = None
    runs: list[LegalBenchRun]
    indexing: IndexingStats | None = None
    memory: MemoryStats | None = None
    settings_overrides: list[str] = Field(default_factory=list)
    lesegr_fit: dict[str, Any] | None = Field(
        None, description="--fit-lesegr: weights file, labelled queries per dataset, weights; "
        "every strategy was then scored on the held-out queries only",
    )

    def run(self, strategy: str, variant: str = "default") -> LegalBenchRun:
        for r in self.runs:
            if r.strategy == strategy and r.variant == variant:
                return r
        raise KeyError(f"no run {strategy!r} / {variant!r}")

    def value(
        self, strategy: str, dataset: str, k: int, metric: str, variant: str = "default"
    ) -> float:
        scores = self.run(strategy, variant).datasets[dataset]
        return getattr(scores, metric)[self.k_values.index(k)]

    def rows(self) -> list[MetricRow]:
        rows: list[MetricRow] = []
        for r in self.runs:
            for dataset, scores in r.datasets.items():
                for i, k in enumerate(self.k_values):
                    for metric in ("precision", "recall", "retrieved_chars"):
                        rows.append(
                            MetricRow(
                                mode=self.mode,
                                variant=r.variant,
                                strategy=r.strategy,
                                dataset=dataset,
                                k=k,
                                metric=metric,
                                value=getattr(scores, metric)[i],
                                n=scores.n,
                            )
                        )
            rows += _latency_rows(self.mode, r.variant, r.strategy, r.latency, max(self.k_values))
        rows += _run_level_rows(self.mode, self.indexing, self.memory)
        return rows


class RankScores(BaseModel):
    n: int
    recall: float
    ndcg: float
    mrr: float


class DatasetRun(BaseModel):
    strategy: str
    variant: str = "default"
    overrides: dict[str, Any] = Field(default_factory=dict)
    documents: dict[str, RankScores] = Field(description="per document plus 'ALL'")
    latency: LatencyStats

    @property
    def label(self) -> str:
        return self.strategy if self.variant == "default" else f"{self.strategy}[{self.variant}]"


class DatasetResult(BaseModel):
    mode: str = "dataset"
    k: int
    depth: int
    scope: str
    documents: list[str]
    questions: int
    unlocated: list[str] = Field(default_factory=list, description="'id: excerpt' not found")
    runs: list[DatasetRun]
    indexing: IndexingStats | None = None
    memory: MemoryStats | None = None
    settings_overrides: list[str] = Field(default_factory=list)

    def run(self, strategy: str, variant: str = "default") -> DatasetRun:
        for r in self.runs:
            if r.strategy == strategy and r.variant == variant:
                return r
        raise KeyError(f"no run {strategy!r} / {variant!r}")

    def rows(self) -> list[MetricRow]:
        rows: list[MetricRow] = []
        for r in self.runs:
            for document, scores in r.documents.items():
                for metric in ("recall", "ndcg"):
                    rows.append(
                        MetricRow(
                            mode=self.mode,
                            variant=r.variant,
                            strategy=r.strategy,
                            dataset=document,
                            k=self.k,
                            metric=metric,
                            value=getattr(scores, metric),
                            n=scores.n,
                        )
                    )
                rows.append(
                    MetricRow(
                        mode=self.mode,
                        variant=r.variant,
                        strategy=r.strategy,
                        dataset=document,
                        k=self.depth,
                        metric="mrr",
                        value=scores.mrr,
                        n=scores.n,
                    )
                )
            rows += _latency_rows(self.mode, r.variant, r.strategy, r.latency, self.depth)
        rows += _run_level_rows(self.mode, self.indexing, self.memory)
        return rows


def _latency_rows(
    mode: str, variant: str, strategy: str, latency: LatencyStats, k: int
) -> list[MetricRow]:
    return [
        MetricRow(
            mode=mode,
            variant=variant,
            strategy=strategy,
            dataset="ALL",
            k=k,
            metric=f"latency_{name}_ms",
            value=getattr(latency, f"{name}_ms"),
            n=latency.n,
        )
        for name in ("p50", "p95", "mean")
    ]


def _run_level_rows(
    mode: str, indexing: IndexingStats | None, memory: MemoryStats | None
) -> list[MetricRow]:
    values: dict[str, float | None] = {}
    if indexing is not None:
        values.update(
            index_documents=indexing.documents,
            index_clauses=indexing.clauses,
            index_chars=indexing.chars,
            index_build_seconds=indexing.build_seconds,
            index_chars_per_second=indexing.chars_per_second,
            index_embed_seconds=indexing.embed_seconds,
            index_embed_share=indexing.embed_share,
            model_load_seconds=indexing.model_load_seconds,
        )
    if memory is not None:
        values.update(
            peak_rss_mb=memory.peak_rss_mb, retrieval_peak_rss_mb=memory.retrieval_peak_rss_mb
        )
    return [
        MetricRow(
            mode=mode,
            variant="default",
            strategy="*",
            dataset="*",
            metric=name,
            value=float(value),
            n=1,
        )
        for name, value in values.items()
        if value is not None
    ]


# =============================================================================================
# Index: cache key, build with timing
# =============================================================================================


def pipeline_fingerprint() -> str:
    """Hash of the sources and rule files that determine an index's contents."""
    digest = hashlib.sha256()
    digest.update(_api_build_source().encode())
    for name in _PIPELINE_SOURCES:
        root = PACKAGE_DIR / name
        paths = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for path in (p for p in paths if p.is_file()):
            relative = str(path.relative_to(PACKAGE_DIR))
            digest.update(relative.encode() + b"\0" + path.read_bytes())
    if RULES_DIR.is_dir():
        for path in sorted(p for p in RULES_DIR.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(RULES_DIR)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _api_build_source() -> str:
    try:
        import inspect

        from clausegraph import api

        parts = []
        for name in _API_BUILD_FUNCTIONS:
            obj = getattr(api.ClauseGraph, name, None) or getattr(api, name, None)
            parts.append(inspect.getsource(obj) if obj is not None else f"<no {name}>")
        return "\n".join(parts)
    except Exception:  # noqa: BLE001 - pipeline not importable: fall back to the whole file
        path = PACKAGE_DIR / "api.py"
        return path.read_text(encoding="utf-8") if path.is_file() else ""


def index_cache_dir(
    files: Iterable[str | Path], settings: Settings, cache_dir: str | Path = DEFAULT_CACHE_DIR
) -> Path:
    """``<cache_dir>/eval-index-<hash>``, the hash of the sorted file list, the segment and
    embedding settings and :func:`pipeline_fingerprint` (documents inside the index are
    content-addressed, so a changed file is re-ingested; an unchanged one is not)."""
    payload = {
        "files": sorted(str(Path(f).resolve()) for f in files),
        "segment": settings.segment.model_dump(mode="json"),
        "entities": settings.entities.model_dump(mode="json"),
        "embedding": settings.embedding.model_dump(mode="json"),
        "pipeline": pipeline_fingerprint(),
    }
    key = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]
    return Path(cache_dir) / f"eval-index-{key}"


@contextmanager
def _timed_encode(embedder: Any, sink: Callable[[float], None]) -> Iterator[None]:
    """Time every ``embedder.encode`` call (an instance attribute shadows the method)."""
    original = embedder.encode

    def encode(texts: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(texts)
        finally:
            sink(time.perf_counter() - started)

    embedder.encode = encode
    try:
        yield
    finally:
        try:
            del embedder.encode
        except AttributeError:
            embedder.encode = original


def build_index(
    graph: Any,
    files: Sequence[Path],
    *,
    batch_size: int = 8,
    progress: Any = None,
) -> IndexingStats:
    """Ingest ``files`` into ``graph`` (unchanged documents are skipped) and measure it.

    Files are committed in batches of ``batch_size`` so an interrupted build keeps its
    progress. Per-document build time and embedding time are recorded next to the index
    (``.eval-build.json``) so a cache hit can still report how long the build took.
    """
    started = time.perf_counter()
    embedder = graph.embedder  # load the model outside the timed region
    model_load = time.perf_counter() - started
    root = graph.store.cache_dir()  # None for a database: the record is then not kept
    record_path = Path(root) / BUILD_RECORD if root is not None else None
    record: dict[str, dict[str, float]] = {}
    if record_path is not None and record_path.is_file():
        try:
            record = json.loads(record_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            record = {}
    embed_by_file: dict[str, float] = {}
    current: list[str] = [""]

    def sink(seconds: float) -> None:
        embed_by_file[current[0]] = embed_by_file.get(current[0], 0.0) + seconds

    task = progress.add_task("indexing", total=len(files)) if progress is not None else None
    failed: list[str] = []
    ingested_now = 0
    wall_started = time.perf_counter()
    with _timed_encode(embedder, sink):
        for offset in range(0, len(files), batch_size):
            batch = list(files[offset : offset + batch_size])

            def report(name: str, done: int, total: int, offset: int = offset) -> None:
                current[0] = name  # ingest reports each file by name before building it
                if task is not None:
                    progress.update(
                        task,
                        completed=offset + done,
                        description=f"indexing {name}"[:50] if name else "indexing",
                    )

            result = graph.ingest(batch, progress=report)
            for outcome in result.outcomes:
                if outcome.status == "failed":
                    failed.append(f"{outcome.path}: {outcome.error}")
                elif outcome.status in ("ingested", "replaced") and outcome.doc_id:
                    ingested_now += 1
                    record[outcome.doc_id] = {
                        "seconds": outcome.seconds,
                        "embed_seconds": embed_by_file.get(Path(outcome.path).name, 0.0),
                    }
            if ingested_now and record_path is not None:
                record_path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    wall = time.perf_counter() - wall_started
    if task is not None:
        progress.update(task, completed=len(files), description="indexing done")
    return _indexing_stats(graph, record, ingested_now, failed, wall, model_load)


def _indexing_stats(
    graph: Any,
    record: dict[str, dict[str, float]],
    ingested_now: int,
    failed: list[str],
    wall: float,
    model_load: float,
) -> IndexingStats:
    documents = ({k: e.model_dump() for k, e in graph.store.entries().items()}
                 if graph.store.exists() else {})
    stats = IndexingStats(
        index_dir=graph.store.location,
        documents=len(documents),
        clauses=sum(int(e.get("clauses", 0)) for e in documents.values()),
        chars=sum(int(e.get("chars", 0)) for e in documents.values()),
        ingested_now=ingested_now,
        failed=failed,
        wall_seconds=round(wall, 3),
        model_load_seconds=round(model_load, 3),
    )
    if documents and all(doc_id in record for doc_id in documents):
        build = sum(record[d]["seconds"] for d in documents)
        embed = sum(record[d]["embed_seconds"] for d in documents)
        stats.build_seconds, stats.embed_seconds = build, embed
        stats.embed_share = embed / build if build else None
        stats.source = "measured" if ingested_now == len(documents) else "recorded"
    elif documents:
        stats.build_seconds = sum(float(e.get("ingest_seconds", 0.0)) for e in documents.values())
        stats.source = "manifest"
    if stats.build_seconds:
        stats.chars_per_second = stats.chars / stats.build_seconds
    return stats


def _content_ids(files: Iterable[tuple[str, Path]]) -> dict[str, str]:
    """doc id (sha256 of the bytes, as the index computes it) -> file key."""
    from clausegraph.ingest import document_id

    return {document_id(path.read_bytes()): key for key, path in files}


# =============================================================================================
# Running
# =============================================================================================


@dataclass
class Hit:
    file_path: str
    start: int
    end: int
    score: float
    clause_id: str | None = None
    doc_id: str | None = None

    def as_json(self) -> dict[str, Any]:
        item: dict[str, Any] = {
            "file_path": self.file_path,
            "span": [self.start, self.end],
            "score": round(self.score, 6),
        }
        if self.clause_id:
            item["clause_id"] = self.clause_id
        return item


def default_variants(strategies: Sequence[str] | None = None) -> list[Variant]:
    from clausegraph.strategies.factory import strategy_names

    return [Variant(strategy=s) for s in (strategies or strategy_names())]


def grid_variants(
    grid: dict[str, Sequence[float]] | None = None, strategy: str = "clausegraph"
) -> list[Variant]:
    """One clausegraph variant per combination of the grid's alpha/beta/gamma values."""
    grid = grid or DEFAULT_GRID
    names = list(grid)
    variants = []
    for values in itertools.product(*(grid[n] for n in names)):
        overrides = dict(zip(names, values))
        label = ",".join(f"{n}={v:g}" for n, v in overrides.items())
        variants.append(Variant(strategy=strategy, name=f"grid:{label}", overrides=overrides))
    return variants


def edge_type_variants(
    settings: Settings | None = None, strategy: str = "clausegraph"
) -> list[Variant]:
    """The clausegraph strategy expanding over one edge type at a time."""
    from clausegraph.models import RelationType

    hops = max(1, (settings or Settings()).retrieval.hops)
    return [
        Variant(
            strategy=strategy,
            name=f"edges:{t.value}",
            overrides={"edge_types": [t.value], "hops": hops},
        )
        for t in RelationType
    ]


def parse_grid(spec: str) -> dict[str, list[float]]:
    """``"alpha=0.5,0.7;beta=0,0.1"`` -> ``{"alpha": [0.5, 0.7], "beta": [0.0, 0.1]}``."""
    grid: dict[str, list[float]] = {}
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        name, _, values = part.partition("=")
        if not values:
            raise ValueError(f"grid part {part!r} is not name=v1,v2,...")
        grid[name.strip()] = [float(v) for v in values.split(",") if v.strip()]
    return grid


def _console(console: Any = None) -> Any:
    from rich.console import Console

    return console or Console(stderr=True)


def _progress(enabled: bool, console: Any) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not enabled,
        transient=False,
    )


def _rss_mb() -> float:
    try:
        import psutil

        return psutil.Process().memory_info().rss / 2**20
    except Exception:  # noqa: BLE001 - psutil missing or unsupported: skip sampling
        return 0.0


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024.0


def _open_graph(index_dir: Path, settings: Settings) -> Any:
    from clausegraph.api import ClauseGraph

    return ClauseGraph.open(index_dir, settings, create=True)


def _retrieve(
    graph: Any,
    query: str,
    variant: Variant,
    top_k: int,
    key_of: dict[str, str],
    documents: list[str] | None = None,
) -> list[Hit]:
    results = graph.retrieve(
        query, documents=documents, strategy=variant.strategy, top_k=top_k, **variant.overrides
    )
    return [
        Hit(
            key_of.get(r.clause.doc_id, r.clause.doc_id),
            r.clause.span[0],
            r.clause.span[1],
            float(r.score),
            r.clause.clause_id,
            r.clause.doc_id,
        )
        for r in results[:top_k]
    ]


def _check_strategies(variants: Sequence[Variant]) -> None:
    """Fail before indexing if a strategy is unknown or cannot be made (e.g. a missing file)."""
    from clausegraph.strategies.factory import create_strategy

    for name in sorted({v.strategy for v in variants} - {ORACLE}):
        create_strategy(name)  # raises ValueError naming the problem and the known strategies


def causal_grid_variants(values: Sequence[int] = range(1, 6)) -> list[Variant]:
    """CausalRAG's parameter study: ``causal-k{k}-s{s}`` for every k and s in ``values``."""
    from clausegraph.strategies.seed import causal_grid

    return [Variant(strategy=name) for name in causal_grid(values, values)]


def split_for_fit(
    selected: dict[str, list[BenchmarkQuery]], fraction: float
) -> tuple[dict[str, list[BenchmarkQuery]], dict[str, list[BenchmarkQuery]]]:
    """(labelled, held-out): ``fraction`` of each dataset's queries, spread evenly, to fit on."""
    if not 0.0 < fraction < 1.0:
        raise ValueError(f"--fit-fraction must be between 0 and 1, got {fraction}")
    labelled, held_out = {}, {}
    for dataset, queries in selected.items():
        chosen = sample_evenly(queries, max(1, math.ceil(fraction * len(queries))))
        picked = {id(q) for q in chosen}
        labelled[dataset] = chosen
        held_out[dataset] = [q for q in queries if id(q) not in picked]
    return labelled, held_out


def relevant_clauses(graph: Any, query: BenchmarkQuery, doc_of: dict[str, str]) -> list[str]:
    """Ids of the clauses whose spans overlap a gold snippet of ``query`` (the fit's labels)."""
    index = graph.index
    found: list[str] = []
    for snippet in query.snippets:
        doc_id = doc_of.get(snippet.file_path)
        if doc_id is None or doc_id not in index.entries():
            continue
        for clause in index.clauses.document_clauses(doc_id):
            if _overlaps(clause.span, snippet.span) and clause.clause_id not in found:
                found.append(clause.clause_id)
    return found


@contextmanager
def _environ(name: str, value: str) -> Iterator[None]:
    """Set one environment variable for the duration of a block, then restore it."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def fit_lesegr(
    graph: Any,
    labelled: dict[str, list[BenchmarkQuery]],
    key_of: dict[str, str],
    path: str | Path,
    settings: Settings,
) -> dict[str, Any]:
    """Fit LeSeGR's weights on the labelled queries and save them to ``path``."""
    from clausegraph.strategies.seed import fit_weights

    doc_of = {key: doc_id for doc_id, key in key_of.items()}
    pairs = [
        (q.query, relevant_clauses(graph, q, doc_of)) for qs in labelled.values() for q in qs
    ]
    weights = fit_weights(graph, [p for p in pairs if p[1]], path=path, config=settings.retrieval)
    return {
        "path": str(path),
        "labelled_queries": {d: len(qs) for d, qs in labelled.items()},
        "weights": weights,
    }


def evaluate_legalbench(
    corpus_dir: str | Path | None = None,
    benchmarks: Sequence[str | Path] | None = None,
    *,
    strategies: Sequence[str] | None = None,
    variants: Sequence[Variant] | None = None,
    settings: Settings | None = None,
    limit: int | None = None,
    k_values: Sequence[int] = K_VALUES,
    index_dir: str | Path | None = None,
    cache_dir: str | Path = DEFAULT_CACHE_DIR,
    dump: str | Path | None = None,
    progress: bool = False,
    console: Any = None,
    settings_overrides: Sequence[str] = (),
    fit_lesegr_to: str | Path | None = None,
    fit_fraction: float = 0.1,
) -> LegalBenchResult:
    """LegalBench-RAG precision@k / recall@k per strategy and dataset (see module doc).

    ``strategies`` (default: all registered, plus ``"oracle"`` if named) each run with
    their defaults; ``variants`` adds strategy+override runs (grid, edge-type ablation).
    With ``fit_lesegr_to``, LeSeGR's weights are fitted on ``fit_fraction`` of each
    dataset's queries and saved there, and every strategy is scored on the other queries.
    """
    base = default_legalbench_dir()
    corpus = Path(corpus_dir) if corpus_dir else base / "corpus"
    paths = [Path(p) for p in benchmarks] if benchmarks else default_benchmarks(base)
    if not paths:
        raise ValueError(f"no benchmark files given and none found under {base / 'benchmarks'}")
    settings = settings or Settings()
    k_values = sorted({int(k) for k in k_values})
    loaded = [load_benchmark(p, corpus) for p in paths]
    names = [b.dataset for b in loaded]
    if len(set(names)) != len(names):
        raise ValueError(f"two benchmark files map to the same dataset name: {names}")
    runs_for = list(default_variants(strategies) if strategies or not variants else [])
    runs_for += list(variants or [])
    fitted_run = any(v.strategy == "lesegr-fitted" for v in runs_for)
    _check_strategies([v for v in runs_for if not (fit_lesegr_to and v.strategy == "lesegr-fitted")])
    console = _console(console)

    files = sorted({f for b in loaded for f in b.files})
    file_paths = [corpus / f for f in files]
    root = Path(index_dir) if index_dir else index_cache_dir(file_paths, settings, cache_dir)
    graph = _open_graph(root, settings)
    selected = {b.dataset: sample_evenly(b.queries, limit) for b in loaded}

    with _progress(progress, console) as bar:
        indexing = build_index(graph, file_paths, progress=bar)
        key_of = _content_ids(zip(files, file_paths))
        graph.index  # noqa: B018 - load the index before timing retrieval
        lesegr_fit = None
        if fit_lesegr_to:
            labelled, selected = split_for_fit(selected, fit_fraction)
            lesegr_fit = fit_lesegr(graph, labelled, key_of, fit_lesegr_to, settings)
            if not fitted_run:
                runs_for.append(Variant(strategy="lesegr-fitted"))
        top_k = max(k_values)
        runs: list[LegalBenchRun] = []
        retrieval_peak = _rss_mb()
        # The lesegr-fitted strategy reads the fitted weights for this run only.
        from clausegraph.strategies.seed import LESEGR_WEIGHTS_ENV

        weights = _environ(LESEGR_WEIGHTS_ENV, str(fit_lesegr_to)) if fit_lesegr_to else None
        with weights or nullcontext(), (
            open(dump, "w", encoding="utf-8") if dump else nullcontext()
        ) as dump_file:
            for variant in runs_for:
                per_dataset: dict[str, list[list[tuple[float, float, int]]]] = {}
                latencies: list[float] = []
                total = sum(len(q) for q in selected.values())
                task = bar.add_task(variant.label, total=total)
                first = next((q for qs in selected.values() for q in qs), None)
                if first is not None and variant.strategy != ORACLE:
                    _retrieve(graph, first.query, variant, top_k, key_of)  # warm-up, untimed
                for dataset, queries in selected.items():
                    scores = per_dataset.setdefault(dataset, [])
                    for q in queries:
                        gold = [s.file_span for s in q.snippets]
                        started = time.perf_counter()
                        if variant.strategy == ORACLE:
                            hits = [Hit(f, s, e, 1.0) for f, s, e in gold]
                        else:
                            hits = _retrieve(graph, q.query, variant, top_k, key_of)
                        latencies.append(time.perf_counter() - started)
                        retrieval_peak = max(retrieval_peak, _rss_mb())
                        ranked = [(h.file_path, h.start, h.end) for h in hits]
                        scores.append(precision_recall_at_k(ranked, gold, k_values))
                        if dump_file is not None:
                            record: dict[str, Any] = {
                                "query": q.query,
                                "strategy": variant.strategy,
                                "results": [h.as_json() for h in hits],
                                "dataset": dataset,
                            }
                            if variant.name != "default":
                                record["variant"] = variant.name
                            dump_file.write(json.dumps(record, ensure_ascii=False) + "\n")
                        bar.advance(task)
                runs.append(
                    LegalBenchRun(
                        strategy=variant.strategy,
                        variant=variant.name,
                        overrides=variant.overrides,
                        datasets=_curves(per_dataset, len(k_values)),
                        latency=LatencyStats.from_seconds(latencies),
                    )
                )
    return LegalBenchResult(
        k_values=k_values,
        datasets=names,
        queries={d: len(q) for d, q in selected.items()},
        limit=limit,
        runs=runs,
        indexing=indexing,
        memory=MemoryStats(peak_rss_mb=peak_rss_mb(), retrieval_peak_rss_mb=retrieval_peak),
        settings_overrides=list(settings_overrides),
        lesegr_fit=lesegr_fit,
    )


def _curves(
    per_dataset: dict[str, list[list[tuple[float, float, int]]]], n_k: int
) -> dict[str, CurveScores]:
    out: dict[str, CurveScores] = {}
    for dataset, per_query in per_dataset.items():
        n = len(per_query)
        means = [
            [sum(q[i][j] for q in per_query) / n if n else 0.0 for i in range(n_k)]
            for j in range(3)
        ]
        out[dataset] = CurveScores(
            n=n, precision=means[0], recall=means[1], retrieved_chars=means[2]
        )
    present = [c for c in out.values() if c.n]
    if present:
        out["ALL"] = CurveScores(
            n=sum(c.n for c in present),
            precision=[sum(c.precision[i] for c in present) / len(present) for i in range(n_k)],
            recall=[sum(c.recall[i] for c in present) / len(present) for i in range(n_k)],
            retrieved_chars=[
                sum(c.retrieved_chars[i] for c in present) / len(present) for i in range(n_k)
            ],
        )
    return out


def document_label(file_name: str) -> str:
    """Short, stable name of a dataset PDF: the file name up to its first '_'."""
    return Path(file_name).stem.split("_", 1)[0]


def evaluate_dataset(
    dataset_dir: str | Path | None = None,
    questions: str | Path | None = None,
    *,
    strategies: Sequence[str] | None = None,
    variants: Sequence[Variant] | None = None,
    settings: Settings | None = None,
    limit: int | None = None,
    k: int = 5,
    depth: int = 10,
    scope: str = "document",
    index_dir: str | Path | None = None,
    cache_dir: str | Path = DEFAULT_CACHE_DIR,
    dump: str | Path | None = None,
    progress: bool = False,
    console: Any = None,
    settings_overrides: Sequence[str] = (),
) -> DatasetResult:
    """Recall@k, nDCG@k and MRR per document and strategy on the docs/dataset questions.

    ``scope="document"`` searches only the question's document (``ask --doc``);
    ``"corpus"`` searches all documents, and a clause from another document is never relevant.
    ``limit`` caps the questions per document.
    """
    dataset = Path(dataset_dir) if dataset_dir else DEFAULT_DATASET_DIR
    questions_path = Path(questions) if questions else dataset / "questions.yaml"
    if scope not in ("document", "corpus"):
        raise ValueError("scope must be 'document' or 'corpus'")
    settings = settings or Settings()
    all_questions = load_questions(questions_path)
    documents = sorted({q.document for q in all_questions})
    missing = [d for d in documents if not (dataset / d).is_file()]
    if missing:
        raise ValueError(f"questions name documents not in {dataset}: {', '.join(missing)}")
    by_doc = {
        d: sample_evenly([q for q in all_questions if q.document == d], limit) for d in documents
    }
    labels = {d: document_label(d) for d in documents}
    if len(set(labels.values())) != len(labels):
        labels = {d: Path(d).stem for d in documents}
    runs_for = list(default_variants(strategies) if strategies or not variants else [])
    runs_for += list(variants or [])
    _check_strategies(runs_for)
    console = _console(console)

    file_paths = [dataset / d for d in documents]
    root = Path(index_dir) if index_dir else index_cache_dir(file_paths, settings, cache_dir)
    graph = _open_graph(root, settings)
    with _progress(progress, console) as bar:
        indexing = build_index(graph, file_paths, progress=bar)
        key_of = _content_ids(zip(documents, file_paths))
        doc_of = {name: doc_id for doc_id, name in key_of.items()}
        index = graph.index
        located: dict[str, list[Span]] = {}
        unlocated: list[str] = []
        n_relevant: dict[str, int] = {}
        for document, qs in by_doc.items():
            doc_id = doc_of[document]
            if doc_id not in index.entries():
                unlocated += [f"{q.id}: document was not indexed" for q in qs]
                continue
            text = index.clauses.document(doc_id).text
            cache: dict[int, Any] = {}
            for q in qs:
                spans = []
                for excerpt in q.expected:
                    span = locate_excerpt(text, excerpt, cache)
                    if span is None:
                        unlocated.append(f"{q.id}: {excerpt[:60]!r}")
                    else:
                        spans.append(span)
                if spans:
                    located[q.id] = spans
                    n_relevant[q.id] = sum(
                        1
                        for c in index.clauses.document_clauses(doc_id)
                        if any(_overlaps(c.span, e) for e in spans)
                    )
        if unlocated:
            console.print(
                f"[yellow]warning:[/] {len(unlocated)} expected excerpt(s) not found "
                "in their document; those excerpts are skipped:",
                highlight=False,
            )
            for line in unlocated[:20]:
                console.print(f"  {line}", highlight=False, markup=False)

        runs: list[DatasetRun] = []
        retrieval_peak = _rss_mb()
        with open(dump, "w", encoding="utf-8") if dump else nullcontext() as dump_file:
            for variant in runs_for:
                task = bar.add_task(variant.label, total=sum(len(q) for q in by_doc.values()))
                per_doc: dict[str, list[tuple[float, float, float]]] = {}
                latencies: list[float] = []
                warm = next((q for qs in by_doc.values() for q in qs), None)
                if warm is not None and variant.strategy != ORACLE:
                    _retrieve(
                        graph,
                        warm.question,
                        variant,
                        depth,
                        key_of,
                        [warm.document] if scope == "document" else None,
                    )
                for document, qs in by_doc.items():
                    scores = per_doc.setdefault(labels[document], [])
                    for q in qs:
                        bar.advance(task)
                        if q.id not in located:
                            continue
                        expected = located[q.id]
                        started = time.perf_counter()
                        if variant.strategy == ORACLE:
                            hits = _oracle_hits(index, doc_of[document], document, expected)
                        else:
                            hits = _retrieve(
                                graph,
                                q.question,
                                variant,
                                depth,
                                key_of,
                                [document] if scope == "document" else None,
                            )
                        latencies.append(time.perf_counter() - started)
                        retrieval_peak = max(retrieval_peak, _rss_mb())
                        ranked = [
                            (h.start, h.end) if h.file_path == document else (-1, -1) for h in hits
                        ]
                        scores.append(rank_metrics(ranked, expected, k, n_relevant[q.id]))
                        if dump_file is not None:
                            record: dict[str, Any] = {
                                "query": q.question,
                                "strategy": variant.strategy,
                                "results": [h.as_json() for h in hits],
                                "question_id": q.id,
                                "document": document,
                            }
                            if variant.name != "default":
                                record["variant"] = variant.name
                            dump_file.write(json.dumps(record, ensure_ascii=False) + "\n")
                runs.append(
                    DatasetRun(
                        strategy=variant.strategy,
                        variant=variant.name,
                        overrides=variant.overrides,
                        documents=_rank_summary(per_doc),
                        latency=LatencyStats.from_seconds(latencies),
                    )
                )
    return DatasetResult(
        k=k,
        depth=depth,
        scope=scope,
        documents=[labels[d] for d in documents],
        questions=sum(len(q) for q in by_doc.values()),
        unlocated=unlocated,
        runs=runs,
        indexing=indexing,
        memory=MemoryStats(peak_rss_mb=peak_rss_mb(), retrieval_peak_rss_mb=retrieval_peak),
        settings_overrides=list(settings_overrides),
    )


def _oracle_hits(index: Any, doc_id: str, document: str, expected: list[Span]) -> list[Hit]:
    clauses = [c for c in index.clauses.document_clauses(doc_id)
               if any(_overlaps(c.span, e) for e in expected)]
    return [Hit(document, c.span[0], c.span[1], 1.0, c.clause_id, doc_id) for c in clauses]


def _rank_summary(per_doc: dict[str, list[tuple[float, float, float]]]) -> dict[str, RankScores]:
    out: dict[str, RankScores] = {}
    for document, scores in per_doc.items():
        n = len(scores)
        out[document] = RankScores(
            n=n,
            recall=sum(s[0] for s in scores) / n if n else 0.0,
            ndcg=sum(s[1] for s in scores) / n if n else 0.0,
            mrr=sum(s[2] for s in scores) / n if n else 0.0,
        )
    present = [s for s in out.values() if s.n]
    if present:
        out["ALL"] = RankScores(
            n=sum(s.n for s in present),
            recall=sum(s.recall for s in present) / len(present),
            ndcg=sum(s.ndcg for s in present) / len(present),
            mrr=sum(s.mrr for s in present) / len(present),
        )
    return out


# =============================================================================================
# Outputs: CSV, plots, tables
# =============================================================================================


def read_metrics_csv(path: str | Path) -> list[dict[str, str]]:
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(lines))


def write_metrics_csv(rows: Sequence[MetricRow], path: str | Path, merge: bool = True) -> Path:
    """Write ``rows`` (long format, ``CSV_COLUMNS``) under the ``CSV_HEADER`` comment.

    With ``merge`` the rows already in the file are kept unless this run wrote the same
    (mode, variant, strategy): so a LegalBench run and a docs/dataset run share one file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    run_at = datetime.now(UTC).isoformat(timespec="seconds")
    replaced = {(r.mode, r.variant, r.strategy) for r in rows}
    kept = [
        r
        for r in (read_metrics_csv(path) if merge else [])
        if (r.get("mode"), r.get("variant"), r.get("strategy")) not in replaced
    ]
    new = [
        {
            "mode": r.mode,
            "variant": r.variant,
            "strategy": r.strategy,
            "dataset": r.dataset,
            "k": "" if r.k is None else r.k,
            "metric": r.metric,
            "value": f"{r.value:.10g}",
            "n": r.n,
            "run_at": run_at,
        }
        for r in rows
    ]
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as handle:
        handle.write(CSV_HEADER)
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(kept + new)
    os.replace(tmp, path)
    return path


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_legalbench(
    result: LegalBenchResult,
    plots_dir: str | Path,
    published: dict[str, dict[str, list[float]]] | None = None,
) -> list[Path]:
    """``legalbench_<dataset>.png`` (and ALL): recall@k and precision@k per strategy, in %,
    with the paper's best curve dashed. Only default (non-ablation) runs are drawn."""
    plt = _pyplot()
    plots_dir = Path(plots_dir)
    plots_dir.mkdir(parents=True, exist_ok=True)
    published = published if published is not None else load_published()
    runs = [r for r in result.runs if r.variant == "default"] or result.runs
    written = []
    for dataset in [*result.datasets, "ALL"]:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
        for ax, metric in zip(axes, ("recall", "precision")):
            for r in runs:
                if dataset in r.datasets:
                    ax.plot(
                        result.k_values,
                        [100 * v for v in getattr(r.datasets[dataset], metric)],
                        marker="o",
                        ms=3,
                        label=r.label,
                    )
            paper = published.get(dataset, {}).get(metric)
            if paper:
                ax.plot(
                    K_VALUES,
                    [100 * v for v in paper],
                    "k--",
                    marker="s",
                    ms=3,
                    label=PUBLISHED_LABEL,
                )
            ax.set_xscale("log", base=2)
            ax.set_xticks(result.k_values, [str(k) for k in result.k_values])
            ax.set_xlabel("k (retrieved clauses; paper: 500-char chunks)")
            ax.set_ylabel(f"{metric} @k (%)")
            ax.grid(alpha=0.3)
        n = next((r.datasets[dataset].n for r in runs if dataset in r.datasets), 0)
        fig.suptitle(f"LegalBench-RAG-mini {dataset} ({n} queries)")
        axes[0].legend(fontsize=7, loc="best")
        fig.tight_layout()
        out = plots_dir / f"legalbench_{dataset}.png"
        fig.savefig(out, dpi=120)
        plt.close(fig)
        written.append(out)
    return written


def plot_latency(rows: Sequence[dict[str, str]], path: str | Path) -> Path | None:
    """Bar chart of p50 (bar) and p95 (whisker) retrieval latency per strategy and mode,
    drawn from the CSV rows so both modes appear once both have run."""
    plt = _pyplot()
    data: dict[str, dict[str, tuple[float, float]]] = {}
    for r in rows:
        if (
            r["variant"] != "default"
            or r["strategy"] in ("*", ORACLE)
            or r["metric"] != "latency_p50_ms"
        ):
            continue
        p95 = next(
            (
                float(x["value"])
                for x in rows
                if x["mode"] == r["mode"]
                and x["variant"] == "default"
                and x["strategy"] == r["strategy"]
                and x["metric"] == "latency_p95_ms"
            ),
            float(r["value"]),
        )
        data.setdefault(r["mode"], {})[r["strategy"]] = (float(r["value"]), p95)
    if not data:
        return None
    fig, axes = plt.subplots(1, len(data), figsize=(5.5 * len(data), 4), squeeze=False)
    for ax, (mode, values) in zip(axes[0], sorted(data.items())):
        names = sorted(values)
        p50 = [values[n][0] for n in names]
        p95 = [values[n][1] for n in names]
        ax.bar(names, p50, color="tab:blue", label="p50")
        ax.errorbar(
            names,
            p50,
            yerr=[[0] * len(names), [b - a for a, b in zip(p50, p95)]],
            fmt="none",
            ecolor="k",
            capsize=4,
            label="p95",
        )
        ax.set_title(f"{mode}: retrieval latency per query")
        ax.set_ylabel("ms")
        ax.tick_params(axis="x", rotation=30)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
        ax.legend()
        ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_dataset(result: DatasetResult, plots_dir: str | Path) -> Path:
    """``dataset_retrieval.png``: Recall@k, nDCG@k and MRR (ALL) per strategy."""
    plt = _pyplot()
    import numpy as np

    runs = [r for r in result.runs if r.variant == "default" and "ALL" in r.documents]
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(runs) + 2), 4))
    x = np.arange(len(runs))
    for i, (metric, label) in enumerate(
        (
            ("recall", f"Recall@{result.k}"),
            ("ndcg", f"nDCG@{result.k}"),
            ("mrr", f"MRR (depth {result.depth})"),
        )
    ):
        ax.bar(
            x + (i - 1) * 0.27,
            [getattr(r.documents["ALL"], metric) for r in runs],
            0.27,
            label=label,
        )
    ax.set_xticks(x, [r.label for r in runs], rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_title(
        f"docs/dataset: {result.questions} questions over {len(result.documents)} contracts"
    )
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    out = Path(plots_dir) / "dataset_retrieval.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def print_legalbench(
    result: LegalBenchResult, console: Any, published: dict[str, Any] | None = None
) -> None:
    from rich.table import Table

    published = published if published is not None else load_published()
    defaults = [r for r in result.runs if r.variant == "default"]
    for r in defaults:
        table = Table(title=f"{r.label}: precision / recall @k (%)")
        table.add_column("dataset")
        table.add_column("n", justify="right")
        for k in result.k_values:
            table.add_column(f"@{k}", justify="right")
        for dataset, scores in r.datasets.items():
            table.add_row(
                dataset,
                str(scores.n),
                *(
                    f"{100 * p:.1f} / {100 * rc:.1f}"
                    for p, rc in zip(scores.precision, scores.recall)
                ),
            )
        console.print(table)
    summary = Table(title="LegalBench-RAG summary (ALL = mean of datasets, %)")
    for column in ("run", "P@1", "P@8", "R@1", "R@8", "R@64", "chars@8", "p50 ms", "p95 ms"):
        summary.add_column(column, justify="left" if column == "run" else "right", overflow="fold")

    def cell(r: LegalBenchRun, metric: str, k: int) -> str:
        if "ALL" not in r.datasets or k not in result.k_values:
            return "-"
        value = getattr(r.datasets["ALL"], metric)[result.k_values.index(k)]
        return f"{value:.0f}" if metric == "retrieved_chars" else f"{100 * value:.2f}"

    for r in result.runs:
        summary.add_row(
            r.label,
            cell(r, "precision", 1),
            cell(r, "precision", 8),
            cell(r, "recall", 1),
            cell(r, "recall", 8),
            cell(r, "recall", 64),
            cell(r, "retrieved_chars", 8),
            f"{r.latency.p50_ms:.1f}",
            f"{r.latency.p95_ms:.1f}",
        )
    if "ALL" in published:
        p = published["ALL"]
        summary.add_row(
            "paper (Table 5)",
            f"{100 * p['precision'][0]:.2f}",
            f"{100 * p['precision'][3]:.2f}",
            f"{100 * p['recall'][0]:.2f}",
            f"{100 * p['recall'][3]:.2f}",
            f"{100 * p['recall'][6]:.2f}",
            "~4000",
            "",
            "",
        )
    console.print(summary)
    _print_run_facts(result.indexing, result.memory, console)


def print_dataset(result: DatasetResult, console: Any) -> None:
    from rich.table import Table

    table = Table(
        title=f"docs/dataset: Recall@{result.k} / nDCG@{result.k} / MRR "
        f"(depth {result.depth}, scope {result.scope})"
    )
    table.add_column("run", overflow="fold")
    for document in [*result.documents, "ALL"]:
        table.add_column(document, justify="right")
    table.add_column("p50 ms", justify="right")
    table.add_column("p95 ms", justify="right")
    for r in result.runs:
        cells = []
        for document in [*result.documents, "ALL"]:
            s = r.documents.get(document)
            cells.append(f"{s.recall:.2f} / {s.ndcg:.2f} / {s.mrr:.2f}" if s else "-")
        table.add_row(r.label, *cells, f"{r.latency.p50_ms:.1f}", f"{r.latency.p95_ms:.1f}")
    console.print(table)
    if result.unlocated:
        console.print(f"{len(result.unlocated)} expected excerpt(s) could not be located.")
    _print_run_facts(result.indexing, result.memory, console)


def _print_run_facts(
    indexing: IndexingStats | None, memory: MemoryStats | None, console: Any
) -> None:
    if indexing is not None:
        parts = [
            (
                f"index {indexing.index_dir}: {indexing.documents} documents, "
                f"{indexing.clauses} clauses, {indexing.chars:,} chars"
            )
        ]
        if indexing.build_seconds:
            parts.append(
                f"built in {indexing.build_seconds:.1f} s "
                f"({indexing.chars_per_second:,.0f} chars/s, {indexing.source})"
            )
        if indexing.embed_share is not None:
            parts.append(f"embedding {100 * indexing.embed_share:.0f}% of it")
        parts.append(f"this run ingested {indexing.ingested_now} in {indexing.wall_seconds:.1f} s")
        console.print("; ".join(parts), highlight=False)
        for failure in indexing.failed:
            console.print(f"[red]failed:[/] {failure}", highlight=False)
    if memory is not None:
        console.print(
            f"peak RSS {memory.peak_rss_mb:,.0f} MB (process), "
            f"{memory.retrieval_peak_rss_mb:,.0f} MB while retrieving",
            highlight=False,
        )


# =============================================================================================
# Command line (scripts/batch_evaluate.py and `clausegraph evaluate`)
# =============================================================================================


def build_parser(prog: str = "batch_evaluate.py") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Evaluate ClauseGraph retrieval strategies. LegalBench-RAG mode (default): "
        "character-overlap precision/recall@k per dataset. docs/dataset mode (--dataset or "
        "--questions): Recall@k, nDCG@k, MRR per document. Both: latency, memory, indexing.",
    )
    lb = parser.add_argument_group("LegalBench-RAG mode")
    lb.add_argument(
        "--corpus",
        type=Path,
        help="corpus folder (default: "
        "../shared/data/legalbench-rag/corpus or $CLAUSEGRAPH_LEGALBENCH_DIR/corpus)",
    )
    lb.add_argument(
        "--benchmarks",
        type=Path,
        nargs="+",
        help="benchmark JSON files (default: the four benchmarks/mini_*.json)",
    )
    lb.add_argument(
        "--k",
        default=",".join(map(str, K_VALUES)),
        help="comma-separated k values (default 1,2,4,8,16,32,64)",
    )
    lb.add_argument(
        "--published",
        type=Path,
        help="published_baselines.json for the paper "
        "curves (default: next to the corpus, else built-in numbers)",
    )
    lb.add_argument(
        "--fit-lesegr",
        type=Path,
        metavar="FILE",
        help="fit LeSeGR's weights on a labelled split of the queries, save them to FILE, add "
        "the 'lesegr-fitted' strategy and score every strategy on the held-out queries",
    )
    lb.add_argument(
        "--fit-fraction", type=float, default=0.1, help="share of queries labelled for the fit (0.1)"
    )
    lb.add_argument(
        "--causal-grid",
        action="store_true",
        help="also run CausalRAG's k,s grid (causal-k1-s1 ... causal-k5-s5)",
    )
    ds = parser.add_argument_group("docs/dataset mode")
    ds.add_argument("--dataset", type=Path, help="folder of PDFs (e.g. docs/dataset)")
    ds.add_argument(
        "--questions", type=Path, help="questions YAML (default: <dataset>/questions.yaml)"
    )
    ds.add_argument("--at", type=int, default=5, help="cut-off for Recall@k and nDCG@k (5)")
    ds.add_argument(
        "--depth", type=int, default=10, help="clauses retrieved per question; MRR depth (10)"
    )
    ds.add_argument(
        "--scope",
        choices=("document", "corpus"),
        default="document",
        help="search the question's document only (default) or all documents",
    )
    common = parser.add_argument_group("common")
    common.add_argument(
        "--strategies",
        help="comma-separated strategies (default: all "
        "registered; 'oracle' returns the gold spans as a sanity check)",
    )
    common.add_argument(
        "--limit",
        type=int,
        help="queries per dataset (questions per document), spread evenly over the file",
    )
    common.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="SECTION.FIELD=VALUE",
        help="settings override (repeatable)",
    )
    common.add_argument(
        "--grid",
        action="store_true",
        help="also run an alpha/beta/gamma grid for the clausegraph strategy",
    )
    common.add_argument(
        "--grid-values",
        help="grid as 'alpha=0.5,0.7;beta=0,0.1;gamma=0,0.2' "
        f"(default {';'.join(f'{k}=' + ','.join(map(str, v)) for k, v in DEFAULT_GRID.items())})",
    )
    common.add_argument(
        "--edge-type-ablation",
        action="store_true",
        help="also run the clausegraph strategy with each single edge type",
    )
    common.add_argument("--dump", type=Path, help="write every ranking to this JSONL file")
    common.add_argument(
        "--out", type=Path, default=DEFAULT_CSV, help="metrics CSV (docs/eval_metrics.csv)"
    )
    common.add_argument(
        "--no-merge", action="store_true", help="overwrite the CSV instead of merging"
    )
    common.add_argument(
        "--plots-dir", type=Path, default=DEFAULT_PLOTS_DIR, help="plot folder (docs/plots)"
    )
    common.add_argument("--no-plots", action="store_true", help="skip the plots")
    common.add_argument("--results-json", type=Path, help="also write the full result as JSON")
    common.add_argument("--index-dir", type=Path, help="use this index folder instead of the cache")
    common.add_argument(
        "--cache-dir",
        type=Path,
        default=DEFAULT_CACHE_DIR,
        help="where cached eval indexes live (.cache)",
    )
    common.add_argument("--no-progress", action="store_true", help="no progress bars")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "batch_evaluate.py") -> int:
    """Run the evaluation described by ``argv``; returns the process exit code.

    ``clausegraph evaluate`` forwards its arguments here (``prog`` names it in --help).
    """
    from rich.console import Console

    args = build_parser(prog).parse_args(list(sys.argv[1:] if argv is None else argv))
    console = Console()
    err = Console(stderr=True, soft_wrap=True)
    try:
        settings = Settings().with_overrides(args.overrides)
    except ValueError as exc:
        err.print(f"[bold red]error:[/] {str(exc).splitlines()[0]}", highlight=False)
        return 2
    strategies = (
        [s.strip() for s in args.strategies.split(",") if s.strip()] if args.strategies else None
    )
    extra: list[Variant] = []
    try:
        if args.grid or args.grid_values:
            extra += grid_variants(parse_grid(args.grid_values) if args.grid_values else None)
        if args.edge_type_ablation:
            extra += edge_type_variants(settings)
        if args.causal_grid:
            extra += causal_grid_variants()
        variants = default_variants(strategies) + extra
        dataset_mode = args.dataset is not None or args.questions is not None
        common: dict[str, Any] = {
            "variants": variants,
            "settings": settings,
            "limit": args.limit,
            "index_dir": args.index_dir,
            "cache_dir": args.cache_dir,
            "dump": args.dump,
            "progress": not args.no_progress,
            "console": err,
            "settings_overrides": args.overrides,
        }
        if dataset_mode:
            dataset_dir = args.dataset or (
                args.questions.parent if args.questions else DEFAULT_DATASET_DIR
            )
            result: LegalBenchResult | DatasetResult = evaluate_dataset(
                dataset_dir, args.questions, k=args.at, depth=args.depth, scope=args.scope, **common
            )
        else:
            k_values = [int(k) for k in args.k.split(",") if k.strip()]
            result = evaluate_legalbench(
                args.corpus, args.benchmarks, k_values=k_values, fit_lesegr_to=args.fit_lesegr,
                fit_fraction=args.fit_fraction, **common,
            )
    except (ValueError, OSError) as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        return 2
    except Exception as exc:
        from clausegraph.errors import ClauseGraphError

        if isinstance(exc, ClauseGraphError):
            err.print(f"[bold red]error:[/] {exc}", highlight=False)
            return 2
        raise

    rows = result.rows()
    csv_path = write_metrics_csv(rows, args.out, merge=not args.no_merge)
    written = [csv_path]
    if isinstance(result, LegalBenchResult):
        published_path = args.published or (
            (args.corpus.parent if args.corpus else default_legalbench_dir())
            / "published_baselines.json"
        )
        published = load_published(published_path)
        print_legalbench(result, console, published)
        if not args.no_plots:
            written += plot_legalbench(result, args.plots_dir, published)
    else:
        print_dataset(result, console)
        if not args.no_plots:
            written.append(plot_dataset(result, args.plots_dir))
    if not args.no_plots:
        latency = plot_latency(read_metrics_csv(csv_path), Path(args.plots_dir) / "latency_bar.png")
        if latency:
            written.append(latency)
    if args.results_json:
        args.results_json.parent.mkdir(parents=True, exist_ok=True)
        args.results_json.write_text(result.model_dump_json(indent=1), encoding="utf-8")
        written.append(args.results_json)
    if args.dump:
        written.append(args.dump)
    console.print("wrote " + ", ".join(str(p) for p in written), highlight=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
