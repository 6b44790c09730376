"""The report as data: what an audit report records (pydantic, saved as JSON)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from clausegraph.answer.verify import Claim, Verification

REPORT_VERSION = 1
Format = Literal["md", "html", "pdf", "json"]
FORMATS: tuple[str, ...] = ("md", "html", "pdf", "json")
# -- the model -----------------------------------------------------------------------------


class ReportClause(BaseModel):
    clause_id: str
    group: str
    group_title: str
    label: str
    heading: str | None
    section: str
    document: str
    doc_id: str
    source_path: str
    pages: list[int]
    span: tuple[int, int]
    score: float
    reason: str
    origin: str
    text: str
    cited: bool = Field(description="cited by the answer (claim citation or quote)")
    highlights: list[tuple[int, int]] = Field(
        default_factory=list, description="offsets inside text of quoted/cited phrases")
    text_sha256: str

    @property
    def anchor(self) -> str:
        return anchor(self.clause_id)

    def pieces(self) -> list[tuple[str, bool]]:
        """The text cut into (piece, highlighted) runs; line breaks become spaces."""
        flat = self.text.replace("\r", " ").replace("\n", " ")
        pieces, position = [], 0
        for start, end in self.highlights:
            if start > position:
                pieces.append((flat[position:start], False))
            pieces.append((flat[start:end], True))
            position = end
        if position < len(flat):
            pieces.append((flat[position:], False))
        return pieces


class ReportLink(BaseModel):
    type: str
    source: str
    target: str
    source_label: str
    target_label: str
    sentence: str
    confidence: float
    rule_id: str
    evidence: str


class ReportDocument(BaseModel):
    doc_id: str = Field(description="sha256 of the file bytes (first 16 hex): content hash")
    title: str
    source_path: str
    clauses_cited: int = 0


class IndexInfo(BaseModel):
    path: str | None = None
    format: str | None = None
    version: int | None = None
    generation: int | None = None
    embedding_model: str | None = None
    documents: int | None = None


class Report(BaseModel):
    """Everything an auditor needs to read, check and re-derive one answer."""

    report_version: int = REPORT_VERSION
    report_id: str = ""
    created_at: str
    clausegraph_version: str
    question: str
    answer: str
    mode: str
    model: str | None = None
    answer_found: bool | None = None
    direct_answer: str | None = Field(None, description="the offline direct answer")
    answer_verdict: str | None = Field(None, description="the short answer read from the direct "
                                "answer ('No: 36-month waiting period'); None when not found")
    direct_answer_citations: list[str] = Field(default_factory=list)
    confidence: float | None = Field(None, description="0..1 support of the direct answer")
    claims: list[Claim] = Field(default_factory=list)
    verification: Verification
    evidence: list[ReportClause]
    chain: list[ReportLink]
    retrieval: dict[str, Any]
    documents_filter: list[str] | None = None
    documents: list[ReportDocument]
    index: IndexInfo = Field(default_factory=IndexInfo)
    template_hashes: dict[str, str] = Field(default_factory=dict)
    usage: dict[str, Any] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list, description="e.g. why the model's "
                                "answer was replaced by the offline one")
    strategy_notes: dict[str, str] = Field(
        default_factory=dict, description="what the retrieval strategy produced (causal summary, "
        "HyDE clause, saved files)",
    )

    @property
    def verdict(self) -> str:
        return self.verification.verdict

    def group(self, name: str) -> list[ReportClause]:
        return [e for e in self.evidence if e.group == name]

    def content_hash(self) -> str:
        """sha256 (16 hex) of the report without its id and timestamp."""
        data = self.model_dump(mode="json", exclude={"report_id", "created_at"})
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def anchor(clause_id: str) -> str:
    return "clause-" + re.sub(r"[^A-Za-z0-9]+", "-", clause_id).strip("-")


