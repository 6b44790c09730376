"""Answer quality on real policy and contract PDFs (the labelled set in benchmarks/real_pdfs/).

Ingests the 7 insurance policy wordings and the 20 CUAD contract PDFs from
``../shared/data`` (beside the clone) (one index per folder, kept under ``--index-dir`` and reused), asks every
labelled question through the Python API exactly as a user would
(``ClauseGraph.open(dir).ask(question, documents=[doc])``) and reports, per document and overall:

- recall@1 / recall@5: the gold text (whitespace-normalised) lies inside ``evidence[0]`` /
  one of ``evidence[:5]``;
- direct answer: ``found`` is true and ``direct_answer`` holds the expected fact;
- not found: for questions the document does not answer, ``found`` is false;
- the 10 HackRx questions on policy.pdf, scoped to it and unscoped over all 7 policies.

    python scripts/bench_real_pdfs.py                       # everything, reusing indexes
    python scripts/bench_real_pdfs.py --fresh --out docs/real_documents.json
    python scripts/bench_real_pdfs.py --sets hackrx --verbose
    python scripts/bench_real_pdfs.py --fresh --set embedding.quantize=int8 --index-dir /tmp/i13/real
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_answers import judge, normalise, open_index, summarise

from clausegraph import ClauseGraph
from clausegraph.config import Settings
from clausegraph.eval.data import shared_data_dir

LABELS = ROOT / "benchmarks" / "real_pdfs"
DATA = shared_data_dir()
FOLDERS = {"insurance": "insurance-policies", "contracts": "cuad-sample/pdf"}


def run_labelled(graph: ClauseGraph, name: str, verbose: bool, limit: int | None) -> dict:
    labels = yaml.safe_load((LABELS / f"{name}.yaml").read_text(encoding="utf-8"))
    items = labels["questions"][:limit] if limit else labels["questions"]
    rows = []
    for item in items:
        answer = graph.ask(item["question"], documents=[item["document"]])
        row = judge(answer, item)
        rows.append(row)
        if verbose:
            print(json.dumps(row, ensure_ascii=False), file=sys.stderr)
    by_doc: dict[str, list] = defaultdict(list)
    for row in rows:
        by_doc[row["document"]].append(row)
    return {
        "overall": summarise(rows),
        "per_document": {doc: summarise(r) for doc, r in sorted(by_doc.items())},
        "rows": rows,
    }


def run_hackrx(graph: ClauseGraph, data: Path, verbose: bool) -> dict:
    reference = json.loads((data / "insurance-policies" /
                            "hackrx6_sample_qa_policy_pdf.json").read_text(encoding="utf-8"))
    facts = yaml.safe_load((LABELS / "hackrx.yaml").read_text(encoding="utf-8"))
    results: dict[str, Any] = {}
    for mode, documents in (("scoped", [facts["document"]]), ("unscoped", None)):
        rows = []
        for qa, fact in zip(reference["qa"], facts["questions"], strict=True):
            answer = graph.ask(qa["question"], documents=documents)
            row = judge(answer, {"question": qa["question"], **fact,
                                 "document": facts["document"]})
            if documents is None and answer.evidence:
                # unscoped, the top clause must also come from policy.pdf
                top_file = Path(answer.evidence[0].source_path).name
                row["r1"] = row["r1"] and top_file == facts["document"]
            if documents is None:
                # the question names no policy: every leading document gets its own answer;
                # does policy.pdf's hold the fact?
                own = next((d for d in answer.per_document if d.file == facts["document"]), None)
                row["own_answer_ok"] = bool(own and own.found and any(
                    normalise(a) in normalise(own.text) for a in fact["answer"]))
            rows.append(row)
            if verbose:
                print(mode, json.dumps(row, ensure_ascii=False), file=sys.stderr)
        results[mode] = {
            "top_clause_right": sum(r["r1"] for r in rows),
            "fact_in_direct_answer": sum(r["direct_ok"] for r in rows),
            "fact_in_top5": sum(r["r5"] for r in rows),
            "fact_in_own_document_answer": sum(r.get("own_answer_ok", False) for r in rows),
            "of": len(rows), "rows": rows,
        }
    return results


def print_table(title: str, result: dict) -> None:
    print(f"\n## {title}\n")
    print("| document | questions | recall@1 | recall@5 | direct answer | not found |")
    print("|---|---|---|---|---|---|")
    for doc, s in [*result["per_document"].items(), ("**all**", result["overall"])]:
        print(f"| {doc[:60]} | {s['questions']} | {s['recall@1']} | {s['recall@5']} | "
              f"{s['direct_answer']} | {s['not_found']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--index-dir", type=Path, default=Path("/tmp/clausegraph-real-pdfs"))
    parser.add_argument("--sets", default="insurance,contracts,hackrx")
    parser.add_argument("--fresh", action="store_true", help="rebuild the indexes")
    parser.add_argument("--limit", type=int, help="first N questions of each labelled set")
    parser.add_argument("--out", type=Path, help="write all results (with every row) as JSON")
    parser.add_argument("--verbose", action="store_true", help="print every row to stderr")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE", help="override a setting for building and asking, "
                        "e.g. --set embedding.quantize=int8 (repeatable)")
    args = parser.parse_args()
    settings = Settings().with_overrides(args.overrides) if args.overrides else None
    sets = args.sets.split(",")
    results: dict[str, Any] = {}
    graphs: dict[str, ClauseGraph] = {}
    for name in ("insurance", "contracts"):
        if name in sets or (name == "insurance" and "hackrx" in sets):
            graphs[name] = open_index(name, args.data / FOLDERS[name], args.index_dir,
                                      args.fresh, settings)
    started = time.perf_counter()
    for name in ("insurance", "contracts"):
        if name in sets:
            results[name] = run_labelled(graphs[name], name, args.verbose, args.limit)
            print_table(f"{name} ({FOLDERS[name]})", results[name])
    if "hackrx" in sets:
        results["hackrx"] = run_hackrx(graphs["insurance"], args.data, args.verbose)
        print("\n## HackRx sample (policy.pdf)\n")
        for mode, r in results["hackrx"].items():
            print(f"- {mode}: top clause right {r['top_clause_right']}/{r['of']}, fact in "
                  f"direct answer {r['fact_in_direct_answer']}/{r['of']}, fact in top-5 "
                  f"{r['fact_in_top5']}/{r['of']}"
                  + (f", fact in policy.pdf's own answer {r['fact_in_own_document_answer']}/"
                     f"{r['of']}" if mode == "unscoped" else ""))
    print(f"\n(questions answered in {time.perf_counter() - started:.0f}s)")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
