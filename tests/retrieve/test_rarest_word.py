"""The clauses holding a question's rarest word join an answer's candidates.

"What is the waiting period for hernia?" of a policy whose waiting-period clauses repeat
"waiting period" while "hernia" is named once, in a row of the table of listed conditions: in
a wording of hundreds of clauses retrieval may rank the clauses of the common words first, so
that its pool holds no clause naming what is asked (the ICICI and HDFC ERGO wordings,
docs/policies_bench.md, session 41). ``Retriever.rarest_word_hits`` adds the clauses BM25
ranks best for the rarest word alone; the answer quotes the row with its list's period.
Written with other subjects, periods (digits, words, both), table layouts (a grid without a
header, a headed two-column table, one column) and headings.
"""

from __future__ import annotations

import pytest
from written_graph import variant_graph

from clausegraph.api import RAREST_WORD_HITS

CONDITIONS = [
    "Cataract", "Benign prostatic hypertrophy", "Hysterectomy for menorrhagia", "Fibroids",
    "Varicose veins", "Kidney stones", "Gall bladder stones", "Sinusitis", "Tonsillitis",
    "Hernia of all types", "Hydrocele", "Fistula in anus", "Piles", "Joint replacement",
    "Osteoarthritis", "Gout and rheumatism", "Polycystic ovarian disease", "Skin tumours",
    "Spinal disorders", "Nasal septum deviation", "Adenoidectomy", "Tympanoplasty",
    "Dilatation and curettage", "Myomectomy", "Cholecystectomy", "Endometriosis",
]

# (the period as the rule states it, as the answer gives it, columns of the table, its
# header row, the heading of the waiting periods)
VARIANTS = [
    ("24 months", "24 months", 3, None, "Waiting periods"),
    ("two (2) years", "2 years", 2, ("Illnesses", "Procedures"), "WHAT WE DO NOT PAY AT FIRST"),
    ("thirty-six (36) months", "36 months", 1, ("List of conditions",), "Exclusions - waiting"),
]
# what is asked about, and the row text that names it
SUBJECTS = [("hernia", "Hernia of all types"), ("myomectomy", "Myomectomy"),
            ("tonsillitis", "Tonsillitis")]


def policy(period: str, columns: int, header: tuple[str, ...] | None, heading: str) -> str:
    rows = [CONDITIONS[i:i + columns] for i in range(0, len(CONDITIONS), columns)]
    head = "<tr>" + "".join(f"<th>{h}</th>" for h in header) + "</tr>" if header else ""
    body = "\n".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    # other waiting periods, each with its own period, as wordings state them
    others = "\n".join(
        f"<p>5.{n} The waiting period for {what} is {months} months from the first policy; "
        "it applies afresh to any increase of the sum insured.</p>"
        for n, (what, months) in enumerate([
            ("maternity expenses", 9), ("bariatric surgery", 36), ("obesity treatment", 36),
            ("pre-existing diseases", 48), ("mental illness", 12), ("organ donors", 3)], 3))
    # and the benefits a wording has many of, which say nothing of waiting
    benefits = "\n".join(
        f"<p>4.{n} We will pay the reasonable charges for {what} incurred during "
        "hospitalisation, up to the limit shown in the schedule.</p>"
        for n, what in enumerate(["room and boarding", "nursing", "intensive care",
                                  "surgeon's fees", "anaesthesia", "blood and oxygen",
                                  "operation theatre", "medicines and drugs", "diagnostics",
                                  "prosthetic devices", "ambulance transport",
                                  "day care procedures", "domiciliary treatment",
                                  "organ donor expenses", "ayush treatment",
                                  "pre-hospitalisation", "post-hospitalisation",
                                  "health check-ups", "second opinions", "home care"], 2))
    return f"""<html><head><title>Health Insurance Policy</title></head><body>
<h1>HEALTH INSURANCE POLICY</h1>
<h2>4. Benefits</h2>
<p>4.1 We will indemnify the in-patient hospitalisation expenses of the insured person.</p>
{benefits}
<h2>5. {heading}</h2>
<h3>5.1 30-day waiting period</h3>
<p>(a) Expenses related to the treatment of any illness within 30 days from the first policy
commencement date shall be excluded except claims arising due to an accident.</p>
<h3>5.2 Specified disease/procedure waiting period</h3>
<p>(a) Expenses related to the treatment of the listed conditions, surgeries or treatments
shall be excluded until the expiry of {period} of continuous coverage after the date of
inception of the first policy with us. The listed conditions are:</p>
<table>{head}
{body}
</table>
{others}
<h2>8. Claims</h2>
<p>8.1 You must tell us of a claim within seven days of discharge.</p>
</body></html>"""


