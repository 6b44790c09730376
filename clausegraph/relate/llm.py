"""Typed edges proposed by a language model (``clausegraph ingest --llm-relations``).

Clauses are sent in batches together with the document's outline (every clause id,
label and heading), and the model returns JSON edges ``{source, target, type,
confidence, evidence, term}``. Each edge is validated before it enters the graph:

- ``source`` is a clause of the batch, ``target`` a clause of the document, not itself;
- ``type`` is one of Defines, RefersTo, Entails, Overrides, Causes (SameSection is
  structural and left to the rules);
- ``confidence`` lies in [0, 1] and reaches ``min_confidence``;
- ``evidence`` occurs verbatim (whitespace-normalised) in the source clause; its
  document offsets become ``evidence_span``.

Accepted edges carry ``rule_id = "llm:<model>"``. :func:`merge_edges` adds them to the
rule edges; where both found the same (type, source, target) the rule edge is kept.

Every batch result is cached in ``cache_dir`` under the sha256 of everything that can
change it (model, prompt templates, document id, the batch's clause ids and texts, the
outline): re-ingesting an unchanged document makes no request.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from clausegraph.answer.verify import locate
from clausegraph.llm.base import LLMError, LLMOutputError, LLMProvider, read_json_reply
from clausegraph.models import Clause, Document, Edge, RelationType
from clausegraph.text.templates import render, template_hash

log = logging.getLogger("clausegraph.relate.llm")

SYSTEM_TEMPLATE = "relations_system.md.j2"
USER_TEMPLATE = "relations_user.md.j2"
CACHE_VERSION = 1

TYPE_MEANINGS = {
    RelationType.DEFINES.value: "SOURCE defines a term that TARGET uses (SOURCE is the "
    "definition).",
    RelationType.REFERS_TO.value: "SOURCE explicitly cross-references TARGET (e.g. 'subject to "
    "Section 7.2', 'as set out in Schedule 1').",
    RelationType.ENTAILS.value: "SOURCE being satisfied or applying implies that TARGET "
    "applies (an obligation or right that follows from another).",
    RelationType.OVERRIDES.value: "SOURCE is an exception, exclusion, limitation or "
    "'notwithstanding' provision that prevails over TARGET.",
    RelationType.CAUSES.value: "an event or breach described in SOURCE triggers the "
    "consequence in TARGET (e.g. breach -> right to terminate).",
}
ALLOWED_TYPES = {RelationType(name) for name in TYPE_MEANINGS}

EDGES_SCHEMA: dict[str, Any] = {
    "title": "clausegraph_edges",
    "type": "object",
    "properties": {
        "edges": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "source": {"type": "string"},
                    "target": {"type": "string"},
                    "type": {"type": "string", "enum": sorted(TYPE_MEANINGS)},
                    "confidence": {"type": "number"},
                    "evidence": {"type": "string"},
                    "term": {"type": ["string", "null"]},
                },
                "required": ["source", "target", "type", "confidence", "evidence"],
            },
        }
    },
    "required": ["edges"],
}


class ProposedEdge(BaseModel):
    source: str
    target: str
    type: str
    confidence: float
    evidence: str = ""
    term: str | None = None


class _Reply(BaseModel):
    edges: list[ProposedEdge] = Field(default_factory=list)


class ExtractionStats(BaseModel):
    """What one extraction did: for the ingest report and the tests."""

    batches: int = 0
    cached: int = 0
    requests: int = 0
    proposed: int = 0
    accepted: int = 0
    rejected: dict[str, int] = Field(default_factory=dict)
    failed_batches: int = 0


def _outline(clauses: Sequence[Clause]) -> list[dict[str, Any]]:
    return [
        {"clause_id": c.clause_id, "label": c.label, "heading": c.heading,
         "preview": " ".join(c.text.split())[:90]}
        for c in clauses
    ]


def _defang(text: str) -> str:
    return text.replace("<<<", "\u2039\u2039\u2039").replace(">>>", "\u203a\u203a\u203a")


def _cache_key(provider: LLMProvider, document: Document, batch: Sequence[Clause],
               outline: list[dict[str, Any]]) -> str:
    payload = {
        "version": CACHE_VERSION,
        "model": provider.label,
        "templates": [template_hash(SYSTEM_TEMPLATE), template_hash(USER_TEMPLATE)],
        "doc_id": document.doc_id,
        "batch": [(c.clause_id, c.text) for c in batch],
        "outline": outline,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _read_cache(path: Path) -> list[dict[str, Any]] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get("edges") if isinstance(data, dict) else None


def _write_cache(path: Path, edges: list[dict[str, Any]], model: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"model": model, "edges": edges}, handle, ensure_ascii=False)
    os.replace(tmp, path)


def _parse(text: str) -> _Reply:
    data = read_json_reply(text)
    if isinstance(data, list):
        data = {"edges": data}
    try:
        return _Reply.model_validate(data)
    except ValidationError as exc:
        first_error = exc.errors()[0]
        raise ValueError(f"edges do not match the schema: "
                         f"{'.'.join(map(str, first_error['loc']))}: {first_error['msg']}") from None


def _ask_batch(provider: LLMProvider, system: str, user: str, stats: ExtractionStats) -> _Reply:
    """One request, one repair request on malformed JSON, else LLMOutputError."""
    stats.requests += 1
    reply = provider.generate(system, user, EDGES_SCHEMA).text
    try:
        return _parse(reply)
    except ValueError as error:
        stats.requests += 1
        repair = (f"{user}\n\n# Correction\nYour previous reply could not be used: {error}. "
                  "Reply again with only the JSON object.")
        try:
            return _parse(provider.generate(system, repair, EDGES_SCHEMA).text)
        except ValueError as second:
            raise LLMOutputError(
                f"{provider.name}: model {provider.model!r} returned no valid edges JSON "
                f"({second})", provider=provider.name, model=provider.model) from None


def _validate(proposed: ProposedEdge, batch_ids: set[str], clauses: dict[str, Clause],
              min_confidence: float, rule_id: str, stats: ExtractionStats) -> Edge | None:
    def reject(reason: str) -> None:
        stats.rejected[reason] = stats.rejected.get(reason, 0) + 1
        log.debug("rejected LLM edge %s -> %s (%s): %s", proposed.source, proposed.target,
                  proposed.type, reason)

    source, target = proposed.source.strip().strip("[]"), proposed.target.strip().strip("[]")
    try:
        kind = RelationType(proposed.type)
    except ValueError:
        kind = None
    if kind not in ALLOWED_TYPES:
        return reject("unknown type")
    if source not in batch_ids:
        return reject("source not in batch")
    if target not in clauses:
        return reject("unknown target")
    if source == target:
        return reject("self loop")
    if not 0.0 <= proposed.confidence <= 1.0:
        return reject("confidence out of range")
    if proposed.confidence < min_confidence:
        return reject("low confidence")
    clause = clauses[source]
    found = locate(proposed.evidence, clause.text) if proposed.evidence.strip() else None
    if found is None:
        return reject("evidence not in source")
    if kind is RelationType.DEFINES and not (proposed.term or "").strip():
        return reject("Defines without term")
    start, end = found
    return Edge(
        type=kind, source=source, target=target, confidence=round(proposed.confidence, 3),
        rule_id=rule_id, evidence=clause.text[start:end],
        evidence_span=clause.document_span(start, end),
        term=proposed.term.strip() if kind is RelationType.DEFINES and proposed.term else None,
    )


def extract_llm_edges(
    document: Document,
    clauses: Sequence[Clause],
    provider: LLMProvider,
    cache_dir: str | Path,
    batch_size: int | None = None,
    min_confidence: float = 0.5,
    stats: ExtractionStats | None = None,
) -> list[Edge]:
    """Validated LLM edges among ``clauses`` of ``document`` (cached per batch).

    A batch whose reply stays malformed after one repair request is skipped (logged,
    not cached, counted in ``stats.failed_batches``); authentication, model-not-found
    and availability errors propagate, since every other batch would fail the same way.
    """
    stats = stats if stats is not None else ExtractionStats()
    batch_size = batch_size or provider.config.relation_batch_size
    cache = Path(cache_dir)
    by_id = {c.clause_id: c for c in clauses}
    outline = _outline(clauses)
    rule_id = f"llm:{provider.model}"
    system = render(SYSTEM_TEMPLATE, types=TYPE_MEANINGS,
                    schema=json.dumps(EDGES_SCHEMA, indent=1)).strip()
    edges: list[Edge] = []
    seen: set[tuple[str, str, str]] = set()
    for start in range(0, len(clauses), batch_size):
        batch = list(clauses[start:start + batch_size])
        stats.batches += 1
        key = _cache_key(provider, document, batch, outline)
        path = cache / key[:2] / f"{key}.json"
        raw = _read_cache(path)
        if raw is not None:
            stats.cached += 1
        else:
            user = render(
                USER_TEMPLATE, title=document.title, outline=outline,
                batch=[{"clause_id": c.clause_id, "label": c.label, "heading": c.heading,
                        "text": _defang(c.text)} for c in batch],
            ).strip()
            try:
                reply = _ask_batch(provider, system, user, stats)
            except LLMOutputError as exc:
                stats.failed_batches += 1
                log.warning("%s: skipped a batch of %d clauses: %s", document.title,
                            len(batch), exc)
                continue
            except LLMError:
                raise
            raw = [e.model_dump() for e in reply.edges]
            _write_cache(path, raw, provider.label)
        batch_ids = {c.clause_id for c in batch}
        for item in raw:
            stats.proposed += 1
            try:
                proposed = ProposedEdge.model_validate(item)
            except ValidationError:
                stats.rejected["malformed"] = stats.rejected.get("malformed", 0) + 1
                continue
            edge = _validate(proposed, batch_ids, by_id, min_confidence, rule_id, stats)
            if edge is None:
                continue
            identity = (edge.type.value, edge.source, edge.target)
            if identity in seen:
                stats.rejected["duplicate"] = stats.rejected.get("duplicate", 0) + 1
                continue
            seen.add(identity)
            edges.append(edge)
    stats.accepted = len(edges)
    return edges


def merge_edges(rule_edges: Sequence[Edge], llm_edges: Sequence[Edge]) -> list[Edge]:
    """Rule edges, then LLM edges that no rule edge already states (same type and ends)."""
    known = {(e.type, e.source, e.target) for e in rule_edges}
    merged = list(rule_edges)
    for edge in llm_edges:
        if (edge.type, edge.source, edge.target) not in known:
            known.add((edge.type, edge.source, edge.target))
            merged.append(edge)
    return merged
