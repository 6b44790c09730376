"""GraphRAG causal search (seed 002): token-budgeted network data, a five-section causal
report (stage 1) and an answer (stage 2), saved next to the run."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import Field

from clausegraph.config import RetrievalConfig
from clausegraph.models import Edge, RelationType
from clausegraph.retrieve.hybrid import Retriever
from clausegraph.strategies.base import StrategyConfig, StrategyResult
from clausegraph.strategies.common import (
    CAUSAL_EDGE_WEIGHT,
    ScoredQuery,
    ScoredStrategy,
    incident,
    local_id,
    make_result,
    top_rows,
)
from clausegraph.text.templates import render

DEFAULT_CAUSAL_DIR = ".clausegraph-causal"
CAUSAL_DIR_ENV = "CLAUSEGRAPH_CAUSAL_DIR"  # fallback when neither config nor settings name one
_SECTION_SHARES = {"entities": 0.4, "relationships": 0.4, "text_units": 0.2}
_ENTITY_LABELS = frozenset(
    {"ORG", "PERSON", "MONEY", "DATE", "GPE", "LAW", "PERCENT", "NORP", "PRODUCT", "TIME"}
)
_REPORT_SECTIONS = (
    "Introduction",
    "Key Entities and Their Roles",
    "Major Causal Pathways",
    "Confidence and Evidence Strength",
    "Implications and Recommendations",
)
NetworkData = dict[str, list[dict[str, Any]]]


class CausalSearchConfig(StrategyConfig):
    """GraphRAG causal search's parameters."""

    k: int | None = Field(None, ge=1, description="nodes asked for (default: top_k)")
    s: int = Field(3, ge=0, description="extra nodes beyond k")
    oversample: int = Field(2, ge=1, description="GraphRAG's oversample scaler")
    max_tokens: int = Field(8000, ge=1, description="token budget of the network data")
    output_dir: Path | None = Field(
        None, description=f"where the files go (default: env {CAUSAL_DIR_ENV}, else "
        f"{DEFAULT_CAUSAL_DIR}/)")
    save: bool = Field(True, description="write the three files of each query")


def token_counter(retriever: Retriever | None) -> tuple[Callable[[str], int], str]:
    """Count tokens with the embedder's MiniLM word-piece tokenizer when there is one
    (:meth:`Embedder.count_tokens`); otherwise fall back to whitespace words."""
    embedder = getattr(retriever, "embedder", None)
    if embedder is not None and embedder.count_tokens("") is not None:
        return embedder.count_tokens, "minilm-wordpiece"
    return (lambda text: len(text.split())), "whitespace"


