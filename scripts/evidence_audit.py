"""Does the evidence around an answer explain it? (issue 27, "Evidence that explains")

Asks the labelled questions of ``benchmarks/real_pdfs`` (insurance policies and CUAD contracts,
each scoped to its document) through the Python API, as ``bench_real_pdfs.py`` does, and
counts what an analyst is shown besides the direct answer:

- definitions: how many the answer shows, and the share whose defined term occurs in the
  question or in a governing clause (the clause the direct answer quotes, or the top clause
  when nothing was found, and the exceptions the direct answer names);
- chain: how many answers show a chain, the share of those whose chain contains the
  answering clause, and the mean number of links;
- exceptions that are items of the same list as the answering clause (siblings, which do not
  limit it).

Nothing is fitted here: the questions are a test-only set.

    python scripts/evidence_audit.py --index-dir /tmp/clausegraph-real-pdfs --out audit.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_real_pdfs import DATA, FOLDERS, LABELS, open_index  # noqa: E402

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.answer.extractive import definition_terms, uses_term  # noqa: E402


def governing_ids(answer: Any) -> set[str]:
    """The clauses the answer rests on: the quoted ones and the exceptions the direct
    answer names, else the top clause."""
    ids = set(answer.direct_answer_citations)
    if answer.direct is not None:
        ids |= {line.clause_id for line in answer.direct.exceptions}
    if not ids and answer.evidence:
        ids.add(answer.evidence[0].clause_id)
    return ids


def defined_terms(graph: ClauseGraph, answer: Any, clause_id: str) -> list[str]:
    """What a shown definition defines (``extractive.definition_terms``: the rules' terms
    and the words before "means"), plus the terms of the chain's Defines links from it."""
    terms = definition_terms(graph.index.clauses.clause(clause_id))
    terms += [link.term for link in answer.chain if link.source == clause_id and link.term]
    return list(dict.fromkeys(terms))


def audit_answer(graph: ClauseGraph, question: str, answer: Any) -> dict[str, Any]:
    governing = governing_ids(answer)
    by_id = {e.clause_id: e for e in answer.evidence}
    drafted = "\n".join(by_id[c].text for c in governing if c in by_id)
    shown = answer.group("definition")
    relevant = 0
    for evidence in shown:
        terms = defined_terms(graph, answer, evidence.clause_id)
        relevant += any(uses_term(t, question, drafted) for t in terms)
    answering = set(answer.direct_answer_citations)
    chain_ids = {c for link in answer.chain for c in (link.source, link.target)}
    anchors = answering or set(list(governing)[:1])
    lists = {tuple(graph.index.clauses.clause(c).section_path) for c in anchors}
    siblings = sum(tuple(graph.index.clauses.clause(e.clause_id).section_path) in lists
                   and e.clause_id not in anchors for e in answer.group("exception"))
    return {
        "question": question, "found": answer.found,
        "definitions": len(shown), "relevant_definitions": relevant,
        "chain_links": len(answer.chain),
        "chain_has_answer": bool(answer.chain) and bool(answering & chain_ids)
        if answering else None,
        "exceptions": len(answer.group("exception")), "sibling_exceptions": siblings,
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    shown = sum(r["definitions"] for r in rows)
    chains = [r for r in rows if r["chain_links"] and r["chain_has_answer"] is not None]
    return {
        "questions": len(rows),
        "definitions_shown": shown,
        "definitions_relevant_pct": round(100 * sum(r["relevant_definitions"] for r in rows)
                                          / shown, 1) if shown else None,
        "answers_with_chain": len(chains),
        "chains_with_answering_clause_pct": round(
            100 * sum(r["chain_has_answer"] for r in chains) / len(chains), 1) if chains
        else None,
        "mean_chain_links": round(sum(r["chain_links"] for r in rows) / len(rows), 2),
        "exceptions_shown": sum(r["exceptions"] for r in rows),
        "sibling_exceptions": sum(r["sibling_exceptions"] for r in rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--index-dir", type=Path, default=Path("/tmp/clausegraph-real-pdfs"))
    parser.add_argument("--sets", default="insurance,contracts")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    results = {}
    for name in args.sets.split(","):
        # the set's own folder (insurance-policies, cuad-sample/pdf), not all of the data
        graph = open_index(name, args.data / FOLDERS[name], args.index_dir, fresh=False)
        labels = yaml.safe_load((LABELS / f"{name}.yaml").read_text(encoding="utf-8"))
        rows = [audit_answer(graph, item["question"],
                             graph.ask(item["question"], documents=[item["document"]]))
                | {"document": item["document"]}
                for item in labels["questions"] if not item.get("not_found")]
        results[name] = {"overall": summarise(rows), "rows": rows}
        print(name, json.dumps(results[name]["overall"], indent=1))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
