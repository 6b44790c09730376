"""Evidence that explains the answer (issue 27): the definitions, list neighbours and chain
shown beside a direct answer, on the shipped contracts and on a small policy wording."""

from __future__ import annotations

import pytest

from clausegraph import ClauseGraph
from clausegraph.answer.extractive import chain_to, definition_terms, governing_ids, uses_term
from clausegraph.models import ChainLink, RelationType
from tests.written_graph import written_graph

pytestmark = pytest.mark.slow

CONTRACT_QUESTIONS = [
    "Can the agreement be terminated for convenience?",
    "Which law governs the agreement?",
    "What happens to confidential information after termination?",
    "Who owns the intellectual property?",
]

POLICY = """HEALTH GUARD POLICY WORDING

1. DEFINITIONS
1.1 Hospital means any institution established for in-patient care and day care treatment of
disease or injuries and which has at least 10 in-patient beds.
1.2 Policy means this policy wording, the schedule and any endorsements attached to it.
1.3 Sum Insured means the amount shown in the schedule as the most We will pay under the Policy.
1.4 Day Care Treatment means medical treatment or a surgical procedure undertaken under general
anaesthesia in a Hospital in less than 24 hours because of technological advancement.

2. WHAT IS COVERED
2.1 We will pay the medical expenses of in-patient care in a Hospital up to the Sum Insured
shown in the schedule of the Policy.
2.2 We will pay for Day Care Treatment listed in the annexure up to the Sum Insured.

3. EXCLUSIONS
3.1 Specified disease waiting period. Expenses for the treatment of the following conditions
are excluded until the expiry of 24 months of continuous coverage after the first Policy:
(a) Cataract surgery of either eye
(b) Gall bladder removal and gall stones
(c) Hernia of any kind and hydrocele
(d) Surgery of the nasal septum and sinuses
3.2 We will not pay for cosmetic or plastic surgery unless it is needed after an accident.
"""


@pytest.fixture(scope="module")
def policy_graph(tmp_path_factory):
    return written_graph(tmp_path_factory.mktemp("explain"), {"health_guard.txt": POLICY})


def _assert_explains(graph: ClauseGraph, question: str) -> None:
    answer = graph.ask(question)
    governing = governing_ids(answer)
    by_id = {e.clause_id: e for e in answer.evidence}
    drafted = "\n".join(by_id[c].text for c in governing if c in by_id)
    for evidence in answer.group("definition"):
        terms = definition_terms(graph.index.clauses.clause(evidence.clause_id))
        terms += [link.term for link in answer.chain
                  if link.source == evidence.clause_id and link.term]
        assert evidence.clause_id in governing or any(uses_term(t, question, drafted)
                                                      for t in terms), \
            (question, evidence.label, terms)
    if answer.chain and answer.found:
        ends = {c for link in answer.chain for c in (link.source, link.target)}
        assert ends & set(answer.direct_answer_citations), (question, answer.chain)


@pytest.mark.parametrize("question", CONTRACT_QUESTIONS)
def test_contract_answers_show_only_definitions_they_use(sample_graph, question):
    _assert_explains(sample_graph, question)


def test_policy_answer_shows_definitions_it_uses(policy_graph):
    _assert_explains(policy_graph, "Is day care treatment covered?")
    _assert_explains(policy_graph, "Is cataract surgery covered in the first year?")


def test_list_neighbours_of_the_answer_are_not_its_exceptions(policy_graph):
    answer = policy_graph.ask("What is the waiting period for cataract surgery?")
    clauses = policy_graph.index.clauses
    cited = answer.direct_answer_citations if answer.found else governing_ids(answer)
    # the item is quoted (after the rule its section states for the list, when found)
    anchor = next(c for c in cited if clauses.clause(c).text.startswith("(a) Cataract"))
    neighbours = [e for e in answer.evidence if e.clause_id != anchor and
                  clauses.clause(e.clause_id).section_path == clauses.clause(anchor).section_path]
    assert neighbours, "the question should retrieve other items of the cataract list"
    for evidence in neighbours:
        assert evidence.group != "exception", evidence.label
        assert evidence.context_note == f"in the same list as {clauses.clause(anchor).label}"


def _link(source: str, target: str, type_: RelationType = RelationType.REFERS_TO) -> ChainLink:
    return ChainLink(type=type_, source=source, target=target, source_label=source,
                     target_label=target, confidence=0.9, rule_id="r", evidence="")


def test_chain_keeps_the_links_on_a_path_to_the_answer():
    links = [_link("a", "b"), _link("c", "b"), _link("d", "e"), _link("e", "f")]
    assert [(x.source, x.target) for x in chain_to(["c"], links)] == [("a", "b"), ("c", "b")]
    assert chain_to(["z"], links) == []


def test_a_definition_ends_a_path_in_the_chain():
    defines = [_link("def", "answer", RelationType.DEFINES),
               _link("def", "other", RelationType.DEFINES), _link("other", "x")]
    kept = chain_to(["answer"], defines)
    assert [(x.source, x.target) for x in kept] == [("def", "answer")]


@pytest.mark.parametrize("pronouns", ["We/Our/Us", "You, Your"])
def test_a_defined_pronoun_explains_nothing_the_question_does_not_ask(pronouns):
    governing = "We will pay for Day Care Treatment listed in the annexure. You must claim within 30 days."
    for term in pronouns.replace(",", "/").split("/"):
        term = term.strip()
        assert not uses_term(term, "Is day care treatment covered?", governing), term
        assert uses_term(term, f"Who is '{term}' in this policy?", governing), term
    assert uses_term("Day Care Treatment", "Is day care covered?", governing)


def test_a_policy_answer_leaves_out_the_definition_of_we(tmp_path):
    graph = written_graph(tmp_path, {"health_guard.txt": POLICY.replace(
        "1.4 Day Care", "1.5 We/Our/Us means Health Guard Insurance Limited.\n1.4 Day Care")})
    answer = graph.ask("Is day care treatment covered?")
    shown = [graph.index.clauses.clause(e.clause_id).text for e in answer.group("definition")]
    assert any("Day Care Treatment means" in text for text in shown), shown
    assert not any("We/Our/Us means" in text for text in shown), shown
