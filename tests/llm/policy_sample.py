"""A few short clauses of a made-up health policy, as an offline Answer: small enough
for a 135M model on a 2048-token context, real enough to cite and quote."""

from __future__ import annotations

from clausegraph.models import Answer, EvidenceClause, Quote

DOC_KEY = "policy"
QUESTION = "What is the waiting period for cataract surgery?"

POLICY = [
    # number, heading, group, score, text
    ("4.2", "Waiting periods", "base_rule", 0.91,
     "Expenses for cataract surgery are covered only after a waiting period of 24 months "
     "of continuous coverage from the first policy inception."),
    ("2.14", "Waiting Period", "definition", 0.55,
     "Waiting Period means the time during which benefits are not available for a "
     "specified treatment."),
    ("7.1", "Accident", "exception", 0.42,
     "The waiting periods do not apply to treatment needed because of an accident."),
]


def policy_answer(question: str = QUESTION,
                  clauses: list[tuple[str, str, str, float, str]] = POLICY) -> Answer:
    """An offline Answer over a few short policy clauses (spans in one made-up text)."""
    evidence, quotes, offset = [], [], 0
    for number, heading, group, score, text in clauses:
        clause_id = f"{DOC_KEY}:{number}"
        evidence.append(EvidenceClause(
            clause_id=clause_id, group=group, label=number, heading=heading,
            section="Policy wording", text=text, document="Health Policy",
            source_path="policy.pdf", doc_id="doc-policy", pages=[1],
            span=(offset, offset + len(text)), score=score, reason="test evidence",
            origin="seed"))
        quotes.append(Quote(clause_id=clause_id, text=text, span=(offset, offset + len(text))))
        offset += len(text) + 1
    return Answer(question=question, answer="(extractive)", mode="extractive", quotes=quotes,
                  evidence=evidence, chain=[])
