"""Answer quality on the 22 policy wordings of issue 26 (benchmarks/policies/questions.yaml).

Ingests ``../shared/data/insurance-policies`` (7 policies) and ``../shared/data/policies-dev``
(15), one index per folder under ``--index-dir`` (built once, then reused), asks every
question scoped to its document through the Python API exactly as a user would
(``ClauseGraph.open(dir).ask(question, documents=[doc])``) and reports, per document and
overall:

- hit@1 / hit@5: a gold snippet (whitespace-normalised) lies inside ``evidence[0]`` / one
  of ``evidence[:5]``;
- direct answer states the fact: ``found`` is true and ``direct_answer`` (the verdict's
  fact, then the quoted sentence) contains one of the question's ``answer`` patterns (as
  whole words); the quoted sentence alone (``direct_quote``) is reported beside it;
- not-found right: ``found`` is false for the questions the document does not answer; and
  the answerable questions wrongly answered "not found";
- seconds per question.

The answer gate (clausegraph/answer/gate.py) is fitted on these questions, so the plain run
(the shipped gate) is in sample. ``--leave-one-out`` scores each document with a gate fitted
without it: every question is first asked with the gate off (its features and whether the
answer is right: ``gate_rows``), then per fold (``leave_one_out_folds``) a gate is fitted on
the other documents' rows, plus the CUAD dev rows of ``--gate-rows`` when given (written by
scripts/fit_answer_gate.py), and the held-out document's questions are asked with it. The
answer-sentence ranker (clausegraph/answer/sentences.py) is fitted on these questions too:
with ``--sentence-rows`` each fold fits its own without the held-out document's rows
(``fold_ranker``) and asks the other documents' gate rows with it.

    python scripts/bench_policies.py --index-dir /tmp/policybench/index
    python scripts/bench_policies.py --out docs/policies_bench_baseline.json \\
        --details /tmp/policybench/details.json
    python scripts/bench_policies.py --documents policy.pdf,US_SBC_CMS_sample_PPO.pdf --verbose
    python scripts/bench_policies.py --leave-one-out --gate-rows /tmp/answer_gate/rows.jsonl
    python scripts/bench_policies.py --leave-one-out --gate-rows GATE_ROWS \
        --sentence-rows SENTENCE_ROWS
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_answers import judge, open_index, share, states_fact, summarise

from clausegraph import ClauseGraph
from clausegraph.answer.gate import fit_split_gate, using_gate
from clausegraph.answer.kinds import using_kind_model
from clausegraph.answer.sentences import SentenceRanker, shipped_ranker, using_ranker
from clausegraph.config import Settings
from clausegraph.eval.data import shared_data_dir

QUESTIONS = ROOT / "benchmarks" / "policies" / "questions.yaml"
# what the saved JSON keeps of each evidence clause and direct answer: the wordings are their
# issuers' copyright, so the committed baseline holds labels and outcomes, not their text
DETAIL_FIELDS = ("direct_answer", "verdict", "evidence")


def named_question(question: str, document: dict) -> str:
    """``question`` naming its policy in the sentence: "What is the waiting period for
    cataract surgery under the National Insurance Arogya Sanjeevani policy?" (the issuer
    as questions.yaml writes it, brackets dropped)."""
    name = " ".join(re.sub(r"[()]", " ", document["issuer"]).split())
    asked = question.rstrip().rstrip("?")
    return f"{asked} under the {name} policy?"


def load_questions(path: Path = QUESTIONS) -> tuple[dict[str, dict], list[dict]]:
    """The documents table and the labelled questions."""
    labels = yaml.safe_load(path.read_text(encoding="utf-8"))
    return labels["documents"], labels["questions"]


def leave_one_out_folds(items: list[dict]) -> Iterator[tuple[str, list[dict], list[dict]]]:
    """(held-out document, questions of the other documents, its own questions), per document.

    Anything fitted on these questions (a not-found gate, an answer threshold) is fitted on
    the second and scored on the third, once per document."""
    documents = sorted({item["document"] for item in items})
    for held_out in documents:
        yield (held_out, [i for i in items if i["document"] != held_out],
               [i for i in items if i["document"] == held_out])


def indexed_only(graphs: dict[str, ClauseGraph], documents: dict[str, dict],
                 items: list[dict]) -> list[dict]:
    """The questions whose document is in its folder's index; the others are named."""
    indexed = {Path(d["source_path"]).name for graph in graphs.values()
               for d in graph.stats().documents}
    skipped = sorted({i["document"] for i in items} - indexed)
    if skipped:
        print(f"skipped (not indexed): {', '.join(skipped)}", file=sys.stderr)
    return [i for i in items if i["document"] in indexed]


