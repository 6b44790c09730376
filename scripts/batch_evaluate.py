#!/usr/bin/env python
"""Batch retrieval evaluation (seed 004, section 6): ``clausegraph evaluate`` under its old name.

LegalBench-RAG-mini, all strategies, 20 queries per dataset:
    python scripts/batch_evaluate.py --limit 20
docs/dataset questions (Recall@5, nDCG@5, MRR, latency per PDF and strategy):
    python scripts/batch_evaluate.py --dataset docs/dataset --questions docs/dataset/questions.yaml

Writes runs/<UTC time>/eval_metrics.csv and plots/ (or --out-dir); see --help and
clausegraph/eval/. Needs the package installed (pip install -e .).
"""

from __future__ import annotations

import sys

from clausegraph.cli import app

if __name__ == "__main__":
    app(["evaluate", *sys.argv[1:]], prog_name="batch_evaluate.py evaluate")
