"""Review every contract of an index (the CUAD dev PDFs) and write the review JSON that
``scripts/bench_cuad_dev.py --review`` scores; with ``--designs`` also one JSON per design
compared in docs/review.md (the clause-type probabilities and sentence scores are computed
once per contract for all of them).

    nice -n 10 python scripts/review_cuad_dev.py --index DEV_INDEX --out review_dev.json
    nice -n 10 python scripts/review_cuad_dev.py --index DEV_INDEX --out review_dev.json \\
        --designs designs/
    python scripts/bench_cuad_dev.py --review review_dev.json --out review_scores.json

The dev index is ``clausegraph ingest ../shared/data/cuad-train/pdf --index DEV_INDEX``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.config import ReviewConfig, Settings  # noqa: E402
from clausegraph.eval.data import shared_data_dir  # noqa: E402
from clausegraph.review import Review  # noqa: E402

# The designs docs/review.md compares on dev: what is reported of a clause, how many
# clauses are listed per category, how far a sentence narrowing reaches.
DESIGNS: dict[str, dict] = {
    "clause-3": {"granularity": "clause", "max_clauses": 3},
    "clause-10": {"granularity": "clause", "max_clauses": 10, "min_candidate": 0.0},
    "sentence-1": {"granularity": "sentence", "max_clauses": 1},
    "sentence-3": {"granularity": "sentence", "max_clauses": 3},
    "sentence-10": {"granularity": "sentence", "max_clauses": 10, "min_candidate": 0.0},
    "sentence-20": {"granularity": "sentence", "max_clauses": 20, "min_candidate": 0.0},
    "sentence-10-share-0.5": {"granularity": "sentence", "max_clauses": 10, "min_candidate": 0.0,
                              "sentence_share": 0.5},
    "sentence-10-share-1.0": {"granularity": "sentence", "max_clauses": 10, "min_candidate": 0.0,
                              "sentence_share": 1.0},
    "sentence-10-extra-2": {"granularity": "sentence", "max_clauses": 10, "min_candidate": 0.0,
                           "extra_sentences": 2},
    "sentence-10-extra-5": {"granularity": "sentence", "max_clauses": 10, "min_candidate": 0.0,
                           "extra_sentences": 5},
    "sentence-10-encoded": {"granularity": "sentence", "max_clauses": 10, "min_candidate": 0.0,
                            "sentence_vectors": "encode"},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True, help="index of the contracts to review")
    parser.add_argument("--out", type=Path, required=True, help="the review JSON (settings' "
                        "design)")
    parser.add_argument("--designs", type=Path, help="folder for one review JSON per design")
    parser.add_argument("--set", action="append", default=[], dest="overrides",
                        help="a setting, e.g. review.max_clauses=3 (repeatable)")
    args = parser.parse_args()

    graph = ClauseGraph.open(args.index, Settings().with_overrides(args.overrides))
    reviewer = graph.reviewer()
    configs = [graph.settings.review]
    names = ["settings"]
    if args.designs:
        for name, fields in DESIGNS.items():
            configs.append(ReviewConfig(**{**graph.settings.review.model_dump(), **fields}))
            names.append(name)
    documents: dict[str, list] = {name: [] for name in names}
    doc_ids = list(graph.index.entries())
    started = time.perf_counter()
    for done, doc_id in enumerate(doc_ids, 1):
        for name, review in zip(names, reviewer.review(graph.index, doc_id, configs)):
            documents[name].append(review)
        print(f"{done}/{len(doc_ids)} {time.perf_counter() - started:.0f} s", file=sys.stderr)
    for name, config in zip(names, configs):
        review = Review(documents=documents[name], threshold=config.found_threshold,
                        model=reviewer.model_name)
        target = args.out if name == "settings" else args.designs / f"{name}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(review.model_dump(mode="json"), ensure_ascii=False),
                          encoding="utf-8")
        print(f"wrote {target}", file=sys.stderr)
    seconds = time.perf_counter() - started
    print(f"{len(doc_ids)} contracts reviewed in {seconds:.0f} s "
          f"({seconds / max(len(doc_ids), 1):.1f} s each)", file=sys.stderr)
    labels = shared_data_dir() / "cuad-train" / "cuad_labels.json"
    if labels.is_file():
        print(found_table(documents["settings"], labels))


def found_table(reviews: list, labels: Path) -> str:
    """Found (a category's best clause at or above a threshold) against CUAD's labels (the
    contract has a span of the category), pooled over every reviewed contract and
    category, at each threshold: what the found threshold is chosen from."""
    contracts = {c["pdf"]: c for c in json.loads(labels.read_text(encoding="utf-8"))["contracts"]}
    pairs = [(item.confidence, bool(contracts[r.file]["categories"][item.category]["texts"]))
             for r in reviews if r.file in contracts for item in r.items]
    lines = [f"found vs CUAD labels, {len(pairs)} (contract, category) pairs",
             "| threshold | accuracy | precision | recall | F1 |", "|---|---|---|---|---|"]
    for step in range(1, 20):
        threshold = step / 20
        tp = sum(c >= threshold and g for c, g in pairs)
        fp = sum(c >= threshold and not g for c, g in pairs)
        fn = sum(c < threshold and g for c, g in pairs)
        accuracy = 1 - (fp + fn) / len(pairs) if pairs else 0.0
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        lines.append(f"| {threshold:.2f} | {accuracy:.3f} | {precision:.3f} | {recall:.3f} | "
                     f"{f1:.3f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
