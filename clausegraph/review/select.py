"""From per-clause category probabilities to a document's review items.

For each CUAD category the clauses are ranked by the clause-type model's probability; the
best ``max_clauses`` (those at or above ``min_candidate``) are listed, each narrowed to the
sentence(s) that state the category (CUAD's highlighted spans are usually one or two
sentences, and its metric matches spans by word-set overlap), and the category is found
when the best span's confidence reaches the category's threshold (``found_threshold``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from clausegraph.classify.features import spelled_dates
from clausegraph.config import ReviewConfig
from clausegraph.models import Clause, Document, Span
from clausegraph.review.answers import normalised_answer
from clausegraph.review.found import shipped_found_thresholds
from clausegraph.review.models import ReviewClause, ReviewItem
from clausegraph.review.parties import introduction, party_list

# ``score(texts, clauses)`` -> an array (len(texts), n_categories) of the category
# probabilities of sentences ``texts``, ``clauses[i]`` being the clause of ``texts[i]``.
SentenceScorer = Callable[[list[str], list[Clause]], np.ndarray]
# What CUAD highlights for the categories whose spans are not sentences. Measured on the
# CUAD train labels: Document Name spans have a median of 3 words (94% <= 6 words), Agreement
# Date 3 (97% <= 6), Effective Date 5 (66% <= 6): the title and the date themselves, so a
# sentence holding them fails the word-set match. Parties spans are party names (median 2
# words), which CUAD's metric matches when a predicted span contains them, so the whole
# clause that names the parties holds them all. Every other category's median is 27 to 84
# words: sentences.
SPAN_SHAPES = {"Document Name": "title", "Parties": "clause", "Agreement Date": "date",
               "Effective Date": "date"}
_TITLE_WORDS = 16
# Effective Date spans are the date in 66% of CUAD train spans and a sentence in the rest,
# so the date's sentence is listed too, at the clause's probability times 34/66.
SENTENCE_TOO = {"Effective Date": 0.34 / 0.66}


class Narrower:
    """Cuts a clause down to its sentences that best state a category.

    Each clause's sentences are scored once (every category at a time) and kept for the
    other categories. With no scorer, or ``granularity='clause'``, the whole clause is
    reported.
    """

    def __init__(self, config: ReviewConfig, scorer: SentenceScorer | None,
                 cache: dict[str, tuple[list[Span], np.ndarray]] | None = None) -> None:
        self.config = config
        self.scorer = scorer
        # clause id -> (sentence spans, their scores); shared by reviews of the same index
        self._scores = {} if cache is None else cache

    def spans(self, clause: Clause, category: int, name: str = "",
              title: str = "") -> list[Span]:
        """Spans of ``clause.text`` to report for the category at column ``category``
        (called ``name``): its title or date where CUAD highlights those (``SPAN_SHAPES``),
        else the best sentence and the sentences next to it that score nearly as well."""
        shape = SPAN_SHAPES.get(name, "sentence")
        if shape == "clause":
            return [(0, len(clause.text))]
        if shape == "title":
            return [_title_span(clause.text, title)]
        spans = self._sentences(clause, category)
        if shape == "date":
            return _date_span(clause.text, spans[0], DATE_ANCHORS.get(name)) or spans
        return spans

    def extra_sentences(self, clause: Clause, category: int, name: str,
                        shown: Span) -> list[tuple[Span, float]]:
        """Up to ``extra_sentences`` more sentences of the clause outside ``shown``, each
        with its score as a share of the best sentence's: CUAD often highlights several
        sentences of one clause as separate spans. For an Effective Date, the sentence
        around the date (``SENTENCE_TOO``)."""
        if name in SENTENCE_TOO:
            sentence = self._sentences(clause, category)
            whole = (sentence[0][0], sentence[-1][1])
            return [] if whole == shown else [(whole, SENTENCE_TOO[name])]
        if (self.config.extra_sentences == 0 or SPAN_SHAPES.get(name, "sentence") != "sentence"
                or self.scorer is None or self.config.granularity == "clause"):
            return []
        sentences, scores = self.sentence_scores(clause)
        if len(sentences) < 2:
            return []
        column = scores[:, category]
        top = float(column.max()) or 1.0
        others = [(float(column[k]) / top, span) for k, span in enumerate(sentences)
                  if span[1] <= shown[0] or span[0] >= shown[1]]
        others.sort(key=lambda item: -item[0])
        return [(span, share) for share, span in others[: self.config.extra_sentences]]

    def _sentences(self, clause: Clause, category: int) -> list[Span]:
        whole = [(0, len(clause.text))]
        if self.scorer is None or self.config.granularity == "clause":
            return whole
        sentences, scores = self.sentence_scores(clause)
        if len(sentences) < 2:
            return whole
        column = scores[:, category]
        best = int(np.argmax(column))
        floor = column[best] * self.config.sentence_share
        first = last = best
        while first > 0 and column[first - 1] >= floor:
            first -= 1
        while last + 1 < len(sentences) and column[last + 1] >= floor:
            last += 1
        return [(sentences[first][0], sentences[last][1])]

    def sentence_scores(self, clause: Clause) -> tuple[list[Span], np.ndarray]:
        """The clause's sentences and their scores (n_sentences, n_categories); no columns
        when there is no scorer or the clause is one sentence."""
        cached = self._scores.get(clause.clause_id)
        if cached is None:
            sentences = split_clause(clause.text)
            if self.scorer is None or self.config.granularity == "clause":
                return sentences, np.zeros((len(sentences), 0))
            scores = (self.scorer([clause.text[s:e] for s, e in sentences],
                                  [clause] * len(sentences))
                      if len(sentences) > 1 else np.zeros((len(sentences), 0)))
            cached = self._scores[clause.clause_id] = (sentences, scores)
        return cached

    def prepare(self, clauses: Sequence[Clause]) -> None:
        """Score the sentences of many clauses in one call (one encoder batch)."""
        todo = [c for c in clauses if c.clause_id not in self._scores]
        if self.scorer is None or self.config.granularity == "clause" or not todo:
            return
        split = [split_clause(c.text) for c in todo]
        texts = [c.text[s:e] for c, spans in zip(todo, split) for s, e in spans]
        owners = [c for c, spans in zip(todo, split) for _ in spans]
        scores = self.scorer(texts, owners) if texts else np.zeros((0, 0))
        at = 0
        for clause, spans in zip(todo, split):
            self._scores[clause.clause_id] = (spans, scores[at:at + len(spans)])
            at += len(spans)


def _title_span(text: str, title: str) -> Span:
    """Where the document's title sits in the clause, else the clause's first line (when
    short enough to be a title), else the whole clause."""
    folded = " ".join(title.split()).casefold()
    if folded:
        pattern = r"\s+".join(re.escape(word) for word in folded.split())
        found = re.search(pattern, text, re.IGNORECASE)
        if found:
            return found.span()
    line = text.strip().split("\n", 1)[0]
    start = text.find(line)
    if line and len(line.split()) <= _TITLE_WORDS:
        return start, start + len(line)
    return 0, len(text)


# An Effective Date sentence often states two dates ("entered into on October 1, 2019 and
# made effective as of November 1, 2019"): the one nearest a word of taking effect is it.
_TAKES_EFFECT = re.compile(r"\b(?:effective|commenc\w*|takes? effect)\b", re.IGNORECASE)
DATE_ANCHORS = {"Effective Date": _TAKES_EFFECT}


def _date_span(text: str, within: Span, anchor: re.Pattern[str] | None = None) -> list[Span] | None:
    """The first date inside ``within`` (else anywhere in the clause), or, with an
    ``anchor`` pattern found there, the date nearest to it; None when there is no date."""
    from clausegraph.text.values import extract_values

    for start, end in (within, (0, len(text))):
        dates = [v for v in extract_values(text[start:end]) if v.kind == "date"]
        if not dates:
            continue
        chosen = dates[0]
        cues = [m.start() - start for m in anchor.finditer(text, start, end)] if anchor else []
        if cues and len(dates) > 1:
            chosen = min(dates, key=lambda v: min(abs(v.start - c) for c in cues))
        return [(start + chosen.start, start + chosen.end)]
    return None


def split_clause(text: str) -> list[Span]:
    """A clause's sentences (the answer stage's splitter: ``.``/``;``/``:`` before a
    capital, list items on their own line)."""
    from clausegraph.answer.direct import split_sentences

    return split_sentences(text)


def candidates(probabilities: np.ndarray, category: int, config: ReviewConfig) -> list[int]:
    """Row numbers of the clauses listed for one category, best first."""
    column = probabilities[:, category]
    order = np.argsort(-column, kind="stable")[: config.max_clauses]
    return [int(i) for i in order if column[i] >= config.min_candidate or i == order[0]]


# What a candidate span is: the clause narrowed as SPAN_SHAPES says ("narrowed"), another
# sentence of the clause, the whole clause, the date or title CUAD highlights.
SPAN_KINDS = ("narrowed", "sentence", "clause")


@dataclass(frozen=True)
class SpanCandidate:
    """A span of a clause that may be what CUAD highlights for a category, with what the span
    ranker (``ranker.py``) reads of it. Scores are the clause-type model's probabilities."""

    category: int
    row: int  # the clause's row in the document's clauses
    span: Span  # offsets into the clause's text
    kind: str
    clause_probability: float
    clause_rank: int  # 0: the category's most probable clause
    document_best: float  # the category's best clause probability in the document
    sentence_score: float  # the score of the span's best sentence
    best_sentence_score: float  # the score of the clause's best sentence
    sentences: int
    words: int
    clause_words: int
    rule_confidence: float  # the hand rule's: the clause's probability x the span's share
    text: str = ""  # the span's text


