"""CUAD v1 labels and CUAD's own scoring, for the dev benchmark and the review benchmark.

- Labels: ``../shared/data/cuad-train/cuad_labels.json`` (one record per contract, all 41
  categories; an empty ``texts`` list is a label too) as typed records, filtered by split.
- The span metric as the CUAD paper's ``evaluate.py`` computes it: a predicted span matches
  a gold span when the Jaccard similarity of their word sets is >= 0.5 (for Parties a gold
  text inside the prediction matches too); true/false positives and misses are pooled over
  every (contract, category) pair; precision and recall are taken at each confidence
  threshold (0.99, 0.98, ..., 0.01, 0.001, 0; a prediction counts when its confidence is
  above the threshold), precision is made non-increasing in recall, and AUPR is the
  trapezoid area under that curve; precision at 80% / 90% recall is the (non-increasing)
  precision of the first threshold that reaches that recall, 0 when none does.
- Normalised answers: whether a text (a direct answer, a review answer) states CUAD's
  normalised answer, per answer kind (date, date_or_term, term, jurisdiction, yes_no).
  The judge is deliberately separate from the system's value extractor: a benchmark that
  scored answers with the code that wrote them would share its blind spots.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from difflib import SequenceMatcher
from itertools import pairwise
from pathlib import Path
from typing import Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clausegraph.errors import ClauseGraphError
from clausegraph.eval.data import shared_data_dir

AnswerKind = Literal["date", "date_or_term", "term", "jurisdiction", "yes_no"]
Split = Literal["train", "dev"]

# -- labels ------------------------------------------------------------------------------------


class CategoryLabel(BaseModel):
    """One contract's label for one CUAD category (``texts`` empty: no such clause)."""

    model_config = ConfigDict(extra="ignore")

    texts: list[str]
    spans: list[tuple[int, int] | None]
    located: list[str] = Field(default_factory=list)
    n_occ: list[int] = Field(default_factory=list)
    answer: str | None = None

    @property
    def has_clause(self) -> bool:
        return bool(self.texts)


class CuadContract(BaseModel):
    """One labelled contract: its files, type, split and the 41 category labels."""

    model_config = ConfigDict(extra="ignore")

    doc: str | None = Field(description="LegalBench-RAG corpus path, or None")
    txt: str | None = Field(None, description="file in txt_not_in_lbrag/ when doc is None")
    pdf: str = Field(description="PDF file name (in pdf/ for dev contracts)")
    contract_type: str
    split: Split
    categories: dict[str, CategoryLabel]


class CuadLabels(BaseModel):
    """The label file: the category names (CUAD's order) and the contracts."""

    categories: list[str]
    contracts: list[CuadContract]

    def contract(self, pdf: str) -> CuadContract:
        for contract in self.contracts:
            if contract.pdf == pdf:
                return contract
        raise KeyError(pdf)


class CuadQuestion(BaseModel):
    """One line of benchmarks/cuad_dev/questions.yaml."""

    category: str
    description: str
    question: str
    answer_kind: AnswerKind | None = None


def cuad_dir() -> Path:
    return shared_data_dir() / "cuad-train"


def load_cuad_labels(path: str | Path | None = None, split: Split | None = None) -> CuadLabels:
    """The CUAD labels (default ``../shared/data/cuad-train/cuad_labels.json``), only the
    contracts of ``split`` when given."""
    path = Path(path) if path else cuad_dir() / "cuad_labels.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        labels = CuadLabels(categories=raw["meta"]["categories"], contracts=raw["contracts"])
    except FileNotFoundError:
        raise ClauseGraphError(f"{path}: no CUAD label file there (see "
                               "../shared/data/cuad-train/README.md)") from None
    except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
        problem = str(exc).splitlines()[0]
        raise ClauseGraphError(f"{path}: not a CUAD label file ({problem})") from None
    if split:
        labels.contracts = [c for c in labels.contracts if c.split == split]
    return labels


