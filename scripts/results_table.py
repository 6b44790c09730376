"""Render a LegalBench results JSON (``batch_evaluate.py --results-json``) as Markdown tables.

    python scripts/results_table.py .cache/lb-mini.json > docs/legalbench_tables.md

One table per dataset and ALL: precision and recall (%) at every k for each strategy, the
paper's published row beside them, and latency; a check marks where a strategy is at or
above the paper at every k.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from clausegraph.evaluate import PUBLISHED_RCTS

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


def main(path: str) -> None:
    results = json.loads(Path(path).read_text())
    ks = results["k_values"]
    paper = _published()
    runs = [r for r in results["runs"] if r.get("variant", "default") == "default"]
    for name in [*DATASETS, "ALL"]:
        print(f"\n### {name}\n")
        header = " | ".join(f"P@{k}" for k in ks) + " | " + " | ".join(f"R@{k}" for k in ks)
        print(f"| strategy | {header} | >= paper at every k | p50 ms |")
        print("|---" * (2 * len(ks) + 3) + "|")
        reference = paper.get(name)
        if reference:
            print(f"| paper (RCTS 500 + text-embedding-3-large) | {_row(reference['precision'])} | "
                  f"{_row(reference['recall'])} | | |")
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
            latency = run.get("latency", {}).get("p50_ms")
            print(f"| {run['strategy']} | {_row(precision)} | {_row(recall)} | {beats} | "
                  f"{latency:.0f} |" if latency is not None else f"| {run['strategy']} | "
                  f"{_row(precision)} | {_row(recall)} | {beats} | |")


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


if __name__ == "__main__":
    main(sys.argv[1])
