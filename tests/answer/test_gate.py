"""The answer gate: the estimator (fit, predict, threshold, save/load), the shipped weights,
and the decision it makes inside the direct answer on a small real text."""

from __future__ import annotations

import json

import numpy as np
import pytest
from synthetic_index import read_texts

from clausegraph.answer.direct import DocumentTerms, direct_answer
from clausegraph.answer.gate import (
    FEATURES,
    TYPED_FEATURES,
    UNTYPED_FEATURES,
    AnswerGate,
    TreeAnswerGate,
    TypedSplitGate,
    active_gate,
    answer_features,
    fit_gate,
    fit_split_gate,
    shipped_gate,
    using_gate,
)

# A services agreement and a health-policy excerpt, rebuilt as small text files.
AGREEMENT = """1. TERM
1.1 This Agreement shall commence on September 10, 2015 and shall continue for a period of two (2) years.
2. GOVERNING LAW
2.1 This Agreement shall be governed by the laws of the State of New York.
3. PAYMENT
3.1 The Customer shall pay each invoice within thirty (30) days of its date.
"""
POLICY = """SECTION D EXCLUSIONS
2) Specified disease/procedure waiting period (Code - Excl02)
a. Expenses related to the treatment of the listed Conditions, surgeries/treatments shall be excluded until the expiry of 24 months of continuous coverage after the date of inception of the first policy with Us.
SECTION E GENERAL CONDITIONS
1) Notice of claim
a. Notice of a claim shall be given to Us within 48 hours of admission in a Hospital.
"""


def _row(coverage: float, score: float, value: bool, kind: str | None = "duration",
         dense: float | None = 0.5) -> dict[str, float | None]:
    return answer_features(
        document_coverage=coverage, sentence_score=score, sentence_words=0.8 * score,
        sentence_coverage=score, confidence=min(score, 1.0) * coverage,
        constants_pass=coverage >= 0.7 and score >= 0.45, holds_value=value,
        asks_value=kind is not None, kind=kind, question_words=3, best_rank=0,
        dense_top=dense, dense_best=dense)


def _training_rows() -> tuple[list[dict], np.ndarray]:
    """Right answers: the document uses the words and the sentence holds the value; wrong
    ones: a document that lacks the asked words, or a sentence without the value."""
    rng = np.random.default_rng(0)
    rows, labels = [], []
    for _ in range(60):
        rows.append(_row(rng.uniform(0.75, 1.0), rng.uniform(0.6, 1.3), True,
                         dense=rng.uniform(0.45, 0.7)))
        labels.append(1)
        rows.append(_row(rng.uniform(0.2, 0.7), rng.uniform(0.1, 0.6), bool(rng.random() < 0.3),
                         dense=rng.uniform(0.1, 0.4)))
        labels.append(0)
    return rows, np.array(labels)


def test_fit_predict_save_load_round_trip(tmp_path):
    rows, y = _training_rows()
    gate = AnswerGate(C=1.0)
    X = gate.matrix(rows)
    assert X.shape == (len(rows), len(FEATURES))
    gate.fit(X, y)
    threshold = gate.fit_threshold(X, y)
    assert 0.0 < threshold < 1.0
    proba = gate.predict_proba(X)
    assert proba.shape == (len(rows), 2)
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert (gate.predict(X) == y).mean() >= 0.95
    # clearly right and clearly wrong answers fall on their sides of the threshold
    assert gate.answers(_row(0.95, 1.1, True, dense=0.65))[0]
    assert not gate.answers(_row(0.3, 0.2, False, dense=0.15))[0]
    # an unknown retrieval cosine (a caller without retrieval scores) reads as the mean
    assert np.isfinite(gate.right_probability(_row(0.9, 1.0, True, dense=None)))
    path = tmp_path / "gate.json"
    gate.save(path, fitted_on="test rows")
    loaded = AnswerGate.load(path)
    assert loaded.features == gate.features
    assert loaded.threshold_ == pytest.approx(gate.threshold_)
    assert np.allclose(loaded.predict_proba(X), proba)
    assert loaded.header["fitted_on"] == "test rows"


