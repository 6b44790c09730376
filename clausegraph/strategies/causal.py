"""CausalRAG (seed 000) over the clause graph: dense seeds, graph expansion, causal paths first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from clausegraph.config import RetrievalConfig
from clausegraph.llm.base import LLMError, read_json_reply
from clausegraph.models import Edge, RelationType
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.strategies.base import StrategyConfig, StrategyResult, stage_notes
from clausegraph.strategies.common import (
    CAUSAL_EDGE_WEIGHT,
    ScoredQuery,
    ScoredStrategy,
    SeedResult,
    causal_cues,
    edge_text,
    incident,
    local_id,
    make_result,
    top_rows,
)
from clausegraph.text.templates import render

_NO_SAME_SECTION = frozenset({RelationType.SAME_SECTION})
# A non-causal edge (RefersTo, Defines) counts as a causal link only into a clause whose
# text carries a causal cue from rules/causes.yaml, at this weight.
_CUE_LINK_WEIGHT = 0.5
_MAX_COLLECTED = 400
# The LLM reads at most this many collected clauses (the most similar), 600 chars each.
_LLM_MAX_CLAUSES = 40
_CAUSAL_PATHS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "paths": {"type": "array", "items": {"type": "object", "properties": {
            "clauses": {"type": "array", "items": {"type": "string"}},
            "why": {"type": "string"}}, "required": ["clauses"]}},
        "summary": {"type": "string"},
    },
    "required": ["paths", "summary"],
}

Path_ = tuple[Edge, ...]


class CausalConfig(StrategyConfig):
    """CausalRAG's two parameters (its paper studies k, s in 1..5)."""

    k: int = Field(3, ge=1, description="dense seed clauses")
    s: int = Field(3, ge=0, description="expansion steps along graph edges")


@dataclass
class _Expansion:
    """The clauses collected from the seeds: hop count and (seed row, edge path) by row."""

    seeds: list[int]
    hops: dict[int, int] = field(default_factory=dict)
    paths: dict[int, tuple[int, Path_]] = field(default_factory=dict)


@dataclass
class _CausalPaths:
    """Rows on causal paths: strength, (seed row, edge path), the LLM's reason, the summary."""

    strength: dict[int, float]
    via: dict[int, tuple[int, Path_]]
    why: dict[int, str] = field(default_factory=dict)
    summary: str = ""


