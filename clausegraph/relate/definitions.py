"""Defines edges: defined terms found once, their uses found with one trie regex per clause."""

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from clausegraph.models import (
    RelationType,
    Span,
)
from clausegraph.relate.references import prepare_rule
from clausegraph.relate.rules import Rule, RuleSet
from clausegraph.relate.tree import ClauseTree, EdgeCandidate, GraphBuilder

_HEAD = re.compile(r"\w+")
_TERM_SPLIT = re.compile(r"\s+/\s+|\s*/\s*(?=[A-Z])|\s+or\s+")


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


def collect_definitions(tree: ClauseTree, rules: RuleSet) -> list[_Definition]:
    """Every (term, defining clause, rule); also fills Clause.defined_terms."""
    max_words = int(rules.setting(RelationType.DEFINES, "max_term_words", 8))
    prepared = [prepare_rule(RelationType.DEFINES, r) for r in rules.for_type(RelationType.DEFINES)]
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


def relate_definitions(tree: ClauseTree, rules: RuleSet, graph: GraphBuilder) -> None:
    """Defines edges: definer -> each other clause using the term."""
    definers = _definers(collect_definitions(tree, rules))
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
            candidate = EdgeCandidate(
                definition.rule.confidence, definition.rule.id, evidence, span, term
            )
            graph.add(RelationType.DEFINES, definition.clause_id, target, candidate)


def _nearest_definer(tree: ClauseTree, definitions: list[_Definition], user: str) -> _Definition:
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


def _term_uses(tree: ClauseTree, finder: TermFinder) -> dict[str, dict[str, Span]]:
    """term -> {clause id: first use (clause-text span)}."""
    uses: dict[str, dict[str, Span]] = defaultdict(dict)
    for clause in tree.clauses:
        for term, start, end in finder.find(clause.text):
            uses[term].setdefault(clause.clause_id, (start, end))
    return uses


