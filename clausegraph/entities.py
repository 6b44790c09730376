"""Entity mentions of clauses: names from NER on each document's opening, shapes by pattern.

Contracts and policies introduce their parties, places and products in the opening ("by and
between Newegg Inc. ("Newegg"), a Delaware corporation, ..."), and later clauses repeat those
names. So spaCy's NER (the slow part: running it over every clause cost about half the
embedding time on LegalBench-RAG) reads only the first ``opening_chars`` characters, and the
names it finds are matched in every clause with one regex. Amounts, percentages, dates,
durations and ages come from the one value extractor (``clausegraph.text.values``) that
ranking and answers read too; times and statutes are found by the patterns in
``rules/entities.yaml``. ``EntityConfig.ner = "all"`` restores NER over every clause.

>>> patterns = EntityPatterns.load()  # doctest: +SKIP
>>> [(e.label, e.text) for e in patterns.find("pay $5,000 within thirty (30) days")]  # doctest: +SKIP
[('MONEY', '$5,000'), ('DATE', 'thirty (30) days')]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from clausegraph.config import RULES_DIR, EntityConfig
from clausegraph.models import Clause, Document, Entity
from clausegraph.relate import ClauseLocator
from clausegraph.relate.rules import ENTITIES_FILE, RuleFileError, read_yaml
from clausegraph.text.nlp import find_entities
from clausegraph.text.values import extract_values

# NER labels that name something and are worth matching elsewhere in the document. Amounts,
# dates and the like are left to the patterns: "$5,000" in the opening says nothing of later ones.
NAME_LABELS = frozenset({"ORG", "PERSON", "GPE", "NORP", "PRODUCT", "LAW", "FAC"})
_PARTY_LABELS = frozenset({"ORG", "PERSON"})
_MIN_NAME_CHARS = 3
_NAME_STRIP = " \t\n,;:.\"'“”‘’()[]"
# Value kinds as spaCy labels them ("thirty (30) days" and "65 years of age" are DATE for
# spaCy too); plain numbers are no entity.
VALUE_LABELS = {"money": "MONEY", "percent": "PERCENT", "date": "DATE", "duration": "DATE",
                "age": "DATE"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EntityExample(_Strict):
    text: str = Field(min_length=1)
    expect: str = Field(min_length=1, description="a whole match the pattern must produce")


class EntityPattern(_Strict):
    """One entity shape: a regex and the spaCy-style label of what it matches."""

    id: str = Field(min_length=1)
    label: str = Field(min_length=1)
    pattern: str = Field(min_length=1)
    examples: list[EntityExample] = Field(min_length=1)
    _regex: re.Pattern[str] = PrivateAttr()

    def compile(self) -> None:
        try:
            self._regex = re.compile(self.pattern)
        except re.error as exc:
            raise ValueError(f"pattern is not a valid regex: {exc}") from exc

    @property
    def regex(self) -> re.Pattern[str]:
        return self._regex

    def check_examples(self) -> list[str]:
        problems = []
        for example in self.examples:
            found = [m.group(0) for m in self._regex.finditer(example.text)]
            if example.expect not in found:
                problems.append(f"example {example.text[:60]!r}: expected {example.expect!r}, "
                                f"found {found}")
        return problems


class EntityFile(_Strict):
    description: str = Field(min_length=1)
    patterns: list[EntityPattern] = Field(min_length=1)


class EntityPatterns:
    """The compiled, self-checked patterns of ``rules/entities.yaml``, and the values."""

    def __init__(self, patterns: list[EntityPattern]) -> None:
        self.patterns = patterns

    @classmethod
    def load(cls, rules_dir: Path | str = RULES_DIR) -> EntityPatterns:
        """Load and check ``<rules_dir>/entities.yaml``; RuleFileError names a bad pattern."""
        path = Path(rules_dir) / ENTITIES_FILE
        if not path.is_file():
            raise RuleFileError(path, "entity pattern file not found")
        try:
            data = EntityFile.model_validate(read_yaml(path))
        except ValueError as exc:
            raise RuleFileError(path, f"invalid entity file: {exc}") from exc
        for pattern in data.patterns:
            try:
                pattern.compile()
            except ValueError as exc:
                raise RuleFileError(path, str(exc), pattern.id) from exc
            problems = pattern.check_examples()
            if problems:
                raise RuleFileError(path, "; ".join(problems), pattern.id)
        return cls(data.patterns)

    def find(self, text: str) -> list[Entity]:
        """Pattern and value entities of ``text`` (offsets into ``text``), earliest first."""
        found = [
            Entity(label=p.label, text=m.group(0), start=m.start(), end=m.end())
            for p in self.patterns
            for m in p.regex.finditer(text)
        ]
        found += [Entity(label=VALUE_LABELS[v.kind], text=v.text, start=v.start, end=v.end)
                  for v in extract_values(text) if v.kind in VALUE_LABELS]
        return sorted(found, key=lambda e: (e.start, -e.end))


@lru_cache(maxsize=4)
def _default_patterns(rules_dir: str) -> EntityPatterns:
    return EntityPatterns.load(rules_dir)


def opening_names(text: str, opening_chars: int) -> dict[str, str]:
    """Names NER finds in the first ``opening_chars`` characters, each with its usual label.

    A party is usually called by a short name after its introduction, so each name also
    yields the alias quoted after it (``Newegg Inc. ("Newegg")``) and its form without a
    company suffix ("Allied Esports International").
    """
    opening = text[:opening_chars]
    votes: dict[str, Counter[str]] = {}
    entities = next(iter(find_entities([(opening, 0)])), [])
    named = [e for e in entities if e.label in NAME_LABELS]
    party = None  # the alias after "..., a Nevada corporation" names the party, not Nevada
    for i, entity in enumerate(named):
        party = entity if entity.label in _PARTY_LABELS else party
        next_start = named[i + 1].start if i + 1 < len(named) else len(opening)
        alias = _alias(opening[entity.end : next_start])
        forms = [(name, entity.label) for name in _name_forms(entity.text)]
        if alias:
            forms.append((alias, party.label if party is not None else entity.label))
        for name, label in forms:
            if len(name) >= _MIN_NAME_CHARS:
                votes.setdefault(name, Counter())[label] += 1
    return {name: counts.most_common(1)[0][0] for name, counts in votes.items()}


_COMPANY_SUFFIX = re.compile(
    r",?\s+(?:Inc|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|Co|Company|LP|L\.P|PLC|plc|GmbH|"
    r"S\.A|N\.V|AG|SE|B\.V)\.?$"
)
# The quoted short name a contract gives a party: ("Newegg"), (the "Company"), (hereinafter "X").
_ALIAS = re.compile(r"^[^()]{0,80}?\(\s*(?:the\s+|hereinafter\s+(?:the\s+)?)?[\"“]([^\"”()]{2,60})[\"”]")


def _name_forms(text: str) -> list[str]:
    """The name and its form without a company suffix ("Newegg Inc." -> "Newegg")."""
    name = _clean_name(text)
    short = _clean_name(_COMPANY_SUFFIX.sub("", name))
    return [name, short] if short != name else [name]


def _alias(after: str) -> str | None:
    """The short name quoted after a party's introduction, if one follows before the next name."""
    match = _ALIAS.match(after)
    return _clean_name(match.group(1)) if match else None


