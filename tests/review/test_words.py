"""The span words model (review/words.py): a span's own words as evidence of its category."""

from pathlib import Path

import numpy as np
import pytest

from clausegraph.review.words import SpanWords, shipped_span_words

pytest.importorskip("sklearn")

LAW = ["This Agreement is governed by the laws of the State of {}.",
       "The laws of {} govern this Agreement and any dispute under it.",
       "This Agreement shall be construed under the law of {}."]
OTHER = ["The Supplier shall deliver the goods to {} within ten days.",
         "Either party may terminate this Agreement on notice sent to {}.",
         "Payment is due in {} thirty days after the invoice."]
PLACES = ["New York", "Delaware", "California", "Texas", "Ontario", "England", "Nevada"]


def _candidates():
    texts, categories, labels = [], [], []
    for place in PLACES:
        for template in LAW:
            texts.append(template.format(place))
            categories.append("Governing Law")
            labels.append(1)
        for template in OTHER:
            texts.append(template.format(place))
            categories.append("Governing Law")
            labels.append(0)
            # the same sentences are candidates of another category, all unlabelled
            texts.append(template.format(place))
            categories.append("Insurance")
            labels.append(0)
    return texts, categories, labels


def test_the_words_of_a_highlighted_span_score_above_the_others() -> None:
    model = SpanWords(buckets=2**10).fit(*_candidates())
    law = model.decision_function(["This Agreement is governed by the laws of Quebec."],
                                  "Governing Law")
    other = model.decision_function(["The Supplier shall deliver the goods to Quebec."],
                                    "Governing Law")
    assert law[0] > 0 > other[0]
    # a category with no highlighted candidate says no for anything
    assert model.decision_function(["This Agreement is governed by the laws of Quebec."],
                                   "Insurance")[0] < -5
    # a category with no candidate at all too
    assert model.decision_function(["anything"], "Parties")[0] < -5


def test_a_saved_model_scores_as_it_did_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    model = SpanWords(buckets=2**10).fit(*_candidates())
    path = tmp_path / "words.npz"
    model.save(path, trained_on={"split": "test"})
    loaded = SpanWords.load(path)
    texts = ["The laws of Ohio govern this Agreement.", "Payment is due in Ohio."]
    np.testing.assert_allclose(loaded.decision_function(texts, "Governing Law"),
                               model.decision_function(texts, "Governing Law"), atol=0.02)
    assert loaded.header["trained_on"] == {"split": "test"}
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(ValueError, match="other.npz: not a span words model"):
        SpanWords.load(tmp_path / "other.npz")


def test_an_unfitted_model_says_so() -> None:
    with pytest.raises(ValueError, match="not fitted"):
        SpanWords().decision_function(["text"], "Parties")


def test_the_shipped_model_was_fitted_on_train_and_reads_categories_from_words() -> None:
    model = shipped_span_words()
    assert model.header["trained_on"]["split"] == "train"
    law = "This Agreement shall be governed by the laws of the State of New York."
    cover = "The Licensee shall maintain general liability insurance of at least $1,000,000."
    assert model.decision_function([law, cover], "Governing Law").tolist() == sorted(
        model.decision_function([law, cover], "Governing Law").tolist(), reverse=True)
    assert model.decision_function([cover], "Insurance")[0] > \
        model.decision_function([law], "Insurance")[0]