class CausalSearchStrategy(ScoredStrategy):
    """GraphRAG causal search (seed 002) on the clause graph.

    - Nodes: ``(k + s) * 2`` clauses (oversample scaler 2) by fused BM25 + dense similarity;
      ``k`` defaults to ``config.top_k``, ``s`` to 3.
    - Network data under an 8,000-token budget split 40% entities / 40% relationships / 20%
      text units. Entities are the named entities (spaCy ORG, PERSON, MONEY, DATE, ...) and
      defined terms of the node clauses, fields id/entity/description/rank/type, sorted by
      rank (number of node clauses mentioning them, then similarity); relationships are the
      graph edges touching the nodes, fields id/source/target/description/weight/rank, sorted
      by weight (confidence x causal type weight); text units are the clauses, fields
      id/text/n_tokens, shortest first, text cut at 1,000 characters with "...". Records are
      added in order while the section's token count (real counts of each JSON record, see
      :func:`token_counter`) stays within its share; the first record that would exceed it
      is dropped and the section stops ("reverting to the previous context state").
    - Stage 1, the five-section causal report, and stage 2, the answer: with ``llm`` (an
      :class:`~clausegraph.llm.base.LLMProvider`) the prompts ``causal_discovery.md.j2`` and
      ``causal_summary.md.j2`` are sent; offline (default) both are rendered
      deterministically from the network data (pathways = relationships in weight order,
      confidence = edge confidences and rule ids, answer = the report's pathways and the
      best text units quoted).
    - Saves ``{query_id}_network_data.json``, ``{query_id}_causal_report.md`` and
      ``{query_id}_response.md`` in ``output_dir`` (config, else env
      ``CLAUSEGRAPH_CAUSAL_DIR``, else ``.clausegraph-causal/``); query_id is
      ``{sha256(query)[:8]}_{unix time}``.
    - Result: the text units that made it into the context, in context order, then (to fill
      ``top_k``) the remaining nodes by similarity. The trace's ``run`` holds the query id,
      nodes, network data, tokens used, report, answer and saved files.
    """

    name = "causal-search"
    uses_llm = True

    def __init__(self, config: CausalSearchConfig | None = None, *, llm: Any = None,
                 **params: Any) -> None:
        self.config = config or CausalSearchConfig(**params)
        self.output_dir = Path(self.config.output_dir or os.environ.get(CAUSAL_DIR_ENV)
                               or DEFAULT_CAUSAL_DIR)
        self.llm = llm

    # network data -----------------------------------------------------------------------

    def network_data(
        self, retriever: Retriever, q: ScoredQuery, nodes: list[int], bm25_weight: float = 0.5
    ) -> tuple[NetworkData, dict[str, int], str]:
        """The truncated network data, the tokens each section used, the tokenizer name."""
        count, tokenizer_name = token_counter(retriever)
        sections = (
            ("entities", _entities(q, nodes, bm25_weight)),
            ("relationships", _relationships(q, nodes)),
            ("text_units", _text_units(q, nodes, count)),
        )
        data: NetworkData = {}
        used: dict[str, int] = {}
        for section, records in sections:  # progressive truncation by real token counts
            limit = int(self.config.max_tokens * _SECTION_SHARES[section])
            kept, total = [], 0
            for record in records:
                cost = count(json.dumps(record, ensure_ascii=False))
                if total + cost > limit:
                    break  # reached the token limit: revert to the previous state
                kept.append(record)
                total += cost
            data[section], used[section] = kept, total
        return data, used, tokenizer_name

    # stage 1 and 2 ----------------------------------------------------------------------

    def causal_report(self, query: str, data: NetworkData) -> str:
        """Stage 1: the five-section causal report (LLM when configured, else offline)."""
        graph_data = json.dumps(data, ensure_ascii=False, indent=1)
        if self.llm is not None:
            prompt = render("causal_discovery.md.j2", graph_data=graph_data, query=query)
            return self.llm.generate("You are a careful legal causal analyst.", prompt).text
        return render_offline_report(query, data)

    def causal_answer(self, query: str, report: str, data: NetworkData) -> str:
        """Stage 2: the answer from the report (LLM when configured, else offline)."""
        if self.llm is not None:
            prompt = render("causal_summary.md.j2", causal_summary=report, query=query,
                            response_type="Multiple Paragraphs")
            return self.llm.generate("You answer questions about contracts.", prompt).text
        lines = ["# Answer", "", f"Question: {query}", ""]
        units = data.get("text_units", [])
        if not units:
            lines.append("The retrieved context holds no clause text within the token budget.")
        for unit in units[:3]:
            lines.append(f"- {local_id(unit['id'])}: " + " ".join(unit["text"].split())[:300])
        pathways = _section(report, "Major Causal Pathways")
        if pathways:
            lines += ["", "Causal pathways considered:", pathways]
        return "\n".join(lines) + "\n"

    def rank(self, retriever: Retriever, q: ScoredQuery, config: RetrievalConfig) -> StrategyResult:
        k = self.config.k if self.config.k is not None else config.top_k
        n_nodes = (k + self.config.s) * self.config.oversample
        sims = q.sims(config.bm25_weight)
        nodes = top_rows(sims, n_nodes)
        data, used, tokenizer_name = self.network_data(retriever, q, nodes, config.bm25_weight)
        report = self.causal_report(q.text, data)
        answer = self.causal_answer(q.text, report, data)
        query_id = f"{hashlib.sha256(q.original.encode('utf-8')).hexdigest()[:8]}_{int(time.time())}"
        network = {"query_id": query_id, "query": q.original, "scoped_query": q.text,
                   "nodes_requested": n_nodes, "token_budget": self.config.max_tokens,
                   "tokens_used": used, "tokenizer": tokenizer_name, **data}
        files = self._save(query_id, network, report, answer) if self.config.save else {}
        run = {"query_id": query_id, "nodes": [q.ids[r] for r in nodes], "data": data,
               "tokens_used": used, "tokenizer": tokenizer_name, "report": report,
               "answer": answer, "files": files}
        in_context = [q.row[u["id"]] for u in data["text_units"]]
        context_set = set(in_context)
        rest = [r for r in nodes if r not in context_set]
        hits = []
        for rank, row in enumerate(in_context + rest, start=1):
            inside = rank <= len(in_context)
            explanation = (
                f"text unit #{rank} of the causal-search context ({used['text_units']} of "
                f"{int(self.config.max_tokens * 0.2)} text tokens; sim {sims[row]:.2f})"
                if inside else
                f"causal-search node outside the text-unit token budget (sim {sims[row]:.2f})"
            )
            hits.append(make_result(
                q, row, score=float(sims[row]), origin="hit" if inside else "expanded",
                strategy=self.name, explanation=explanation, bm25_weight=config.bm25_weight,
            ))
            if len(hits) >= config.top_k:
                break
        notes = {f"saved {name.replace('_', ' ')}": path for name, path in files.items()}
        if answer:
            notes["causal-search answer"] = answer
        return StrategyResult(hits, notes, {"run": run})

    def _save(self, query_id: str, network: dict[str, Any], report: str,
              answer: str) -> dict[str, str]:
        self.output_dir.mkdir(parents=True, exist_ok=True)
        paths = {
            "network_data": self.output_dir / f"{query_id}_network_data.json",
            "causal_report": self.output_dir / f"{query_id}_causal_report.md",
            "response": self.output_dir / f"{query_id}_response.md",
        }
        paths["network_data"].write_text(json.dumps(network, ensure_ascii=False, indent=1),
                                         encoding="utf-8")
        paths["causal_report"].write_text(report, encoding="utf-8")
        paths["response"].write_text(answer, encoding="utf-8")
        return {name: str(path) for name, path in paths.items()}


