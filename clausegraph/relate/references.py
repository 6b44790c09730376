"""Pattern rules: cross-references ("Section 5.2", "Sections 3.1 through 3.8") and cue
phrases ("notwithstanding", "subject to") resolved to the clauses they name."""

import re
from dataclasses import dataclass

from clausegraph.models import (
    Clause,
    RelationType,
    Span,
)
from clausegraph.relate.rules import Rule, RuleSet
from clausegraph.relate.tree import ClauseTree, EdgeCandidate, GraphBuilder, RefKey, make_key

# Relation types whose rules are matched clause by clause; Defines and SameSection have passes
# of their own. RefersTo comes first so an unresolved reference is filed under its rule.
_PATTERN_TYPES = (
    RelationType.REFERS_TO,
    RelationType.OVERRIDES,
    RelationType.ENTAILS,
    RelationType.CAUSES,
)
_MAX_RANGE = 50  # "Sections 3.1 through 3.8" expands to at most this many siblings
# Reference grammar used when rules/macros.yaml lacks REF_KIND / REF_ID.
_FALLBACK_KIND = r"\b(?i:sections?|articles?|clauses?|paragraphs?|schedules?|exhibits?)|§§?"
_FALLBACK_ID = r"\d{1,3}(?:\.\d{1,3})*[A-Za-z]?(?:[ ]?\([a-zA-Z0-9]{1,5}\))*|[IVXLC]{1,7}\b|[A-Z]\b"
_PAREN_ITEM = re.compile(r"\(([A-Za-z0-9]{1,5})\)")
_RANGE_SEP = re.compile(r"through|\bto\b|[-–]")


def count_matches(rule: Rule, text: str) -> int:
    return sum(1 for match in rule.regex.finditer(text) if start_ok(rule, match))


def start_ok(rule: Rule, match: re.Match[str]) -> bool:
    return rule.max_start is None or match.start() <= rule.max_start



# ----------------------------------------------------------------------------- pattern rules


@dataclass(frozen=True)
class _RefItem:
    """One label inside a reference: 'Sections 5.2 and 5.3' has two."""

    key: RefKey
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

    def skips(self, tree: ClauseTree, clause: Clause, lower: str) -> bool:
        """Whether the rule cannot match this clause: out of its section, or none of the
        strings every match contains is in the (lower-cased) text."""
        if self.requires and not any(item in lower for item in self.requires):
            return True
        return self.where is not None and not self.where.search(tree.scope(clause.clause_id))


def prepare_rule(relation: RelationType, rule: Rule) -> _Prepared:
    return _Prepared(
        relation, rule, rule.regex, rule.where_regex, rule.max_start, rule.target,
        rule.direction, (rule.confidence, rule.id), tuple(rule.requires),
    )


def relate_patterns(tree: ClauseTree, rules: RuleSet, graph: GraphBuilder) -> None:
    """Run every clause-level rule (targets ref, previous, enclosing, sibling, external)."""
    parser = _RefParser(rules)
    prepared = [
        prepare_rule(relation, rule)
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
    tree: ClauseTree,
    graph: GraphBuilder,
    parser: _RefParser,
    rule: _Prepared,
    clause: Clause,
    match: re.Match[str],
    external: list[Span],
) -> None:
    source = clause.clause_id
    locator = tree.locator(source)
    evidence, span = locator.evidence(clause.text, match.start(), match.end())
    candidate = EdgeCandidate(*rule.candidate_base, evidence, span)
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
    tree: ClauseTree,
    graph: GraphBuilder,
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


def _within(tree: ClauseTree, match: re.Match[str], source: str) -> str | None:
    """The attachment a reference is scoped to ('... in Annex I'), when the rule captures it."""
    if "within" not in match.re.groupindex or not match.group("within"):
        return None
    kind, _, ident = match.group("within").partition(" ")
    return tree.resolve(make_key(kind, ident.strip()), source)


def _range_between(tree: ClauseTree, first: str, last: str) -> list[str]:
    """Siblings strictly between two resolved range ends ('Sections 3.1 through 3.8')."""
    if tree.group[first] != tree.group[last]:
        return []
    siblings = tree.siblings(first)
    start, end = siblings.index(first), siblings.index(last)
    return siblings[start + 1 : end][:_MAX_RANGE] if start < end else []


def _relative_targets(
    tree: ClauseTree, graph: GraphBuilder, rule_id: str, clause: Clause, match: re.Match[str]
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


