"""Shared inputs of the evaluation tests: the bundled LegalBench-RAG sample
(tests/data/legalbench_sample: 4 excerpted documents, 8 real queries with shifted spans),
the docs/dataset PDFs, and ``clausegraph evaluate`` run in-process."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "tests" / "data" / "legalbench_sample"
SAMPLE_BENCHMARKS = sorted((SAMPLE / "benchmarks").glob("sample_*.json"))
DATASET = REPO / "docs" / "dataset"


def evaluate(*args: str):
    """``clausegraph evaluate ARGS``: the click result (exit_code, stdout, stderr)."""
    from clausegraph.cli import app

    return CliRunner().invoke(app, ["evaluate", *args])


def sample_args(tmp: Path, *extra: str) -> list[str]:
    return [
        "--corpus", str(SAMPLE / "corpus"),
        "--benchmarks", ",".join(map(str, SAMPLE_BENCHMARKS)),
        "--out", str(tmp / "eval_metrics.csv"),
        "--plots-dir", str(tmp / "plots"),
        "--index-dir", str(tmp / "index"),
        "--no-progress",
        *extra,
    ]


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("legalbench")
    done = evaluate(*sample_args(
        tmp, "--strategies", "oracle,dense,bm25,clausegraph", "--limit", "1",
        "--dump", str(tmp / "dump.jsonl"), "--results-json", str(tmp / "result.json"),
    ))
    assert done.exit_code == 0, done.output
    return tmp
