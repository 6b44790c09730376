"""From an answer (and the index it came from) to a Report."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from clausegraph.answer.extractive import GROUP_TITLES
from clausegraph.answer.verify import Claim, Verification, locate, verify
from clausegraph.models import Answer
from clausegraph.report.models import IndexInfo, Report, ReportClause, ReportDocument, ReportLink
from clausegraph.text.templates import template_hash

# -- building ------------------------------------------------------------------------------


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def extractive_claims(answer: Answer) -> list[Claim]:
    """The quotes of an extractive answer as claims (text = quote, cited = its clause)."""
    return [Claim(text=q.text, citations=[q.clause_id], quotes=[q.text]) for q in answer.quotes]


def build_report(
    answer: Answer,
    *,
    manifest: dict[str, Any] | None = None,
    index_path: str | Path | None = None,
    documents_filter: Sequence[str] | None = None,
    graph_edges: Sequence[Any] = (),
    created_at: datetime | None = None,
) -> Report:
    """A Report for ``answer`` (extractive or :class:`~clausegraph.answer.generate.LLMAnswer`).

    ``manifest`` (the index manifest) supplies the index version, generation and
    embedding model; ``graph_edges`` lets verification look beyond the evidence.
    """
    from clausegraph import __version__

    claims: list[Claim] = list(getattr(answer, "claims", []) or [])
    verification: Verification | None = getattr(answer, "verification", None)
    if verification is None:
        # Extractive answers quote verbatim; checking them still runs the exception checks.
        claims = claims or extractive_claims(answer)
        verification = verify(claims, answer.evidence, answer.chain, graph_edges,
                              answer_found=bool(answer.evidence))
    cited = {c for claim in claims for c in claim.cited_ids()}
    phrases: dict[str, list[tuple[int, int]]] = {}
    for check in verification.located:
        if check.clause_id and check.start is not None and check.end is not None:
            phrases.setdefault(check.clause_id, []).append((check.start, check.end))
    by_id = {e.clause_id: e for e in answer.evidence}
    for quote in answer.quotes:
        item = by_id.get(quote.clause_id)
        span = locate(quote.text, item.text) if item else None
        if span:
            phrases.setdefault(quote.clause_id, []).append(span)
    evidence = [
        ReportClause(
            **e.model_dump(include={"clause_id", "group", "label", "heading", "section",
                                    "document", "doc_id", "source_path", "pages", "span",
                                    "score", "reason", "origin", "text"}),
            group_title=GROUP_TITLES.get(e.group, e.group),
            cited=e.clause_id in cited,
            highlights=_merge(phrases.get(e.clause_id, [])),
            text_sha256=hashlib.sha256(e.text.encode()).hexdigest()[:16],
        )
        for e in answer.evidence
    ]
    chain = [
        ReportLink(type=link.type.value, source=link.source, target=link.target,
                   source_label=link.source_label, target_label=link.target_label,
                   sentence=link.sentence(), confidence=link.confidence,
                   rule_id=link.rule_id, evidence=link.evidence)
        for link in answer.chain
    ]
    documents: dict[str, ReportDocument] = {}
    for e in evidence:
        doc = documents.setdefault(e.doc_id, ReportDocument(
            doc_id=e.doc_id, title=e.document, source_path=e.source_path))
        doc.clauses_cited += int(e.cited)
    hashes = dict(getattr(answer, "template_hashes", {}) or {})
    if not hashes:
        names = ["context.md.j2"] + (["answer_extractive.md.j2"]
                                     if answer.mode.startswith("extractive") else [])
        hashes = {name: template_hash(name) for name in names}
    report = Report(
        created_at=(created_at or datetime.now(UTC)).isoformat(timespec="seconds"),
        clausegraph_version=__version__,
        question=answer.question,
        answer=answer.answer,
        mode=answer.mode,
        model=getattr(answer, "model", None) or (
            None if answer.mode.startswith("extractive") else answer.mode),
        answer_found=getattr(answer, "answer_found", None)
        if not answer.mode.startswith("extractive") else answer.found,
        direct_answer=answer.direct_answer,
        answer_verdict=answer.verdict.text if getattr(answer, "verdict", None) and answer.found
        else None,
        direct_answer_citations=list(answer.direct_answer_citations),
        confidence=answer.confidence if answer.mode.startswith("extractive") else None,
        claims=claims if not answer.mode.startswith("extractive") else [],
        verification=verification,
        evidence=evidence,
        chain=chain,
        retrieval=dict(answer.retrieval),
        strategy_notes=dict(answer.strategy_notes),
        documents_filter=list(documents_filter) if documents_filter else None,
        documents=list(documents.values()),
        index=index_info_of(manifest, index_path),
        template_hashes=hashes,
        usage=dict(getattr(answer, "usage", {}) or {}),
        warnings=list(getattr(answer, "warnings", []) or []),
    )
    report.report_id = report.content_hash()
    return report


def location_of(graph: Any) -> str | None:
    store = getattr(graph, "store", None)
    location = getattr(store, "location", None)
    if location is None:
        return None
    return location if "://" in location else str(Path(location).resolve())


def index_record_of(graph: Any) -> dict[str, Any] | None:
    """What the graph's loaded index records: its facts and its documents' entries."""
    return graph.index_record() if hasattr(graph, "index_record") else None


def index_info_of(manifest: dict[str, Any] | None, path: str | Path | None) -> IndexInfo:
    if not manifest:
        return IndexInfo(path=str(path) if path else None)
    return IndexInfo(
        path=str(path) if path else None, format=manifest.get("format"),
        version=manifest.get("version"), generation=manifest.get("generation"),
        embedding_model=manifest.get("embedding_model"),
        documents=len(manifest.get("documents", {})),
    )


def report_for(graph: Any, question: str, *, provider: Any = None,
               documents: Sequence[str] | None = None, **overrides: Any) -> Report:
    """Ask ``graph`` (a ClauseGraph), optionally through ``provider``, and build the report."""
    answer = graph.ask(question, documents=documents, **overrides)
    edges: list[Any] = []
    if provider is not None and answer.mode == "extractive":
        from clausegraph.answer.generate import generate_answer

        index = graph.index
        lookup = index.clauses.clause
        for doc_id in dict.fromkeys(e.doc_id for e in answer.evidence):
            edges += index.graph.document_edges(doc_id)
        answer = generate_answer(answer, provider, clause_lookup=lookup, graph_edges=edges)
    return build_report(answer, manifest=index_record_of(graph), index_path=location_of(graph),
                        documents_filter=documents, graph_edges=edges)


