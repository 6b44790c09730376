"""Relate stage: typed edges between the clauses of one document, from the rules in rules/.

Every edge carries the rule that produced it, its confidence and the evidence text with its
document span. Directions, one convention per type:

- Defines: defining clause -> every other clause using the term (evidence: the use).
- RefersTo: referring clause -> referenced clause.
- Overrides: exception -> base rule it limits ("Notwithstanding Section 5.2" in 7.1: 7.1 -> 5.2;
  "Subject to Section 9.3" in 4.1: 9.3 -> 4.1; an exclusion -> the coverage clauses it cuts).
- Entails: base rule -> the clause that follows from it ("pursuant to Section 4.1" in 6.2:
  4.1 -> 6.2; a clause opening "Accordingly," : previous clause -> it).
- Causes: triggering clause -> the clause stating the consequence ("in the event of a breach
  of Section 7" in 12.1: 7 -> 12.1).
- SameSection: clause -> its next sibling under the same parent.

A rule's ``direction`` says whether the matched clause is the source (out) or the target (in).
Cues with no target ("unless", "because", "shall be deemed") never become edges; count them
with ``cue_counts``. There are no self-loops and at most one edge per (type, source, target):
the most confident one, with its evidence. Cross-references that cannot be mapped to a clause,
and references into other instruments ("Section 409A of the Code", rule refers_to.external),
are kept in ``DocumentGraph.unresolved``.

Cost is linear in the text: each rule is at most one regex scan per clause (skipped outright
when the clause lacks the words the rule ``requires``), all defined terms are found with one
trie-shaped regex per clause (see ``TermFinder``), and references resolve by dictionary look-ups.
Entity mentions are a separate step (``clausegraph.entities``).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise

from clausegraph.models import (
    Clause,
    Document,
    DocumentGraph,
    Edge,
    RelationType,
    Span,
    UnresolvedReference,
)
from clausegraph.relate.rules import Rule, RuleSet

# Relation types whose rules are matched clause by clause; Defines and SameSection have passes
# of their own. RefersTo comes first so an unresolved reference is filed under its rule.
_PATTERN_TYPES = (
    RelationType.REFERS_TO,
    RelationType.OVERRIDES,
    RelationType.ENTAILS,
    RelationType.CAUSES,
)
_DEFAULT_SAME_SECTION_CONFIDENCE = 0.3
_EVIDENCE_CHARS = 80
_MAX_RANGE = 50  # "Sections 3.1 through 3.8" expands to at most this many siblings

# Reference grammar used when rules/macros.yaml lacks REF_KIND / REF_ID.
_FALLBACK_KIND = r"\b(?i:sections?|articles?|clauses?|paragraphs?|schedules?|exhibits?)|§§?"
_FALLBACK_ID = r"\d{1,3}(?:\.\d{1,3})*[A-Za-z]?(?:[ ]?\([a-zA-Z0-9]{1,5}\))*|[IVXLC]{1,7}\b|[A-Z]\b"

_ATTACHMENTS = frozenset({"schedule", "exhibit", "annex", "appendix", "attachment"})
_KIND_GROUPS = {
    "article": "article", "schedule": "schedule", "exhibit": "exhibit", "annex": "annex",
    "appendix": "appendix", "attachment": "attachment", "part": "part",
}
_KIND_WORD = re.compile(
    r"(?i)^(?:sub-?)?(section|article|clause|paragraph|schedule|exhibit|annex|appendi|attachment"
    r"|part|§)"
)
_LABEL = re.compile(
    r"(?i)^\s*(?:(?P<kind>(?:sub-?)?(?:articles?|sections?|clauses?|paragraphs?|schedules?"
    r"|exhibits?|annex(?:es)?|appendix|attachments?|parts?)|§+)\s*)?(?P<ident>\S[^\s:–—]*)"
)
_ROMAN = re.compile(r"(?i)^[ivxlc]{1,7}$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_PAREN_TAIL = re.compile(r"\(([a-z0-9]{1,5})\)$")
_PAREN_ITEM = re.compile(r"\(([A-Za-z0-9]{1,5})\)")
_RANGE_SEP = re.compile(r"through|\bto\b|[-–]")
_WORD = re.compile(r"[a-z][a-z-]{3,}")
_HEAD = re.compile(r"\w+")
_TERM_SPLIT = re.compile(r"\s+/\s+|\s*/\s*(?=[A-Z])|\s+or\s+")


# ----------------------------------------------------------------------------- public API


def relate(
    document: Document, clauses: list[Clause], rules: RuleSet | None = None
) -> DocumentGraph:
    """All typed edges among ``clauses`` of ``document``; fills ``Clause.defined_terms``."""
    rules = rules or _default_rules()
    tree = _Tree(document, clauses)
    graph = _GraphBuilder()
    _relate_patterns(tree, rules, graph)
    _relate_definitions(tree, rules, graph)
    _relate_overlaps(tree, rules, graph)
    _relate_same_section(tree, rules, graph)
    return graph.build()


def find_definitions(clauses: list[Clause], rules: RuleSet | None = None) -> dict[str, list[str]]:
    """Defined terms of each clause id (also stored in ``Clause.defined_terms``)."""
    rules = rules or _default_rules()
    tree = _Tree(None, clauses)
    _collect_definitions(tree, rules)
    return {clause.clause_id: list(clause.defined_terms) for clause in tree.clauses}


def cue_counts(clauses: list[Clause], rules: RuleSet | None = None) -> dict[str, Counter[str]]:
    """Per clause id, how often each target-less cue rule ("unless", "because") matched.

    These cues say a clause holds an exception or a cause without saying where its other end
    is, so they are not edges; later strategies can use the counts as clause features.
    """
    rules = rules or _default_rules()
    tree = _Tree(None, clauses)
    counts: dict[str, Counter[str]] = {}
    cue_rules = [r for t in _PATTERN_TYPES for r in rules.for_type(t) if r.target == "none"]
    for clause in tree.clauses:
        scope = tree.scope(clause.clause_id)
        found = Counter(
            {r.id: n for r in cue_rules if r.applies_to(scope) and (n := _count(r, clause.text))}
        )
        if found:
            counts[clause.clause_id] = found
    return counts


@lru_cache(maxsize=1)
def _default_rules() -> RuleSet:
    return RuleSet.load()


def _count(rule: Rule, text: str) -> int:
    return sum(1 for match in rule.regex.finditer(text) if _start_ok(rule, match))


def _start_ok(rule: Rule, match: re.Match[str]) -> bool:
    return rule.max_start is None or match.start() <= rule.max_start


# ----------------------------------------------------------------------------- offsets


class ClauseLocator:
    """Maps offsets in ``clause.text`` to offsets in the document text.

    A clause's text is the concatenation of its segments; the pieces are found once so a
    clause that skips a page footer still maps every character to where it really is.
    """

    def __init__(self, document_text: str | None, clause: Clause) -> None:
        self.doc_text = document_text
        self.base = clause.span[0]
        self.starts: list[int] = []
        self.doc_starts: list[int] = []
        if document_text is None:
            return
        position = 0
        for start, end in clause.segments:
            found = clause.text.find(document_text[start:end], position)
            if found < 0 or end <= start:
                continue  # the segmenter normalised this piece: fall back to the span start
            self.starts.append(found)
            self.doc_starts.append(start)
            position = found + (end - start)

    def offset(self, position: int) -> int:
        """Document offset of clause-text offset ``position``."""
        if not self.starts:
            return self.base + position
        index = max(bisect_right(self.starts, position) - 1, 0)
        return self.doc_starts[index] + position - self.starts[index]

    def span(self, start: int, end: int) -> Span:
        """Document span of the clause-text span [start, end)."""
        doc_start = self.offset(start)
        doc_end = self.offset(end - 1) + 1 if end > start else doc_start
        return doc_start, doc_end

    def evidence(self, text: str, start: int, end: int) -> tuple[str, Span]:
        """Evidence text and its span; the text is the document slice whenever it agrees."""
        span = self.span(start, end)
        own = text[start:end]
        if self.doc_text is not None:
            sliced = self.doc_text[span[0] : span[1]]
            if sliced.split() == own.split():
                return sliced, span
        return own, span


# ----------------------------------------------------------------------------- structure


_Group = str | tuple[str, ...] | None  # a parent clause id, ("path", *section_path), or root


@dataclass(frozen=True)
class _Key:
    """A clause label reduced to what references can name: ('sec', '5.2(a)'), ('article', '4')."""

    group: str
    ident: str


def _roman_to_int(text: str) -> int:
    values = [_ROMAN_VALUES[ch] for ch in text.lower()]
    total = 0
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else 0
        total += -value if value < following else value
    return total


def _normalise_kind(kind: str | None) -> str:
    if not kind:
        return "section"
    match = _KIND_WORD.match(kind.strip())
    if not match:
        return "section"
    word = match.group(1).lower()
    return {"appendi": "appendix", "§": "section"}.get(word, word)


def _normalise_ident(ident: str, group: str) -> str:
    ident = re.sub(r"\s+", "", ident).lower().rstrip(".-")
    if re.fullmatch(r"[a-z0-9]{1,5}\)", ident):
        ident = "(" + ident  # "a)" labels an item like "(a)"
    if group in ("article", "part") and _ROMAN.match(ident):
        ident = str(_roman_to_int(ident))
    return ident


def make_key(kind: str | None, ident: str) -> _Key:
    """The look-up key of a reference or label: kind word and identifier, normalised."""
    group = _KIND_GROUPS.get(_normalise_kind(kind), "sec")
    return _Key(group, _normalise_ident(ident, group))


def _label_keys(label: str | None) -> list[_Key]:
    """Keys a clause label answers to: 'ARTICLE IV' -> article 4; bare 'IV' -> sec iv, article 4."""
    if not label:
        return []
    match = _LABEL.match(label)
    if not match:
        return []
    kind, ident = match.group("kind"), match.group("ident")
    if not kind and not re.match(r"[\w(]", ident):
        return []
    key = make_key(kind, ident)
    keys = [key]
    if not kind and _ROMAN.match(ident.rstrip(".")) and ident[:1].isupper():
        keys.append(make_key("article", ident.rstrip(".")))
    return keys


def _heading_keys(heading: str | None) -> list[_Key]:
    """Headings like 'ARTICLE IV' or 'Schedule B - Pricing' name the clause too."""
    if not heading:
        return []
    match = _LABEL.match(heading)
    if not match or not match.group("kind"):
        return []
    return [make_key(match.group("kind"), match.group("ident"))]


def _path_keys(entry: str) -> list[_Key]:
    """Keys of a section-path entry ('ARTICLE 6 LIMITED WARRANTIES' -> article 6); entries
    without a number ('PHOTRONICS, INC') give none."""
    return [
        key for key in _label_keys(entry)
        if key.group != "sec" or re.match(r"[\d(]|[ivxlc]+$", key.ident)
    ]


def _fallbacks(ident: str) -> Iterator[str]:
    """'5.2(a)(i)' -> '5.2(a)(i)', '5.2(a)', '5.2', '5': the nearest clause that exists."""
    yield ident
    while True:
        stripped = re.sub(r"\([a-z0-9]{1,5}\)$", "", ident)
        if stripped == ident:
            stripped = re.sub(r"\.\d{1,3}$", "", ident)
        if stripped == ident or not stripped:
            return
        ident = stripped
        yield ident


class _Tree:
    """Parents, siblings, labels and section headings of the clauses of one document."""

    def __init__(self, document: Document | None, clauses: list[Clause]) -> None:
        self.document = document
        self.clauses = sorted(clauses, key=lambda c: c.order)
        self.by_id = {c.clause_id: c for c in self.clauses}
        self.rank = {c.clause_id: i for i, c in enumerate(self.clauses)}
        self.keys = {c.clause_id: self._own_keys(c) for c in self.clauses}
        self.parent = self._parents()
        # Siblings share a parent clause, or, when the segmenter folded the parent's heading
        # into its first child ("ARTICLE 2. PURCHASE ORDERS 2.1 ..."), the same section path.
        self.group: dict[str, _Group] = {c.clause_id: self._group_of(c) for c in self.clauses}
        self.members: dict[_Group, list[str]] = defaultdict(list)
        self.children: dict[str, list[str]] = defaultdict(list)
        for clause in self.clauses:
            self.members[self.group[clause.clause_id]].append(clause.clause_id)
            parent = self.parent[clause.clause_id]
            if parent is not None:
                self.children[parent].append(clause.clause_id)
        self.index: dict[_Key, list[str]] = defaultdict(list)
        for clause in self.clauses:
            for key in self._index_keys(clause):
                if clause.clause_id not in self.index[key]:
                    self.index[key].append(clause.clause_id)
        # Sections that exist only as a section-path entry ("ARTICLE 6 LIMITED WARRANTIES")
        # answer with the first clause inside them.
        self.sections: dict[_Key, str] = {}
        for clause in self.clauses:
            for entry in clause.section_path:
                for key in _path_keys(entry):
                    self.sections.setdefault(key, clause.clause_id)
        self._ancestors: dict[str, list[str]] = {}
        self._scopes: dict[str, str] = {}
        self._locators: dict[str, ClauseLocator] = {}

    # -- construction

    @staticmethod
    def _own_keys(clause: Clause) -> list[_Key]:
        keys = _label_keys(clause.number) + _heading_keys(clause.heading)
        path = clause.clause_id.split(":", 1)[-1]
        keys += _label_keys(path.rsplit("/", 1)[-1])
        return list(dict.fromkeys(keys))

    def _group_of(self, clause: Clause) -> _Group:
        parent = self.parent[clause.clause_id]
        if parent is not None:
            return parent
        return ("path", *clause.section_path) if clause.section_path else None

    def _parents(self) -> dict[str, str | None]:
        by_path: dict[tuple[str, ...], str] = {}
        for clause in self.clauses:
            both = f"{clause.number} {clause.heading}" if clause.number and clause.heading else None
            for label in (clause.number, clause.heading, clause.label, both):
                if label:
                    by_path.setdefault((*clause.section_path, label), clause.clause_id)
        by_key_ident: dict[tuple[str, ...], str] = {}
        for clause in self.clauses:
            for key in self.keys[clause.clause_id]:
                by_key_ident.setdefault((key.group, key.ident), clause.clause_id)
                by_path.setdefault((*clause.section_path, key.group, key.ident), clause.clause_id)
        parents: dict[str, str | None] = {}
        for clause in self.clauses:
            parent = self._parent_of(clause, by_path, by_key_ident)
            parents[clause.clause_id] = parent if parent != clause.clause_id else None
        return parents

    def _parent_of(
        self,
        clause: Clause,
        by_path: dict[tuple[str, ...], str],
        by_key_ident: dict[tuple[str, ...], str],
    ) -> str | None:
        """From section_path; only without one, from the id path ('ARTICLE IV/Section 5') or
        the number ('4.2(b)' -> '4.2'), so a segmenter that leaves section_path empty still
        gives a tree. A section path whose parent has no clause of its own gives None: the
        clause then groups with the others under the same path."""
        if clause.section_path:
            parent = by_path.get(tuple(clause.section_path))
            if parent:
                return parent
            # The entry reads "2.1 Outsource and Issuance ...": match it by its label.
            for key in _path_keys(clause.section_path[-1]):
                parent = by_path.get((*clause.section_path[:-1], key.group, key.ident))
                if parent:
                    return parent
            return None
        prefix, _, path = clause.clause_id.partition(":")
        if "/" in path:
            parent_id = f"{prefix}:{path.rsplit('/', 1)[0]}"
            if parent_id in self.by_id:
                return parent_id
        for key in self.keys[clause.clause_id][:1]:
            for ident in list(_fallbacks(key.ident))[1:]:
                parent = by_key_ident.get((key.group, ident))
                if parent:
                    return parent
        return None

    def _index_keys(self, clause: Clause) -> list[_Key]:
        keys = list(self.keys[clause.clause_id])
        parent = self.parent[clause.clause_id]
        # "(b)" under "4.2" also answers to "4.2(b)".
        if parent is not None:
            for key in keys[:1]:
                if key.ident.startswith("("):
                    for parent_key in self.keys[parent][:1]:
                        keys.append(_Key(parent_key.group, parent_key.ident + key.ident))
        return keys

    # -- queries

    def ancestors(self, clause_id: str) -> list[str]:
        """Parent, grandparent, ... (nearest first)."""
        cached = self._ancestors.get(clause_id)
        if cached is not None:
            return cached
        chain: list[str] = []
        parent = self.parent.get(clause_id)
        while parent is not None and parent not in chain and len(chain) < 50:
            chain.append(parent)
            parent = self.parent.get(parent)
        self._ancestors[clause_id] = chain
        return chain

    def root(self, clause_id: str) -> str:
        """The top-level clause this one sits in (itself when it is top-level)."""
        chain = self.ancestors(clause_id)
        return chain[-1] if chain else clause_id

    def siblings(self, clause_id: str) -> list[str]:
        """Clauses under the same parent, in document order (including this one)."""
        return self.members[self.group[clause_id]]

    def previous(self, clause_id: str) -> str | None:
        """The clause a 'foregoing' points back to: previous sibling, else the parent."""
        siblings = self.siblings(clause_id)
        position = siblings.index(clause_id)
        return siblings[position - 1] if position > 0 else self.parent.get(clause_id)

    def in_attachment(self, clause_id: str) -> bool:
        """Whether the clause sits in a schedule, exhibit, annex or appendix."""
        chain = [clause_id, *self.ancestors(clause_id)]
        return any(key.group in _ATTACHMENTS for cid in chain for key in self.keys[cid])

    def scope(self, clause_id: str) -> str:
        """Headings and labels of the clause and its ancestors: what 'where' rules test."""
        cached = self._scopes.get(clause_id)
        if cached is None:
            clause = self.by_id[clause_id]
            parts = [*clause.section_path, clause.number or "", clause.heading or ""]
            for ancestor in self.ancestors(clause_id):
                parts.append(self.by_id[ancestor].heading or "")
            cached = " / ".join(part for part in parts if part)
            self._scopes[clause_id] = cached
        return cached

    def locator(self, clause_id: str) -> ClauseLocator:
        located = self._locators.get(clause_id)
        if located is None:
            text = self.document.text if self.document is not None else None
            located = ClauseLocator(text, self.by_id[clause_id])
            self._locators[clause_id] = located
        return located

    # -- reference resolution

    def resolve(self, key: _Key, source: str, within: str | None = None) -> str | None:
        """The clause a numbered reference names, trying the nearest existing ancestor label
        ('5.2(a)' -> '5.2'); None when nothing matches."""
        groups = [key.group] + (["sec"] if key.group == "article" else [])
        for group in groups:
            idents = _fallbacks(key.ident) if group in ("sec", "article", "part") else [key.ident]
            for ident in idents:
                candidates = list(self.index.get(_Key(group, ident), []))
                section = self.sections.get(_Key(group, ident))
                if section is not None and section not in candidates:
                    candidates.append(section)  # "Article II" folded into its first clause
                if within is not None:
                    candidates = [c for c in candidates if within in self.ancestors(c)]
                if candidates:
                    return self._closest(candidates, source)
        return None

    def _closest(self, candidates: list[str], source: str) -> str:
        """Among clauses with the same label, the one nearest the source in the tree."""
        if len(candidates) == 1:
            return candidates[0]
        source_chain = set(self.ancestors(source))
        source_attached = self.in_attachment(source)

        def score(candidate: str) -> tuple[int, bool, int]:
            shared = len(source_chain & set(self.ancestors(candidate)))
            return shared, self.in_attachment(candidate) == source_attached, -self.rank[candidate]

        return max(candidates, key=score)

    def enclosing(self, kind: str, source: str) -> str | None:
        """'this Section' / 'this Article': the nearest clause (itself included) of that kind,
        else the first clause of the nearest section-path entry of that kind."""
        group = _KIND_GROUPS.get(_normalise_kind(kind), "sec")
        for candidate in [source, *self.ancestors(source)]:
            for key in self.keys[candidate]:
                if key.group == group and (group != "sec" or "(" not in key.ident):
                    return candidate
                if group == "sec" and _normalise_kind(kind) != "section" and key.group == "sec":
                    return candidate  # "this paragraph" / "this clause": any numbered clause
        for entry in reversed(self.by_id[source].section_path):
            for key in _path_keys(entry):
                if key.group == group and "(" not in key.ident:
                    return self.sections.get(key)
        return None

    def relative(self, item: str, source: str) -> str | None:
        """'paragraph (b) above': a sibling labelled (b), else a child. Not further away: an
        "(i)" elsewhere is more likely an item of an inline list than the clause meant."""
        wanted = f"({item.lower()})"
        for group in (self.siblings(source), self.children.get(source, [])):
            for candidate in group:
                if candidate != source and self._tail(candidate) == wanted:
                    return candidate
        return None

    def _tail(self, clause_id: str) -> str | None:
        for key in self.keys[clause_id]:
            match = _PAREN_TAIL.search(key.ident)
            if match:
                return f"({match.group(1)})"
        return None


# ----------------------------------------------------------------------------- graph


@dataclass
class _Candidate:
    confidence: float
    rule_id: str
    evidence: str
    span: Span
    term: str | None = None


@dataclass
class _GraphBuilder:
    """Collects edges, keeping the most confident per (type, source, target)."""

    edges: dict[tuple[RelationType, str, str], _Candidate] = field(default_factory=dict)
    unresolved: dict[tuple[str, Span], UnresolvedReference] = field(default_factory=dict)

    def add(
        self, relation: RelationType, source: str, target: str, candidate: _Candidate
    ) -> None:
        if source == target:
            return  # a clause citing itself says nothing about the graph
        key = (relation, source, target)
        known = self.edges.get(key)
        if known is None or candidate.confidence > known.confidence:
            self.edges[key] = candidate

    def unresolve(self, source: str, text: str, span: Span, rule_id: str) -> None:
        key = (source, span)
        if key not in self.unresolved:
            self.unresolved[key] = UnresolvedReference(
                source=source, text=text, span=span, rule_id=rule_id
            )

    def build(self) -> DocumentGraph:
        edges = [
            Edge(
                type=relation, source=source, target=target, confidence=c.confidence,
                rule_id=c.rule_id, evidence=c.evidence, evidence_span=c.span, term=c.term,
            )
            for (relation, source, target), c in self.edges.items()
        ]
        return DocumentGraph(edges=edges, unresolved=list(self.unresolved.values()))


# ----------------------------------------------------------------------------- pattern rules


@dataclass(frozen=True)
class _RefItem:
    """One label inside a reference: 'Sections 5.2 and 5.3' has two."""

    key: _Key
    start: int
    end: int
    range_from_previous: bool


class _RefParser:
    """Splits a matched reference into its labels, with the macros' own grammar."""

    def __init__(self, rules: RuleSet) -> None:
        kind = rules.macro("REF_KIND") or _FALLBACK_KIND
        ident = rules.macro("REF_ID") or _FALLBACK_ID
        heading = rules.macro("REF_HEADING")
        self.item = re.compile(rf"(?:(?P<kind>{kind})\s*)?(?<![\w.])(?P<ident>{ident})")
        self.heading = re.compile(heading) if heading else None

    def items(self, text: str, offset: int) -> list[_RefItem]:
        if self.heading is not None:
            # "Sections 3.1  [LABORATORY PRODUCTS] through 3.8": headings hold no labels.
            text = self.heading.sub(lambda m: " " * len(m.group()), text)
        items: list[_RefItem] = []
        kind: str | None = None
        previous_end = 0
        for match in self.item.finditer(text):
            kind = match.group("kind") or kind
            between = text[previous_end : match.start()]
            is_range = bool(items) and bool(_RANGE_SEP.search(between))
            items.append(
                _RefItem(
                    make_key(kind, match.group("ident")),
                    offset + match.start(), offset + match.end(), is_range,
                )
            )
            previous_end = match.end()
        return items


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A rule's fields copied out once: pydantic attribute access is slow in the inner loop."""

    relation: RelationType
    rule: Rule
    regex: re.Pattern[str]
    where: re.Pattern[str] | None
    max_start: int | None
    target: str
    direction: str
    candidate_base: tuple[float, str]
    requires: tuple[str, ...]

    def skips(self, tree: _Tree, clause: Clause, lower: str) -> bool:
        """Whether the rule cannot match this clause: out of its section, or none of the
        strings every match contains is in the (lower-cased) text."""
        if self.requires and not any(item in lower for item in self.requires):
            return True
        return self.where is not None and not self.where.search(tree.scope(clause.clause_id))


