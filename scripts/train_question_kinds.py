#!/usr/bin/env python
"""Fit the question-kind model and score it, and the hand rule it replaced, on dev.

    pip install -e '.[train]'
    python scripts/train_question_kinds.py --compare --with-dev
    python scripts/train_question_kinds.py --with-dev --C 16 --features both \
        --save clausegraph/answer/data/question_kinds.npz --report docs/question_kinds_dev.json

Train: benchmarks/question_kinds/train.yaml (questions written for the model, none of them a
benchmark question). Dev: the hand labels of benchmarks/question_kinds/dev.yaml over the 290
policy questions (benchmarks/policies) and the 41 CUAD dev questions (benchmarks/cuad_dev).
``--compare`` fits each design (features x C) on train alone and prints its dev accuracy
beside the rule's (``clausegraph.answer.direct.rule_question_kind``). ``--with-dev`` fits on
train and the dev labels together, as shipped, and reports it out of sample the way the
policy benchmark is run: each policy's questions read by a model fitted without them (and
each CUAD question by one fitted without it). ``--save`` writes the fitted model. About ten
seconds on 2 cores (embedding the ~680 questions once; a fit takes well under a second).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clausegraph.answer.direct import rule_question_kind
from clausegraph.answer.kinds import KINDS, QuestionKindModel, shipped_model
from clausegraph.embed import create_embedder

DATA = ROOT / "benchmarks" / "question_kinds"
DESIGNS = [(features, C) for features in ("vector", "lexical", "both")
           for C in (0.25, 1.0, 4.0, 16.0, 64.0)]


def train_questions(path: Path = DATA / "train.yaml") -> tuple[list[str], list[str]]:
    kinds = yaml.safe_load(path.read_text(encoding="utf-8"))["kinds"]
    pairs = [(q, kind) for kind, questions in kinds.items() for q in questions]
    return [q for q, _ in pairs], [k for _, k in pairs]


def dev_questions(path: Path = DATA / "dev.yaml") -> list[dict]:
    """Each dev question with its set ('policies' or 'cuad') and hand label."""
    labels = yaml.safe_load(path.read_text(encoding="utf-8"))
    policies = yaml.safe_load((ROOT / "benchmarks/policies/questions.yaml").read_text())
    cuad = yaml.safe_load((ROOT / "benchmarks/cuad_dev/questions.yaml").read_text())
    rows = [{"set": "policies", "id": q["id"], "document": q["document"],
             "question": q["question"], "kind": labels["policies"][q["id"]]}
            for q in policies["questions"]]
    rows += [{"set": "cuad", "id": c["category"], "question": c["question"],
              "kind": labels["cuad"][c["category"]]} for c in cuad["categories"]]
    unknown = {r["kind"] for r in rows} - set(KINDS)
    if unknown:
        raise SystemExit(f"{path}: unknown kinds {sorted(unknown)}")
    return rows


def fitted(questions: list[str], vectors: np.ndarray, kinds: list[str], C: float,
           features: str) -> QuestionKindModel:
    return QuestionKindModel(C=C, features=features).fit(questions, vectors, kinds)


# train questions, their vectors, kinds; dev rows, their vectors
Encoded = tuple[list[str], np.ndarray, list[str], list[dict], np.ndarray]


def group(row: dict) -> str:
    """What a held-out fold leaves out: a policy's questions together, as the policy
    benchmark leaves a policy out; a CUAD question alone."""
    return row["document"] if row["set"] == "policies" else row["id"]


def fitted_without(held_out: str, encoded: Encoded, C: float,
                   features: str) -> QuestionKindModel:
    """A model fitted on train and the dev labels outside the ``held_out`` group."""
    train_q, train_v, train_k, dev, dev_v = encoded
    keep = [i for i, r in enumerate(dev) if group(r) != held_out]
    return fitted(train_q + [dev[i]["question"] for i in keep], np.vstack([train_v, dev_v[keep]]),
                  train_k + [dev[i]["kind"] for i in keep], C, features)


def held_out_kinds(encoded: Encoded, C: float, features: str) -> list[str]:
    """Each dev question's kind from a model fitted without its group."""
    dev, dev_v = encoded[3], encoded[4]
    predicted: list[str] = [""] * len(dev)
    for held_out in dict.fromkeys(map(group, dev)):
        held = [i for i, r in enumerate(dev) if group(r) == held_out]
        model = fitted_without(held_out, encoded, C, features)
        for i, kind in zip(held, model.predict([dev[i]["question"] for i in held],
                                               dev_v[held]), strict=True):
            predicted[i] = kind
    return predicted


