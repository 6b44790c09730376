#!/usr/bin/env python
"""Embedding backends side by side: throughput, agreement of the vectors, and cold starts.

    nice -n 5 python scripts/bench_embed.py --speed-clauses 2000 --rounds 1 \\
        --out docs/bench_embed.json
    python scripts/bench_embed.py --install-only --venv /tmp/v --index /tmp/demo-index \\
        --out docs/bench_install.json

On the same real clauses (the project's segmenter over LegalBench-RAG corpus documents, in
sorted file order, until ``--clauses`` clauses):

- throughput in characters per second of the ONNX backend (the default), the
  sentence-transformers + torch backend, and the ONNX graph with dynamic int8 weights
  (``--int8``: per-tensor, per-channel, and the shipped SmoothQuant encoder
  ``embedding.quantize=int8`` with its packaged calibration),
  measured in turns (``--rounds``) in one process so machine load hits all of them alike;
  the best round of each is compared;
- cosine between each backend's vectors and sentence-transformers' on every clause (min, mean);
- how far each encoder's dense ranking of those clauses for the LegalBench-RAG mini queries
  moves from the ONNX fp32 graph's (same top-1 clause, top-k overlap);
- with ``--venv``: the size of that virtual environment (``du``), and with ``--index`` cold
  wall and CPU (user + system) seconds of ``clausegraph --help | stats | show | ask`` run by
  the venv's interpreter (each a fresh process; the run with the best wall time of
  ``--cold-runs``). On a shared, loaded machine CPU seconds are the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from clausegraph.eval.data import shared_data_dir  # noqa: E402

DEFAULT_CORPUS = shared_data_dir() / "legalbench-rag" / "corpus"


def real_clauses(corpus: Path, count: int, sample_seed: int | None = None) -> list[str]:
    """Clause texts as the pipeline cuts them, from the corpus files in sorted order, or
    with ``sample_seed`` in a seeded random order of the files: the first files (ContractNLI's
    short NDAs) are not the corpus's mix of lengths, which the full-corpus scale run embeds."""
    import random

    from clausegraph.ingest import iter_input_files, load_document
    from clausegraph.segment import segment

    paths = list(iter_input_files([corpus]))
    if sample_seed is not None:
        random.Random(sample_seed).shuffle(paths)
    texts: list[str] = []
    for path in paths:
        texts += [clause.text for clause in segment(load_document(path))]
        if len(texts) >= count:
            break
    return texts[:count]


# Dynamic int8 variants of the default graph (onnxruntime.quantization): per-tensor int8
# weights (quantize_dynamic's defaults) and per-channel uint8 weights (what optimum's
# AutoQuantizationConfig.avx2 and sentence-transformers' "quint8_avx2" export use on AVX2 CPUs
# without VNNI), measured and not shipped (docs/embedding.md); and "smooth", the shipped
# SmoothQuant encoder (embedding.quantize=int8, clausegraph/embed/int8.py, packaged calibration).
INT8_VARIANTS = ("pertensor", "perchannel", "smooth")


def int8_embedder(onnx_embedder, variant: str):
    """The default graph with dynamically quantised int8 weights, in a copy of the encoder."""
    import copy

    from onnxruntime.quantization import QuantType, quantize_dynamic

    from clausegraph.embed.onnx import OnnxEmbedder, _open_session

    if variant == "smooth":
        return OnnxEmbedder(onnx_embedder.model_dir, onnx_embedder.name, quantize="int8")
    folder = Path(tempfile.mkdtemp(prefix="bench-int8-"))
    output = folder / f"{variant}.onnx"
    # DefaultTensorType: the fused com.microsoft ops carry no type information for the
    # quantiser's shape inference; every tensor here is float32.
    options: dict = {"extra_options": {"DefaultTensorType": 1}}
    if variant == "pertensor":
        options["weight_type"] = QuantType.QInt8
    else:
        # uint8 weights: ONNX Runtime's AVX2 u8s8 kernel (VPMADDUBSW) can saturate int16 sums.
        options.update(weight_type=QuantType.QUInt8, per_channel=True)
    quantize_dynamic(onnx_embedder.graph_path, output, **options)
    quantised = copy.copy(onnx_embedder)
    quantised._session = _open_session(output)
    return quantised


