"""The jurisdiction a governing-law clause names: "the laws of the State of New York" ->
"New York", as CUAD's normalised Governing Law answers write it.

A clause names its law in a few grammatical shapes, whatever the place: "laws of <place>",
"laws in force in <place>", "<place> law" and "<adjective> law" ("English law"). The place
is the run of capitalised words (with "of", "and", "the" and commas inside it) after the
shape, without the "State of" / "Commonwealth of" / "Province of" that CUAD's answers drop.
Mentions inside "conflict of laws of ..." or "choice of law rules of ..." name the rules
set aside, not the governing law, and are skipped.
"""

from __future__ import annotations

import re

# Where a governing law is named: "laws of", "law in force in", "laws in", "laws under".
_LAWS_OF = re.compile(r"(?i)\blaws?(?:\s+(?:in\s+force|applicable))?\s+(?:of|in|under)\s+(?:the\s+)?")
# "<place> law(s)": "New York law", "English law", "PRC Laws".
_PLACE_LAW = re.compile(r"\b(?P<place>(?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’.-]*)\s+(?i:laws?)\b")
# What comes before a "laws of" that names rules set aside rather than the governing law.
_SET_ASIDE = re.compile(
    r"(?i)(?:conflicts?|choice|principles?|rules?|provisions?|regarding)\s*(?:of\s+)?(?:laws?)?\s*,?\s*$")
_ADMINISTRATIVE = re.compile(
    r"(?i)^(?:the\s+)?(?:State|Commonwealth|Province|Territory|Canton)\s+of\s+")
_COUNTRY_SUFFIX = re.compile(r"(?i)(?:,?\s*(?:the\s+)?(?:United\s+States(?:\s+of\s+America)?|U\.?S\.?A?\.?))+$")
# Words that may sit inside a place name between capitalised words.
_JOINERS = {"of", "and", "the", "de", "du", "del", "da"}
# Capitalised words that are never part of a place, whatever their case ("DELAWARE
# APPLICABLE TO CONTRACTS", "New York, Without regard").
_STOP = {
    "without", "applicable", "excluding", "exclusive", "except", "including", "shall", "will",
    "regard", "reference", "giving", "effect", "conflict", "conflicts", "principles", "rules",
    "provisions", "thereof", "therein", "which", "that", "as", "to", "in", "for", "with",
    "other", "than", "contracts", "agreements", "made", "entered", "notwithstanding",
    "regardless", "this", "such", "any", "all", "each", "agreement", "governing", "under",
    "section", "article", "party", "parties", "laws", "law", "these", "it", "its", "their",
    "both", "if", "no", "be", "is", "are", "by", "on", "at", "or", "not", "internal",
    "substantive", "domestic", "applied", "construed", "governed", "interpreted", "courts",
    "court", "where", "whose", "an", "a", "so", "then", "hereof", "hereto",
}
# Short and adjective names of jurisdictions ("PRC Laws", "English law").
_NAMES = {
    "prc": "People's Republic of China", "p.r.c.": "People's Republic of China",
    "u.k.": "United Kingdom", "uk": "United Kingdom", "usa": "United States",
    "english": "England", "british": "United Kingdom", "scottish": "Scotland",
    "irish": "Ireland", "welsh": "Wales", "french": "France", "german": "Germany",
    "swiss": "Switzerland", "dutch": "Netherlands", "italian": "Italy", "spanish": "Spain",
    "swedish": "Sweden", "danish": "Denmark", "norwegian": "Norway", "finnish": "Finland",
    "belgian": "Belgium", "austrian": "Austria", "chinese": "People's Republic of China",
    "japanese": "Japan", "korean": "Korea", "indian": "India", "israeli": "Israel",
    "canadian": "Canada", "australian": "Australia", "singaporean": "Singapore",
    "mexican": "Mexico", "brazilian": "Brazil",
}
_TRAILING_JOINERS = re.compile(r"(?i)(?:[\s,]+(?:of|and|the|de|du|del|da))+$")
_UNITS = {"state", "commonwealth", "province", "territory", "canton"}
_TOKEN = re.compile(r"[\w'’.-]+|,")


