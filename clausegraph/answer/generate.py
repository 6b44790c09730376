"""LLM answers over the same evidence the extractive answer uses, then verified.

Flow: the extractive :class:`Answer` (retrieved clauses grouped Definitions -> Base rules
-> Exceptions, plus the reasoning chain) is rendered into ``answer_system.md.j2`` and
``answer_user.md.j2``; the model must reply with JSON::

    {"claims": [{"text": ..., "citations": ["doc:7.2"], "quotes": ["verbatim phrase"]}],
     "answer_found": true}

Where the server offers structured output the answer schema (bounded: a few short claims,
citations limited to the ids shown) is sent with the request, so the model cannot write
anything else; otherwise the prompt alone asks for it. The prompt is sized to the model's
context (evidence trimmed by rank) and ``max_tokens`` to the longest reply the schema
allows. A reply cut at ``max_tokens`` keeps its complete claims; other malformed JSON gets
one repair request (the parse error and the bad reply are shown to the model); a second
failure raises :class:`LLMOutputError`, and ``ClauseGraph.ask`` falls back to the offline
answer. The claims are checked by
:func:`clausegraph.answer.verify.verify` and returned as an :class:`LLMAnswer` (an ``Answer``
with ``claims``, ``verification``, ``model`` and usage added).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from clausegraph.answer.extractive import template_values
from clausegraph.answer.verify import Claim, Verification, locate, verify
from clausegraph.llm.base import (
    LLMContextError,
    LLMOutputError,
    LLMProvider,
    LLMResponse,
    read_json_reply,
)
from clausegraph.models import Answer, Clause, Quote
from clausegraph.text.templates import render, template_hash
from clausegraph.text.tokenize import tokenize

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
        output = ModelOutput.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise ValueError(f"JSON does not match the schema: {where}: {first['msg']}") from None
    if output.answer_found and says_not_answered(output.claims):
        output.answer_found = False  # "answer_found": true over "the documents do not answer"
    return output


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
    _OPEN_TEXT = re.compile(r'"text"\s*:\s*"')

    def __init__(self) -> None:
        self.buffer = ""
        self.emitted = 0
        self.shown: list[int] = []  # characters of each claim text already handed out

    def feed(self, chunk: str) -> list[str]:
        self.buffer += chunk
        found = self._TEXT.findall(self.buffer)
        new = found[self.emitted:]
        self.emitted = len(found)
        return [json.loads(f'"{raw}"') for raw in new]

    def feed_text(self, chunk: str) -> str:
        """The claim text that ``chunk`` adds, as it arrives ('- ' starts each claim).

        >>> s = ClaimStream()
        >>> s.feed_text('{"claims": [{"text": "A party may term') + s.feed_text('inate."')
        '- A party may terminate.'
        """
        self.buffer += chunk
        out: list[str] = []
        for number, match in enumerate(self._OPEN_TEXT.finditer(self.buffer)):
            text = _partial_string(self.buffer[match.end():])
            if number == len(self.shown):
                self.shown.append(0)
                out.append("\n- " if number else "- ")
            out.append(text[self.shown[number]:])
            self.shown[number] = len(text)
        return "".join(out)


def _partial_string(raw: str) -> str:
    """The decoded JSON string starting at ``raw`` (after its opening quote), up to its
    closing quote or, while it is still arriving, up to the last complete character."""
    end, escaped = len(raw), False
    for position, char in enumerate(raw):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"':
            end = position
            break
    body = raw[:end]
    for cut in range(len(body), max(len(body) - 6, -1), -1):  # an escape may be incomplete
        try:
            return json.loads(f'"{body[:cut]}"')
        except json.JSONDecodeError:
            continue
    return ""


# -- schema and token budget ---------------------------------------------------------------

MAX_CLAIMS = 3
CLAIM_CHARS = 240
QUOTES_PER_CLAIM = 2
QUOTE_CHARS = 160
CITATIONS_PER_CLAIM = 2
CHARS_PER_OUTPUT_TOKEN = 3.0  # JSON punctuation and ids tokenise densely
PROMPT_MARGIN = 32  # chat-template tokens around the messages
MIN_OUTPUT_TOKENS = 128


def answer_schema(clause_ids: list[str]) -> dict[str, Any]:
    """ANSWER_SCHEMA bounded for constrained decoding: few short claims, and citations
    limited to the clause ids shown (a constrained model cannot invent one)."""
    schema = json.loads(json.dumps(ANSWER_SCHEMA))
    claims = schema["properties"]["claims"]
    claims["maxItems"] = MAX_CLAIMS
    item = claims["items"]["properties"]
    item["text"]["maxLength"] = CLAIM_CHARS
    item["citations"]["maxItems"] = CITATIONS_PER_CLAIM
    if clause_ids:
        item["citations"]["items"]["enum"] = list(clause_ids)
    item["quotes"]["maxItems"] = QUOTES_PER_CLAIM
    item["quotes"]["items"]["maxLength"] = QUOTE_CHARS
    return schema


def schema_max_tokens(clause_ids: list[str]) -> int:
    """Tokens of the longest reply :func:`answer_schema` allows: max_tokens never cuts it."""
    longest_id = max((len(c) for c in clause_ids), default=40)
    claim = (CLAIM_CHARS + CITATIONS_PER_CLAIM * (longest_id + 4)
             + QUOTES_PER_CLAIM * (QUOTE_CHARS + 4) + 48)  # 48: keys and punctuation
    return int((MAX_CLAIMS * claim + 32) / CHARS_PER_OUTPUT_TOKEN) + 1


class Budget(BaseModel):
    """What one answer request was sized to."""

    answer: Any = Field(description="the Answer whose evidence the model is shown")
    system: str
    user: str
    max_tokens: int
    context_tokens: int | None = None
    prompt_tokens: int = 0
    note: str | None = None


def fit_to_context(base: Answer, provider: LLMProvider) -> Budget:
    """Prompts for ``base``, with evidence dropped lowest-ranked first until prompt plus
    ``max_tokens`` fit the model's context (when it is known)."""
    clause_ids = [e.clause_id for e in base.evidence]
    wanted = schema_max_tokens(clause_ids)
    if provider.config.max_output_tokens:
        wanted = min(wanted, provider.config.max_output_tokens)
    context = provider.context_window()
    by_rank = sorted(base.evidence, key=lambda e: -e.score)
    keep = len(by_rank)
    system_tokens = None  # the system prompt does not depend on the evidence
    while True:
        kept_ids = {e.clause_id for e in by_rank[:keep]}
        shown = _with_evidence(base, kept_ids)
        system, user = build_prompts(shown)
        if system_tokens is None:
            system_tokens = provider.count_tokens(system)
        prompt_tokens = system_tokens + provider.count_tokens(user) + PROMPT_MARGIN
        if context is None or prompt_tokens + wanted <= context or keep == 1:
            break
        keep -= 1
    max_tokens = wanted
    if context is not None and prompt_tokens + wanted > context:
        max_tokens = context - prompt_tokens
        if max_tokens < MIN_OUTPUT_TOKENS:
            raise LLMContextError(
                f"{provider.name}: even the best clause alone ({prompt_tokens} prompt tokens) "
                f"leaves no room to answer in the {context}-token context of model "
                f"{provider.model!r}; use a model with a larger context (llm.context_tokens)",
                provider=provider.name, model=provider.model, context_tokens=context)
    note = None
    if keep < len(by_rank):
        note = (f"{provider.name}: the model's context ({context} tokens) holds {keep} of the "
                f"{len(by_rank)} evidence clauses; the {len(by_rank) - keep} lowest-ranked were "
                "left out of the prompt")
    return Budget(answer=shown, system=system, user=user, max_tokens=max_tokens,
                  context_tokens=context, prompt_tokens=prompt_tokens, note=note)


