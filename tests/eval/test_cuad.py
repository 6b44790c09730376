"""CUAD labels, CUAD's span metric, normalised answers and the dev benchmark's judging, on
small hand-made inputs whose results were worked out by hand (no ../shared needed)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from clausegraph.errors import ClauseGraphError
from clausegraph.eval.cuad import (
    CONFIDENCE_THRESHOLDS,
    CuadQuestion,
    Prediction,
    answer_stated,
    count_matches,
    dates_in,
    durations_in,
    first_hit,
    gold_share_held,
    holds_gold,
    load_cuad_labels,
    load_cuad_questions,
    normalise_cuad_date,
    precision_recall_curve,
    score_spans,
    span_jaccard,
    spans_match,
)
from clausegraph.eval.cuad_bench import (
    AskOutcome,
    ReviewFile,
    judge_answer,
    plan_asks,
    review_answer_right,
    score_review,
    summarise,
)

GOVERNING = "This Agreement shall be governed by the laws of the State of New York."
EXCLUSIVE = "Distributor shall be the exclusive distributor of the Products in the Territory."


def category(texts=(), answer=None):
    return {"texts": list(texts), "spans": [[0, len(t)] for t in texts],
            "located": ["exact"] * len(texts), "n_occ": [1] * len(texts), "answer": answer}


def contract(pdf, split="dev", kind="Distributor", **categories):
    return {"doc": f"cuad/{pdf[:-4]}.txt", "pdf": pdf, "contract_type": kind, "split": split,
            "csv_filename": pdf, "categories": categories}


LAW = "Governing Law"
EXCL = "Exclusivity"
RENEWAL = "Renewal Term"


@pytest.fixture
def label_file(tmp_path):
    data = {"meta": {"categories": [LAW, EXCL, RENEWAL]}, "contracts": [
        contract("Acme.pdf", **{LAW: category([GOVERNING], "New York"),
                                EXCL: category([EXCLUSIVE], "Yes"),
                                RENEWAL: category(["renew for successive one (1) year terms"],
                                                  "successive 1 year")}),
        contract("Beta.pdf", **{LAW: category(["laws of Delaware"], "Delaware"),
                                EXCL: category([], "No"), RENEWAL: category()}),
        contract("Gamma.pdf", split="train", **{LAW: category(), EXCL: category([], "No"),
                                                RENEWAL: category()}),
    ]}
    path = tmp_path / "cuad_labels.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


QUESTIONS = [
    CuadQuestion(category=LAW, description="", question="Which law governs?",
                 answer_kind="jurisdiction"),
    CuadQuestion(category=EXCL, description="", question="Is there exclusivity?",
                 answer_kind="yes_no"),
    CuadQuestion(category=RENEWAL, description="", question="Does it renew?", answer_kind="term"),
]


# -- labels ------------------------------------------------------------------------------------

def test_labels_load_typed_and_filter_by_split(label_file):
    labels = load_cuad_labels(label_file)
    assert [c.pdf for c in labels.contracts] == ["Acme.pdf", "Beta.pdf", "Gamma.pdf"]
    dev = load_cuad_labels(label_file, split="dev")
    assert [c.pdf for c in dev.contracts] == ["Acme.pdf", "Beta.pdf"]
    acme = dev.contract("Acme.pdf")
    assert acme.categories[LAW].spans == [(0, len(GOVERNING))]
    assert acme.categories[LAW].answer == "New York"
    assert not dev.contract("Beta.pdf").categories[EXCL].has_clause


def test_bad_label_and_question_files_name_the_file(tmp_path):
    with pytest.raises(ClauseGraphError, match="missing.json: no CUAD label file"):
        load_cuad_labels(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"contracts": []}', encoding="utf-8")
    with pytest.raises(ClauseGraphError, match="broken.json: not a CUAD label file"):
        load_cuad_labels(broken)
    questions = tmp_path / "questions.yaml"
    questions.write_text("categories:\n  - category: X\n", encoding="utf-8")
    with pytest.raises(ClauseGraphError, match="questions.yaml: not a CUAD question file"):
        load_cuad_questions(questions)


# -- the span metric -------------------------------------------------------------------------

def test_jaccard_strips_the_four_marks_lowercases_and_splits_slashes():
    # gold words {the, term, is, one, year}; predicted adds "(1)": 5 / 6
    assert span_jaccard("The term is one year.", "the term is one (1) year") == pytest.approx(5 / 6)
    # "and/or" becomes two words; ";" and ":" vanish: {a, and, or, b} twice
    assert span_jaccard("A and/or B;", "a: and or b") == 1.0
    # line breaks separate words (PDF text)
    assert span_jaccard("governed by the laws", "governed by\nthe laws") == 1.0
    # 2 shared words of 8: 0.25
    assert not spans_match("laws of New York", "laws of the State of Delaware apply", LAW)


def test_parties_also_match_when_the_gold_name_is_inside_the_prediction():
    sentence = "This Agreement is made between Acme  Corp. and Beta LLC, a Delaware company."
    assert span_jaccard("Acme Corp.", sentence) < 0.5
    assert spans_match("Acme Corp.", sentence, "Parties")
    assert not spans_match("Acme Corp.", sentence, LAW)


def test_quotes_and_dashes_match_whatever_glyph_the_pdf_prints():
    # CUAD's texts write ASCII quotes; a PDF prints curly ones around the same words
    assert span_jaccard('the "Provider" shall', "the \u201cProvider\u201d shall") == 1.0
    assert span_jaccard("Stremick's Heritage", "Stremick\u2019s Heritage") == 1.0
    assert span_jaccard("2019 - 2020", "2019 \u2013 2020") == 1.0
    preamble = "by and between [ * * * ] (the \u201cProvider\u201d), and TELCOSTAR PTE, LTD."
    assert spans_match('"Provider"', preamble, "Parties")
    assert not spans_match('"Recipient"', preamble, "Parties")
    # the substring test stays case-sensitive, as evaluate.py's
    assert not spans_match("NIGEL CROCKETT", "between BicycleTX Ltd and Nigel Crockett, of the "
                           "one part, and the Company of the other", "Parties")


def test_counts_pool_hits_misses_and_false_positives():
    gold = {("a", LAW): ["laws of New York"], ("a", EXCL): [], ("b", LAW): ["laws of Delaware"]}
    predicted = {("a", LAW): ["laws of New York", "notices to New York office"],
                 ("a", EXCL): ["exclusive"], ("b", LAW): []}
    counts = count_matches(gold, predicted)
    # a/LAW: 1 hit, 1 unmatched prediction; a/EXCL: no clause, so 1 false positive;
    # b/LAW: 1 miss
    assert (counts.true_positives, counts.false_positives, counts.false_negatives) == (1, 2, 1)
    assert counts.precision == pytest.approx(1 / 3)
    assert counts.recall == pytest.approx(1 / 2)


def test_aupr_and_precision_at_recall_worked_by_hand():
    gold = {("a", LAW): ["laws of New York"], ("a", EXCL): [], ("b", LAW): ["laws of Delaware"]}
    predictions = {
        ("a", LAW): [Prediction(text="laws of New York", confidence=0.905)],
        ("a", EXCL): [Prediction(text="exclusive rights", confidence=0.605)],
        ("b", LAW): [Prediction(text="laws of Delaware", confidence=0.305)],
    }
    # thresholds 0.99-0.91: nothing predicted (precision undefined, recall 0);
    # 0.90-0.61: P 1, R 1/2; 0.60-0.31: P 1/2, R 1/2; 0.30-0: P 2/3, R 1.
    # Envelope: 1 up to R 1/2, then 2/3; area 1/2 * 1 + 1/2 * 2/3 = 5/6.
    curve = precision_recall_curve(gold, predictions)
    assert len(curve) == 1 + len(CONFIDENCE_THRESHOLDS) == 102
    at = {round(p.threshold, 2): p for p in curve[1:]}
    assert at[0.91].precision is None and at[0.91].recall == 0
    assert (at[0.9].precision, at[0.9].recall) == (1.0, 0.5)
    assert (at[0.61].precision, at[0.61].recall) == (1.0, 0.5)
    assert (at[0.6].precision, at[0.6].recall, at[0.6].envelope) == (0.5, 0.5, pytest.approx(2 / 3))
    assert (at[0.3].precision, at[0.3].recall) == (pytest.approx(2 / 3), 1.0)
    scores = score_spans(gold, predictions)
    assert scores.aupr == pytest.approx(5 / 6)
    assert scores.precision_at_80_recall == pytest.approx(2 / 3)
    assert scores.precision_at_90_recall == pytest.approx(2 / 3)
    assert scores.gold_spans == 2 and scores.questions == 3


def test_perfect_predictions_score_one_and_none_score_zero():
    gold = {("a", LAW): ["laws of New York"], ("b", EXCL): [EXCLUSIVE], ("b", LAW): []}
    perfect = {k: [Prediction(text=t, confidence=0.95) for t in v] for k, v in gold.items()}
    scores = score_spans(gold, perfect)
    assert (scores.aupr, scores.precision_at_80_recall, scores.precision_at_90_recall) == (1, 1, 1)
    nothing = score_spans(gold, {})
    assert (nothing.aupr, nothing.precision_at_80_recall) == (0, 0)


def test_recall_never_reached_gives_zero_precision_at_that_recall():
    gold = {("a", LAW): ["laws of New York"], ("b", LAW): ["laws of Delaware"]}
    half = {("a", LAW): [Prediction(text="laws of New York", confidence=0.5)]}
    scores = score_spans(gold, half)
    assert scores.precision_at_80_recall == 0
    assert scores.aupr == pytest.approx(0.5)  # precision 1 from recall 0 to 1/2


# -- normalised answers ----------------------------------------------------------------------

@pytest.mark.parametrize(("cuad", "iso"), [
    ("6/21/1999", "1999-06-21"), ("11/[]/2006", "2006-11"), ("[]/[]/2020", "2020"),
    ("[]/[]/20[]", None), ("[]/[]/[]", None), ("2020-01-05", "2020-01-05"), ("13/1/2020", None),
    ("perpetual", None),
])
def test_cuad_dates_become_iso(cuad, iso):
    assert normalise_cuad_date(cuad) == iso


def test_dates_in_text_in_the_forms_contracts_use():
    text = ("made and entered into as of the 21st day of June, 1999; amended March 3 2003 and "
            "on 12/31/2006; effective 2020-01-05; dated ____________, 2015")
    assert dates_in(text) == {"1999-06-21", "2003-03-03", "2006-12-31", "2020-01-05", "2015"}
    # the longest reading wins: no "1999-06" or bare "1999" besides the full date
    assert dates_in("21 June 1999") == {"1999-06-21"}
    assert dates_in("Sept. 1, 2019") == {"2019-09-01"}
    assert dates_in("this first day of July, 2017") == {"2017-07-01"}
    assert dates_in("the twenty-first day of May 2001") == {"2001-05-21"}
    assert dates_in("dated September __, 2018") == {"2018-09"}
    assert dates_in("signed 5/17/12 and 10-11-96") == {"2012-05-17", "1996-10-11"}
    assert dates_in("see section 10.1.12") == set()  # dotted numbers need a 4-digit year


def test_date_answers_are_judged_by_iso_equality():
    assert answer_stated("date", "6/21/1999", "This Agreement is dated June 21, 1999.")
    assert not answer_stated("date", "6/21/1999", "This Agreement is dated June 22, 1999.")
    assert answer_stated("date", "[]/[]/2020", "entered into as of ________, 2020")
    assert not answer_stated("date", "[]/[]/2020", "entered into as of May 1, 2020")
    assert answer_stated("date", "09/[]/2018", "2018-09")
    assert answer_stated("date", "09/[]/2018", "09/[]/2018")  # a review in CUAD's notation
    assert answer_stated("date", "[]/[]/[]", "anything") is None
    assert answer_stated("date", None, "June 21, 1999") is None


def test_durations_in_every_number_style():
    for text in ("thirty (30) days", "30 (thirty) days", "30 days", "thirty days",
                 "a period of thirty-day notice"):
        assert (30, "day") in durations_in(text), text
    assert (12, "month") in durations_in("one (1) year")
    assert (12, "month") in durations_in("twelve-month period")
    assert (120, "day") in durations_in("one hundred and twenty (120) days")
    assert (14, "day") in durations_in("two weeks")
    assert (float("inf"), "month") in durations_in("this license is perpetual")
    assert (1, "month") in durations_in("shall continue month to month")
    assert (12, "month") in durations_in("renews on a year-to-year basis")
    assert (12, "month") in durations_in("extended by one further year")


def test_term_answers_match_any_equal_duration():
    assert answer_stated("term", "successive 1 year",
                         "shall renew automatically for successive twelve (12) month periods")
    assert not answer_stated("term", "successive 1 year", "renews for two (2) year terms")
    assert answer_stated("term", "60 days; 180 days", "on one hundred eighty (180) days notice")
    assert answer_stated("term", "perpetual", "shall continue in perpetuity")
    assert answer_stated("term", "[]", "30 days") is None
    assert answer_stated("date_or_term", "perpetual", "The term is perpetual.")
    assert answer_stated("date_or_term", "12/31/2020", "expires on December 31, 2020")


def test_jurisdiction_answers_name_every_place_as_whole_words():
    assert answer_stated("jurisdiction", "New York", "the laws of the State of New York")
    assert not answer_stated("jurisdiction", "New York", "the laws of New Yorkshire")
    assert answer_stated("jurisdiction", "Ontario, Canada", "the laws of the Province of Ontario")
    assert answer_stated("jurisdiction", "England; Wales", "the laws of England and Wales")
    assert not answer_stated("jurisdiction", "England; Wales", "the laws of England")
    assert answer_stated("jurisdiction", "Switzerland", "construed under Swiss law")
    assert answer_stated("jurisdiction", "People's Republic of China",
                         "the laws of the People’s Republic of China")


# -- does a clause hold the gold text ----------------------------------------------------------

def test_pdf_clause_text_holds_its_txt_gold_despite_layout():
    clause = ("14. GOVERNING LAW. This Agree-\nment shall be governed by the laws of the “State "
              "of New\nYork”, without regard to conflict of laws.")
    gold = 'This Agreement shall be governed by the laws of the "State of New York",'
    assert gold_share_held(gold, clause) == 1.0
    assert holds_gold(clause, ["something else entirely", gold])


def test_a_long_gold_span_counts_in_the_clause_holding_most_of_it():
    first = "The Supplier shall maintain insurance with reputable insurers"
    second = ("covering product liability in an amount not less than five million dollars "
              "per occurrence.")
    gold = f"{first} {second}"
    # 8 of 22 words in the first clause, 14 of 22 in the second
    assert gold_share_held(gold, f"10. INSURANCE. {first}") == pytest.approx(8 / 22)
    assert not holds_gold(f"10. INSURANCE. {first}", [gold])
    assert holds_gold(f"{second} Certificates shall be provided.", [gold])
    # scattered shared words are no contiguous run: "the", "shall" ... do not add up
    assert not holds_gold("The Buyer shall pay the invoice within thirty days.", [first])


def test_first_hit_is_the_rank_of_the_first_holding_clause():
    clauses = ["1. Definitions.", "2. Exclusivity. " + EXCLUSIVE, GOVERNING]
    assert first_hit(clauses, [GOVERNING]) == 3
    assert first_hit(clauses, [EXCLUSIVE, GOVERNING]) == 2
    assert first_hit(clauses, ["not there at all"]) is None


# -- planning and judging asks ------------------------------------------------------------------

def evidence_answer(found, texts, direct=None):
    return SimpleNamespace(found=found, direct_answer=direct,
                           evidence=[SimpleNamespace(text=t) for t in texts])


def test_hard_negatives_are_contracts_of_a_type_where_a_peer_has_the_clause(label_file):
    dev = load_cuad_labels(label_file, split="dev").contracts
    asks = plan_asks(dev, QUESTIONS)
    kinds = {(a.contract.pdf, a.category): a.gold for a in asks}
    # Acme has all three; Beta lacks Exclusivity and Renewal Term, which Acme (same type) has
    assert kinds == {("Acme.pdf", LAW): "positive", ("Acme.pdf", EXCL): "positive",
                     ("Acme.pdf", RENEWAL): "positive", ("Beta.pdf", LAW): "positive",
                     ("Beta.pdf", EXCL): "negative", ("Beta.pdf", RENEWAL): "negative"}
    # asked of Beta alone, the peers still come from the whole split
    assert len(plan_asks(dev[1:], QUESTIONS, peers=dev)) == 3
    assert len(plan_asks(dev[1:], QUESTIONS)) == 1


def test_judging_hits_and_answers(label_file):
    dev = load_cuad_labels(label_file, split="dev").contracts
    asks = {(a.contract.pdf, a.category): a for a in plan_asks(dev, QUESTIONS)}
    law = judge_answer(asks[("Acme.pdf", LAW)], evidence_answer(
        True, ["1. Term.", "2. Notices.", "20. " + GOVERNING],
        direct="governed by the laws of the State of New York"), "id1", 0.1)
    assert (law.hit_rank, law.answer_right, law.gold_states_answer) == (3, True, True)
    wrong_state = judge_answer(asks[("Acme.pdf", LAW)], evidence_answer(
        True, ["1. Term."], direct="governed by the laws of Delaware"), "id1", 0.1,
        document_clauses=["1. Term.", "20. " + GOVERNING])
    assert (wrong_state.hit_rank, wrong_state.answer_right) == (None, False)
    assert wrong_state.gold_in_index is True
    not_found = judge_answer(asks[("Acme.pdf", EXCL)], evidence_answer(False, []), "id1", 0.1)
    assert (not_found.hit_rank, not_found.answer_right) == (None, False)
    negative = judge_answer(asks[("Beta.pdf", EXCL)], evidence_answer(False, ["x"]), "id2", 0.1)
    assert negative.gold == "negative" and negative.hit_rank is None


def outcome(gold, found, rank=None, kind=None, right=None):
    return AskOutcome(contract="c.pdf", doc_id="d", category=LAW, gold=gold, found=found,
                      hit_rank=rank, answer_kind=kind, answer_right=right, seconds=0.5)


def test_summary_rates_and_not_found_confusion():
    outcomes = [
        outcome("positive", True, 1, "jurisdiction", True).model_copy(
            update={"gold_in_index": True}),
        outcome("positive", True, 4, "jurisdiction", False),
        outcome("positive", False, None, "yes_no", False),
        outcome("positive", True, 7, "yes_no", True),
        outcome("negative", False), outcome("negative", False), outcome("negative", True),
    ]
    s = summarise(outcomes)
    assert (s.hit_at_1, s.hit_at_5) == (0.25, 0.5)
    assert s.gold_in_index == 1.0  # only the one positive that was checked counts
    assert (s.value_answer_accuracy, s.yes_found, s.answer_accuracy) == (0.5, 0.5, 0.5)
    # not found is the positive class: 2 right on negatives, 1 wrongly on a positive
    assert (s.not_found_true, s.not_found_false, s.found_on_negative) == (2, 1, 1)
    assert s.not_found_precision == pytest.approx(2 / 3)
    assert s.not_found_recall == pytest.approx(2 / 3)


# -- scoring a review file ---------------------------------------------------------------------

def review_item(category, found, answer, texts, confidence=0.9):
    return {"category": category, "found": found, "confidence": confidence, "answer": answer,
            "clauses": [{"clause_id": f"k:{i}", "page": 1, "span": [0, len(t)], "text": t,
                         "confidence": confidence} for i, t in enumerate(texts)]}


def test_a_review_built_from_the_gold_scores_perfectly(label_file):
    dev = {c.pdf: c for c in load_cuad_labels(label_file, split="dev").contracts}
    documents = []
    for pdf, c in dev.items():
        items = [review_item(cat, label.has_clause, label.answer, label.texts)
                 for cat, label in c.categories.items()]
        documents.append({"doc_id": pdf, "file": f"/data/{pdf}", "title": pdf, "items": items})
    documents.append({"doc_id": "x", "file": "other.pdf", "title": "", "items": []})
    scores = score_review(ReviewFile.model_validate({"documents": documents}), dev, QUESTIONS)
    assert scores.contracts == 2 and scores.unmatched == ["other.pdf"]
    assert scores.overall.aupr == 1.0 and scores.overall.precision_at_90_recall == 1.0
    by = {c.category: c for c in scores.categories}
    assert by[LAW].answer_accuracy == 1.0 and by[LAW].answers_scored == 2
    assert by[EXCL].answer_accuracy == 1.0 and by[EXCL].answers_scored == 2
    assert by[RENEWAL].answers_scored == 1  # Beta has no renewal answer to score


def test_a_review_with_a_wrong_span_and_answer(label_file):
    dev = {c.pdf: c for c in load_cuad_labels(label_file, split="dev").contracts}
    review = ReviewFile.model_validate({"documents": [{"doc_id": "a", "file": "Acme.pdf",
                                                       "items": [
        review_item(LAW, True, "Delaware", ["All notices shall be sent by mail."], 0.8),
        review_item(EXCL, False, None, [EXCLUSIVE], 0.2),
    ]}]})
    scores = score_review(review, dev, QUESTIONS)
    # gold: LAW, EXCL and RENEWAL spans (3). At 0.79..0.2 only the notice clause: P 0, R 0;
    # below 0.2 the exclusivity clause too: 1 hit of 3, P 1/2, R 1/3.
    # Envelope 1/2 from R 0; area = 1/3 * 1/2 = 1/6.
    assert scores.overall.aupr == pytest.approx(1 / 6)
    by = {c.category: c for c in scores.categories}
    assert by[LAW].answer_accuracy == 0.0
    assert by[EXCL].answer_accuracy == 0.0  # gold Yes, review says not found
    assert by[EXCL].average_precision == pytest.approx(1.0)


def test_review_yes_no_answers_use_the_answer_word_before_found():
    item = ReviewFile.model_validate({"documents": [{"doc_id": "a", "file": "a.pdf", "items": [
        review_item(EXCL, True, "No", [])]}]}).documents[0].items[0]
    assert review_answer_right("yes_no", "No", item) is True
    assert review_answer_right("yes_no", "Yes", None) is False
    assert review_answer_right("term", "[]", item) is None
