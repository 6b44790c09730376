"""CUAD's normalised answers from the text a review found: ISO dates, the governing law's
jurisdiction, durations ("1 year", "90 days") and Yes/No; for the two categories whose
answer is the text itself, the title and the parties with their defined names
(``clausegraph.review.parties``).

Dates and durations come from the one value extractor (``clausegraph.text.values``), so
"thirty (30) days", "30 (thirty) days" and "thirty days" read alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clausegraph.review.jurisdiction import governing_jurisdiction
from clausegraph.review.parties import document_name, parties_answer
from clausegraph.text.term import (
    PERPETUAL,
    add_duration,
    date_by_name,
    format_length,
    notice_period,
    renewal_length,
    term_end,
)

__all__ = ["ANSWER_KINDS", "add_duration", "answer_kind", "normalised_answer"]

# What CUAD's normalised answer is for each category that has one besides Yes/No
# (benchmarks/cuad_dev/questions.yaml records the same kinds); the other categories
# without one are the two whose answer is the span itself.
ANSWER_KINDS: dict[str, str] = {
    "Agreement Date": "date",
    "Effective Date": "date",
    "Expiration Date": "expiry",
    "Renewal Term": "renewal",
    "Notice Period to Terminate Renewal": "notice",
    "Governing Law": "jurisdiction",
}
SPAN_ONLY = frozenset({"Document Name", "Parties"})


def answer_kind(category: str) -> str | None:
    """'date', 'expiry', 'renewal', 'notice', 'jurisdiction', 'yes_no' or None."""
    if category in SPAN_ONLY:
        return None
    return ANSWER_KINDS.get(category, "yes_no")


def normalised_answer(
    category: str, found: bool, texts: Sequence[str], known: Mapping[str, str | None] = {},
) -> str | None:
    """The answer for ``category`` read from ``texts`` (best first); ``known`` holds the
    answers already read for the same document (an expiry counted from the effective
    date needs it). None when the category has no normalised answer or none is stated."""
    kind = answer_kind(category)
    if kind == "yes_no":
        return "Yes" if found else "No"
    if category in SPAN_ONLY:
        return _span_answer(category, texts) if found and texts else None
    if kind is None or not found:
        return None
    if kind == "expiry":
        return _expiry(texts, known)
    for text in texts:
        answer = _READERS[kind](text, known)
        if answer:
            return answer
    return None


def _span_answer(category: str, texts: Sequence[str]) -> str | None:
    """The title the Document Name span holds; the parties the best Parties clause that
    names any introduces ("Jacksonville Jaguars, LLC ("Club"); The ARC Group, Inc.
    ("Sponsor")")."""
    if category == "Document Name":
        return document_name(texts[0]) or None
    return parties_answer(texts)


def _first_date(text: str, known: Mapping[str, str | None]) -> str | None:
    """The first date stated, else the document's date the text names ("effective as of
    the date first written above": the Agreement Date already read)."""
    from clausegraph.text.values import extract_values

    for value in extract_values(text):
        if value.kind == "date" and value.iso:
            return value.iso
    named = date_by_name(text, known)
    return named[0] if named else None


def _expiry(texts: Sequence[str], known: Mapping[str, str | None]) -> str | None:
    """The end of the initial term (``clausegraph.text.term``) the first of ``texts`` that
    tells gives: a stated end date, else its start plus its length, counted from the
    document's effective date (or the date of the agreement) when the clause names it; CUAD
    writes a term with no end "perpetual". A term that only runs until a party ends it
    (``TermEnd.open_ended``) is perpetual when no text states an end."""
    open_ended = False
    for text in texts:
        end = term_end(text, known)
        if end is None:
            continue
        if end.open_ended:
            open_ended = True
            continue
        answer = "perpetual" if end.perpetual else end.end
        if answer:
            return answer
    return "perpetual" if open_ended else None


def _renewal(text: str, known: Mapping[str, str | None]) -> str | None:
    """The length of a renewal (``clausegraph.text.term.renewal_length``); an open-ended
    term is "perpetual"."""
    length = renewal_length(text)
    if length:
        return format_length(*length)
    return "perpetual" if PERPETUAL.search(text) else None


def _notice(text: str, known: Mapping[str, str | None]) -> str | None:
    """The notice period (``clausegraph.text.term.notice_period``)."""
    length = notice_period(text)
    return format_length(*length) if length else None


def _jurisdiction(text: str, known: Mapping[str, str | None]) -> str | None:
    return governing_jurisdiction(text)


_READERS = {
    "date": _first_date, "renewal": _renewal, "notice": _notice,
    "jurisdiction": _jurisdiction,
}
