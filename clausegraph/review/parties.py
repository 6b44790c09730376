"""Who the parties are and what the document is called, read from the clauses the review
found for CUAD's Parties and Document Name (CUAD's answer to both is the text itself:
"Jacksonville Jaguars, LLC ("Club"); The ARC Group, Inc. ("Sponsor")").

A party is a name the preamble introduces: a person or organisation that spaCy's NER finds
(the small English model the package ships), kept when the preamble makes it a party, by a
defined name in brackets after it (``("Club")``, ``(the "Company")``, ``(hereinafter
"Sponsor")``) or by a legal form (Inc., LLC, Ltd, GmbH ...); its defined name goes with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from clausegraph.text.nlp import entity_spans

# How much of a clause is read: a preamble names its parties in its first lines.
PREAMBLE_CHARS = 2000
_QUOTE = "\"“”'‘’"
# a defined name in brackets: ("Club"), (the "Company"), (hereinafter "Sponsor"),
# (hereinafter referred to as the "Distributor"), ("Provider" or "we")
_ALIAS = re.compile(
    r"\(\s*(?:(?:hereinafter|herein|each|collectively|individually|together)?\s*"
    r"(?:(?:referred\s+to|called|known)\s+(?:herein\s+)?(?:as\s+)?)?(?:the\s+)?)?"
    # (the closing quote is sometimes left out: ("Celebrity))
    rf"[{_QUOTE}]\s*(?P<alias>[^{_QUOTE})]{{1,40}}?)\s*(?:[{_QUOTE}]|(?=\)))"
    # a role given without quotes: "(as Company)", "(as the Repairer)"
    r"|\(\s*as\s+(?:the\s+)?(?P<role>(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3}))\s*\)",
    re.IGNORECASE)
# a name's legal form makes it a party-like name though no alias follows
_FORM_WORDS = ("Inc", "Incorporated", "LLC", "L.L.C", "Ltd", "Limited", "Corp", "Corporation",
               "Company", "Co", "GmbH", "AG", "S.A", "SA", "plc", "PLC", "LP", "L.P", "LLP", "N.V",
               "B.V", "Pte", "S.p.A", "S.r.l", "Pty",
               # other jurisdictions' forms, written with a slash or a dot or long enough
               # not to be a word in capitals ("AS", "AB", "SE" are not taken: "AS SET OUT")
               "A/S", "S/A", "SRL", "SARL", "S.à r.l", "S.À R.L", "S.a.r.l", "KG", "KGaA",
               "Oy", "Oyj", "ASA", "S.A.S", "Ltda", "JSC", "PJSC", "G.I.E", "S.L.U",
               "Pvt", "K.K", "S.A.B")
# as written in a name: "Inc", "INC", "Corporation", "CORPORATION" (not "a Delaware corporation")
_FORMS = "(?:" + "|".join(sorted({re.escape(w) for form in _FORM_WORDS
                                  for w in (form, form.upper())}, key=len, reverse=True)) \
    + r")(?![\w])\.?"
_LEGAL_FORM = re.compile(r"\b" + _FORMS, re.IGNORECASE)
_FORM_AFTER = re.compile(r",?\s*" + _FORMS + r"(?:,?\s+" + _FORMS + r")?", re.IGNORECASE)
# capitalised words before a legal form: "2THEMART.COM, INC.", "Ono Pharmaceutical Co., Ltd."
# a word of a name: capitalised, or a brand written in lower case with a dot, hyphen or
# digit in it ("e-centives, Inc.", "i3 Integrative Creative Solutions, LLC")
_NAME_WORD = r"(?:[A-Z0-9]|[a-z]+(?:[0-9]|[.-]\w))[\w.&'’/-]*"
_FORMED_NAME = re.compile(
    rf"(?P<name>(?<![\w.])(?:{_NAME_WORD},?(?:[ \t]+|[ \t]*\n[ \t]*)"
    r"(?:(?:of|and|&|de|the)[ \t]+)?){0,6}?"
    rf"{_NAME_WORD},?\s+" + _FORMS + r"(?:,?\s+" + _FORMS + r")?)")
# an address's house number right before a name: the name is a street's ("offices at 6564
# Loisdale Court"; not "Texas 78741 Sibannac, Inc.", a postcode and the next name)
_STREET_NUMBER = re.compile(r"\bat\s+\d{1,6}[A-Z]?\s+$")
# a street address, a floor, a suite, a postal code: where a party is, not who
_ADDRESS = re.compile(r"\b(?i:Floor|Suite|Ste|Street|St\.|Avenue|Ave|Road|Rd|Blvd|Boulevard|"
                      r"Drive|Lane|P\.?\s?O\.?\s+Box)(?!\w)"
                      r"|\b[A-Z]{2}\s+\d{5}\b|\b\d{5}(?:-\d{4})?\b")
_PARTY_LABELS = frozenset({"ORG", "PERSON"})
# words a name found by its capitals may open with that are not the name's: "Between
# Commnet Wireless, LLC", "And AT&T Mobility LLC", "2012 TWIN CITIES ...", "Authorized
# Signatory HPS ..."
_LEADING = re.compile(r"^(?:(?:between|and|by|among|amongst|with|to|from|authori[sz]ed|"
                      r"signatory|name|title|dated?|\d{1,4})\b[\s,:]*)+", re.IGNORECASE)
# the words that introduce the parties, and those that follow their introduction
_INTRODUCES = re.compile(r"\b(?:between|among|amongst)\b", re.IGNORECASE)
_AFTER_PARTIES = re.compile(
    r"\b(?:WHEREAS|RECITALS?|BACKGROUND|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H|"
    r"NOW,?\s+THEREFORE|IN\s+CONSIDERATION)\b|\n\s*\n\s*\d+\.", re.IGNORECASE)
# a defined name that names the document or a date, not a party ("Agreement", "Effective Date")
_DOCUMENT_WORDS = re.compile(r"\b(?:agreement|contract|amendment|date|schedule|exhibit|"
                             r"addendum|annex|appendix|terms|plan|program(?:me)?|act)\b",
                             re.IGNORECASE)
_STRIP = " ,;:.\n\t(\"“”'‘’"


def party_names(text: str) -> list[str]:
    """The parties ``text`` (a preamble) introduces, in order, each with its defined name:
    ``['Jacksonville Jaguars, LLC ("Club")', 'The ARC Group, Inc. ("Sponsor")']``."""
    # a PDF's no-break spaces read as spaces (one character for one: offsets hold)
    head = text[:PREAMBLE_CHARS].replace("\xa0", " ")
    start, end = _introduction(head)
    region = head[:end]
    entities = _names(region, entity_spans(region), start)
    named: dict[int, str] = {}  # entity start -> its defined name
    boundary = start
    for alias in _ALIAS.finditer(region, start):
        defined = (alias.group("alias") or alias.group("role")).strip()
        if _DOCUMENT_WORDS.search(defined):
            boundary = alias.end()
            continue
        owners = [e for e in entities if boundary <= e[0] and e[1] <= alias.start()]
        owner = next((e for e in owners if _LEGAL_FORM.search(region, *e)),
                     owners[0] if owners else None)
        if owner is None:
            owner = _named_before(region, boundary, alias.start())
            if owner is not None:
                entities.append(owner)
        if owner is not None and owner[0] not in named:
            named[owner[0]] = defined
        boundary = alias.end()
    entities.sort()
    names: list[str] = []
    seen: set[str] = set()
    for entity in entities:
        name = _LEADING.sub("", " ".join(region[entity[0]:entity[1]].split())
                            .strip(" ,;:").lstrip(".- "))
        if not name:
            continue
        if entity[0] not in named and (not _LEGAL_FORM.search(name)
                                       or _only_defined(name, named.values())):
            continue
        folded = _fold(name)
        if folded in seen:
            continue
        seen.add(folded)
        defined = named.get(entity[0])
        names.append(f'{name} ("{defined}")' if defined else name)
    return names


# the last words that introduce a party in a stretch of preamble ("between the", ", and")
_CONNECTOR = re.compile(r"(?:^|[\s,;(])(?:and|between|among|amongst)\s+(?:the\s+)?",
                        re.IGNORECASE)
# a name in capitals may hold commas ("TOWN OF VINTON, VIRGINIA"); one in title case not
_UPPER_RUN = re.compile(r"[A-Z][A-Z0-9&.'’-]*(?:,?\s+(?:[A-Z][A-Z0-9&.'’-]*|OF|AND|&))*"
                        r"(?![a-z])")
_TITLE_RUN = re.compile(r"[A-Z][\w.&'’-]*(?:\s+(?:[A-Z][\w.&'’-]*|of|and|&|de))*")
# between a name and its defined name: nothing, or what it is (", a Virginia corporation")
_DESCRIBED = re.compile(r"\s*(?:,\s+(?:a|an)\b[^()]*)?$")


def _named_before(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name a defined name at ``end`` belongs to when no person or organisation was
    found for it: the capitalised words right after the last "and" / "between" before it,
    followed by nothing or by what the party is ("and RICK SMITH ENTERPRISES ("Smith")",
    "between the TOWN OF VINTON, VIRGINIA, a Virginia municipal corporation ("Grantor")",
    "and Paul Silas ("Celebrity")")."""
    connectors = list(_CONNECTOR.finditer(text, start, end))
    if not connectors:
        return None
    at = connectors[-1].end()
    run = _UPPER_RUN.match(text, at, end) or _TITLE_RUN.match(text, at, end)
    if run is None or not _DESCRIBED.match(text, run.end(), end):
        return None
    name = run.group()
    if sum(ch.isalpha() for ch in name) < 2 or _DOCUMENT_WORDS.search(name) \
            or _ADDRESS.search(name):
        return None
    return run.span()


