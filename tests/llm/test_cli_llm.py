"""``clausegraph ask`` / ``report`` with a language model that fails in the ways a user
meets: unusable replies, timeouts, failed verification (stub servers, real CLI, real
index of the bundled contracts)."""

from __future__ import annotations

import json
import re

import pytest
from stub_servers import ModelStub, Reply, Script, StubServer
from typer.testing import CliRunner

from clausegraph.cli import app
from clausegraph.config import SAMPLE_QUESTION

runner = CliRunner()


def ask(graph, server: StubServer, *extra: str):
    args = ["ask", SAMPLE_QUESTION, "--index", str(graph.store.root), "--llm", "openai",
            "--base-url", f"{server.url}/v1", "--model", "stub-model", *extra]
    return runner.invoke(app, args, env={"OPENAI_API_KEY": ""})


def first_clause(user: str) -> str:
    return re.search(r"<<<CLAUSE (\S+)", user).group(1)


@pytest.fixture
def unusable_replies():
    return Script("Sure! The agreement can be terminated.", '{"claims": "none"}')


def test_unusable_reply_gives_the_offline_answer_with_a_warning(sample_graph,
                                                                 unusable_replies):
    with StubServer(unusable_replies) as server:
        result = ask(sample_graph, server, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "extractive-fallback" and data["evidence"]
    assert any("did not return the answer JSON after one repair request" in w
               for w in data["warnings"])
    assert server.count("chat") == 2


def test_strict_keeps_exit_2_for_an_unusable_reply(sample_graph, unusable_replies):
    with StubServer(unusable_replies) as server:
        result = ask(sample_graph, server, "--strict")
    assert result.exit_code == 2
    assert "did not return the answer JSON" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_timeout_is_not_retried_and_falls_back(sample_graph):
    with StubServer(lambda r: Reply(body={}, delay=1.5)) as server:
        result = ask(sample_graph, server, "--timeout", "0.3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "extractive-fallback"
    assert any("within 0.3 s" in w and "--timeout" in w for w in data["warnings"])
    assert server.count("chat") == 1


def test_failed_verification_exits_1_with_strict(sample_graph):
    def reply(system: str, user: str) -> str:
        return json.dumps({"claims": [{"text": "Either party may terminate at will.",
                                       "citations": [first_clause(user)],
                                       "quotes": ["may terminate at will at any time"]}],
                           "answer_found": True})

    with StubServer(ModelStub(reply)) as server:
        lenient = ask(sample_graph, server)
        strict = ask(sample_graph, server, "--strict")
    assert lenient.exit_code == 0 and "failed:" in lenient.stdout
    assert "quotes 'may terminate at will at any time'" in lenient.stdout
    assert strict.exit_code == 1


def test_stream_json_prints_json_lines(sample_graph):
    def reply(system: str, user: str) -> str:
        clause = first_clause(user)
        return json.dumps({"claims": [{"text": "The clause governs termination.",
                                       "citations": [clause], "quotes": []}],
                           "answer_found": True})

    with StubServer(ModelStub(reply)) as server:
        result = ask(sample_graph, server, "--stream", "--json")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert [e["event"] for e in events[:-1]] == ["chunk"] * (len(events) - 1)
    assert len(events) > 3 and events[-1]["event"] == "answer"
    raw = "".join(e["text"] for e in events[:-1])
    assert json.loads(raw)["claims"][0]["text"] == "The clause governs termination."
    assert events[-1]["answer"]["mode"] == "openai"


def test_stream_prints_the_claims_as_they_arrive(sample_graph):
    def reply(system: str, user: str) -> str:
        return json.dumps({"claims": [{"text": "The clause governs termination.",
                                       "citations": [first_clause(user)], "quotes": []}],
                           "answer_found": True})

    with StubServer(ModelStub(reply)) as server:
        result = ask(sample_graph, server, "--stream")
    assert result.exit_code == 0, result.output
    assert "- The clause governs termination." in result.stderr
