"""Paths a real model rarely takes on demand, driven through the real ``openai`` client
against local stub servers: a schema the server rejects, a context error, a reply cut at
max_tokens, a 404 from a wrong base URL, the model a server lists, honest verdicts."""

from __future__ import annotations

import json
import re

import pytest
from policy_sample import DOC_KEY, policy_answer
from stub_servers import ModelStub, Reply, Script, StubServer, openai_body

from clausegraph.answer.generate import (
    NOT_ANSWERED,
    answer_hint,
    build_prompts,
    generate_answer,
    salvage_claims,
    schema_max_tokens,
)
from clausegraph.llm import LLMConfig, LLMModelNotFoundError, create_provider

GOOD = {"claims": [{"text": "Cataract surgery is covered after a 24-month waiting period.",
                    "citations": [f"{DOC_KEY}:4.2"],
                    "quotes": ["covered only after a waiting period of 24 months"]}],
        "answer_found": True}


def provider_for(server: StubServer, **settings):
    values = dict(provider="openai", base_url=f"{server.url}/v1", timeout=5.0,
                  backoff_initial=0.01, backoff_max=0.05, model="stub-model")
    values.update(settings)
    return create_provider(LLMConfig(**values), env={})


def chat_bodies(server: StubServer) -> list[dict]:
    return [r.body for r in server.requests if r.route == "chat"]


def test_schema_and_max_tokens_are_sent_and_citations_limited_to_the_evidence():
    with StubServer(ModelStub(lambda s, u: json.dumps(GOOD))) as server:
        answer = generate_answer(policy_answer(), provider_for(server))
    body = chat_bodies(server)[0]
    schema = body["response_format"]["json_schema"]["schema"]
    ids = [e.clause_id for e in answer.evidence]
    assert schema["properties"]["claims"]["items"]["properties"]["citations"]["items"][
        "enum"] == ids
    assert body["max_tokens"] == schema_max_tokens(ids)
    assert answer.usage["structured"] and answer.verification.verdict == "verified"


def test_a_rejected_schema_falls_back_to_the_prompt_once_per_server():
    def responder(request):
        if "response_format" in request.body:
            return Reply(400, {"error": {"message": "response_format json_schema is not "
                                                    "supported", "type": "invalid_request"}})
        return Reply(body=openai_body(json.dumps(GOOD)))

    with StubServer(responder) as server:
        first = generate_answer(policy_answer(), provider_for(server))
        second = generate_answer(policy_answer(), provider_for(server))
    bodies = chat_bodies(server)
    assert len(bodies) == 3  # schema rejected, prompt-only; then prompt-only at once
    assert "response_format" in bodies[0] and "response_format" not in bodies[2]
    assert not first.usage["structured"] and first.verification.verdict == "verified"
    assert any("rejected the JSON schema" in w for w in first.warnings)
    assert not second.usage["structured"]


def test_a_context_error_teaches_the_size_and_evidence_is_trimmed_by_rank():
    base = policy_answer()
    system, user = build_prompts(base)
    full = (len(system) + len(user)) // 4  # the stub's tokens: 4 characters each
    n_ctx = full + schema_max_tokens([e.clause_id for e in base.evidence]) - 10

    def responder(request):  # like vLLM: the prompt plus max_tokens must fit
        system, user = request.prompt()
        tokens = (len(system) + len(user)) // 4
        if tokens + request.body["max_tokens"] > n_ctx:
            return Reply(400, {"error": {
                "code": 400, "type": "exceed_context_size_error", "n_ctx": n_ctx,
                "n_prompt_tokens": tokens,
                "message": f"request ({tokens} tokens) exceeds the available context size "
                           f"({n_ctx} tokens), try increasing it"}})
        return Reply(body=openai_body(json.dumps(GOOD)))

    with StubServer(responder) as server:
        answer = generate_answer(base, provider_for(server))
    assert len(chat_bodies(server)) == 2  # too long, then trimmed
    shown = [e.clause_id for e in answer.evidence]
    assert answer.usage["evidence_total"] == 3 and answer.usage["evidence_shown"] == len(shown)
    assert f"{DOC_KEY}:4.2" in shown and len(shown) < 3  # the best-ranked clause stays
    assert f"{DOC_KEY}:7.1" not in shown  # the lowest-ranked goes first
    assert any(f"{n_ctx} tokens" in w and "learnt from its error" in w for w in answer.warnings)
    assert answer.usage["context_tokens"] == n_ctx
    assert answer.verification.verdict == "verified"


def test_a_reply_cut_at_max_tokens_keeps_its_complete_claims():
    cut = json.dumps({"claims": [*GOOD["claims"], GOOD["claims"][0]]})[:-40]
    reply = openai_body(cut)
    reply["choices"][0]["finish_reason"] = "length"
    with StubServer(Script(Reply(body=reply))) as server:
        answer = generate_answer(policy_answer(), provider_for(server))
    assert len(chat_bodies(server)) == 1  # no repair request
    assert len(answer.claims) == 1 and answer.verification.verdict == "verified"
    assert any("finish reason length" in w for w in answer.warnings)


