#!/usr/bin/env python
"""Fit the clause-type model on CUAD train and report clause-level average precision on dev.

    pip install -e '.[train]'
    python scripts/train_clause_types.py --train-index IDX_TRAIN --dev-index IDX_DEV --compare
    python scripts/train_clause_types.py --train-index IDX_TRAIN --dev-index IDX_DEV \
        --learner logistic --features both --save clausegraph/classify/data/clause_types.npz

Data: ``../shared/data/cuad-train`` (``cuad_labels.json``). The clauses are our own
segmenter's, read from indexes through the Python API with the vectors stored at ingest, so
nothing is embedded again: ``--train-index`` holds the 320 train contract texts (without it
they are ingested into ``--build-train-index``), ``--dev-index`` the 105 dev contract PDFs.

Labels (docs/clause_types.md, "Labels"): a clause has a category when its words cover at least
half of one gold span's words, or at least half of the clause's words lie inside one gold
span. Gold offsets point into CUAD's text files: train clauses are cut from those files, dev
clauses from the PDFs, whose words are aligned to the text file's words first (difflib).

``--compare`` fits each design (logistic regression on vector / lexical / both, an MLP)
on train and scores it on dev; ``--save`` fits one design and writes the weights. Both write
a JSON report (``--report``) with per-category AP, micro/macro AP and train seconds.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from clausegraph.api import ClauseGraph, _embedding_text
from clausegraph.config import Settings
from clausegraph.embed import create_embedder
from clausegraph.classify import CUAD_CATEGORIES, STORED_TYPE_FLOOR, ClauseTypeModel
from clausegraph.eval.data import shared_data_dir
from clausegraph.models import Clause, Document
from clausegraph.store.local.folder import FolderStore

# Share of a gold span, or of a clause, that must overlap for the clause to carry the span's
# category: a clause holding a whole short span (a date, a party) is positive, as is each
# clause of a span that runs over several clauses; a clause that only grazes a span's edge is not.
OVERLAP_SHARE = 0.5
_WORD = re.compile(r"[a-z0-9]+")

DESIGNS = {  # name -> ClauseTypeModel parameters
    "logistic-vector": {"learner": "logistic", "features": "vector"},
    "logistic-lexical": {"learner": "logistic", "features": "lexical"},
    "logistic-both": {"learner": "logistic", "features": "both"},
    "mlp-both": {"learner": "mlp", "features": "both", "hidden": 128, "max_iter": 20},
}


@dataclass
class ClauseSet:
    """Clauses of one split: embedded texts, stored vectors, 0/1 labels (n, 41), documents."""

    texts: list[str]
    vectors: np.ndarray
    labels: np.ndarray
    documents: list[str]
    embedding_model: str


def load_labels(data: Path) -> dict[str, dict]:
    """CUAD records by the doc ids an index gives their text file and their PDF (the first
    16 hex digits of the file's sha256), so a copy under any name is found."""
    path = data / "cuad-train" / "cuad_labels.json"
    if not path.is_file():
        raise SystemExit(f"{path}: missing (the CUAD labels; see ../shared/data/README.md)")
    records = {}
    for record in json.loads(path.read_text(encoding="utf-8"))["contracts"]:
        records[record["text_sha256"][:16]] = records[record["pdf_sha256"][:16]] = record
    return records


def text_path(data: Path, record: dict) -> Path:
    if record["doc"]:
        return data / "legalbench-rag" / "corpus" / record["doc"]
    return data / "cuad-train" / "txt_not_in_lbrag" / record["txt"]


# -- labelling -----------------------------------------------------------------------------

class GoldText:
    """A contract's CUAD text file with its words, and a map from the words of the text a
    clause was cut from (the same file, or the PDF's extracted text) onto the file's words."""

    def __init__(self, text: str) -> None:
        found = [(m.group(), m.start()) for m in _WORD.finditer(text.lower())]
        self.words = [w for w, _ in found]
        self.starts = np.array([s for _, s in found], dtype=np.int64)

    def positions_in(self, source_text: str) -> tuple[np.ndarray, np.ndarray]:
        """(start of each word of ``source_text``, the file offset of the same word or -1).

        The source is the file itself for train (identity) and the PDF text for dev: words
        are aligned by difflib's matching blocks (on a dev PDF 16,506 of 16,510 words match).
        """
        found = [(m.group(), m.start()) for m in _WORD.finditer(source_text.lower())]
        source_starts = np.array([s for _, s in found], dtype=np.int64)
        mapped = np.full(len(found), -1, dtype=np.int64)
        matcher = difflib.SequenceMatcher(None, [w for w, _ in found], self.words)
        for a, b, size in matcher.get_matching_blocks():
            mapped[a:a + size] = self.starts[b:b + size]
        return source_starts, mapped

    def words_in(self, start: int, end: int) -> int:
        return int(np.searchsorted(self.starts, end) - np.searchsorted(self.starts, start))


def clause_labels(clause: Clause, record: dict, gold: GoldText, source_starts: np.ndarray,
                  mapped: np.ndarray) -> np.ndarray:
    """A clause has a category when the clause's words (mapped into the CUAD text file)
    cover at least OVERLAP_SHARE of one of its gold spans' words, or at least OVERLAP_SHARE
    of the clause's own words lie inside one gold span."""
    inside = np.zeros(len(source_starts), dtype=bool)
    for start, end in clause.segments:
        inside |= (source_starts >= start) & (source_starts < end)
    positions = mapped[inside]
    n_clause = max(int(inside.sum()), 1)
    labels = np.zeros(len(CUAD_CATEGORIES), dtype=np.int8)
    for j, category in enumerate(CUAD_CATEGORIES):
        for span in record["categories"][category]["spans"]:
            if span is None:
                continue
            covered = int(((positions >= span[0]) & (positions < span[1])).sum())
            if covered and (covered >= OVERLAP_SHARE * max(gold.words_in(*span), 1)
                            or covered >= OVERLAP_SHARE * n_clause):
                labels[j] = 1
                break
    return labels


def document_labels(document_text: str, clauses: list[Clause], record: dict,
                    gold_text: str) -> list[np.ndarray]:
    gold = GoldText(gold_text)
    source_starts, mapped = gold.positions_in(document_text)
    return [clause_labels(c, record, gold, source_starts, mapped) for c in clauses]


# -- reading indexes -----------------------------------------------------------------------

StoredDocument = tuple[Document, list[Clause], np.ndarray]


def stored_documents(index_dir: str, staged: bool) -> Iterator[StoredDocument]:
    """(document, clauses, stored vectors) of every document of an index, through the API;
    with ``staged``, of every document folder an ingest still running has already stored
    (local folders only: each is complete once renamed into place, before any commit)."""
    if not staged:
        reader = ClauseGraph.open(index_dir).index
        for doc_id in reader.entries():
            clauses = reader.clauses.document_clauses(doc_id)
            yield (reader.clauses.document(doc_id), clauses,
                   reader.vectors.vectors([c.clause_id for c in clauses]))
        return
    store = FolderStore(index_dir)
    for folder in sorted((Path(index_dir) / "docs").iterdir()):
        if not folder.name.startswith("."):
            yield (store.read_document(folder.name), store.read_clauses(folder.name),
                   store.read_embeddings(folder.name))


def index_encoder(index_dir: str, staged: bool) -> str:
    """The encoder that embedded an index's clauses (a staged index: the configured one)."""
    if staged:
        return create_embedder(Settings().embedding).name
    return str(ClauseGraph.open(index_dir).index.info().get("embedding_model", ""))


def read_split(index_dir: str, data: Path, records: dict[str, dict], split: str,
               staged: bool = False) -> ClauseSet:
    """Every clause of the index's documents of ``split``, with its stored vector and labels."""
    texts, vectors, labels, documents = [], [], [], []
    for document, clauses, stored in stored_documents(index_dir, staged):
        record = records.get(document.doc_id)
        if record is None or record["split"] != split:
            continue
        texts += [_embedding_text(c) for c in clauses]
        vectors.append(stored)
        gold_text = text_path(data, record).read_text(encoding="utf-8")
        labels += document_labels(document.text, clauses, record, gold_text)
        documents += [document.doc_id] * len(clauses)
    if not texts:
        raise SystemExit(f"{index_dir}: holds no CUAD {split} contract")
    print(f"{split}: {len(set(documents))} documents, {len(texts)} clauses from {index_dir}",
          file=sys.stderr)
    return ClauseSet(texts, np.vstack(vectors), np.array(labels), documents,
                     index_encoder(index_dir, staged))


def build_train_index(data: Path, records: dict[str, dict], index_dir: Path) -> None:
    """Ingest the train contract texts (vectors are computed once, at ingest)."""
    train = {r["text_sha256"]: r for r in records.values() if r["split"] == "train"}.values()
    paths = [text_path(data, r) for r in train]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"train texts missing: {missing[:3]} ...")
    ClauseGraph.open(index_dir, create=True).ingest(paths)


