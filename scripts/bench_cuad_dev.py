"""The CUAD dev benchmark (issue 25): the 41 analyst questions asked of the 105 dev contract
PDFs, judged against CUAD's labels; or a ``clausegraph review --json`` file scored with
CUAD's span metric. What is measured and how: docs/cuad_dev.md.

Each dev contract is asked each question of benchmarks/cuad_dev/questions.yaml through the
Python API as a user would (``ClauseGraph.open(index).ask(question, documents=[doc_id])``):
positives (the contract has gold spans for the category) give hit@1 / hit@5 and, where CUAD
has a normalised answer, whether the direct answer states it; hard negatives (no span, while
another dev contract of the same type has one) should answer "not found".

    nice -n 10 python scripts/bench_cuad_dev.py --index /path/to/cuad_dev_index \\
        --out docs/cuad_dev_baseline.json
    python scripts/bench_cuad_dev.py --limit-docs 3 --categories "Governing Law,Renewal Term"
    python scripts/bench_cuad_dev.py --review review.json --out review_scores.json

Without --index an index of ../shared/data/cuad-train/pdf is built (or reused) under
--index-dir. With --log every judged ask is appended to that JSONL file as it finishes (with
its direct answer); --resume skips the asks already there.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.config import Settings  # noqa: E402
from clausegraph.eval.cuad import (  # noqa: E402
    CuadContract,
    CuadQuestion,
    cuad_dir,
    load_cuad_labels,
    load_cuad_questions,
)
from clausegraph.eval.cuad_bench import (  # noqa: E402
    Ask,
    AskOutcome,
    Summary,
    load_review,
    plan_asks,
    score_review,
    summarise,
    summarise_by,
)

QUESTIONS = ROOT / "benchmarks" / "cuad_dev" / "questions.yaml"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def markdown_table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def summary_row(name: str, s: Summary) -> list[Any]:
    return [name, s.positives, pct(s.hit_at_1), pct(s.hit_at_5), pct(s.gold_in_index),
            f"{pct(s.value_answer_accuracy)} ({s.value_answers})" if s.value_answers else "-",
            pct(s.value_answer_in_gold),
            f"{pct(s.yes_found)} ({s.yes_answers})" if s.yes_answers else "-",
            s.negatives, pct(s.not_found_precision), pct(s.not_found_recall)]


SUMMARY_HEADER = ["", "positives", "hit@1", "hit@5", "in index", "value answer (n)",
                  "value in gold",
                  "yes found (n)",
                  "negatives", "not-found P", "not-found R"]


def short_name(pdf: str, width: int = 60) -> str:
    """The PDF's name without extension, cut to ``width`` characters for a table."""
    stem = Path(pdf).stem
    return stem if len(stem) <= width else stem[: width - 1] + "…"


def open_index(args: argparse.Namespace, settings: Settings | None) -> ClauseGraph:
    if args.index:
        return ClauseGraph.open(args.index, settings)
    graph = ClauseGraph.open(args.index_dir, settings, create=True)
    failed = graph.ingest([cuad_dir() / "pdf"]).failed  # unchanged PDFs are skipped
    print("\n".join(f"FAILED {f.error}" for f in failed) or "index ready", file=sys.stderr)
    return graph


def doc_ids(graph: ClauseGraph, contracts: list[CuadContract],
            only_indexed: bool = False) -> dict[str, str]:
    """Each contract's doc id: the index entry with its PDF's file name, else its content id.
    A contract the index lacks stops the run, or is left out with ``only_indexed``."""
    from clausegraph.ingest import document_id

    entries = graph.index.entries()
    by_name = {Path(e.source_path).name: doc_id for doc_id, e in entries.items()}
    found = {}
    for contract in contracts:
        doc_id = by_name.get(contract.pdf)
        pdf = cuad_dir() / "pdf" / contract.pdf
        if doc_id is None and pdf.is_file():
            doc_id = document_id(pdf.read_bytes())
        if doc_id in entries:
            found[contract.pdf] = doc_id
        elif not only_indexed:
            raise SystemExit(f"{graph.store.location}: no document for {contract.pdf} "
                             "(--only-indexed asks only the contracts it holds)")
    return found


