"""Typed records passed between pipeline stages.

Data flows one way: ``Document`` and ``Clause`` (ingest, segment; ``document.py``) ->
``Edge`` (relate; ``graph.py``) -> index -> ``RetrievedClause`` (retrieve;
``retrieval.py``) -> ``Answer`` (answer; ``answer.py``). Every offset is a Python ``str``
index into ``Document.text``, the document's canonical text.
"""

from clausegraph.models.answer import (
    Answer,
    AnswerLine,
    ChainLink,
    DirectAnswer,
    EvidenceClause,
    Quote,
    TypeCheck,
    Verdict,
)
from clausegraph.models.document import (
    CELL_SEPARATOR,
    SEGMENT_JOINER,
    Block,
    Clause,
    ClauseType,
    Document,
    Entity,
    OcrWord,
    Page,
    Span,
    Table,
    TableCell,
)
from clausegraph.models.graph import DocumentGraph, Edge, RelationType, UnresolvedReference
from clausegraph.models.retrieval import RetrievedClause, local_label

__all__ = [
    "CELL_SEPARATOR", "SEGMENT_JOINER", "Answer", "AnswerLine", "Block", "ChainLink", "Clause", "ClauseType",
    "DirectAnswer", "TypeCheck", "Verdict",
    "Document", "DocumentGraph", "Edge", "Entity", "EvidenceClause", "OcrWord", "Page", "Quote",
    "RelationType", "RetrievedClause", "Span", "Table", "TableCell",
    "UnresolvedReference", "local_label",
]