def test_load_refuses_another_file(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(ValueError, match="not an answer gate"):
        AnswerGate.load(path)
    with pytest.raises(ValueError, match="not fitted"):
        AnswerGate().predict_proba(np.zeros((1, len(FEATURES))))


def test_fit_gate_weighs_each_source_alike():
    rows, y = _training_rows()
    collected = [{"source": "policy" if i % 4 else "cuad", "features": r, "label": int(label),
                  "answerable": bool(label) or i % 3 == 0}
                 for i, (r, label) in enumerate(zip(rows, y, strict=True))]
    # nothing to answer with: left out
    collected.append({"source": "policy", "features": None, "label": 0, "answerable": True})
    gate = fit_gate(collected)
    assert gate.coef_ is not None and 0.0 < gate.threshold_ < 1.0
    assert (gate.predict(gate.matrix(rows)) == y).mean() >= 0.9


def test_tree_gate_fits_predicts_and_round_trips(tmp_path):
    pytest.importorskip("sklearn")
    rows, y = _training_rows()
    gate = TreeAnswerGate(max_iter=30, max_leaf_nodes=4)
    X = gate.matrix(rows)
    gate.fit(X, y)
    gate.fit_threshold(X, y)
    assert 0.0 < gate.threshold_ < 1.0
    assert (gate.predict(X) == y).mean() >= 0.95
    assert gate.answers(_row(0.95, 1.1, True, dense=0.65))[0]
    assert not gate.answers(_row(0.3, 0.2, False, dense=0.15))[0]
    path = tmp_path / "gate.npz"
    gate.save(path, fitted_on="test rows")
    loaded = TreeAnswerGate.load(path)
    assert loaded.threshold_ == pytest.approx(gate.threshold_)
    assert np.allclose(loaded.predict_proba(X), gate.predict_proba(X))
    with pytest.raises(ValueError, match="not an answer gate of boosted trees"):
        TreeAnswerGate.load(tmp_path / "missing.npz")


def test_the_split_gate_asks_the_gate_of_the_questions_kind():
    pytest.importorskip("sklearn")
    rows, y = _training_rows()
    collected = [{"source": "policy" if i % 4 else "cuad", "features": r, "label": int(label),
                  "answerable": bool(label)} for i, (r, label) in enumerate(zip(rows, y, strict=True))]
    split = fit_split_gate(collected, trees={"max_iter": 30, "max_leaf_nodes": 4})
    assert isinstance(split.typed, TreeAnswerGate) and isinstance(split.other, AnswerGate)
    untyped_question = _row(0.95, 1.1, True)
    typed_question = dict(untyped_question, asks_type=1.0, type_match=0.4)
    assert split.gate_for(untyped_question) is split.other
    assert split.gate_for(typed_question) is split.typed
    assert split.answers(typed_question) == split.typed.answers(typed_question)
    assert split.answers(untyped_question) == split.other.answers(untyped_question)
    assert split.threshold_ == split.other.threshold_


def test_shipped_gate_loads_with_every_feature():
    gate = shipped_gate()
    assert isinstance(gate, TypedSplitGate)
    for part in (gate.typed, gate.other):
        assert part.features == list(FEATURES)
        assert 0.0 < part.threshold_ < 1.0
        assert part.header["fitted_on"]["policy"] > 0 and part.header["fitted_on"]["cuad"] > 0
    assert isinstance(gate.typed, TreeAnswerGate)
    assert active_gate() is gate
    with using_gate(None):
        assert active_gate() is None
    assert active_gate() is gate
    # a caller that does not type the question gets the gate fitted without those features
    untyped = shipped_gate(typed=False)
    assert untyped.features == list(UNTYPED_FEATURES)
    assert not set(untyped.features) & set(TYPED_FEATURES)
    assert active_gate(typed=False) is untyped
    assert untyped.header["fitted_on"] == gate.other.header["fitted_on"]


def test_the_review_finding_the_type_asked_raises_the_gates_belief():
    # one would-be answer to a question about a CUAD type, the review's confidence in
    # that type varied: what the gate learned from the CUAD dev asks (docs/answer_gate.md)
    gate = shipped_gate()
    unsure = gate.right_probability(answer_features(**_SAME, review_margin=-0.14))
    found = gate.right_probability(answer_features(**_SAME, review_margin=0.44,
                                                   review_quoted=True))
    assert found > unsure + 0.2, (unsure, found)
    # a review that did not read the document (the question is too far from every CUAD
    # category) is neutral: neither "none found" nor "found"
    unread = gate.right_probability(answer_features(**_SAME))
    assert unsure < unread < found, (unsure, unread, found)
    assert gate.answers(answer_features(**_SAME, review_margin=-0.14))[0] is False


_SAME = dict(document_coverage=0.9, sentence_score=0.5, sentence_words=0.4,
             sentence_coverage=0.5, confidence=0.45, constants_pass=True, holds_value=False,
             asks_value=False, kind=None, question_words=5, best_rank=0, dense_top=0.5,
             dense_best=0.5, type_match=0.3)


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory):
    return read_texts(tmp_path_factory.mktemp("gate"),
                      {"agreement.txt": AGREEMENT, "policy.txt": POLICY})


def _ask(reader, file: str, question: str):
    doc_id = next(d for d, e in reader.entries().items() if e.source_path.endswith(file))
    clauses = reader.clauses.document_clauses(doc_id)
    return direct_answer(reader, DocumentTerms(reader), question, clauses)


def test_a_sentence_holding_the_asked_value_passes_the_gate(reader):
    law = _ask(reader, "agreement.txt", "Which law governs the agreement?")
    assert law.found and "State of New York" in law.text
    # the test's questions are not typed (no question_types): the untyped gate answers
    assert law.right_probability >= shipped_gate(typed=False).threshold_
    notice = _ask(reader, "policy.txt", "Within how many hours must notice of a claim be given?")
    assert notice.found and "48 hours" in notice.text
    assert notice.gate_features["holds_value"] == 1.0


def test_a_question_about_something_absent_is_not_found(reader):
    absent = _ask(reader, "agreement.txt", "What is the waiting period for cataract surgery?")
    assert not absent.found and absent.text is None
    assert absent.right_probability is not None
    assert absent.right_probability < shipped_gate(typed=False).threshold_
    assert absent.nearest
    # with the gate off the same question is answered with the best sentence it has
    with using_gate(None):
        assert _ask(reader, "agreement.txt",
                    "What is the waiting period for cataract surgery?").found
    # the features are not part of the serialised answer
    assert "gate_features" not in absent.model_dump()