def _clean_name(text: str) -> str:
    """One space between words, no quotes or trailing punctuation: 'the "Party' -> 'Party'."""
    words = text.strip(_NAME_STRIP).split()
    if words and words[0].lower() in ("the", "each", "any"):
        words = words[1:]
    return " ".join(words).strip(_NAME_STRIP)


def _name_regex(names: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for all names; any run of whitespace matches a space (PDF text wraps)."""
    ordered = sorted(set(names), key=len, reverse=True)  # longest first: "Newegg Inc." over "Newegg"
    if not ordered:
        return None
    alternatives = (r"\s+".join(re.escape(word) for word in name.split()) for name in ordered)
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")


def annotate_entities(
    clauses: list[Clause],
    document: Document | None = None,
    config: EntityConfig | None = None,
    patterns: EntityPatterns | None = None,
) -> None:
    """Fill ``Clause.entities`` (document offsets) as ``config.ner`` says.

    ``"opening"`` (default): NER names of the opening matched everywhere, plus patterns;
    ``"all"``: spaCy NER on every clause, plus patterns; ``"off"``: patterns only.
    Offsets are exact when ``document`` is given, else ``span[0]``-shifted.
    """
    config = config or EntityConfig()
    patterns = patterns or _default_patterns(str(RULES_DIR))
    per_clause: list[list[Entity]] = [patterns.find(clause.text) for clause in clauses]
    if config.ner == "all":
        items = [(clause.text, 0) for clause in clauses]
        for found, entities in zip(per_clause, find_entities(items)):
            found.extend(entities)
    elif config.ner == "opening":
        text = document.text if document is not None else "\n".join(c.text for c in clauses)
        names = opening_names(text, config.opening_chars)
        regex = _name_regex(names)
        if regex is not None:
            for clause, found in zip(clauses, per_clause):
                found.extend(
                    Entity(label=names[" ".join(m.group(0).split())], text=m.group(0),
                           start=m.start(), end=m.end())
                    for m in regex.finditer(clause.text)
                )
    for clause, found in zip(clauses, per_clause):
        clause.entities = _to_document_offsets(_dedupe(found), clause, document)


def _dedupe(entities: list[Entity]) -> list[Entity]:
    """One entity per span; where spans overlap the longer one stays (NER and a pattern may
    both find "thirty (30) days")."""
    kept: list[Entity] = []
    for entity in sorted(entities, key=lambda e: (e.start, -(e.end - e.start))):
        if kept and entity.start < kept[-1].end:
            continue
        kept.append(entity)
    return kept


def _to_document_offsets(
    entities: list[Entity], clause: Clause, document: Document | None
) -> list[Entity]:
    locator = ClauseLocator(document.text, clause) if document is not None else None
    for entity in entities:
        if locator is not None:
            entity.start, entity.end = locator.span(entity.start, entity.end)
        else:
            entity.start += clause.span[0]
            entity.end += clause.span[0]
    return entities
