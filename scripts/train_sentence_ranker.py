#!/usr/bin/env python
"""Fit the answer-sentence ranker (clausegraph/answer/sentences.py) on the 22 policies'
questions and CUAD train, score it out of sample, and ship the weights fitted on all of them.

    python scripts/train_sentence_ranker.py --policy-index-dir POLICY_IDX \\
        --train-index TRAIN_INDEX --rows ROWS --save clausegraph/answer/data/sentence_ranker.json
    python scripts/train_sentence_ranker.py --rows ROWS          # refits: seconds

Collecting (once; ``--rows`` keeps the candidates, refits then take seconds): every question
of benchmarks/policies/questions.yaml is asked of its policy, and every CUAD category's
description (benchmarks/cuad_dev/questions.yaml, ``description``: CUAD's own wording, not
the analyst questions the dev benchmark asks) of each CUAD **train** contract that has a
clause of the category, scoped to the document through the Python API as a user asks, with
the hand choice; each direct answer's candidate sentences (the hand score's best
``sentences.CANDIDATES``) are collected with their features, the cosine with the question
among them (``sentences.collecting``). A policy candidate is right when it states one of the
question's answer patterns (as the policy benchmark judges a direct answer, whole words); a
CUAD candidate when it and one of CUAD's highlighted spans of the category overlap (at least
half of the sentence's words are in the span, or half of the span's words in the sentence).
A question without a right candidate teaches nothing.

Out of sample, as chosen: each policy's questions by a ranker fitted without that policy
(leave one document out) and each CUAD fold (5 folds by contract) by one fitted without it;
the share of questions whose chosen candidate is right, against the hand choice's. The
policies weigh ``--policy-weight`` times the CUAD asks in all (each ask alike within a
source). The shipped ranker is fitted on every row at the C and weight chosen.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_answers import states_fact  # noqa: E402
from bench_policies import load_questions  # noqa: E402
from train_clause_types import load_labels  # noqa: E402

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.answer.sentences import SHIPPED, SentenceRanker, collecting  # noqa: E402
from clausegraph.eval.data import shared_data_dir  # noqa: E402

CUAD_QUESTIONS = ROOT / "benchmarks" / "cuad_dev" / "questions.yaml"
OVERLAP_SHARE = 0.5
CUAD_FOLDS = 5
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def overlaps(sentence: str, golds: list[str]) -> bool:
    own = words(sentence)
    for gold in golds:
        held = words(gold)
        common = len(own & held)
        if common and (common >= OVERLAP_SHARE * len(own) or common >= OVERLAP_SHARE * len(held)):
            return True
    return False


def collect_policies(index_dir: Path) -> list[dict]:
    """Every answerable policy question's candidates, labelled by its answer patterns."""
    documents, items = load_questions()
    graphs = {folder: ClauseGraph.open(index_dir / folder)
              for folder in sorted({d["folder"] for d in documents.values()})}
    asks = []
    for item in items:
        if item.get("not_found"):
            continue
        with collecting() as rows:
            graphs[documents[item["document"]]["folder"]].ask(
                item["question"], documents=[item["document"]], answer_sentences="hand")
        for row in rows[:1]:  # the document's own answer (one per scoped question)
            for candidate in row["candidates"]:
                candidate["label"] = int(states_fact(candidate.pop("text"),
                                                     item.get("answer", []), True))
            asks.append({"source": "policy", "group": item["document"], "id": item["id"],
                         **row})
    return asks


