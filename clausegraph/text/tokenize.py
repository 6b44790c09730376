"""The one tokenizer behind BM25 everywhere (clause index, document scoping, every backend)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_WORD = re.compile(r"[a-z0-9]+")
# A short list on purpose: legal words like "not", "any", "no", "all", "shall" carry meaning.
_STOPWORDS = frozenset(
    "a an and are as at be by for from has have in is it its of on or that the this to was "
    "were will with which who whom whose what when where how does do did i we you".split()
)


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    """BM25 tokens: lower-cased words and numbers, stop words dropped, Snowball-stemmed.

    >>> tokenize("The Insured Persons are covered")
    ['insur', 'person', 'cover']
    """
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]
    return _stemmer().stemWords(words)


def stemmed_words(text: str) -> list[str]:
    """Lower-cased words and numbers, Snowball-stemmed, stop words kept (a question's "how",
    "when" and "where" say what it asks for).

    >>> stemmed_words("How many days are covered?")
    ['how', 'mani', 'day', 'are', 'cover']
    """
    return _stemmer().stemWords(_WORD.findall(text.lower()))
