"""Dump the rankings of LegalBench-RAG-mini queries, to check that a refactor changes nothing.

Builds (once) an index over the first documents of each mini dataset, runs every query on
those documents through each strategy and writes the ranked clause ids, scores (6 digits)
and origins as JSON. Run it with two versions of the code on the same index and compare:

    PYTHONPATH=/path/to/old/checkout python scripts/compare_rankings.py --out old.json
    python scripts/compare_rankings.py --out new.json
    python scripts/compare_rankings.py --compare old.json new.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "legalbench-rag"


def _queries_and_files(data: Path, docs_per_dataset: int) -> tuple[list[str], list[Path]]:
    queries: list[str] = []
    files: list[Path] = []
    for name in ("contractnli", "cuad", "maud", "privacy_qa"):
        tests = json.loads((data / "benchmarks" / f"mini_{name}.json").read_text())["tests"]
        chosen = list(dict.fromkeys(t["snippets"][0]["file_path"] for t in tests))
        chosen = chosen[:docs_per_dataset]
        queries += [t["query"] for t in tests if t["snippets"][0]["file_path"] in chosen]
        files += [data / "corpus" / f for f in chosen]
    return queries, files


def dump(args: argparse.Namespace) -> None:
    from clausegraph.api import ClauseGraph

    queries, files = _queries_and_files(args.data, args.docs_per_dataset)
    if not args.index.exists():
        ClauseGraph.open(args.index, create=True).ingest(files)
    graph = ClauseGraph.open(args.index)
    rows = []
    for strategy in args.strategies.split(","):
        for query in queries:
            ranked = graph.retrieve(query, strategy=strategy)
            rows.append([strategy, query[:60],
                         [(r.clause_id, round(r.score, 6), r.origin) for r in ranked]])
    args.out.write_text(json.dumps(rows, indent=0), encoding="utf-8")
    print(f"{len(rows)} rankings ({len(queries)} queries) -> {args.out}")


def compare(old_path: Path, new_path: Path) -> int:
    old = json.loads(old_path.read_text())
    new = json.loads(new_path.read_text())
    if [r[:2] for r in old] != [r[:2] for r in new]:
        print("the two files rank different queries or strategies")
        return 1
    differing = [a for a, b in zip(old, new) if a[2] != b[2]]
    print(f"{len(old) - len(differing)} of {len(old)} rankings identical")
    for strategy, query, _ in differing[:10]:
        print(f"  differs: {strategy}: {query}")
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, default=Path(".cache/compare-index"))
    parser.add_argument("--out", type=Path, default=Path("rankings.json"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--strategies", default="clausegraph,hybrid")
    parser.add_argument("--docs-per-dataset", type=int, default=3)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    dump(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
