"""A list item is answered with the title of its list.

Policy wordings state a waiting period once, in the title of a list ("24 Months waiting
period" over "9. Cataract ..."), and an exclusion once, in a heading ("What is not
covered", "Maternity Expenses (Code - Excl 18)") over items that do not say it again. The
direct answer must quote the item the question names with the title that gives its value,
and an exclusion item with the heading that excludes it, each cited where it is written.
The same wording is generated in three styles (list labels, item markers, title wording,
exclusion heading), as in tests/answer/test_style_variants.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from written_graph import written_graph


@dataclass(frozen=True)
class ListStyle:
    exclusions: str  # the heading of the exclusions section
    code: str  # what follows the maternity heading
    lists: tuple[str, str]
    items: tuple[str, str]
    titles: tuple[str, str]  # the 24-month list's title, the 36-month list's


STYLES = {
    "roman lists": ListStyle("What is not covered", " (Code - Excl 18)", ("i.", "ii."),
                             ("1.", "2."), ("24 Months waiting period", "36 Months waiting period")),
    "lettered lists": ListStyle("EXCLUSIONS", " (Excl18)", ("(a)", "(b)"), ("(i)", "(ii)"),
                                ("Two Years Waiting Period", "Three Years Waiting Period")),
    "capital lists": ListStyle("What we don't pay for", "", ("A.", "B."), ("a)", "b)"),
                               ("Waiting period of 24 months", "Waiting period of 36 months")),
}


def policy(style: ListStyle) -> str:
    first, second = style.items
    return "\n".join([
        "HEALTH INSURANCE POLICY WORDING", "",
        "This Policy is a contract between You and Us. We will cover the medical expenses "
        "described below.", "",
        "3. What is covered", "3.1 Hospitalisation",
        "We will cover the medical expenses of in-patient care for at least 24 hours in a "
        "Hospital.", "",
        f"4. {style.exclusions}", f"4.1 Maternity Expenses{style.code}",
        f"{first} Medical treatment expenses traceable to childbirth, including caesarean "
        "sections.",
        f"{second} Expenses towards the lawful medical termination of pregnancy.",
        "4.2 Specified disease waiting period",
        "Expenses for the listed conditions are excluded until the expiry of the waiting "
        "period shown for them.",
        style.lists[0], style.titles[0], f"{first} Cataract and diseases of the lens",
        f"{second} Hernia of all types",
        style.lists[1], style.titles[1], f"{first} Joint replacement surgery of the knee or hip",
        f"{second} Osteoporosis", ""])


@pytest.fixture(scope="module")
def list_graph(tmp_path_factory):
    return written_graph(tmp_path_factory.mktemp("list-titles"), {
        f"policy-{i}.txt": policy(style) for i, style in enumerate(STYLES.values())})


def _ask(graph, style_name: str, question: str):
    index = list(STYLES).index(style_name)
    answer = graph.ask(question, documents=[f"policy-{index}.txt"])
    assert answer.found, [n.text for n in answer.direct.nearest]
    return answer


def _cited_as_written(graph, answer) -> None:
    """Every line of the direct answer is the document's own text at its span."""
    for line in answer.direct.lines:
        clause = graph.index.clauses.clause(line.clause_id)
        document = graph.index.clauses.document(clause.doc_id)
        start, end = line.span
        assert " ".join(document.text[start:end].split()) == line.text


@pytest.mark.slow
@pytest.mark.parametrize("style_name", STYLES)
@pytest.mark.parametrize(("question", "item", "title"), [
    ("What is the waiting period for hernia?", "Hernia of all types", 0),
    ("How long must I wait before cataract surgery is covered?", "Cataract", 0),
    ("What is the waiting period for knee replacement?", "knee or hip", 1),
])
def test_an_item_is_answered_with_the_title_that_gives_its_value(
        list_graph, style_name, question, item, title):
    style = STYLES[style_name]
    answer = _ask(list_graph, style_name, question)
    text = answer.direct_answer
    assert item in text and style.titles[title] in text, text
    assert style.titles[1 - title] not in text, text
    _cited_as_written(list_graph, answer)
    # a title quoted apart is flagged as what the answer is read under; the citation opens
    # the item (a title merged into its list's first item is quoted with it)
    heads = [line.heads for line in answer.direct.lines]
    assert heads == sorted(heads, reverse=True)
    assert item in answer.direct.answering_line().text


@pytest.mark.slow
@pytest.mark.parametrize("style_name", STYLES)
def test_an_exclusion_item_is_answered_with_the_heading_that_excludes_it(list_graph, style_name):
    style = STYLES[style_name]
    answer = _ask(list_graph, style_name, "Is childbirth covered?")
    text = answer.direct_answer
    assert "traceable to childbirth" in text
    assert style.exclusions in text, text
    assert "Maternity Expenses" in text, text
    _cited_as_written(list_graph, answer)
    # the item refuses nothing in words of its own: the heading it is quoted under does
    assert answer.verdict is not None and answer.verdict.text == "No: excluded", answer.verdict


@pytest.mark.slow
@pytest.mark.parametrize("style_name", STYLES)
def test_an_exclusion_question_is_answered_with_the_heading_that_excludes_the_item(
        list_graph, style_name):
    # asked the other way round ("excluded?", no word of cover): the same heading is quoted
    # over the item, and the verdict says the exclusion in so many words
    style = STYLES[style_name]
    answer = _ask(list_graph, style_name, "Is childbirth excluded?")
    assert "traceable to childbirth" in answer.direct_answer
    assert style.exclusions in answer.direct_answer, answer.direct_answer
    _cited_as_written(list_graph, answer)
    assert answer.verdict is not None and answer.verdict.text == "Yes: excluded", answer.verdict
