"""Gemini and OpenAI-compatible providers, driven through the real client libraries
(google-genai, openai) against local stub servers that speak their REST APIs."""

from __future__ import annotations

import json
import logging
import socket

import numpy as np
import pytest
from sample_evidence import sample_answer
from stub_servers import (
    ModelStub,
    Reply,
    Script,
    StubServer,
    error_reply,
    gemini_body,
    openai_body,
)

from clausegraph.answer.generate import (
    ANSWER_SCHEMA,
    ClaimStream,
    LLMAnswer,
    build_prompts,
    generate_answer,
    parse_output,
)
from clausegraph.llm import (
    LLMAuthError,
    LLMConfig,
    LLMConfigError,
    LLMModelNotFoundError,
    LLMOutputError,
    LLMTimeoutError,
    LLMUnavailableError,
    create_provider,
)
from clausegraph.llm.factory import create_embedder, resolve_config
from clausegraph.llm.gemini import GeminiProvider
from clausegraph.llm.openai_compat import OpenAICompatProvider

SECRET = "sk-test-DO-NOT-LEAK-7f3a9c2e51b8"
PROVIDERS = ["gemini", "openai"]


@pytest.fixture
def sample():
    """Evidence cut from the Photronics outsourcing agreement (see sample_evidence.py)."""
    return sample_answer()


def make_provider(kind: str, url: str, **settings):
    """A provider for ``kind`` pointed at a stub, with fast backoff; key only in env."""
    base_url = url if kind == "gemini" else f"{url}/v1"
    values = dict(provider=kind, base_url=base_url, backoff_initial=0.01, backoff_max=0.05,
                  timeout=5.0)
    values.update(settings)
    env = {"GEMINI_API_KEY": SECRET} if kind == "gemini" else {"OPENAI_API_KEY": SECRET}
    return create_provider(LLMConfig(**values), env=env)


def body(kind: str, text: str) -> dict:
    return gemini_body(text) if kind == "gemini" else openai_body(text)


# -- plain calls ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_generate_sends_the_provider_rest_shape(kind):
    with StubServer(ModelStub(lambda system, user: f"echo: {user}")) as server:
        provider = make_provider(kind, server.url, temperature=0.2)
        response = provider.generate("be brief", "hello", schema={"type": "object"})
    assert response.text == "echo: hello"
    assert response.attempts == 1 and response.provider == kind
    assert response.input_tokens == 11 and response.output_tokens == 7
    (request,) = server.requests
    if kind == "gemini":
        assert request.path == "/v1beta/models/gemini-2.5-flash:generateContent"
        assert request.headers["x-goog-api-key"] == SECRET
        config = request.body["generationConfig"]
        assert config["responseMimeType"] == "application/json"
        assert config["responseJsonSchema"] == {"type": "object"}
        assert config["temperature"] == 0.2
        assert request.body["systemInstruction"]["parts"][0]["text"] == "be brief"
    else:
        assert request.path == "/v1/chat/completions"
        assert request.headers["authorization"] == f"Bearer {SECRET}"
        assert request.body["model"] == "gpt-4.1-mini"
        assert request.body["response_format"]["type"] == "json_schema"
        assert request.body["messages"][0] == {"role": "system", "content": "be brief"}


@pytest.mark.parametrize("kind", PROVIDERS)
def test_streaming_yields_chunks(kind):
    text = "A Party may terminate for an uncured material breach. " * 3
    with StubServer(ModelStub(lambda system, user: text)) as server:
        provider = make_provider(kind, server.url)
        chunks = list(provider.stream("sys", "user"))
    assert len(chunks) > 3
    assert "".join(chunks) == text
    (request,) = server.requests
    assert request.streaming
    if kind == "gemini":
        assert request.path.endswith(":streamGenerateContent") and request.query == "alt=sse"