def _entities(q: ScoredQuery, nodes: list[int], bm25_weight: float) -> list[dict[str, Any]]:
    """Named entities and defined terms of the node clauses, by rank then similarity."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for row in nodes:
        clause = q.clause(row)
        names = [(e.text.strip(), e.label) for e in clause.entities if e.label in _ENTITY_LABELS]
        names += [(t, "DEFINED_TERM") for t in clause.defined_terms]
        for name, label in names:
            if len(name) < 2:
                continue
            item = found.setdefault((name.lower(), label),
                                    {"entity": name, "type": label, "clauses": [], "sim": 0.0})
            if clause.clause_id not in item["clauses"]:
                item["clauses"].append(clause.clause_id)
                item["sim"] += q.sim(row, bm25_weight)
    entities = []
    for (_, label), item in found.items():
        clause_list = ", ".join(local_id(c) for c in item["clauses"][:5])
        entities.append({
            "entity": item["entity"], "type": label,
            "description": f"{label.lower().replace('_', ' ')} mentioned in {clause_list}",
            "rank": len(item["clauses"]), "_sim": item["sim"],
        })
    entities.sort(key=lambda e: (-e["rank"], -e["_sim"], e["entity"]))
    return [{"id": f"e{i}", **{f: e[f] for f in ("entity", "description", "rank", "type")}}
            for i, e in enumerate(entities)]


def _relationships(q: ScoredQuery, nodes: list[int]) -> list[dict[str, Any]]:
    """The edges touching the nodes, by weight (confidence x causal type weight)."""
    node_ids = {q.ids[r] for r in nodes}
    edges: dict[tuple[str, str, str], Edge] = {}
    for row in nodes:
        for _, edge in incident(q.index.graph, q.ids[row]):
            edges[(edge.type.value, edge.source, edge.target)] = edge
    degree: dict[str, int] = {}
    for edge in edges.values():
        degree[edge.source] = degree.get(edge.source, 0) + 1
        degree[edge.target] = degree.get(edge.target, 0) + 1
    relationships = []
    for edge in edges.values():
        type_weight = CAUSAL_EDGE_WEIGHT.get(
            edge.type, 0.5 if edge.type is not RelationType.SAME_SECTION else 0.2)
        inside = edge.source in node_ids and edge.target in node_ids
        relationships.append({
            "source": local_id(edge.source), "target": local_id(edge.target),
            "description": f"{edge.type.value} ({edge.rule_id}): "
            + " ".join(edge.evidence.split())[:200],
            "weight": round(edge.confidence * type_weight * (1.0 if inside else 0.8), 4),
            "rank": degree[edge.source] + degree[edge.target],
        })
    relationships.sort(key=lambda r: (-r["weight"], -r["rank"], r["source"], r["target"]))
    return [{"id": f"r{i}", **r} for i, r in enumerate(relationships)]


def _text_units(q: ScoredQuery, nodes: list[int], count: Callable[[str], int]) -> list[dict[str, Any]]:
    """The node clauses (cut at 1,000 characters), shortest first."""
    units = []
    for row in nodes:
        clause = q.clause(row)
        text = clause.text if len(clause.text) <= 1000 else clause.text[:1000] + "..."
        units.append({"id": clause.clause_id, "text": text, "n_tokens": count(text)})
    units.sort(key=lambda u: (u["n_tokens"], u["id"]))
    return units


def _section(markdown: str, title: str) -> str:
    match = re.search(rf"^## \d*\.?\s*{re.escape(title)}\n(.*?)(?=^## |\Z)", markdown,
                      re.DOTALL | re.MULTILINE)
    return match.group(1).strip() if match else ""


def render_offline_report(query: str, data: NetworkData) -> str:
    """The stage-1 report's five sections, written deterministically from network data."""
    entities = data.get("entities", [])
    relationships = data.get("relationships", [])
    units = data.get("text_units", [])
    causal = [r for r in relationships if r["description"].split(" ", 1)[0]
              in {"Causes", "Entails", "Overrides"}]
    other = [r for r in relationships if r not in causal]
    out = ["# Causal analysis report", "", f"Query: {query}", ""]
    out += [f"## 1. {_REPORT_SECTIONS[0]}", "",
            (f"The network holds {len(entities)} entities, {len(relationships)} relationships "
             f"and {len(units)} clauses selected for the query. {len(causal)} relationships are "
             "typed causal links (Causes, Entails, Overrides); the rest are references, "
             "definitions and section links that carry context."), ""]
    out += [f"## 2. {_REPORT_SECTIONS[1]}", ""]
    out += [f"- **{e['entity']}** ({e['type']}, rank {e['rank']}): {e['description']}"
            for e in entities[:10]] or ["- No named entities in the selected clauses."]
    out += ["", f"## 3. {_REPORT_SECTIONS[2]}", ""]
    out += [f"- {r['source']} -> {r['target']} (weight {r['weight']}): {r['description']}"
            for r in (causal + other)[:10]] or ["- No relationships within the budget."]
    out += ["", f"## 4. {_REPORT_SECTIONS[3]}", ""]
    if relationships:
        weights = [r["weight"] for r in relationships]
        out.append(f"Relationship weights range {min(weights):.2f}-{max(weights):.2f} "
                   f"(mean {sum(weights) / len(weights):.2f}); {len(causal)} causal links come "
                   "from explicit rule matches in the contract text, the rest are structural.")
    else:
        out.append("No relationships: the evidence is the clause text alone (weak).")
    out += ["", f"## 5. {_REPORT_SECTIONS[4]}", ""]
    if units:
        out += [f"- Review {local_id(u['id'])}: " + " ".join(u["text"].split())[:160]
                for u in units[:5]]
    else:
        out.append("- No clause text fitted the budget; widen the budget or the query.")
    return "\n".join(out) + "\n"