def _only_defined(name: str, defined: Iterable[str]) -> bool:
    """Whether ``name`` only repeats defined names of the parties: "Joint Venture Company"
    once Indorama Loop Technologies, LLC is defined as it, "Loop and Joint Venture Company"
    in "(each of Loop and Joint Venture Company is a "Party")"."""
    rest = f" {_fold(name)} "
    for alias in sorted({_fold(d) for d in defined}, key=len, reverse=True):
        if alias:
            rest = re.sub(rf"(?<=\W){re.escape(alias)}(?=\W)", " ", rest)
    return not re.sub(r"\b(?:and|or|the|each|of)\b|[^\w]", "", rest)


def _introduction(text: str) -> tuple[int, int]:
    """Where a preamble introduces its parties: from "between" / "among" (else the start)
    to the recitals or the operative words that follow (else the text's end)."""
    opening = _INTRODUCES.search(text)
    start = opening.start() if opening else 0
    closing = _AFTER_PARTIES.search(text, start)
    return start, closing.start() if closing else len(text)


def document_name(text: str) -> str:
    """The title as the review's Document Name span gives it, its whitespace folded."""
    return " ".join(text.split()).strip(_STRIP)


# a contract has two parties at least: a reading that finds one has missed one
MIN_PARTIES = 2

