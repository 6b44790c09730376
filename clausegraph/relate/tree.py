"""The clauses of one document as a tree: labels, scopes and lookup of references, and the
builder that keeps one edge per (type, source, target)."""

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from clausegraph.models import (
    Clause,
    Document,
    DocumentGraph,
    Edge,
    RelationType,
    Span,
    UnresolvedReference,
)

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
    r"|exhibits?|annex(?:ures?|es)?|appendix|attachments?|parts?)|§+)\s*)?(?P<ident>\S[^\s:–—]*)"
)
_ROMAN = re.compile(r"(?i)^[ivxlc]{1,7}$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_PAREN_TAIL = re.compile(r"\(([a-z0-9]{1,5})\)$")


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


GroupKey = str | tuple[str, ...] | None  # a parent clause id, ("path", *section_path), or root


@dataclass(frozen=True)
class RefKey:
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


def make_key(kind: str | None, ident: str) -> RefKey:
    """The look-up key of a reference or label: kind word and identifier, normalised."""
    group = _KIND_GROUPS.get(_normalise_kind(kind), "sec")
    return RefKey(group, _normalise_ident(ident, group))


def _label_keys(label: str | None) -> list[RefKey]:
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


def _heading_keys(heading: str | None) -> list[RefKey]:
    """Headings like 'ARTICLE IV' or 'Schedule B - Pricing' name the clause too."""
    if not heading:
        return []
    match = _LABEL.match(heading)
    if not match or not match.group("kind"):
        return []
    return [make_key(match.group("kind"), match.group("ident"))]


def _path_keys(entry: str) -> list[RefKey]:
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


# how many words a section path entry has for it to be looked for in a clause's text: a
# lead-in or a title ("Permanent Exclusions"), not a label with a word ("Clause 4")
_NAMING_WORDS = 3


class ClauseTree:
    """Parents, siblings, labels and section headings of the clauses of one document."""

    def __init__(self, document: Document | None, clauses: list[Clause]) -> None:
        self.document = document
        self.clauses = sorted(clauses, key=lambda c: c.order)
        self.by_id = {c.clause_id: c for c in self.clauses}
        self.rank = {c.clause_id: i for i, c in enumerate(self.clauses)}
        self.keys = {c.clause_id: self._own_keys(c) for c in self.clauses}
        self._by_section: dict[tuple[str, ...], list[Clause]] | None = None
        self._flat: dict[str, str] = {}
        self.parent = self._parents()
        # Siblings share a parent clause, or, when the segmenter folded the parent's heading
        # into its first child ("ARTICLE 2. PURCHASE ORDERS 2.1 ..."), the same section path.
        self.group: dict[str, GroupKey] = {c.clause_id: self._group_of(c) for c in self.clauses}
        self.members: dict[GroupKey, list[str]] = defaultdict(list)
        self.children: dict[str, list[str]] = defaultdict(list)
        for clause in self.clauses:
            self.members[self.group[clause.clause_id]].append(clause.clause_id)
            parent = self.parent[clause.clause_id]
            if parent is not None:
                self.children[parent].append(clause.clause_id)
        self.index: dict[RefKey, list[str]] = defaultdict(list)
        for clause in self.clauses:
            for key in self._index_keys(clause):
                if clause.clause_id not in self.index[key]:
                    self.index[key].append(clause.clause_id)
        # Sections that exist only as a section-path entry ("ARTICLE 6 LIMITED WARRANTIES")
        # answer with the first clause inside them.
        self.sections: dict[RefKey, str] = {}
        for clause in self.clauses:
            for entry in clause.section_path:
                for key in _path_keys(entry):
                    self.sections.setdefault(key, clause.clause_id)
        self._ancestors: dict[str, list[str]] = {}
        self._scopes: dict[str, str] = {}
        self._locators: dict[str, ClauseLocator] = {}

    # -- construction

    @staticmethod
    def _own_keys(clause: Clause) -> list[RefKey]:
        keys = _label_keys(clause.number) + _heading_keys(clause.heading)
        path = clause.clause_id.split(":", 1)[-1]
        keys += _label_keys(path.rsplit("/", 1)[-1])
        return list(dict.fromkeys(keys))

    def _group_of(self, clause: Clause) -> GroupKey:
        parent = self.parent[clause.clause_id]
        if parent is not None:
            return parent
        return ("path", *clause.section_path) if clause.section_path else None

    def _parents(self) -> dict[str, str | None]:
        by_path: dict[tuple[str, ...], str] = {}
        for clause in self.clauses:
            both = f"{clause.number} {clause.heading}" if clause.number and clause.heading else None
            path = clause.clause_id.split(":", 1)[-1]  # the id's path, as section paths spell it
            for label in (clause.number, clause.heading, path, both):
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
            return self._lead_in_parent(clause)
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

    def _lead_in_parent(self, clause: Clause) -> str | None:
        """The clause a section path entry names by its lead-in (``segment.lead_in_paths``:
        "Among other things, the insurance does not cover:" over its bullets, "Def.7
        Critical Illness means the following illnesses:" over its numbered items) or its
        title line (``segment.title_paths``), when its label did not find it: the
        nearest clause before, under the rest of the path, whose text holds that sentence
        (cut to its end after "... " when long; with or without the label before it). Its
        first item may have been joined to it, so the sentence need not end the clause."""
        entry = " ".join(clause.section_path[-1].split()).removeprefix("... ")
        unlabelled = entry.split(" ", 1)[-1]
        # a sentence or a title, not a bare label ("4", "(ii)"), which many clauses hold
        leads = {lead for lead in (entry, unlabelled, unlabelled.removeprefix("... "))
                 if len(lead.split()) >= _NAMING_WORDS}
        if not leads:
            return None
        place = self.rank[clause.clause_id]
        for other in reversed(self._under_path(tuple(clause.section_path[:-1]))):
            if self.rank[other.clause_id] < place and \
                    any(lead in self._flat_text(other) for lead in leads):
                return other.clause_id
        return None

    def _flat_text(self, clause: Clause) -> str:
        """``clause``'s text with its whitespace runs as single spaces, as paths write it."""
        flat = self._flat.get(clause.clause_id)
        if flat is None:
            flat = self._flat[clause.clause_id] = " ".join(clause.text.split())
        return flat

    def _under_path(self, path: tuple[str, ...]) -> list[Clause]:
        """The clauses whose section path is ``path``, in reading order."""
        if self._by_section is None:
            self._by_section = defaultdict(list)
            for clause in self.clauses:
                self._by_section[tuple(clause.section_path)].append(clause)
        return self._by_section.get(path, [])

    def _index_keys(self, clause: Clause) -> list[RefKey]:
        keys = list(self.keys[clause.clause_id])
        parent = self.parent[clause.clause_id]
        # "(b)" under "4.2" also answers to "4.2(b)".
        if parent is not None:
            for key in keys[:1]:
                if key.ident.startswith("("):
                    for parent_key in self.keys[parent][:1]:
                        keys.append(RefKey(parent_key.group, parent_key.ident + key.ident))
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

    def resolve(self, key: RefKey, source: str, within: str | None = None) -> str | None:
        """The clause a numbered reference names, trying the nearest existing ancestor label
        ('5.2(a)' -> '5.2'); None when nothing matches."""
        groups = [key.group] + (["sec"] if key.group == "article" else [])
        for group in groups:
            idents = _fallbacks(key.ident) if group in ("sec", "article", "part") else [key.ident]
            for ident in idents:
                candidates = list(self.index.get(RefKey(group, ident), []))
                section = self.sections.get(RefKey(group, ident))
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
class EdgeCandidate:
    confidence: float
    rule_id: str
    evidence: str
    span: Span
    term: str | None = None


@dataclass
class GraphBuilder:
    """Collects edges, keeping the most confident per (type, source, target)."""

    edges: dict[tuple[RelationType, str, str], EdgeCandidate] = field(default_factory=dict)
    unresolved: dict[tuple[str, Span], UnresolvedReference] = field(default_factory=dict)

    def add(
        self, relation: RelationType, source: str, target: str, candidate: EdgeCandidate
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