class CausalStrategy(ScoredStrategy):
    """CausalRAG (seed 000) over the clause graph.

    1. ``k`` seed clauses by embedding distance only (cosine with the query).
    2. Expansion ``s`` steps along graph edges of every type except SameSection, both
       directions (capped at 400 collected clauses).
    3. Causal path identification. The paper asks an LLM to find the causal paths in the
       expanded subgraph and summarise them. With a model configured (``llm``) that is what
       happens: it reads the 40 most similar collected clauses and their typed links
       (``prompts/causal_paths.md.j2``), its paths rank first in its order, and its summary
       is the "causal summary" note; ids it invents are dropped, and on a failure (noted)
       the offline stand-in runs. The offline stand-in uses typed Causes /
       Entails / Overrides edges (weights 1.0 / 0.8 / 0.7 times edge confidence) and the
       causal cue patterns of ``rules/causes.yaml``: any other edge counts as a causal link
       (weight 0.5 x confidence) when the clause it leads into matches a cue. A path's
       strength is the seed's cosine times the product of its link weights.
    4. Rank: clauses on causal paths from the seeds first (seeds that start or carry a
       causal path, and the clauses those paths reach, by path strength), then every other
       collected clause by similarity, then further dense hits to fill ``top_k``.

    The result's trace holds ``seeds`` (clause ids), ``reached`` (clause id -> hops from
    the nearest seed), ``summary`` and ``llm_error``.
    """

    uses_llm = True

    def __init__(self, config: CausalConfig | None = None, **params: Any) -> None:
        self.config = config or CausalConfig(**params)
        k, s = self.config.k, self.config.s
        self.name = "causal" if (k, s) == (3, 3) else f"causal-k{k}-s{s}"

    def rank(self, retriever: Retriever, q: ScoredQuery, config: RetrievalConfig) -> StrategyResult:
        cosine = q.dense
        expansion = self._expand(q, top_rows(cosine, self.config.k))
        collected = set(expansion.hops)
        cue_cache: dict[int, list[str]] = {}

        def cues(row: int) -> list[str]:
            if row not in cue_cache:
                cue_cache[row] = causal_cues(q.clause(row).text)
            return cue_cache[row]

        error = None
        found = None
        if self.llm is not None:
            found, error = self._llm_paths(q, collected)
        if found is None:  # offline, or the model failed: the typed edges and cue patterns decide
            found = self._offline_paths(q, expansion.seeds, collected, cues)
        ordered = self._order(q, found, collected, config.top_k)
        hits = [self._result(q, row, expansion, found, cues(row), config)
                for row in ordered[: config.top_k]]
        trace = {
            "seeds": [q.ids[r] for r in expansion.seeds],
            "reached": {q.ids[r]: h for r, h in expansion.hops.items()},
            "summary": found.summary,
            "llm_error": error,
        }
        notes = stage_notes("causal summary", found.summary,
                            "LLM stage failed, offline paths used", error)
        return StrategyResult(hits, notes, trace)

    def _expand(self, q: ScoredQuery, seeds: list[int]) -> _Expansion:
        """Breadth-first ``s`` steps from the seeds; remember hop counts and edge paths."""
        expansion = _Expansion(seeds, {r: 0 for r in seeds}, {r: (r, ()) for r in seeds})
        hops, paths = expansion.hops, expansion.paths
        frontier = list(seeds)
        for step in range(1, self.config.s + 1):
            nxt: list[int] = []
            for row in frontier:
                for neighbour, edge in incident(q.index.graph, q.ids[row], _NO_SAME_SECTION):
                    nrow = q.row.get(neighbour)
                    if nrow is None or nrow in hops or len(hops) >= _MAX_COLLECTED:
                        continue
                    hops[nrow] = step
                    paths[nrow] = (paths[row][0], (*paths[row][1], edge))
                    nxt.append(nrow)
            frontier = nxt
        return expansion

    @staticmethod
    def _order(q: ScoredQuery, found: _CausalPaths, collected: set[int], top_k: int) -> list[int]:
        strength, cosine = found.strength, q.dense
        causal_order = sorted(strength, key=lambda r: (-strength[r], r))
        rest = sorted((r for r in collected if r not in strength),
                      key=lambda r: (-float(cosine[r]), r))
        ordered = causal_order + rest
        if len(ordered) < top_k:
            have = set(ordered)
            ordered += [r for r in top_rows(cosine, top_k + len(have)) if r not in have]
        return ordered

    def _result(
        self, q: ScoredQuery, row: int, expansion: _Expansion, found: _CausalPaths,
        cue_ids: list[str], config: RetrievalConfig,
    ) -> SeedResult:
        seed_rank = {r: i + 1 for i, r in enumerate(expansion.seeds)}
        cosine, strength = q.dense, found.strength
        cue_note = f"; causal cues: {', '.join(cue_ids)}" if cue_ids else ""
        if row in found.why:
            seed = found.via[row][0]
            origin = "seed" if row in seed_rank else "expanded"
            explanation = found.why[row]
            score = 1.0 + strength[row]
            via, via_seed = (), q.ids[seed]
        elif row in strength:
            seed, path = found.via[row]
            origin = "seed" if row in seed_rank else "expanded"
            steps = ", ".join(edge_text(e) for e in path)
            where = f"from seed {local_id(q.ids[seed])} via {steps}" if path \
                else f"seed #{seed_rank.get(row)} starting a causal path"
            explanation = f"on a causal path {where} (strength {strength[row]:.2f}{cue_note})"
            score = 1.0 + strength[row]
            via, via_seed = path, q.ids[seed]
        else:
            seed, path = expansion.paths.get(row, (row, ()))
            origin = "seed" if row in seed_rank else ("expanded" if path else "hit")
            if row in seed_rank:
                explanation = f"dense seed #{seed_rank[row]} (cosine {cosine[row]:.2f}{cue_note})"
            elif path:
                explanation = (
                    f"reached in {expansion.hops.get(row)} step(s) from {local_id(q.ids[seed])} "
                    "via " + ", ".join(edge_text(e) for e in path)
                    + f", no causal link (cosine {cosine[row]:.2f})"
                )
            else:
                explanation = f"dense hit outside the expansion (cosine {cosine[row]:.2f})"
            score = float(cosine[row])
            via, via_seed = path, q.ids[seed] if path else None
        return make_result(
            q, row, score=score, origin=origin, strategy=self.name, explanation=explanation,
            seed_rank=seed_rank.get(row), via=via, via_seed=via_seed,
            path_support=strength.get(row, 0.0), bm25_weight=config.bm25_weight,
        )

    def _offline_paths(
        self, q: ScoredQuery, seeds: list[int], collected: set[int],
        cues: Callable[[int], list[str]],
    ) -> _CausalPaths:
        """Causal paths from typed Causes/Entails/Overrides edges and causal cue patterns."""
        strength: dict[int, float] = {}
        causal_via: dict[int, tuple[int, Path_]] = {}
        for seed in seeds:
            base = max(float(q.dense[seed]), 0.0)
            seen: dict[int, tuple[float, Path_]] = {seed: (base, ())}
            best: list[tuple[int, float, Path_]] = [(seed, base, ())]
            for _ in range(self.config.s):
                nxt_best = []
                for row, value, path in best:
                    for neighbour, edge in incident(q.index.graph, q.ids[row], _NO_SAME_SECTION):
                        nrow = q.row.get(neighbour)
                        if nrow is None or nrow not in collected:
                            continue
                        weight = CAUSAL_EDGE_WEIGHT.get(edge.type, 0.0) * edge.confidence
                        if weight == 0.0 and cues(nrow):
                            weight = _CUE_LINK_WEIGHT * edge.confidence
                        value2 = value * weight
                        if weight <= 0.0 or value2 <= seen.get(nrow, (0.0, ()))[0]:
                            continue
                        seen[nrow] = (value2, (*path, edge))
                        nxt_best.append((nrow, value2, (*path, edge)))
                best = nxt_best
            if (len(seen) > 1 or cues(seed)) and base >= strength.get(seed, 0.0):
                strength[seed] = base
                causal_via[seed] = (seed, ())
            for row, (value, path) in seen.items():
                if row in seeds:
                    continue
                if value > strength.get(row, 0.0):
                    strength[row] = value
                    causal_via[row] = (seed, path)
        found = _CausalPaths(strength, causal_via)
        found.summary = _causal_summary(q, found)
        return found

    def _llm_paths(self, q: ScoredQuery, collected: set[int]) -> tuple[_CausalPaths | None, str | None]:
        """The LLM's causal paths among the collected clauses, or (None, why) when it fails
        or names no collected clause (the offline paths are used then)."""
        shown = sorted(collected, key=lambda r: (-float(q.dense[r]), r))[:_LLM_MAX_CLAUSES]
        by_local = {local_id(q.ids[r]): r for r in shown}
        shown_set = set(shown)
        links = []
        for row in shown:
            for neighbour, edge in incident(q.index.graph, q.ids[row]):
                if edge.source == q.ids[row] and q.row.get(neighbour) in shown_set:
                    links.append(edge_text(edge))
        prompt = render(
            "causal_paths.md.j2", query=q.text, max_paths=5, links=sorted(set(links)),
            clauses=[{"id": local, "text": " ".join(q.clause(r).text.split())[:600]}
                     for local, r in by_local.items()],
        )
        try:
            reply = self.llm.generate("You find cause-and-effect chains in contracts.", prompt,
                                      schema=_CAUSAL_PATHS_SCHEMA)
            data = read_json_reply(reply.text)
        except (LLMError, ValueError) as exc:
            return None, str(exc)
        found = _CausalPaths({}, {})
        order = 0
        for path in data.get("paths", []) if isinstance(data, dict) else []:
            rows = [by_local[c] for c in path.get("clauses", []) if c in by_local]
            if not rows:
                continue
            chain = " -> ".join(local_id(q.ids[r]) for r in rows)
            for row in rows:
                if row not in found.strength:
                    found.strength[row] = 1.0 - 0.001 * order  # the model's order, paths first
                    found.via[row] = (rows[0], ())
                    found.why[row] = (f"on the LLM's causal path {chain}: "
                                      f"{path.get('why', '')}").rstrip(": ")
                    order += 1
        if not found.strength:
            return None, "the model named no collected clause"
        found.summary = str(data.get("summary", "")) if isinstance(data, dict) else ""
        return found, None


def _causal_summary(q: ScoredQuery, found: _CausalPaths, limit: int = 5) -> str:
    """The offline causal summary: the strongest paths, each as its chain of typed edges."""
    lines = []
    for row in sorted(found.strength, key=lambda r: (-found.strength[r], r)):
        seed, path = found.via[row]
        if not path:
            continue
        chain = "; ".join(edge_text(edge) for edge in path)
        lines.append(f"- {local_id(q.ids[row])} is reached from seed "
                     f"{local_id(q.ids[seed])} by {chain} "
                     f"(strength {found.strength[row]:.2f})")
        if len(lines) == limit:
            break
    return "\n".join(lines) if lines else "No causal path links the collected clauses."
