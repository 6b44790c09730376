"""Values stated in text: numbers, money, percentages, dates, durations and ages.

One extractor for every stage that reads values (entities, ranking, direct answers), so a
contract that writes "30 (thirty) days", "thirty (30) days", "30 days" or "thirty days" reads
alike, and "$500", "£ 500", "₹500", "INR 5 lakhs" and "Rs. 10,000/-" are all money.

How it reads:

* **numbers** first: digits ("30", "10,000.00", the Indian grouping "1,00,000"), number
  words by their grammar ("thirteen", "forty-five", "one hundred and twenty", "two thousand
  five hundred"; "two one-year terms" is two numbers, not three), a number restated in
  brackets ("thirty (30)", "30 (thirty)"), and a scale after it ("1.2 million", "5 lakhs",
  "5 crore", "$5k");
* then what stands **around** each number decides its kind: a currency symbol or code
  before it or a currency word after it is money; "%", "percent", "per cent" a
  percentage; a unit of time after it ("days", "12 calendar months", "30-day") a
  duration; "of age", "old", "and above" after a duration, or "aged"/"age of" before a
  number, an age; a unit of measure after it ("150 km", "1500 cc", "7.5 tonnes", "50 HP")
  a measure, in one unit of its dimension; any other number stays a number;
* **dates** are read before numbers and claim their digits: ISO ("2019-03-05"), numeric
  ("03/05/2019"), and month names in either order ("March 5, 2019", "Mar. 5, 2019",
  "5 March 2019", "5th day of March, 2019", "the first day of January, 2020", "March 2019"),
  and dates left blank to be filled in ("September __, 2018", "this ___ day of ______, 2004",
  "[ ], 2020"), as the parts they state ("2018-09", "2004").

Numeric dates: "03/05/2019" is ambiguous. A date whose first part is over 12 is day-first
("13/05/2019"), whose second part is over 12 month-first ("05/13/2019"). An ambiguous date
follows the unambiguous numeric dates of the same text when they all agree; otherwise it is
read month-first, as US contracts (most of CUAD) write it.

Lakh and crore are Indian scales used for sums of money, so "5 crore" is money in INR even
without a currency. The backtick before a number is the rupee sign as many Indian policy
PDFs encode it (their fonts put ₹ on the backtick key), so "` 5,000" is INR too.

>>> [(v.kind, v.amount, v.unit) for v in extract_values("pay $500 within thirty (30) days")]
[('money', 500.0, 'USD'), ('duration', 30.0, 'day')]
>>> parse_date("the 5th day of March, 2019")
'2019-03-05'
>>> parse_duration("one (1) year")
(1.0, 'year')
"""

from __future__ import annotations

import bisect
import calendar
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from pydantic import BaseModel, ConfigDict

ValueKind = Literal["number", "money", "percent", "date", "duration", "age", "measure"]


class Value(BaseModel):
    """A value found in a text; ``start``/``end`` are offsets into that text."""

    model_config = ConfigDict(frozen=True)

    kind: ValueKind
    text: str
    start: int
    end: int
    amount: float | None = None  # the number; money amount; percent; duration length; age
    unit: str | None = None  # ISO currency code (money); day/week/month/year (durations, ages)
    iso: str | None = None  # dates: YYYY-MM-DD, or YYYY-MM / YYYY when parts are missing


# -- number words ---------------------------------------------------------------------------

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * (i + 2) for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split())}
_TENS["fourty"] = 40  # a common misspelling
_SCALES = {"thousand": 1e3, "lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5, "million": 1e6,
           "crore": 1e7, "crores": 1e7, "billion": 1e9, "mn": 1e6, "bn": 1e9}
_NUMBER_WORD = "|".join(sorted([*_UNITS, *_TENS, "hundred", *_SCALES], key=len, reverse=True))
# A run of number words; "and" only after "hundred"/"thousand" ("one hundred and twenty").
# Both read the text with ASCII letters lower-cased (_ascii_lower: same offsets): a
# case-insensitive alternation is several times slower to scan.
_WORD_RUN = re.compile(
    rf"\b(?:{_NUMBER_WORD})\b(?:(?:[ \t]*-[ \t]*|\s+|(?<=hundred)\s+and\s+|(?<=thousand)\s+and\s+)"
    rf"(?:{_NUMBER_WORD})\b)*")
_WORD_TOKEN = re.compile(rf"\b(?:{_NUMBER_WORD}|and)\b")
_LOWER_ASCII = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _ascii_lower(text: str) -> str:
    """``text`` with A-Z lower-cased and nothing else changed, so every offset holds
    (``str.lower`` may lengthen a string: "İ" becomes two characters)."""
    return text.translate(_LOWER_ASCII)
# Digits with thousands separators (also the Indian "1,00,000") or without, and cents after a
# currency symbol ("$.05"). Each alternative opens with what it matches, and looks behind only
# after that, so the scan skips fast over text without digits.
_DIGITS = re.compile(
    r"\d(?<!\w\d)(?<!\d[.,]\d)(?:\d{0,2}(?:,\d{2,3})+(?:\.\d+)?(?![\d,]\d)|\d*(?:\.\d+)?(?!\d))"
    r"|\.(?<=[$£€¥₹]\.)\d+(?!\d)")
_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
    "twentieth".split())}
_ORDINALS.update({f"twenty-{w}": 20 + n for w, n in list(_ORDINALS.items())[:9]})
_ORDINALS.update({"thirtieth": 30, "thirty-first": 31})


def _word_class(word: str) -> str:
    if word == "and":
        return "and"
    if word == "zero":
        return "zero"
    if word == "hundred":
        return "hundred"
    if word in _SCALES:
        return "scale"
    if word in _TENS:
        return "ten"
    return "teen" if _UNITS[word] >= 10 else "unit"


