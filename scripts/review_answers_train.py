#!/usr/bin/env python
"""How often the review's normalised answer for one CUAD category is right on the CUAD
*train* contracts of an index (the check of an answer rule developed on dev, or the
development set of one checked on dev), judged as ``scripts/bench_cuad_dev.py --review``
judges dev: ``eval.cuad_bench.review_answer_right`` (dates, terms, law, yes/no) or
``span_answer_right`` (Parties, Document Name).

    python scripts/review_answers_train.py --index TRAIN_INDEX --category Parties
    python scripts/review_answers_train.py --index TRAIN_INDEX --category "Expiration Date" \\
        --out answers.json

The train index holds the contracts' text files (``scripts/train_clause_types.py`` builds
it); contracts are matched to CUAD's labels by the content id of their text or PDF.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_clause_types import load_labels  # noqa: E402

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.classify import CUAD_CATEGORIES  # noqa: E402
from clausegraph.eval.cuad import load_cuad_questions  # noqa: E402
from clausegraph.eval.cuad_bench import (  # noqa: E402
    ReviewItem,
    review_answer_right,
    span_answer_right,
)
from clausegraph.eval.data import shared_data_dir  # noqa: E402

QUESTIONS = ROOT / "benchmarks" / "cuad_dev" / "questions.yaml"
# the answers an expiry is counted from are read before it, as the review reads them
READ_BEFORE = ("Agreement Date", "Effective Date")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", required=True, help="an index of the CUAD train contracts")
    parser.add_argument("--category", required=True, choices=CUAD_CATEGORIES)
    parser.add_argument("--data", type=Path, default=None, help="../shared/data")
    parser.add_argument("--out", type=Path, help="write each contract's answer and verdict")
    args = parser.parse_args()
    kind = {q.category: q.answer_kind for q in load_cuad_questions(QUESTIONS)}[args.category]
    records = load_labels(args.data or shared_data_dir())
    graph = ClauseGraph.open(args.index)
    reviewer = graph.reviewer()
    categories = [c for c in READ_BEFORE if c != args.category] + [args.category]
    rows = []
    for doc_id in sorted(graph.index.entries()):
        record = records.get(doc_id)
        if record is None or record["split"] != "train":
            continue
        items = reviewer.review(graph.index, doc_id, categories=categories)[0].items
        item = ReviewItem.model_validate(
            next(i for i in items if i.category == args.category).model_dump())
        gold = record["categories"][args.category].get("answer")
        right = (review_answer_right(kind, gold, item) if kind
                 else span_answer_right(args.category, gold, item))
        if right is not None:
            rows.append({"doc_id": doc_id, "right": right, "answer": item.answer, "gold": gold})
    judged = len(rows)
    right = sum(r["right"] for r in rows)
    print(f"{args.category}: {right} of {judged} train contracts right "
          f"({100 * right / max(judged, 1):.1f}%)")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