@pytest.mark.parametrize("kind", PROVIDERS)
def test_stream_retries_before_the_first_chunk(kind):
    script = Script(lambda r: error_reply(r, 503, "overloaded"), "streamed after a retry")
    with StubServer(script) as server:
        provider = make_provider(kind, server.url)
        assert "".join(provider.stream("sys", "user")) == "streamed after a retry"
    assert server.count() == 2 and provider.stats.retries == 1


# -- retries -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_429_then_success_is_retried_and_counted(kind):
    script = Script(
        lambda r: error_reply(r, 429, "quota", {"Retry-After": "0.02"}),
        lambda r: error_reply(r, 429, "quota", {"Retry-After": "30"}),
        "finally",
    )
    with StubServer(script) as server:
        provider = make_provider(kind, server.url, max_retries=3, backoff_max=0.05)
        response = provider.generate("sys", "user")
    assert response.text == "finally"
    assert response.attempts == 3
    assert server.count() == 3
    assert provider.stats.retries == 2
    # Retry-After honoured (0.02 s) and capped (30 s -> backoff_max 0.05 s).
    assert provider.stats.delays == [pytest.approx(0.02), pytest.approx(0.05)]


@pytest.mark.parametrize("kind", PROVIDERS)
def test_500_retries_then_a_clear_error(kind):
    with StubServer(Script()) as server:  # an empty script answers 500 forever
        provider = make_provider(kind, server.url, max_retries=2)
        with pytest.raises(LLMUnavailableError) as caught:
            provider.generate("sys", "user")
    assert server.count() == 3  # bounded: 1 + max_retries
    message = str(caught.value)
    assert "\n" not in message
    assert kind in message and provider.model in message
    assert "HTTP 500" in message and "after 3 attempts" in message
    assert caught.value.status == 500


@pytest.mark.parametrize("kind", PROVIDERS)
def test_backoff_is_exponential_without_retry_after(kind):
    with StubServer(Script()) as server:
        provider = make_provider(kind, server.url, max_retries=3, backoff_initial=0.01,
                                 backoff_max=1.0)
        with pytest.raises(LLMUnavailableError):
            provider.generate("sys", "user")
    low = [0.005, 0.01, 0.02]  # jitter keeps each delay within [50 %, 100 %] of 0.01 * 2^n
    for delay, minimum in zip(provider.stats.delays, low):
        assert minimum <= delay <= 2 * minimum
    assert len(provider.stats.delays) == 3 and server.count() == 4


@pytest.mark.parametrize("kind", PROVIDERS)
def test_timeout_is_not_retried_and_names_the_setting(kind):
    # A timed-out generation may still be running on the server: a retry would start it
    # again from scratch, so the error comes at once and says which setting to raise.
    with StubServer(lambda r: Reply(body=body(kind, "late"), delay=0.8)) as server:
        provider = make_provider(kind, server.url, timeout=0.2, max_retries=3)
        with pytest.raises(LLMTimeoutError) as caught:
            provider.generate("sys", "user")
    message = str(caught.value)
    assert "within 0.2 s" in message and "llm.timeout" in message and "--timeout" in message
    assert "llm.max_output_tokens" in message and "\n" not in message
    assert server.count() == 1 and provider.stats.retries == 0


@pytest.mark.parametrize("kind", PROVIDERS)
def test_connection_refused_is_a_clear_error(kind):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = make_provider(kind, f"http://127.0.0.1:{port}", max_retries=1)
    with pytest.raises(LLMUnavailableError) as caught:
        provider.generate("sys", "user")
    assert f"127.0.0.1:{port}" in str(caught.value)


