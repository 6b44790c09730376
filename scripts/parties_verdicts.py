#!/usr/bin/env python
"""How often the verdict of "Who are the parties to this agreement?" names every party CUAD's
answer names, on the CUAD dev contracts (judged as the review's Parties answer is:
``eval.cuad_bench.span_answer_right``).

    python scripts/parties_verdicts.py --index DEV_INDEX
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.eval.cuad import load_cuad_labels  # noqa: E402
from clausegraph.eval.cuad_bench import ReviewItem, span_answer_right  # noqa: E402

QUESTION = "Who are the parties to this agreement?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", required=True, help="an index of the CUAD dev PDFs")
    args = parser.parse_args()
    graph = ClauseGraph.open(Path(args.index))
    contracts = load_cuad_labels(split="dev").contracts
    given = right = judged = 0
    for contract in contracts:
        answer = graph.ask(QUESTION, documents=[contract.pdf])
        said = answer.verdict.text if answer.verdict else None
        given += said is not None
        item = ReviewItem(category="Parties", found=said is not None, confidence=1.0,
                          answer=said, clauses=[])
        verdict_right = span_answer_right("Parties", contract.categories["Parties"].answer, item)
        if verdict_right is not None:
            judged += 1
            right += verdict_right
    print(f"{len(contracts)} dev contracts: a parties verdict for {given}; every party CUAD's "
          f"answer names in it for {right} of {judged}")


if __name__ == "__main__":
    main()
