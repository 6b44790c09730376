"""The review's span ranker: candidate spans of listed clauses, their features, and the
confidences the review reports with the shipped weights (fitted on CUAD train by
scripts/train_span_ranker.py) on a real segmentation of a short contract."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clausegraph.config import ReviewConfig
from clausegraph.ingest import load_document
from clausegraph.review import Narrower, review_items
from clausegraph.review.ranker import (
    FEATURES,
    NOVELTY_EXTRA,
    NOVELTY_FEATURES,
    WORDS_FEATURE,
    ReviewRanker,
    SpanNovelty,
    SpanRanker,
    novelty_features,
    reads_words,
    shipped_novelty,
    shipped_ranker,
    span_features,
)
from clausegraph.review.select import span_candidates, split_clause
from clausegraph.review.words import shipped_span_words
from clausegraph.segment import segment

CATEGORIES = ["Governing Law", "Renewal Term", "Audit Rights"]
CONTRACT = """SUPPLY AGREEMENT

1. Term. This Agreement begins on the Effective Date and continues for three (3) years. \
Thereafter it renews automatically for successive one (1) year periods unless either party \
gives notice of non-renewal at least ninety (90) days before the end of the then-current term. \
Prices are fixed for the first year.

2. Audit. Supplier shall keep complete and accurate books and records of all shipments. \
Buyer may audit those records once per calendar year on thirty (30) days written notice.

