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


def tokenize(text: str, one_spelling: bool = True) -> list[str]:
    """BM25 tokens: lower-cased words and numbers, stop words dropped, the -ize family spelt
    -ise (unless not ``one_spelling``), Snowball-stemmed.

    >>> tokenize("The Insured Persons are covered")
    ['insur', 'person', 'cover']
    >>> tokenize("hospitalization"), tokenize("hospitalisation")
    (['hospitalis'], ['hospitalis'])
    """
    return _stemmer().stemWords(_words(text, one_spelling))


def _words(text: str, one_spelling: bool = True) -> list[str]:
    """Lower-cased words and numbers, stop words dropped (before stemming)."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]
    if not one_spelling:
        return words
    return [_BRITISH.sub(r"\1is\2", w) if "iz" in w else w for w in words]


# "hospitalization" and "hospitalisation" are one word, which the stemmer makes two
# ("hospit", "hospitalis"): a wording uses either, often both, and a question its writer's.
# The -ize family is spelt -ise before stemming (at least three letters before it: "size",
# "prize", "seize" are no such words).
_BRITISH = re.compile(r"^([a-z]{3,}?)iz(e|ed|es|ing|ation|ations|er|ers|able|ement|ements)$")


# number words as their digits, so "three consecutive years" and "3 consecutive years" are
# the same words to the answer stage (BM25 keeps its own tokens: its index stores them).
# Not "one" nor "zero": "one party", "any one claim" count nothing, and "1" is in every
# section number (CUAD dev: "What license does one party grant?" answered 2 more contracts
# without a licence when "one" was "1")
_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                 "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


@lru_cache(maxsize=1)
def _number_digits() -> dict[str, str]:
    words = {word: str(n + 2) for n, word in enumerate(_NUMBER_WORDS)}
    words.update({word: str(10 * (n + 2)) for n, word in enumerate(_TENS)})
    return dict(zip(_stemmer().stemWords(list(words)), words.values(), strict=True))


# the two parties of an insurance contract, which the stemmer makes one word ("insur", as
# "insurance" and "insure"): "Can the insurer cancel the policy?" is not answered by "...
# may be cancelled by the insured"
_PARTIES = {"insurer": "insurer", "insurers": "insurer", "insured": "insured",
            "insureds": "insured"}


def answer_tokens(text: str) -> list[str]:
    """:func:`tokenize`'s tokens with number words written as digits, and the insurer told
    from the insured: what the answer stage matches a question's words to a sentence's by.

    >>> answer_tokens("after five claim-free years"), answer_tokens("after 5 claim-free years")
    (['after', '5', 'claim', 'free', 'year'], ['after', '5', 'claim', 'free', 'year'])
    >>> answer_tokens("the insurer may cancel the insurance of the insured")
    ['insurer', 'may', 'cancel', 'insur', 'insured']
    """
    digits = _number_digits()
    words = _words(text)
    return [_PARTIES.get(word) or digits.get(token, token)
            for word, token in zip(words, _stemmer().stemWords(words), strict=True)]


def stemmed_words(text: str) -> list[str]:
    """Lower-cased words and numbers, Snowball-stemmed, stop words kept (a question's "how",
    "when" and "where" say what it asks for).

    >>> stemmed_words("How many days are covered?")
    ['how', 'mani', 'day', 'are', 'cover']
    """
    return _stemmer().stemWords(_WORD.findall(text.lower()))
