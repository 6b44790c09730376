"""How close each encoder of a ``bench_embed.py`` run comes to this CPU's fp32 peak.

Counts the MiniLM work in the run's texts (word pieces after truncation; the dense
projections plus attention, in floating-point operations), divides it by each encoder's CPU
seconds from the run's JSON, and compares that with one core's single-precision matrix
product as ONNX Runtime runs it (one MatMul node, 8192 x 384 by 384 x 1536 -- a batch of 64
clauses of 128 word pieces through the FFN's first projection -- one thread, best of 5).
An encoder at that peak cannot get faster without doing less work (fewer or cheaper
operations: other vectors).

    python scripts/bench_embed.py --clauses 1500 --speed-clauses 1500 --rounds 1 \\
        --int8 smooth --sample-files 1 --out docs/bench_embed_quiet_mix.json
    python scripts/embed_flops.py docs/bench_embed_quiet_mix.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def minilm_gflop(lengths: list[int], hidden: int = 384, inner: int = 1536,
                 layers: int = 6) -> float:
    """Floating-point operations (x 1e9) of the encoder layers for sequences of these lengths."""
    per_token = layers * (4 * hidden * hidden + 2 * hidden * inner) * 2
    attention = sum(layers * 2 * 2 * n * n * hidden for n in lengths)  # QK^T and AV
    return (sum(lengths) * per_token + attention) / 1e9


def matmul_peak_gflops(rows: int = 8192, inner: int = 384, cols: int = 1536) -> float:
    import numpy as np
    import onnxruntime
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    weight = numpy_helper.from_array(rng.random((inner, cols), dtype=np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "peak",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, inner])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, cols])], [weight])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options,
                                           providers=["CPUExecutionProvider"])
    x = rng.random((rows, inner), dtype=np.float32)
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        for _ in range(10):
            session.run(None, {"x": x})
        best = min(best, time.process_time() - started)
    return 10 * 2 * rows * inner * cols / best / 1e9


def main(argv: list[str] | None = None) -> int:
    from bench_embed import DEFAULT_CORPUS, real_clauses
    from tokenizers import Tokenizer

    from clausegraph.embed.factory import packaged_minilm_dir

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a bench_embed.py --out JSON")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args(argv)
    run = json.loads(args.run.read_text(encoding="utf-8"))
    order = run["texts"].get("file_order", "sorted")
    seed = None if order == "sorted" else int(order.rsplit(" ", 1)[1])
    texts = real_clauses(args.corpus, run["throughput"]["clauses"], seed)
    tokenizer = Tokenizer.from_file(str(packaged_minilm_dir() / "tokenizer.json"))
    tokenizer.no_padding()  # tokenizer.json pads to the batch's longest text
    tokenizer.enable_truncation(max_length=256)
    lengths = [len(e.ids) for e in tokenizer.encode_batch([t[:2000] for t in texts])]
    work = minilm_gflop(lengths)
    peak = matmul_peak_gflops()
    result = {"texts": len(texts), "word_pieces": sum(lengths),
              "truncated_at_256": sum(n == 256 for n in lengths), "gflop": round(work, 1),
              "onnxruntime_matmul_one_core_gflops": round(peak, 1), "encoders": {}}
    for name, runs in run["throughput"]["cpu_seconds"].items():
        achieved = work / min(runs)
        result["encoders"][name] = {"gflop_per_cpu_second": round(achieved, 1),
                                    "share_of_matmul_peak": round(achieved / peak, 2)}
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
