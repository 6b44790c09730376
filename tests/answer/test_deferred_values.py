"""A value the wording gives by pointing to where it is stated is an answer.

Policy wordings and contracts often leave a figure to a schedule ("up to the limit as
specified in the Policy Schedule", "the fee set out in Exhibit A"). Asked for that figure,
the direct answer quotes the pointer rather than saying "not found"; asked for a figure the
wording does state, it quotes the figure, not a pointer elsewhere in the same document. The
pointer is written four ways, the stated figure in two currencies.
"""

from __future__ import annotations

import pytest
from written_graph import written_graph

POINTERS = ["as specified in the Policy Schedule", "set out in the Schedule of Benefits",
            "shown in the Table of Benefits", "stated in Annexure II"]
ROOM_RENT = ["1% of the Sum Insured per day", "Rs. 5,000 per day"]


def policy(pointer: str, room_rent: str) -> str:
    return "\n".join([
        "HEALTH INSURANCE POLICY WORDING", "",
        "This Policy is a contract between You and Us. We will cover the medical expenses "
        "described below, subject to its terms, conditions and exclusions.", "",
        "1. Benefits",
        f"1.1 Room Rent. We will pay room, boarding and nursing expenses up to {room_rent}.",
        "1.2 Road Ambulance. We will pay the expenses of transporting the Insured Person to "
        f"a Hospital by road ambulance in an emergency, up to the limit {pointer}.",
        "1.3 Day Care Treatment. We will pay the medical expenses of day care procedures "
        "taken in a Hospital.", "",
        "2. Claims",
        "2.1 Notice. You must tell Us of a claim within thirty days of discharge.", ""])


VARIANTS = [(p, r) for p in POINTERS for r in ROOM_RENT[:1]] + [(POINTERS[0], ROOM_RENT[1])]


@pytest.fixture(scope="module")
def pointer_graph(tmp_path_factory):
    return written_graph(tmp_path_factory.mktemp("deferred"), {
        f"policy-{i}.txt": policy(*variant) for i, variant in enumerate(VARIANTS)})


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_limit_left_to_the_schedule_is_answered_by_the_pointer(pointer_graph, variant):
    pointer, _ = VARIANTS[variant]
    answer = pointer_graph.ask("How much does the policy pay for road ambulance?",
                               documents=[f"policy-{variant}.txt"])
    assert answer.found, [n.text for n in answer.direct.nearest]
    assert pointer in " ".join(answer.direct_answer.split()), answer.direct_answer


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_stated_limit_is_answered_by_its_figure_not_a_pointer(pointer_graph, variant):
    pointer, room_rent = VARIANTS[variant]
    answer = pointer_graph.ask("What is the room rent limit?", documents=[f"policy-{variant}.txt"])
    assert answer.found
    assert room_rent in answer.direct_answer and pointer not in answer.direct_answer


@pytest.mark.parametrize("pointer", POINTERS)
def test_a_pointer_to_the_schedule_holds_the_asked_value(pointer):
    """Scored against a question asking an amount, the sentence that points to where the
    amount is stated holds the value; the same sentence without the pointer does not, and
    ranks below it."""
    from clausegraph.answer.direct import _score_sentences
    from clausegraph.models import Clause
    from clausegraph.text.tokenize import tokenize

    def best(limit: str):
        text = f"1.2 Road Ambulance. The limit for road ambulance charges is {limit}."
        clause = Clause(clause_id="d:1.2", doc_id="d", number="1.2", text=text,
                        span=(0, len(text)), segments=[(0, len(text))], pages=[1], order=0)
        weights = {t: 1.0 for t in tokenize("how much road ambulance")}
        return max(_score_sentences(clause, 0, weights, sum(weights.values()), "amount"),
                   key=lambda s: s.score)

    pointed, vague = best(f"the amount {pointer}"), best("decided by the Company")
    assert pointed.has_value and not vague.has_value
    assert pointed.score > vague.score