def load_cuad_questions(path: str | Path) -> list[CuadQuestion]:
    """The 41 analyst questions, one per CUAD category, in the file's order."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return [CuadQuestion.model_validate(item) for item in raw["categories"]]
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValidationError) as exc:
        problem = str(exc).splitlines()[0]
        raise ClauseGraphError(f"{path}: not a CUAD question file ({problem})") from None


# -- CUAD's span metric --------------------------------------------------------------------

IOU_THRESHOLD = 0.5
# evaluate.py's thresholds, high to low; a prediction counts when confidence > threshold.
# Kept as the floats np.arange makes (0.58 is 0.5800000000000001 there), so a confidence equal
# to a threshold falls on the same side as in evaluate.py: checked equal on random inputs.
CONFIDENCE_THRESHOLDS = [float(t) for t in np.arange(0.99, 0, -0.01)] + [0.001, 0.0]
# Categories where a gold text inside the prediction also matches (evaluate.py: Parties).
SUBSTRING_CATEGORIES = frozenset({"Parties"})

Key = tuple[str, str]
"""(contract, category): one question of CUAD's test set."""


class Prediction(BaseModel):
    """One predicted span: its text and the model's confidence in it."""

    text: str
    confidence: float


def typographic_to_ascii(text: str) -> str:
    """Curly quotes, primes and dashes as CUAD's text writes them (ASCII ``"`` ``'`` ``-``;
    NFKC first, so a PDF's ``ﬁ`` is ``fi``). CUAD's label texts hold no curly quote (4,005
    ``"`` and 3,391 ``'`` in the 425 contracts' highlights, none typographic), while a
    contract's PDF prints ``the “Provider”``: without this a span that is the gold text
    word for word would not match it."""
    return unicodedata.normalize("NFKC", text).translate(_FOLD)


def jaccard_words(text: str) -> set[str]:
    """The word set evaluate.py compares: ``. , ; :`` removed, lower-cased, ``/`` as a space.

    Words are split on any whitespace, where evaluate.py splits on single spaces: predicted
    spans here come from PDFs, whose line breaks separate words that CUAD's text joins by
    a space (on single-spaced text both give the same set). For the same reason quotes and
    dashes are compared as ASCII (:func:`typographic_to_ascii`)."""
    text = typographic_to_ascii(text)
    for mark in ".,;:":
        text = text.replace(mark, "")
    return set(text.lower().replace("/", " ").split())


def span_jaccard(gold: str, predicted: str) -> float:
    gold_words, predicted_words = jaccard_words(gold), jaccard_words(predicted)
    union = gold_words | predicted_words
    return len(gold_words & predicted_words) / len(union) if union else 0.0


def _spaced(text: str) -> str:
    return " ".join(typographic_to_ascii(text).split())


def spans_match(gold: str, predicted: str, category: str) -> bool:
    """evaluate.py's match; its Parties substring test here ignores spacing and quote style
    (PDF text), not case."""
    if category in SUBSTRING_CATEGORIES and _spaced(gold) in _spaced(predicted):
        return True
    return span_jaccard(gold, predicted) >= IOU_THRESHOLD


class MatchCounts(BaseModel):
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0

    @property
    def precision(self) -> float | None:
        predicted = self.true_positives + self.false_positives
        return self.true_positives / predicted if predicted else None

    @property
    def recall(self) -> float | None:
        relevant = self.true_positives + self.false_negatives
        return self.true_positives / relevant if relevant else None


class KeyMatches(BaseModel):
    """One question's predictions matched once against its gold texts, so that every
    threshold is a filter (as if evaluate.py re-matched the predictions above it)."""

    gold_best: list[float | None] = Field(description="per gold text: the highest confidence "
                                          "of a prediction matching it; None when none does")
    unmatched: list[float] = Field(description="confidences of predictions matching no gold")

    def counts(self, threshold: float) -> MatchCounts:
        hits = sum(best is not None and best > threshold for best in self.gold_best)
        return MatchCounts(true_positives=hits, false_negatives=len(self.gold_best) - hits,
                           false_positives=sum(c > threshold for c in self.unmatched))


