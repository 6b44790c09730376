"""Fit the question-type lift of retrieval on CUAD train (issue 25, item 2).

Retrieval adds ``type_weight`` times a clause's type affinity with the question
(``clausegraph.classify.questions``): the question's probability over CUAD's 41 categories
(a softmax at ``temperature`` of its cosine with each category's description, averaged with
the clause-type model's reading of the question since session 12; nothing below
``min_similarity``) times the clause's own type probabilities. This script chooses
``temperature`` and ``type_weight`` on the train contracts:

- every train contract is asked one question per category it has a clause of, worded from
  the category's name ("What does this agreement provide on Anti-Assignment?"; not the
  description the question is compared with, and not the dev questions), retrieval scoped to
  the contract with the lift off; a retrieved clause is right when CUAD's labels give it the
  category (the clause-type model's own label rule);
- the clauses' type probabilities are out-of-fold: the clause-type model (the shipped design)
  is fitted on half the train contracts and predicts the other half, and the other way
  round, so no contract is typed by a model that saw its labels;
- every (temperature, weight) of the grid reranks the retrieved clauses; the pair with the
  best mean of hit@1 and hit@5 is written to ``clausegraph/classify/data/question_types.json``
  with the figures of the whole grid.

``min_similarity`` is not fitted here (every train question is about a CUAD category): it is
the gate that keeps questions about anything else unlifted, set between the cosines of the
policy benchmark's questions and CUAD-style questions (docs/clause_types.md, "Question types").

    python scripts/fit_type_lift.py --train-index IDX_TRAIN \\
        --save clausegraph/classify/data/question_types.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_clause_types import (  # noqa: E402
    _embedding_text,
    document_labels,
    load_labels,
    stored_documents,
    text_path,
)

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.classify import (  # noqa: E402
    CUAD_CATEGORIES,
    STORED_TYPE_FLOOR,
    ClauseTypeModel,
    load_clause_type_model,
)
from clausegraph.classify.questions import QuestionTypeModel, descriptions  # noqa: E402
from clausegraph.config import RetrievalConfig  # noqa: E402
from clausegraph.eval.data import shared_data_dir  # noqa: E402

TEMPERATURES = (10.0, 20.0, 40.0, 80.0)
WEIGHTS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)
MIN_SIMILARITY = 0.45
POOL = 30  # clauses retrieved per question, reranked at each grid point


def question_for(category: str) -> str:
    return f"What does this agreement provide on {category}?"


def read_split(index_dir: str, data: Path, split: str = "train"):
    """Clause ids, embedded texts, stored vectors, CUAD labels (n, 41), documents, and the
    stored types (n, 41) of an index's contracts of ``split``."""
    records = load_labels(data)
    ids, texts, vectors, labels, documents, stored_types = [], [], [], [], [], []
    column = {name: j for j, name in enumerate(CUAD_CATEGORIES)}
    for document, clauses, stored in stored_documents(index_dir, False):
        record = records.get(document.doc_id)
        if record is None or record["split"] != split:
            continue
        for clause in clauses:
            row = np.zeros(len(CUAD_CATEGORIES), dtype=np.float32)
            for kind in clause.clause_types:
                row[column[kind.label]] = kind.probability
            stored_types.append(row)
        gold_text = text_path(data, record).read_text(encoding="utf-8")
        labels += document_labels(document.text, clauses, record, gold_text)
        ids += [c.clause_id for c in clauses]
        texts += [_embedding_text(c) for c in clauses]
        vectors.append(stored)
        documents += [document.doc_id] * len(clauses)
    return ids, texts, np.vstack(vectors), np.array(labels), documents, np.array(stored_types)