# which word may follow which in one number ("twenty five", "one hundred and twenty", ...)
_FOLLOWS = {
    "start": {"unit", "teen", "ten", "zero"},
    "unit": {"hundred", "scale"},
    "teen": {"hundred", "scale"},
    "ten": {"unit", "scale"},
    "hundred": {"and", "unit", "teen", "ten", "scale"},
    "scale": {"and", "unit", "teen", "ten"},
    "and": {"unit", "teen", "ten"},
    "zero": set(),
}


def _word_numbers(text: str, start: int, end: int) -> list[tuple[int, int, float]]:
    """The numbers a run of number words holds, each cut where the grammar breaks
    (``text`` lower-cased)."""
    tokens = [(m.start(), m.end(), m.group()) for m in _WORD_TOKEN.finditer(text, start, end)]
    numbers: list[tuple[int, int, float]] = []
    current: list[tuple[int, int, str]] = []
    state = "start"
    for token in tokens:
        kind = _word_class(token[2])
        if kind not in _FOLLOWS[state]:
            _close(current, numbers)
            current, state = [], "start"
            if kind not in _FOLLOWS[state]:
                continue
        current.append(token)
        state = kind
    _close(current, numbers)
    return numbers


def _close(words: list[tuple[int, int, str]], numbers: list[tuple[int, int, float]]) -> None:
    while words and words[-1][2] == "and":
        words.pop()
    if words:
        numbers.append((words[0][0], words[-1][1], _words_value([w[2] for w in words])))


def _words_value(words: list[str]) -> float:
    total, current = 0.0, 0.0
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _SCALES:
            total += (current or 1) * _SCALES[word]
            current = 0.0
    return total + current


# -- numbers -------------------------------------------------------------------------------

_OPEN = re.compile(r"\s*\(\s*")
_CLOSE = re.compile(r"\s*(?:only\s*)?\)", re.I)
# scale words in any case: "Rs. 2.5 Lacs", "5 Lakhs", "USD 2 Million" are written so too
_SCALE_AFTER = re.compile(r"[ \t]*((?i:million|billion|thousand|lakhs?|lacs?|crores?|mn|bn))\b"
                          r"|(?<=\d)([kKmM])\b")
_SCALE_LETTERS = {"k": 1e3, "m": 1e6}


class _Number:
    __slots__ = ("start", "end", "value", "scaled")

    def __init__(self, start: int, end: int, value: float, scaled: str | None = None) -> None:
        self.start, self.end, self.value, self.scaled = start, end, value, scaled


def _numbers(text: str, lower: str, taken: list[tuple[int, int]]) -> list[_Number]:
    """Every number of ``text`` (``lower``: the same, lower-cased) outside the ``taken``
    spans, a bracketed restatement and a scale word joined to it."""
    raw = [(m.start(), m.end(), float(m.group().replace(",", ""))) for m in _DIGITS.finditer(text)]
    for run in _WORD_RUN.finditer(lower):
        raw.extend(_word_numbers(lower, run.start(), run.end()))
    starts, ends = [a for a, _ in taken], [b for _, b in taken]
    raw = sorted(n for n in raw
                 if _free(starts, ends, bisect.bisect_right(starts, n[0]), n[0], n[1]))
    numbers: list[_Number] = []
    i = 0
    while i < len(raw):
        start, end, value = raw[i]
        # "thirty (30)", "30 (thirty)": one number written twice
        if i + 1 < len(raw) and raw[i + 1][2] == value:
            opened = _OPEN.fullmatch(text, end, raw[i + 1][0])
            closed = _CLOSE.match(text, raw[i + 1][1]) if opened else None
            if closed:
                end = closed.end()
                i += 1
        numbers.append(_scaled(text, _Number(start, end, value)))
        i += 1
    return numbers


def _scaled(text: str, number: _Number) -> _Number:
    """``number`` with the scale word after it ("1.2 million", "5 lakhs", "$5k")."""
    match = _SCALE_AFTER.match(text, number.end)
    if match is None:
        return number
    word = (match.group(1) or match.group(2)).lower()
    factor = _SCALES.get(word) or _SCALE_LETTERS[word]
    return _Number(number.start, match.end(), number.value * factor, word)


# -- money, percent, durations, ages ---------------------------------------------------

_CURRENCY_CODES = ("USD", "EUR", "GBP", "INR", "JPY", "CNY", "RMB", "CAD", "AUD", "NZD", "HKD",
                   "SGD", "CHF", "SEK", "NOK", "DKK", "ZAR", "AED", "BRL", "MXN", "KRW", "RUB")
_SYMBOLS = {"US$": "USD", "U.S.$": "USD", "HK$": "HKD", "C$": "CAD", "CA$": "CAD", "A$": "AUD",
            "AU$": "AUD", "NZ$": "NZD", "S$": "SGD", "R$": "BRL", "$": "USD", "£": "GBP",
            "€": "EUR", "¥": "JPY", "₹": "INR", "`": "INR", "Rs.": "INR", "Rs": "INR",
            "₨": "INR"}
_SYMBOL_CODES = {symbol.rstrip(".").upper(): code for symbol, code in _SYMBOLS.items()}
_INDIAN_SCALES = frozenset({"lakh", "lakhs", "lac", "lacs", "crore", "crores"})
_CURRENCY_WORDS = {"dollar": "USD", "euro": "EUR", "pound": "GBP", "sterling": "GBP",
                   "rupee": "INR", "yen": "JPY", "yuan": "CNY", "renminbi": "CNY"}
_CURRENCY_WORD = (r"(?:(?:US|U\.S\.|United\s+States)\s+)?"
                  r"(?:dollars?|euros?|pounds?(?:\s+sterling)?|sterling|rupees?|yen|yuan|renminbi)")
