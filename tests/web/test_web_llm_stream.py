"""The streamed answer with a language model: the model's reply reaches the browser as
``chunk`` events before the verified ``answer`` event (the real openai client, talking to a
stub that speaks the OpenAI REST API and streams its reply in pieces)."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from clausegraph.config import LLMConfig, Settings
from clausegraph.web.app import create_app
from tests.stub_servers import ModelStub, StubServer

QUESTION = "Which law governs the agreement?"


def _model(system: str, user: str) -> str:
    """Cites the first clause of the evidence it was given, quoting its first words."""
    match = re.search(r"\[([^\]\s]+:[^\]\s]+)\]\s*(?:[^\n]*\n)?\s*\"?([^\n\"]{12,60})", user)
    assert match, "the prompt should list the evidence clauses by id"
    return json.dumps({"claims": [{"text": "The agreement names its governing law.",
                                   "citations": [match.group(1)], "quotes": []}],
                       "answer_found": True})


def test_llm_answer_streams_chunks_before_the_answer(web_index, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    with StubServer(ModelStub(_model)) as server:
        settings = Settings(llm=LLMConfig(provider="openai", base_url=f"{server.url}/v1",
                                          model="stub-model", timeout=10.0))
        app = create_app(web_index, settings=settings, warm=False)
        with TestClient(app) as client, client.stream(
                "GET", "/api/v1/ask/stream", params={"question": QUESTION}) as response:
            body = "".join(response.iter_text())
        assert server.count("chat") >= 1
    events = [(m.group(1), json.loads(m.group(2)))
              for m in re.finditer(r"event: (\w+)\ndata: (.*)\n\n", body)]
    names = [name for name, _ in events]
    assert names.count("chunk") >= 2, names  # the reply came in pieces, as it streamed
    assert names.index("chunk") < names.index("answer") < names.index("done")
    streamed = "".join(data["text"] for name, data in events if name == "chunk")
    assert json.loads(streamed)["claims"][0]["text"] == "The agreement names its governing law."
    answer = dict(events)["answer"]
    assert answer["mode"] == "openai"
    assert "sk-test-not-a-real-key" not in body
