"""Render LegalBench results JSON (``batch_evaluate.py --results-json``) as Markdown tables.

    python scripts/results_table.py .cache/lb-mini.json .cache/lb-seed.json > tables.md
    python scripts/results_table.py --causal-grid .cache/lb-causal-grid.json

One table per dataset and ALL: precision and recall (%) at every k for each strategy of
every file given (a later file's run of the same strategy replaces an earlier one), the
paper's published row beside them, and latency p50/p95; "yes" marks a strategy at or above
the paper at every k. ``--causal-grid`` prints CausalRAG's k x s parameter study instead.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from clausegraph.eval import PUBLISHED_RCTS

DATASETS = ["privacy_qa", "contractnli", "maud", "cuad"]


def _published() -> dict[str, dict[str, list[float]]]:
    """The paper's figures (kept in evaluate.py) per dataset, plus their ALL mean."""
    table = {name: PUBLISHED_RCTS[name] for name in DATASETS}
    table["ALL"] = {
        m: [sum(table[d][m][i] for d in DATASETS) / len(DATASETS) for i in range(7)]
        for m in ("precision", "recall")
    }
    return table


def _row(values: list[float]) -> str:
    return " | ".join(f"{v:.2f}" for v in values)


def _label(run: dict) -> str:
    variant = run.get("variant", "default")
    return run["strategy"] if variant == "default" else f"{run['strategy']}[{variant}]"


def load_runs(paths: list[str]) -> tuple[list[int], list[dict]]:
    """The k values and the runs of all files, in order of first appearance."""
    runs: dict[str, dict] = {}
    ks: list[int] | None = None
    for path in paths:
        try:
            results = json.loads(Path(path).read_text(encoding="utf-8"))
            results["k_values"], results["runs"]  # noqa: B018 - the two fields this reads
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"error: {path}: not a batch_evaluate.py --results-json file ({exc})")
        if ks is not None and results["k_values"] != ks:
            raise SystemExit(f"{path}: k values {results['k_values']} differ from {ks}")
        ks = results["k_values"]
        for run in results["runs"]:
            runs[_label(run)] = run
    return ks or [], list(runs.values())


def print_tables(paths: list[str]) -> None:
    ks, runs = load_runs(paths)
    paper = _published()
    for name in [*DATASETS, "ALL"]:
        print(f"\n### {name}\n")
        header = " | ".join(f"P@{k}" for k in ks) + " | " + " | ".join(f"R@{k}" for k in ks)
        print(f"| strategy | {header} | >= paper at every k | p50 ms | p95 ms |")
        print("|---" * (2 * len(ks) + 4) + "|")
        reference = paper.get(name)
        if reference:
            print(f"| paper (RCTS 500 + text-embedding-3-large) | {_row(reference['precision'])} | "
                  f"{_row(reference['recall'])} | | | |")
        for run in runs:
            scores = _scores(run, name)
            if scores is None:
                continue
            precision, recall = scores
            beats = "-"
            if reference:
                beats = "yes" if all(
                    p >= rp - 1e-9 for p, rp in zip(precision, reference["precision"])
                ) and all(r >= rr - 1e-9 for r, rr in zip(recall, reference["recall"])) else "no"
            latency = run.get("latency", {})
            p50, p95 = latency.get("p50_ms"), latency.get("p95_ms")
            timing = f"{p50:.0f} | {p95:.0f}" if p50 is not None else " | "
            print(f"| {_label(run)} | {_row(precision)} | {_row(recall)} | {beats} | {timing} |")


def print_causal_grid(paths: list[str]) -> None:
    """CausalRAG's parameter study: ALL P@1, R@8 and R@64 (%) for each seed count k and
    expansion depth s, as ``causal-k{k}-s{s}`` runs."""
    ks, runs = load_runs(paths)
    cells: dict[tuple[int, int], dict] = {}
    for run in runs:
        match = re.fullmatch(r"causal-k(\d+)-s(\d+)", run["strategy"])
        if match and (scores := _scores(run, "ALL")):
            cells[(int(match.group(1)), int(match.group(2)))] = {
                "scores": scores, "p50": run.get("latency", {}).get("p50_ms")}
    if not cells:
        raise SystemExit("no causal-k*-s* runs in " + ", ".join(paths))
    seeds = sorted({k for k, _ in cells})
    steps = sorted({s for _, s in cells})
    for metric, k in (("P", 1), ("R", 8), ("R", 64)):
        at = ks.index(k)
        print(f"\n**ALL {metric}@{k} (%)**, rows k (seed clauses), columns s (expansion steps)\n")
        print("| k \\ s | " + " | ".join(str(s) for s in steps) + " |")
        print("|---" * (len(steps) + 1) + "|")
        for seed in seeds:
            values = []
            for s in steps:
                cell = cells.get((seed, s))
                values.append(f"{cell['scores'][0 if metric == 'P' else 1][at]:.2f}"
                              if cell else "")
            print(f"| {seed} | " + " | ".join(values) + " |")
    latencies = [c["p50"] for c in cells.values() if c["p50"] is not None]
    if latencies:
        print(f"\nRetrieval p50 over the grid: {min(latencies):.0f} to {max(latencies):.0f} ms.")


def _scores(run: dict, name: str) -> tuple[list[float], list[float]] | None:
    if name == "ALL":
        per = [run["datasets"][d] for d in DATASETS if d in run["datasets"]]
        if len(per) != len(DATASETS):
            return None
        n = len(per[0]["precision"])
        return (
            [100 * sum(p["precision"][i] for p in per) / len(per) for i in range(n)],
            [100 * sum(p["recall"][i] for p in per) / len(per) for i in range(n)],
        )
    data = run["datasets"].get(name)
    if data is None:
        return None
    return [100 * v for v in data["precision"]], [100 * v for v in data["recall"]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="--results-json files of batch_evaluate.py")
    parser.add_argument("--causal-grid", action="store_true", help="print the k x s study")
    args = parser.parse_args(argv)
    (print_causal_grid if args.causal_grid else print_tables)(args.results)


if __name__ == "__main__":
    main()
