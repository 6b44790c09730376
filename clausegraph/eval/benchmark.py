"""LegalBench-RAG files: benchmark JSON, corpus checks, the paper's published curves."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from clausegraph.eval.data import shared_data_dir
from clausegraph.eval.metric import K_VALUES, FileSpan, Span


LEGALBENCH_DIR_ENV = "CLAUSEGRAPH_LEGALBENCH_DIR"


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


def default_legalbench_dir() -> Path:
    """``$CLAUSEGRAPH_LEGALBENCH_DIR``, else ``legalbench-rag`` in the shared data folder."""
    if os.environ.get(LEGALBENCH_DIR_ENV):
        return Path(os.environ[LEGALBENCH_DIR_ENV])
    return shared_data_dir() / "legalbench-rag"


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
