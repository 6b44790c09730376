"""The copy of spaCy's English stop words is the installed spaCy's list."""

from __future__ import annotations

from clausegraph.text.stopwords import ENGLISH_STOP_WORDS


def test_the_copy_is_spacy_s_list():
    from spacy.lang.en.stop_words import STOP_WORDS

    assert frozenset(STOP_WORDS) == ENGLISH_STOP_WORDS


def test_function_words_are_in_it_and_content_words_are_not():
    assert {"while", "during", "if", "under", "after"} <= ENGLISH_STOP_WORDS
    assert not {"dental", "treatment", "insurer", "damage", "trip"} & ENGLISH_STOP_WORDS