def match_key(answers: Sequence[str], predictions: Sequence[Prediction],
              category: str) -> KeyMatches:
    """Distinct non-empty prediction texts (evaluate.py keys predictions by text: the last
    confidence of a repeated text wins) matched against the gold texts."""
    by_text = {p.text: p.confidence for p in predictions if p.text != ""}
    matched = {(g, t): spans_match(g, t, category) for g in set(answers) for t in by_text}
    return KeyMatches(
        gold_best=[max((c for t, c in by_text.items() if matched[(g, t)]), default=None)
                   for g in answers],
        unmatched=[c for t, c in by_text.items() if not any(matched[(g, t)] for g in answers)])


def pooled_counts(matches: Iterable[KeyMatches], threshold: float) -> MatchCounts:
    total = MatchCounts()
    for key_matches in matches:
        counts = key_matches.counts(threshold)
        total.true_positives += counts.true_positives
        total.false_positives += counts.false_positives
        total.false_negatives += counts.false_negatives
    return total


def count_matches(gold: Mapping[Key, Sequence[str]],
                  predicted: Mapping[Key, Sequence[str]]) -> MatchCounts:
    """Pooled counts for predictions without confidences: each gold text is a hit when some
    prediction matches it, else a miss; each prediction matching no gold text is a false
    positive (all of them when the contract has no such clause)."""
    return pooled_counts([match_key(answers, [Prediction(text=t, confidence=1.0)
                                              for t in predicted.get(key, [])], key[1])
                          for key, answers in gold.items()], 0.0)


class CurvePoint(BaseModel):
    threshold: float | None = Field(description="None: the curve's start (recall 0)")
    precision: float | None = Field(description="None when nothing is predicted")
    recall: float | None = Field(description="None when there is no gold text")
    envelope: float = Field(0.0, description="the precision made non-increasing in recall")


class SpanScores(BaseModel):
    """CUAD's figures for a set of (contract, category) questions, as fractions 0..1."""

    questions: int
    gold_spans: int
    aupr: float
    precision_at_80_recall: float
    precision_at_90_recall: float
    curve: list[CurvePoint]


def precision_recall_curve(gold: Mapping[Key, Sequence[str]],
                           predictions: Mapping[Key, Sequence[Prediction]]) -> list[CurvePoint]:
    """(1, 0) then one point per threshold, high to low, with its non-increasing envelope."""
    matches = [match_key(answers, predictions.get(key, []), key[1])
               for key, answers in gold.items()]
    points = [CurvePoint(threshold=None, precision=1.0, recall=0.0)]
    for threshold in CONFIDENCE_THRESHOLDS:
        counts = pooled_counts(matches, threshold)
        points.append(CurvePoint(threshold=threshold, precision=counts.precision,
                                 recall=counts.recall))
    best = 0.0
    for point in reversed(points):  # from the lowest threshold (highest recall) up
        best = max(best, point.precision if point.precision is not None else 0.0)
        point.envelope = best
    return points


def area_under_curve(points: Sequence[CurvePoint]) -> float:
    """Trapezoid area of the envelope over recall; 0 when recall is undefined."""
    if any(p.recall is None for p in points):
        return 0.0
    return sum((b.recall - a.recall) * (a.envelope + b.envelope) / 2
               for a, b in pairwise(points))


def precision_at_recall(points: Sequence[CurvePoint], recall: float) -> float:
    for point in points:
        if point.recall is not None and point.recall >= recall:
            return point.envelope
    return 0.0


def score_spans(gold: Mapping[Key, Sequence[str]],
                predictions: Mapping[Key, Sequence[Prediction]]) -> SpanScores:
    """AUPR and precision at 80% / 90% recall, pooled over every key of ``gold``."""
    curve = precision_recall_curve(gold, predictions)
    return SpanScores(
        questions=len(gold), gold_spans=sum(len(v) for v in gold.values()),
        aupr=area_under_curve(curve),
        precision_at_80_recall=precision_at_recall(curve, 0.8),
        precision_at_90_recall=precision_at_recall(curve, 0.9), curve=curve)


# -- normalised answers ----------------------------------------------------------------------

_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "`": "'", "–": "-", "—": "-",
                       "‐": "-", "‑": "-", "−": "-", "\u00a0": " "})
