#!/usr/bin/env python
"""Fit the review's span ranker on CUAD train and score the review on dev with CUAD's metric.

    pip install -e '.[train]'
    python scripts/train_span_ranker.py --train-index IDX_TRAIN --dev-index IDX_DEV \\
        --cache spans --save clausegraph/review/data/span_ranker.npz

The ranker (``clausegraph/review/ranker.py``) gives each candidate span of a review (every
sentence of each clause listed for a category, the narrowed span, the whole clause) its
probability of matching one of CUAD's highlighted spans (word-set Jaccard >= 0.5, as CUAD's
evaluate.py). Its inputs are the clause-type model's probabilities, so on train they must
come from models that did not see the contract: the train contracts are split into
``--folds`` groups, a clause-type model is fitted on the others (the shipped design and
settings) and scores each group's clauses and sentences. Dev candidates are scored with the
shipped clause-type model, as ``clausegraph review`` scores them.

``--compare`` fits each design of ``DESIGNS`` (learner, feature set, parameters) on train
and reports CUAD's AUPR and precision at 80% / 90% recall over the dev candidates, so the
design is a dev choice and the weights a train fit. The candidates of both splits are kept in
``--cache`` (the cross-fitting takes minutes; refits then take seconds).

``--novelty`` fits the second stage (``ranker.SpanNovelty``: the probability that a span
matches a highlight no span the ranker puts above it matches) on train, from the ranker's
features and its out-of-fold probabilities (``--folds`` fits of the shipped design), and
scores dev with the shipped ranker as the first stage, as ``clausegraph review`` runs:

    python scripts/train_span_ranker.py --cache spans --novelty \
        --save-novelty clausegraph/review/data/span_novelty.npz
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from itertools import islice
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_clause_types import (  # noqa: E402
    document_labels,
    load_labels,
    stored_documents,
    text_path,
)

from clausegraph.api import _embedding_text  # noqa: E402
from clausegraph.classify import CUAD_CATEGORIES, ClauseTypeModel, load_clause_type_model  # noqa: E402
from clausegraph.config import ReviewConfig  # noqa: E402
from clausegraph.eval.cuad import Prediction, score_spans, spans_match  # noqa: E402
from clausegraph.eval.data import shared_data_dir  # noqa: E402
from clausegraph.learn import FeatureLogistic  # noqa: E402
from clausegraph.review.ranker import (  # noqa: E402
    BASE_FEATURES,
    FEATURES,
    NOVELTY_EXTRA,
    SHIPPED,
    SHIPPED_NOVELTY,
    WORDS_FEATURE,
    SpanNovelty,
    SpanRanker,
    novelty_features,
    reads_words,
    shipped_ranker,
    span_features,
)
from clausegraph.review.select import Narrower, span_candidates  # noqa: E402
from clausegraph.review.words import SHIPPED as SHIPPED_WORDS  # noqa: E402
from clausegraph.review.words import SpanWords  # noqa: E402

CLAUSE_ONLY = ("clause_logit", "document_best_logit", "clause_gap", "clause_rank")
# name -> (learner, feature names, parameters)
DESIGNS: dict[str, tuple[str, tuple[str, ...], dict]] = {
    "logistic-clause-only": ("logistic", CLAUSE_ONLY, {"C": 1.0}),
    "logistic-base": ("logistic", BASE_FEATURES, {"C": 1.0}),
    "logistic-base+category": ("logistic", FEATURES, {"C": 1.0}),
    "trees-base+category": ("trees", FEATURES, {}),
    "trees-base+category-200": ("trees", FEATURES, {"max_iter": 200}),
    "trees-base+category-7-leaves": ("trees", FEATURES, {"max_leaf_nodes": 7}),
    "trees-base+category-l2-0": ("trees", FEATURES, {"l2_regularization": 0.0}),
}
SHIPPED_DESIGN = "trees-base+category"


def median_words(records: dict[str, dict]) -> dict[str, float]:
    """Median words of CUAD's highlighted spans per category, over the train contracts."""
    lengths: dict[str, list[int]] = defaultdict(list)
    seen = set()
    for record in records.values():
        if record["split"] != "train" or id(record) in seen:
            continue
        seen.add(id(record))
        for category, label in record["categories"].items():
            lengths[category] += [len(text.split()) for text in label["texts"]]
    return {c: float(statistics.median(v)) for c, v in lengths.items() if v}