def throughput(encoders: dict, texts: list[str], rounds: int) -> tuple[dict, dict]:
    chars = sum(len(text[:2000]) for text in texts)
    seconds: dict[str, list[float]] = {name: [] for name in encoders}
    cpu: dict[str, list[float]] = {name: [] for name in encoders}
    vectors = {}
    for _ in range(rounds):
        for name, encoder in encoders.items():
            started, cpu_started = time.perf_counter(), time.process_time()
            vectors[name] = encoder.encode(texts)
            seconds[name].append(time.perf_counter() - started)
            cpu[name].append(time.process_time() - cpu_started)
    return {
        "clauses": len(texts),
        "chars": chars,
        "seconds": {name: [round(s, 2) for s in runs] for name, runs in seconds.items()},
        "cpu_seconds": {name: [round(s, 2) for s in runs] for name, runs in cpu.items()},
        "chars_per_second": {name: round(chars / min(runs)) for name, runs in seconds.items()},
        "chars_per_cpu_second": {name: round(chars / min(runs)) for name, runs in cpu.items()},
    }, vectors


def cosine_table(vectors: dict, reference: str) -> dict:
    table = {}
    for name, matrix in vectors.items():
        if name == reference:
            continue
        cosine = (matrix * vectors[reference]).sum(axis=1)
        table[name] = {"min": round(float(cosine.min()), 6), "mean": round(float(cosine.mean()), 6)}
    return table


def venv_size_mb(venv: Path) -> float:
    output = subprocess.run(["du", "-sk", str(venv)], capture_output=True, text=True, check=True)
    return round(int(output.stdout.split()[0]) / 1024, 1)


def cold_starts(python: Path, index: Path, runs: int, question: str) -> dict:
    """Wall time of each command as a new process: what a user waits for at the prompt."""
    commands = {
        "--help": ["--help"],
        "stats": ["stats", "--index", str(index)],
        "show": ["show", "--index", str(index), "--json", "@first"],
        "ask": ["ask", "--index", str(index), question],
    }
    first = _first_clause_id(python, index)
    env = dict(os.environ, PYTHONPATH="")  # the venv's own install, not this checkout
    times = {}
    for name, arguments in commands.items():
        arguments = [first if a == "@first" else a for a in arguments]
        runs_seen = []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run([str(python), "-m", "clausegraph.cli", *arguments],
                                  capture_output=True, text=True, env=env, check=False)
            elapsed = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode != 0:
                raise SystemExit(f"error: clausegraph {name} failed: {done.stderr.strip()[-300:]}")
            # CPU seconds (user + system) do not grow when other processes share the cores;
            # wall seconds do.
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            runs_seen.append((elapsed, cpu))
        wall, cpu = min(runs_seen)
        times[name] = {"wall": round(wall, 2), "cpu": round(cpu, 2)}
    return times