def _prepare(relation: RelationType, rule: Rule) -> _Prepared:
    return _Prepared(
        relation, rule, rule.regex, rule.where_regex, rule.max_start, rule.target,
        rule.direction, (rule.confidence, rule.id), tuple(rule.requires),
    )


def _relate_patterns(tree: _Tree, rules: RuleSet, graph: _GraphBuilder) -> None:
    """Run every clause-level rule (targets ref, previous, enclosing, sibling, external)."""
    parser = _RefParser(rules)
    prepared = [
        _prepare(relation, rule)
        for relation in _PATTERN_TYPES
        for rule in rules.for_type(relation)
        if rule.target in ("ref", "previous", "enclosing", "sibling", "external", "ignore")
    ]
    # External and ignored references are found first so no other rule resolves them.
    prepared.sort(key=lambda p: p.target not in ("external", "ignore"))
    for clause in tree.clauses:
        external: list[Span] = []
        text = clause.text
        lower = text.lower()
        for rule in prepared:
            if rule.skips(tree, clause, lower):
                continue
            for match in rule.regex.finditer(text):
                if rule.max_start is not None and match.start() > rule.max_start:
                    break  # matches come in order: the rest start later still
                _apply(tree, graph, parser, rule, clause, match, external)


def _apply(
    tree: _Tree,
    graph: _GraphBuilder,
    parser: _RefParser,
    rule: _Prepared,
    clause: Clause,
    match: re.Match[str],
    external: list[Span],
) -> None:
    source = clause.clause_id
    locator = tree.locator(source)
    evidence, span = locator.evidence(clause.text, match.start(), match.end())
    candidate = _Candidate(*rule.candidate_base, evidence, span)
    rule_id = rule.candidate_base[1]
    if rule.target == "external":
        external.append(match.span("ref"))
        graph.unresolve(source, evidence, span, rule_id)
        return
    if rule.target == "ignore":
        external.append(match.span())  # looks like a reference, is not one: nothing recorded
        return
    if rule.target == "previous":
        targets = [tree.previous(source)]
    elif rule.target == "enclosing":
        targets = [tree.enclosing(match.group("ref"), source)]
    elif rule.target == "sibling":
        targets = _relative_targets(tree, graph, rule_id, clause, match)
    else:
        if _overlaps(match.span("ref"), external):
            return
        targets = _ref_targets(tree, graph, parser, rule_id, clause, match)
    for target in targets:
        if target is None:
            # "this Exhibit" outside any exhibit is the filed document itself, not a clause.
            if rule.target == "enclosing" and make_key(match.group("ref"), "x").group == "sec":
                graph.unresolve(source, evidence, span, rule_id)
            continue
        pair = (source, target) if rule.direction == "out" else (target, source)
        graph.add(rule.relation, *pair, candidate)