# -- scoring -------------------------------------------------------------------------------

def average_precisions(labels: np.ndarray, scores: np.ndarray) -> dict:
    """Clause-level AP per category (with a dev positive), micro over all (clause, category)
    pairs, and macro (mean over categories)."""
    from sklearn.metrics import average_precision_score

    per_category = {category: round(float(average_precision_score(labels[:, j], scores[:, j])), 4)
                    for j, category in enumerate(CUAD_CATEGORIES) if labels[:, j].any()}
    return {"micro_ap": round(float(average_precision_score(labels.ravel(), scores.ravel())), 4),
            "macro_ap": round(float(np.mean(list(per_category.values()))), 4),
            "per_category": per_category,
            "positives": {category: int(labels[:, j].sum())
                          for j, category in enumerate(CUAD_CATEGORIES)}}


def floor_table(labels: np.ndarray, scores: np.ndarray,
                floors: Sequence[float] = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5)) -> list[dict]:
    """For each floor: share of gold (clause, category) pairs kept, stored types per clause,
    and the precision of the stored types."""
    rows = []
    for floor in floors:
        kept = scores >= floor
        right = float((kept & (labels == 1)).sum())
        rows.append({"floor": floor,
                     "recall": round(right / max(int(labels.sum()), 1), 4),
                     "precision": round(right / max(int(kept.sum()), 1), 4),
                     "types_per_clause": round(float(kept.sum() / len(labels)), 3)})
    return rows