def _with_evidence(base: Answer, kept: set[str]) -> Answer:
    if len(kept) == len(base.evidence):
        return base
    return base.model_copy(update={
        "evidence": [e for e in base.evidence if e.clause_id in kept],
        "chain": [c for c in base.chain if c.source in kept and c.target in kept],
        "quotes": [q for q in base.quotes if q.clause_id in kept],
    })


# -- the answer ----------------------------------------------------------------------------


def _repair_message(user: str, reply: str, error: str) -> str:
    return (
        f"{user}\n\n# Correction\nYour previous reply could not be used: {error}. It was:\n"
        f"<<<REPLY\n{_defang(reply[:4000])}\nREPLY>>>\n"
        f"Reply again with only the JSON object described in the system message: at most "
        f"{MAX_CLAIMS} short claims, each closing its quotes and brackets."
    )


def _repair_request(provider: LLMProvider, budget: Budget, reply: str,
                    error: str) -> tuple[str, int]:
    """The repair message and its max_tokens, within the context: the bad reply is quoted
    shorter, then the reply allowance shrinks, rather than overflowing the context."""
    context = budget.context_tokens
    for excerpt in (1500, 600, 200):
        message = _repair_message(budget.user, reply[:excerpt], error)
        if context is None:
            return message, budget.max_tokens
        room = context - (budget.prompt_tokens - provider.count_tokens(budget.user)
                          + provider.count_tokens(message))
        if room >= min(budget.max_tokens, MIN_OUTPUT_TOKENS):
            return message, min(budget.max_tokens, room)
    return message, max(room, 1)


