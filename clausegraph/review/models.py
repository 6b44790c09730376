"""What a contract review produces: one item per CUAD clause category, per document.

``Review.model_dump(mode="json")`` is the review JSON (``clausegraph review --json``) that
``scripts/bench_cuad_dev.py --review`` scores: each listed clause's ``text`` with its
``confidence`` is one predicted span.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from clausegraph.models import Span


class ReviewClause(BaseModel):
    """The part of a clause that states a category: the clause's best sentence(s) (or the
    whole clause), where it is (document offsets, first page) and how sure the model is."""

    clause_id: str
    number: str | None = Field(None, description="what a reader calls the clause, e.g. '7.1(b)'")
    page: int | None = Field(None, description="page of the reported text's start (PDFs)")
    span: Span = Field(description="document offsets of the reported text")
    text: str
    confidence: float = Field(ge=0.0, le=1.0, description="how likely this text is what "
                              "CUAD highlights for the category: for the first span, the "
                              "span ranker's probability (review.span_confidence="
                              "'learned'); for the later ones, the probability that it is "
                              "a highlight no span above it is (review.span_novelty); or "
                              "the clause's probability times the span's share ('rule')")


class ReviewItem(BaseModel):
    """One CUAD category in one document: found or not, where, and the normalised answer."""

    category: str
    found: bool
    confidence: float = Field(ge=0.0, le=1.0, description="the best listed span's confidence")
    threshold: float | None = Field(
        None, ge=0.0, le=1.0, description="the confidence from which the category is found "
        "(fitted per category on CUAD train unless the review setting fixes one)")
    answer: str | None = Field(
        None, description="CUAD's normalised answer where it has one: an ISO date, the "
        "governing law's jurisdiction, a duration ('1 year', '90 days'), 'Yes'/'No'")
    clauses: list[ReviewClause] = Field(
        default_factory=list, description="best first; items not found may still list "
        "low-confidence candidates")


class DocumentReview(BaseModel):
    """Every CUAD category, in CUAD's order, for one document."""

    doc_id: str
    key: str
    file: str = Field(description="file name")
    title: str
    items: list[ReviewItem]

    def item(self, category: str) -> ReviewItem:
        for item in self.items:
            if item.category == category:
                return item
        raise KeyError(f"no category {category!r} in the review of {self.key}")

    @property
    def found(self) -> list[ReviewItem]:
        return [item for item in self.items if item.found]


class Review(BaseModel):
    """A review of one or more documents against CUAD's 41 clause categories."""

    documents: list[DocumentReview]
    threshold: float | None = Field(
        None, description="the one confidence every category is found from (the review "
        "setting), or none when each category has its own (each item's threshold)")
    model: str = Field("", description="the clause-type model that gave the probabilities")
