"""Questions written by others: LegalBench-RAG's mini CUAD queries asked of the CUAD dev
contract PDFs through ``ask``, judged against CUAD's labels (docs/cuad_dev.md, session 32).

benchmarks/cuad_dev/questions.yaml holds this project's own wording of each CUAD category;
LegalBench-RAG (Pipitone & Alami 2024) wrote its own, naming the contract in the question
("Consider the SERVICE AGREEMENT between BICYCLETX LIMITED ("Company"); NIGEL CROCKETT
("Employee"); What is the governing law for this contract?"). Its mini split asks 194 such
questions of 29 CUAD contracts; those whose contract is in the dev split are asked here of
the dev PDFs' index, as a held-out user would put them:

- ``scoped``: the whole query, with the contract passed as the document
  (``ask(query, documents=[doc_id])``);
- ``unscoped``: the whole query alone, so the contract must be found from its naming.

The query's CUAD category is the one whose labelled spans its gold snippet overlaps most;
judged as scripts/bench_cuad_dev.py judges a positive (``eval.cuad_bench.judge_answer``:
hit@k when one of the first k evidence clauses holds a CUAD text of that category; the
direct answer, where the category has a normalised answer, states it), plus whether the
answer's first clause comes from the right contract.

    python scripts/bench_lbrag_asks.py --index DEV_INDEX --out docs/lbrag_asks_s32.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.eval.cuad import (  # noqa: E402
    CuadContract,
    CuadQuestion,
    load_cuad_labels,
    load_cuad_questions,
)
from clausegraph.eval.cuad_bench import Ask, AskOutcome, judge_answer, summarise  # noqa: E402
from clausegraph.eval.data import shared_data_dir  # noqa: E402

QUESTIONS = ROOT / "benchmarks" / "cuad_dev" / "questions.yaml"
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cuad_dev import commit, doc_ids, pct  # noqa: E402


# LegalBench-RAG's wording of a CUAD category (its mini split), as the wording names it
WORDING_CATEGORY = {
    "What is the governing law for this contract?": "Governing Law",
    "What is the expiration date of this contract?": "Expiration Date",
    "Is there an anti-assignment clause in this contract?": "Anti-Assignment",
    "Is there a cap on liability under this contract?": "Cap on Liability",
    "What licenses are granted under this contract?": "License Grant",
    "What are the audit rights under this contract?": "Audit Rights",
    "Can this contract be terminated for convenience, and under what conditions?":
        "Termination for Convenience",
    "Are there any services to be provided after the termination of this contract?":
        "Post-Termination Services",
    "Are there any exceptions to competitive restrictions in this contract?":
        "Competitive Restriction Exception",
    "How is intellectual property ownership assigned in this contract?":
        "IP Ownership Assignment",
    "Does this contract include an exclusivity agreement?": "Exclusivity",
    "Is there a covenant not to sue included in this contract?": "Covenant Not to Sue",
    "What is the renewal term for this contract?": "Renewal Term",
    "Does this contract include any right of first refusal, right of first offer, or right "
    "of first negotiation?": "Rofr/Rofo/Rofn",
    "Is there a minimum commitment required under this contract?": "Minimum Commitment",
    "Is there a non-compete clause in this contract?": "Non-Compete",
    "Does this contract include any revenue or profit-sharing arrangements?":
        "Revenue/Profit Sharing",
    "Are the licenses granted under this contract non-transferable?":
        "Non-Transferable License",
    "Does this contract include any volume restrictions?": "Volume Restriction",
    "What are the insurance requirements under this contract?": "Insurance",
    "Does the licensee's affiliates have any licensing rights under this contract?":
        "Affiliate License-Licensee",
    "Is there uncapped liability under this contract?": "Uncapped Liability",
    "What is the notice period required to terminate the renewal?":
        "Notice Period to Terminate Renewal",
    "Are there any third-party beneficiaries designated in this contract?":
        "Third Party Beneficiary",
    "Is there a clause preventing the solicitation of employees in this contract?":
        "No-Solicit of Employees",
    "Is there a clause preventing the solicitation of customers in this contract?":
        "No-Solicit of Customers",
    "What happens in the event of a change of control of one of the parties in this "
    "contract?": "Change of Control",
    "Does this contract provide for joint intellectual property ownership?":
        "Joint IP Ownership",
    "What is the duration of any warranties provided in this contract?": "Warranty Duration",
    "Is there a non-disparagement clause in this contract?": "Non-Disparagement",
    "Are any of the licenses granted under this contract irrevocable or perpetual?":
        "Irrevocable or Perpetual License",
    "Is there a most favored nation clause in this contract?": "Most Favored Nation",
}


def overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def category_of(contract: CuadContract, spans: list[tuple[int, int]]) -> str | None:
    """The CUAD category with a labelled span most like a snippet (character intervals'
    Jaccard: a long License Grant span that holds a short Non-Transferable License one
    overlaps the snippet as much, but is less like it); None when none overlaps."""
    best, best_score = None, 0.0
    for category, label in contract.categories.items():
        for s in spans:
            for g in label.spans:
                if g and (shared := overlap(s, g)):
                    score = shared / (max(s[1], g[1]) - min(s[0], g[0]))
                    if score > best_score:
                        best, best_score = category, score
    return best


def wording(query: str) -> str:
    """The question a query asks after naming its contract ("...; What is ...?")."""
    return query.rsplit(";", 1)[-1].strip()


def plan(tests: list[dict[str, Any]], dev: list[CuadContract],
         questions: dict[str, CuadQuestion]) -> list[Ask]:
    """One positive ask per LegalBench-RAG test on a dev contract."""
    by_doc = {c.doc: c for c in dev if c.doc}
    placed = []
    for test in tests:
        paths = {s["file_path"] for s in test["snippets"]}
        if len(paths) != 1 or (contract := by_doc.get(paths.pop())) is None:
            continue
        category = category_of(contract, [tuple(s["span"]) for s in test["snippets"]])
        placed.append((test, contract, category))
    # LegalBench-RAG asks each category in one wording; its snippets do not always name the
    # category (a License Grant span holds the Non-Transferable one), so the wordings of the
    # mini split are read here; another wording takes the category most of its snippets match
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for test, _, category in placed:
        if category is not None:
            votes[wording(test["query"])][category] += 1
    asks = []
    for test, contract, _ in placed:
        asked = wording(test["query"])
        category = WORDING_CATEGORY.get(asked) or (
            votes[asked].most_common(1)[0][0] if votes[asked] else None)
        if category is None:
            continue
        ours = questions[category]
        question = CuadQuestion(category=category, description=ours.description,
                                question=test["query"], answer_kind=ours.answer_kind)
        asks.append(Ask(contract=contract, question=question, gold="positive"))
    return asks


def run(graph: ClauseGraph, asks: list[Ask], ids: dict[str, str],
        scoped: bool) -> list[tuple[AskOutcome, bool]]:
    """Each ask judged, with whether its first evidence clause is from its contract."""
    results = []
    texts: dict[str, list[str]] = {}
    for ask in asks:
        doc_id = ids[ask.contract.pdf]
        started = time.perf_counter()
        answer = graph.ask(ask.question.question, documents=[doc_id] if scoped else None)
        seconds = time.perf_counter() - started
        if doc_id not in texts:
            texts = {doc_id: [c.text for c in graph.index.clauses.document_clauses(doc_id)]}
        outcome = judge_answer(ask, answer, doc_id, seconds, texts[doc_id])
        right_doc = bool(answer.evidence) and answer.evidence[0].doc_id == doc_id
        results.append((outcome, right_doc))
    return results


def report(name: str, results: list[tuple[AskOutcome, bool]]) -> dict[str, Any]:
    outcomes = [o for o, _ in results]
    s = summarise(outcomes)
    right_doc = sum(r for _, r in results) / len(results)
    print(f"{name}: {s.positives} asks, right contract first {pct(right_doc)}, hit@1 "
          f"{pct(s.hit_at_1)}, hit@5 {pct(s.hit_at_5)}, gold in index {pct(s.gold_in_index)}, "
          f"value answers {pct(s.value_answer_accuracy)} ({s.value_answers}), yes found "
          f"{pct(s.yes_found)} ({s.yes_answers}), said not found {s.not_found_false}")
    return {"summary": s.model_dump(), "right_contract_first": right_doc,
            "asks": [o.model_dump(include={"contract", "category", "found", "hit_rank",
                                           "answer_right", "verdict", "direct_answer"})
                     | {"right_contract_first": r} for o, r in results]}


def run_corpus_set(graph: ClauseGraph, tests: list[dict[str, Any]], name: str
                   ) -> dict[str, Any]:
    """A mini split of LegalBench-RAG other than CUAD (PrivacyQA, ContractNLI, MAUD) asked
    of an index of its documents, scoped and not: hit@k when one of the first k evidence
    clauses holds a gold snippet (CUAD's judge, ``eval.cuad.first_hit``)."""
    from clausegraph.eval.cuad import first_hit

    corpus = shared_data_dir() / "legalbench-rag" / "corpus"
    by_name = {Path(e.source_path).name: d for d, e in graph.index.entries().items()}
    texts = {path: (corpus / path).read_text(encoding="utf-8")
             for path in {t["snippets"][0]["file_path"] for t in tests}}
    result: dict[str, Any] = {}
    for mode in ("scoped", "unscoped"):
        ranks, found = [], 0
        for test in tests:
            path = test["snippets"][0]["file_path"]
            golds = [texts[path][a:b] for a, b in (s["span"] for s in test["snippets"])]
            doc = by_name[Path(path).name]
            answer = graph.ask(test["query"], documents=[doc] if mode == "scoped" else None)
            ranks.append(first_hit([e.text for e in answer.evidence], golds))
            found += answer.found
        hit = {k: sum(r is not None and r <= k for r in ranks) / len(ranks) for k in (1, 5)}
        print(f"{name} {mode}: {len(ranks)} asks, hit@1 {pct(hit[1])}, hit@5 {pct(hit[5])}, "
              f"answered {found}")
        result[mode] = {"asks": len(ranks), "hit_at_1": hit[1], "hit_at_5": hit[5],
                        "answered": found}
    return result


# the other mini splits: the option naming the index to ask them of, and its benchmark file
CORPUS_SETS = {"privacy_qa": "mini_privacy_qa.json", "contractnli": "mini_contractnli.json",
               "maud": "mini_maud.json"}


def wording_questions(questions: dict[str, CuadQuestion]) -> list[CuadQuestion]:
    """LegalBench-RAG's wording of each category it asks (without a contract's naming), in
    place of this project's: to ask every dev contract, positives and hard negatives."""
    return [CuadQuestion(category=category, description=questions[category].description,
                         question=wording, answer_kind=questions[category].answer_kind)
            for wording, category in WORDING_CATEGORY.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", required=True, help="an index of the CUAD dev PDFs")
    parser.add_argument("--modes", default="scoped,unscoped")
    parser.add_argument("--out", type=Path, help="write figures and every ask as JSON")
    parser.add_argument("--every-contract", action="store_true", help="also ask each of "
                        "LegalBench-RAG's wordings of every dev contract the index holds, as "
                        "scripts/bench_cuad_dev.py asks its own (positives and hard negatives)")
    parser.add_argument("--log", type=Path, help="with --every-contract: each judged ask as "
                        "JSONL")
    for name in CORPUS_SETS:
        parser.add_argument(f"--{name.replace('_', '-')}-index", type=Path, help=f"also ask "
                            f"the mini {name} queries of an index of their documents (built "
                            "there when absent, from ../shared/data/legalbench-rag/corpus)")
    args = parser.parse_args()
    bench = shared_data_dir() / "legalbench-rag" / "benchmarks" / "mini_cuad.json"
    tests = json.loads(bench.read_text(encoding="utf-8"))["tests"]
    dev = load_cuad_labels(split="dev").contracts
    questions = {q.category: q for q in load_cuad_questions(QUESTIONS)}
    asks = plan(tests, dev, questions)
    graph = ClauseGraph.open(args.index)
    ids = doc_ids(graph, [a.contract for a in asks], only_indexed=True)
    asks = [a for a in asks if a.contract.pdf in ids]
    print(f"{len(asks)} of {len(tests)} LegalBench-RAG mini CUAD queries are on "
          f"{len({a.contract.pdf for a in asks})} indexed dev contracts")
    command = "python scripts/bench_lbrag_asks.py --index DEV_INDEX"
    command += "".join(f" --{name.replace('_', '-')}-index {name.upper()}_INDEX"
                       for name in CORPUS_SETS if getattr(args, f"{name}_index"))
    command += f" --modes {args.modes}" if args.modes != "scoped,unscoped" else ""
    command += " --every-contract" if args.every_contract else ""
    result: dict[str, Any] = {"command": command, "commit": commit()}
    for mode in args.modes.split(","):
        result[mode] = report(mode, run(graph, asks, ids, scoped=mode == "scoped"))
    if args.every_contract:
        from bench_cuad_dev import report_benchmark, run_asks

        started = time.perf_counter()
        outcomes = run_asks(graph, dev, wording_questions(questions), dev, args.log, False,
                            only_indexed=True)
        result["every_contract"] = report_benchmark(outcomes, wording_questions(questions),
                                                    time.perf_counter() - started)
    corpus = shared_data_dir() / "legalbench-rag" / "corpus"
    for name, file in CORPUS_SETS.items():
        folder = getattr(args, f"{name}_index")
        if folder is None:
            continue
        tests = json.loads((bench.parent / file).read_text(encoding="utf-8"))["tests"]
        graph = ClauseGraph.open(folder, create=True)
        graph.ingest(sorted({corpus / t["snippets"][0]["file_path"] for t in tests}))
        result[name] = run_corpus_set(graph, tests, name)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
