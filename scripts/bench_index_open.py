#!/usr/bin/env python
"""Open an index and retrieve a few questions: what one process pays to read an index.

    python scripts/bench_index_open.py --index-dir /tmp/s7/scale_idx --out open.json

Prints the seconds to open the index, the resident memory after opening, each question's
retrieval seconds (the first one loads BM25, the vectors and the document scoper), the
same questions asked again (what a long-lived web question worker pays), peak memory,
and the top clause ids (to check that two versions of the code rank alike). Run it
against the same index from two checkouts, one after the other, to compare versions:

    PYTHONPATH=/path/to/old/checkout python scripts/bench_index_open.py --index-dir IDX
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from clausegraph.api import ClauseGraph
from clausegraph.eval.harness import peak_rss_mb, rss_mb

QUESTIONS = (
    "What information does the company collect about children?",
    "When may either party terminate the agreement for convenience?",
    "Is there a non-compete obligation after termination?",
    "How long is the confidentiality period?",
    "Who owns the intellectual property developed under the agreement?",
    "What law governs the agreement?",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    graph = ClauseGraph.open(args.index_dir)
    count = graph.index.clauses.count()
    opened = time.perf_counter() - started
    after_open = rss_mb()
    seconds, tops = [], []
    for question in QUESTIONS:
        started = time.perf_counter()
        results = graph.retrieve(question)
        seconds.append(round(time.perf_counter() - started, 3))
        tops.append([r.clause_id for r in results[:5]])
    started = time.perf_counter()
    for question in QUESTIONS:
        graph.retrieve(question)
    result = {
        "index": str(args.index_dir),
        "clauses": count,
        "open_seconds": round(opened, 2),
        "resident_mb_after_open": round(after_open),
        "question_seconds": seconds,
        "same_questions_again_seconds": round(time.perf_counter() - started, 3),
        "peak_rss_mb": round(peak_rss_mb()),
        "top5": tops,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "top5"}, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