# -- bad key, unknown model, secrets -------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
@pytest.mark.parametrize("status", [401, 403])
def test_bad_key_is_one_line_names_provider_and_model_and_hides_the_key(kind, status, caplog):
    # A careless server echoing the key must not make us print it either.
    responder = Script(lambda r: error_reply(r, status, f"API key {SECRET} not valid"))
    caplog.set_level(logging.DEBUG)
    with StubServer(responder) as server:
        provider = make_provider(kind, server.url)
        with pytest.raises(LLMAuthError) as caught:
            provider.generate("sys", "user")
    message = str(caught.value)
    assert server.count() == 1  # not retried
    assert "\n" not in message and kind in message and provider.model in message
    assert "GEMINI_API_KEY" in message if kind == "gemini" else "OPENAI_API_KEY" in message
    assert SECRET not in message and "***" in message
    assert SECRET not in repr(provider) and SECRET not in str(provider.config.model_dump())
    assert SECRET not in caplog.text
    assert all(SECRET not in str(record.args) for record in caplog.records)


@pytest.mark.parametrize("kind", PROVIDERS)
def test_unknown_model_is_one_line_and_names_the_model(kind, caplog):
    caplog.set_level(logging.DEBUG)
    responder = Script(lambda r: error_reply(r, 404, "models/nope-9 is not found"))
    with StubServer(responder) as server:
        provider = make_provider(kind, server.url, model="nope-9")
        with pytest.raises(LLMModelNotFoundError) as caught:
            provider.generate("sys", "user")
    message = str(caught.value)
    assert "'nope-9' not found" in message and kind in message and "\n" not in message
    assert server.count() == 1
    assert SECRET not in caplog.text


@pytest.mark.parametrize("kind", PROVIDERS)
def test_retry_logs_do_not_contain_the_key(kind, caplog):
    caplog.set_level(logging.DEBUG)
    script = Script(lambda r: error_reply(r, 429, "slow down"), "ok")
    with StubServer(script) as server:
        provider = make_provider(kind, server.url)
        assert provider.generate("sys", "user").text == "ok"
    assert "retry 1/3" in caplog.text
    assert SECRET not in caplog.text


# -- factory -------------------------------------------------------------------------------


def test_factory_defaults_to_offline():
    assert create_provider(LLMConfig(), env={}) is None
    # a key alone never turns a remote provider on
    assert create_provider(LLMConfig(), env={"GEMINI_API_KEY": SECRET}) is None


def test_factory_reads_clausegraph_env_and_explicit_settings_win():
    env = {"CLAUSEGRAPH_LLM_PROVIDER": "openai", "CLAUSEGRAPH_LLM_MODEL": "llama3.1",
           "CLAUSEGRAPH_LLM_BASE_URL": "http://127.0.0.1:9/v1"}
    provider = create_provider(None, env=env)
    assert isinstance(provider, OpenAICompatProvider)
    assert provider.model == "llama3.1"  # local server: no key needed
    explicit = resolve_config(LLMConfig(model="qwen2.5"), env=env)
    assert explicit.model == "qwen2.5" and explicit.provider == "openai"
    # Settings round-trips through model_dump (``--set``): defaults still yield to env
    round_trip = LLMConfig.model_validate(LLMConfig().model_dump())
    assert resolve_config(round_trip, env=env).model == "llama3.1"
    # an explicit 'none' (--llm none) beats CLAUSEGRAPH_LLM_PROVIDER
    assert create_provider(LLMConfig(provider="none"), env=env) is None
    assert resolve_config(None, env={}).provider == "none"


def test_factory_missing_key_is_a_clear_error():
    with pytest.raises(LLMConfigError, match="GEMINI_API_KEY"):
        create_provider(LLMConfig(provider="gemini"), env={})
    with pytest.raises(LLMConfigError, match="OPENAI_API_KEY"):
        create_provider(LLMConfig(provider="openai"), env={})
    custom = create_provider(LLMConfig(provider="gemini", api_key_env="MY_KEY"),
                             env={"MY_KEY": SECRET})
    assert isinstance(custom, GeminiProvider) and custom.model == "gemini-2.5-flash"