@pytest.fixture(scope="module")
def listed_graph(tmp_path_factory):
    texts = [policy(period, columns, header, heading)
             for period, _, columns, header, heading in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("rarest-word"), texts, suffix=".html")


def _document(variant: int) -> list[str]:
    return [f"policy-{variant}.html"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("subject", range(len(SUBJECTS)))
def test_the_clause_naming_the_rarest_word_joins_the_hits(listed_graph, variant, subject):
    asked, row = SUBJECTS[subject]
    question = f"What is the waiting period for {asked}?"
    # a pool of the clauses that repeat "waiting period", as a long wording's retrieval
    # gives (this short one ranks the row first)
    results = [r for r in listed_graph.retrieve(question, documents=_document(variant), top_k=8)
               if asked not in r.clause.text.lower()][:3]
    assert len(results) == 3
    added = listed_graph.retriever.rarest_word_hits(question, results, RAREST_WORD_HITS)
    naming = [r for r in added if row in r.clause.text]
    assert len(naming) == 1, [r.clause_id for r in added]
    hit = naming[0]
    assert hit.origin == "rare-word" and hit.rare_word in asked, hit
    assert hit.bm25 > 0 and hit.reason().startswith("holds the question's rarest word"), hit
    # it joins at the median score retrieval gave the document: among its hits, not above
    assert hit.score == pytest.approx(sorted(r.score for r in results)[1])
    assert not {r.clause_id for r in added} & {r.clause_id for r in results}


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("subject", range(len(SUBJECTS)))
def test_the_answer_quotes_the_row_with_its_lists_period(listed_graph, variant, subject):
    asked, row = SUBJECTS[subject]
    _, period, *_ = VARIANTS[variant]
    answer = listed_graph.ask(f"What is the waiting period for {asked}?",
                              documents=_document(variant))
    assert answer.direct.found, answer.direct
    said = " ".join((answer.direct_answer or "").split())
    assert said.startswith(period), said
    assert row in said, said


@pytest.mark.slow
def test_no_word_of_the_question_in_the_document_adds_nothing(listed_graph):
    question = "What is the waiting period for hernia?"
    results = listed_graph.retrieve(question, documents=_document(0), top_k=2)
    assert listed_graph.retriever.rarest_word_hits("zygomorphic quixotry", results, 2) == []


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("subject", range(len(SUBJECTS)))
def test_the_row_outranks_waiting_periods_of_other_things_in_the_focus(
        listed_graph, variant, subject):
    """The row read with its list's rule ("... excluded until the expiry of 24 months": a
    waiting period) holds what is asked and the period asked for; a clause that says
    "waiting period" of something else holds only the common words."""
    from clausegraph.answer.direct import focus_scores

    asked, row = SUBJECTS[subject]
    question = f"What is the waiting period for {asked}?"
    doc_id = next(d for d, entry in listed_graph.index.clauses.documents().items()
                  if entry.source_path.endswith(_document(variant)[0]))
    clauses = listed_graph.index.clauses.document_clauses(doc_id)
    naming = next(c for c in clauses if row in c.text)
    others = [c for c in clauses if "waiting period for" in c.text]
    assert len(others) == 6
    scores = focus_scores(listed_graph.index, question, [naming, *others])
    assert scores[0] > max(scores[1:]), scores


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("subject", range(len(SUBJECTS)))
def test_a_listed_condition_asked_with_no_time_waits(listed_graph, variant, subject):
    """"Is hernia covered?" of a policy that names hernia only in its waiting list: covered
    once the list's wait has run (no benefit clause names it; the list is the answer)."""
    asked, row = SUBJECTS[subject]
    shown = {"24 months": "24-month", "2 years": "2-year", "36 months": "36-month"}
    answer = listed_graph.ask(f"Is {asked} covered?", documents=_document(variant))
    assert answer.verdict is not None, answer.direct
    assert answer.verdict.text == f"Yes, after a {shown[VARIANTS[variant][1]]} waiting period", \
        answer.verdict.text
    assert row in " ".join((answer.direct_answer or "").split()), answer.direct_answer
