"""The answer benchmarks' judge (scripts/bench_answers.py): a fact pattern is stated when
the direct answer holds it as whole words, a plural of its last word included."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_answers.py"


@pytest.fixture(scope="module")
def bench_answers():
    spec = importlib.util.spec_from_file_location("bench_answers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("answer", "facts", "stated"), [
    ("Rs. 15 lakhs — “the total liability shall not exceed Rs. 15 lakhs”", ["15 lakh"], True),
    ("Rs. 15 lakh", ["15 lakh"], True),
    ("24 months", ["24 month"], True),
    ("Yes: 12% co-payment", ["2%"], False),
    ("Cataract surgery of the eyes", ["yes"], False),
    ("15 lakhsworth", ["15 lakh"], False),
    ("$20 copay", ["$20"], True),
    ("$200 copay", ["$20"], False),
])
def test_states_fact_whole_words(bench_answers, answer, facts, stated):
    assert bench_answers.states_fact(answer, facts, whole_words=True) is stated


def _answer(verdict_label: str | None, direct: str):
    from types import SimpleNamespace

    from clausegraph.models import Verdict

    verdict = None if verdict_label is None else Verdict(label=verdict_label, text=direct)
    evidence = [SimpleNamespace(text="persons between 18 years and 65 years", label="1")]
    return SimpleNamespace(evidence=evidence, direct_answer=direct, direct_quote=direct,
                           found=True, verdict=verdict)


@pytest.mark.parametrize(("label", "right"), [("no", True), ("yes", False), (None, False)])
def test_a_question_labelled_with_its_verdict_needs_that_verdict(bench_answers, label, right):
    item = {"question": "Can a 70-year-old buy this policy?", "answer": ["65 years"],
            "gold": ["between 18 years and 65 years"], "verdict": "no"}
    row = bench_answers.judge(_answer(label, "the quote sets 18 years to 65 years"), item,
                              whole_words=True)
    assert row["direct_ok"] is right and row["r1"]
