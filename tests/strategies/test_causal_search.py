"""GraphRAG causal search (seed 002): the token budget, the saved files, the LLM prompts."""

from __future__ import annotations

import json
import re

from clausegraph.config import RetrievalConfig
from clausegraph.strategies.causal_search import CausalSearchStrategy, token_counter
from tests.strategies.conftest import QUESTION


def test_causal_search_budget_split_and_files(graph, tmp_path):
    strategy = CausalSearchStrategy(output_dir=tmp_path / "out")
    found = strategy.retrieve(graph.retriever, QUESTION, RetrievalConfig(top_k=8))
    run = found.trace["run"]
    used = run["tokens_used"]
    assert run["tokenizer"] == "minilm-wordpiece"
    assert len(run["nodes"]) == (8 + 3) * 2
    assert used["entities"] <= 0.4 * 8000
    assert used["relationships"] <= 0.4 * 8000
    assert used["text_units"] <= 0.2 * 8000
    assert sum(used.values()) <= 8000
    data = run["data"]
    count, _ = token_counter(graph.retriever)
    for section in ("entities", "relationships", "text_units"):
        assert used[section] == sum(count(json.dumps(r, ensure_ascii=False))
                                    for r in data[section])
    # essential fields and orderings of seed 002
    assert all(set(e) == {"id", "entity", "description", "rank", "type"} for e in data["entities"])
    assert all(set(r) == {"id", "source", "target", "description", "weight", "rank"}
               for r in data["relationships"])
    assert all(set(u) == {"id", "text", "n_tokens"} for u in data["text_units"])
    ranks = [e["rank"] for e in data["entities"]]
    weights = [r["weight"] for r in data["relationships"]]
    sizes = [u["n_tokens"] for u in data["text_units"]]
    assert ranks == sorted(ranks, reverse=True) and weights == sorted(weights, reverse=True)
    assert sizes == sorted(sizes)
    assert all(len(u["text"]) <= 1003 for u in data["text_units"])
    # the result is the text units in context order
    in_context = [u["id"] for u in data["text_units"]]
    assert [r.clause_id for r in found.hits[: len(in_context)]] == in_context[:8]
    # saved files named by the query id, listed in the notes
    assert re.fullmatch(r"[0-9a-f]{8}_\d{10}", run["query_id"])
    out = tmp_path / "out"
    for suffix in ("network_data.json", "causal_report.md", "response.md"):
        assert (out / f"{run['query_id']}_{suffix}").is_file()
    assert found.notes["saved causal report"] == str(out / f"{run['query_id']}_causal_report.md")
    saved = json.loads((out / f"{run['query_id']}_network_data.json").read_text())
    assert saved["text_units"] == data["text_units"]
    report = (out / f"{run['query_id']}_causal_report.md").read_text()
    headings = re.findall(r"^## \d\. (.+)$", report, re.MULTILINE)
    assert headings == ["Introduction", "Key Entities and Their Roles", "Major Causal Pathways",
                        "Confidence and Evidence Strength", "Implications and Recommendations"]


def test_causal_search_small_budget_truncates(graph, tmp_path):
    config = RetrievalConfig(top_k=8)
    full = CausalSearchStrategy(output_dir=tmp_path, save=False).retrieve(
        graph.retriever, QUESTION, config).trace["run"]
    found = CausalSearchStrategy(output_dir=tmp_path, save=False, max_tokens=600).retrieve(
        graph.retriever, QUESTION, config)
    small = found.trace["run"]
    used = small["tokens_used"]
    assert used["entities"] <= 240 and used["relationships"] <= 240 and used["text_units"] <= 120
    for section in ("entities", "relationships", "text_units"):
        assert len(small["data"][section]) <= len(full["data"][section])
    assert len(small["data"]["relationships"]) < len(full["data"]["relationships"])
    assert len(small["data"]["text_units"]) < len(small["nodes"])
    # nodes left out of the context still fill top_k, after the in-context ones
    assert len(found.hits) == 8
    assert any("outside the text-unit token budget" in r.reason() for r in found.hits)
    assert not list(tmp_path.glob("*_network_data.json"))  # save=False writes nothing
    assert not any(name.startswith("saved") for name in found.notes)


def test_whitespace_token_fallback():
    count, name = token_counter(None)
    assert name == "whitespace" and count("one two  three") == 3


def test_causal_search_uses_prompts_when_an_llm_is_configured(graph, tmp_path):
    class FakeLLM:
        def __init__(self):
            self.prompts = []

        def generate(self, system, user, schema=None):
            self.prompts.append(user)
            return type("Response", (), {"text": f"LLM output {len(self.prompts)}"})()

    llm = FakeLLM()
    found = CausalSearchStrategy(output_dir=tmp_path, llm=llm).retrieve(
        graph.retriever, QUESTION, RetrievalConfig(top_k=4))
    assert len(llm.prompts) == 2
    assert "## 3. Major Causal Pathways" in llm.prompts[0] and '"text_units"' in llm.prompts[0]
    assert "LLM output 1" in llm.prompts[1] and QUESTION in llm.prompts[1]
    assert found.trace["run"]["report"] == "LLM output 1"
    assert found.notes["causal-search answer"] == "LLM output 2"