def _words(text: str) -> int:
    """Words as CUAD counts them; a date in digits counts as its month-name form ("2024-03-01"
    is "March 1, 2024"), which is how the span ranker learned a date's length."""
    return len(spelled_dates(text).split())


def clause_candidates(clause: Clause, row: int, rank: int, category: int, name: str,
                      probabilities: np.ndarray, narrower: Narrower, title: str,
                      every_sentence: bool, document_best: float) -> list[SpanCandidate]:
    """The spans of one listed clause for one category: the narrowed span and the extra
    spans the hand rule reports; with ``every_sentence``, also each other sentence of the
    clause and the whole clause (for the span ranker to weigh). ``document_best`` is the
    category's best clause probability in the document."""
    probability = float(probabilities[row, category])
    sentences, scores = narrower.sentence_scores(clause)
    column = scores[:, category] if scores.size else np.full(len(sentences), probability)
    best = float(column.max()) if len(column) else probability
    clause_words = _words(clause.text)

    def candidate(span: Span, kind: str, share: float = 1.0) -> SpanCandidate:
        inside = [k for k, (s, e) in enumerate(sentences) if s < span[1] and e > span[0]]
        score = max((float(column[k]) for k in inside), default=best)
        return SpanCandidate(
            category=category, row=row, span=span, kind=kind, clause_probability=probability,
            clause_rank=rank, document_best=document_best, sentence_score=score,
            best_sentence_score=best, sentences=len(sentences),
            words=_words(clause.text[span[0]:span[1]]), clause_words=clause_words,
            rule_confidence=probability * share, text=clause.text[span[0]:span[1]])

    spans = narrower.spans(clause, category, name, title)
    shown = (spans[0][0], spans[-1][1])
    found = [candidate(shown, "narrowed")]
    found += [candidate(extra, "sentence", share)
              for extra, share in narrower.extra_sentences(clause, category, name, shown)]
    if every_sentence:
        seen = {c.span for c in found}
        found += [candidate(span, "sentence", float(column[k]) / (best or 1.0))
                  for k, span in enumerate(sentences) if span not in seen and len(sentences) > 1]
        whole = (0, len(clause.text))
        if whole not in seen and len(sentences) > 1:
            found.append(candidate(whole, "clause"))
    return found