def _first_clause_id(python: Path, index: Path) -> str:
    script = ("import sys\nfrom clausegraph.api import ClauseGraph\n"
              "g = ClauseGraph.open(sys.argv[1])\nprint(g.index.clauses.clause_ids()[0])")
    done = subprocess.run([str(python), "-c", script, str(index)], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=""), check=False)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"error: {index}: cannot read a clause id: {done.stderr.strip()[-300:]}")
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--clauses", type=int, default=2000)
    parser.add_argument("--speed-clauses", type=int, default=600,
                        help="throughput on the first N clauses (600); cosine on all (the same "
                        "encodings when N covers them all)")
    parser.add_argument("--sample-files", type=int, metavar="SEED",
                        help="take the clauses from the corpus files in a random order seeded "
                        "with SEED (the corpus's mix of clause lengths), not in sorted order")
    parser.add_argument("--rounds", type=int, default=2, help="turns of each encoder (2)")
    parser.add_argument("--no-torch", action="store_true", help="skip sentence-transformers")
    parser.add_argument("--int8", default=",".join(INT8_VARIANTS),
                        help="int8 variants to measure, comma-separated from "
                        f"{','.join(INT8_VARIANTS)} ('' for none)")
    parser.add_argument("--queries", type=Path, nargs="*", default=None,
                        help="LegalBench-RAG benchmark JSON files whose queries rank the clauses "
                        "densely with each encoder: top-1 agreement and top-k overlap with the "
                        "ONNX fp32 ranking (default: the four mini_*.json beside the corpus)")
    parser.add_argument("--venv", type=Path, help="a venv with clausegraph installed: its size")
    parser.add_argument("--index", type=Path, help="an index for the venv's cold-start times")
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--install-only", action="store_true",
                        help="only the --venv size and cold starts (no encoder comparison)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)

    from clausegraph.config import SAMPLE_QUESTION

    result: dict = {
        "command": "python scripts/bench_embed.py "
        + shlex.join(sys.argv[1:] if argv is None else argv),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_at_start": os.getloadavg()},
    }
    if not args.install_only:
        compare_encoders(args, result)
    result["machine"]["load_average_at_end"] = os.getloadavg()
    if args.venv:
        result["venv"] = {"path": str(args.venv), "size_mb": venv_size_mb(args.venv)}
        if args.index:
            result["venv"]["cold_seconds"] = cold_starts(
                args.venv / "bin" / "python", args.index, args.cold_runs, SAMPLE_QUESTION)
        print(json.dumps(result["venv"], indent=1), flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


def compare_encoders(args: argparse.Namespace, result: dict) -> None:
    from clausegraph.embed.factory import PACKAGED_MODEL_NAME, packaged_minilm_dir
    from clausegraph.embed.onnx import OnnxEmbedder

    variants = [v for v in args.int8.split(",") if v]
    if unknown := set(variants) - set(INT8_VARIANTS):
        raise SystemExit(f"error: --int8: unknown variant(s) {', '.join(sorted(unknown))}")
    texts = real_clauses(args.corpus, args.clauses, args.sample_files)
    result["texts"] = {"clauses": len(texts), "corpus": str(args.corpus),
                      "file_order": ("sorted" if args.sample_files is None
                                     else f"random, seed {args.sample_files}")}
    print(f"{len(texts)} clauses, {sum(map(len, texts)):,} characters", flush=True)

    started = time.perf_counter()
    encoders = {"onnx": OnnxEmbedder(packaged_minilm_dir(), PACKAGED_MODEL_NAME)}
    result["onnx_load_seconds"] = round(time.perf_counter() - started, 2)
    for variant in variants:
        started = time.perf_counter()
        encoders[f"onnx-int8-{variant}"] = int8_embedder(encoders["onnx"], variant)
        result[f"onnx-int8-{variant}_load_seconds"] = round(time.perf_counter() - started, 2)
    if not args.no_torch:
        from clausegraph.embed.sentence_transformers import SentenceTransformerEmbedder

        started = time.perf_counter()
        encoders["sentence-transformers"] = SentenceTransformerEmbedder(
            packaged_minilm_dir(), PACKAGED_MODEL_NAME)
        result["sentence_transformers_load_seconds"] = round(time.perf_counter() - started, 2)

    speed, vectors = throughput(encoders, texts[: args.speed_clauses], args.rounds)
    result["throughput"] = speed
    print(json.dumps(speed), flush=True)
    if args.speed_clauses < len(texts):
        vectors = {name: encoder.encode(texts) for name, encoder in encoders.items()}
    if "sentence-transformers" in encoders:
        rates = speed["chars_per_second"]
        per_cpu = speed["chars_per_cpu_second"]
        result["speedup_vs_sentence_transformers"] = {
            name: {"wall": round(rates[name] / rates["sentence-transformers"], 2),
                   "cpu": round(per_cpu[name] / per_cpu["sentence-transformers"], 2)}
            for name in encoders if name != "sentence-transformers"}
        result["cosine_vs_sentence_transformers"] = cosine_table(vectors, "sentence-transformers")
    if variants:
        result["cosine_int8_vs_onnx"] = cosine_table(
            {k: v for k, v in vectors.items() if k.startswith("onnx")}, "onnx")
    queries = _benchmark_queries(args.queries, args.corpus)
    if queries and "onnx" in encoders:
        result["dense_ranking_vs_onnx"] = ranking_overlap(encoders, vectors, queries)
    print(json.dumps({k: v for k, v in result.items() if k != "command"}, indent=1), flush=True)


def _benchmark_queries(files: list[Path] | None, corpus: Path) -> list[str]:
    if files is None:
        files = sorted((corpus.parent / "benchmarks").glob("mini_*.json"))
    return [test["query"] for path in files for test in json.loads(path.read_text())["tests"]]


def ranking_overlap(encoders: dict, vectors: dict, queries: list[str],
                    depths: tuple[int, ...] = (1, 8, 64)) -> dict:
    """How far each encoder's dense ranking of the clauses for the benchmark queries moves
    from the fp32 graph's: share of queries with the same top clause, and mean overlap of the
    top-k sets. A proxy for retrieval staying the same, not the benchmark's own metric."""
    import numpy as np

    def top(name: str, k: int) -> np.ndarray:
        scores = encoders[name].encode(queries) @ vectors[name].T
        return np.argsort(-scores, axis=1, kind="stable")[:, :k]

    reference = top("onnx", max(depths))
    table = {"queries": len(queries), "clauses": int(vectors["onnx"].shape[0])}
    for name in encoders:
        if name == "onnx":
            continue
        ranked = top(name, max(depths))
        table[name] = {f"overlap@{k}": round(float(np.mean(
            [len(set(a[:k]) & set(b[:k])) / k for a, b in zip(ranked, reference)])), 4)
            for k in depths}
    return table


if __name__ == "__main__":
    sys.exit(main())