def ask_all(graphs: dict[str, ClauseGraph], documents: dict[str, dict], items: list[dict],
            verbose: bool) -> list[dict[str, Any]]:
    rows = []
    for item in items:
        graph = graphs[documents[item["document"]]["folder"]]
        started = time.perf_counter()
        answer = graph.ask(item["question"], documents=[item["document"]])
        seconds = time.perf_counter() - started
        row = {"id": item["id"], "category": item.get("category"),
               **judge(answer, item, whole_words=True), "seconds": round(seconds, 3)}
        row["wrongly_not_found"] = not row["not_found"] and not row["found"]
        row["verdict"] = answer.verdict.text if answer.verdict else None
        # what a reader is told: the verdict line ("Yes: excluded") over the quote
        row["verdict_or_quote_ok"] = not row["not_found"] and row["found"] and states_fact(
            f"{row['verdict'] or ''}\n{row['direct_answer'] or ''}", item.get("answer", []),
            whole_words=True)
        # the verdict line alone, where the answer has one: does it state the fact?
        row["verdict_ok"] = None if row["not_found"] or not row["found"] or \
            answer.verdict is None else states_fact(row["verdict"], item.get("answer", []),
                                                    whole_words=True)
        row["evidence"] = [{"label": e.label, "group": e.group, "pages": e.pages,
                            "text": e.text} for e in answer.evidence[:5]]
        rows.append(row)
        if verbose:
            print(json.dumps({k: v for k, v in row.items() if k != "evidence"},
                             ensure_ascii=False), file=sys.stderr)
    return rows


def review_read(direct: Any) -> bool | None:
    """What the contract review read for the question's types: every type present (True),
    none (False), mixed or not read (None)."""
    check = direct.type_check if direct is not None else None
    return None if check is None else check.present


def gate_rows(graphs: dict[str, ClauseGraph], documents: dict[str, dict],
              items: list[dict]) -> list[dict[str, Any]]:
    """Each question asked with the answer gate off: the features the gate reads of its
    would-be answer (None: no sentence to answer with) and its label, 1 when that answer is
    right (an answerable question whose direct answer states the fact), 0 otherwise (an
    unanswerable question is always wrong to answer). No policy text is kept."""
    rows = []
    with using_gate(None):
        for item in items:
            answer = graphs[documents[item["document"]]["folder"]].ask(
                item["question"], documents=[item["document"]])
            judged = judge(answer, item, whole_words=True)
            rows.append({
                "source": "policy", "group": item["document"], "id": item["id"],
                "label": int(not judged["not_found"] and judged["direct_ok"]),
                "answerable": not judged["not_found"],
                "features": answer.direct.gate_features if answer.direct else None,
                "review_present": review_read(answer.direct),
                "outcome": {k: v for k, v in judged.items()
                            if k not in ("question", "direct_answer", "top")},
            })
    return rows


@contextmanager
def fold_ranker(sentence_rows: list[dict[str, Any]] | None, held_out: str) -> Iterator[None]:
    """Inside the block answers choose their sentence with a ranker fitted on
    ``sentence_rows`` without the ``held_out`` policy's (nothing changes for None)."""
    if sentence_rows is None:
        yield
        return
    from train_sentence_ranker import arrays

    shipped = shipped_ranker()
    train = [r for r in sentence_rows if not (r["source"] == "policy" and r["group"] == held_out)]
    X, y, group, weight = arrays(train, shipped.header["trained_on"]["policy_weight"])
    with using_ranker(SentenceRanker(C=shipped.C).fit(X, y, weight, groups=group)):
        yield


