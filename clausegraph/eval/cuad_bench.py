"""The CUAD dev benchmark: which asks to make, how one answer is judged, the summaries, and
the scoring of a ``clausegraph review --json`` file with CUAD's metric.

Asks (one per dev contract and CUAD category, the category's analyst question scoped to the
contract):
- positive: the contract has gold spans for the category. hit@k: one of the first k
  evidence clauses holds a gold text (:func:`clausegraph.eval.cuad.holds_gold`); the
  direct answer is right when it is found and states CUAD's normalised answer
  (:func:`clausegraph.eval.cuad.answer_stated`) in its verdict or its quote (since session
  12: the verdict can state an end date the quote only counts, "for three (3) years"); for
  yes/no categories, when it is found.
- hard negative: the contract has no span for the category while another dev contract of
  the same CUAD contract type has one (the issue's "a contract of the same type that lacks
  that clause"); right when the answer says not found.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clausegraph.errors import ClauseGraphError
from clausegraph.eval.cuad import (
    AnswerKind,
    CuadContract,
    CuadQuestion,
    Key,
    Prediction,
    SpanScores,
    answer_scorable,
    answer_stated,
    first_hit,
    fold,
    score_spans,
)
from clausegraph.review.answers import SPAN_ONLY

# Kinds whose normalised answer is a value the direct answer must state (yes/no is judged
# by ``found``).
VALUE_KINDS: frozenset[str] = frozenset({"date", "date_or_term", "term", "jurisdiction"})


class Ask(BaseModel):
    """One question to put to one contract."""

    contract: CuadContract
    question: CuadQuestion
    gold: Literal["positive", "negative"]

    @property
    def category(self) -> str:
        return self.question.category


def is_yes(answer: str | None) -> bool:
    return answer is not None and fold(answer) == "yes"


def plan_asks(contracts: Sequence[CuadContract], questions: Sequence[CuadQuestion],
              peers: Sequence[CuadContract] | None = None) -> list[Ask]:
    """Every positive and hard-negative ask, contract by contract in the questions' order.

    ``peers`` (default ``contracts``; the whole dev split when only some contracts are
    asked) say which contract types have a category. A contract without spans whose CUAD
    answer is nonetheless "Yes" (a label quirk) is neither: its answer is not "no such
    clause"."""
    types_with: dict[str, set[str]] = defaultdict(set)
    for contract in peers if peers is not None else contracts:
        for category, label in contract.categories.items():
            if label.has_clause:
                types_with[category].add(contract.contract_type)
    asks = []
    for contract in contracts:
        for question in questions:
            label = contract.categories[question.category]
            if label.has_clause:
                asks.append(Ask(contract=contract, question=question, gold="positive"))
            elif (contract.contract_type in types_with[question.category]
                  and not is_yes(label.answer)):
                asks.append(Ask(contract=contract, question=question, gold="negative"))
    return asks


class AskOutcome(BaseModel):
    """What one ask returned, judged."""

    contract: str = Field(description="the contract's PDF file name")
    doc_id: str
    category: str
    gold: Literal["positive", "negative"]
    found: bool
    hit_rank: int | None = Field(None, description="positives: 1-based rank of the first "
                                 "evidence clause holding a gold text")
    evidence: int = Field(0, description="how many evidence clauses the answer gave")
    gold_in_index: bool | None = Field(None, description="positives: some clause of the "
                                       "indexed document holds a gold text (the ceiling "
                                       "of hit@k under this judge)")
    answer_kind: AnswerKind | None = None
    gold_answer: str | None = None
    answer_right: bool | None = Field(None, description="positives whose category has a "
                                      "scorable normalised answer: the direct answer states it")
    gold_states_answer: bool | None = Field(None, description="the same judge on the gold "
                                            "spans: False where CUAD's answer is computed "
                                            "(an end date from a start and a term)")
    direct_answer: str | None = None
    verdict: str | None = Field(None, description="the short answer shown before the quote")
    seconds: float = 0.0


def judge_answer(ask: Ask, answer: Any, doc_id: str, seconds: float,
                 document_clauses: Sequence[str] | None = None) -> AskOutcome:
    """Judge an :class:`~clausegraph.models.answer.Answer` (``found``, ``evidence``,
    ``direct_answer``) against the ask's gold labels; ``document_clauses`` (the texts of
    all the document's clauses) tell whether any clause could have been a hit."""
    label = ask.contract.categories[ask.category]
    kind = ask.question.answer_kind
    found = bool(answer.found)
    outcome = AskOutcome(
        contract=ask.contract.pdf, doc_id=doc_id, category=ask.category, gold=ask.gold,
        found=found, evidence=len(answer.evidence), answer_kind=kind,
        gold_answer=label.answer, direct_answer=answer.direct_answer,
        verdict=verdict.text if (verdict := getattr(answer, "verdict", None)) else None,
        seconds=seconds)
    if ask.gold == "negative":
        return outcome
    outcome.hit_rank = first_hit([e.text for e in answer.evidence], label.texts)
    if document_clauses is not None:
        outcome.gold_in_index = (outcome.hit_rank is not None
                                 or first_hit(document_clauses, label.texts) is not None)
    if kind == "yes_no":
        outcome.answer_right = found if is_yes(label.answer) else None
    elif kind in VALUE_KINDS:
        if answer_scorable(kind, label.answer):
            # what a reader is told: the verdict ("Ends on 2 November 2015: 3 years from the
            # Effective Date") and the quote under it
            stated = answer_stated(kind, label.answer, "\n".join(
                t for t in (outcome.verdict, answer.direct_answer) if t))
            outcome.answer_right = found and bool(stated)
            outcome.gold_states_answer = bool(
                answer_stated(kind, label.answer, "\n".join(label.texts)))
    return outcome


