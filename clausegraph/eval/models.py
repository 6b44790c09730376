"""What an evaluation run produces: variants, latency/indexing/memory facts, per-mode
results, and the long-format metric rows written to CSV."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

ORACLE = "oracle"
"""Pseudo-strategy that returns the gold spans: a sanity check of the harness (recall 1)."""


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


class StrategyRun(BaseModel):
    """One variant's run (the scores are the mode's own)."""

    strategy: str
    variant: str = "default"
    overrides: dict[str, Any] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.strategy if self.variant == "default" else f"{self.strategy}[{self.variant}]"


def find_run(runs: Sequence[StrategyRun], strategy: str, variant: str) -> Any:
    for r in runs:
        if r.strategy == strategy and r.variant == variant:
            return r
    raise KeyError(f"no run {strategy!r} / {variant!r}")


class LegalBenchRun(StrategyRun):
    datasets: dict[str, CurveScores] = Field(description="per dataset plus 'ALL'")
    latency: LatencyStats


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
        return find_run(self.runs, strategy, variant)

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


class DatasetRun(StrategyRun):
    documents: dict[str, RankScores] = Field(description="per document plus 'ALL'")
    latency: LatencyStats


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
        return find_run(self.runs, strategy, variant)

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