def span_candidates(document: Document, clauses: Sequence[Clause], probabilities: np.ndarray,
                    categories: Sequence[str], config: ReviewConfig,
                    narrower: Narrower | None = None,
                    every_sentence: bool = False,
                    wanted: Collection[int] | None = None) -> list[list[SpanCandidate]]:
    """Per category (in ``categories`` order), the candidate spans of its listed clauses
    (none for a category whose column is not in ``wanted``, when given)."""
    narrower = narrower or Narrower(config, None)
    picked = {j: candidates(probabilities, j, config)
              if len(clauses) and (wanted is None or j in wanted) else []
              for j in range(len(categories))}
    narrower.prepare([clauses[i] for rows in picked.values() for i in rows])
    best = probabilities.max(axis=0) if len(clauses) else np.zeros(len(categories))
    return [[c for rank, i in enumerate(picked[j])
             for c in clause_candidates(clauses[i], i, rank, j, name, probabilities, narrower,
                                        document.title, every_sentence, float(best[j]))]
            for j, name in enumerate(categories)]


class SpanScores(NamedTuple):
    """A category's candidate spans as the learned review scores them."""

    highlighted: np.ndarray  # P(CUAD highlights the span): whether the category is found
    listed: np.ndarray  # the confidence the span is listed with (``ranker.SpanNovelty``)


# ``rank(candidates, category)`` -> the candidates' scores (``ranker.ReviewRanker``).
SpanConfidence = Callable[[list[SpanCandidate], str], SpanScores]


