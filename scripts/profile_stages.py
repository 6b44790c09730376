#!/usr/bin/env python
"""Time each indexing stage (load, segment, entities, relate, embed, tokenize) on a sample.

    python scripts/profile_stages.py --every 6                  # every 6th mini document
    python scripts/profile_stages.py --every 6 --set entities.ner=all

Documents: those cited by the LegalBench-RAG mini benchmarks (``--corpus``/``--benchmarks``
as in batch_evaluate.py), every ``--every``-th in sorted order. Each is built by the
pipeline itself (``ClauseGraph.build_artifacts``, which records its stage times); nothing
is stored. Prints seconds per stage and the total over the time inside the embedding model.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from clausegraph.api import ClauseGraph
from clausegraph.config import Settings
from clausegraph.eval import default_benchmarks, default_legalbench_dir, load_benchmark


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--benchmarks", type=Path, nargs="+")
    parser.add_argument("--every", type=int, default=6, help="take every N-th document (6)")
    parser.add_argument("--set", dest="overrides", action="append", default=[])
    args = parser.parse_args(argv)
    base = default_legalbench_dir()
    corpus = args.corpus or base / "corpus"
    benchmarks = [load_benchmark(p, corpus) for p in (args.benchmarks or default_benchmarks(base))]
    files = sorted({f for b in benchmarks for f in b.files})[:: args.every]
    settings = Settings().with_overrides(args.overrides)
    with tempfile.TemporaryDirectory() as scratch:
        graph = ClauseGraph.open(scratch, settings, create=True)
        graph.embedder.encode(["warm up"])  # model loading is not a stage
        seconds: dict[str, float] = {}
        chars = 0
        for name in files:
            artifacts = graph.build_artifacts(corpus / name)
            chars += len(artifacts.document.text)
            for stage, value in artifacts.stage_seconds.items():
                seconds[stage] = seconds.get(stage, 0.0) + value
    total = sum(seconds.values())
    print(f"{len(files)} documents, {chars:,} chars, entities.ner={settings.entities.ner}")
    print("  " + ", ".join(f"{stage} {value:.1f} s" for stage, value in seconds.items()))
    print(f"  total / embed = {total / seconds['embed']:.3f}; embedding "
          f"{chars / seconds['embed']:,.0f} chars/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