@contextmanager
def fold_kinds(held_out: str) -> Iterator[None]:
    """Inside the block questions are read by a question-kind model fitted as the shipped one
    (scripts/train_question_kinds.py) without the ``held_out`` policy's questions."""
    from train_question_kinds import fold_kind_model

    with using_kind_model(fold_kind_model(held_out)):
        yield


def read_gate_rows(path: Path, source: str | None = None) -> list[dict[str, Any]]:
    """Rows written by scripts/fit_answer_gate.py (JSON lines), of one ``source`` or all."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if source is None or r["source"] == source]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    base = summarise(rows)
    answerable = [r for r in rows if not r["not_found"]]
    return {
        "questions": base["questions"], "answerable": base["answerable"],
        "not_found_questions": base["not_found_questions"],
        "hit@1": base["recall@1"], "hit@5": base["recall@5"],
        "direct_answer": base["direct_answer"], "not_found_right": base["not_found"],
        "verdict_or_direct_answer": share([r.get("verdict_or_quote_ok", False)
                                           for r in answerable]),
        "quote_alone": share([r.get("quote_ok", False) for r in answerable]),
        # of the answered answerable questions with a verdict line, the share whose verdict
        # states the fact ("Yes", "No: excluded", "24 months", "As stated in the Schedule")
        "verdict_lines": sum(r.get("verdict_ok") is not None for r in answerable),
        "verdict_states_fact": share([r["verdict_ok"] for r in answerable
                                      if r.get("verdict_ok") is not None]),
        "answerable_wrongly_not_found": sum(r["wrongly_not_found"] for r in rows),
        "answerable_wrongly_not_found_pct": share([r["wrongly_not_found"] for r in answerable]),
        "seconds_total": round(sum(r["seconds"] for r in rows), 1),
        "seconds_per_question": round(sum(r["seconds"] for r in rows) / len(rows), 2)
        if rows else None,
    }


def report(rows: list[dict[str, Any]], documents: dict[str, dict]) -> dict[str, Any]:
    by_doc: dict[str, list] = defaultdict(list)
    for row in rows:
        by_doc[row["document"]].append(row)
    per_document = {doc: {"folder": documents[doc]["folder"], "kind": documents[doc]["kind"],
                          **summary(by_doc[doc])} for doc in documents if doc in by_doc}
    by_folder = {folder: summary([r for r in rows if documents[r["document"]]["folder"] == folder])
                 for folder in sorted({documents[r["document"]]["folder"] for r in rows})}
    direct = [s["direct_answer"] for s in per_document.values() if s["direct_answer"] is not None]
    return {"overall": summary(rows), "by_folder": by_folder, "per_document": per_document,
            "lowest_document_direct_answer": min(direct) if direct else None}


def print_table(result: dict[str, Any]) -> None:
    print("| document | kind | questions (answerable / not) | hit@1 | hit@5 | direct answer "
          "| not-found right | answerable said not found | s/question |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = [*result["per_document"].items(),
            *((f"**{folder}**", {"kind": "", **s}) for folder, s in result["by_folder"].items()),
            ("**all**", {"kind": "", **result["overall"]})]
    for doc, s in rows:
        print(f"| {doc} | {s['kind']} | {s['questions']} ({s['answerable']} / "
              f"{s['not_found_questions']}) | {s['hit@1']} | {s['hit@5']} | {s['direct_answer']} | "
              f"{s['not_found_right']} | {s['answerable_wrongly_not_found']} | "
              f"{s['seconds_per_question']} |")
    print(f"\nlowest per-document direct answer: {result['lowest_document_direct_answer']}")
    print("the verdict line or the direct answer states the fact: "
          f"{result['overall']['verdict_or_direct_answer']}")
    print(f"the quoted sentence alone states the fact: {result['overall']['quote_alone']}")
    print(f"the verdict line states the fact: {result['overall']['verdict_states_fact']} "
          f"(of {result['overall']['verdict_lines']} answered questions with one)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=shared_data_dir())
    parser.add_argument("--index-dir", type=Path, default=Path("/tmp/clausegraph-policies"))
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--documents", help="comma-separated file names: only these documents")
    parser.add_argument("--fresh", action="store_true", help="rebuild the indexes")
    parser.add_argument("--no-ingest", action="store_true",
                        help="ask only the documents already in the indexes (e.g. while one "
                        "is still being built); the others are listed as skipped")
    parser.add_argument("--leave-one-out", action="store_true",
                        help="score each document with an answer gate fitted without it")
    parser.add_argument("--gate-rows", type=Path,
                        help="with --leave-one-out: the CUAD dev rows of this file "
                        "(scripts/fit_answer_gate.py --rows) join every fold's training")
    parser.add_argument("--sentence-rows", type=Path,
                        help="with --leave-one-out: the answer-sentence ranker is fitted per "
                        "fold too, on this file's rows (scripts/train_sentence_ranker.py "
                        "--rows) without the held-out policy's, at the shipped ranker's C "
                        "and policy weight; each fold's gate rows are then asked with it")
    parser.add_argument("--out", type=Path,
                        help="write the figures and per-question outcomes (no policy text) as JSON")
    parser.add_argument("--details", type=Path,
                        help="write every row with its direct answer and top-5 evidence text "
                        "(policy text: keep it out of the repository)")
    parser.add_argument("--verbose", action="store_true", help="print every row to stderr")
    parser.add_argument("--frame", help="ask each question after this frame, e.g. "
                        "'According to the policy document' asks 'According to the policy "
                        "document, what is ...?'")
    parser.add_argument("--name-documents", action="store_true", help="ask each question "
                        "naming its policy as an analyst might: '... under the <issuer and "
                        "product, as questions.yaml names them> policy?' (still scoped to it)")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE", help="override a setting for building and asking")
    args = parser.parse_args()
    settings = Settings().with_overrides(args.overrides) if args.overrides else None
    documents, items = load_questions(args.questions)
    if args.name_documents:
        items = [dict(i, question=named_question(i["question"], documents[i["document"]]))
                 for i in items]
    if args.frame:
        items = [dict(i, question=f"{args.frame}, {i['question'][:1].lower()}"
                      f"{i['question'][1:]}") for i in items]
    if args.documents:
        wanted = set(args.documents.split(","))
        unknown = wanted - set(documents)
        if unknown:
            parser.error(f"{args.questions}: no questions for {sorted(unknown)}")
        items = [i for i in items if i["document"] in wanted]
    folders = sorted({documents[i["document"]]["folder"] for i in items})
    if args.no_ingest:
        graphs = {folder: ClauseGraph.open(args.index_dir / folder, settings) for folder in folders}
        items = indexed_only(graphs, documents, items)
    else:
        graphs = {folder: open_index(folder, args.data / folder, args.index_dir, args.fresh,
                                     settings) for folder in folders}
        # a document its ingest refused (named above with the reason) is listed as skipped,
        # and the others are still scored
        items = indexed_only(graphs, documents, items)
    started = time.perf_counter()
    if args.leave_one_out:
        rows = []
        collected = {r["id"]: r for r in gate_rows(graphs, documents, items)}
        extra = read_gate_rows(args.gate_rows, "cuad") if args.gate_rows else []
        sentence_rows = read_gate_rows(args.sentence_rows) if args.sentence_rows else None
        for held_out, train, test in leave_one_out_folds(items):
            with fold_ranker(sentence_rows, held_out), fold_kinds(held_out):
                if sentence_rows is not None:  # the gate reads the fold ranker's answers
                    collected = {r["id"]: r for r in gate_rows(graphs, documents, train)}
                gate = fit_split_gate([collected[i["id"]] for i in train] + extra)
                print(f"[fold] {held_out}: gate fitted on {len(train)} questions + "
                      f"{len(extra)} CUAD asks (threshold {gate.threshold_:.3f}), score "
                      f"{len(test)}", file=sys.stderr)
                with using_gate(gate):
                    rows += ask_all(graphs, documents, test, args.verbose)
    else:
        rows = ask_all(graphs, documents, items, args.verbose)
    result = report(rows, documents)
    result["protocol"] = "leave-one-document-out" if args.leave_one_out else "all documents"
    print_table(result)
    print(f"\n({len(rows)} questions answered in {time.perf_counter() - started:.0f}s)")
    if args.details:
        args.details.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    if args.out:
        result["rows"] = [{k: v for k, v in r.items() if k not in DETAIL_FIELDS}
                          | {"top5": [e["label"] for e in r["evidence"]]} for r in rows]
        args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