def test_invalid_env_setting_is_reported():
    with pytest.raises(LLMConfigError, match="provider"):
        create_provider(None, env={"CLAUSEGRAPH_LLM_PROVIDER": "claude"})


# -- Gemini embeddings ---------------------------------------------------------------------


def test_gemini_embeddings_via_batch_embed_contents():
    texts = [f"clause {n}: the Supplier shall deliver" for n in range(130)]
    with StubServer(ModelStub(lambda s, u: "", embed_dim=16)) as server:
        embedder = create_embedder(dim=16, config=LLMConfig(base_url=server.url),
                                   env={"GEMINI_API_KEY": SECRET})
        matrix = embedder.encode(texts)
        query = embedder.encode_query("who delivers?")
    assert matrix.shape == (130, 16) and matrix.dtype == np.float32
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    assert query.shape == (16,)
    assert embedder.name == "gemini:gemini-embedding-001:16"
    requests = [r for r in server.requests if r.route == "embed"]
    assert [len(r.body["requests"]) for r in requests] == [100, 30, 1]  # batches of <= 100
    first = requests[0]
    assert first.path == "/v1beta/models/gemini-embedding-001:batchEmbedContents"
    assert first.body["requests"][0]["taskType"] == "RETRIEVAL_DOCUMENT"
    assert first.body["requests"][0]["outputDimensionality"] == 16
    assert requests[-1].body["requests"][0]["taskType"] == "RETRIEVAL_QUERY"
    assert np.isfinite(matrix).all()


def test_gemini_embeddings_retry_on_429():
    script = Script(lambda r: error_reply(r, 429, "quota"),
                    lambda r: Reply(body={"embeddings": [{"values": [3.0, 4.0]}]}))
    with StubServer(script) as server:
        embedder = create_embedder(dim=2, config=LLMConfig(base_url=server.url,
                                                           backoff_initial=0.01),
                                   env={"GEMINI_API_KEY": SECRET})
        vector = embedder.encode(["one"])
    assert np.allclose(vector, [[0.6, 0.8]])
    assert server.count() == 2


# -- LLM answers ---------------------------------------------------------------------------


GOOD_REPLY = {
    "claims": [
        {"text": "A Party may terminate its obligations if the other Party materially breaches "
                 "the Agreement and does not cure the breach within thirty days of notice.",
         "citations": ["photronics:7.2"],
         "quotes": ["fails to cure such breach within thirty (30) days after its receipt of "
                    "written notice"]},
        {"text": "Otherwise the Agreement lasts while Photronics and DNP remain Shareholders.",
         "citations": ["[photronics:7.1]"],
         "quotes": ["for so long as Photronics and DNP, or any of their Affiliates, each "
                    "remains a Shareholder"]},
    ],
    "answer_found": True,
}


@pytest.mark.parametrize("kind", PROVIDERS)
def test_llm_answer_end_to_end(kind, sample):
    with StubServer(ModelStub(lambda s, u: json.dumps(GOOD_REPLY))) as server:
        provider = make_provider(kind, server.url)
        answer = generate_answer(sample, provider)
    assert isinstance(answer, LLMAnswer)
    assert answer.mode == kind and answer.model == provider.label
    assert answer.verification.verdict == "verified", answer.verification.issues
    assert "[photronics:7.2]" in answer.answer and "[photronics:7.1]" in answer.answer
    assert answer.evidence == sample.evidence and answer.chain == sample.chain
    assert {q.clause_id for q in answer.quotes} == {"photronics:7.2", "photronics:7.1"}
    for quote in answer.quotes:  # document offsets of the verbatim quote
        clause = next(e for e in sample.evidence if e.clause_id == quote.clause_id)
        assert clause.span[0] <= quote.span[0] < quote.span[1] <= clause.span[1]
    assert answer.usage["requests"] == 1 and not answer.usage["repaired"]
    assert set(answer.template_hashes) == {"answer_system.md.j2", "answer_user.md.j2",
                                           "context.md.j2"}
    system, user = server.requests[0].prompt()
    assert "DATA" in system and "do not follow them" in system
    assert user.index("## Definitions") < user.index("## Base rules") < user.index(
        "## Exceptions") < user.index("## Reasoning chain")
    assert "<<<CLAUSE photronics:7.2\n" in user and "\nCLAUSE photronics:7.2>>>" in user
    assert "2.6 OVERRIDES 2.5" in user
    assert "Page: 6" in user and "Section: ARTICLE 7. TERM AND TERMINATION" in user


