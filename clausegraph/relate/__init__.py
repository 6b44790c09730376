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

Modules: ``tree`` (clause tree, reference keys, edge builder), ``references`` (pattern
rules), ``definitions`` (Defines), ``overlaps`` (exclusions over coverage, SameSection).

A rule's ``direction`` says whether the matched clause is the source (out) or the target (in).
Cues with no target ("unless", "because", "shall be deemed") never become edges. There are no self-loops and at most one edge per (type, source, target):
the most confident one, with its evidence. Cross-references that cannot be mapped to a clause,
and references into other instruments ("Section 409A of the Code", rule refers_to.external),
are kept in ``DocumentGraph.unresolved``.

Cost is linear in the text: each rule is at most one regex scan per clause (skipped outright
when the clause lacks the words the rule ``requires``), all defined terms are found with one
trie-shaped regex per clause (see ``TermFinder``), and references resolve by dictionary look-ups.
Entity mentions are a separate step (``clausegraph.entities``).
"""

from __future__ import annotations

from functools import lru_cache

from clausegraph.models import Clause, Document, DocumentGraph
from clausegraph.relate.definitions import TermFinder, relate_definitions, term_forms
from clausegraph.relate.overlaps import relate_overlaps, relate_same_section
from clausegraph.relate.references import relate_patterns
from clausegraph.relate.rules import RuleSet
from clausegraph.relate.tree import ClauseLocator, ClauseTree, GraphBuilder

__all__ = ["ClauseLocator", "TermFinder", "relate", "term_forms"]


def relate(
    document: Document, clauses: list[Clause], rules: RuleSet | None = None
) -> DocumentGraph:
    """All typed edges among ``clauses`` of ``document``; fills ``Clause.defined_terms``."""
    rules = rules or _default_rules()
    tree = ClauseTree(document, clauses)
    graph = GraphBuilder()
    relate_patterns(tree, rules, graph)
    relate_definitions(tree, rules, graph)
    relate_overlaps(tree, rules, graph)
    relate_same_section(tree, rules, graph)
    return graph.build()


@lru_cache(maxsize=1)
def _default_rules() -> RuleSet:
    return RuleSet.load()


