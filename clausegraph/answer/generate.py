"""LLM answers over the same evidence the extractive answer uses, then verified.

Flow: the extractive :class:`Answer` (retrieved clauses grouped Definitions -> Base rules
-> Exceptions, plus the reasoning chain) is rendered into ``answer_system.md.j2`` and
``answer_user.md.j2``; the model must reply with JSON::

    {"claims": [{"text": ..., "citations": ["doc:7.2"], "quotes": ["verbatim phrase"]}],
     "answer_found": true}

Malformed JSON gets one repair request (the parse error and the bad reply are shown to
the model); a second failure raises :class:`LLMOutputError`. The claims are checked by
:func:`clausegraph.verify.verify` and returned as an :class:`LLMAnswer` (an ``Answer``
with ``claims``, ``verification``, ``model`` and usage added).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from clausegraph.answer.extractive import template_values
from clausegraph.answer.verify import Claim, Verification, locate, verify
from clausegraph.llm.base import LLMOutputError, LLMProvider, LLMResponse, read_json_reply
from clausegraph.models import Answer, Clause, Quote
from clausegraph.text.templates import render, template_hash

SYSTEM_TEMPLATE = "answer_system.md.j2"
USER_TEMPLATE = "answer_user.md.j2"
PROMPT_TEMPLATES = (SYSTEM_TEMPLATE, USER_TEMPLATE, "context.md.j2")
NOT_ANSWERED = "The provided documents do not answer this question."

ANSWER_SCHEMA: dict[str, Any] = {
    "title": "clausegraph_answer",
    "type": "object",
    "properties": {
        "claims": {
            "type": "array",
            "description": "the answer as short statements, each backed by clauses",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "one statement, plain English"},
                    "citations": {
                        "type": "array", "items": {"type": "string"},
                        "description": "clause ids from the evidence, e.g. 'doc:7.2'",
                    },
                    "quotes": {
                        "type": "array", "items": {"type": "string"},
                        "description": "phrases copied verbatim from the cited clauses",
                    },
                },
                "required": ["text", "citations", "quotes"],
            },
        },
        "answer_found": {
            "type": "boolean",
            "description": "false when the evidence does not answer the question",
        },
    },
    "required": ["claims", "answer_found"],
}


class ModelOutput(BaseModel):
    """The JSON the model must return."""

    claims: list[Claim]
    answer_found: bool = True


class LLMAnswer(Answer):
    """An :class:`Answer` written by a language model, with its claims checked."""

    claims: list[Claim] = Field(default_factory=list)
    answer_found: bool = True
    verification: Verification | None = None
    model: str | None = Field(default=None, description="'<provider>:<model>'")
    template_hashes: dict[str, str] = Field(default_factory=dict)
    usage: dict[str, Any] = Field(default_factory=dict, description="tokens, attempts, seconds")


# -- prompt ------------------------------------------------------------------------------


def _defang(text: str) -> str:
    """Stop clause text from closing or opening a fence: '>>>' and '<<<' cannot appear."""
    return text.replace("<<<", "\u2039\u2039\u2039").replace(">>>", "\u203a\u203a\u203a")


def build_prompts(answer: Answer) -> tuple[str, str]:
    """(system, user) messages for the evidence of ``answer``."""
    values = template_values(answer)
    values["groups"] = [
        (title, [e.model_copy(update={"text": _defang(e.text)}) for e in items])
        for title, items in values["groups"]
    ]
    system = render(SYSTEM_TEMPLATE, schema=json.dumps(ANSWER_SCHEMA, indent=1))
    user = render(USER_TEMPLATE, **values)
    return system.strip(), user.strip()


def prompt_hashes() -> dict[str, str]:
    return {name: template_hash(name) for name in PROMPT_TEMPLATES}


# -- parsing -----------------------------------------------------------------------------




def parse_output(text: str) -> ModelOutput:
    """Parse the model's reply, tolerating code fences, prose around the object,
    bracketed ids ("[doc:7.2]") and a single string where a list is expected.

    Raises ValueError with a short reason when no valid object can be read.
    """
    data = read_json_reply(text)
    if isinstance(data, list):
        data = {"claims": data}
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    claims = data.get("claims")
    if isinstance(claims, list):
        data["claims"] = [_clean_claim(c) for c in claims]
    try:
        return ModelOutput.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise ValueError(f"JSON does not match the schema: {where}: {first['msg']}") from None


def _clean_claim(claim: Any) -> Any:
    if isinstance(claim, str):
        return {"text": claim}
    if not isinstance(claim, dict):
        return claim
    claim = dict(claim)
    for key in ("citations", "quotes"):
        value = claim.get(key)
        if isinstance(value, str):
            value = [value]
        if value is None:
            value = []
        if isinstance(value, list) and key == "citations":
            value = [str(v).strip().strip("[]").strip() for v in value]
        claim[key] = value
    return claim


class ClaimStream:
    """Pull finished claim texts out of a JSON reply while it streams in.

    >>> s = ClaimStream()
    >>> s.feed('{"claims": [{"text": "A party may term')
    []
    >>> s.feed('inate.", "citations": []}')
    ['A party may terminate.']
    """

    _TEXT = re.compile(r'"text"\s*:\s*"((?:[^"\\]|\\.)*)"')

    def __init__(self) -> None:
        self.buffer = ""
        self.emitted = 0

    def feed(self, chunk: str) -> list[str]:
        self.buffer += chunk
        found = self._TEXT.findall(self.buffer)
        new = found[self.emitted:]
        self.emitted = len(found)
        return [json.loads(f'"{raw}"') for raw in new]


# -- the answer ----------------------------------------------------------------------------


def _repair_message(user: str, reply: str, error: str) -> str:
    return (
        f"{user}\n\n# Correction\nYour previous reply could not be used: {error}. It was:\n"
        f"<<<REPLY\n{_defang(reply[:4000])}\nREPLY>>>\n"
        "Reply again with only the JSON object described in the system message."
    )


def _ask(provider: LLMProvider, system: str, user: str,
         on_chunk: Callable[[str], None] | None) -> LLMResponse:
    if on_chunk is None:
        return provider.generate(system, user, ANSWER_SCHEMA)
    parts: list[str] = []
    for chunk in provider.stream(system, user, ANSWER_SCHEMA):
        parts.append(chunk)
        on_chunk(chunk)
    return LLMResponse(text="".join(parts), provider=provider.name, model=provider.model)


def generate_answer(
    base: Answer,
    provider: LLMProvider,
    *,
    on_chunk: Callable[[str], None] | None = None,
    clause_lookup: Callable[[str], Clause] | None = None,
    graph_edges: list[Any] | None = None,
) -> LLMAnswer:
    """Ask ``provider`` to answer from ``base``'s evidence; parse, repair once, verify.

    ``on_chunk`` streams the raw reply (see :class:`ClaimStream`); ``clause_lookup``
    (``ClauseIndex.clause``) maps quotes to exact document offsets through the clause's
    segments; ``graph_edges`` adds the unretrieved-exception check to verification.
    """
    system, user = build_prompts(base)
    responses = [_ask(provider, system, user, on_chunk)]
    try:
        output = parse_output(responses[0].text)
    except ValueError as error:
        finish = str(responses[0].finish_reason or "")
        first_error = str(error)
        if finish and finish.lower() != "stop":  # e.g. MAX_TOKENS, SAFETY, length
            first_error += f" (finish reason {finish})"
        responses.append(provider.generate(
            system, _repair_message(user, responses[0].text, first_error), ANSWER_SCHEMA))
        try:
            output = parse_output(responses[1].text)
        except ValueError as second_error:
            raise LLMOutputError(
                f"{provider.name}: model {provider.model!r} did not return the answer JSON "
                f"after one repair request ({second_error}; first reply: {first_error}); "
                "use --llm none for the extractive answer",
                provider=provider.name, model=provider.model,
            ) from None
    verification = verify(output.claims, base.evidence, base.chain, graph_edges or (),
                          answer_found=output.answer_found)
    return LLMAnswer(
        **base.model_dump(exclude={"answer", "mode", "quotes"}),
        answer=answer_text(output),
        mode=provider.name,
        quotes=_quotes(output.claims, base, clause_lookup),
        claims=output.claims,
        answer_found=output.answer_found,
        verification=verification,
        model=provider.label,
        template_hashes=prompt_hashes(),
        usage=_usage(responses),
    )


def answer_text(output: ModelOutput) -> str:
    """Claims as Markdown bullets, each ending with its [clause-id] citations."""
    lines = [] if output.answer_found else [NOT_ANSWERED]
    for claim in output.claims:
        text = claim.text.strip()
        if not output.answer_found and text.rstrip(".") == NOT_ANSWERED.rstrip("."):
            continue
        missing = [c for c in claim.citations if f"[{c}]" not in text]
        cites = " ".join(f"[{c}]" for c in missing)
        lines.append(f"- {text} {cites}".rstrip())
    return "\n".join(lines) if lines else NOT_ANSWERED


def _quotes(claims: list[Claim], base: Answer,
            clause_lookup: Callable[[str], Clause] | None) -> list[Quote]:
    """Verbatim quotes that verification located, with document offsets."""
    evidence = {e.clause_id: e for e in base.evidence}
    quotes: list[Quote] = []
    for claim in claims:
        for phrase in claim.quotes:
            for clause_id in claim.cited_ids():
                item = evidence.get(clause_id)
                span = locate(phrase, item.text) if item else None
                if item is None or span is None:
                    continue
                start, end = span
                if clause_lookup is not None:
                    document_span = clause_lookup(clause_id).document_span(start, end)
                elif item.span[1] - item.span[0] == len(item.text):
                    document_span = (item.span[0] + start, item.span[0] + end)
                else:  # text crosses a skipped header: offsets need the clause's segments
                    document_span = item.span
                quotes.append(Quote(clause_id=clause_id, text=item.text[start:end],
                                    span=document_span))
                break
    return quotes


def _usage(responses: list[LLMResponse]) -> dict[str, Any]:
    def total(name: str) -> int | None:
        values = [getattr(r, name) for r in responses if getattr(r, name) is not None]
        return sum(values) if values else None

    return {
        "requests": len(responses),
        "repaired": len(responses) > 1,
        "attempts": sum(r.attempts for r in responses),
        "input_tokens": total("input_tokens"),
        "output_tokens": total("output_tokens"),
        "seconds": round(sum(r.seconds for r in responses), 3),
        "finish_reason": responses[-1].finish_reason,
    }


def answer_with_llm(base: Answer, provider: LLMProvider | None, **kwargs: Any) -> Answer:
    """``generate_answer`` when a provider is configured, else ``base`` (extractive)."""
    return base if provider is None else generate_answer(base, provider, **kwargs)
