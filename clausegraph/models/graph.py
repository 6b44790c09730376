"""What relate produces: typed, directed edges between the clauses of one document."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, Field

from clausegraph.models.document import Span


class RelationType(str, Enum):
    """The typed edges of the clause graph (seed 004, section 3)."""

    DEFINES = "Defines"
    REFERS_TO = "RefersTo"
    ENTAILS = "Entails"
    OVERRIDES = "Overrides"
    SAME_SECTION = "SameSection"
    CAUSES = "Causes"


class Edge(BaseModel):
    """A typed, directed relation between two clauses with its provenance."""

    type: RelationType
    source: str = Field(description="clause id")
    target: str = Field(description="clause id")
    confidence: float = Field(ge=0.0, le=1.0)
    rule_id: str = Field(description="id of the rule in rules/ (or 'llm:<model>')")
    evidence: str = Field(description="the text that produced the edge")
    evidence_span: Span = Field(description="document offsets of the evidence")
    term: str | None = Field(default=None, description="the defined term, for Defines")


class UnresolvedReference(BaseModel):
    """A cross-reference the relation extractor found but could not map to a clause."""

    source: str
    text: str
    span: Span
    rule_id: str


class DocumentGraph(BaseModel):
    """Everything the relate stage produces for one document."""

    edges: list[Edge] = Field(default_factory=list)
    unresolved: list[UnresolvedReference] = Field(default_factory=list)