def out_of_fold_types(texts, vectors, labels, documents, params: dict) -> np.ndarray:
    """Each clause's type probabilities from a model fitted on the other half of train."""
    order = sorted(set(documents))
    rng = np.random.default_rng(25)
    rng.shuffle(order)
    half = set(order[: len(order) // 2])
    fold = np.array([d in half for d in documents])
    probabilities = np.zeros(labels.shape, dtype=np.float32)
    texts = np.array(texts, dtype=object)
    for held in (True, False):
        fit = fold != held
        started = time.perf_counter()
        model = ClauseTypeModel(**params).fit(list(texts[fit]), vectors[fit], labels[fit])
        probabilities[~fit] = model.predict_proba(list(texts[~fit]), vectors[~fit])
        print(f"fold fitted on {fit.sum()} clauses in {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    # retrieval sees only the types a clause stores (classify.STORED_TYPE_FLOOR and up)
    probabilities[probabilities < STORED_TYPE_FLOOR] = 0.0
    return probabilities


def collect_asks(index_dir: str, documents: list[str], labels: np.ndarray,
                 ids: list[str], wording) -> list[tuple]:
    """Per (contract, category it has a clause of): the retrieved clauses' scores with the
    lift off, their rows, the category's column and the question's vector."""
    row = {clause_id: i for i, clause_id in enumerate(ids)}
    retriever = ClauseGraph.open(index_dir).retriever
    config = RetrievalConfig(type_weight=0.0, top_k=POOL)
    asks = []
    for doc_id in sorted(set(documents)):
        rows_of_doc = [i for i, d in enumerate(documents) if d == doc_id]
        for j, category in enumerate(CUAD_CATEGORIES):
            if not labels[rows_of_doc, j].any():
                continue
            question = wording(category)
            results = retriever.retrieve(question, config, doc_ids=[doc_id])
            asks.append((np.array([r.score for r in results]),
                         [row[r.clause_id] for r in results], j,
                         retriever.query_vector(question), question))
    return asks


def score_grid(asks: list[tuple], types: np.ndarray, labels: np.ndarray,
               anchors: np.ndarray, label: str) -> list[dict]:
    """hit@1 / hit@5 of the reranked clauses at every (temperature, weight)."""
    grid = []
    for temperature in TEMPERATURES:
        # the shipped design: the clause-type model reads each question too
        model = QuestionTypeModel(temperature, MIN_SIMILARITY,
                                  load_clause_type_model()).fit(anchors)
        asked = model.predict_proba(np.vstack([a[3] for a in asks]), [a[4] for a in asks])
        for weight in WEIGHTS:
            hit1 = hit5 = 0
            for (scores, rows, j, _, _), question in zip(asks, asked):
                affinity = types[rows] @ question
                order = np.argsort(-(scores + weight * affinity), kind="stable")
                right = labels[np.array(rows)[order], j] == 1
                hit1 += bool(right[:1].any())
                hit5 += bool(right[:5].any())
            grid.append({"temperature": temperature, "type_weight": weight,
                         "hit_at_1": round(100 * hit1 / len(asks), 1),
                         "hit_at_5": round(100 * hit5 / len(asks), 1)})
            print(f"{label} T={temperature:>4} w={weight:<5} hit@1 {grid[-1]['hit_at_1']:5.1f}"
                  f"  hit@5 {grid[-1]['hit_at_5']:5.1f}", file=sys.stderr)
    return grid


def dev_questions(path: Path) -> dict[str, str]:
    """The analyst questions of the CUAD dev benchmark, by category (reported, not fitted)."""
    import yaml

    items = yaml.safe_load(path.read_text(encoding="utf-8"))["categories"]
    return {item["category"]: item["question"] for item in items}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train-index", required=True)
    parser.add_argument("--dev-index", help="also report the grid on the CUAD dev index with "
                        "the benchmark's analyst questions and the types the index stores "
                        "(a report: nothing is chosen on it)")
    parser.add_argument("--data", type=Path, default=shared_data_dir())
    parser.add_argument("--save", type=Path)
    args = parser.parse_args()
    ids, texts, vectors, labels, documents, _ = read_split(args.train_index, args.data)
    types = out_of_fold_types(texts, vectors, labels, documents,
                              load_clause_type_model().params())
    anchors = ClauseGraph.open(args.train_index).embedder.encode(descriptions())
    started = time.perf_counter()
    asks = collect_asks(args.train_index, documents, labels, ids, question_for)
    print(f"{len(asks)} train questions retrieved in {time.perf_counter() - started:.0f} s",
          file=sys.stderr)
    grid = score_grid(asks, types, labels, anchors, "train")
    best = max(grid, key=lambda g: (g["hit_at_1"] + g["hit_at_5"], -g["type_weight"]))
    similarity = np.vstack([a[3] for a in asks]) @ np.asarray(anchors).T
    result = {
        "temperature": best["temperature"], "min_similarity": MIN_SIMILARITY,
        "type_weight": best["type_weight"],
        "fitted_on": {"contracts": len(set(documents)), "questions": len(asks),
                      "share_of_questions_above_min_similarity": round(float(
                          (similarity.max(axis=1) >= MIN_SIMILARITY).mean()), 3),
                      "wording": question_for("<category>"),
                      "clause_types": "out-of-fold (2 folds by contract), stored floor applied"},
        "train_grid": grid,
        "command": "python scripts/fit_type_lift.py --train-index IDX_TRAIN --dev-index IDX_DEV "
                   "--save clausegraph/classify/data/question_types.json",
    }
    if args.dev_index:
        wordings = dev_questions(ROOT / "benchmarks" / "cuad_dev" / "questions.yaml")
        ids, _, _, labels, documents, stored = read_split(args.dev_index, args.data, "dev")
        dev_asks = collect_asks(args.dev_index, documents, labels, ids, wordings.__getitem__)
        result["dev_grid"] = score_grid(dev_asks, stored, labels, anchors, "dev")
        result["dev_questions"] = len(dev_asks)
    print(json.dumps({k: v for k, v in result.items() if not k.endswith("grid")}, indent=1))
    if args.save:
        args.save.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