def run_design(name: str, params: dict, train: ClauseSet,
               dev: ClauseSet | None) -> tuple[ClauseTypeModel, dict]:
    """Fit one design on train; score it on dev (when given)."""
    started = time.perf_counter()
    model = ClauseTypeModel(**params).fit(train.texts, train.vectors, train.labels)
    seconds = time.perf_counter() - started
    if dev is None:
        return model, {"design": name, "params": model.params(), "train_seconds": round(seconds, 1)}
    started = time.perf_counter()
    scores = model.predict_proba(dev.texts, dev.vectors)
    predict_seconds = time.perf_counter() - started
    result = {"design": name, "params": model.params(), "train_seconds": round(seconds, 1),
              "dev_predict_ms_per_clause": round(1000 * predict_seconds / len(dev.texts), 3),
              **average_precisions(dev.labels, scores), "floors": floor_table(dev.labels, scores)}
    print(f"{name:18s} micro AP {result['micro_ap']:.3f}  macro AP {result['macro_ap']:.3f}  "
          f"train {seconds:.0f} s", file=sys.stderr)
    return model, result


def choose(args: argparse.Namespace, fitted: dict[str, ClauseTypeModel], results: list[dict],
           train: ClauseSet, dev: ClauseSet | None) -> tuple[str, ClauseTypeModel, dict]:
    """``--design best``: the compared design with the highest dev micro AP (the measure
    closest to the review benchmark's AUPR pooled over categories); else the named design
    or the ``--learner``/``--features`` given, fitted now."""
    if args.design == "best":
        if not results:
            raise SystemExit("--design best needs --compare and --dev-index")
        best = max(results, key=lambda r: r["micro_ap"])
        return best["design"], fitted[best["design"]], best
    if args.design in fitted:
        return args.design, fitted[args.design], next(r for r in results
                                                      if r["design"] == args.design)
    params = DESIGNS.get(args.design) or {"learner": args.learner, "features": args.features,
                                          "C": args.C, "buckets": args.buckets}
    model, result = run_design(args.design or "given", params, train, dev)
    return args.design or "given", model, result