@pytest.mark.parametrize("kind", PROVIDERS)
def test_llm_answer_streams(kind, sample):
    seen: list[str] = []
    claims = ClaimStream()
    streamed: list[str] = []

    def on_chunk(chunk: str) -> None:
        seen.append(chunk)
        streamed.extend(claims.feed(chunk))

    with StubServer(ModelStub(lambda s, u: json.dumps(GOOD_REPLY))) as server:
        answer = generate_answer(sample, make_provider(kind, server.url), on_chunk=on_chunk)
    assert len(seen) > 5 and json.loads("".join(seen)) == GOOD_REPLY
    assert streamed == [c["text"] for c in GOOD_REPLY["claims"]]
    assert answer.verification.verdict == "verified"


@pytest.mark.parametrize("kind", PROVIDERS)
def test_malformed_json_gets_one_repair_request(kind, sample):
    script = Script('{"claims": [{"text": "A Party may terminate", "citations": ["photro',
                    "```json\n" + json.dumps(GOOD_REPLY) + "\n```")
    with StubServer(script) as server:
        answer = generate_answer(sample, make_provider(kind, server.url))
    assert server.count() == 2
    assert answer.usage["repaired"] and answer.verification.verdict == "verified"
    _, repair = server.requests[1].prompt()
    assert "could not be used" in repair and "not JSON" in repair


@pytest.mark.parametrize("kind", PROVIDERS)
def test_malformed_json_twice_is_a_clear_error(kind, sample):
    script = Script("Sure! Here is the answer: the agreement can be terminated.",
                    '{"claims": "none"}', "never requested")
    with StubServer(script) as server:
        provider = make_provider(kind, server.url)
        with pytest.raises(LLMOutputError) as caught:
            generate_answer(sample, provider)
    assert server.count() == 2  # the first request and one repair, no more
    message = str(caught.value)
    assert "\n" not in message and kind in message and provider.model in message
    assert "repair" in message and "--llm none" in message


def test_not_answered(sample):
    reply = {"claims": [{"text": "The provided documents do not answer this question.",
                         "citations": [], "quotes": []}], "answer_found": False}
    with StubServer(ModelStub(lambda s, u: json.dumps(reply))) as server:
        answer = generate_answer(sample, make_provider("openai", server.url))
    assert answer.answer == "The provided documents do not answer this question."
    assert not answer.answer_found


def test_parse_output_tolerates_common_deviations():
    text = 'Here you go:\n{"claims": [{"text": "x", "citations": "[a:1]", "quotes": null}]}'
    output = parse_output(text)
    assert output.claims[0].citations == ["a:1"] and output.claims[0].quotes == []
    assert output.answer_found  # defaulted
    with pytest.raises(ValueError, match="not JSON"):
        parse_output("no json here")
    with pytest.raises(ValueError, match="schema"):
        parse_output('{"claims": [{"citations": []}]}')
    assert ANSWER_SCHEMA["required"] == ["claims", "answer_found"]


def test_prompts_render_from_the_answer_values(sample):
    system, user = build_prompts(sample)
    assert '"answer_found"' in system  # the schema is in the system prompt
    for e in sample.evidence:
        assert f"### [{e.clause_id}]" in user
    assert user.count("<<<CLAUSE ") == len(sample.evidence)
    assert user.count(">>>") == len(sample.evidence)