def run_asks(graph: ClauseGraph, contracts: list[CuadContract], questions: list[CuadQuestion],
             peers: list[CuadContract], log: Path | None, resume: bool,
             only_indexed: bool = False,
             on_answer: Callable[[Ask, Any, AskOutcome], None] | None = None,
             ) -> list[AskOutcome]:
    """Ask and judge every ask; ``on_answer(ask, answer, outcome)`` sees each answer made
    (not those reused from ``log``)."""
    from clausegraph.eval.cuad_bench import judge_answer

    ids = doc_ids(graph, contracts, only_indexed)
    asks = plan_asks([c for c in contracts if c.pdf in ids], questions, peers)
    done: dict[tuple[str, str], AskOutcome] = {}
    if resume and log and log.is_file():
        for line in log.read_text(encoding="utf-8").splitlines():
            outcome = AskOutcome.model_validate_json(line)
            done[(outcome.contract, outcome.category)] = outcome
    outcomes = []
    clause_texts: dict[str, list[str]] = {}  # the current contract's clauses
    started = time.perf_counter()
    handle = open(log, "a" if resume else "w", encoding="utf-8") if log else None
    try:
        for number, ask in enumerate(asks, start=1):
            previous = done.get((ask.contract.pdf, ask.category))
            if previous is not None:
                outcomes.append(previous)
                continue
            doc_id = ids[ask.contract.pdf]
            asked = time.perf_counter()
            answer = graph.ask(ask.question.question, documents=[doc_id])
            seconds = time.perf_counter() - asked
            if doc_id not in clause_texts:
                clause_texts = {doc_id: [c.text for c in
                                         graph.index.clauses.document_clauses(doc_id)]}
            outcome = judge_answer(ask, answer, doc_id, seconds, clause_texts[doc_id])
            outcomes.append(outcome)
            if on_answer is not None:
                on_answer(ask, answer, outcome)
            if handle:
                handle.write(outcome.model_dump_json() + "\n")
                handle.flush()
            if number % 50 == 0 or number == len(asks):
                spent = time.perf_counter() - started
                print(f"{number}/{len(asks)} asks, {spent:.0f}s", file=sys.stderr)
    finally:
        if handle:
            handle.close()
    return outcomes


def shown_arguments(argv: list[str]) -> list[str]:
    """The command line as recorded: the index's location (a machine path) as DEV_INDEX."""
    shown = list(argv)
    for i, arg in enumerate(shown):
        if arg == "--index" and i + 1 < len(shown):
            shown[i + 1] = "DEV_INDEX"
        elif arg.startswith("--index="):
            shown[i] = "--index=DEV_INDEX"
    return shown


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def report_benchmark(outcomes: list[AskOutcome], questions: list[CuadQuestion],
                     seconds: float) -> dict[str, Any]:
    overall = summarise(outcomes)
    by_category = summarise_by(outcomes, lambda o: o.category)
    by_contract = summarise_by(outcomes, lambda o: o.contract)
    order = [q.category for q in questions if q.category in by_category]
    print("\n## Overall\n")
    print(markdown_table(SUMMARY_HEADER, [summary_row("all", overall)]))
    print(f"\nnot-found confusion: right {overall.not_found_true}, said of a positive "
          f"{overall.not_found_false}, found on a negative {overall.found_on_negative}, "
          f"found on a positive {overall.found_on_positive}; answer accuracy (value + yes) "
          f"{pct(overall.answer_accuracy)}")
    print("\n## Per category\n")
    print(markdown_table(SUMMARY_HEADER, [summary_row(c, by_category[c]) for c in order]))
    print("\n## Per contract\n")
    print(markdown_table(SUMMARY_HEADER,
                         [summary_row(short_name(c), s) for c, s in by_contract.items()]))
    print(f"\n{len(outcomes)} asks, {seconds:.0f}s, mean "
          f"{1000 * (overall.mean_seconds or 0):.0f} ms per ask")
    return {
        "overall": overall.model_dump(),
        "per_category": {c: by_category[c].model_dump() for c in order},
        "per_contract": {c: s.model_dump() for c, s in by_contract.items()},
    }