def markdown(report: dict) -> str:
    """The report's tables for docs/clause_types.md: designs, per-category AP, floors."""
    lines = ["| design | micro AP | macro AP | train s |", "|---|---|---|---|"]
    lines += [f"| {r['design']} | {r['micro_ap']:.3f} | {r['macro_ap']:.3f} | "
              f"{r['train_seconds']:.0f} |" for r in report["designs"]]
    saved = report.get("saved")
    if saved and "per_category" in saved:
        names = [r["design"] for r in report["designs"]]
        lines += ["", "| category | dev positives | " + " | ".join(names) + " |",
                  "|---|---|" + "---|" * len(names)]
        for category, ap in saved["per_category"].items():
            cells = [f"{r['per_category'].get(category, float('nan')):.3f}"
                     for r in report["designs"]]
            lines.append(f"| {category} | {saved['positives'][category]} | "
                         + " | ".join(cells) + " |")
        lines += ["", "| floor | gold pairs kept | stored types right | types per clause |",
                  "|---|---|---|---|"]
        lines += [f"| {f['floor']} | {f['recall']:.1%} | {f['precision']:.1%} | "
                  f"{f['types_per_clause']:.2f} |" for f in saved["floors"]]
    return "\n".join(lines)


def split_facts(clauses: ClauseSet) -> dict:
    return {"documents": len(set(clauses.documents)), "clauses": len(clauses.texts),
            "positive_pairs": int(clauses.labels.sum())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="../shared/data")
    parser.add_argument("--train-index", help="an index of the CUAD train contract texts")
    parser.add_argument("--build-train-index", type=Path,
                        help="without --train-index: ingest the train texts into this folder")
    parser.add_argument("--dev-index", help="an index of the CUAD dev PDFs (the report)")
    parser.add_argument("--compare", action="store_true", help="fit and score every design")
    parser.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=list(DESIGNS))
    parser.add_argument("--learner", default="logistic")
    parser.add_argument("--features", default="both")
    parser.add_argument("--C", type=float, default=4.0)
    parser.add_argument("--buckets", type=int, default=2**14)
    parser.add_argument("--staged", action="store_true",
                        help="read the documents an ingest still running has stored so far")
    parser.add_argument("--blas-threads", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write the fitted model's weights here")
    parser.add_argument("--design", help="what --save writes: a design name, 'best' (of "
                        "--compare, by dev micro AP), or none: --learner/--features/--C")
    parser.add_argument("--report", type=Path, default=Path("docs/clause_types_dev.json"))
    parser.add_argument("--markdown", type=Path, help="print the tables of this report "
                        "(a --report file) as Markdown and stop")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(args.markdown.read_text(encoding="utf-8"))))
        return 0

    # One BLAS thread: the products are small, and threads that spin waiting for each
    # other made the fit 6x slower on a busy 2-core machine.
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=args.blas_threads)
    data = args.data or shared_data_dir()
    records = load_labels(data)
    train_index = args.train_index
    if train_index is None:
        target = args.build_train_index or Path(tempfile.mkdtemp(prefix="cuad-train-idx-"))
        build_train_index(data, records, target)
        train_index = str(target)
    train = read_split(train_index, data, records, "train", args.staged)
    dev = read_split(args.dev_index, data, records, "dev", args.staged) if args.dev_index else None
    if dev is not None and dev.embedding_model != train.embedding_model:
        raise SystemExit(f"train vectors come from {train.embedding_model}, dev vectors from "
                         f"{dev.embedding_model}: build both indexes with one encoder")
    report: dict = {"train": split_facts(train), "dev": split_facts(dev) if dev else None,
                    "stored_type_floor": STORED_TYPE_FLOOR, "designs": []}
    fitted: dict[str, ClauseTypeModel] = {}
    if args.compare and dev is not None:
        for name in args.designs:
            fitted[name], result = run_design(name, DESIGNS[name], train, dev)
            report["designs"].append(result)
    if args.save:
        name, model, result = choose(args, fitted, report["designs"], train, dev)
        model.embedding_model = train.embedding_model
        model.save(args.save, design=name, trained_on={"split": "train", **report["train"]},
                   dev={k: result[k] for k in ("micro_ap", "macro_ap") if k in result})
        report["saved"] = {"path": str(args.save), "bytes": args.save.stat().st_size, **result}
        print(f"saved {name} to {args.save} ({args.save.stat().st_size:,} bytes)",
              file=sys.stderr)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"report: {args.report}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
