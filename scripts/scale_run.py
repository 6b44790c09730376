#!/usr/bin/env python
"""Index a whole corpus folder and report wall time, embedding share and peak memory.

    python scripts/scale_run.py --index-dir /tmp/lb/idx-full --out docs/scale_run.json

Default corpus: LegalBench-RAG's full corpus (714 documents, 79.7M characters). Documents
are committed every ``--batch-size`` files, so an interrupted run resumes where it stopped
(already indexed documents are skipped; their recorded times still count). Peak memory is
this process's maximum resident set size (model, pipeline and the global index rebuilds).
To score the benchmark queries against the large index afterwards:

    python scripts/batch_evaluate.py --index-dir /tmp/lb/idx-full --strategies clausegraph
"""

from __future__ import annotations

import argparse
import json
import platform
import shlex
import sys
import time
from pathlib import Path

from clausegraph.api import ClauseGraph
from clausegraph.eval import build_index, default_legalbench_dir, peak_rss_mb
from clausegraph.ingest import iter_input_files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="folder of documents (LegalBench-RAG corpus)")
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--batch-size", type=int, default=32, help="files per commit (32)")
    parser.add_argument("--limit", type=int, help="index only the first N files (a quick check)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)

    corpus = args.corpus or default_legalbench_dir() / "corpus"
    if not corpus.is_dir():
        print(f"error: {corpus} is not a folder of documents (give --corpus)", file=sys.stderr)
        return 2
    files = iter_input_files([corpus])[: args.limit]
    if not files:
        print(f"error: no documents under {corpus}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    graph = ClauseGraph.open(args.index_dir, create=True)
    stats = build_index(graph, files, batch_size=args.batch_size)
    load_started = time.perf_counter()
    index = graph.index
    load_seconds = time.perf_counter() - load_started
    result = {
        "command": "python scripts/scale_run.py " + shlex.join(sys.argv[1:] if argv is None else argv),
        "files": len(files),
        "indexing": stats.model_dump(mode="json"),
        "wall_over_embed": round(stats.wall_seconds / stats.embed_seconds, 3)
        if stats.embed_seconds and stats.source == "measured" else None,
        "index_load_seconds": round(load_seconds, 2),
        "clauses_loaded": index.clauses.count(),
        "total_seconds": round(time.perf_counter() - started, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "machine": f"{platform.machine()}, {platform.python_version()}",
    }
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 1 if stats.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