def fraction(count: int, total: int) -> float | None:
    return count / total if total else None


class Summary(BaseModel):
    """The figures of a group of asks (overall, a category, a contract); fractions 0..1."""

    positives: int = 0
    hit_at_1: float | None = None
    hit_at_5: float | None = None
    gold_in_index: float | None = Field(None, description="share of positives where some "
                                        "clause of the document holds a gold text")
    value_answers: int = Field(0, description="positives with a value answer (date, term, "
                               "jurisdiction) to state")
    value_answer_accuracy: float | None = None
    value_answer_in_gold: float | None = Field(None, description="share of those answers "
                                               "the gold spans themselves state")
    yes_answers: int = Field(0, description="yes/no positives (gold Yes)")
    yes_found: float | None = Field(None, description="share of yes/no positives found")
    answer_accuracy: float | None = Field(None, description="value and yes/no together")
    negatives: int = 0
    not_found_true: int = Field(0, description="negative, answered not found")
    not_found_false: int = Field(0, description="positive, answered not found")
    found_on_negative: int = 0
    found_on_positive: int = 0
    not_found_precision: float | None = None
    not_found_recall: float | None = None
    mean_seconds: float | None = None


def summarise(outcomes: Sequence[AskOutcome]) -> Summary:
    positives = [o for o in outcomes if o.gold == "positive"]
    negatives = [o for o in outcomes if o.gold == "negative"]
    ranks = [o.hit_rank for o in positives]
    valued = [o for o in positives
              if o.answer_kind in VALUE_KINDS and o.answer_right is not None]
    values = [o.answer_right for o in valued]
    in_gold = [bool(o.gold_states_answer) for o in valued]
    yes = [o.answer_right for o in positives
           if o.answer_kind == "yes_no" and o.answer_right is not None]
    nf_true = sum(not o.found for o in negatives)
    nf_false = sum(not o.found for o in positives)
    return Summary(
        positives=len(positives),
        hit_at_1=fraction(sum(r is not None and r <= 1 for r in ranks), len(ranks)),
        hit_at_5=fraction(sum(r is not None and r <= 5 for r in ranks), len(ranks)),
        gold_in_index=fraction(sum(bool(o.gold_in_index) for o in positives),
                               sum(o.gold_in_index is not None for o in positives)),
        value_answers=len(values), value_answer_accuracy=fraction(sum(values), len(values)),
        value_answer_in_gold=fraction(sum(in_gold), len(in_gold)),
        yes_answers=len(yes), yes_found=fraction(sum(yes), len(yes)),
        answer_accuracy=fraction(sum(values) + sum(yes), len(values) + len(yes)),
        negatives=len(negatives), not_found_true=nf_true, not_found_false=nf_false,
        found_on_negative=len(negatives) - nf_true, found_on_positive=len(positives) - nf_false,
        not_found_precision=fraction(nf_true, nf_true + nf_false),
        not_found_recall=fraction(nf_true, len(negatives)),
        mean_seconds=fraction(sum(o.seconds for o in outcomes), len(outcomes)),
    )