def collect_cuad(index: str, data: Path, limit: int | None) -> list[dict]:
    """Each train contract's candidates for the descriptions of the categories it has."""
    records = load_labels(data)
    questions = yaml.safe_load(CUAD_QUESTIONS.read_text(encoding="utf-8"))["categories"]
    graph = ClauseGraph.open(index)
    doc_ids = [d for d in graph.index.entries() if d in records
               and records[d]["split"] == "train"][:limit]
    asks = []
    started = time.perf_counter()
    for n, doc_id in enumerate(doc_ids, 1):
        record = records[doc_id]
        for item in questions:
            golds = record["categories"][item["category"]]["texts"]
            if not golds:
                continue
            with collecting() as rows:
                graph.ask(item["description"], documents=[doc_id], answer_sentences="hand")
            for row in rows[:1]:
                for candidate in row["candidates"]:
                    candidate["label"] = int(overlaps(candidate.pop("text"), golds))
                asks.append({"source": "cuad", "group": doc_id,
                             "category": item["category"], **row})
        if n % 20 == 0:
            print(f"{n}/{len(doc_ids)} contracts, {len(asks)} asks, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    return asks


def arrays(asks: list[dict], policy_weight: float):
    """X, y, the ask of each candidate, and each candidate's ask weight (the policy asks
    together weigh ``policy_weight`` times the CUAD asks together)."""
    ranker = SentenceRanker()
    counts = {s: sum(a["source"] == s for a in asks) for s in ("policy", "cuad")}
    X, y, group, weight = [], [], [], []
    for g, ask in enumerate(asks):
        labels = np.array([c["label"] for c in ask["candidates"]])
        if not len(labels):
            continue
        X.append(ranker.matrix([c["features"] for c in ask["candidates"]]))
        y.append(labels)
        group.append(np.full(len(labels), g))
        share = policy_weight if ask["source"] == "policy" else 1.0
        weight.append(np.full(len(labels), share / max(counts[ask["source"]], 1)))
    return np.vstack(X), np.concatenate(y), np.concatenate(group), np.concatenate(weight)


def top1(scores: np.ndarray, y: np.ndarray, group: np.ndarray, asks: np.ndarray) -> float:
    """Share of ``asks`` (with a right candidate) whose best-scored candidate is right."""
    hits = total = 0
    for g in asks:
        mine = group == g
        if not y[mine].any():
            continue
        total += 1
        hits += int(y[mine][int(np.argmax(scores[mine]))] == 1)
    return round(100.0 * hits / total, 1) if total else 0.0


def out_of_sample(asks: list[dict], X, y, group, weight, C: float) -> np.ndarray:
    """Every candidate's score by a ranker fitted without its policy or CUAD fold."""
    held_out = np.zeros(len(y))
    contracts = sorted({a["group"] for a in asks if a["source"] == "cuad"})
    fold_of = {d: f"cuad{i % CUAD_FOLDS}" for i, d in enumerate(contracts)}
    unit = np.array([a["group"] if a["source"] == "policy" else fold_of[a["group"]]
                     for a in asks])[group]
    for name in np.unique(unit):
        test = unit == name
        ranker = SentenceRanker(C=C).fit(X[~test], y[~test], weight[~test], groups=group[~test])
        held_out[test] = ranker.decision_function(X[test])
    return held_out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path, required=True, help="collected asks (JSONL): "
                        "written when missing, reused when present")
    parser.add_argument("--policy-index-dir", type=Path, help="the policy benchmark's indexes "
                        "(scripts/bench_policies.py --index-dir)")
    parser.add_argument("--train-index", help="an index of the CUAD train contract texts")
    parser.add_argument("--data", type=Path, default=None, help="../shared/data")
    parser.add_argument("--limit", type=int, help="only the first N train contracts")
    parser.add_argument("--C", type=float, nargs="+", default=[0.3, 1.0, 3.0])
    parser.add_argument("--policy-weight", type=float, nargs="+", default=[0.0, 0.5, 1.0, 4.0],
                        help="the policy asks' total weight against the CUAD asks' (0: CUAD "
                        "alone; the policies are still scored)")
    parser.add_argument("--save", type=Path, help=f"write the fitted ranker (shipped: {SHIPPED})")
    parser.add_argument("--report", type=Path, help="write the comparison as JSON")
    args = parser.parse_args()
    if not args.rows.is_file():
        if not args.policy_index_dir or not args.train_index:
            raise SystemExit(f"{args.rows}: missing; give --policy-index-dir and "
                             "--train-index to collect it")
        asks = collect_policies(args.policy_index_dir) + collect_cuad(
            args.train_index, args.data or shared_data_dir(), args.limit)
        args.rows.write_text("".join(json.dumps(a) + "\n" for a in asks), encoding="utf-8")
    asks = [json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines()]
    source = np.array([a["source"] for a in asks])
    policy_asks = np.flatnonzero(source == "policy")
    cuad_asks = np.flatnonzero(source == "cuad")
    X, y, group, _ = arrays(asks, 1.0)
    hand = X[:, SentenceRanker().features.index("hand_score")]
    # the hand choice is the shortlist's first (its order: hand score plus the type prior)
    first = np.zeros(len(y))
    first[np.r_[0, np.flatnonzero(group[1:] != group[:-1]) + 1]] = 1.0
    report = {"asks": {"policy": len(policy_asks), "cuad": len(cuad_asks)},
              "candidates": int(len(y)), "right": int(y.sum()),
              "hand": {"policy": top1(first, y, group, policy_asks),
                       "cuad": top1(first, y, group, cuad_asks)},
              "hand_score_alone": {"policy": top1(hand, y, group, policy_asks),
                                   "cuad": top1(hand, y, group, cuad_asks)},
              "learned": []}
    print(f"asks {report['asks']}, {len(y)} candidates; hand choice top-1 {report['hand']}",
          file=sys.stderr)
    for policy_weight in args.policy_weight:
        X, y, group, weight = arrays(asks, policy_weight)
        for C in args.C:
            held_out = out_of_sample(asks, X, y, group, weight, C)
            row = {"C": C, "policy_weight": policy_weight,
                   "policy": top1(held_out, y, group, policy_asks),
                   "cuad": top1(held_out, y, group, cuad_asks)}
            report["learned"].append(row)
            print(f"learned {row}", file=sys.stderr)
    if args.save:
        # chosen by the policies out of sample, then CUAD (the two benchmarks it serves)
        best = max(report["learned"], key=lambda r: (r["policy"] + r["cuad"]))
        X, y, group, weight = arrays(asks, best["policy_weight"])
        ranker = SentenceRanker(C=best["C"]).fit(X, y, weight, groups=group)
        ranker.save(args.save, trained_on={
            "policy_questions": len(policy_asks), "cuad_train_asks": len(cuad_asks),
            "cuad_split": "train", "candidates": int(len(y)), "right": int(y.sum()),
            "policy_weight": best["policy_weight"]}, chosen_by=report)
        print(f"wrote {args.save} (C={best['C']}, policy weight {best['policy_weight']})",
              file=sys.stderr)
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
