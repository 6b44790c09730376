"""A full stop after an abbreviation ends no sentence, in every splitter of the answer stage."""

import pytest

from clausegraph.answer.direct import split_sentences
from clausegraph.answer.extractive import sentence_spans
from clausegraph.text.abbreviations import ends_with_abbreviation

SPLITTERS = [sentence_spans, split_sentences]


def pieces(splitter, text):
    return [text[start:end] for start, end in splitter(text)]


@pytest.mark.parametrize("splitter", SPLITTERS)
@pytest.mark.parametrize("limit", ["Rs. 2000", "Rs. 2,000/-", "Rs. 2.5 Lacs", "No. 4 of the Schedule",
                                   "Sec. 3 of the Act", "Art. 7"])
def test_an_abbreviation_before_a_figure_ends_no_sentence(splitter, limit):
    text = f"Ambulance expenses are paid subject to {limit} per hospitalisation. Air ambulance is not."
    assert pieces(splitter, text) == [
        f"Ambulance expenses are paid subject to {limit} per hospitalisation.",
        "Air ambulance is not.",
    ]


@pytest.mark.parametrize("splitter", SPLITTERS)
def test_a_word_that_only_looks_like_one_still_ends_a_sentence(splitter):
    # "Hours" and "Cos" end in letters of an abbreviation but are words of their own
    text = "Claims are paid within 48 Hours. The insurer then closes them."
    assert len(pieces(splitter, text)) == 2


def test_the_stop_must_close_the_word():
    text = "subject to Rs. 2000 per day. Then"
    assert ends_with_abbreviation(text, text.index("."))
    assert not ends_with_abbreviation(text, text.index(". Then"))
    assert not ends_with_abbreviation("Paid in Cos. Then", len("Paid in Cos"))