def review_items(
    document: Document,
    clauses: Sequence[Clause],
    probabilities: np.ndarray,
    categories: Sequence[str],
    config: ReviewConfig,
    narrower: Narrower | None = None,
    ranker: SpanConfidence | None = None,
    wanted: Collection[str] | None = None,
) -> list[ReviewItem]:
    """One item per category (in ``categories`` order; only those of ``wanted`` when given)
    from ``probabilities``, an array (len(clauses), len(categories)) of each clause's
    probability of each category.

    Each candidate span's confidence is the ``ranker``'s when given (every sentence of a
    listed clause is then a candidate): each span is listed with its listed confidence, the
    first (the ranker's best) with its probability of being highlighted, which decides
    whether the category is found. Without a ranker both are the clause's probability times
    the span's share of the best sentence's score. A text listed twice keeps its higher
    confidence."""
    if probabilities.shape != (len(clauses), len(categories)):
        raise ValueError(f"{document.key}: {probabilities.shape[0]}x{probabilities.shape[1]} "
                         f"probabilities for {len(clauses)} clauses and "
                         f"{len(categories)} categories")
    columns = None if wanted is None else {j for j, c in enumerate(categories) if c in wanted}
    per_category = span_candidates(document, clauses, probabilities, categories, config,
                                   narrower, every_sentence=ranker is not None,
                                   wanted=columns)
    items: list[ReviewItem] = []
    known: dict[str, str | None] = {}
    # a date the document defines by the name of a CUAD date category ("commence as of
    # April 1, 2018 (the "Effective Date")") is that category's answer
    defined = defined_category_dates(clauses) if any(
        c in DEFINED_DATE_CATEGORIES for c in (wanted or categories)) else {}
    for category, found_spans in zip(categories, per_category, strict=True):
        if wanted is not None and category not in wanted:
            continue
        if ranker is not None and found_spans:
            scores = ranker(found_spans, category)
        else:
            rule = np.array([c.rule_confidence for c in found_spans])
            scores = SpanScores(rule, rule)
        listed: dict[str, ReviewClause] = {}
        highlighted: dict[str, float] = {}
        for candidate, confidence, probability in zip(found_spans, scores.listed,
                                                      scores.highlighted, strict=True):
            reported = _reported(document, clauses[candidate.row], float(confidence),
                                 [candidate.span])
            # CUAD's evaluate.py keys predictions by text: one confidence per text
            if reported.text not in listed or listed[reported.text].confidence < reported.confidence:
                listed[reported.text] = reported
            highlighted[reported.text] = max(highlighted.get(reported.text, 0.0), probability)
        # equal confidences: the span more probably highlighted first
        ordered = sorted(listed.values(), key=lambda c: (-c.confidence, -highlighted[c.text]))
        ordered = ordered[:1] + [c for c in ordered[1:]
                                 if c.confidence >= config.min_span_confidence]
        confidence = ordered[0].confidence if ordered else 0.0
        threshold = found_threshold(category, config)
        found = confidence >= threshold
        answer = normalised_answer(category, found, _answer_texts(category, clauses, ordered)
                                   if found else [], known)
        if found and category in defined:
            answer = defined[category]
        known[category] = answer
        items.append(ReviewItem(category=category, found=found, confidence=confidence,
                                threshold=threshold, answer=answer, clauses=ordered))
    return items


# the best Parties clauses read for names (the preamble is nearly always the first)
PARTY_CLAUSES = 3


def _answer_texts(category: str, clauses: Sequence[Clause],
                  ordered: Sequence[ReviewClause]) -> list[str]:
    """What the category's answer is read from, in order: the listed spans' texts. For the
    Parties, the best ``PARTY_CLAUSES`` clauses, each read with the other items of the
    numbered list of parties it is one of (``parties.party_list``), then, should none of
    them introduce two parties, each with the short clauses around it that go on
    introducing them (``parties.introduction``: a preamble cut at its line breaks)."""
    if category != "Parties":
        return [c.text for c in ordered]
    texts = [c.text for c in clauses]
    row = {c.clause_id: k for k, c in enumerate(clauses)}
    lead = [row[c.clause_id] for c in ordered[:PARTY_CLAUSES] if c.clause_id in row]
    alone = [party_list(texts, k) for k in lead]
    return alone + [joined for joined in (introduction(texts, k) for k in lead)
                    if joined not in alone]


def found_threshold(category: str, config: ReviewConfig) -> float:
    """The confidence from which ``category`` is found: ``config.found_threshold`` when set,
    else the category's threshold fitted on CUAD train (``found.py``)."""
    if config.found_threshold is not None:
        return config.found_threshold
    return shipped_found_thresholds().threshold(category)


# the CUAD date categories a document may define by name
DEFINED_DATE_CATEGORIES = ("Effective Date",)


def defined_category_dates(clauses: Sequence[Clause]) -> dict[str, str]:
    """{category: ISO} for each of ``DEFINED_DATE_CATEGORIES`` the clauses define by name
    (the first definition, as the ask's term verdicts read it: answer/dates.py)."""
    from clausegraph.answer.dates import first_definitions

    return {name: iso for name, (iso, _) in first_definitions(clauses).items()
            if name in DEFINED_DATE_CATEGORIES}


def _reported(document: Document, clause: Clause, probability: float,
              spans: list[Span]) -> ReviewClause:
    start, end = spans[0][0], spans[-1][1]
    span = clause.document_span(start, end)
    return ReviewClause(
        clause_id=clause.clause_id, number=clause.label,
        page=document.page_of(span[0]) if document.pages else None, span=span,
        text=clause.text[start:end], confidence=round(min(max(probability, 0.0), 1.0), 6))