def _ask(provider: LLMProvider, budget: Budget, schema: dict,
         on_chunk: Callable[[str], None] | None) -> LLMResponse:
    if on_chunk is None:
        return provider.generate(budget.system, budget.user, schema, budget.max_tokens)
    parts: list[str] = []
    started = time.perf_counter()
    for chunk in provider.stream(budget.system, budget.user, schema, budget.max_tokens):
        parts.append(chunk)
        on_chunk(chunk)
    return LLMResponse(text="".join(parts), provider=provider.name, model=provider.model,
                       finish_reason=provider.last_finish_reason,
                       seconds=round(time.perf_counter() - started, 3),
                       structured=provider.wants_schema())


def _first_reply(base: Answer, provider: LLMProvider, on_chunk: Callable[[str], None] | None,
                 warnings: list[str]) -> tuple[Budget, dict, LLMResponse]:
    """Size the prompt, send it; when the server says it is too long, learn its context
    from the error, trim and send once more."""
    budget = fit_to_context(base, provider)
    schema = answer_schema([e.clause_id for e in budget.answer.evidence])
    try:
        return budget, schema, _ask(provider, budget, schema, on_chunk)
    except LLMContextError as exc:
        server = provider.server
        if exc.prompt_tokens:
            prompt_chars = len(budget.system) + len(budget.user)
            server.chars_per_token = max(1.5, 0.9 * prompt_chars / exc.prompt_tokens)
        learnt = exc.context_tokens or int(0.75 * budget.prompt_tokens)
        if budget.context_tokens is not None and learnt >= budget.context_tokens \
                and not exc.prompt_tokens:
            raise  # nothing new learnt: trimming again would send the same prompt
        server.context_tokens = learnt
        budget = fit_to_context(base, provider)
        schema = answer_schema([e.clause_id for e in budget.answer.evidence])
        warnings.append(f"{provider.name}: the server's context is {learnt} tokens "
                        "(learnt from its error); the prompt was trimmed to fit")
        return budget, schema, _ask(provider, budget, schema, on_chunk)


def generate_answer(
    base: Answer,
    provider: LLMProvider,
    *,
    on_chunk: Callable[[str], None] | None = None,
    clause_lookup: Callable[[str], Clause] | None = None,
    graph_edges: list[Any] | None = None,
) -> LLMAnswer:
    """Ask ``provider`` to answer from ``base``'s evidence; parse, repair once, verify.

    The prompt is sized to the model's context (lowest-ranked evidence left out first)
    and ``max_tokens`` to the largest reply the schema allows. ``on_chunk`` streams the
    raw reply (see :class:`ClaimStream`); ``clause_lookup`` (``ClauseIndex.clause``) maps
    quotes to exact document offsets through the clause's segments; ``graph_edges`` adds
    the unretrieved-exception check to verification. Raises :class:`LLMError` when no
    usable reply came back (the caller falls back to ``base``).
    """
    provider.prepare()
    warnings: list[str] = []
    budget, schema, first = _first_reply(base, provider, on_chunk, warnings)
    if budget.note:
        warnings.append(budget.note)
    shown = budget.answer
    responses = [first]
    output, first_error = _read_reply(first, budget, warnings)
    if output is None:
        repair, max_tokens = _repair_request(provider, budget, first.text, first_error)
        responses.append(provider.generate(budget.system, repair, schema, max_tokens))
        output, second_error = _read_reply(responses[1], budget, warnings)
        if output is None:
            raise LLMOutputError(
                f"{provider.name}: model {provider.model!r} did not return the answer JSON "
                f"after one repair request ({second_error}; first reply: {first_error}); "
                "use --llm none for the extractive answer",
                provider=provider.name, model=provider.model,
            )
    verification = verify(output.claims, shown.evidence, shown.chain, graph_edges or (),
                          answer_found=output.answer_found,
                          answer_hint=None if output.answer_found else answer_hint(base))
    known = {e.clause_id for e in shown.evidence}
    return LLMAnswer(
        **shown.model_dump(exclude={"answer", "mode", "quotes", "warnings"}),
        answer=answer_text(output, known),
        mode=provider.name,
        quotes=_quotes(output.claims, shown, clause_lookup),
        claims=output.claims,
        answer_found=output.answer_found,
        verification=verification,
        model=provider.label,
        template_hashes=prompt_hashes(),
        usage=_usage(responses, budget, len(base.evidence)),
        warnings=list(dict.fromkeys([*base.warnings, *provider.notes, *warnings])),
    )


def _read_reply(response: LLMResponse, budget: Budget,
                warnings: list[str]) -> tuple[ModelOutput | None, str]:
    """The parsed reply, or (None, why not). A reply cut at max_tokens keeps its complete
    claims."""
    try:
        return parse_output(response.text), ""
    except ValueError as error:
        reason = str(error)
    finish = str(response.finish_reason or "")
    if finish and finish.lower() != "stop":  # e.g. MAX_TOKENS, SAFETY, length
        reason += f" (finish reason {finish})"
    if finish.lower() in ("length", "max_tokens"):
        claims = salvage_claims(response.text)
        if claims:
            warnings.append(
                f"the reply was cut at max_tokens={budget.max_tokens} (finish reason {finish}); "
                f"its {len(claims)} complete claim{'s' * (len(claims) != 1)} were kept")
            return ModelOutput(claims=claims, answer_found=True), reason
    return None, reason


