"""A schedule row says in its cells whether what it names is covered.

A benefit schedule marks each item in its plan columns: "Organ donor | Plan A: Covered |
Plan B: Covered", "Acupuncture | ... Not covered", "Chiropractic care | In-network: Covered |
Out-of-network: Not covered", "Home nursing | Plan A: Not covered | Plan B: Up to 5% of
the sum insured". The cells answer "Is X covered?" as a sentence "X is covered"
would: yes, no, or partly (the column that does not cover it named). A row whose label
names more than the question ("Ambulance collar | Not payable") says nothing of what is
asked ("ambulance charges"). Written with three cell wordings and two column namings.

And "Is ... paid?" asks whether it is covered, as "Is ... covered?" does: "The Policy shall
reimburse ... emergency dental treatment ..." answers it yes.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.gate import using_gate

WORDS = [("Covered", "Not covered"), ("Included", "Not included"), ("Payable", "Not payable")]
COLUMNS = [("In-network", "Out-of-network"), ("Plan A", "Plan B")]
VARIANTS = [(words, columns) for words in WORDS for columns in COLUMNS]


def schedule(words: tuple[str, str], columns: tuple[str, str], figures: bool = False) -> str:
    """The schedule; with ``figures``, one whose rows hold a limit beside "not covered"."""
    yes, no = words
    first, second = columns
    rows = [("Home nursing", no, "Up to 5% of the sum insured"),
            ("Physiotherapy", "Up to 10 sessions", "Up to 5 sessions")] if figures else [
        ("Organ donor expenses", yes, yes), ("Acupuncture", no, no),
        ("Chiropractic care", yes, no), ("Ambulance collar", no, no)]
    return plan_page("Health Plan", "Schedule of benefits",
                     "The schedule below shows, for each item, whether the plan pays for it.",
                     ("Item", first, second), rows)


def plan_page(title: str, heading: str, lead_in: str, header: tuple[str, ...],
              rows: list[tuple[str, ...]]) -> str:
    """A plan's page in HTML: ``heading`` over ``lead_in`` and a table of ``header`` and
    ``rows``, then a claims section (so the table is not the document's last clause)."""
    def row(cells: tuple[str, ...], tag: str) -> str:
        return "<tr>" + "".join(f"<{tag}>{cell}</{tag}>" for cell in cells) + "</tr>"
    body = "\n".join(row(cells, "td") for cells in rows)
    return f"""<html><head><title>{title}</title></head><body>
<h1>{title.upper()}</h1>
<h2>{heading}</h2>
<p>{lead_in}</p>
<table>
{row(header, "th")}
{body}
</table>
<h2>Claims</h2>
<p>A claim is notified within thirty days of the treatment.</p>
</body></html>"""


@pytest.fixture(scope="module")
def rows_graph(tmp_path_factory):
    texts = [schedule(*variant) for variant in VARIANTS] + \
        [schedule(*variant, figures=True) for variant in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("row-verdicts"), texts, suffix=".html")


def _verdict(graph, variant: int, question: str) -> tuple[str, str]:
    with using_gate(None):  # what the quoted row says, not whether the gate would answer
        answer = ask_variant(graph, variant, question, suffix=".html")
    return answer.direct.verdict.text, direct_text(answer)


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_cells_of_the_row_answer(rows_graph, variant):
    _, (first, second) = VARIANTS[variant]
    said, text = _verdict(rows_graph, variant, "Are organ donor expenses covered?")
    assert said == "Yes", text
    said, text = _verdict(rows_graph, variant, "Is acupuncture covered?")
    assert said == "No: not covered", text
    said, text = _verdict(rows_graph, variant, "Is chiropractic care covered?")
    assert said == f"Partly: {second}: not covered", text
    # a figure in one column, "not covered" in the other
    said, text = _verdict(rows_graph, len(VARIANTS) + variant, "Is home nursing covered?")
    assert said == f"Partly: {first}: not covered", text


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_row_naming_more_than_the_question_does_not_answer_it(rows_graph, variant):
    said, text = _verdict(rows_graph, variant, "Are ambulance charges covered?")
    assert not said.startswith(("No", "Yes", "Partly")), (said, text)


TREATMENTS = ["emergency dental treatment", "emergency optical treatment",
              "emergency physiotherapy"]


def travel(treatment: str) -> str:
    return f"""TRAVEL INSURANCE POLICY

Section 4. {treatment.title()}
The Policy shall reimburse to the Insured Person the expenses of {treatment} during a trip
abroad, up to the limit shown in the schedule.

Section 5. Baggage delay
We will pay for essential purchases if checked-in baggage is delayed for more than twelve
hours.
"""


@pytest.fixture(scope="module")
def paid_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("paid-questions"),
                         [travel(treatment) for treatment in TREATMENTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(TREATMENTS)))
def test_is_it_paid_asks_whether_it_is_covered(paid_graph, variant):
    answer = ask_variant(paid_graph, variant, f"Is {TREATMENTS[variant]} abroad paid?")
    assert answer.direct.verdict.text == "Yes", direct_text(answer)


LIMIT_COLUMNS = ["Sub limits", "Sub-limit per policy year", "Limit"]


def modern_treatments(column: str) -> str:
    return plan_page("Group Mediclaim Policy", "Modern treatments",
                     "The following procedures are covered in the policy period within the "
                     "limits below.", ("Name of the procedure", column),
                     [("Deep brain stimulation", "10% of the sum insured, up to INR 50,000"),
                      ("Balloon sinuplasty", "Up to INR 30,000"),
                      ("Robotic surgery", "25% of the sum insured")])


@pytest.fixture(scope="module")
def limits_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("limit-columns"),
                         [modern_treatments(column) for column in LIMIT_COLUMNS],
                         suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(LIMIT_COLUMNS)))
@pytest.mark.parametrize(("item", "figure"), [("deep brain stimulation", "10%"),
                                              ("balloon sinuplasty", "30,000")])
def test_a_figure_in_a_column_of_limits_covers_up_to_it(limits_graph, variant, item, figure):
    verdict, text = _verdict(limits_graph, variant, f"Is {item} covered?")
    assert verdict.startswith("Yes") and figure in verdict, (verdict, text)