def _overlaps(span: Span, spans: list[Span]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in spans)


def _ref_targets(
    tree: _Tree,
    graph: _GraphBuilder,
    parser: _RefParser,
    rule_id: str,
    clause: Clause,
    match: re.Match[str],
) -> list[str]:
    """Resolve every label of the matched reference; unresolved ones are recorded."""
    source = clause.clause_id
    within = _within(tree, match, source)
    targets: list[str] = []
    previous: str | None = None
    for item in parser.items(match.group("ref"), match.start("ref")):
        target = tree.resolve(item.key, source, within)
        if target is None and within is not None:
            target = within  # "clause 2(a)(i) in Annex I" with no clause 2(a)(i): the annex
        if target is None:
            text, span = tree.locator(source).evidence(clause.text, item.start, item.end)
            graph.unresolve(source, text, span, rule_id)
        else:
            if item.range_from_previous and previous is not None:
                targets.extend(_range_between(tree, previous, target))
            targets.append(target)
        previous = target
    return targets


def _within(tree: _Tree, match: re.Match[str], source: str) -> str | None:
    """The attachment a reference is scoped to ('... in Annex I'), when the rule captures it."""
    if "within" not in match.re.groupindex or not match.group("within"):
        return None
    kind, _, ident = match.group("within").partition(" ")
    return tree.resolve(make_key(kind, ident.strip()), source)


