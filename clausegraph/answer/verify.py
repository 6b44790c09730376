"""Check an LLM answer against the evidence it was given.

Checks (each failed check is an :class:`Issue`):

- ``unknown_citation`` (error): a cited id is not among the clauses shown to the model;
- ``quote_not_found`` (error): a quoted phrase is in no evidence clause;
- ``quote_wrong_clause`` (error): a quoted phrase is in an evidence clause the claim does
  not cite;
- ``empty_answer`` (error): the model says it found an answer but made no claim;
- ``missed_answer`` (error): the model says the documents do not answer, but the offline
  extractive answer finds the asked fact in the evidence (``answer_hint``);
- ``uncited_claim`` (warning): a claim cites nothing;
- ``missed_exception`` (warning): a cited clause is overridden (``Overrides`` edge) by a
  retrieved clause that the answer does not cite (seed 004's contradiction check);
- ``instructions_in_document`` (warning): evidence text addresses an AI ("ignore previous
  instructions ..."); the prompt fences it as data, but a reviewer should know;
- ``unretrieved_exception`` (info): with the document graph given, a clause outside the
  evidence overrides a cited clause.

Quotes match verbatim after normalisation: Unicode NFKC, typographic quotes and dashes
folded, whitespace runs collapsed, soft hyphens and PDF line-break hyphens ("termi-
nation") removed; a match differing only in letter case is accepted.

Verdict: ``failed`` with any error; ``unanswered`` when the model answered nothing (no
claim, or "the documents do not answer") -- an answer that claims nothing is never
``verified``; ``warnings`` with any warning; else ``verified``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

Severity = Literal["error", "warning", "info"]
Verdict = Literal["verified", "warnings", "failed", "unanswered"]

# Clause ids look like '<document key>:<number path>' (the key is a lower-case slug, the
# path may hold spaces: 'bellring-brands-af4c2b:Schedule E/4(e)/11(a)'); inline
# "[key:7.1(b)]" citations.
INLINE_CITATION = re.compile(r"\[([a-z0-9][a-z0-9._\-]*:[^\[\]\n]+?)\]")
_INSTRUCTION_PATTERNS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?"
        r"(previous|prior|above|earlier|preceding|system)\s+(instructions?|directions?|"
        r"prompts?|rules?|context)",
        r"\byou\s+are\s+(now\s+)?(an?\s+|the\s+)?([a-z-]+\s+){0,2}(ai|assistant|"
        r"language\s+model|chat\s*bot|llm)\b",
        r"\b(system\s+prompt|as\s+an\s+ai\b|new\s+instructions?\s*:)",
        r"\b(ai|assistant|language\s+model|llm|chat\s*bot)s?\b[^.]{0,60}\b(must|should|shall)\s+"
        r"(answer|respond|reply|say|state|output|cite)\b",
    )
]
_CHAR_FOLDS = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u00a0": " ", "\u2039": "<", "\u203a": ">",
})


class Claim(BaseModel):
    """One statement of an LLM answer with the clause ids and phrases backing it."""

    text: str
    citations: list[str] = Field(default_factory=list, description="clause ids")
    quotes: list[str] = Field(default_factory=list, description="verbatim phrases")

    def cited_ids(self) -> list[str]:
        """Explicit citations plus any '[key:number]' written inside the text."""
        inline = INLINE_CITATION.findall(self.text)
        return list(dict.fromkeys([c.strip() for c in self.citations if c.strip()] + inline))


class Issue(BaseModel):
    kind: str
    severity: Severity
    message: str
    claim: int | None = Field(default=None, description="0-based claim index")
    clause_id: str | None = None


class QuoteCheck(BaseModel):
    """Where a quoted phrase was found (offsets inside the clause text)."""

    claim: int
    quote: str
    clause_id: str | None
    start: int | None = None
    end: int | None = None


class Verification(BaseModel):
    verdict: Verdict
    issues: list[Issue] = Field(default_factory=list)
    claims: int = 0
    citations: int = 0
    quotes: int = 0
    quotes_found: int = 0
    located: list[QuoteCheck] = Field(default_factory=list)

    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "error"]

    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "warning"]

    def summary(self) -> str:
        """E.g. 'failed: 1 error, 1 warning (3 claims, 4 citations, 2/3 quotes found)'."""
        errors, warnings = len(self.errors()), len(self.warnings())
        parts = [f"{errors} error{'s' * (errors != 1)}"] if errors else []
        parts += [f"{warnings} warning{'s' * (warnings != 1)}"] if warnings else []
        counts = (f"{self.claims} claims, {self.citations} citations, "
                  f"{self.quotes_found}/{self.quotes} quotes found")
        return f"{self.verdict}: {', '.join(parts) or 'no issues'} ({counts})"


# -- text matching -------------------------------------------------------------------------


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """Normalised ``text`` and, for each of its characters, the offset it came from."""
    out: list[str] = []
    index: list[int] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "\u00ad":  # soft hyphen
            i += 1
            continue
        if char.isspace():
            j = i
            while j < n and text[j].isspace():
                j += 1
            if out and out[-1] != " ":
                out.append(" ")
                index.append(i)
            i = j
            continue
        if char in "-\u2010" and out and out[-1].islower():
            # "termi-\nnation": a hyphen, a line break, then a lower-case letter.
            j = i + 1
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] in "\r\n":
                while j < n and text[j].isspace():
                    j += 1
                if j < n and text[j].islower():
                    i = j
                    continue
        for folded in unicodedata.normalize("NFKC", char.translate(_CHAR_FOLDS)):
            folded = folded.translate(_CHAR_FOLDS)
            if folded.isspace():
                if out and out[-1] != " ":
                    out.append(" ")
                    index.append(i)
                continue
            out.append(folded)
            index.append(i)
        i += 1
    while out and out[-1] == " ":
        out.pop()
        index.pop()
    return "".join(out), index


def normalize(text: str) -> str:
    """The form quotes and clause text are compared in.

    >>> normalize("the  \u201cInsured\u201d  is\\n covered")
    'the "Insured" is covered'
    """
    return normalize_with_map(text)[0]


def locate(phrase: str, text: str) -> tuple[int, int] | None:
    """(start, end) of ``phrase`` inside ``text`` after normalisation, or None.

    >>> locate("may terminate  this", "Either party may\\nterminate this Agreement.")
    (13, 31)
    """
    needle = normalize(phrase).strip(" \"'")
    if not needle:
        return None
    haystack, index = normalize_with_map(text)
    position = haystack.find(needle)
    if position < 0:
        lowered = haystack.lower()
        if len(lowered) == len(haystack):
            position = lowered.find(needle.lower())
    if position < 0:
        return None
    end = position + len(needle)
    return index[position], index[end - 1] + 1


def suspicious_instructions(text: str) -> str | None:
    """The first phrase in ``text`` that reads like an instruction to an AI, or None."""
    for pattern in _INSTRUCTION_PATTERNS:
        match = pattern.search(text)
        if match:
            return match.group(0)
    return None


# -- the check ---------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    return str(getattr(value, "value", value))


def verify(
    claims: Sequence[Claim],
    evidence: Sequence[Any],
    chain: Iterable[Any] = (),
    graph_edges: Iterable[Any] = (),
    answer_found: bool = True,
    answer_hint: tuple[str, str] | None = None,
) -> Verification:
    """Check ``claims`` against the ``evidence`` clauses the model was shown.

    ``evidence`` items need ``clause_id``, ``text`` and optionally ``label``/``group``
    (``EvidenceClause``); ``chain`` items and ``graph_edges`` need ``type``, ``source``,
    ``target`` (``ChainLink`` or ``Edge``). ``graph_edges`` (e.g. the documents' full
    edge lists) adds the ``unretrieved_exception`` check. ``answer_hint`` (clause id,
    sentence) is where the offline answer finds the asked fact: a "not answered" reply is
    then an error.
    """
    by_id = {e.clause_id: e for e in evidence}
    issues: list[Issue] = []
    located: list[QuoteCheck] = []
    cited_all: set[str] = set()
    first_citing: dict[str, int] = {}
    n_citations = n_quotes = n_found = 0

    def label(clause_id: str) -> str:
        item = by_id.get(clause_id)
        return getattr(item, "label", None) or clause_id

    if answer_found and not claims:
        issues.append(Issue(kind="empty_answer", severity="error",
                            message="the model reports an answer but made no claim"))
    if not answer_found and answer_hint is not None:
        clause_id, sentence = answer_hint
        issues.append(Issue(
            kind="missed_answer", severity="error", clause_id=clause_id,
            message=f"the model says the documents do not answer, but [{clause_id}] reads: "
            f"{sentence[:160]!r}"))
    for number, claim in enumerate(claims):
        cited = claim.cited_ids()
        n_citations += len(cited)
        known = [c for c in cited if c in by_id]
        cited_all.update(known)
        for clause_id in known:
            first_citing.setdefault(clause_id, number)
        if not cited and answer_found:  # "the documents do not answer" needs no citation
            issues.append(Issue(
                kind="uncited_claim", severity="warning", claim=number,
                message=f"claim {number + 1} cites no clause: {claim.text[:120]!r}"))
        for clause_id in cited:
            if clause_id not in by_id:
                issues.append(Issue(
                    kind="unknown_citation", severity="error", claim=number, clause_id=clause_id,
                    message=f"claim {number + 1} cites [{clause_id}], which is not among the "
                    "evidence clauses given to the model"))
        for quote in claim.quotes:
            if not quote.strip():
                continue
            n_quotes += 1
            found = next(((c, span) for c in known
                          if (span := locate(quote, by_id[c].text)) is not None), None)
            if found:
                n_found += 1
                clause_id, (start, end) = found
                located.append(QuoteCheck(claim=number, quote=quote, clause_id=clause_id,
                                          start=start, end=end))
                continue
            elsewhere = next((e.clause_id for e in evidence if locate(quote, e.text)), None)
            located.append(QuoteCheck(claim=number, quote=quote, clause_id=None))
            if elsewhere:
                issues.append(Issue(
                    kind="quote_wrong_clause", severity="error", claim=number,
                    clause_id=elsewhere,
                    message=f"claim {number + 1} quotes {quote[:80]!r}, which is in "
                    f"[{elsewhere}] but the claim cites {', '.join(cited) or 'nothing'}"))
            else:
                issues.append(Issue(
                    kind="quote_not_found", severity="error", claim=number,
                    message=f"claim {number + 1} quotes {quote[:80]!r}, which appears "
                    f"verbatim in none of the evidence clauses"))

    overrides = {(e.source, e.target) for e in chain if _type_name(e.type) == "Overrides"}
    overrides |= {(e.source, e.target) for e in graph_edges if _type_name(e.type) == "Overrides"}
    reported: set[tuple[str, str]] = set()
    for source, target in sorted(overrides):
        if target not in cited_all or source in cited_all or (source, target) in reported:
            continue
        reported.add((source, target))
        if source in by_id:
            issues.append(Issue(
                kind="missed_exception", severity="warning", clause_id=source,
                claim=first_citing.get(target),
                message=f"the answer cites {label(target)} [{target}] but not {label(source)} "
                f"[{source}], which overrides it and was among the evidence"))
        else:
            issues.append(Issue(
                kind="unretrieved_exception", severity="info", clause_id=source,
                message=f"[{source}] overrides the cited [{target}] but was not retrieved; "
                "consider more hops or a larger top_k"))

    for item in evidence:
        phrase = suspicious_instructions(item.text)
        if phrase:
            issues.append(Issue(
                kind="instructions_in_document", severity="warning", clause_id=item.clause_id,
                message=f"evidence [{item.clause_id}] contains text addressed to an AI "
                f"({phrase[:60]!r}); it was given to the model as data only — review the answer"))

    if any(i.severity == "error" for i in issues):
        verdict: Verdict = "failed"
    elif not answer_found or not claims:
        verdict = "unanswered"
    elif any(i.severity == "warning" for i in issues):
        verdict = "warnings"
    else:
        verdict = "verified"
    return Verification(
        verdict=verdict, issues=issues, claims=len(claims), citations=n_citations,
        quotes=n_quotes, quotes_found=n_found, located=located,
    )
