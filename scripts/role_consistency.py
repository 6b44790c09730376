"""Is a clause's role (definition, base rule, exception) decided the same way for the same
wording? (issue 27, "Evidence that explains")

For every clause of the given indexes, its role as the answer stage assigns it
(``answer.extractive.assign_groups``) twice: once retrieved alone and once retrieved with
every clause of its document. It counts

- clauses whose role changes with what else was retrieved (the same clause shown as a base
  rule in one answer and an exception in another);
- wordings that occur in two or more documents (clause text lower-cased, numbering and
  spacing dropped, at least 6 words) and the share of them given more than one role; and,
  among those, the ones whose headings are worded alike too (a role that differs there is
  decided by something other than the wording: letter case, layout, the other clauses).

Nothing is fitted here.

    python scripts/role_consistency.py IDX [IDX ...] --out docs/role_consistency.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.answer.extractive import assign_groups, chain_edges  # noqa: E402
from clausegraph.models import RetrievedClause  # noqa: E402

_NUMBERING = re.compile(r"^\s*(?:[(\[]?(?:\d+(?:\.\d+)*|[A-Za-z]{1,4})[.)\]]+\s+)+")
_WORD = re.compile(r"[a-z0-9]+")
MIN_WORDS = 6


def wording(text: str) -> str:
    return " ".join(_WORD.findall(_NUMBERING.sub("", text).lower()))


def _retrieved(clause) -> RetrievedClause:
    return RetrievedClause(clause=clause, score=1.0, sim=1.0, bm25=1.0, dense=1.0,
                           centrality=0.0, path_support=0.0, origin="seed")


def roles_of(graph: ClauseGraph):
    """(doc_id, clause, role alone, role among all of its document) for every clause."""
    index = graph.index
    for doc_id in index.clauses.document_ids():
        clauses = index.clauses.document_clauses(doc_id)
        # as an answer calls it: with the edges among the retrieved clauses
        everything = [_retrieved(c) for c in clauses]
        together = assign_groups(everything, chain_edges(index, everything), index)
        for clause in clauses:
            alone = [_retrieved(clause)]
            alone = assign_groups(alone, chain_edges(index, alone), index)[clause.clause_id]
            yield doc_id, clause, alone, together[clause.clause_id]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("indexes", nargs="+")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    clauses = changed = 0
    by_wording: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for location in args.indexes:
        for doc_id, clause, alone, together in roles_of(ClauseGraph.open(location)):
            clauses += 1
            changed += alone != together
            text = wording(clause.text)
            if len(text.split()) >= MIN_WORDS:
                heading = wording(" ".join([*clause.section_path[-1:], clause.heading or ""]))
                by_wording[text].append((doc_id, heading, together))
    shared = {t: rows for t, rows in by_wording.items() if len({d for d, _, _ in rows}) > 1}
    mixed = [t for t, rows in shared.items() if len({r for _, _, r in rows}) > 1]
    same_heading = [t for t, rows in shared.items()
                    if len({h for _, h, _ in rows}) == 1 and len({r for _, _, r in rows}) > 1]
    result = {
        "indexes": len(args.indexes), "clauses": clauses,
        "role_depends_on_what_else_is_retrieved": changed,
        "wordings_in_two_or_more_documents": len(shared),
        "of_them_with_more_than_one_role": len(mixed),
        "of_them_with_alike_headings_and_more_than_one_role": len(same_heading),
    }
    # examples go to the terminal only: policy wordings are their issuers' copyright
    for text in mixed[:10]:
        roles = sorted({f"{r} (under: {h[:60]})" for _, h, r in shared[text]})
        print(f"{text[:100]}\n    {roles}", file=sys.stderr)
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