def _range_between(tree: _Tree, first: str, last: str) -> list[str]:
    """Siblings strictly between two resolved range ends ('Sections 3.1 through 3.8')."""
    if tree.group[first] != tree.group[last]:
        return []
    siblings = tree.siblings(first)
    start, end = siblings.index(first), siblings.index(last)
    return siblings[start + 1 : end][:_MAX_RANGE] if start < end else []


def _relative_targets(
    tree: _Tree, graph: _GraphBuilder, rule_id: str, clause: Clause, match: re.Match[str]
) -> list[str]:
    source = clause.clause_id
    targets: list[str] = []
    offset = match.start("ref")
    for item in _PAREN_ITEM.finditer(match.group("ref")):
        target = tree.relative(item.group(1), source)
        if target is None:
            start, end = offset + item.start(), offset + item.end()
            text, span = tree.locator(source).evidence(clause.text, start, end)
            graph.unresolve(source, text, span, rule_id)
        else:
            targets.append(target)
    return targets


# ----------------------------------------------------------------------------- definitions


@dataclass(frozen=True)
class _Definition:
    term: str
    clause_id: str
    rule: Rule


def _clean_term(raw: str, max_words: int) -> str | None:
    """Trim a captured term; None when it does not look like a defined term."""
    term = " ".join(raw.split()).strip(" ,.;:")
    if len(term) < 2 or len(term.split()) > max_words or not term[0].isalnum():
        return None
    if not any(ch.isupper() for ch in term):
        return None  # lower-case "terms" would match ordinary words everywhere
    return term