def candidate_rows(document, clauses, probabilities, scorer, record, medians):
    """Feature rows, labels and the texts of every candidate span of one contract."""
    config = ReviewConfig()
    per_category = span_candidates(document, clauses, probabilities, CUAD_CATEGORIES, config,
                                   Narrower(config, scorer), every_sentence=True)
    rows, labels, keys, texts = [], [], [], []
    for category, found in zip(CUAD_CATEGORIES, per_category, strict=True):
        golds = record["categories"][category]["texts"]
        rows += span_features(found, category, medians)
        for candidate in found:
            labels.append(int(any(spans_match(g, candidate.text, category) for g in golds)))
            keys.append(category)
            texts.append(candidate.text)
    return rows, labels, keys, texts


def document_data(index: str, records: dict[str, dict], data: Path, split: str, staged: bool,
                  labelled: bool = True):
    """(document, clauses, embedded texts, vectors, clause labels, record) of each contract;
    the clause labels (what a fold's clause-type model is fitted on) only when ``labelled``."""
    for document, clauses, vectors in stored_documents(index, staged):
        record = records.get(document.doc_id)
        if record is None or record["split"] != split:
            continue
        labels = None
        if labelled:
            gold_text = text_path(data, record).read_text(encoding="utf-8")
            labels = np.array(document_labels(document.text, clauses, record, gold_text))
        yield document, clauses, [_embedding_text(c) for c in clauses], vectors, labels, record


def sentence_scorer(model, by_id, encode=None):
    """Scores sentences as the review does (``review.sentence_vectors``): with their clause's
    stored vector ('clause'), or each with its own vector when ``encode`` is given
    ('encode')."""
    if encode is not None:
        return lambda texts, owners: np.asarray(model.predict_proba(texts, encode(texts)))
    return lambda texts, owners: np.asarray(model.predict_proba(
        texts, np.stack([by_id[c.clause_id] for c in owners])))


def sentence_encoder(args):
    """The encoder of ``--sentence-vectors encode`` (None: the clause's stored vector)."""
    if args.sentence_vectors != "encode":
        return None
    from clausegraph.config import Settings
    from clausegraph.embed import create_embedder

    return create_embedder(Settings().embedding).encode