def governing_jurisdiction(text: str) -> str | None:
    """The jurisdiction whose law governs, as CUAD writes it, or None when none is named.

    >>> governing_jurisdiction("governed by the laws of the State of New York, without regard")
    'New York'
    >>> governing_jurisdiction("This Agreement shall be governed by English law.")
    'England'
    """
    country = None  # "the laws of the United States and ... of the Commonwealth of Kentucky"
    for match in _LAWS_OF.finditer(text):
        if _SET_ASIDE.search(text[max(0, match.start() - 40):match.start()]):
            continue
        place = _clean(_place_at(text, match.end()))
        if place == "United States":
            country = place
        elif place:
            return place
    if country:
        return country
    for match in _PLACE_LAW.finditer(text):
        words = match.group("place").split()
        while words and words[0].lower().strip(".") in _STOP | _JOINERS:
            words = words[1:]
        named = " ".join(words)
        if named.isupper() and named.lower() not in _NAMES:
            continue  # shouting text: every word is capitalised, so no place run stands out
        place = _clean(named)
        if place:
            return place
    return None


def _place_at(text: str, start: int) -> str:
    """The run of capitalised words from ``start`` (joiners and commas inside it)."""
    kept: list[str] = []
    pending: list[str] = []
    for match in _TOKEN.finditer(text, start, min(len(text), start + 200)):
        token = match.group()
        bare = token.lower().rstrip(".")
        if token == "," or bare in _JOINERS:
            pending.append(token)
        elif token[:1].isupper() and bare not in _STOP:
            kept += pending + [token]
            pending = []
        elif not kept and not pending and bare in _UNITS:
            kept.append(token)  # "the state of Delaware": the prefix goes in _clean
        else:
            break
        if kept and kept[-1].endswith(".") and not re.fullmatch(r"(?:[A-Za-z]\.)+", kept[-1]):
            break  # a sentence ends here
    return " ".join(kept).replace(" ,", ",")


def _clean(place: str) -> str | None:
    """The place without its administrative prefix, country suffix, full stop and shouting."""
    place = re.sub(r"\s+", " ", place).strip(" ,")
    if place.endswith(".") and not re.search(r"(?:^|\s)(?:[A-Za-z]\.)+$", place):
        place = place[:-1]
    place = _ADMINISTRATIVE.sub("", place)
    if place.lower() not in {"united states", "united states of america", "usa", "u.s.a."}:
        place = _COUNTRY_SUFFIX.sub("", place)
    place = _TRAILING_JOINERS.sub("", place).strip(" ,")
    # "the United States and the State of Florida": the state's law is the one CUAD names
    parts = [p for p in re.split(r"(?i)\s+and\s+(?:of\s+)?(?:the\s+)?", place)
             if not re.fullmatch(r"(?i)united states(?: of america)?", p)]
    if parts and len(parts) < len(re.split(r"(?i)\s+and\s+", place)):
        place = _ADMINISTRATIVE.sub("", " and ".join(parts))
    if not place or place.lower() in _STOP | _JOINERS | {"state"}:
        return None
    if place.lower() in _NAMES:
        return _NAMES[place.lower()]
    if re.fullmatch(r"(?i)united states(?: of america)?|u\.?s\.?a?\.?", place):
        return "United States"
    return _title(place) if place.isupper() and len(place) > 3 else place


def _title(place: str) -> str:
    """"STATE OF NEW YORK" style shouting in CUAD's case: "New York", "England and Wales"."""
    small = {"of", "and", "the", "de", "du", "del", "da"}
    words = place.lower().split(" ")
    return " ".join(w if w in small and i else w[:1].upper() + w[1:] for i, w in enumerate(words))