def _split_term(term: str) -> list[str]:
    """'Age / Aged' -> ['Age', 'Aged'] when every part is capitalised."""
    parts = [part.strip() for part in _TERM_SPLIT.split(term) if part.strip()]
    if len(parts) > 1 and all(part[0].isupper() for part in parts):
        return parts
    return [term]


def _collect_definitions(tree: _Tree, rules: RuleSet) -> list[_Definition]:
    """Every (term, defining clause, rule); also fills Clause.defined_terms."""
    max_words = int(rules.setting(RelationType.DEFINES, "max_term_words", 8))
    prepared = [_prepare(RelationType.DEFINES, r) for r in rules.for_type(RelationType.DEFINES)]
    found: list[_Definition] = []
    for clause in tree.clauses:
        terms: list[str] = []
        lower = clause.text.lower()
        for rule in prepared:
            if rule.skips(tree, clause, lower):
                continue
            for match in rule.regex.finditer(clause.text):
                if rule.max_start is not None and match.start() > rule.max_start:
                    break
                term = _clean_term(match.group("term"), max_words)
                if term is None:
                    continue
                for part in _split_term(term) if rule.rule.split_terms else [term]:
                    found.append(_Definition(part, clause.clause_id, rule.rule))
                    terms.append(part)
        clause.defined_terms = list(dict.fromkeys(terms))
    return found