def collect_train(args, records, data, medians) -> dict:
    docs = list(document_data(args.train_index, records, data, "train", args.staged))
    docs = docs[: args.limit_train] if args.limit_train else docs
    print(f"train: {len(docs)} contracts", file=sys.stderr)
    folds = [docs[k::args.folds] for k in range(args.folds)]
    out: dict = defaultdict(list)
    encode = sentence_encoder(args)
    for k, held in enumerate(folds):
        started = time.perf_counter()
        fit_on = [d for j, fold in enumerate(folds) if j != k for d in fold]
        model = ClauseTypeModel(learner="logistic", features="both", C=4.0).fit(
            [t for d in fit_on for t in d[2]], np.vstack([d[3] for d in fit_on]),
            np.vstack([d[4] for d in fit_on]))
        for document, clauses, texts, vectors, _, record in held:
            probabilities = np.asarray(model.predict_proba(texts, vectors))
            by_id = {c.clause_id: v for c, v in zip(clauses, vectors)}
            add(out, document.doc_id, record, *candidate_rows(
                document, clauses, probabilities, sentence_scorer(model, by_id, encode),
                record, medians))
        print(f"fold {k + 1}/{args.folds}: {len(held)} contracts, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


def collect_dev(args, records, data, medians) -> dict:
    model = load_clause_type_model()
    out: dict = defaultdict(list)
    encode = sentence_encoder(args)
    dev = document_data(args.dev_index, records, data, "dev", args.staged, labelled=False)
    for document, clauses, texts, vectors, _, record in islice(dev, args.limit_dev):
        probabilities = np.asarray(model.predict_proba(texts, vectors))
        by_id = {c.clause_id: v for c, v in zip(clauses, vectors)}
        add(out, document.doc_id, record, *candidate_rows(
            document, clauses, probabilities, sentence_scorer(model, by_id, encode), record,
            medians))
    print(f"dev: {len(set(out['doc']))} contracts", file=sys.stderr)
    return out


def add(out, doc_id, record, rows, labels, keys, texts) -> None:
    out["rows"] += rows
    out["labels"] += labels
    out["category"] += keys
    out["text"] += texts
    out["doc"] += [doc_id] * len(rows)
    golds = out.setdefault("gold", {})
    for category in CUAD_CATEGORIES:
        golds[f"{doc_id}\t{category}"] = record["categories"][category]["texts"]


def to_arrays(collected: dict) -> dict:
    """Arrays to fit and score on; the span texts (needed to score dev with CUAD's metric)
    as one JSON document in UTF-8 bytes: a NumPy string array is as wide as its longest
    text, and one string of them all outgrows what NumPy stores (4 bytes a character)."""
    matrix = SpanRanker(features=FEATURES).matrix(collected["rows"])
    return {"X": matrix, "y": np.array(collected["labels"], dtype=np.int8),
            "category": np.array(collected["category"]),
            "text": np.frombuffer(json.dumps(collected["text"]).encode("utf-8"), dtype=np.uint8),
            "doc": np.array(collected["doc"]), "gold": json.dumps(collected["gold"])}


def span_texts(split: dict) -> list[str]:
    """The candidates' texts (a cache of an earlier version holds them as one string)."""
    stored = split["text"]
    if stored.dtype == np.uint8:
        return json.loads(stored.tobytes().decode("utf-8"))
    return json.loads(str(stored))


def cuad_scores(split: dict, confidence: np.ndarray) -> dict:
    """CUAD's AUPR and precision at 80/90% recall of the candidates at ``confidence``."""
    predictions: dict = defaultdict(dict)
    texts = span_texts(split)
    for doc, category, text, c in zip(split["doc"], split["category"], texts, confidence):
        key = (str(doc), str(category))
        predictions[key][str(text)] = max(float(c), predictions[key].get(str(text), 0.0))
    gold = {tuple(k.split("\t")): v for k, v in json.loads(str(split["gold"])).items()}
    scores = score_spans(gold, {k: [Prediction(text=t, confidence=c) for t, c in v.items()]
                                for k, v in predictions.items()})
    return {"aupr": round(scores.aupr, 4), "p_at_80r": round(scores.precision_at_80_recall, 4),
            "p_at_90r": round(scores.precision_at_90_recall, 4),
            "recall_ceiling": round(max(p.recall or 0 for p in scores.curve), 4)}


def columns(names, features=FEATURES):
    return [list(features).index(n) for n in names]


def fit(train: dict, design: str) -> SpanRanker | FeatureLogistic:
    learner, names, params = DESIGNS[design]
    model = (SpanRanker(features=names, **params) if learner == "trees"
             else FeatureLogistic(features=names, **params))
    return model.fit(train["X"][:, columns(names)], train["y"])


def dev_scores(model, dev: dict) -> dict:
    return cuad_scores(dev, model.predict_proba(dev["X"][:, columns(model.features)])[:, 1])


def by_key(split: dict) -> dict[tuple[str, str], list[int]]:
    """The candidates' rows of each (contract, category)."""
    keys: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, key in enumerate(zip(split["doc"], split["category"])):
        keys[(str(key[0]), str(key[1]))].append(i)
    return keys


def contract_folds(split: dict, folds: int) -> np.ndarray:
    """Each candidate's fold: its contract's place in name order, modulo ``folds``."""
    contracts = sorted(set(map(str, split["doc"])))
    group = {doc: k % folds for k, doc in enumerate(contracts)}
    return np.array([group[str(doc)] for doc in split["doc"]])


def add_span_words(train: dict, folds: int) -> None:
    """Set train's span words column (``WORDS_FEATURE``, the last of ``X``) from models
    fitted without the candidate's contract (``folds`` groups). Only the spans the ranker
    reads it of (``ranker.reads_words``) are fitted on and scored; the others' column is
    unknown. A cache collected before the feature existed lacks the column; it is added."""
    texts = span_texts(train)
    read = words_read(train)
    fold = contract_folds(train, folds)
    logits = np.full(len(texts), np.nan)
    for k in range(folds):
        fit_on = np.flatnonzero(read & (fold != k))
        model = SpanWords().fit([texts[i] for i in fit_on], train["category"][fit_on],
                                train["y"][fit_on])
        score_rows(model, train, texts, np.flatnonzero(read & (fold == k)), logits)
        print(f"span words: out-of-fold model {k + 1}/{folds}", file=sys.stderr)
    _set_words_column(train, logits)


def fit_span_words(train: dict, dev: dict | None) -> SpanWords:
    """The span words model fitted on every train candidate it reads (what ships), and dev's
    column set from it, as ``clausegraph review`` scores a new contract."""
    texts = span_texts(train)
    read = words_read(train)
    model = SpanWords().fit([texts[i] for i in np.flatnonzero(read)],
                            train["category"][read], train["y"][read])
    if dev is not None:
        dev_texts = span_texts(dev)
        dev_logits = np.full(len(dev_texts), np.nan)
        score_rows(model, dev, dev_texts, np.flatnonzero(words_read(dev)), dev_logits)
        _set_words_column(dev, dev_logits)
    return model


def score_rows(model: SpanWords, split: dict, texts: list[str], rows: np.ndarray,
               out: np.ndarray) -> None:
    """``out[rows]``: the model's logit of each of those candidates for its category."""
    for category in sorted(set(map(str, split["category"][rows]))):
        these = rows[split["category"][rows] == category]
        out[these] = model.decision_function([texts[i] for i in these], category)


def words_read(split: dict) -> np.ndarray:
    """Which candidates the ranker reads the span words logit of (``ranker.reads_words``)."""
    narrowed = split["X"][:, columns(["kind_narrowed"])[0]] == 1
    return np.array([reads_words("narrowed" if n else "sentence", str(c))
                     for n, c in zip(narrowed, split["category"], strict=True)])


def _set_words_column(split: dict, logits: np.ndarray) -> None:
    at = list(FEATURES).index(WORDS_FEATURE)
    split["X"] = np.column_stack([split["X"][:, :at], logits])


def out_of_fold(train: dict, design: str, folds: int) -> np.ndarray:
    """The ranker's probability of each train candidate from a ranker of ``design`` fitted
    without its contract (``folds`` groups of contracts)."""
    fold = contract_folds(train, folds)
    probability = np.zeros(len(fold))
    for k in range(folds):
        held = fold == k
        model = fit({"X": train["X"][~held], "y": train["y"][~held]}, design)
        probability[held] = model.predict_proba(train["X"][held][:, columns(model.features)])[:, 1]
        print(f"novelty: out-of-fold ranker {k + 1}/{folds}", file=sys.stderr)
    return probability


def novelty_data(split: dict, highlighted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The novelty model's rows of ``split`` given the ranker's probabilities, and its
    labels: a candidate matches a highlight that no candidate the ranker puts above it in
    its category matches (a text already above is never new)."""
    texts = span_texts(split)
    golds = json.loads(str(split["gold"]))
    extra = np.zeros((len(texts), len(NOVELTY_EXTRA)))
    labels = np.zeros(len(texts), dtype=np.int8)
    for (doc, category), rows in by_key(split).items():
        extra[rows] = novelty_features([texts[i] for i in rows], highlighted[rows])
        answers = golds.get(f"{doc}\t{category}", [])
        matched: set[str] = set()
        seen: set[str] = set()
        for i in sorted(rows, key=lambda i: -highlighted[i]):
            if split["y"][i] and texts[i] not in seen:
                hits = {g for g in answers if spans_match(g, texts[i], category)}
                labels[i] = int(bool(hits - matched))
                matched |= hits
            seen.add(texts[i])
    return np.column_stack([split["X"], extra]), labels


def fit_novelty(args, train: dict, dev: dict | None, report: dict) -> SpanNovelty:
    """The novelty model fitted on train (and its dev figures in ``report``)."""
    rows, labels = novelty_data(train, out_of_fold(train, SHIPPED_DESIGN, args.folds))
    model = SpanNovelty().fit(rows, labels)
    report["novelty_train"] = {"candidates": len(labels), "new": int(labels.sum())}
    if dev is not None:
        ranker = shipped_ranker()
        highlighted = ranker.predict_proba(dev["X"][:, columns(ranker.features)])[:, 1]
        dev_rows, _ = novelty_data(dev, highlighted)
        report["novelty_dev"] = {"ranker": cuad_scores(dev, highlighted),
                                 "ranker_and_novelty": cuad_scores(
                                     dev, model.predict_proba(dev_rows)[:, 1])}
        print(f"dev: {report['novelty_dev']}", file=sys.stderr)
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="../shared/data")
    parser.add_argument("--train-index", help="an index of the CUAD train contract texts")
    parser.add_argument("--dev-index", help="an index of the CUAD dev PDFs")
    parser.add_argument("--cache", type=Path, help="keep / reuse the candidates here (.npz)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--limit-train", type=int, help="only the first N train contracts "
                        "(a quick paired comparison of designs)")
    parser.add_argument("--limit-dev", type=int, help="only the first N dev contracts")
    parser.add_argument("--sentence-vectors", choices=("clause", "encode"), default="clause",
                        help="how sentences are scored (review.sentence_vectors): with their "
                        "clause's stored vector, or each embedded on its own")
    parser.add_argument("--staged", action="store_true",
                        help="read the documents an ingest still running has stored so far")
    parser.add_argument("--compare", action="store_true", help="fit and score every design")
    parser.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=list(DESIGNS))
    parser.add_argument("--design", default=SHIPPED_DESIGN, choices=[
        d for d, (learner, _, _) in DESIGNS.items() if learner == "trees"],
        help="what --save writes")
    parser.add_argument("--save", type=Path, help=f"write the weights (shipped: {SHIPPED})")
    parser.add_argument("--save-words", type=Path,
                        help=f"write the span words model (shipped: {SHIPPED_WORDS})")
    parser.add_argument("--report", type=Path, help="write the dev figures as JSON")
    parser.add_argument("--novelty", action="store_true",
                        help="fit the span novelty model (the second stage) and score dev")
    parser.add_argument("--save-novelty", type=Path,
                        help=f"write the novelty model (shipped: {SHIPPED_NOVELTY})")
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)
    data = args.data or shared_data_dir()
    records = load_labels(data)
    medians = median_words(records)
    splits = {}
    for name, collect in (("train", collect_train), ("dev", collect_dev)):
        cached = args.cache and args.cache.with_suffix(f".{name}.npz")
        if cached and cached.is_file():
            with np.load(cached, allow_pickle=False) as stored:
                splits[name] = {k: stored[k] for k in stored.files}
            continue
        if (name == "train" and not args.train_index) or (name == "dev" and not args.dev_index):
            continue
        splits[name] = to_arrays(collect(args, records, data, medians))
        if cached:  # written whole or not at all: a later run trusts a cache it finds
            partial = cached.with_suffix(".partial.npz")
            np.savez_compressed(partial, **splits[name])
            partial.replace(cached)
    train, dev = splits.get("train"), splits.get("dev")
    if train is None:
        raise SystemExit("no train candidates: give --train-index (or a --cache holding them)")
    print(f"train candidates {len(train['y'])} ({int(train['y'].sum())} positive)",
          file=sys.stderr)
    words = fit_span_words(train, dev)
    add_span_words(train, args.folds)
    if args.save_words:
        words.save(args.save_words, trained_on={
            "split": "train", "contracts": int(len(set(train["doc"]))),
            "candidates": int(len(train["y"])), "positives": int(train["y"].sum())})
        print(f"wrote {args.save_words}", file=sys.stderr)
    report: dict = {"train_candidates": int(len(train["y"])),
                    "train_positives": int(train["y"].sum()), "designs": []}
    if dev is not None:
        rule = dev["X"][:, columns(["clause_logit"])][:, 0]
        kind = dev["X"][:, columns(["kind_narrowed"])][:, 0]
        # the hand rule: the narrowed span at its clause's probability, nothing else listed
        rule_confidence = np.where(kind == 1, 1 / (1 + np.exp(-rule)), -1.0)
        report["rule"] = cuad_scores(dev, rule_confidence)
        print(f"dev, hand rule: {report['rule']}", file=sys.stderr)
    if args.compare and dev is not None:
        for name in args.designs:
            started = time.perf_counter()
            scores = dev_scores(fit(train, name), dev)
            report["designs"].append({"design": name, **scores,
                                      "fit_seconds": round(time.perf_counter() - started)})
            print(f"{name}: {scores}", file=sys.stderr)
    if args.save:
        ranker = fit(train, args.design)
        ranker.median_words_ = medians
        facts = {"design": args.design, "trained_on": {
            "split": "train", "contracts": int(len(set(train["doc"]))),
            "candidates": int(len(train["y"])), "positives": int(train["y"].sum()),
            "folds": args.folds}}
        if dev is not None:
            facts["dev"] = report["saved"] = dev_scores(ranker, dev)
        ranker.save(args.save, **facts)
        print(f"wrote {args.save}: {facts}", file=sys.stderr)
    if args.novelty or args.save_novelty:
        novelty = fit_novelty(args, train, dev, report)
        if args.save_novelty:
            facts = {"trained_on": {"split": "train", "candidates": len(train["y"]),
                                    "folds": args.folds, "first_stage": SHIPPED_DESIGN}}
            if dev is not None:
                facts["dev"] = report["novelty_dev"]
            novelty.save(args.save_novelty, **facts)
            print(f"wrote {args.save_novelty}", file=sys.stderr)
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