def test_salvage_stops_at_the_first_incomplete_claim():
    assert salvage_claims('{"claims": [') == []
    assert salvage_claims("not json") == []
    text = '{"claims": [{"text": "A.", "citations": ["x:1"]}, {"text": "B", "cit'
    assert [c.text for c in salvage_claims(text)] == ["A."]


def test_a_404_from_a_wrong_base_url_names_the_url():
    with StubServer(ModelStub(lambda s, u: "unused")) as server:
        provider = create_provider(LLMConfig(provider="openai", base_url=f"{server.url}/api",
                                             model="m", timeout=5.0), env={})
        # the stub serves /v1/chat/completions only under .../v1; make /api answer 404
        server.responder = lambda r: Reply(404, {"message": "File Not Found",
                                                 "type": "not_found_error", "code": 404})
        with pytest.raises(LLMModelNotFoundError) as caught:
            provider.generate("sys", "user")
    message = str(caught.value)
    assert f"{server.url}/api/chat/completions answered 404" in message
    assert "--base-url" in message and "--model" not in message


def test_no_model_named_uses_the_model_the_server_lists():
    models = [{"id": "llama3.2:1b", "object": "model", "owned_by": "library",
               "meta": {"n_ctx": 4096}}]
    with StubServer(ModelStub(lambda s, u: json.dumps(GOOD)), models=models) as server:
        answer = generate_answer(policy_answer(), provider_for(server, model=None))
    assert chat_bodies(server)[0]["model"] == "llama3.2:1b"
    assert answer.model == "openai:llama3.2:1b" and answer.usage["context_tokens"] == 4096
    assert any("no --model given" in w for w in answer.warnings)


def test_a_model_the_server_does_not_list_is_reported():
    models = [{"id": "qwen2.5:0.5b", "object": "model", "owned_by": "library"}]
    with StubServer(ModelStub(lambda s, u: json.dumps(GOOD)), models=models) as server:
        answer = generate_answer(policy_answer(), provider_for(server, model="gpt-4.1-mini"))
    assert any("'qwen2.5:0.5b', not 'gpt-4.1-mini'" in w for w in answer.warnings)


def test_not_answered_is_checked_against_the_offline_answer():
    base = policy_answer()
    assert answer_hint(base)[0] == f"{DOC_KEY}:4.2"  # the quote holds the asked terms
    reply = {"claims": [{"text": NOT_ANSWERED, "citations": [f"{DOC_KEY}:2.14"],
                         "quotes": []}], "answer_found": True}  # says "found", answers nothing
    with StubServer(ModelStub(lambda s, u: json.dumps(reply))) as server:
        answer = generate_answer(base, provider_for(server))
    assert not answer.answer_found
    assert answer.answer == f"{NOT_ANSWERED} Closest clauses: [{DOC_KEY}:2.14]"
    assert answer.verification.verdict == "failed"
    issue = answer.verification.issues[0]
    assert issue.kind == "missed_answer" and "24 months" in issue.message


def test_not_answered_without_the_fact_in_evidence_is_unanswered_not_verified():
    base = policy_answer(question="Does the policy cover dental implants abroad?")
    assert answer_hint(base) is None
    reply = {"claims": [{"text": NOT_ANSWERED, "citations": [], "quotes": []}],
             "answer_found": False}
    with StubServer(ModelStub(lambda s, u: json.dumps(reply))) as server:
        answer = generate_answer(base, provider_for(server))
    assert answer.verification.verdict == "unanswered" and answer.answer == NOT_ANSWERED
    assert not answer.verification.issues


def test_junk_citations_are_not_rendered_as_citations():
    reply = {"claims": [{"text": "Cataract surgery waits 24 months [quotes].",
                         "citations": ["quotes", f"{DOC_KEY}:4.2"],
                         "quotes": ["a waiting period of 24 months"]}], "answer_found": True}
    with StubServer(ModelStub(lambda s, u: json.dumps(reply))) as server:
        answer = generate_answer(policy_answer(), provider_for(server))
    assert "[quotes]" not in answer.answer and f"[{DOC_KEY}:4.2]" in answer.answer
    assert re.search(r"24 months\. \[policy:4\.2\]$", answer.answer)
    assert answer.verification.verdict == "failed"  # the unknown id is still reported
    assert [i.kind for i in answer.verification.issues] == ["unknown_citation"]


@pytest.mark.parametrize("message, body, expected", [
    ("request (2131 tokens) exceeds the available context size (2048 tokens), try "
     "increasing it", {"n_ctx": 2048, "n_prompt_tokens": 2131}, (2048, 2131)),  # llama.cpp
    ("This model's maximum context length is 8192 tokens. However, your messages resulted "
     "in 9100 tokens. Please reduce the length of the messages.", {}, (8192, 9100)),  # OpenAI
    ("This model's maximum context length is 2048 tokens. However, you requested 2600 "
     "tokens (2000 in the messages, 600 in the completion).", {}, (2048, 2000)),  # vLLM
    ("context_length_exceeded", {}, (None, None)),
    ("Invalid value for temperature", {}, None),
])
def test_context_errors_of_each_server_are_read(message, body, expected):
    from clausegraph.llm.base import Failure, context_limits

    assert context_limits(Failure(400, message, body=body)) == expected
