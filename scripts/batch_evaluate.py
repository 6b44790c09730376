#!/usr/bin/env python
"""Batch retrieval evaluation (seed 004, section 6): a thin wrapper of clausegraph.evaluate.

LegalBench-RAG-mini, all strategies, 20 queries per dataset:
    python scripts/batch_evaluate.py --limit 20
docs/dataset questions (Recall@5, nDCG@5, MRR, latency per PDF and strategy):
    python scripts/batch_evaluate.py --dataset docs/dataset --questions docs/dataset/questions.yaml

Writes docs/eval_metrics.csv and docs/plots/*.png; see --help and clausegraph/evaluate.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run from a source checkout without installing: make the repo root importable.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clausegraph.eval import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
