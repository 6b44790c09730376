"""Overlap rules (an exclusion and the coverage it cuts) and SameSection sibling edges."""

import math
import re
from collections import Counter
from dataclasses import replace
from itertools import pairwise

from clausegraph.models import (
    Clause,
    RelationType,
)
from clausegraph.relate.references import start_ok
from clausegraph.relate.rules import Rule, RuleSet
from clausegraph.relate.tree import ClauseTree, EdgeCandidate, GraphBuilder

_DEFAULT_SAME_SECTION_CONFIDENCE = 0.3
_EVIDENCE_CHARS = 80
_WORD = re.compile(r"[a-z][a-z-]{3,}")


# ----------------------------------------------------------------------------- overlaps


def relate_overlaps(tree: ClauseTree, rules: RuleSet, graph: GraphBuilder) -> None:
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


def _overlap_sources(tree: ClauseTree, overlap_rules: list[Rule]) -> dict[str, tuple[Rule, EdgeCandidate]]:
    """Clauses an overlap rule fires on, with the most confident rule and its first match."""
    sources: dict[str, tuple[Rule, EdgeCandidate]] = {}
    for clause in tree.clauses:
        scope = tree.scope(clause.clause_id)
        for rule in overlap_rules:
            if not rule.applies_to(scope):
                continue
            match = rule.regex.search(clause.text)
            if match is None or not start_ok(rule, match):
                continue
            known = sources.get(clause.clause_id)
            if known is None or rule.confidence > known[0].confidence:
                locator = tree.locator(clause.clause_id)
                evidence, span = locator.evidence(clause.text, match.start(), match.end())
                candidate = EdgeCandidate(rule.confidence, rule.id, evidence, span)
                sources[clause.clause_id] = (rule, candidate)
    return sources


# ----------------------------------------------------------------------------- siblings


def relate_same_section(tree: ClauseTree, rules: RuleSet, graph: GraphBuilder) -> None:
    """Each clause -> its next sibling under the same (non-root) parent."""
    confidence = rules.confidence(RelationType.SAME_SECTION, _DEFAULT_SAME_SECTION_CONFIDENCE)
    for group, members in tree.members.items():
        if group is None:
            continue  # top-level clauses share only the document
        for first, second in pairwise(members):
            clause = tree.by_id[second]
            end = _opening_end(clause.text)
            evidence, span = tree.locator(second).evidence(clause.text, 0, end)
            candidate = EdgeCandidate(confidence, "same_section.consecutive", evidence, span)
            graph.add(RelationType.SAME_SECTION, first, second, candidate)


def _opening_end(text: str) -> int:
    """End of the clause's opening (first line, at most _EVIDENCE_CHARS): the sibling's label."""
    newline = text.find("\n")
    end = newline if 0 < newline < _EVIDENCE_CHARS else min(len(text), _EVIDENCE_CHARS)
    return max(end, min(len(text), 1))