def _definers(definitions: list[_Definition]) -> dict[str, list[_Definition]]:
    """Per term, its most confident definitions (a glossary pointer yields to the real one)."""
    by_term: dict[str, list[_Definition]] = defaultdict(list)
    for definition in definitions:
        by_term[definition.term].append(definition)
    best: dict[str, list[_Definition]] = {}
    for term, items in by_term.items():
        top = max(item.rule.confidence for item in items)
        chosen = {item.clause_id: item for item in items if item.rule.confidence == top}
        best[term] = list(chosen.values())
    return best


def term_forms(term: str) -> list[str]:
    """The term and its regular plural (or singular): Party/Parties, Product/Products."""
    forms = [term]
    if term[-1:].isalpha():
        if term.endswith("ies") and len(term) > 4:
            forms.append(term[:-3] + "y")
        elif term.endswith("s") and not term.endswith("ss"):
            forms.append(term[:-1])
        elif term.endswith("y") and term[-2:-1].lower() not in "aeiou":
            forms.append(term[:-1] + "ies")
        elif term.endswith(("x", "z", "ch", "sh", "ss")):
            forms.append(term + "es")
        else:
            forms.append(term + "s")
    return forms


class TermFinder:
    """Finds defined terms and their plural/singular forms in text: case-sensitive, whole words,
    the longest term first ("Confidential Information" before "Information").

    One regex, shaped as a prefix trie of the terms' first words, finds candidate starts; the
    few candidates are then checked against the full forms. Linear in the text however many
    terms a document defines, and cheap to build: a trie of the full terms, or an alternation
    of them, takes longer to compile than a merger agreement takes to scan.
    """

    def __init__(self, forms: dict[str, str]) -> None:
        self.forms = forms
        self.by_head: dict[str, list[str]] = defaultdict(list)
        for form in forms:
            head = _HEAD.match(form)
            if head:
                self.by_head[head.group()].append(form)
        for candidates in self.by_head.values():
            candidates.sort(key=len, reverse=True)
        self.heads = re.compile(rf"(?:{trie_pattern(self.by_head)})\b") if self.by_head else None

    def find(self, text: str) -> Iterator[tuple[str, int, int]]:
        """(term, start, end) of each use in ``text``, left to right, not overlapping."""
        if self.heads is None:
            return
        resume = 0
        for head in self.heads.finditer(text):
            start = head.start()
            if start < resume:
                continue
            if start and (text[start - 1].isalnum() or text[start - 1] in "_-"):
                continue  # inside a word ("ThirdParty", "Non-Affiliate")
            for form in self.by_head[head.group()]:
                end = start + len(form)
                if text.startswith(form, start) and not _continues_word(text, end):
                    yield self.forms[form], start, end
                    resume = end
                    break


