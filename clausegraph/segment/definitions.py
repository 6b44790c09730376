"""Definition entries: the term a line defines ("“Affiliate” means ...", "Accident:- means")."""

from __future__ import annotations

import re

QUOTED_DEF_RE = re.compile(
    r"[“\"](?P<term>[^”\"\n]{1,100})[”\"]"
    r"(?:\s*(?:,|and|or)\s*[“\"][^”\"\n]{1,100}[”\"])*"
    r"(?:\s*\([^)\n]{0,120}\))?(?:\s+[a-z][\w\-]*(?:\s+[A-Za-z][\w\-]*){0,4})?,?\s*"
    r"(?:means|mean|shall mean|shall have|has the meaning|have the meaning|includes|"
    r"shall include|refers to|is defined|as used)\b"
)
_PLAIN_DEF_RE = re.compile(
    r"(?P<term>[A-Z][\w’'\-/&() ]{0,70}?)\s*(?::-|:|-)?\s+"
    r"(?:means|shall mean|refers to|is defined as|shall have the meaning)\b"
)
# "Definitions", "DEFINED TERMS", "Words and Meanings", "Specific meaning", "Glossary"
_DEFINITIONS_WORD_RE = re.compile(r"(?i)\bdefin|\bmeanings?\b|\bglossary\b")


def definition_term(text: str, in_defs: bool) -> str | None:
    """The term a definition entry defines, or None when ``text`` is not one.

    An unquoted term ("Hospital means ...") counts only inside a definitions section.
    """
    match = QUOTED_DEF_RE.match(text)
    if match:
        return match.group("term").strip()
    if in_defs:
        match = _PLAIN_DEF_RE.match(text)
        if match and len(match.group("term").split()) <= 8:
            return match.group("term").strip()
    return None


def mentions_definitions(heading: str | None) -> bool:
    """Does a heading announce definitions ("Definitions", "DEFINED TERMS", "Words and
    Meanings", "Glossary")?"""
    return bool(heading and _DEFINITIONS_WORD_RE.search(heading))
