"""When a term ends, read from the clause that sets it: a stated end date, else its start
plus its length, else no end at all ("until terminated").

A contract seldom states its expiry as a date. "The term of this Agreement shall commence
on the Effective Date and continue for three (3) years" ends three years after a date stated
elsewhere; "commencing on January 2, 2020 ... for one (1) year" ends on January 2, 2021,
though the only date the clause names is its start. Both the direct answer's verdict ("When
does the initial term end?") and the review's normalised Expiration Date read it here, from
the values of the one extractor (:mod:`clausegraph.text.values`), so "three (3) years",
"3 years" and "the third anniversary" read alike.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from clausegraph.text.values import Value, extract_values

# The dates a term may count from, by the name a clause uses for them.
EFFECTIVE_DATE = "Effective Date"
AGREEMENT_DATE = "Agreement Date"
SIGNATURE_DATE = "date of signature"
# A date the clause says the term ends on ("until", "through", "expire on", "ending on").
_ENDS_AT = re.compile(
    r"(?i)\b(?:until|till|through|thru|to\s+and\s+including|end(?:s|ing)?(?:\s+on)?|"
    r"expir(?:e|es|ing|ation)(?:\s+(?:on|date))?|terminat(?:e|es|ing)\s+on|ceases?\s+on)"
    r"\W{0,3}(?:\w+\W+){0,3}$")
# An end tied to an event instead of a date or a length ("will continue until the end of the
# calendar month he or she turns 26", "coverage terminates upon the Employee's death").
_ENDS_WITH_EVENT = re.compile(
    r"(?i)\b(?:until|till|(?:ends?|ceases?|terminates?|expires?)\s+(?:on|at|when|upon|with))"
    r"\s+(?P<event>[^.;:]{8,160}?)\s*(?=[.;:]|$)")
# A date the term starts on ("commencing on", "effective as of", "from", "beginning").
_STARTS_AT = re.compile(
    r"(?i)\b(?:commenc\w*|effective|as\s+of|from|begin\w*|start\w*|dated|entered\s+into|"
    r"made|signed|executed)"
    r"\W{0,3}(?:\w+\W+){0,4}$")
# The start named instead of stated: the document's effective date, the date of the
# agreement, or some other date ("the Hosting Service Ready Date", "the date of physical
# completion") that the term counts from and the document may never state.
NAMES_EFFECTIVE = re.compile(r"(?i)\beffective\s+date\b")
_NAMES_OTHER = re.compile(r"\b(?!Effective\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,3}\s+Date\b|"
                          r"(?i:\bdate\s+(?:of|on\s+which)\s+(?!this\b|the\s+agreement\b|"
                          r"execution\b|its\s+execution\b)\w+)")
# the text speaks of the document's own term: "This Agreement shall continue for two years",
# "the initial term of this Lease", "the Term"
_OWN_TERM = re.compile(r"(?i)\b(?:this|the)\s+(?:agreement|contract|lease|licen[cs]e|"
                       r"arrangement|policy)\b|\bterm\b")
_NAMES_AGREEMENT = re.compile(
    r"(?i)\bdate\s+(?:first\s+)?(?:set\s+forth|written)\s+above\b|\bdate\s+hereof\b|"
    r"\bdate\s+of\s+(?:this|the)\s+(?:agreement|contract|amendment)\b|\bexecution\s+date\b|"
    r"\bdate\s+of\s+(?:its\s+)?execution\b")
# The date given in the signature block: "as of the date below", "the date it is signed by
# both parties", "the date the last party hereto has executed this Agreement". ("The date
# of execution" is the date of the agreement its opening states, as CUAD reads it.)
_NAMES_SIGNATURE = re.compile(
    r"(?i)\bdate\s+(?:set\s+forth\s+|written\s+|indicated\s+)?below\b|"
    r"\bdate\s+(?:on\s+which\s+)?(?:it|this\s+agreement)\s+is\s+(?:signed|executed)\b|"
    r"\bsigned\s+by\s+both\s+parties\b|\blast\s+(?:party|signature)\b|"
    r"\bsignature\s+block\b|\bdate\s+of\s+(?:the\s+)?(?:last\s+)?signature\b")
# A length that is not the term's own: a notice period ("ninety (90) days prior written
# notice") or a renewal ("renew for successive one (1) year terms").
# A duration stated as notice: "90 days prior", "30 days' written notice", "60 days before".
# (not "... years (a "Renewal Term") unless notice is given": the notice ends the renewal)
_NOTICE_WORDS = (r"[\s'’]*(?:\([^)]{0,20}\)\s*)?(?:(?!unless\b)\w+\s+)?(?:prior|before|in\s+advance|"
                 r"(?:advance\s+)?(?:written\s+)?notice")
_NOTICE_STATED = re.compile(rf"(?i){_NOTICE_WORDS})\b")
# ... or a window before the end ("within 90 days of the end of the term"): not a term
_NOTICE_AFTER = re.compile(
    rf"(?i){_NOTICE_WORDS}|(?:of|from|after|following)\s+the\s+(?:end|expir\w*|terminat\w*))\b")
# "shall extend for a period of five (5) years thereafter" is the term's own length; "may
# extend", "shall be extended", "an extension of" renew it
_RENEWAL_BEFORE = re.compile(r"(?i)\b(?:renew\w*|(?<!shall )(?<!will )extend\b|extend(?:ed|s|ing)|"
                             r"extension|successive|additional)\W+(?:\w+\W+){0,6}$")
# "the fifth (5th) anniversary", "the 3rd anniversary": so many years; "the end of Year 3"
_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
    "twentieth".split())}
_ANNIVERSARY = re.compile(
    r"(?i)\b(?:(?P<word>" + "|".join(_ORDINALS) + r")|(?P<digits>\d{1,2})(?:st|nd|rd|th))"
    r"(?:\s*\(\d{1,2}(?:st|nd|rd|th)?\))?\s+anniversary\b|\bend\s+of\s+year\s+(?P<year>\d{1,2})\b")
# An initial term with no end.
PERPETUAL = re.compile(
    r"(?i)\b(?:perpetu(?:al(?:ly)?|ity)|indefinite(?:ly)?|in\s+perpetuity|until\s+(?:it\s+is\s+)?"
    r"terminated|unless\s+and\s+until\s+terminated)\b")
# A term that runs until a party ends it ("will end when terminated by either party",
# "unless and until either party gives notice", "may be terminated by either party giving 12
# months' notice", "unless terminated as set forth in this Section"): CUAD's "perpetual",
# read only where the clause states no end date, no length and no date but its start (a
# date it states is more likely the end than these words)
OPEN_ENDED = re.compile(
    r"(?i)\b(?:(?:when|unless)\s+(?:it\s+is\s+)?(?:earlier\s+)?terminated|"
    r"unless\s+and\s+until\s+either\s+party|until\s+either\s+party|"
    r"terminated\s+by\s+either\s+party|upon\s+either\s+party\s+giving)\b")
_REACH = 60  # characters before a date searched for what it is (an end, a start)


@dataclass(frozen=True)
class TermEnd:
    """When a term ends: ``end`` (ISO) or ``perpetual``; how it was read: ``length`` from
    ``start`` (the document's date named ``start_name``, or one the clause states); a
    ``length`` without ``end`` when the date it counts from is unknown; ``latest`` when
    ``end`` is only the latest date the clause states that is not its start."""

    end: str | None = None
    perpetual: bool = False
    length: tuple[float, str] | None = None
    start: str | None = None
    start_name: str | None = None
    latest: bool = False
    #: perpetual only because it runs until a party ends it (``OPEN_ENDED``): weaker than a
    #: date another clause states
    open_ended: bool = False


def term_end(text: str, starts: Mapping[str, str | None] = {}) -> TermEnd | None:
    """When the term ``text`` sets ends; ``starts`` holds the document's dates by name
    (:data:`EFFECTIVE_DATE`, :data:`AGREEMENT_DATE`) for a term counted from one of them.
    None when the text does not tell."""
    values = extract_values(text)
    dates = [v for v in values if v.kind == "date" and v.iso]
    stated = [v for v in dates if _ENDS_AT.search(text[max(0, v.start - _REACH):v.start])]
    if stated:
        return TermEnd(end=max(v.iso for v in stated if v.iso))
    length = _term_length(text, values)
    if length is not None:
        start, name = _start(text, dates, starts)
        end = add_duration(start, *length) if start else None
        if end:
            return TermEnd(end=end, length=length, start=start, start_name=name)
        # "for an initial period of five years until terminated as described": the
        # length is the term's; "until terminated" only says it may end sooner
        return TermEnd(length=length, start_name=name)
    if PERPETUAL.search(text):
        return TermEnd(perpetual=True)
    later = [v.iso for v in dates if v.iso and not _starts(text, v)]
    if later:
        return TermEnd(end=max(later), latest=True)
    return TermEnd(perpetual=True, open_ended=True) if OPEN_ENDED.search(text) else None


def event_end(text: str) -> str | None:
    """The event ``text`` ties an end to ("the end of the calendar month he or she turns
    26"), as written with spaces folded; None when it names none. Read when
    :func:`term_end` finds no date, length or open-ended term."""
    match = _ENDS_WITH_EVENT.search(text)
    return None if match is None else " ".join(match.group("event").split())


def term_length(text: str) -> tuple[float, str] | None:
    """The length ``text`` gives a term: its first duration that is neither a notice period
    nor a renewal, else an anniversary.

    >>> term_length("The initial term shall be five (5) years, renewing for two (2) year terms.")
    (5.0, 'year')
    """
    return _term_length(text, extract_values(text))


def _term_length(text: str, values: list[Value]) -> tuple[float, str] | None:
    """The term's own length: the first duration that is neither a notice period nor a
    renewal, else an anniversary ("the fifth anniversary": 5 years)."""
    for value in values:
        if value.kind != "duration" or not value.amount or not value.unit:
            continue
        if _NOTICE_AFTER.match(text, value.end):
            continue
        if _RENEWAL_BEFORE.search(text[max(0, value.start - _REACH):value.start]):
            continue
        return value.amount, value.unit
    match = _ANNIVERSARY.search(text)
    if match:
        years = _ORDINALS.get((match.group("word") or "").lower()) or \
            int(match.group("digits") or match.group("year"))
        return float(years), "year"
    return None


def _start(text: str, dates: list[Value], starts: Mapping[str, str | None]
           ) -> tuple[str | None, str | None]:
    """The date the term counts from: one the text states as its start, else the
    document's date the text names (its effective date, the date of the agreement), else,
    when it names no other date to count from and speaks of the document's own term, its
    effective date, else the date of the agreement."""
    for value in dates:
        if _starts(text, value):
            return value.iso, None
    if NAMES_EFFECTIVE.search(text):
        order: tuple[str, ...] = (EFFECTIVE_DATE, AGREEMENT_DATE)
    elif _NAMES_SIGNATURE.search(text):
        order = (SIGNATURE_DATE, AGREEMENT_DATE)
    elif _NAMES_AGREEMENT.search(text):
        order = (AGREEMENT_DATE, EFFECTIVE_DATE)
    elif (other := _NAMES_OTHER.search(_without_agreement_dates(text))) is not None:
        # a date of its own ("the Commencement Date"): the document's, when it states one
        name = " ".join(other.group(0).split())
        return starts.get(name), name
    elif _OWN_TERM.search(text):
        order = (EFFECTIVE_DATE, AGREEMENT_DATE)
    else:
        # a length the text does not tie to the document ("such Coverage will end on the last
        # day of the initial 18 month COBRA period") counts from no date of the document's
        return None, None
    for name in order:
        if starts.get(name):
            return starts[name], name
    return None, None


def _without_agreement_dates(text: str) -> str:
    return _NAMES_AGREEMENT.sub(" ", text)


def _starts(text: str, value: Value) -> bool:
    """Whether the clause states ``value`` as the date something starts ("commencing on",
    "effective as of", "dated")."""
    return _STARTS_AT.search(text[max(0, value.start - _REACH):value.start]) is not None


def starts_on(text: str, value: Value) -> bool:
    """Whether ``text`` states the date ``value`` as the day something starts ("entered
    into on October 1, 2019", "made effective as of November 1, 2019") and not as one it
    ends on ("from the Effective Date until December 31, 2020")."""
    before = text[max(0, value.start - _REACH):value.start]
    return value.kind == "date" and _starts(text, value) and _ENDS_AT.search(before) is None


def add_duration(start_iso: str, amount: float, unit: str) -> str | None:
    """``start_iso`` (YYYY-MM-DD) plus a whole number of days, weeks, months or years."""
    try:
        start = date.fromisoformat(start_iso)
    except ValueError:
        return None  # a partial date ("2020-06") has no exact end
    if amount != int(amount):
        return None
    count = int(amount)
    if unit in ("day", "week"):
        return date.fromordinal(start.toordinal() + count * (7 if unit == "week" else 1)).isoformat()
    months = count * (12 if unit == "year" else 1) if unit in ("month", "year") else None
    if months is None:
        return None
    year, month = divmod(start.month - 1 + months, 12)
    year += start.year
    day = min(start.day, calendar.monthrange(year, month + 1)[1])
    return date(year, month + 1, day).isoformat()


_TAKES_EFFECT = re.compile(r"(?i)\b(?:effective|commenc\w*|takes?\s+effect)\b")


def full_dates(text: str) -> list[str]:
    """The dates of ``text`` with day, month and year (ISO), in order."""
    return [v.iso for v in extract_values(text) if v.kind == "date" and v.iso
            and len(v.iso) == len("YYYY-MM-DD")]


def named_date(text: str, name: str) -> str | None:
    """The full date (ISO) ``text`` gives as the document's ``name`` date: for its
    :data:`EFFECTIVE_DATE` the date nearest a word of taking effect ("entered into on
    October 1, 2019 and made effective as of November 1, 2019": November 1), for its
    :data:`AGREEMENT_DATE` the first."""
    dates = [v for v in extract_values(text) if v.kind == "date" and v.iso
             and len(v.iso) == len("YYYY-MM-DD")]
    if not dates:
        return None
    cues = [m.start() for m in _TAKES_EFFECT.finditer(text)] if name == EFFECTIVE_DATE else []
    if cues:
        return min(dates, key=lambda v: min(abs(v.start - c) for c in cues)).iso
    return dates[0].iso


# A date defined by name: 'as of March 1, 2020 (the "Commencement Date")'.
_DEFINED_DATE = re.compile(r"[“\"]\s*((?:[A-Z][A-Za-z]*\s+){1,4}Date)\s*[”\"]")
_DEFINITION_REACH = 200  # characters before the name searched for its date


def defined_dates(text: str) -> dict[str, str]:
    """The dates ``text`` defines by name ("the “Commencement Date”"): each name with the
    nearest full date before it (ISO), the first definition of a name kept."""
    found: dict[str, str] = {}
    for match in _DEFINED_DATE.finditer(text):
        name = " ".join(match.group(1).split())
        if name in found:
            continue
        before = text[max(0, match.start() - _DEFINITION_REACH):match.start()]
        dates = [v for v in extract_values(before) if v.kind == "date" and v.iso
                 and len(v.iso) == len("YYYY-MM-DD")]
        if dates:
            found[name] = dates[-1].iso
    return found


def date_by_name(text: str, starts: Mapping[str, str | None]) -> tuple[str, str] | None:
    """The document's date that ``text`` names instead of stating ("effective as of the
    date first written above": the date of the agreement; "on the Effective Date"; "the
    Commencement Date"), as (ISO, the name), when ``starts`` knows it."""
    if _NAMES_SIGNATURE.search(text) and starts.get(SIGNATURE_DATE):
        return str(starts[SIGNATURE_DATE]), SIGNATURE_DATE
    if _NAMES_AGREEMENT.search(text) and starts.get(AGREEMENT_DATE):
        return str(starts[AGREEMENT_DATE]), AGREEMENT_DATE
    for match in (NAMES_EFFECTIVE.search(text), _NAMES_OTHER.search(text)):
        if match is None:
            continue
        name = EFFECTIVE_DATE if match.re is NAMES_EFFECTIVE else " ".join(match.group(0).split())
        if starts.get(name):
            return str(starts[name]), name
    return None


# Renewals and the notice that stops them: "renews for successive one (1) year periods
# unless either party gives ninety (90) days prior written notice".
RENEWS = re.compile(r"(?i)\b(?:renew\w*|extend\w*|extension)\b")
_NOTICE_WORD = re.compile(r"(?i)\b(?:notice|notif\w*|prior|before|advance)\b")
_YEARLY = re.compile(r"(?i)\b(?:year\s+to\s+year|annual(?:ly)?|each\s+year|every\s+year)\b")
_NEAR = 80  # characters between a duration and the word that says what it measures


def notice_period(text: str) -> tuple[float, str] | None:
    """The notice period ``text`` states: a duration stated as notice ("at least ninety (90)
    days prior written notice"), else the duration nearest a word of notice."""
    found = notice_durations(text)
    return (float(found[0].amount or 0), str(found[0].unit)) if found else None


def notice_durations(text: str) -> list[Value]:
    """The durations ``text`` states as notice, in order, else those near a word of notice,
    nearest first (the first is ``notice_period``)."""
    stated = [v for v in _durations(text) if _NOTICE_STATED.match(text, v.end)]
    return stated or _nearest(text, _NOTICE_WORD)


def renewal_length(text: str) -> tuple[float, str] | None:
    """How long a renewal runs: the duration nearest a word of renewing that is not a notice
    period; "year to year" and "annual" renewals are one year."""
    notices = {(v.start, v.end) for v in _durations(text) if _NOTICE_STATED.match(text, v.end)}
    near = _durations_near(text, RENEWS, skip=notices)
    if near:
        return near[0]
    return (1.0, "year") if _YEARLY.search(text) else None


def format_length(amount: float, unit: str) -> str:
    """A length as CUAD and the verdicts write it: "1 year", "90 days", "0.5 year"."""
    return f"{amount:g} {unit}" if amount <= 1 else f"{amount:g} {unit}s"


def _durations(text: str) -> list[Value]:
    return [v for v in extract_values(text)
            if v.kind == "duration" and v.amount and v.unit]


def _durations_near(text: str, cue: re.Pattern, skip: set[tuple[int, int]] = frozenset()
                    ) -> list[tuple[float, str]]:
    """The lengths of ``_nearest``."""
    return [(float(v.amount or 0), str(v.unit)) for v in _nearest(text, cue, skip)]


def _nearest(text: str, cue: re.Pattern, skip: set[tuple[int, int]] = frozenset()
             ) -> list[Value]:
    """Durations of ``text`` ordered by distance to the nearest ``cue`` word (those further
    than ``_NEAR`` characters left out)."""
    cues = [m.start() for m in cue.finditer(text)]
    scored = []
    for value in _durations(text):
        if (value.start, value.end) in skip:
            continue
        distance = min((abs(c - value.start) for c in cues), default=None)
        if distance is not None and distance <= _NEAR:
            scored.append((distance, value))
    return [value for _, value in sorted(scored, key=lambda item: item[0])]