def trie_pattern(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, shaped as a prefix trie ('Part(?:y|ies)')."""
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_node(root)


def _trie_node(node: dict[str, dict]) -> str:
    branches = [re.escape(ch) + _trie_node(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" in node:
        return f"(?:{body})?" if len(branches) == 1 else body + "?"
    return body


def _continues_word(text: str, end: int) -> bool:
    return end < len(text) and (text[end].isalnum() or text[end] in "_-")


def _relate_definitions(tree: _Tree, rules: RuleSet, graph: _GraphBuilder) -> None:
    """Defines edges: definer -> each other clause using the term."""
    definers = _definers(_collect_definitions(tree, rules))
    if not definers:
        return
    forms: dict[str, str] = {}
    for term in sorted(definers, key=len, reverse=True):
        for form in term_forms(term):
            if form not in definers or form == term:
                forms.setdefault(form, term)
    uses = _term_uses(tree, TermFinder(forms))
    share = rules.setting(RelationType.DEFINES, "common_term_share", 0.5)
    min_clauses = rules.setting(RelationType.DEFINES, "common_term_min_clauses", 20)
    total = len(tree.clauses)
    # Rarest terms first: when one definer defines several terms a clause uses, the single
    # Defines edge between them names the most specific term ("Confidential Information",
    # not "Party").
    for term, all_users in sorted(uses.items(), key=lambda item: len(item[1])):
        defining = {definition.clause_id for definition in definers[term]}
        users = {cid: span for cid, span in all_users.items() if cid not in defining}
        if total >= min_clauses and len(users) > share * total:
            continue  # used nearly everywhere ("Agreement"): no information, a hub in the graph
        for target, (start, end) in users.items():
            definition = _nearest_definer(tree, definers[term], target)
            evidence, span = tree.locator(target).evidence(tree.by_id[target].text, start, end)
            candidate = _Candidate(
                definition.rule.confidence, definition.rule.id, evidence, span, term
            )
            graph.add(RelationType.DEFINES, definition.clause_id, target, candidate)


def _nearest_definer(tree: _Tree, definitions: list[_Definition], user: str) -> _Definition:
    """The definition that governs a use when a term is defined more than once (an exhibit
    often redefines "Company"): one in the same top-level part, the nearest before the use;
    else the first one outside schedules and exhibits."""
    if len(definitions) == 1:
        return definitions[0]
    root = tree.root(user)
    rank = tree.rank[user]
    local = [d for d in definitions if tree.root(d.clause_id) == root]
    if local:
        before = [d for d in local if tree.rank[d.clause_id] <= rank]
        if before:
            return max(before, key=lambda d: tree.rank[d.clause_id])
        return min(local, key=lambda d: tree.rank[d.clause_id])
    main = [d for d in definitions if not tree.in_attachment(d.clause_id)]
    return min(main or definitions, key=lambda d: tree.rank[d.clause_id])


def _term_uses(tree: _Tree, finder: TermFinder) -> dict[str, dict[str, Span]]:
    """term -> {clause id: first use (clause-text span)}."""
    uses: dict[str, dict[str, Span]] = defaultdict(dict)
    for clause in tree.clauses:
        for term, start, end in finder.find(clause.text):
            uses[term].setdefault(clause.clause_id, (start, end))
    return uses


# ----------------------------------------------------------------------------- overlaps


def _relate_overlaps(tree: _Tree, rules: RuleSet, graph: _GraphBuilder) -> None:
    """Exclusion clauses -> the coverage clauses they limit, by shared informative words."""
    overlap_rules = [r for r in rules.for_type(RelationType.OVERRIDES) if r.target == "overlap"]
    if not overlap_rules:
        return
    sources = _overlap_sources(tree, overlap_rules)
    if not sources:
        return
    top_k = int(rules.setting(RelationType.OVERRIDES, "overlap_top_k", 3))
    min_shared = int(rules.setting(RelationType.OVERRIDES, "overlap_min_shared", 2))
    max_df = rules.setting(RelationType.OVERRIDES, "overlap_max_df", 0.1)
    min_score = rules.setting(RelationType.OVERRIDES, "overlap_min_score", 0.0)
    full_score = rules.setting(RelationType.OVERRIDES, "overlap_full_score", 0.3)
    words = {c.clause_id: set(_WORD.findall(c.text.lower())) for c in tree.clauses}
    frequency = Counter(word for bag in words.values() for word in bag)
    total = len(tree.clauses)
    limit = max(3.0, max_df * total)
    idf = {w: math.log(total / n) for w, n in frequency.items() if n <= limit}
    vectors = {
        c.clause_id: _weighted(words[c.clause_id], _title_words(c), idf) for c in tree.clauses
    }
    norms = {cid: math.sqrt(sum(w * w for w in v.values())) or 1.0 for cid, v in vectors.items()}
    coverage = {
        rule.id: [c.clause_id for c in tree.clauses if rule.target_allowed(tree.scope(c.clause_id))]
        for rule in overlap_rules
    }
    for source, (rule, candidate) in sources.items():
        scores = []
        for target_id in coverage[rule.id]:
            rival = sources.get(target_id)
            if rival is not None and rival[0].confidence >= rule.confidence:
                continue  # an exclusion at least as strong is not a coverage clause it limits
            shared = vectors[source].keys() & vectors[target_id].keys()
            if len(shared) >= min_shared:
                dot = sum(vectors[source][w] * vectors[target_id][w] for w in shared)
                cosine = dot / (norms[source] * norms[target_id])
                scores.append((cosine, -tree.rank[target_id], target_id))
        for score, _, target_id in sorted(scores, reverse=True)[:top_k]:
            if score >= min_score:
                # Word overlap is weak evidence: the rule's confidence only at full_score.
                scale = min(1.0, score / full_score) if full_score > 0 else 1.0
                scaled = replace(candidate, confidence=round(candidate.confidence * scale, 3))
                graph.add(RelationType.OVERRIDES, source, target_id, scaled)


def _title_words(clause: Clause) -> set[str]:
    """Words of the heading (else the first line with letters): "Refractive Error"."""
    title = clause.heading
    if not title:
        lines = (line for line in clause.text.splitlines() if re.search(r"[A-Za-z]{3}", line))
        title = next(lines, "")[:100]
    return set(_WORD.findall(title.lower()))


def _weighted(bag: set[str], title: set[str], idf: dict[str, float]) -> dict[str, float]:
    """idf weight of each informative word, doubled for title words: an exclusion titled
    "Refractive Error" belongs with the benefit titled "Correction of Refractive Error"."""
    return {w: idf[w] * (2.0 if w in title else 1.0) for w in bag if w in idf}


def _overlap_sources(tree: _Tree, overlap_rules: list[Rule]) -> dict[str, tuple[Rule, _Candidate]]:
    """Clauses an overlap rule fires on, with the most confident rule and its first match."""
    sources: dict[str, tuple[Rule, _Candidate]] = {}
    for clause in tree.clauses:
        scope = tree.scope(clause.clause_id)
        for rule in overlap_rules:
            if not rule.applies_to(scope):
                continue
            match = rule.regex.search(clause.text)
            if match is None or not _start_ok(rule, match):
                continue
            known = sources.get(clause.clause_id)
            if known is None or rule.confidence > known[0].confidence:
                locator = tree.locator(clause.clause_id)
                evidence, span = locator.evidence(clause.text, match.start(), match.end())
                candidate = _Candidate(rule.confidence, rule.id, evidence, span)
                sources[clause.clause_id] = (rule, candidate)
    return sources


# ----------------------------------------------------------------------------- siblings


def _relate_same_section(tree: _Tree, rules: RuleSet, graph: _GraphBuilder) -> None:
    """Each clause -> its next sibling under the same (non-root) parent."""
    confidence = rules.confidence(RelationType.SAME_SECTION, _DEFAULT_SAME_SECTION_CONFIDENCE)
    for group, members in tree.members.items():
        if group is None:
            continue  # top-level clauses share only the document
        for first, second in pairwise(members):
            clause = tree.by_id[second]
            end = _opening_end(clause.text)
            evidence, span = tree.locator(second).evidence(clause.text, 0, end)
            candidate = _Candidate(confidence, "same_section.consecutive", evidence, span)
            graph.add(RelationType.SAME_SECTION, first, second, candidate)


def _opening_end(text: str) -> int:
    """End of the clause's opening (first line, at most _EVIDENCE_CHARS): the sibling's label."""
    newline = text.find("\n")
    end = newline if 0 < newline < _EVIDENCE_CHARS else min(len(text), _EVIDENCE_CHARS)
    return max(end, min(len(text), 1))
