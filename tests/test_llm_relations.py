"""LLM relation extraction: validation against real clause ids and text, provenance,
merging with rule edges, and the content-hash cache (re-ingesting costs nothing)."""

from __future__ import annotations

import json
import re

import pytest
from sample_evidence import KEY, sample_document
from stub_servers import ModelStub, Script, StubServer
from test_llm_providers import make_provider

from clausegraph.models import Edge, RelationType
from clausegraph.relate.llm import (
    EDGES_SCHEMA,
    ExtractionStats,
    extract_llm_edges,
    merge_edges,
)


def cid(number: str) -> str:
    return f"{KEY}:{number}"


PROPOSED = [
    # good: 2.6 "Notwithstanding any other provisions" overrides 2.5
    {"source": cid("2.6"), "target": cid("2.5"), "type": "Overrides", "confidence": 0.9,
     "evidence": "Notwithstanding any other provisions in this Agreement", "term": None},
    # good: the preamble defines "Party", used in 7.2
    {"source": cid("preamble"), "target": cid("7.2"), "type": "Defines", "confidence": 0.8,
     "evidence": "referred to as a \u201cParty\u201d", "term": "Party"},
    # good: breach (7.2) causes... the survival clause applies on termination (7.3 refers 7.1)
    {"source": cid("7.3"), "target": cid("7.1"), "type": "RefersTo", "confidence": 0.7,
     "evidence": "Article 7", "term": None},
    # rejected: target does not exist
    {"source": cid("7.2"), "target": cid("12.9"), "type": "RefersTo", "confidence": 0.9,
     "evidence": "materially breaches this Agreement"},
    # rejected: type not allowed (structural, rule-only)
    {"source": cid("7.2"), "target": cid("7.1"), "type": "SameSection", "confidence": 0.9,
     "evidence": "A Party shall have the right"},
    # rejected: evidence not in the source clause (hallucinated)
    {"source": cid("7.2"), "target": cid("7.1"), "type": "Causes", "confidence": 0.9,
     "evidence": "upon insolvency of either Party"},
    # rejected: self loop
    {"source": cid("7.1"), "target": cid("7.1"), "type": "Entails", "confidence": 0.9,
     "evidence": "This Agreement shall become effective"},
    # rejected: below the confidence floor
    {"source": cid("7.2"), "target": cid("7.3"), "type": "Entails", "confidence": 0.2,
     "evidence": "A Party shall have the right to terminate"},
    # rejected: Defines without a term
    {"source": cid("preamble"), "target": cid("2.5"), "type": "Defines", "confidence": 0.9,
     "evidence": "referred to as a \u201cSupplier\u201d"},
]


def batch_model(system: str, user: str) -> str:
    """Return the proposed edges whose source is in this request's batch."""
    batch = set(re.findall(r"<<<CLAUSE (\S+)\n", user))
    return json.dumps({"edges": [e for e in PROPOSED if e["source"] in batch]})


@pytest.fixture
def doc_and_clauses():
    return sample_document()


def test_edges_are_validated_and_carry_llm_provenance(doc_and_clauses, tmp_path):
    document, clauses = doc_and_clauses
    stats = ExtractionStats()
    with StubServer(ModelStub(batch_model)) as server:
        provider = make_provider("gemini", server.url)
        edges = extract_llm_edges(document, clauses, provider, tmp_path, batch_size=4,
                                  stats=stats)
    assert {(e.type, e.source, e.target) for e in edges} == {
        (RelationType.OVERRIDES, cid("2.6"), cid("2.5")),
        (RelationType.DEFINES, cid("preamble"), cid("7.2")),
        (RelationType.REFERS_TO, cid("7.3"), cid("7.1")),
    }
    assert all(e.rule_id == "llm:gemini-2.5-flash" for e in edges)
    defines = next(e for e in edges if e.type is RelationType.DEFINES)
    assert defines.term == "Party"
    for edge in edges:  # evidence spans point at the evidence in the document text
        start, end = edge.evidence_span
        assert document.text[start:end] == edge.evidence
    assert stats.batches == 2 and stats.requests == 2 and stats.accepted == 3
    assert stats.rejected == {"unknown target": 1, "unknown type": 1,
                              "evidence not in source": 1, "self loop": 1,
                              "low confidence": 1, "Defines without term": 1}
    # request shape: JSON schema output, outline of every clause, the batch fenced as data
    request = server.requests[0]
    assert request.body["generationConfig"]["responseJsonSchema"] == EDGES_SCHEMA
    system, user = request.prompt()
    assert "Overrides" in system and "DATA" in system
    for clause in clauses:
        assert f"- {clause.clause_id} |" in user
    assert user.count("<<<CLAUSE ") == 4


def test_reingesting_is_served_from_the_cache(doc_and_clauses, tmp_path):
    document, clauses = doc_and_clauses
    with StubServer(ModelStub(batch_model)) as server:
        provider = make_provider("openai", server.url)
        first = extract_llm_edges(document, clauses, provider, tmp_path, batch_size=3)
        requests = server.count()
        stats = ExtractionStats()
        second = extract_llm_edges(document, clauses, provider, tmp_path, batch_size=3,
                                   stats=stats)
        assert server.count() == requests  # nothing sent the second time
        assert stats.cached == stats.batches == 2 and stats.requests == 0
        assert second == first
        # a changed clause invalidates its batch only
        clauses[0] = clauses[0].model_copy(update={"text": clauses[0].text + " Amended."})
        extract_llm_edges(document, clauses, provider, tmp_path, batch_size=3)
        assert server.count() == requests + 1  # the outline (ids, headings) is unchanged
    assert first[0].rule_id == "llm:gpt-4.1-mini"
    assert len(list(tmp_path.rglob("*.json"))) == 3


def test_malformed_batch_is_repaired_once_then_skipped(doc_and_clauses, tmp_path):
    document, clauses = doc_and_clauses
    good = json.dumps({"edges": [PROPOSED[0]]})
    script = Script("not json", good,  # batch 1: repaired
                    "still not json", "nope")  # batch 2: skipped, not cached
    stats = ExtractionStats()
    with StubServer(script) as server:
        provider = make_provider("gemini", server.url)
        edges = extract_llm_edges(document, clauses, provider, tmp_path, batch_size=3,
                                  stats=stats)
    assert server.count() == 4
    assert stats.failed_batches == 1 and len(edges) == 0  # 2.6 is not in batch 1
    assert len(list(tmp_path.rglob("*.json"))) == 1


def test_merge_keeps_rule_edges_first():
    rule = Edge(type=RelationType.OVERRIDES, source="d:2.6", target="d:2.5", confidence=0.95,
                rule_id="notwithstanding", evidence="Notwithstanding", evidence_span=(0, 15))
    llm_same = rule.model_copy(update={"rule_id": "llm:m", "confidence": 0.7})
    llm_new = rule.model_copy(update={"type": RelationType.CAUSES, "rule_id": "llm:m"})
    merged = merge_edges([rule], [llm_same, llm_new])
    assert merged == [rule, llm_new]
