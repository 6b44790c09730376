"""CPU time of one offline question, in one process (what a web question worker spends).

    python scripts/bench_ask_cpu.py --index /tmp/s4/idx2/insurance [--answers out.json]

Asks the distinct questions of the labelled insurance set three times, worded three ways
(so no query vector comes from a cache), with one BLAS and one ONNX Runtime thread as in
the web app's workers, and prints the best pass's CPU milliseconds per question.
``--answers`` saves each question's direct answer, evidence ids and answer text, to check
that a speed change leaves the answers as they were.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import yaml

LABELLED = Path(__file__).resolve().parent.parent / "benchmarks" / "real_pdfs" / "insurance.yaml"
WORDINGS = ("Please answer: ", "Tell me: ", "Explain: ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True)
    parser.add_argument("--answers", type=Path, help="save the answers here (JSON)")
    args = parser.parse_args()
    os.environ["CLAUSEGRAPH_THREADS"] = "1"
    from clausegraph.web.pool import single_threaded_blas

    single_threaded_blas()
    from clausegraph.api import ClauseGraph

    questions = list(dict.fromkeys(
        q["question"] for q in yaml.safe_load(LABELLED.read_text(encoding="utf-8"))["questions"]))
    graph = ClauseGraph.open(args.index)
    answers = {}
    for question in questions:  # warms every path, and gives the answers to compare
        answer = graph.ask(question, llm="none")
        answers[question] = [answer.direct_answer, [e.clause_id for e in answer.evidence],
                             answer.answer]
    passes = []
    for wording in WORDINGS:
        started = time.process_time()
        for question in questions:
            graph.ask(wording + question[0].lower() + question[1:], llm="none")
        passes.append((time.process_time() - started) / len(questions) * 1000)
    print(f"{len(questions)} questions: {min(passes):.1f} ms CPU per question "
          f"(best of {len(passes)} passes: {', '.join(f'{p:.1f}' for p in passes)})")
    if args.answers:
        args.answers.write_text(json.dumps(answers, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