_CURRENCY_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?:" + "|".join(re.escape(s) for s in sorted(_SYMBOLS, key=len, reverse=True))
    + r")|\b(?:" + "|".join(_CURRENCY_CODES) + r")\b\$?|\b" + _CURRENCY_WORD + r")[ \t]*\.?[ \t]*$",
    re.I)
_CURRENCY_AFTER = re.compile(r"[ \t]*(?:(" + "|".join(_CURRENCY_CODES) + r")\b|(" + _CURRENCY_WORD
                             + r")\b)", re.I)
_RUPEE_DASH = re.compile(r"[ \t]*/-")
_PERCENT_AFTER = re.compile(r"[ \t]*(?:%|per[ \t]*cent(?:um)?\b|pct\b)", re.I)
_TIME_UNITS = {"day": "day", "week": "week", "month": "month", "year": "year", "yr": "year",
               "hour": "hour", "hr": "hour"}
_DURATION_AFTER = re.compile(
    r"(?:[ \t]*-[ \t]*|\s*)(?:(?:calendar|business|working|banking|consecutive|full|clear|"
    r"complete|continuous)\s+)?(days?|weeks?|months?|years?|yrs?|hours?|hrs?)\b", re.I)
_AGE_AFTER = re.compile(r"(?:\s+(?:of\s+age|old|of\s+age\s+or\s+(?:above|over|older)|and\s+above|"
                        r"or\s+above|and\s+over|or\s+over|or\s+older|and\s+older)|"
                        r"[ \t]*-[ \t]*old)\b", re.I)
_AGE_BEFORE = re.compile(
    r"\b(?:aged|ages?(?:\s+limit)?(?:\s+of)?)\s*:?\s*(?:(?:between|below|under|above|over|up\s+to|"
    r"at\s+least|(?:not\s+)?(?:less|more|older|younger)\s+than)\s+)?$", re.I)
_LOOK_BACK = 32
# Units of measure by the name a measure's ``unit`` gives them, with their dimension and
# size in its first unit (figure() compares 5 miles with 8 km): distance, engine capacity,
# weight, power.
MEASURE_UNITS = {
    "km": ("distance", 1.0), "mile": ("distance", 1.609344), "metre": ("distance", 1e-3),
    "cc": ("capacity", 1.0), "litre": ("capacity", 1000.0),
    "kg": ("weight", 1.0), "tonne": ("weight", 1000.0),
    "kw": ("power", 1.0), "hp": ("power", 0.7457),
}
_MEASURE_NAMES = {"kms": "km", "kilometre": "km", "kilometer": "km", "meter": "metre",
                  "cubic centimetre": "cc", "cubic centimeter": "cc", "liter": "litre",
                  "kgs": "kg", "kilogram": "kg", "ton": "tonne", "bhp": "hp"}
_MEASURE_AFTER = re.compile(
    r"[ \t]*-?[ \t]*(kms?|kilomet(?:re|er)s?|miles?|met(?:re|er)s?|cc|cubic\s+centimet(?:re|er)s?|"
    r"lit(?:re|er)s?|kgs?|kilograms?|tonnes?|tons?|kw|b?hp)\b", re.I)


def _currency_code(written: str) -> str:
    """The ISO code of a currency symbol, code or word as written ("Rs." -> "INR")."""
    key = " ".join(written.split()).rstrip(".").upper()
    if key in _SYMBOL_CODES:
        return _SYMBOL_CODES[key]
    code = key.rstrip("$").strip()
    if code in _CURRENCY_CODES:
        return "CNY" if code == "RMB" else code
    lower = key.lower()
    return next((code for word, code in _CURRENCY_WORDS.items() if word in lower), "USD")


def _classify(text: str, number: _Number) -> Value:
    """The value ``number`` states, by what stands around it."""
    before = text[max(0, number.start - _LOOK_BACK):number.start]
    currency = _CURRENCY_BEFORE.search(before)
    suffix = _CURRENCY_AFTER.match(text, number.end)
    if currency or suffix:
        start = number.start - (len(before) - currency.start()) if currency else number.start
        end = suffix.end() if suffix and not currency else number.end
        dash = _RUPEE_DASH.match(text, end)  # "Rs. 10,000/-"
        written = currency.group() if currency else suffix.group()
        return _value(text, "money", start, dash.end() if dash else end, number.value,
                      _currency_code(written))
    percent = _PERCENT_AFTER.match(text, number.end)
    if percent:
        return _value(text, "percent", number.start, percent.end(), number.value)
    if number.scaled in _INDIAN_SCALES:
        return _value(text, "money", number.start, number.end, number.value, "INR")
    unit = _DURATION_AFTER.match(text, number.end)
    aged = _AGE_BEFORE.search(before)
    if unit:
        name = _TIME_UNITS[unit.group(1).lower().rstrip("s")]
        age = _AGE_AFTER.match(text, unit.end())
        if age or aged:
            return _value(text, "age", number.start, age.end() if age else unit.end(),
                          number.value, name)
        return _value(text, "duration", number.start, unit.end(), number.value, name)
    if aged:
        return _value(text, "age", number.start, number.end, number.value, "year")
    measure = _MEASURE_AFTER.match(text, number.end)
    if measure:
        written = " ".join(measure.group(1).lower().split())
        if written not in MEASURE_UNITS and written not in _MEASURE_NAMES:
            written = written.removesuffix("s")
        unit = _MEASURE_NAMES.get(written, written)
        return _value(text, "measure", number.start, measure.end(), number.value, unit)
    return _value(text, "number", number.start, number.end, number.value)


