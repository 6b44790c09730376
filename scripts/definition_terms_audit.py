"""How many definition clauses of the policy indexes have no term the answer stage reads.

For every clause of kind ``definition`` in each index under ``--index-dir`` (the folders
``scripts/bench_policies.py`` builds), ``clausegraph.answer.defined.definition_terms``
is read; a definition without one is dropped from an answer's evidence whatever the
question asks, and cannot answer "What is X?" (docs/policies_bench.md, session 34). Prints
the count per document and the clauses without a term.

    python scripts/definition_terms_audit.py --index-dir POLICY_IDX
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clausegraph import ClauseGraph
from clausegraph.answer.defined import definition_terms
from clausegraph.errors import ClauseGraphError


def audit(index: Path) -> tuple[int, list[tuple[str, str, str]]]:
    """(definition clauses, (file, label, opening) of those without a term) of one index."""
    graph = ClauseGraph.open(index)
    total, missing = 0, []
    for doc_id, document in graph.index.clauses.documents().items():
        for clause in graph.index.clauses.document_clauses(doc_id):
            if clause.kind != "definition":
                continue
            total += 1
            if not definition_terms(clause):
                missing.append((Path(document.source_path).name, clause.label,
                                " ".join(clause.text[:80].split())))
    return total, missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index-dir", type=Path, required=True,
                        help="bench_policies' --index-dir (one index per folder)")
    args = parser.parse_args()
    if not args.index_dir.is_dir():
        parser.error(f"{args.index_dir}: no such folder")
    total = without = 0
    for index in sorted(p for p in args.index_dir.iterdir() if p.is_dir()):
        try:
            count, missing = audit(index)
        except ClauseGraphError as error:  # a folder that is no index: named, the rest read
            print(f"skipped {index}: {error}", file=sys.stderr)
            continue
        total, without = total + count, without + len(missing)
        for file, label, opening in missing:
            print(f"{index.name}/{file} {label}: {opening}")
    print(f"{total} definition clauses, {without} without a term the answer stage reads")


if __name__ == "__main__":
    main()
