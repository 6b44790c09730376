"""How often document scoping picks the cited document on a LegalBench-RAG split.

    python scripts/scope_check.py INDEX_DIR [--corpus DIR] [--benchmarks FILE ...]

INDEX_DIR must hold the benchmark's documents (e.g. the index batch_evaluate.py built).
Prints, per dataset, queries scoped to a cited document (ok), to another one (wrong), or
left unscoped (none).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from clausegraph.api import ClauseGraph
from clausegraph.eval.data import shared_data_dir

DATA = shared_data_dir() / "legalbench-rag"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("index", type=Path)
    parser.add_argument("--corpus", type=Path, default=DATA / "corpus")
    parser.add_argument("--benchmarks", type=Path, nargs="+",
                        default=sorted((DATA / "benchmarks").glob("mini_*.json")))
    args = parser.parse_args()
    graph = ClauseGraph.open(args.index)
    index = graph.index
    scoper = graph.retriever.scoper(graph.settings.retrieval.scope_margin)
    path_of = {d.doc_id: Path(d.source_path).resolve().relative_to(args.corpus.resolve()).as_posix()
               for d in index.clauses.documents().values()}
    counts: Counter[tuple[str, str]] = Counter()
    for benchmark in args.benchmarks:
        name = benchmark.stem.removeprefix("mini_")
        for test in json.loads(benchmark.read_text())["tests"]:
            scope = scoper.scope(test["query"])
            cited = {s["file_path"] for s in test["snippets"]}
            verdict = "none" if scope is None else (
                "ok" if path_of[scope.doc_ids[0]] in cited else "wrong")
            counts[(name, verdict)] += 1
    for (name, verdict), count in sorted(counts.items()):
        print(f"{name:12} {verdict:5} {count}")


if __name__ == "__main__":
    main()