def summarise_by(outcomes: Iterable[AskOutcome],
                 key: Callable[[AskOutcome], str]) -> dict[str, Summary]:
    groups: dict[str, list[AskOutcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[key(outcome)].append(outcome)
    return {name: summarise(group) for name, group in groups.items()}


# -- scoring a review file -------------------------------------------------------------------


class ReviewClause(BaseModel):
    model_config = ConfigDict(extra="ignore")

    clause_id: str = ""
    page: int | None = None
    span: tuple[int, int] | None = None
    text: str
    confidence: float


class ReviewItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    category: str
    found: bool
    confidence: float = 0.0
    answer: str | None = None
    clauses: list[ReviewClause] = Field(default_factory=list)


class ReviewDocument(BaseModel):
    model_config = ConfigDict(extra="ignore")

    doc_id: str
    file: str
    title: str = ""
    items: list[ReviewItem]


class ReviewFile(BaseModel):
    """What ``clausegraph review ... --json`` writes."""

    model_config = ConfigDict(extra="ignore")

    documents: list[ReviewDocument]


def load_review(path: str | Path) -> ReviewFile:
    path = Path(path)
    try:
        return ReviewFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError) as exc:
        problem = str(exc).splitlines()[0]
        raise ClauseGraphError(f"{path}: not a review JSON file ({problem})") from None


class CategoryReview(BaseModel):
    category: str
    contracts_with_clause: int
    gold_spans: int
    average_precision: float | None = Field(description="AUPR of this category alone; None "
                                            "when no contract has the clause")
    answers_scored: int = 0
    answer_accuracy: float | None = None


class ReviewScores(BaseModel):
    """CUAD's figures for a review file, fractions 0..1."""

    contracts: int
    unmatched: list[str] = Field(default_factory=list,
                                 description="review documents that are no dev contract")
    overall: SpanScores
    categories: list[CategoryReview]


def review_answer_right(kind: AnswerKind, gold: str | None, item: ReviewItem | None) -> bool | None:
    """A review item's normalised answer against CUAD's; None when the gold cannot be
    scored. Yes/no: the item's answer when it says yes or no, else its ``found``."""
    if kind == "yes_no":
        if gold is None or fold(gold) not in ("yes", "no"):
            return None
        said = fold(item.answer or "") if item else ""
        if said not in ("yes", "no"):
            said = "yes" if item and item.found else "no"
        return said == fold(gold)
    if not answer_scorable(kind, gold):
        return None
    return bool(item and item.found and answer_stated(kind, gold, item.answer))


# a party's name in CUAD's Parties answer: the text before its defined name or aliases
# ('Jacksonville Jaguars, LLC ("Club"); The ARC Group, Inc. ("Sponser")'); parts that say
# how the parties are referred to, or a redaction, name no party
_NOT_A_NAME = re.compile(r"referred|each of|hereinafter|collectively|individually|\*",
                         re.IGNORECASE)
_TITLE_WORD = re.compile(r"[^\w\s]")


def party_names_of(answer: str | None) -> list[str]:
    """The names of the parties in CUAD's Parties answer, without their defined names."""
    names = []
    for part in (answer or "").split(";"):
        name = re.split(r"[(“\"]", part)[0].strip(" ,.")
        if name and len(name.split()) <= 10 and not _NOT_A_NAME.search(name):
            names.append(name)
    # "X and Y (each and both of them ...)", "OICL and QIWI" refer to parties named apart
    joint = [n for n in names if re.search(r"\band\b", n)]
    if len(names) - len(joint) >= 2:
        names = [n for n in names if n not in joint]
    return names


def span_answer_right(category: str, gold: str | None, item: ReviewItem | None) -> bool | None:
    """Document Name: the review's title is CUAD's (case, spacing and punctuation aside).
    Parties: the review's answer names every party CUAD's answer names. None when CUAD's
    answer gives nothing to judge."""
    def words(text: str | None) -> str:
        return " ".join(_TITLE_WORD.sub(" ", fold(text or "")).split())

    said = words(item.answer) if item is not None and item.found else ""
    if category == "Document Name":
        return None if not words(gold) else said == words(gold)
    names = [words(name) for name in party_names_of(gold)]
    if not names:
        return None
    return bool(said) and all(name in said for name in names)


def score_review(review: ReviewFile, contracts: Mapping[str, CuadContract],
                 questions: Sequence[CuadQuestion],
                 id_of: Callable[[CuadContract], str] | None = None) -> ReviewScores:
    """Score ``review`` against the labels of ``contracts`` (PDF file name -> contract) on
    the categories of ``questions``. A review document is matched to a contract by its
    file name, else by ``id_of(contract) == doc_id`` (the content id)."""
    by_id = {id_of(c): c for c in contracts.values()} if id_of else {}
    gold: dict[Key, list[str]] = {}
    predicted: dict[Key, list[Prediction]] = {}
    items: dict[Key, ReviewItem] = {}
    unmatched = []
    matched: dict[str, CuadContract] = {}
    for document in review.documents:
        contract = contracts.get(Path(document.file).name) or by_id.get(document.doc_id)
        if contract is None:
            unmatched.append(document.file)
            continue
        matched[contract.pdf] = contract
        for item in document.items:
            key = (contract.pdf, item.category)
            items[key] = item
            predicted[key] = [Prediction(text=c.text, confidence=c.confidence)
                              for c in item.clauses]
    for contract in matched.values():
        for question in questions:
            gold[(contract.pdf, question.category)] = contract.categories[question.category].texts
    categories = []
    for question in questions:
        keys = [k for k in gold if k[1] == question.category]
        scores = score_spans({k: gold[k] for k in keys}, predicted)
        review_row = CategoryReview(
            category=question.category, contracts_with_clause=sum(bool(gold[k]) for k in keys),
            gold_spans=scores.gold_spans,
            average_precision=scores.aupr if scores.gold_spans else None)
        if question.answer_kind or question.category in SPAN_ONLY:
            judged = [review_answer_right(question.answer_kind,
                                          matched[k[0]].categories[k[1]].answer, items.get(k))
                      if question.answer_kind else
                      span_answer_right(question.category,
                                        matched[k[0]].categories[k[1]].answer, items.get(k))
                      for k in keys]
            judged = [j for j in judged if j is not None]
            review_row.answers_scored = len(judged)
            review_row.answer_accuracy = fraction(sum(judged), len(judged))
        categories.append(review_row)
    return ReviewScores(contracts=len(matched), unmatched=unmatched,
                        overall=score_spans(gold, predicted), categories=categories)