def report_review(path: Path, contracts: list[CuadContract],
                  questions: list[CuadQuestion]) -> dict[str, Any]:
    from clausegraph.ingest import document_id

    def content_id(contract: CuadContract) -> str:
        pdf = cuad_dir() / "pdf" / contract.pdf
        return document_id(pdf.read_bytes()) if pdf.is_file() else ""

    scores = score_review(load_review(path), {c.pdf: c for c in contracts}, questions,
                          content_id)
    o = scores.overall
    print(f"\n## Review {path.name}: {scores.contracts} dev contracts, {o.questions} "
          f"questions, {o.gold_spans} gold spans\n")
    print(f"AUPR {pct(o.aupr)}, precision at 80% recall {pct(o.precision_at_80_recall)}, "
          f"precision at 90% recall {pct(o.precision_at_90_recall)}")
    if scores.unmatched:
        print(f"not dev contracts (not scored): {', '.join(scores.unmatched)}")
    print()
    print(markdown_table(
        ["category", "contracts with clause", "gold spans", "AP", "answer accuracy (n)"],
        [[c.category, c.contracts_with_clause, c.gold_spans, pct(c.average_precision),
          f"{pct(c.answer_accuracy)} ({c.answers_scored})" if c.answers_scored else "-"]
         for c in scores.categories]))
    return scores.model_dump(exclude={"overall": {"curve"}})


def to_json(result: dict[str, Any]) -> str:
    """Indented figures, one line per category and contract (each ask, with its direct
    answer, is in the --log file)."""
    lines = []
    for key, value in result.items():
        if isinstance(value, dict) and key.startswith("per_"):
            rows = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v)}"
                    for k, v in value.items()]
            lines.append(f' "{key}": {{\n' + ",\n".join(rows) + "\n }")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", help="an index of the dev PDFs (default: build or reuse "
                        "one under --index-dir)")
    parser.add_argument("--index-dir", type=Path,
                        default=Path(tempfile.gettempdir()) / "clausegraph-cuad-dev")
    parser.add_argument("--labels", type=Path, help="cuad_labels.json (default: "
                        "../shared/data/cuad-train/cuad_labels.json)")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--limit-docs", type=int, help="only the first N dev contracts")
    parser.add_argument("--skip-docs", type=int, default=0, help="start after the first N "
                        "dev contracts (to run shards in parallel, each with its own --log, "
                        "then report all with --resume on the joined logs)")
    parser.add_argument("--categories", help="comma-separated CUAD categories (default: all)")
    parser.add_argument("--only-indexed", action="store_true", help="ask only the dev "
                        "contracts the index holds (a partial index)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON")
    parser.add_argument("--log", type=Path, help="append each judged ask to this JSONL file")
    parser.add_argument("--resume", action="store_true",
                        help="reuse the asks already in --log")
    parser.add_argument("--review", type=Path, help="score this `clausegraph review --json` "
                        "file instead of asking")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE", help="override a setting (repeatable)")
    args = parser.parse_args()
    dev = load_cuad_labels(args.labels, split="dev").contracts
    questions = load_cuad_questions(args.questions)
    if args.categories:
        wanted = [c.strip() for c in args.categories.split(",")]
        unknown = set(wanted) - {q.category for q in questions}
        if unknown:
            parser.error(f"unknown categories: {', '.join(sorted(unknown))}")
        questions = [q for q in questions if q.category in wanted]
    contracts = dev[args.skip_docs:]
    contracts = contracts[: args.limit_docs] if args.limit_docs else contracts
    command = "python scripts/bench_cuad_dev.py " + " ".join(shown_arguments(sys.argv[1:]))
    result: dict[str, Any] = {"command": command, "commit": commit(),
                              "contracts": len(contracts), "questions": len(questions)}
    if args.review:
        result |= report_review(args.review, contracts, questions)
    else:
        settings = Settings().with_overrides(args.overrides) if args.overrides else None
        graph = open_index(args, settings)
        started = time.perf_counter()
        outcomes = run_asks(graph, contracts, questions, dev, args.log, args.resume,
                            args.only_indexed)
        seconds = time.perf_counter() - started
        result["contracts"] = len({o.contract for o in outcomes})
        result |= {"index_documents": len(graph.index.entries()),
                   "embedding_model": str(graph.store.info().get("embedding_model", "")),
                   "seconds": round(seconds, 1)}
        result |= report_benchmark(outcomes, questions, seconds)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(to_json(result), encoding="utf-8")


if __name__ == "__main__":
    main()
