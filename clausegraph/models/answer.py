"""What the answer stage produces: evidence by role, the reasoning chain, quotes, answer."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from clausegraph.models.document import ClauseType, Span
from clausegraph.models.graph import RelationType


class EvidenceClause(BaseModel):
    """A retrieved clause as the answer presents and cites it."""

    clause_id: str
    group: str = Field(description="definition | base_rule | exception")
    label: str = Field(description="what a reader calls it: number, heading or id")
    heading: str | None
    section: str = Field(description="section path joined with ' > '")
    text: str
    document: str = Field(description="document title")
    source_path: str
    doc_id: str
    pages: list[int]
    span: Span
    score: float
    reason: str
    origin: str
    paragraphs: list[int] = Field(
        default_factory=list, description="Word/HTML paragraph numbers the clause spans"
    )
    low_confidence: bool = Field(
        False, description="the clause holds OCR text read with low confidence: check the scan"
    )
    clause_types: list[ClauseType] = Field(
        default_factory=list, description="the clause's CUAD clause types, most probable first"
    )
    context_note: str | None = Field(
        None, description="why a clause that neither answers nor limits the answer is shown, "
        "e.g. 'another item of the list 6.3(f)'")

    def excerpt(self, around: Span | None = None, width: int = 700) -> str:
        """The clause's text, whitespace squashed, cut to about ``width`` characters that
        hold the document span ``around`` (the quoted sentence) near their start, with "…"
        where text is left out: a long clause is shown where it answers, not from its
        first words."""
        text, start = self.text, 0
        if around is not None and self.span[0] <= around[0] < self.span[0] + len(text):
            # a little of what leads into the quote, then the quote and what follows it
            start = max(0, around[0] - self.span[0] - width // 5)
            start = text.rfind(" ", 0, start) + 1 if start else 0
        end = min(len(text), start + width)
        if end < len(text):
            end = text.rfind(" ", start, end) if text.rfind(" ", start, end) > start else end
        shown = " ".join(text[start:end].split())
        return f"{'…' if start else ''}{shown}{'…' if end < len(text) else ''}"

    def citation(self) -> str:
        pages = ", ".join(str(p) for p in self.pages)
        page_word = "pp." if len(self.pages) > 1 else "p."
        paragraphs = ""
        if self.paragraphs:
            first, last = self.paragraphs[0], self.paragraphs[-1]
            paragraphs = f", para. {first}" if first == last else f", paras. {first}-{last}"
        warning = " [OCR text, low confidence: check the scan]" if self.low_confidence else ""
        return (
            f"{self.document}, {self.label}, {page_word} {pages}{paragraphs}, "
            f"chars {self.span[0]}-{self.span[1]}{warning}"
        )


class ChainLink(BaseModel):
    """One typed edge between two evidence clauses, as the reasoning chain shows it."""

    type: RelationType
    source: str
    target: str
    source_label: str
    target_label: str
    confidence: float
    rule_id: str
    evidence: str
    term: str | None = None

    def sentence(self) -> str:
        """E.g. '2.14 DEFINES "Waiting Period" used in 4.2' or '7.1(b) OVERRIDES 4.2'."""
        if self.type is RelationType.DEFINES and self.term:
            return f'{self.source_label} DEFINES "{self.term}" used in {self.target_label}'
        verb = re.sub(r"(?<!^)([A-Z])", r" \1", self.type.value).upper().replace(" ", "_")
        return f"{self.source_label} {verb} {self.target_label}"


class Quote(BaseModel):
    """A verbatim sentence from an evidence clause, with its exact document span."""

    clause_id: str
    text: str
    span: Span


class AnswerLine(BaseModel):
    """One quoted sentence of the direct answer, with where it comes from."""

    clause_id: str
    label: str
    document: str
    text: str = Field(description="the sentence, whitespace squashed")
    span: Span = Field(description="document offsets of the sentence")
    pages: list[int]
    cut_before: bool = Field(False, description="the sentence starts before the quote")
    cut_after: bool = Field(False, description="the sentence goes on after the quote")
    heads: bool = Field(False, description="what the answer is read under (its list's title, "
                        "the heading that excludes it, the sentence before that states the "
                        "value), not the answering sentence")

    def marked(self) -> str:
        """The quote with "…" where it was cut from a longer sentence."""
        return f"{'…' if self.cut_before else ''}{self.text}{'…' if self.cut_after else ''}"

    def citation(self) -> str:
        pages = ", ".join(str(p) for p in self.pages)
        return f"{self.label}, {'pp.' if len(self.pages) > 1 else 'p.'} {pages}"


class Verdict(BaseModel):
    """The short answer read from a direct answer ("No: 36-month waiting period", "90 days",
    "Cannot tell"); see clausegraph.answer.verdict."""

    label: Literal["yes", "no", "conditional", "value", "cannot_tell"]
    text: str = Field(description="what an analyst reads first, e.g. 'No: 36-month waiting "
                      "period'")
    value: str | None = Field(None, description="the value the verdict rests on, as stated")
    clause_id: str | None = Field(None, description="the clause the verdict is read from")
    basis: str = Field("", description="why, in words")


class TypeCheck(BaseModel):
    """What the review read of one document for the CUAD clause types a question asks
    about (clausegraph/review/presence.py): the answer gate reads its confidence, and when
    every type asked is present the answer is given whatever the gate says."""

    categories: list[str] = Field(description="the CUAD types the question asks about, most "
                                  "probable first")
    category: str = Field(description="of those, the one the review is surest of")
    confidence: float = Field(description="the review's confidence in its best span of "
                              "``category``")
    least_confidence: float | None = Field(None, description="the review's confidence in the "
                                           "type asked that it is least sure of")
    clause_id: str | None = Field(None, description="the clause of that span")
    lead_clause_id: str | None = Field(
        None, description="the clause of the review's best span of the type the question "
        "most probably asks about (``categories[0]``): the evidence leads with it when "
        "retrieval found it and the review finds a type asked (the quote comes from it when "
        "it finds every one)")
    threshold: float = Field(description="a type is present at or above this (fitted on "
                             "CUAD train)")
    present: bool | None = Field(description="every type asked is present (True) or none is "
                                 "(False); None when they disagree: the answer gate decides")

    def reason(self) -> str:
        """What a reader is told of a "not found" this check decided."""
        asked = " or ".join(self.categories)
        return (f"No {asked} clause: the contract review finds none in this document (best "
                f"confidence {self.confidence:.2f}, found from {self.threshold:.2f}).")


class DirectAnswer(BaseModel):
    """The one-line answer of one document (or the not-found verdict)."""

    found: bool
    text: str | None = Field(description="the deciding sentence(s); None when not found")
    document: str | None = None
    doc_id: str | None = None
    file: str | None = Field(None, description="the document's file name (titles repeat)")
    lines: list[AnswerLine] = Field(default_factory=list)
    exceptions: list[AnswerLine] = Field(default_factory=list)
    nearest: list[AnswerLine] = Field(default_factory=list,
                                      description="closest clauses when not found")
    confidence: float = Field(0.0, description="0..1: share of the question's weight the "
                              "deciding sentence holds, with the value bonus")
    kind: str | None = Field(None, description="the kind of value asked, read by the "
                             "question-kind model (answer/kinds.py): duration, amount, count, "
                             "coverage, definition, law, place, method, contact, "
                             "incorporation, or None")
    document_coverage: float = Field(0.0, description="share of the question's weight in "
                                     "words the document uses at all")
    sentence_score: float = Field(0.0, description="score of the best sentence")
    right_probability: float | None = Field(
        None, description="the answer gate's P(the direct answer is right); below its "
        "threshold the answer is not found (None: no sentence to judge, or the gate off)")
    gate_features: dict[str, float | None] | None = Field(
        None, exclude=True, description="what the answer gate read (clausegraph/answer/gate.py); "
        "not serialised")
    verdict: Verdict | None = Field(None, description="the short answer read from the lines")
    type_check: TypeCheck | None = Field(
        None, description="the review's reading of the clause types asked about, when the "
        "question asks about one: read by the answer gate; every type present answers")

    def citations(self) -> list[str]:
        """The clauses the lines quote, each once, in the order first quoted (a title and
        the sentence under it are often one clause's)."""
        return list(dict.fromkeys(line.clause_id for line in self.lines))

    def named(self, text: str) -> str:
        """``text`` as the line of this document in an answer several documents share
        ("Title (file.pdf): ...")."""
        return f"{self.document} ({self.file}): {text}"

    def answering_line(self) -> AnswerLine | None:
        """The first quoted line that answers, not a title it is read under (what a
        citation of the answer opens)."""
        return next((line for line in self.lines if not line.heads),
                    self.lines[0] if self.lines else None)


class Answer(BaseModel):
    """The result of ``ClauseGraph.ask``: answer text, evidence by role, chain, settings."""

    question: str
    answer: str
    mode: str = Field(description="'extractive' (offline) or the LLM provider used")
    quotes: list[Quote] = Field(default_factory=list)
    evidence: list[EvidenceClause]
    chain: list[ChainLink]
    retrieval: dict = Field(default_factory=dict, description="the retrieval settings used")
    context: str = Field(default="", description="the context block an LLM prompt receives")
    strategy_notes: dict[str, str] = Field(
        default_factory=dict, description="what the strategy produced besides the ranking "
        "(causal summary, HyDE clause, saved files)",
    )
    direct_answer: str | None = Field(
        None, description="the answer in a sentence or two: the verdict's fact when it states "
        "one ('24 months', 'Yes: excluded', 'Ends on 5 January 2016: ...'), then the deciding "
        "sentence(s) it rests on (``direct_quote``); None when not found")
    direct_quote: str | None = Field(
        None, description="the deciding sentence(s) of the best clause, verbatim; None when "
        "not found")
    direct_answer_citations: list[str] = Field(
        default_factory=list, description="clause ids the direct answer quotes")
    direct_answer_documents: list[str] = Field(
        default_factory=list, description="doc ids the direct answer speaks for: one, or "
        "several when documents answer equally well and the question names none of them "
        "(the direct answer is then one line per document)")
    found: bool = Field(False, description="whether the evidence supports a direct answer")
    confidence: float = Field(0.0, description="0..1, how much of the question the "
                              "deciding sentence covers (see clausegraph.answer.direct)")
    direct: DirectAnswer | None = Field(None, description="the direct answer with its "
                                        "citations, exceptions and nearest clauses")
    verdict: Verdict | None = Field(None, description="the short answer: yes / no / a value "
                                    "/ cannot tell, read from the direct answer")
    per_document: list[DirectAnswer] = Field(
        default_factory=list, description="one direct answer per document in the evidence, "
        "best-ranked document first")
    warnings: list[str] = Field(
        default_factory=list, description="what a reader should know: why a model's answer "
        "was replaced by the offline one (mode 'extractive-fallback'), evidence left out to "
        "fit the model's context, the model chosen when none was named",
    )

    def answering_documents(self) -> list[DirectAnswer]:
        """The per-document answers ``direct_answer`` is made of (the lead alone, or each
        document that answers as well as it)."""
        chosen = set(self.direct_answer_documents)
        return [d for d in self.per_document if d.found and d.doc_id in chosen]

    def group(self, name: str) -> list[EvidenceClause]:
        return [e for e in self.evidence if e.group == name]
