"""The LLM answer path against a real llama.cpp server (SmolLM2-135M from PyPI wheels),
through the real ``openai`` client: structured output, the token budget, the server's
own context error, streaming and the model it reports."""

from __future__ import annotations

import pytest
from policy_sample import DOC_KEY, policy_answer

from clausegraph.answer.generate import (
    ClaimStream,
    LLMAnswer,
    build_prompts,
    fit_to_context,
    generate_answer,
    schema_max_tokens,
)
from clausegraph.answer.verify import locate
from clausegraph.llm import LLMConfig, LLMContextError, create_provider

MODEL_NAME = "SmolLM2-135M-Instruct"  # the alias the fixture's server reports


def local_provider(server, **settings):
    values = dict(provider="openai", base_url=server.base_url, timeout=900.0)  # a busy CPU
    values.update(settings)
    return create_provider(LLMConfig(**values), env={})


def assert_verified_or_flagged(answer: LLMAnswer) -> None:
    """The verdict agrees with the claims: a quote missing from its clause or an unknown
    citation is an error, and 'verified' means every quote was found."""
    ids = {e.clause_id for e in answer.evidence}
    text = {e.clause_id: e.text for e in answer.evidence}
    verification = answer.verification
    broken = [
        (number, quote) for number, claim in enumerate(answer.claims) for quote in claim.quotes
        if quote.strip() and not any(locate(quote, text[c]) for c in claim.cited_ids()
                                     if c in ids)
    ]
    unknown = [c for claim in answer.claims for c in claim.cited_ids() if c not in ids]
    if broken or unknown:
        assert verification.verdict == "failed", (broken, unknown, verification.issues)
    if verification.verdict == "verified":
        assert answer.claims and answer.answer_found
        assert verification.quotes_found == verification.quotes
    if not answer.claims:
        assert verification.verdict != "verified"


def test_structured_answer_is_parsed_on_the_first_reply(llama_server):
    provider = local_provider(llama_server)  # no model named: the one the server reports
    answer = generate_answer(policy_answer(), provider)

    assert isinstance(answer, LLMAnswer) and answer.mode == "openai"
    assert answer.model == f"openai:{MODEL_NAME}"
    assert any("no --model given" in w and MODEL_NAME in w for w in answer.warnings)
    usage = answer.usage
    assert usage["structured"] and usage["requests"] == 1 and not usage["repaired"]
    assert usage["context_tokens"] == llama_server.ctx  # read from /v1/models
    assert usage["max_tokens"] == schema_max_tokens([e.clause_id for e in answer.evidence])
    assert usage["finish_reason"] == "stop" and usage["input_tokens"] > 100
    # constrained decoding: every citation is one of the ids shown
    assert all(c.startswith(f"{DOC_KEY}:") for claim in answer.claims for c in claim.citations)
    assert not [i for i in answer.verification.issues if i.kind == "unknown_citation"]
    assert_verified_or_flagged(answer)


def test_streamed_answer_arrives_in_pieces(llama_server):
    chunks: list[str] = []
    shown = ClaimStream()
    printed: list[str] = []

    def on_chunk(chunk: str) -> None:
        chunks.append(chunk)
        printed.append(shown.feed_text(chunk))

    answer = generate_answer(policy_answer(), local_provider(llama_server), on_chunk=on_chunk)
    assert len(chunks) > 10  # token by token, not one block at the end
    assert answer.usage["finish_reason"] == "stop"
    streamed = "".join(printed)
    for claim in answer.claims:
        assert claim.text in streamed
    assert_verified_or_flagged(answer)


def test_evidence_is_trimmed_by_rank_to_fit_the_servers_context(llama_server):
    filler = ("The insurer reimburses reasonable and customary charges for covered treatment "
              "as set out in the schedule of benefits. ") * 5
    clauses = [(f"9.{n}", f"Benefit {n}", "base_rule", 0.30 - n / 100, filler)
               for n in range(1, 9)]
    big = policy_answer(clauses=[*clauses, ("4.2", "Waiting periods", "base_rule", 0.95,
                                            "Cataract surgery has a waiting period of 24 "
                                            "months.")])
    provider = local_provider(llama_server)
    provider.prepare()
    budget = fit_to_context(big, provider)
    shown = [e.clause_id for e in budget.answer.evidence]
    assert budget.context_tokens == llama_server.ctx
    assert 1 <= len(shown) < len(big.evidence)
    ranked = sorted(big.evidence, key=lambda e: -e.score)
    assert set(shown) == {e.clause_id for e in ranked[:len(shown)]}  # the best ones kept
    assert f"{DOC_KEY}:4.2" in shown and "lowest-ranked" in budget.note
    # the server accepts the trimmed prompt with room for the reply
    reply = provider.generate(budget.system, budget.user, None, 8)
    assert reply.input_tokens + budget.max_tokens <= llama_server.ctx


def test_the_servers_context_error_is_understood(llama_server):
    provider = local_provider(llama_server, model=MODEL_NAME)
    system, user = build_prompts(policy_answer())
    with pytest.raises(LLMContextError) as caught:
        provider.generate(system, user + "\n" + "cataract " * 2500, None, 8)
    error = caught.value
    assert error.context_tokens == llama_server.ctx and error.prompt_tokens > llama_server.ctx
    assert "llm.context_tokens" in str(error) and "\n" not in str(error)
