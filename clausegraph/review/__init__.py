"""Contract review against CUAD's 41 clause categories.

For each category: found or not, the clause(s) that state it (narrowed to their best
sentences) with page, span and confidence, and CUAD's normalised answer where it has one.
``models.py`` holds the typed results, ``select.py`` turns per-clause probabilities into
items, ``answers.py`` and ``jurisdiction.py`` read the normalised answers, ``run.py``
reviews stored documents with the clause-type model (``clausegraph.classify``).
"""

from clausegraph.review.answers import ANSWER_KINDS, answer_kind, normalised_answer
from clausegraph.review.jurisdiction import governing_jurisdiction
from clausegraph.review.models import DocumentReview, Review, ReviewClause, ReviewItem
from clausegraph.review.run import ClauseReviewer
from clausegraph.review.select import Narrower, review_items

__all__ = [
    "ANSWER_KINDS", "ClauseReviewer", "DocumentReview", "Narrower", "Review", "ReviewClause",
    "ReviewItem", "answer_kind", "governing_jurisdiction", "normalised_answer",
    "review_items",
]
