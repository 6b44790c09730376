"""BM25 tokens: a word spelt the British or the American way is one word.

A wording writes "hospitalisation" or "hospitalization" (Indian policies often both), a
question its writer's spelling; the stemmer made them two ("hospitalis", "hospit"), so BM25
and the answer's word matching missed the other spelling. The -ize family is spelt -ise
before stemming; the clause-type model's features keep each spelling, as its weights were
fitted.
"""

from __future__ import annotations

import pytest

from clausegraph.classify.features import hashed_terms
from clausegraph.text.tokenize import answer_tokens, tokenize


@pytest.mark.parametrize(("british", "american"), [
    ("hospitalisation", "hospitalization"), ("hospitalised", "hospitalized"),
    ("organisation", "organization"), ("authorised", "authorized"),
    ("authorisation", "authorization"), ("utilisation", "utilization"),
    ("recognises", "recognizes"), ("minimising", "minimizing"),
])
def test_the_two_spellings_are_one_token(british, american):
    assert tokenize(british) == tokenize(american)
    assert answer_tokens(f"Pre-{british} expenses") == answer_tokens(f"Pre-{american} expenses")


@pytest.mark.parametrize(("word", "other"), [("size", "sise"), ("prize", "prise"),
                                             ("citizen", "citisen"), ("arizona", "arisona")])
def test_words_that_only_end_alike_keep_their_spelling(word, other):
    assert tokenize(word) != tokenize(other)


def test_the_clause_type_features_keep_each_spelling():
    assert hashed_terms("hospitalization", 2**14) != hashed_terms("hospitalisation", 2**14)