3. Governing Law. This Agreement shall be governed by the laws of the State of New York, \
without regard to its conflict of laws principles.
"""


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory):
    path = Path(tmp_path_factory.mktemp("ranker")) / "supply.txt"
    path.write_text(CONTRACT, encoding="utf-8")
    document = load_document(path)
    return document, segment(document)


def _row(clauses, words: str) -> int:
    return next(i for i, c in enumerate(clauses) if words in c.text)


def _probabilities(clauses) -> np.ndarray:
    probabilities = np.full((len(clauses), len(CATEGORIES)), 0.01)
    probabilities[_row(clauses, "renews automatically"), 1] = 0.85
    probabilities[_row(clauses, "governed by"), 0] = 0.9
    probabilities[_row(clauses, "audit those"), 2] = 0.6
    return probabilities


def _scorer(texts: list[str], owners: list) -> np.ndarray:
    """Sentences about renewing score high for Renewal Term, others low."""
    scores = np.full((len(texts), len(CATEGORIES)), 0.05)
    scores[:, 1] = [0.9 if "renews" in t else 0.1 for t in texts]
    scores[:, 2] = [0.7 if "audit" in t else 0.2 for t in texts]
    return scores


def test_every_sentence_and_the_whole_clause_are_candidates(contract) -> None:
    document, clauses = contract
    config = ReviewConfig(max_clauses=1)
    narrowed_only, = span_candidates(document, clauses, _probabilities(clauses), CATEGORIES,
                                     config, Narrower(config, _scorer))[1:2]
    assert [c.kind for c in narrowed_only] == ["narrowed"]
    every, = span_candidates(document, clauses, _probabilities(clauses), CATEGORIES, config,
                             Narrower(config, _scorer), every_sentence=True)[1:2]
    term = clauses[_row(clauses, "renews automatically")]
    texts = {term.text[c.span[0]:c.span[1]]: c for c in every}
    others = len(split_clause(term.text)) - 1  # every sentence but the narrowed one
    assert others >= 2
    assert sorted(c.kind for c in every) == ["clause", "narrowed"] + ["sentence"] * others
    narrowed = next(c for c in every if c.kind == "narrowed")
    assert term.text[narrowed.span[0]:narrowed.span[1]].startswith("Thereafter it renews")
    assert any(t.startswith("Prices are fixed") for t in texts)
    # the sentence about renewing is the clause's best; the others score less
    assert narrowed.sentence_score == narrowed.best_sentence_score == pytest.approx(0.9)
    assert all(c.sentence_score <= 0.9 for c in every)
    rows = span_features(every, "Renewal Term", {"Renewal Term": 27.0})
    by_kind = {c.kind: row for c, row in zip(every, rows) if c.kind != "sentence"}
    assert by_kind["narrowed"]["is_best_sentence"] == 1.0
    assert by_kind["clause"]["clause_share"] == 1.0
    assert by_kind["narrowed"]["category_Renewal Term"] == 1.0
    assert set(rows[0]) == set(FEATURES)


def test_the_ranker_reads_each_spans_own_words_but_a_dates(contract) -> None:
    document, clauses = contract
    config = ReviewConfig(max_clauses=2)
    every, = span_candidates(document, clauses, _probabilities(clauses), CATEGORIES, config,
                             Narrower(config, _scorer), every_sentence=True)[1:2]
    ranker = shipped_ranker()
    assert WORDS_FEATURE in ranker.features
    column = ranker.rows(every, "Renewal Term")[:, ranker.features.index(WORDS_FEATURE)]
    expected = shipped_span_words().decision_function([c.text for c in every], "Renewal Term")
    np.testing.assert_allclose(column, expected)
    # the renewing sentence's words say Renewal Term more than the pricing sentence's
    by_text = dict(zip((c.text for c in every), column, strict=True))
    renewing = next(v for t, v in by_text.items() if t.startswith("Thereafter it renews"))
    prices = next(v for t, v in by_text.items() if t.startswith("Prices are fixed"))
    assert renewing > prices
    # a span cut down to a date holds only the date's words: unknown to the ranker
    assert not reads_words("narrowed", "Agreement Date")
    assert reads_words("sentence", "Agreement Date") and reads_words("narrowed", "Renewal Term")
    for candidate in every:
        row, = span_features([candidate], "Effective Date", {}, [1.5])
        assert row[WORDS_FEATURE] == (None if candidate.kind == "narrowed" else 1.5)
        row, = span_features([candidate], "Renewal Term", {}, [1.5])
        assert row[WORDS_FEATURE] == 1.5


def test_the_learned_review_lists_spans_once_at_the_rankers_confidence(contract) -> None:
    document, clauses = contract
    config = ReviewConfig(max_clauses=2, min_span_confidence=0.0)
    ranker = ReviewRanker(shipped_ranker())
    items = review_items(document, clauses, _probabilities(clauses), CATEGORIES, config,
                         Narrower(config, _scorer), ranker)
    renewal = items[1]
    texts = [c.text for c in renewal.clauses]
    assert len(texts) == len(set(texts))  # one confidence per text, as CUAD's metric keys it
    confidences = [c.confidence for c in renewal.clauses]
    assert confidences == sorted(confidences, reverse=True)
    assert renewal.confidence == confidences[0]
    # the renewing sentence of the most probable clause beats a sentence of a clause the
    # model gives 0.01 and the unrelated sentence of its own clause
    renewing = next(c for c in renewal.clauses if c.text.startswith("Thereafter it renews"))
    prices = next(c for c in renewal.clauses if c.text.startswith("Prices are fixed"))
    assert renewing.confidence > prices.confidence
    other = [c for c in renewal.clauses if "renew" not in c.text and "Term" not in c.text]
    assert other and all(renewing.confidence > c.confidence for c in other)
    # a span's offsets still slice the document to its text
    for reported in renewal.clauses:
        assert document.text[reported.span[0]:reported.span[1]] == reported.text
    # with the default floor the spans under it are not listed; the best always is
    floored = ReviewConfig(max_clauses=2)
    kept = review_items(document, clauses, _probabilities(clauses), CATEGORIES, floored,
                        Narrower(floored, _scorer), ranker)
    for item, every in zip(kept, items, strict=True):
        assert item.clauses[0] == every.clauses[0]
        assert all(c.confidence >= floored.min_span_confidence for c in item.clauses[1:])
        assert [c for c in every.clauses if c.confidence >= floored.min_span_confidence
                or c is every.clauses[0]] == item.clauses


def test_the_shipped_weights_load_and_name_their_training_data() -> None:
    ranker = shipped_ranker()
    assert ranker.header["trained_on"]["split"] == "train"
    assert set(ranker.features) <= set(FEATURES)
    assert ranker.median_words_["Governing Law"] > ranker.median_words_["Document Name"]
    novelty = shipped_novelty()
    assert novelty.header["trained_on"]["split"] == "train"
    assert novelty.features == list(NOVELTY_FEATURES)


def test_novelty_features_place_each_span_among_those_the_ranker_puts_above_it() -> None:
    texts = ["Buyer may audit the records once a year.",  # the ranker's second
             "Supplier shall keep books and records; Buyer may audit the records once a year.",
             "Buyer may audit the records once a year.",  # the same text again, third
             "Prices are fixed for the first year."]
    extra = novelty_features(texts, np.array([0.6, 0.8, 0.5, 0.1]))
    named = [dict(zip(NOVELTY_EXTRA, row)) for row in extra]
    best, second, repeat, last = named[1], named[0], named[2], named[3]
    assert best["log_rank"] == 0 and best["max_overlap_above"] == best["covered_above"] == 0
    assert best["share_of_best"] == 1.0 and second["share_of_best"] == pytest.approx(0.75)
    # the second's words are all in the best, which it overlaps by half or more
    assert second["covered_above"] == 1.0 and 0.5 <= second["max_overlap_above"] < 1.0
    assert repeat["max_overlap_above"] == 1.0 and repeat["log_repeats_above"] > \
        second["log_repeats_above"]
    assert last["max_overlap_above"] < 0.5 and last["log_rank"] > repeat["log_rank"]


def test_the_novelty_lists_a_repeated_span_lower_and_keeps_the_found_decision(contract):
    """A category's spans after its first are listed with the novelty's confidence; whether
    it is found, its confidence and its first span stay the ranker's."""
    document, clauses = contract
    config = ReviewConfig(max_clauses=3, min_span_confidence=0.0)
    alone = review_items(document, clauses, _probabilities(clauses), CATEGORIES, config,
                         Narrower(config, _scorer), ReviewRanker(shipped_ranker()))
    both = review_items(document, clauses, _probabilities(clauses), CATEGORIES, config,
                        Narrower(config, _scorer),
                        ReviewRanker(shipped_ranker(), shipped_novelty()))
    for first, second in zip(alone, both, strict=True):
        assert (first.found, first.confidence, first.clauses[0]) == \
            (second.found, second.confidence, second.clauses[0])
        assert {c.text for c in first.clauses} == {c.text for c in second.clauses}
        listed = [c.confidence for c in second.clauses]
        assert listed == sorted(listed, reverse=True)
    # below the best, the spans the ranker lists are worth less as new highlights
    renewal_alone = {c.text: c.confidence for c in alone[1].clauses}
    renewal_both = {c.text: c.confidence for c in both[1].clauses}
    later = [t for t in renewal_alone if t != alone[1].clauses[0].text]
    assert later and sum(renewal_both[t] for t in later) < sum(renewal_alone[t] for t in later)


def test_a_file_that_is_not_a_ranker_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ranker.npz"
    path.write_bytes(b"not an npz")
    with pytest.raises(ValueError, match="ranker.npz: not a span ranker"):
        SpanRanker.load(path)
    with pytest.raises(ValueError, match="ranker.npz: not a span novelty model"):
        SpanNovelty.load(path)
