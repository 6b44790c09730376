"""How often, on CUAD train contracts, the answer refuses a question because the contract
review finds none of the clause types it asks about and the document uses none of its words
(clausegraph/answer/direct.py; docs/cuad_dev.md, session 32), split by whether CUAD labels
the contract as having that category: a refusal on a contract that has it is an error.

    python scripts/check_absent_types.py --index TRAIN_INDEX --contracts 60

TRAIN_INDEX: an index of the CUAD train texts (the one scripts/train_span_ranker.py and
scripts/review_answers_train.py read). Each contract is asked this project's 41 questions
and LegalBench-RAG's 32 wordings (scripts/bench_lbrag_asks.py).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_cuad_dev import QUESTIONS  # noqa: E402
from bench_lbrag_asks import WORDING_CATEGORY  # noqa: E402

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.eval.cuad import load_cuad_labels, load_cuad_questions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", required=True, help="an index of the CUAD train texts")
    parser.add_argument("--contracts", type=int, default=60, help="the first N train "
                        "contracts the index holds")
    args = parser.parse_args()
    graph = ClauseGraph.open(args.index)
    by_name = {Path(e.source_path).name: d for d, e in graph.index.entries().items()}
    train = [c for c in load_cuad_labels(split="train").contracts
             if Path(c.doc or c.txt or "").name in by_name][: args.contracts]
    questions = [(q.question, q.category) for q in load_cuad_questions(QUESTIONS)]
    questions += list(WORDING_CATEGORY.items())
    refused: Counter[bool] = Counter()
    for contract in train:
        doc_id = by_name[Path(contract.doc or contract.txt or "").name]
        for question, category in questions:
            direct = graph.ask(question, documents=[doc_id]).direct
            check = direct.type_check if direct else None
            if check is not None and check.present is False and direct.document_coverage == 0:
                refused[contract.categories[category].has_clause] += 1
    print(f"{len(train)} train contracts, {len(questions)} questions each: refused as an "
          f"absent type in words the document never uses on {refused[False]} asks of "
          f"contracts without the category, {refused[True]} of contracts with it")


if __name__ == "__main__":
    main()
