"""Re-deriving a report: the same question and parameters must give the same clauses."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from clausegraph.report.build import index_record_of
from clausegraph.report.models import Report
from clausegraph.report.writers import load_report

# -- re-derivation -------------------------------------------------------------------------


class RederiveResult(BaseModel):
    same: bool
    problems: list[str] = Field(default_factory=list)
    expected: list[str] = Field(default_factory=list)
    found: list[str] = Field(default_factory=list)


def rederive_check(report: Report | str | Path | dict[str, Any], graph: Any) -> RederiveResult:
    """Re-run retrieval with the report's question, document filter and retrieval
    parameters; compare clause ids, clause text hashes and scores with the report."""
    report = report if isinstance(report, Report) else load_report(report)
    problems: list[str] = []
    manifest = index_record_of(graph)
    if manifest is not None:
        missing = [d.doc_id for d in report.documents if d.doc_id not in manifest["documents"]]
        if missing:
            problems.append(f"documents no longer in the index (changed or removed): "
                            f"{', '.join(missing)}")
        if report.index.embedding_model and manifest.get("embedding_model") not in (
                None, report.index.embedding_model):
            problems.append(f"embedding model changed: {report.index.embedding_model} -> "
                            f"{manifest.get('embedding_model')}")
    found = _derived_evidence(report, graph)
    expected = {e.clause_id: e for e in report.evidence}
    if set(found) != set(expected):
        extra = sorted(set(found) - set(expected))
        lost = sorted(set(expected) - set(found))
        problems.append(f"evidence differs: missing {lost or '-'}, new {extra or '-'}")
    for clause_id in set(found) & set(expected):
        text, score = found[clause_id]
        if hashlib.sha256(text.encode()).hexdigest()[:16] != expected[clause_id].text_sha256:
            problems.append(f"text of {clause_id} changed")
        if abs(round(score, 4) - expected[clause_id].score) > 1e-3:
            problems.append(f"score of {clause_id} changed: {expected[clause_id].score} -> "
                            f"{score:.4f}")
    return RederiveResult(same=not problems, problems=problems,
                          expected=sorted(expected), found=sorted(found))


def _derived_evidence(report: Report, graph: Any) -> dict[str, tuple[str, float]]:
    """Clause id -> (text, score) of the evidence the same question gives now: the offline
    answer's evidence (ranked clauses and the definitions and exceptions that govern them,
    kept as the answer stage keeps them), or the retrieval alone for a graph with no ask."""
    if hasattr(graph, "evidence"):  # a ClauseGraph (a stand-in may only retrieve)
        answer = graph.ask(report.question, documents=report.documents_filter, llm="none",
                           **report.retrieval)
        return {e.clause_id: (e.text, e.score) for e in answer.evidence}
    results = graph.retrieve(report.question, documents=report.documents_filter,
                             **report.retrieval)
    return {r.clause.clause_id: (r.clause.text, r.score) for r in results}


def rederive(report_json: Report | str | Path | dict[str, Any], graph: Any) -> bool:
    """True when ``graph`` returns the report's evidence for the report's parameters."""
    return rederive_check(report_json, graph).same