# a numbered item's marker opening a clause, maybe under a heading line ("PARTIES", "BETWEEN:"):
# "(1)", "1.", "1)"
_ITEM = re.compile(r"\s*(?:[A-Z][A-Za-z :]{2,40}\n\s*)?(?:\((?P<paren>[1-9])\)|(?P<dot>[1-9])[.)])"
                   r"(?=\s)")


# a party's item gives it a defined name in its first lines ("(the "Employer")"); a numbered
# section of the operative terms ("2. Term ...") does not
_ITEM_ALIAS_CHARS = 400


def _item_number(text: str) -> tuple[int, str] | None:
    """The number and marker style of the numbered item ``text`` opens with, when it
    introduces a party (a defined name that names no document follows soon)."""
    found = _ITEM.match(text)
    if found is None:
        return None
    alias = _ALIAS.search(text, found.end(), found.end() + _ITEM_ALIAS_CHARS)
    if alias is None or _DOCUMENT_WORDS.search(alias.group("alias") or alias.group("role")):
        return None
    style = "paren" if found.group("paren") else "dot"
    return int(found.group(style)), style


# a preamble the segmenter cut at its line breaks goes on in the short clauses around the
# one listed ("between", "Data Call Technologies, Inc. ... hereinafter "Data Call"", "and",
# "PLAN_B MEDIA AG ... hereinafter "plan_b""): up to this many before and after it, each
# at most this long (a preamble's part names a party and its address)
INTRODUCTION_REACH = 3
INTRODUCTION_CHARS = 600


def introduction(texts: Sequence[str], at: int) -> str:
    """``texts[at]`` (``texts`` the document's clauses in order) with the short clauses
    right before and after it, up to the first that opens the recitals or the terms
    (``_AFTER_PARTIES``, kept: party_names stops there)."""
    first = at
    while first > 0 and at - first < INTRODUCTION_REACH and \
            len(texts[first - 1]) <= INTRODUCTION_CHARS and \
            not _AFTER_PARTIES.search(texts[first - 1]):
        first -= 1
    last = at
    while last + 1 < len(texts) and last - at < INTRODUCTION_REACH and \
            not _AFTER_PARTIES.search(texts[last]) and \
            len(texts[last + 1]) <= INTRODUCTION_CHARS:
        last += 1
    return "\n".join(texts[first:last + 1])