_MONTHS = {name: number for number, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
     ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
     ("october", "oct"), ("november", "nov"), ("december", "dec")], start=1) for name in names}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ORDINAL_ONES = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                 "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
                 "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"]
_ORDINAL_DAYS = {word: n for n, word in enumerate(_ORDINAL_ONES, start=1)} | {
    "twentieth": 20, "thirtieth": 30, "thirty-first": 31, "thirty first": 31} | {
    f"twenty{joint}{word}": 20 + n for n, word in enumerate(_ORDINAL_ONES[:9], start=1)
    for joint in ("-", " ")}
# a day: "21", "21st", "twenty-first", or left blank to fill in ("June __, 2018")
_DAY = (r"(?P<day>[0-3]?\d(?:st|nd|rd|th)?|_+|"
        + "|".join(sorted(_ORDINAL_DAYS, key=len, reverse=True)) + r")")
_YEAR = r"(?P<year>(?:19|20)\d\d)"
# "June 21, 1999", "June 21 1999", "June, 1999", "June __, 2018"; "21 June 1999", "21st
# (first) day of June, 1999"; "6/21/1999", "06-21-1999", "6/21/99"; "1999-06-21"; a bare year.
_DATE_PATTERNS = [
    re.compile(rf"\b{_MONTH}\s*(?:{_DAY}\s*)?,?\s*{_YEAR}\b"),
    re.compile(rf"\b{_DAY}\s*(?:day\s+of\s+)?{_MONTH}\s*,?\s*{_YEAR}\b"),
    re.compile(rf"\b(?P<month>[01]?\d)[/.-]{_DAY}[/.-]{_YEAR}\b"),
    re.compile(r"\b(?P<month>[01]?\d)([/-])(?P<day>[0-3]?\d)\2(?P<year>\d\d)\b"),
    re.compile(rf"\b{_YEAR}-(?P<month>[01]\d)(?:-(?P<day>[0-3]\d))?\b"),
    re.compile(rf"\b{_YEAR}\b"),
]


def fold(text: str) -> str:
    """NFKC, curly quotes and dashes straightened, case folded, whitespace collapsed."""
    return " ".join(typographic_to_ascii(text).casefold().split())


def iso_date(year: int | None, month: int | None = None, day: int | None = None) -> str | None:
    """"YYYY-MM-DD", or "YYYY-MM" / "YYYY" when the later parts are unknown; None for an
    impossible date or an unknown year."""
    if year is None or (month is not None and not 1 <= month <= 12):
        return None
    if day is not None and (month is None or not 1 <= day <= 31):
        return None
    parts = [f"{year:04d}"] + ([f"{month:02d}"] if month else []) + ([f"{day:02d}"] if day else [])
    return "-".join(parts)


def normalise_cuad_date(answer: str) -> str | None:
    """CUAD's ``m/d/yyyy`` (``[]`` for an unknown part) as ISO: "6/21/1999" -> "1999-06-21",
    "11/[]/2006" -> "2006-11", "[]/[]/2020" -> "2020"; None when the year is unknown or the
    answer is not a date. An ISO date passes through."""
    answer = answer.strip()
    iso = re.fullmatch(r"(\d{4})(?:-(\d\d)(?:-(\d\d))?)?", answer)
    if iso:
        year, month, day = (int(g) if g else None for g in iso.groups())
        return iso_date(year, month, day)
    match = re.fullmatch(r"(\d{1,2}|\[\])/(\d{1,2}|\[\])/(\d{4}|\d\d\[\]|\[\])", answer)
    if not match:
        return None
    month, day, year = (int(g) if g.isdigit() else None for g in match.groups())
    if month is None and day is not None:
        return None
    return iso_date(year, month, day)


def _day_number(day: str | None) -> int | None:
    if not day or day.startswith("_"):
        return None
    digits = re.match(r"\d+", day)
    return int(digits.group()) if digits else _ORDINAL_DAYS[day]


def _year_number(year: str) -> int:
    """A two-digit year as contracts of 1950-2049 mean it."""
    value = int(year)
    return value if len(year) == 4 else (2000 + value if value < 50 else 1900 + value)