@lru_cache(maxsize=1)
def encoded_questions() -> Encoded:
    train_q, train_k = train_questions()
    dev = dev_questions()
    encoder = create_embedder()
    return (train_q, encoder.encode(train_q), train_k, dev,
            encoder.encode([r["question"] for r in dev]))


def fold_kind_model(held_out_document: str) -> QuestionKindModel:
    """The shipped design fitted without one policy's questions (the policy benchmark's
    leave-one-out folds)."""
    shipped = shipped_model()
    return fitted_without(held_out_document, encoded_questions(), shipped.C, shipped.features)


def accuracy(predicted: list[str], rows: list[dict]) -> dict[str, float]:
    out = {}
    for name in ("policies", "cuad", "all"):
        pairs = [(p, r["kind"]) for p, r in zip(predicted, rows, strict=True)
                 if name in ("all", r["set"])]
        out[name] = round(100 * sum(p == k for p, k in pairs) / len(pairs), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare", action="store_true", help="score every design on dev")
    parser.add_argument("--features", default="both", choices=("vector", "lexical", "both"))
    parser.add_argument("--C", type=float, default=4.0)
    parser.add_argument("--with-dev", action="store_true",
                        help="fit on train and the dev labels (as shipped); report it with "
                        "each policy's questions held out")
    parser.add_argument("--save", type=Path, help="write the fitted model here")
    parser.add_argument("--report", type=Path, help="write the dev figures here (JSON)")
    args = parser.parse_args()

    encoded = encoded_questions()
    train_q, train_v, train_k, dev, dev_v = encoded
    dev_q = [r["question"] for r in dev]
    rule = [rule_question_kind(q) or "none" for q in dev_q]
    report: dict = {"train_questions": len(train_q), "train_kinds": Counter(train_k),
                    "dev_questions": len(dev), "rule": accuracy(rule, dev), "designs": []}
    print(f"train {len(train_q)} questions, dev {len(dev)}; rule: {report['rule']}")
    designs = DESIGNS if args.compare else [(args.features, args.C)]
    for features, C in designs:
        predicted = fitted(train_q, train_v, train_k, C, features).predict(dev_q, dev_v)
        row = {"features": features, "C": C, "train_only": accuracy(predicted, dev)}
        if args.with_dev:
            row["held_out"] = accuracy(held_out_kinds(encoded, C, features), dev)
        report["designs"].append(row)
        print(f"{features:8s} C={C:<5g} " + "  ".join(f"{k}: {v}" for k, v in row.items()
                                                        if isinstance(v, dict)))
    if args.save:
        questions, vectors, kinds = train_q, train_v, train_k
        if args.with_dev:
            questions, vectors = questions + dev_q, np.vstack([train_v, dev_v])
            kinds = kinds + [r["kind"] for r in dev]
        model = fitted(questions, vectors, kinds, args.C, args.features)
        model.embedding_model = create_embedder().name
        model.save(args.save, train_questions=len(questions), with_dev=args.with_dev,
                   script="scripts/train_question_kinds.py")
        held = held_out_kinds(encoded, args.C, args.features) if args.with_dev \
            else model.predict(dev_q, dev_v)
        report["saved"] = {"features": args.features, "C": args.C, "with_dev": args.with_dev,
                           "dev": accuracy(held, dev),
                           "errors": [{"id": r["id"], "question": r["question"],
                                       "label": r["kind"], "model": p, "rule": q}
                                      for r, p, q in zip(dev, held, rule, strict=True)
                                      if p != r["kind"]]}
        print(f"saved {args.save}; dev ({'held out' if args.with_dev else 'train only'}): "
              f"{report['saved']['dev']}")
    if args.report:
        args.report.write_text(json.dumps(report, indent=1, default=dict) + "\n")


if __name__ == "__main__":
    main()