def party_list(texts: Sequence[str], at: int) -> str:
    """The text to read the parties from when ``texts[at]`` (a clause, ``texts`` the
    document's clauses in order) is one item of a numbered list of parties split into
    clauses, as English drafting introduces them ("PARTIES (1) X Limited ... (the
    "Employer"); and (2) Y of ... (the "Executive")"): the run of consecutively numbered
    items around it, joined without their markers (a heading and "1." would read as the
    start of a name: "PARTIES 1. Tallis Components Ltd"); else ``texts[at]`` itself."""
    number = _item_number(texts[at])
    if number is None:
        return texts[at]
    first, (n, style) = at, number
    while n > 1 and first > 0 and _item_number(texts[first - 1]) == (n - 1, style):
        first, n = first - 1, n - 1
    last, n = at, number[0]
    while last + 1 < len(texts) and _item_number(texts[last + 1]) == (n + 1, style):
        last, n = last + 1, n + 1
    if first == last:
        return texts[at]
    return "\n".join(text[_ITEM.match(text).end():] for text in texts[first:last + 1])


def parties_answer(texts: Sequence[str]) -> str | None:
    """The parties of the review's best Parties clause that introduces two or more, joined
    by "; " (None when none does: one name found is a party missed)."""
    for text in texts:
        names = party_names(text)
        if len(names) >= MIN_PARTIES:
            return "; ".join(names)
    return None


def _names(text: str, entities: Sequence[tuple[int, int, str]],
           start: int) -> list[tuple[int, int]]:
    """Spans of the names of persons and organisations from ``start`` on: spaCy's, each
    with a legal form it left after it ("Jacksonville Jaguars" + ", LLC"), and the names
    written before a legal form that it missed ("2THEMART.COM, INC."), the longer of two
    that overlap kept; none that reads as an address ("7th Floor", "CO 80301")."""
    found = []
    for entity_start, entity_end, label in entities:
        if label not in _PARTY_LABELS or entity_start < start:
            continue
        if sum(ch.isalpha() for ch in text[entity_start:entity_end]) < 2 \
                or _STREET_NUMBER.search(text, max(0, entity_start - 16), entity_start):
            continue  # an initial ("Ave N."), or a street ("6564 Loisdale Court")
        tail = _FORM_AFTER.match(text, entity_end)
        found.append((entity_start, tail.end() if tail else entity_end))
    found += [_after_address(text, m.span("name")) for m in _FORMED_NAME.finditer(text, start)]
    kept: list[tuple[int, int]] = []
    for span in sorted(found, key=lambda s: (s[0], -(s[1] - s[0]))):
        if _ADDRESS.search(text, *span) and not _FORM_ENDS_NAME.fullmatch(text, *span):
            continue
        if kept and span[0] < kept[-1][1]:
            if span[1] > kept[-1][1]:
                kept[-1] = (kept[-1][0], span[1])
            continue
        kept.append(span)
    return kept


def _after_address(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """A name found by its capitals that runs on from the address before it ("Santa Ana, CA
    92703 and PREMIER NUTRITION CORPORATION"): from after the "and" that follows the last
    address part, so the name is kept without the address (without an "and" the span
    stays whole, and is dropped as an address)."""
    last = None
    for last in _ADDRESS.finditer(text, *span):
        pass
    if last is None:
        return span
    rest = text[last.end():span[1]]
    joined = _LAST_JOIN.match(rest)  # "Road, Woodmead, Sandton and TELKOM ...": after "and"
    if joined is None:
        return span  # the address goes on ("160 Shelbourne Road Ballsbridge 4 Co. Dublin")
    start = last.end() + joined.end()
    if _LEGAL_FORM.search(text, start, span[1]) is None or _LEGAL_FORM.match(text, start) \
            or _POSTCODE_AFTER.match(text, span[1]):
        return span  # what is left is no name, or a place: "Denver, CO 80202"
    return start, span[1]


# a street word that a legal form ends is a company's name, not an address: "Orchard Lane
# Ltd", "Abbey Road Studios Limited" (not "160 Shelbourne Road Ballsbridge 4 Co. Dublin")
_FORM_ENDS_NAME = re.compile(
    r"(?:[A-Z][\w&'’.-]*\s+){1,4}?(?i:Lane|Road|Street|Avenue|Drive)(?:\s+[A-Z][\w&'’-]*){0,2},?\s+"
    + _FORMS + r"(?:,?\s+" + _FORMS + r")?")

# the words up to the last "and" that joins an address to the next party's name
_LAST_JOIN = re.compile(r".*\b(?:and|&)\s+", re.DOTALL)
_POSTCODE_AFTER = re.compile(r"[\s,]*\d{5}\b")


def _fold(text: str) -> str:
    return " ".join(text.casefold().strip(_STRIP).split())