def dates_in(text: str) -> set[str]:
    """Every date the text writes, as ISO (a date written without day or month gives the
    shorter form); where patterns overlap the longest reading wins, so the year of
    "21 June 1999" is not also a bare year, nor "June 1999" a month."""
    folded = fold(text)
    candidates = sorted(((m.start(), -m.end(), m) for pattern in _DATE_PATTERNS
                         for m in pattern.finditer(folded)), key=lambda c: (c[0], c[1]))
    found: set[str] = set()
    reached = -1
    for start, negative_end, match in candidates:
        if start < reached:
            continue
        parts = match.groupdict()
        month = parts.get("month")
        month_number = (int(month) if month.isdigit() else _MONTHS[month]) if month else None
        iso = iso_date(_year_number(parts["year"]), month_number, _day_number(parts.get("day")))
        if iso:
            found.add(iso)
            reached = -negative_end
    return found


_UNITS = {"day": ("day", 1), "week": ("day", 7), "month": ("month", 1), "year": ("month", 12)}
_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER_WORDS = {word: n for n, word in enumerate(_ONES)} | {
    word: 20 + 10 * i for i, word in enumerate(_TENS)} | {"hundred": 100}
_NUMBER_WORD = r"(?:" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
_WORDS = rf"{_NUMBER_WORD}(?:[\s-]+(?:and\s+)?{_NUMBER_WORD})*"
_DURATION = re.compile(
    rf"(?<![\w.])(?P<number>\d+(?:\.\d+)?|{_WORDS})\)?\s*"
    rf"(?:\(\s*(?P<figure>\d+(?:\.\d+)?)\s*\)\s*)?"
    rf"(?:\(\s*{_WORDS}\s*\)\s*)?-?\s*"
    rf"(?:(?:calendar|business|consecutive|successive|additional|further|full)[\s-]+)?"
    rf"(?P<unit>day|week|month|year)s?\b")
# "month to month", "year-to-year": renewal by one unit at a time
_UNIT_TO_UNIT = re.compile(r"\b(?P<unit>month|year)[\s-]+to[\s-]+(?P=unit)\b")
_PERPETUAL = re.compile(r"\b(?:perpetu\w*|indefinite\w*|in\s+perpetuity)\b")


def _number_value(words: str) -> float | None:
    """"one hundred and twenty" -> 120; "thirty-six" -> 36; a numeral as itself."""
    try:
        return float(words)
    except ValueError:
        pass
    total = 0.0
    for word in re.split(r"[\s-]+", words):
        if word == "and":
            continue
        value = _NUMBER_WORDS.get(word)
        if value is None:
            return None
        total = total * value if value == 100 and total else total + value
    return total


def durations_in(text: str) -> set[tuple[float, str]]:
    """Every duration the text writes, as (length, "day" | "month"): weeks in days, years in
    months, so "1 year" and "twelve (12) months" are the same term; "perpetual" as
    (inf, "month")."""
    folded = fold(text)
    found = set()
    for match in _DURATION.finditer(folded):
        figure = match.group("figure")
        amount = float(figure) if figure else _number_value(match.group("number"))
        if amount is None:
            continue
        unit, factor = _UNITS[match.group("unit")]
        found.add((amount * factor, unit))
    for match in _UNIT_TO_UNIT.finditer(folded):
        unit, factor = _UNITS[match.group("unit")]
        found.add((float(factor), unit))
    if _PERPETUAL.search(folded):
        found.add((float("inf"), "month"))
    return found


# "English law", "Swiss law": a governing-law clause may name the place by its adjective.
_PLACE_ADJECTIVES = {"england": "english", "switzerland": "swiss", "germany": "german",
                     "france": "french", "netherlands": "dutch", "israel": "israeli",
                     "ireland": "irish", "scotland": "scottish", "canada": "canadian",
                     "india": "indian", "japan": "japanese", "singapore": "singaporean"}
_JURISDICTION_PREFIX = re.compile(r"^(?:the\s+)?(?:state|province|commonwealth|republic)\s+of\s+")


