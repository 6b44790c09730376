#!/usr/bin/env python
"""Compute the SmoothQuant calibration packaged for ``embedding.quantize: int8``.

    python scripts/calibrate_int8.py     # writes clausegraph/embed/data/all-MiniLM-L6-v2-smoothquant.npz

Runs the fp32 all-MiniLM-L6-v2 graph over clauses of public legal text that no benchmark of
this project reads: LegalBench-RAG corpus documents (NDAs from ContractNLI, commercial
contracts from CUAD, merger agreements from MAUD; CC BY 4.0) in sorted file order, leaving out
every document the LegalBench-RAG mini benchmark cites and the 20 CUAD sample contracts of the
real-PDF benchmark, up to ``--clauses-per-dataset`` clauses from each dataset (PrivacyQA has
no document outside the mini benchmark). Clauses are cut by the project's segmenter and
embedded as the index embeds them (heading context + text, clipped to
``embedding.max_chars``). Per smoothed projection it records the largest |activation| of each
input channel over real tokens (18 vectors of 384 floats), with the SHA-256 of the weights
they describe. The judging benchmarks thus never calibrated the encoder they judge.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from clausegraph.eval.data import shared_data_dir  # noqa: E402

DATA = shared_data_dir()
DEFAULT_CORPUS = DATA / "legalbench-rag" / "corpus"
DEFAULT_EXCLUDED = (DATA / "legalbench-rag" / "benchmarks", DATA / "cuad-sample" / "txt")


def evaluated_documents(folders: tuple[Path, ...]) -> set[str]:
    """File names of every document a benchmark reads: those cited by the mini_*.json
    benchmarks in a folder, and the .txt files of a folder of documents."""
    names = set()
    for folder in folders:
        for path in sorted(folder.glob("mini_*.json")):
            for test in json.loads(path.read_text())["tests"]:
                names |= {Path(snippet["file_path"]).name for snippet in test["snippets"]}
        names |= {path.name for path in folder.glob("*.txt")}
    return names


def calibration_texts(corpus: Path, excluded: set[str], per_dataset: int,
                      max_chars: int) -> tuple[list[str], list[str]]:
    from clausegraph.api import _embedding_text
    from clausegraph.ingest import load_document
    from clausegraph.segment import segment

    texts, files = [], []
    for dataset in sorted(p for p in corpus.iterdir() if p.is_dir()):
        taken: list[str] = []
        for path in sorted(dataset.glob("*.txt")):
            if len(taken) >= per_dataset:
                break
            if path.name in excluded:
                continue
            taken += [_embedding_text(clause)[:max_chars]
                      for clause in segment(load_document(path))]
            files.append(f"{dataset.name}/{path.name}")
        texts += taken[:per_dataset]
    return texts, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="LegalBench-RAG corpus folder (one sub-folder per dataset)")
    parser.add_argument("--clauses-per-dataset", type=int, default=800)
    args = parser.parse_args(argv)

    import numpy as np

    from clausegraph.config import EmbeddingConfig
    from clausegraph.embed.base import weights_sha256
    from clausegraph.embed.bert_onnx import build_bert_encoder
    from clausegraph.embed.factory import PACKAGED_MODEL_NAME, packaged_minilm_dir
    from clausegraph.embed.int8 import activation_maxima, calibration_path, padded_batches
    from clausegraph.embed.onnx import OnnxEmbedder

    if not args.corpus.is_dir():
        raise SystemExit(f"error: {args.corpus}: no such corpus folder")
    excluded = evaluated_documents(DEFAULT_EXCLUDED)
    texts, files = calibration_texts(args.corpus, excluded, args.clauses_per_dataset,
                                     EmbeddingConfig().max_chars)
    model_dir = packaged_minilm_dir()
    # The encoder's own tokenizer (truncation at 256 word pieces), as at run time.
    tokenizer = OnnxEmbedder(model_dir, PACKAGED_MODEL_NAME)._tokenizer
    # Length-sorted batches pad little; the maxima do not depend on the order.
    encodings = sorted(tokenizer.encode_batch(texts), key=lambda e: len(e.ids))
    maxima = activation_maxima(build_bert_encoder(model_dir), padded_batches(encodings))
    output = calibration_path(PACKAGED_MODEL_NAME)
    output.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(output, weights_sha256=np.array(weights_sha256(model_dir)),
                        **{name: peak.astype(np.float32) for name, peak in maxima.items()})
    print(f"{len(texts)} clauses, {sum(map(len, texts)):,} characters, "
          f"{sum(len(e.ids) for e in encodings):,} word pieces from {len(files)} documents "
          f"({', '.join(files)}) -> {output} ({len(maxima)} projections)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