def salvage_claims(text: str) -> list[Claim]:
    """The complete claim objects at the start of a reply that was cut off.

    >>> salvage_claims('{"claims": [{"text": "A.", "citations": [], "quotes": []}, {"te')
    [Claim(text='A.', citations=[], quotes=[])]
    """
    match = re.search(r'"claims"\s*:\s*\[', text)
    if not match:
        return []
    decoder = json.JSONDecoder()
    position, claims = match.end(), []
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        try:
            value, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            return claims
        try:
            claims.append(Claim.model_validate(_clean_claim(value)))
        except ValidationError:
            return claims


_NOT_ANSWERED = re.compile(
    r"\b(do(es)?\s+not|don't|doesn't|cannot|can't|no\b)[^.]{0,40}\b(answer|mention|address|"
    r"specify|contain|say|state|provide|information)", re.IGNORECASE)


def says_not_answered(claims: list[Claim]) -> bool:
    """Every claim only says the documents do not answer (a reply with answer_found true
    that answers nothing)."""
    return bool(claims) and all(_NOT_ANSWERED.search(c.text) for c in claims)


def answer_hint(base: Answer) -> tuple[str, str] | None:
    """(clause id, sentence) where the offline answer finds what was asked, or None.

    The direct answer when the offline answer has one; else the extractive quote that
    holds at least two thirds (and two or more) of the question's content words.
    """
    direct = getattr(base, "direct_quote", None)  # the offline answer's deciding sentence
    if direct:
        cited = list(getattr(base, "direct_answer_citations", None) or [])
        first = cited[0] if cited else (base.quotes[0] if base.quotes else None)
        clause_id = first if isinstance(first, str) else getattr(first, "clause_id", "")
        return clause_id, str(direct)
    asked = set(tokenize(base.question))
    if len(asked) < 2:
        return None
    best: tuple[float, str, str] | None = None
    for quote in base.quotes:
        covered = len(asked & set(tokenize(quote.text))) / len(asked)
        if covered >= 2 / 3 and (best is None or covered > best[0]):
            best = (covered, quote.clause_id, quote.text)
    return (best[1], best[2]) if best else None


_BRACKETED = re.compile(r"\s*\[([^\[\]\s]{1,40})\](?!\()")


def answer_text(output: ModelOutput, known_ids: set[str] | None = None) -> str:
    """Claims as Markdown bullets, each ending with its [clause-id] citations.

    Only ids of the evidence are rendered as citations: junk such as '[quotes]' is
    dropped from the text (verification still reports it). A reply that does not answer
    shows one sentence, with the closest clauses it cited.
    """
    def cited(claim: Claim) -> list[str]:
        return [c for c in claim.cited_ids() if known_ids is None or c in known_ids]

    if not output.answer_found:
        closest = list(dict.fromkeys(c for claim in output.claims for c in cited(claim)))
        near = f" Closest clauses: {' '.join(f'[{c}]' for c in closest)}" if closest else ""
        return NOT_ANSWERED + near
    lines = []
    for claim in output.claims:
        text = claim.text.strip()
        if known_ids is not None:
            text = _BRACKETED.sub(
                lambda m: m.group(0) if m.group(1) in known_ids else "", text).strip()
        missing = [c for c in cited(claim) if f"[{c}]" not in text]
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


def _usage(responses: list[LLMResponse], budget: Budget, evidence_total: int) -> dict[str, Any]:
    def total(name: str) -> int | None:
        values = [getattr(r, name) for r in responses if getattr(r, name) is not None]
        return sum(values) if values else None

    return {
        "requests": len(responses),
        "repaired": len(responses) > 1,
        "repairs": len(responses) - 1,
        "structured": responses[0].structured,
        "attempts": sum(r.attempts for r in responses),
        "input_tokens": total("input_tokens"),
        "output_tokens": total("output_tokens"),
        "seconds": round(sum(r.seconds for r in responses), 3),
        "finish_reason": responses[-1].finish_reason,
        "max_tokens": budget.max_tokens,
        "context_tokens": budget.context_tokens,
        "evidence_shown": len(budget.answer.evidence),
        "evidence_total": evidence_total,
    }


def answer_with_llm(base: Answer, provider: LLMProvider | None, **kwargs: Any) -> Answer:
    """``generate_answer`` when a provider is configured, else ``base`` (extractive)."""
    return base if provider is None else generate_answer(base, provider, **kwargs)