def jurisdiction_names(answer: str) -> list[str]:
    """The places a CUAD governing-law answer names: one per ``;`` part, the most specific
    (first) piece of "Ontario, Canada", without "State of" / "Province of"."""
    names = []
    for part in fold(answer).split(";"):
        first = part.split(",")[0].strip()
        first = _JURISDICTION_PREFIX.sub("", first)
        if first:
            names.append(first)
    return names


def _names_place(folded_text: str, place: str) -> bool:
    """The place, or its adjective ("english law"), as whole words of the text."""
    forms = [place] + ([_PLACE_ADJECTIVES[place]] if place in _PLACE_ADJECTIVES else [])
    return any(re.search(rf"(?<!\w){re.escape(form)}(?!\w)", folded_text) for form in forms)


def answer_stated(kind: AnswerKind, gold: str | None, text: str | None) -> bool | None:
    """Whether ``text`` states CUAD's normalised answer ``gold``; None when the gold answer
    cannot be scored (missing, or unknown parts only, like "[]/[]/[]").

    date: a date in the text equals the gold date at the gold's precision (ISO equality);
    term: a duration in the text equals one of the gold's (``;``-separated) durations, or
    both say perpetual; date_or_term: a date answer as a date, else as a term; jurisdiction:
    every place the gold names appears in the text as whole words; yes_no: the text is
    "yes" or "no" as the gold."""
    if gold is None or not gold.strip():
        return None
    text = text or ""
    if kind == "yes_no":
        gold_word = fold(gold)
        return fold(text) == gold_word if gold_word in ("yes", "no") else None
    if kind == "jurisdiction":
        names = jurisdiction_names(gold)
        folded = fold(text)
        return all(_names_place(folded, n) for n in names) if names else None
    if kind == "date" or (kind == "date_or_term" and "/" in gold):
        iso = normalise_cuad_date(gold)
        # a review may answer in CUAD's own notation ("09/[]/2018") as well as ISO
        return (iso in dates_in(text) | {normalise_cuad_date(text)}) if iso else None
    wanted = durations_in(gold)
    return bool(wanted & durations_in(text)) if wanted else None


def answer_scorable(kind: AnswerKind, gold: str | None) -> bool:
    """Whether CUAD's answer ``gold`` can be judged at all (see :func:`answer_stated`)."""
    return answer_stated(kind, gold, "") is not None


# -- whether a clause holds a gold text (hit@k) ----------------------------------------------

HOLDS_SHARE = 0.5
_LINE_END_HYPHEN = re.compile(r"(\w)-[ \t]*\r?\n[ \t]*(\w)")


def match_tokens(text: str) -> list[str]:
    """Words for comparing a CUAD TXT span with PDF clause text: hyphenation at line ends
    undone, NFKC, quotes and dashes folded, case folded; punctuation and spacing ignored."""
    text = _LINE_END_HYPHEN.sub(r"\1\2", text)
    return re.findall(r"\w+", fold(text))


def gold_share_held(gold: str, clause: str) -> float:
    """The share of the gold text's words that the clause holds as one contiguous run (1.0:
    the whole gold text is in the clause)."""
    gold_words, clause_words = match_tokens(gold), match_tokens(clause)
    if not gold_words:
        return 1.0 if fold(gold) and fold(gold) in fold(clause) else 0.0
    matcher = SequenceMatcher(None, gold_words, clause_words, autojunk=False)
    run = matcher.find_longest_match(0, len(gold_words), 0, len(clause_words))
    return run.size / len(gold_words)


def holds_gold(clause: str, golds: Iterable[str]) -> bool:
    """A clause holds the gold text when it contains all of one gold span, or one contiguous
    run of at least half of its words (a long span crosses clause boundaries)."""
    return any(gold_share_held(gold, clause) >= HOLDS_SHARE for gold in golds)


def first_hit(clauses: Sequence[str], golds: Sequence[str]) -> int | None:
    """The 1-based rank of the first clause holding a gold text, None when none does."""
    for rank, clause in enumerate(clauses, start=1):
        if holds_gold(clause, golds):
            return rank
    return None
