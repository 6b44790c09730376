"""Review items from per-clause category probabilities: which clauses are listed, when a
category is found, how a clause is narrowed to its sentences, and the answers read.

The probabilities here are constructed (the clause-type model is tested with its own
training script); the clauses are a real segmentation of a short contract."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clausegraph.config import ReviewConfig
from clausegraph.ingest import load_document
from clausegraph.review import Narrower, review_items
from clausegraph.segment import segment

CATEGORIES = ["Governing Law", "Renewal Term", "Audit Rights", "Exclusivity"]
CONTRACT = """SUPPLY AGREEMENT

1. Term. This Agreement begins on the Effective Date and continues for three (3) years. \
Thereafter it renews automatically for successive one (1) year periods unless either party \
gives notice of non-renewal at least ninety (90) days before the end of the then-current term.

2. Audit. Supplier shall keep complete and accurate books and records of all shipments. \
Buyer may audit those records once per calendar year on thirty (30) days written notice.

3. Governing Law. This Agreement shall be governed by the laws of the State of New York, \
without regard to its conflict of laws principles.

4. Notices. All notices shall be in writing and delivered by courier to the addresses above.
"""


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory):
    path = Path(tmp_path_factory.mktemp("review")) / "supply.txt"
    path.write_text(CONTRACT, encoding="utf-8")
    document = load_document(path)
    clauses = segment(document)
    return document, clauses


def _clause_row(clauses, words: str) -> int:
    return next(i for i, c in enumerate(clauses) if words in c.text)


def _probabilities(clauses, high: dict[str, tuple[str, float]]) -> np.ndarray:
    """0.01 everywhere, except ``category -> (words of the clause, probability)``."""
    probabilities = np.full((len(clauses), len(CATEGORIES)), 0.01)
    for category, (words, probability) in high.items():
        probabilities[_clause_row(clauses, words), CATEGORIES.index(category)] = probability
    return probabilities


def test_found_follows_the_threshold_and_cites_the_best_clause(contract) -> None:
    document, clauses = contract
    probabilities = _probabilities(clauses, {"Governing Law": ("governed by", 0.93),
                                             "Audit Rights": ("audit those", 0.35)})
    config = ReviewConfig(found_threshold=0.5, granularity="clause")
    items = {i.category: i for i in review_items(document, clauses, probabilities, CATEGORIES,
                                                 config)}
    law = items["Governing Law"]
    assert law.found and law.confidence == pytest.approx(0.93)
    assert law.answer == "New York"
    best = law.clauses[0]
    assert "laws of the State of New York" in best.text
    assert CONTRACT[best.span[0]:best.span[1]] == best.text  # a text file: spans slice it
    assert best.number == "3"
    # below the threshold: not found, answered "No", but the candidate is still listed
    audit = items["Audit Rights"]
    assert not audit.found and audit.answer == "No"
    assert audit.clauses and "audit those records" in audit.clauses[0].text
    assert items["Exclusivity"].answer == "No"


def test_candidates_are_capped_and_floored(contract) -> None:
    document, clauses = contract
    probabilities = np.full((len(clauses), len(CATEGORIES)), 0.01)
    probabilities[:, 3] = np.linspace(0.9, 0.3, len(clauses))
    config = ReviewConfig(max_clauses=2, min_candidate=0.05)
    items = review_items(document, clauses, probabilities, CATEGORIES, config)
    listed = items[3].clauses
    assert [c.confidence for c in listed] == sorted((c.confidence for c in listed), reverse=True)
    assert len(listed) == 2
    # everything below the floor: only the best clause is listed
    assert len(items[0].clauses) == 1


def test_a_clause_is_narrowed_to_the_sentences_that_score_best(contract) -> None:
    document, clauses = contract
    probabilities = _probabilities(clauses, {"Renewal Term": ("renews automatically", 0.8)})

    def scorer(texts: list[str], owners: list) -> np.ndarray:
        # a sentence about renewing scores high for Renewal Term, others low
        scores = np.full((len(texts), len(CATEGORIES)), 0.05)
        scores[:, 1] = [0.9 if "renews" in t else 0.1 for t in texts]
        return scores

    config = ReviewConfig(granularity="sentence", sentence_share=0.8)
    items = review_items(document, clauses, probabilities, CATEGORIES, config,
                         Narrower(config, scorer))
    renewal = items[1]
    text = renewal.clauses[0].text
    assert text.startswith("Thereafter it renews automatically")
    assert "continues for three (3) years" not in text
    span = renewal.clauses[0].span
    assert CONTRACT[span[0]:span[1]] == text
    clause_config = ReviewConfig(granularity="clause")
    whole = review_items(document, clauses, probabilities, CATEGORIES, clause_config,
                         Narrower(clause_config, scorer))
    assert "continues for three (3) years" in whole[1].clauses[0].text


def test_probabilities_of_the_wrong_shape_are_refused(contract) -> None:
    document, clauses = contract
    with pytest.raises(ValueError, match="probabilities for"):
        review_items(document, clauses, np.zeros((len(clauses), 2)), CATEGORIES,
                     ReviewConfig())


def test_title_date_and_parties_are_reported_as_cuad_highlights_them(contract) -> None:
    """Document Name: the title; Agreement Date: the date; Parties: the whole clause."""
    document, clauses = contract
    categories = ["Document Name", "Parties", "Agreement Date"]
    probabilities = np.full((len(clauses), 3), 0.01)
    probabilities[0, 0] = 0.9  # the title clause
    term = _clause_row(clauses, "continues for three")
    probabilities[term, 1] = 0.7
    items = review_items(document, clauses, probabilities, categories, ReviewConfig())
    assert items[0].clauses[0].text == "SUPPLY AGREEMENT"
    assert items[1].clauses[0].text == clauses[term].text


def test_a_date_category_reports_the_date_itself(tmp_path: Path) -> None:
    path = tmp_path / "dated.txt"
    path.write_text("LICENSE AGREEMENT\n\nThis License Agreement is made and entered into as "
                    "of the 5th day of March, 2019 by and between Acme Inc. and Beta LLC.\n",
                    encoding="utf-8")
    document = load_document(path)
    clauses = segment(document)
    row = _clause_row(clauses, "5th day of March")
    probabilities = np.full((len(clauses), 1), 0.01)
    probabilities[row, 0] = 0.8
    (item,) = review_items(document, clauses, probabilities, ["Agreement Date"], ReviewConfig())
    assert item.clauses[0].text == "5th day of March, 2019"
    assert item.answer == "2019-03-05"


@pytest.mark.parametrize("sentence, expected", [
    ("This Agreement is entered into on October 1, 2019 and is made effective as of "
     "November 1, 2019 (the \"Effective Date\").", "November 1, 2019"),
    ("This Agreement shall commence on 3 March 2001 and is dated 1 February 2001.",
     "3 March 2001"),
    ("Dated 2/1/2001; this Agreement takes effect on 3/3/2001.", "3/3/2001"),
    ("This Agreement is dated as of June 5, 2010.", "June 5, 2010"),  # one date: that one
])
def test_an_effective_date_is_the_date_nearest_taking_effect(tmp_path: Path, sentence: str,
                                                            expected: str) -> None:
    path = tmp_path / "effective.txt"
    path.write_text(f"SERVICES AGREEMENT\n\n{sentence}\n", encoding="utf-8")
    document = load_document(path)
    clauses = segment(document)
    row = _clause_row(clauses, "2")
    probabilities = np.full((len(clauses), 2), 0.01)
    probabilities[row, :] = 0.8
    effective, agreement = review_items(document, clauses, probabilities,
                                        ["Effective Date", "Agreement Date"], ReviewConfig())
    assert effective.clauses[0].text == expected
    # the Agreement Date keeps the first date stated
    first = sentence[min(sentence.find(d) for d in ("October", "3 March", "2/1", "June")
                         if d in sentence):]
    assert first.startswith(agreement.clauses[0].text)


@pytest.mark.parametrize("definition", [
    ('The term of this Agreement shall commence as of April 1, 2018 (the "Effective Date") '
     "and shall expire on March 31, 2021."),
    ("The Term begins on 1 April 2018 (hereinafter the “Effective Date”) and ends on 31 March "
     "2021."),
])
def test_a_date_the_document_defines_as_its_effective_date_is_the_answer(
        tmp_path: Path, definition: str) -> None:
    """The preamble dates the agreement, and the review's best Effective Date span is there;
    a later clause defines the Effective Date by another date: that date is the answer."""
    path = tmp_path / "sponsorship.txt"
    path.write_text("SPONSORSHIP AGREEMENT\n\nThis Sponsorship Agreement is entered into as of "
                    'November 27, 2017 (the "Execution Date") by and between Alpha LLC and '
                    f"Beta Inc.\n\n1. Term. {definition}\n", encoding="utf-8")
    document = load_document(path)
    clauses = segment(document)
    probabilities = np.full((len(clauses), 1), 0.01)
    probabilities[_clause_row(clauses, "November 27"), 0] = 0.8
    (effective,) = review_items(document, clauses, probabilities, ["Effective Date"],
                                ReviewConfig())
    assert "November 27, 2017" in effective.clauses[0].text
    assert effective.answer == "2018-04-01"
