#!/usr/bin/env python
"""Time each indexing stage (load, segment, entities, relate, embed, tokenize) on a sample.

    python scripts/profile_stages.py --every 6                  # every 6th mini document
    python scripts/profile_stages.py --every 6 --set entities.ner=all

Documents: those cited by the LegalBench-RAG mini benchmarks (``--corpus``/``--benchmarks``
as in batch_evaluate.py), every ``--every``-th in sorted order. Prints seconds per stage and
the total over the time inside the embedding model; nothing is written to an index.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clausegraph.api import _embedding_text
from clausegraph.config import Settings
from clausegraph.embed import create_embedder
from clausegraph.entities import annotate_entities
from clausegraph.evaluate import default_benchmarks, default_legalbench_dir, load_benchmark
from clausegraph.index import tokenize
from clausegraph.ingest import load_document
from clausegraph.relate import relate
from clausegraph.rules import RuleSet
from clausegraph.segment import segment


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
    embedder, rules = create_embedder(settings.embedding), RuleSet.load()
    embedder.encode(["warm up"])
    seconds = dict.fromkeys(("load", "segment", "entities", "relate", "embed", "tokenize"), 0.0)
    chars = 0

    def timed(stage: str, call):
        started = time.perf_counter()
        result = call()
        seconds[stage] += time.perf_counter() - started
        return result

    for name in files:
        document = timed("load", lambda: load_document(corpus / name))
        chars += len(document.text)
        clauses = timed("segment", lambda: segment(document, settings.segment))
        timed("entities", lambda: annotate_entities(clauses, document, settings.entities))
        timed("relate", lambda: relate(document, clauses, rules))
        texts = [_embedding_text(c) for c in clauses]
        timed("embed", lambda: embedder.encode(texts))
        timed("tokenize", lambda: [tokenize(t) for t in texts])
    total = sum(seconds.values())
    print(f"{len(files)} documents, {chars:,} chars, entities.ner={settings.entities.ner}")
    print("  " + ", ".join(f"{stage} {value:.1f} s" for stage, value in seconds.items()))
    print(f"  total / embed = {total / seconds['embed']:.3f}; embedding "
          f"{chars / seconds['embed']:,.0f} chars/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
