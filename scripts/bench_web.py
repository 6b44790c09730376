"""Web app latency: /api/v1/ask p50/p95 at 1 and 8 concurrent clients, time to the first
streamed event, and the Ask page's load time in Chromium, against a warm `clausegraph serve`.

    python scripts/bench_web.py --index /tmp/insurance-index \
        --docs ../shared/data/insurance-policies --out docs/bench_web.json

The index is built first when it does not exist (``--docs``). Questions: the labelled
insurance set (78 distinct questions, asked without naming a document; else the 10 of
``hackrx6_sample_qa_policy_pdf.json`` beside the documents), asked in turn, offline
(extractive) answers. After a warm-up pass, each measured level words the questions its
own way ("Please answer: ...", "Tell me: ..."), so every request embeds a question the
server has not seen.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

FALLBACK_QUESTIONS = [
    "What is the waiting period for pre-existing diseases?",
    "Is cataract surgery covered?",
    "What is the grace period for premium payment?",
    "Are maternity expenses covered?",
    "What does the policy exclude?",
]
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), "p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(percentile(ms, 0.95), 1), "max_ms": round(max(ms), 1)}


LABELLED = Path(__file__).resolve().parent.parent / "benchmarks" / "real_pdfs" / "insurance.yaml"


def questions_for(docs: Path | None) -> list[str]:
    """Distinct questions (the labelled insurance set, 78), so that no request is served
    from the server's per-question embedding cache; else the HackRx ten."""
    if LABELLED.is_file():
        import yaml

        labelled = yaml.safe_load(LABELLED.read_text(encoding="utf-8"))["questions"]
        return list(dict.fromkeys(q["question"] for q in labelled))
    return _hackrx_questions(docs)


def worded(prefix: str, questions: list[str]) -> list[str]:
    return [prefix + q[0].lower() + q[1:] for q in questions]


def _hackrx_questions(docs: Path | None) -> list[str]:
    qa = docs / "hackrx6_sample_qa_policy_pdf.json" if docs else None
    if qa and qa.is_file():
        data = json.loads(qa.read_text())
        items = data if isinstance(data, list) else data.get("qa") or data.get("questions", [])
        found = [q if isinstance(q, str) else q.get("question", "") for q in items]
        found = [q for q in found if q]
        if found:
            return found
    return FALLBACK_QUESTIONS


def start_server(index: Path, port: int, workers: int | None) -> subprocess.Popen:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    extra = ["--workers", str(workers)] if workers else []
    return subprocess.Popen(
        [sys.executable, "-m", "clausegraph.cli", "serve", "--index", str(index),
         "--port", str(port), *extra], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_ready(base: str, process: subprocess.Popen, seconds: float = 600) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: {process.stdout.read() if process.stdout else ''}")
        try:
            if httpx.get(base + "/api/v1/health", timeout=2).status_code == 200:
                return time.perf_counter() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"the server at {base} was not ready after {seconds:.0f} s")


def ask_latencies(base: str, questions: list[str], clients: int, total: int) -> list[float]:
    def one(i: int, client: httpx.Client) -> float:
        started = time.perf_counter()
        response = client.post(base + "/api/v1/ask",
                               json={"question": questions[i % len(questions)]}, timeout=120)
        response.raise_for_status()
        return time.perf_counter() - started

    pool_clients = [httpx.Client() for _ in range(clients)]
    try:
        with ThreadPoolExecutor(clients) as pool:
            return list(pool.map(lambda i: one(i, pool_clients[i % clients]), range(total)))
    finally:
        for client in pool_clients:
            client.close()


def first_event_times(base: str, questions: list[str], total: int) -> tuple[list[float], list[float]]:
    first, complete = [], []
    with httpx.Client(timeout=120) as client:
        for i in range(total):
            started = time.perf_counter()
            with client.stream("GET", base + "/api/v1/ask/stream",
                               params={"question": questions[i % len(questions)]}) as response:
                seen = False
                for line in response.iter_lines():
                    if line.startswith("event:") and not seen:
                        first.append(time.perf_counter() - started)
                        seen = True
                complete.append(time.perf_counter() - started)
    return first, complete


def page_loads(base: str, question: str, total: int) -> dict[str, dict[str, float]]:
    from playwright.sync_api import sync_playwright

    loads, answers = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(base + "/")  # first visit: session cookie, browser caches
        for _ in range(total):
            started = time.perf_counter()
            page.goto(base + "/", wait_until="load")
            loads.append(time.perf_counter() - started)
        for _ in range(total):
            started = time.perf_counter()
            page.goto(base + "/?q=" + question, wait_until="commit")
            page.wait_for_selector("#group-exception", timeout=120_000)
            answers.append(time.perf_counter() - started)
        browser.close()
    return {"ask_page_load": summary(loads), "ask_page_to_answer": summary(answers)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--docs", type=Path, help="documents to index when --index is missing")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--requests", type=int, default=80, help="asks per concurrency level")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--url", help="measure a server that is already running (no start)")
    parser.add_argument("--workers", type=int, help="the server's question processes "
                        "(default: its own, one per core)")
    args = parser.parse_args()
    if not (args.index / "clausegraph-index.json").is_file():
        if not args.docs:
            raise SystemExit(f"{args.index} is not an index: give --docs to build it")
        subprocess.run([sys.executable, "-m", "clausegraph.cli", "ingest", "--index",
                        str(args.index), str(args.docs)], check=True)
    questions = questions_for(args.docs)
    base = args.url or f"http://127.0.0.1:{args.port}"
    process = None if args.url else start_server(args.index, args.port, args.workers)
    load_at_start = round(os.getloadavg()[0], 1)
    try:
        ready = wait_ready(base, process) if process else 0.0
        ask_latencies(base, questions, 1, len(questions))  # warm every code path once
        documents = httpx.get(base + "/api/v1/documents").json()
        results = {
            "documents": len(documents), "pages": sum(d["pages"] for d in documents),
            "clauses": sum(d["clauses"] for d in documents), "questions": len(questions),
            "server_ready_s": round(ready, 1),
            # each level asks its own wording, so no question is served from the server's
            # per-question embedding cache that the warm-up filled
            "ask_1_client": summary(ask_latencies(base, worded("Please answer: ", questions),
                                                  1, args.requests)),
            "ask_8_clients": summary(ask_latencies(base, worded("Tell me: ", questions),
                                                   8, args.requests)),
        }
        first, complete = first_event_times(base, worded("Explain: ", questions), 20)
        results["stream_first_event"] = summary(first)
        results["stream_complete"] = summary(complete)
        results.update(page_loads(base, questions[0], 10))
        results["cpu_count"] = os.cpu_count()
        results["server_workers"] = args.workers or "default (one per core)"
        results["load_average_1m_at_start"] = load_at_start
        results["load_average_1m_at_end"] = round(os.getloadavg()[0], 1)
    finally:
        if process:
            process.terminate()
            process.wait(timeout=30)
    text = json.dumps(results, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