def _value(text: str, kind: ValueKind, start: int, end: int, amount: float | None,
           unit: str | None = None, iso: str | None = None) -> Value:
    # built without validation: every field is set here from checked parts, and this runs on
    # every number of every clause at ingest
    return Value.model_construct(kind=kind, text=text[start:end], start=start, end=end,
                                 amount=amount, unit=unit, iso=iso)


# -- dates ---------------------------------------------------------------------------------

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH = (r"(?P<month>(?:" + "|".join(sorted((m for m in _MONTHS if len(m) > 3), key=len,
                                              reverse=True))
          + r")\b|(?:" + "|".join(m for m in _MONTHS if len(m) <= 3 or m == "sept") + r")\b\.?)")
_YEAR = r"(?P<year>(?:1[89]|20)\d{2})(?!\d)"
_DAY = r"(?P<day>[0-3]?\d)(?:\s?(?:st|nd|rd|th))?"
_ORDINAL_DAY = r"(?P<word>" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + r")"
_DATE_PATTERNS = (
    # "March 5, 2019", "Mar. 5th, 2019", "MARCH 5 2019"
    re.compile(rf"\b{_MONTH}\s*{_DAY}(?!\d),?\s*(?:,\s*)?{_YEAR}", re.I),
    # "5 March 2019", "5th day of March, 2019", "the first day of January, 2020", "5th of March"
    re.compile(rf"(?<!\d)(?:{_DAY}|{_ORDINAL_DAY})\s+(?:day\s+of\s+|of\s+)?{_MONTH},?\s*"
               rf"(?:of\s+)?{_YEAR}", re.I),
    # "March 2019", "March, 2019": the month only
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}", re.I),
)
_ISO_DATE = re.compile(
    r"(?<![\d/.-])(?P<year>(?:1[89]|20)\d{2})[-/](?P<month>\d{1,2})[-/](?P<day>\d{1,2})(?![\d-])")
_NUMERIC_DATE = re.compile(
    r"(?<![\d/.-])(?P<a>\d{1,2})(?P<sep>[/-])(?P<b>\d{1,2})(?P=sep)"
    r"(?P<year>(?:1[89]|20)\d{2}|\d{2})(?![\d/-])"
    # with dots only a four-digit year: "3.1.14" is a section number
    r"|(?<![\d/.-])(?P<a2>\d{1,2})\.(?P<b2>\d{1,2})\.(?P<year2>(?:1[89]|20)\d{2})(?![\d.]\d)")


def _iso(year: int, month: int | None = None, day: int | None = None) -> str | None:
    if month is None:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return None
    if day is None:
        return f"{year:04d}-{month:02d}"
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


# where a month name may stand: the date patterns are tried only around these
_MONTH_HINT = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)")  # lower-cased
_DATE_REACH = 40  # characters a date reaches before its month ("the twenty-first day of ")


def _month_number(written: str) -> int | None:
    """1-12 for a month's name as a date pattern matched it; None for "may", a verb (only
    "May" / "MAY" names the month)."""
    return None if written == "may" else _MONTHS[written.lower().rstrip(".")]


def _named_dates(text: str, lower: str) -> list[Value]:
    found: dict[tuple[int, int], Value] = {}
    windows = _windows([(max(0, m.start() - _DATE_REACH), m.end() + _DATE_REACH)
                        for m in _MONTH_HINT.finditer(lower)])
    matches = (match for pattern in _DATE_PATTERNS for a, b in windows
               for match in pattern.finditer(text, a, b))
    for match in matches:
        month = _month_number(match.group("month"))
        if month is None:
            continue
        groups = match.groupdict()
        day = int(groups["day"]) if groups.get("day") else (
            _ORDINALS[groups["word"].lower().replace(" ", "-")] if groups.get("word") else None)
        iso = _iso(int(match.group("year")), month, day)
        if iso is not None:
            found[match.span()] = _value(text, "date", match.start(), match.end(), None, iso=iso)
    return list(found.values())


