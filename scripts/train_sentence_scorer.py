#!/usr/bin/env python
"""Fit the answer-sentence scorer (clausegraph/answer/sentences.py) on CUAD train.

    python scripts/train_sentence_scorer.py --train-index IDX_TRAIN --rows rows.jsonl \\
        --save clausegraph/answer/data/sentence_scorer.json
    # then on dev, the learned choice against the hand one:
    python scripts/bench_cuad_dev.py --index DEV_INDEX --set retrieval.answer_sentences=learned

Every CUAD category's description (benchmarks/cuad_dev/questions.yaml, ``description``:
CUAD's own wording, not the analyst questions the dev benchmark asks) is asked of each train
contract that has a clause of the category, scoped to the contract, through the Python API
as a user asks; each direct answer's candidate sentences are collected with their features
(``sentences.collecting``). A sentence is positive when it and one of CUAD's highlighted
spans of the category overlap: at least half of the sentence's words are in the span, or
at least half of the span's words are in the sentence (the clause-type labels' rule). The
fit weighs each ask alike (its candidates share one unit of weight between positives and
one between negatives), so long contracts do not dominate. ``--rows`` keeps the collected
candidates (collecting takes minutes; refits then take seconds). The report gives, per
design, how often the sentence ranked first on held-out train asks (5 folds by contract)
is a positive, against the hand choice.
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

from train_clause_types import load_labels  # noqa: E402

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.answer.sentences import FEATURES, SHIPPED, SentenceScorer, collecting  # noqa: E402
from clausegraph.eval.data import shared_data_dir  # noqa: E402

QUESTIONS = ROOT / "benchmarks" / "cuad_dev" / "questions.yaml"
OVERLAP_SHARE = 0.5
_WORD = re.compile(r"[a-z0-9]+")
HAND = ("hand_score", "type_affinity")  # the hand choice: score + prior x affinity


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


def collect(index: str, data: Path, limit: int | None) -> list[dict]:
    records = load_labels(data)
    questions = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))["categories"]
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
                graph.ask(item["description"], documents=[doc_id])
            for row in rows:
                for candidate in row["candidates"]:
                    candidate["label"] = int(overlaps(candidate["text"], golds))
                    del candidate["text"]
                asks.append({"doc_id": doc_id, "category": item["category"], **row})
        if n % 20 == 0:
            print(f"{n}/{len(doc_ids)} contracts, {len(asks)} asks, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    return asks


def arrays(asks: list[dict], features=FEATURES):
    scorer = SentenceScorer(features=features)
    X, y, group, weight = [], [], [], []
    for g, ask in enumerate(asks):
        labels = np.array([c["label"] for c in ask["candidates"]])
        if not len(labels):
            continue
        X.append(scorer.matrix([c["features"] for c in ask["candidates"]]))
        y.append(labels)
        group.append(np.full(len(labels), g))
        positives = max(int(labels.sum()), 1)
        negatives = max(int(len(labels) - labels.sum()), 1)
        weight.append(np.where(labels == 1, 1.0 / positives, 1.0 / negatives))
    return np.vstack(X), np.concatenate(y), np.concatenate(group), np.concatenate(weight)


def top1(scores: np.ndarray, y: np.ndarray, group: np.ndarray) -> float:
    """Share of asks (with a positive candidate) whose best-scored candidate is positive."""
    hits = total = 0
    for g in np.unique(group):
        mine = group == g
        if not y[mine].any():
            continue
        total += 1
        hits += int(y[mine][int(np.argmax(scores[mine]))] == 1)
    return hits / total if total else 0.0


def hand_scores(X: np.ndarray, prior: float) -> np.ndarray:
    return X[:, FEATURES.index("hand_score")] + prior * X[:, FEATURES.index("type_affinity")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train-index", help="an index of the CUAD train contract texts")
    parser.add_argument("--data", type=Path, default=None, help="../shared/data")
    parser.add_argument("--rows", type=Path, required=True, help="collected asks (JSONL): "
                        "written when missing, reused when present")
    parser.add_argument("--limit", type=int, help="only the first N train contracts")
    parser.add_argument("--C", type=float, nargs="+", default=[0.1, 1.0, 10.0])
    parser.add_argument("--prior", type=float, default=1.6,
                        help="the hand choice's answer_type_prior (the comparison)")
    parser.add_argument("--save", type=Path, help=f"write the fitted scorer (shipped: {SHIPPED})")
    parser.add_argument("--report", type=Path, help="write the comparison as JSON")
    args = parser.parse_args()
    if not args.rows.is_file():
        if not args.train_index:
            raise SystemExit(f"{args.rows}: missing; give --train-index to collect it")
        asks = collect(args.train_index, args.data or shared_data_dir(), args.limit)
        args.rows.write_text("".join(json.dumps(a) + "\n" for a in asks), encoding="utf-8")
    asks = [json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines()]
    X, y, group, weight = arrays(asks)
    contracts = sorted({a["doc_id"] for a in asks})
    fold_of = {d: i % 5 for i, d in enumerate(contracts)}
    ask_fold = np.array([fold_of[asks[g]["doc_id"]] for g in group])
    report = {"asks": len(asks), "contracts": len(contracts), "candidates": int(len(y)),
              "positives": int(y.sum()),
              "hand": {"top1": round(top1(hand_scores(X, args.prior), y, group), 4),
                       "prior": args.prior},
              "learned": []}
    print(f"{len(asks)} asks of {len(contracts)} contracts, {len(y)} candidates; hand choice "
          f"top-1 {report['hand']['top1']:.3f}", file=sys.stderr)
    for C in args.C:
        held_out = np.zeros(len(y))
        for k in range(5):
            test = ask_fold == k
            scorer = SentenceScorer(C=C).fit(X[~test], y[~test], weight[~test])
            held_out[test] = scorer.decision_function(X[test])
        score = round(top1(held_out, y, group), 4)
        report["learned"].append({"C": C, "top1_out_of_fold": score})
        print(f"learned C={C}: top-1 out of fold {score:.3f}", file=sys.stderr)
    if args.save:
        best = max(report["learned"], key=lambda r: r["top1_out_of_fold"])
        scorer = SentenceScorer(C=best["C"]).fit(X, y, weight)
        scorer.save(args.save, trained_on={
            "split": "train", "contracts": len(contracts), "asks": len(asks),
            "candidates": int(len(y)), "positives": int(y.sum()),
            "questions": "CUAD category descriptions"}, chosen_by=report)
        print(f"wrote {args.save} (C={best['C']})", file=sys.stderr)
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