def _windows(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping spans joined into one."""
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined and start <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined


# where a numeric date may stand: the full patterns look behind first, slow to scan everywhere
_NUMERIC_HINT = re.compile(r"\d[/.-]\d{1,2}[/.-]\d")


def numeric_dates(text: str) -> list[Value]:
    """Dates written in digits alone, ISO and numeric; the day/month order of an ambiguous
    one as the module says."""
    windows = _windows([(max(0, m.start() - 4), m.end() + 4)
                        for m in _NUMERIC_HINT.finditer(text)])
    found = [_value(text, "date", m.start(), m.end(), None,
                    iso=_iso(int(m["year"]), int(m["month"]), int(m["day"])))
             for a, b in windows for m in _ISO_DATE.finditer(text, a, b)]
    parts = []
    for m in (m for a, b in windows for m in _NUMERIC_DATE.finditer(text, a, b)):
        a, b, year = (m["a"], m["b"], m["year"]) if m["a"] else (m["a2"], m["b2"], m["year2"])
        year_value = int(year) if len(year) == 4 else 2000 + int(year) if int(year) < 50 \
            else 1900 + int(year)
        parts.append((m, int(a), int(b), year_value))
    day_first_seen = any(a > 12 >= b for _, a, b, _ in parts)
    month_first_seen = any(b > 12 >= a for _, a, b, _ in parts)
    day_first = day_first_seen and not month_first_seen
    for m, a, b, year in parts:
        if a > 12:
            day, month = a, b
        elif b > 12:
            month, day = a, b
        else:
            day, month = (a, b) if day_first else (b, a)
        found.append(_value(text, "date", m.start(), m.end(), None, iso=_iso(year, month, day)))
    return [v for v in found if v.iso is not None]


# a date left blank to be filled in at signing, as filed and draft contracts print it: the
# blank is two or more underscores or a bracket holding only blanks ("[ ]", "[___]", "[·]")
_BLANK = r"(?:_{2,}|\[[\s_·•●*.]*\])"
_BLANK_DATES = (
    # "September __, 2018", "JULY ___, 2000": the month and year stated
    re.compile(rf"\b{_MONTH}\s*{_BLANK}\s*,?\s*{_YEAR}", re.I),
    # "___ day of September, 2018": the month and year stated
    re.compile(rf"{_BLANK}\s*day\s+of\s+{_MONTH},?\s*{_YEAR}", re.I),
    # "______, 2004", "___ day of ______, 2004", "[ ] day of [ ], 2020": the year alone
    # (after "day of" the comma may be left out: "____ day of ________ 2013")
    re.compile(rf"{_BLANK}(?:\s*day\s+of\s*{_BLANK}\s*,?|\s*,)\s*{_YEAR}", re.I),
)
_HAS_BLANK = re.compile(_BLANK)


def left_blank(value: Value) -> str | None:
    """What a date leaves blank ("day", "day and month"), None for a date stated whole."""
    if value.kind != "date" or not value.iso or not _HAS_BLANK.search(value.text):
        return None
    return "day" if len(value.iso) == 7 else "day and month"


def blank_dates(text: str) -> list[Value]:
    """Dates whose day (or day and month) is left blank, as the ISO of the parts stated."""
    if "__" not in text and "[" not in text:
        return []
    found: dict[tuple[int, int], Value] = {}
    for pattern in _BLANK_DATES:
        for match in pattern.finditer(text):
            month_text = match.groupdict().get("month")
            month = _month_number(month_text) if month_text else None
            if month_text and month is None:
                continue
            found.setdefault(match.span(), _value(text, "date", match.start(), match.end(), None,
                                                  iso=_iso(int(match["year"]), month)))
    return list(found.values())


# -- the extractor -------------------------------------------------------------------------


def _merge_restated(text: str, values: list[Value]) -> list[Value]:
    """"five hundred dollars ($500)", "ten percent (10%)": one value written twice."""
    merged: list[Value] = []
    for value in values:
        if merged:
            last = merged[-1]
            opened = _OPEN.fullmatch(text, last.end, value.start)
            closed = _CLOSE.match(text, value.end) if opened else None
            if closed and last.kind == value.kind and last.amount == value.amount \
                    and last.iso == value.iso:
                merged[-1] = last.model_copy(update={"end": closed.end(),
                                                     "text": text[last.start:closed.end()]})
                continue
        merged.append(value)
    return merged


@lru_cache(maxsize=16384)
def _extract(text: str) -> tuple[Value, ...]:
    lower = _ascii_lower(text)
    dates = _non_overlapping(_named_dates(text, lower) + numeric_dates(text)
                                + blank_dates(text))
    taken = [(d.start, d.end) for d in dates]
    values = [_classify(text, number) for number in _numbers(text, lower, taken)]
    values = _non_overlapping(values + dates)
    return tuple(_merge_restated(text, values))


def _non_overlapping(values: list[Value]) -> list[Value]:
    """The longest of overlapping values (ties: the earliest), in text order."""
    starts: list[int] = []
    ends: list[int] = []
    kept: list[Value] = []
    for value in sorted(values, key=lambda v: (-(v.end - v.start), v.start)):
        place = bisect.bisect_right(starts, value.start)
        if _free(starts, ends, place, value.start, value.end):
            starts.insert(place, value.start)
            ends.insert(place, value.end)
            kept.insert(place, value)
    return kept


def _free(starts: list[int], ends: list[int], place: int, start: int, end: int) -> bool:
    """Whether ``start:end`` overlaps none of the sorted, disjoint spans around ``place``."""
    return (place == 0 or ends[place - 1] <= start) and \
        (place == len(starts) or end <= starts[place])


# a bound more than this many times larger or smaller than a figure is of another scale
# (a day against a month is 30, against a year 365: a band of months and years is read
# against an age in months, a deadline in days is not read against an age in years)
_SAME_SCALE = 40.0
# a figure stated in a question and one in a quote are the same within this share (a
# month of 30 days against one of 30.4375: 1.4%); 5% until session 35 made a 78-year-old
# one of "75 years"
_SAME_FIGURE = 0.02
# days in each unit of time (a month the year's twelfth)
DAYS_PER_UNIT = {"hour": 1 / 24, "day": 1.0, "week": 7.0, "month": 365.25 / 12, "year": 365.25}
# duration and age are one family: "a 40-year-old" is met by "aged 18 to 65 years"; a
# measure's family is its dimension (MEASURE_UNITS)
_FIGURE_FAMILY = {"duration": "time", "age": "time", "money": "money", "percent": "percent",
                  "measure": "measure"}


def figure(value: Value) -> tuple[str, float] | None:
    """A value's family and size in one unit (days for a duration or an age; the amount of
    money, a percentage or a measure, whose family is its dimension); None for a value of
    another kind.

    >>> [figure(v)[1] for v in extract_values("24 months, two years")]
    [730.5, 730.5]
    """
    family = _FIGURE_FAMILY.get(value.kind)
    if family is None or value.amount is None:
        return None
    if family == "time":
        days = DAYS_PER_UNIT.get(value.unit or "")
        return None if days is None else (family, value.amount * days)
    if family == "measure":
        dimension, size = MEASURE_UNITS[value.unit or ""]
        return dimension, value.amount * size
    return family, value.amount


# "in the first two years", "during the 1st 90 days": the time a question asks about, not a
# figure its answer has to state
# a number as a question writes it before its unit: "12", "twelve", "thirty (30)", "30
# (thirty)"
_COUNT = r"[\w-]+(?:\s*\([\w\s-]+\))?"
FIRST_WINDOW = re.compile(rf"\b(?:first|1st)\s+(?:({_COUNT})\s+)?(?:policy\s+)?"
                          r"(day|week|month|year)s?\b", re.IGNORECASE)
_LENGTH = rf"(?P<length>{_COUNT}\s+(?:days?|weeks?|months?|years?))"
_START_WORDS = (r"(?:cover(?:age)?|polic(?:y|ies)|inception|start(?:ing)?|buying|purchas\w*|"
                r"joining|enrol\w*|commencement|taking)")
# "within 12 months of buying the policy", "after six months of cover", "during the first 90
# days from inception": a time counted from the start of cover, asked about the same way
FROM_START = re.compile(
    rf"\b(?P<word>within|after|in|during|before)\s+(?:the\s+)?(?:first\s+)?{_LENGTH}\s+"
    rf"(?:of|from|after|since)\s+(?:[\w'-]+\s+){{0,3}}?{_START_WORDS}\b", re.IGNORECASE)
# "three months after buying the policy", "six months after taking cover"
_AFTER_START = re.compile(rf"\b{_LENGTH}\s+(?:after|since|from)\s+(?:the\s+)?{_START_WORDS}\b",
                          re.IGNORECASE)
# "if I bought the policy 6 months ago"
_AGO = re.compile(rf"\b(?:bought|took|taken|purchased|started|joined|enrolled)\b[^.?!]{{0,40}}?"
                  rf"\b{_LENGTH}\s+ago\b", re.IGNORECASE)
# "Is knee replacement covered after 2 years?", "... within 90 days?": a time the question
# ends on, counted from the start of cover (not "after 30 days of hospitalisation")
_ENDS_ASKING = re.compile(rf"\b(?P<word>within|after|in)\s+(?:the\s+)?(?:first\s+)?{_LENGTH}"
                          r"\s*\?\s*$", re.IGNORECASE)
# "in the second policy year", "during the 3rd year", "in year one", "policy year 2"
_NTH_YEAR = re.compile(
    rf"\b(?:(?P<nth>{'|'.join(_ORDINALS)})|(?P<digits>\d{{1,2}})(?:st|nd|rd|th))\s+"
    rf"(?:policy\s+)?year\b|\byear\s+(?:(?P<word>{'|'.join(_UNITS)})|(?P<number>\d{{1,2}}))\b",
    re.IGNORECASE)


@dataclass(frozen=True)
class AskedTime:
    """A time counted from the start of cover that a question asks about: the days from
    ``start`` to ``end`` of a window ("in the first year": 0 to 365.25) or one moment
    ("after three years of cover": 1095.75 to 1095.75); ``span`` where the question says
    it."""

    start: float
    end: float
    span: tuple[int, int]

    @property
    def window(self) -> bool:
        return self.end > self.start


def asked_time(text: str, ending: bool = True) -> AskedTime | None:
    """The time from the start of cover ``text`` asks about ("Is hernia covered in the first
    two years?", "... within 12 months of buying the policy?", "... in year one?", "... if I
    bought the policy 6 months ago?"), or None. ``ending``: also a time the question ends
    on without naming the start ("Is knee replacement covered after 2 years?"), which of a
    contract may be a figure it asks about ("Can the agreement be terminated within 30
    days?")."""
    for pattern in (FROM_START, _AFTER_START, _AGO, *((_ENDS_ASKING,) if ending else ())):
        match = pattern.search(text)
        days = _length_days(match.group("length")) if match else None
        if days is not None:
            within = pattern in (FROM_START, _ENDS_ASKING) and \
                match.group("word").lower() != "after"
            return AskedTime(0.0 if within else days, days, match.span())
    match = FIRST_WINDOW.search(text)
    if match:
        days = _length_days(f"{match.group(1) or 'one'} {match.group(2)}") or \
            DAYS_PER_UNIT[match.group(2).lower()]
        return AskedTime(0.0, days, match.span())
    match = _NTH_YEAR.search(text)
    if match:
        nth, word = match.group("nth"), match.group("word")
        year = _ORDINALS[nth.lower()] if nth else _UNITS[word.lower()] if word else \
            int(match.group("digits") or match.group("number"))
        if year >= 1:
            return AskedTime((year - 1) * DAYS_PER_UNIT["year"], year * DAYS_PER_UNIT["year"],
                             match.span())
    return None


def _length_days(text: str) -> float | None:
    durations = [v for v in extract_values(text) if v.kind == "duration" and v.amount]
    if not durations:
        return None
    return durations[0].amount * DAYS_PER_UNIT.get(durations[0].unit or "day", 1.0)


def stated_figures(text: str) -> list[Value]:
    """The durations, ages, amounts, percentages and measures ``text`` states, but not the
    time it asks about ("Is hernia covered in the first two years?", "... within 12 months of
    buying the policy?" state none: an answer need not say "two years", its 24-month
    waiting period answers)."""
    asked = asked_time(text, ending=False)
    windows = [asked.span] if asked is not None else []
    return [v for v in extract_values(text) if figure(v) is not None
            and not any(start <= v.start and v.end <= end for start, end in windows)]


def meets_figures(stated: list[Value], text: str) -> bool:
    """Whether ``text`` meets every figure of ``stated``: by an equal one of its family
    (24 months for two years, within ``_SAME_FIGURE``), by two that bracket it ("aged 18
    to 65 years" for a 45-year-old), or by the bounds it sets ("aged greater than 75 years"
    for a 78-year-old, not for a 40-year-old; nor "up to 75 years" for a 78-year-old, as
    when figures within 5% were the same, until session 35). Two figures of one family
    stated ("between 24 months and 36 months") are a range, met by a text whose range overlaps
    it ("exceeding 24 months but not exceeding 36 months"), not by one that only touches it
    ("exceeding 12 months but not exceeding 24 months")."""
    found = [(f, _bound(text, v)) for v in extract_values(text)
             if (f := figure(v)) is not None]
    by_family: dict[str, list[float]] = {}
    for value in stated:
        family, size = figure(value)  # type: ignore[misc]
        by_family.setdefault(family, []).append(size)
    for family, sizes in by_family.items():
        plain = [other for (kind, other), bound in found if kind == family and bound is None]
        bounds = [(other, bound) for (kind, other), bound in found
                  if kind == family and bound is not None]
        met = _meets_range(min(sizes), max(sizes), plain, bounds) if len(sizes) >= 2 else \
            _meets_figure(sizes[0], plain, bounds)
        if not met:
            return False
    return True


def _meets_figure(size: float, plain: list[float],
                  bounds: list[tuple[float, tuple[str, bool]]]) -> bool:
    # a bound's own figure is the figure asked about too ("towing beyond 50 km" answers
    # "Is towing covered up to 50 km?"), whichever side of it the answer lies
    figures = plain + [other for other, _ in bounds]
    return any(abs(other - size) <= _SAME_FIGURE * max(size, other) for other in figures) \
        or (len(plain) >= 2 and min(plain) <= size <= max(plain)) \
        or _within_bounds(size, bounds)


def _within_bounds(size: float, bounds: list[tuple[float, tuple[str, bool]]]) -> bool:
    """Whether ``size`` lies inside every bound of its scale. A bound of another scale
    speaks of something else: "at least 30 days before renewal" says nothing of a
    40-year-old, though every age is more than 30 days."""
    near = [(other, bound) for other, bound in bounds
            if max(other, size) <= _SAME_SCALE * min(other, size)]
    return bool(near) and all(_within(size, other, bound) for other, bound in near)


def _meets_range(low: float, high: float, plain: list[float],
                 bounds: list[tuple[float, tuple[str, bool]]]) -> bool:
    """Whether the range the text's figures and bounds set overlaps ``low``-``high`` by
    more than a touch (a single plain figure: lies inside it)."""
    if len(plain) == 1 and not bounds:
        return low <= plain[0] <= high
    lows = [other for other, (side, _) in bounds if side == "above"]
    highs = [other for other, (side, _) in bounds if side == "below"]
    if len(plain) >= 2:
        lows.append(min(plain))
        highs.append(max(plain))
    if not lows and not highs:
        return False
    overlap = min(high, min(highs, default=high)) - max(low, max(lows, default=low))
    return overlap > _SAME_FIGURE * high


# the words before a figure that make it a bound: "aged greater than 75 years", "up to 65",
# "not exceeding 3 years" (read before "exceeding" alone), "a minimum period of 24 hours";
# a group that matched: the figure itself is inside the bound
_ABOVE = re.compile(r"(?:(?<!not\s)(?<!no\s)(?:greater|more|older|higher)\s+than"
                    r"(\s+(?:or\s+)?equal\s+to)?|above|"
                    r"over|(?<!not\s)exceeding|beyond|in\s+excess\s+of|"
                    r"((?:not|no)\s+(?:less|fewer|younger|lower)\s+than|at\s+least|"
                    r"minimum(?:\s+period)?\s+of))\s*$", re.IGNORECASE)
_BELOW = re.compile(r"(?:(?<!not\s)(?<!no\s)(?:less|fewer|younger|lower)\s+than"
                    r"(\s+(?:or\s+)?equal\s+to)?|below|under|"
                    r"(up\s*to|not\s+exceeding|(?:not|no)\s+(?:more|greater|older)\s+than|"
                    r"at\s+most|maximum(?:\s+period)?\s+of))\s*$", re.IGNORECASE)


# ... or just after it: "18 years and above", "65 years or below"
_AND_BEYOND = re.compile(r"\s*(?:and|or|&)\s+(?:(above|over|more|older)|"
                         r"(below|under|less|younger))\b", re.IGNORECASE)


def bound_side(text: str, value: Value) -> str | None:
    """Which bound the words around ``value`` make of it: "above" ("not less than 18
    years", "18 years and above"), "below" ("not older than 65 years", "up to 65"), or None
    for a plain figure."""
    bound = _bound(text, value)
    return bound[0] if bound else None


def _bound(text: str, value: Value) -> tuple[str, bool] | None:
    """The bound the words around ``value`` make of it: ("above" or "below", whether the
    figure itself is inside it), or None for a plain figure."""
    before = text[max(0, value.start - 32):value.start]
    if (match := _ABOVE.search(before)) is not None:
        return "above", any(match.groups())
    if (match := _BELOW.search(before)) is not None:
        return "below", any(match.groups())
    # the extractor may take the words in ("75 years and above" is one age)
    if (match := _AND_BEYOND.search(text[value.start:value.end + 16])) is not None:
        return ("above" if match.group(1) else "below"), True
    return None


class Bracket(BaseModel):
    """Where a stated figure lies against the ranges and bounds a text sets at its scale:
    ``inside`` them or not, and ``shown``, what the text sets ("18 years to 65 years",
    "over 75 years")."""

    model_config = ConfigDict(frozen=True)

    inside: bool
    shown: str


# what joins the two ends of a range: "18 to 65 years", "3 months - 90 years", "between 18
# years and 65 years" (the "and" only after "between")
_RANGE_JOIN = re.compile(r"\s*(?:to|till|until|-|–|—)\s*", re.IGNORECASE)
_RANGE_AND = re.compile(r"\s*and\s*", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\b", re.IGNORECASE)
_RANGE_REACH = 32  # characters "between" may stand before the range's first figure


def bracket_figure(stated: list[Value], text: str) -> Bracket | None:
    """Where the one figure ``stated`` holds lies against the ranges ("between 18 years
    and 65 years", "03 months to 90 years") and bounds ("aged greater than 75 years", "not
    exceeding 2 years") ``text`` sets at its scale (``_SAME_SCALE``); None when ``stated``
    holds more or less than one figure, or ``text`` sets no range or bound at its scale (two
    figures not written as a range are no range: a grace period of "15 days" for one
    instalment and "30 days" for another does not admit 20). A 70-year-old against "between
    18 years and 65 years" is outside; an 80-year-old against "up to 75 years" and "greater
    than 75 years" (rows of alternatives) inside the second."""
    figures = [f for v in stated if (f := figure(v)) is not None]
    if len(figures) != 1:
        return None
    family, size = figures[0]
    found = _with_range_starts(text, [(v, None if f is None else f[1])
                                      for v in extract_values(text)
                                      if (f := figure(v)) is None or f[0] == family])
    # a range speaks of the figure when the figure is near one of its ends or inside it
    # ("91 days to 25 years" of a 2-month-old; not "18 to 65 years" of one)
    all_ranges = _ranges(text, found)
    ranges = [pair for pair in all_ranges
              if pair[0][1] / _SAME_SCALE <= size <= pair[1][1] * _SAME_SCALE]
    in_range = {id(v) for pair in all_ranges for v, _ in pair}
    bounds = [(v, other, bound) for v, other in found if id(v) not in in_range
              and max(other, size) <= _SAME_SCALE * min(other, size)
              and (bound := _bound(text, v)) is not None]
    if not ranges and not bounds:
        return None
    met_ranges = [pair for pair in ranges if pair[0][1] <= size <= pair[1][1]]
    met_bounds = _met_bounds(size, bounds)
    inside = (not ranges or bool(met_ranges)) and (not bounds or bool(met_bounds))
    shown_ranges = met_ranges if inside else ranges
    shown_bounds = met_bounds if inside else bounds
    shown = [f"{_plain(low.text)} to {_plain(high.text)}" for (low, _), (high, _) in shown_ranges]
    shown += [_bound_text(v, bound) for v, _, bound in shown_bounds]
    return Bracket(inside=inside, shown="; ".join(dict.fromkeys(shown)))


def _with_range_starts(text: str, values: list[tuple[Value, float | None]]
                       ) -> list[tuple[Value, float]]:
    """The figures of ``values`` (None: a value of no figure or another family), and a bare
    number that starts a range in the unit of its other end ("from 18 to 65 years",
    "between 18 and 65 years": 18 years)."""
    kept = []
    for i, (value, size) in enumerate(values):
        if size is not None:
            kept.append((value, size))
            continue
        after = values[i + 1] if i + 1 < len(values) else None
        if value.kind == "number" and value.amount is not None and after is not None \
                and after[1] is not None and after[0].amount and \
                _joins_range(text, value, after[0]):
            kept.append((value, value.amount * after[1] / after[0].amount))
    return kept


def _joins_range(text: str, first: Value, second: Value) -> bool:
    between = text[first.end:second.start]
    return _RANGE_JOIN.fullmatch(between) is not None or (
        _RANGE_AND.fullmatch(between) is not None and
        _BETWEEN.search(text, max(0, first.start - _RANGE_REACH), first.start) is not None)


def _ranges(text: str, near: list[tuple[Value, float]]
            ) -> list[tuple[tuple[Value, float], tuple[Value, float]]]:
    """Consecutive figures of ``near`` written as a range, low end first."""
    ranges = []
    for first, second in pairwise(near):
        if _joins_range(text, first[0], second[0]) and first[1] <= second[1]:
            ranges.append((first, second))
    return ranges


def _met_bounds(size: float, bounds: list[tuple[Value, float, tuple[str, bool]]]
                ) -> list[tuple[Value, float, tuple[str, bool]]]:
    """The bounds ``size`` meets. Bounds that together make one interval ("not less than 18
    years" and "not more than 65 years") must all be met; bounds that do not (a row "up to
    75 years" and a row "greater than 75 years") are alternatives, each met on its own."""
    met = [b for b in bounds if _within(size, b[1], b[2])]
    lows = [other for _, other, (side, _) in bounds if side == "above"]
    highs = [other for _, other, (side, _) in bounds if side == "below"]
    one_interval = not lows or not highs or max(lows) < min(highs)
    return met if not one_interval or len(met) == len(bounds) else []


def _plain(text: str) -> str:
    return " ".join(text.split())


def _bound_text(value: Value, bound: tuple[str, bool]) -> str:
    side, inclusive = bound
    written = _plain(value.text)
    if side == "above":
        return f"{written} or over" if inclusive else f"over {written}"
    return f"up to {written}" if inclusive else f"under {written}"


def _within(size: float, other: float, bound: tuple[str, bool]) -> bool:
    side, inclusive = bound
    if inclusive and abs(other - size) <= _SAME_FIGURE * max(size, other):
        return True
    return size > other if side == "above" else size < other


def extract_values(text: str) -> list[Value]:
    """Every value stated in ``text``, in text order, none overlapping another."""
    return list(_extract(text))


def parse_date(text: str) -> str | None:
    """The ISO form of the first date in ``text`` ("YYYY-MM-DD", or "YYYY-MM"), or None."""
    return next((v.iso for v in _extract(text) if v.kind == "date"), None)


def parse_duration(text: str) -> tuple[float, str] | None:
    """The length and unit of the first duration (or age) in ``text``: "thirty (30) days" ->
    (30.0, "day"); None when it states none."""
    return next(((v.amount, v.unit) for v in _extract(text)
                 if v.kind in ("duration", "age") and v.amount is not None and v.unit), None)
