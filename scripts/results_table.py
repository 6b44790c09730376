"""Render LegalBench results JSON (``batch_evaluate.py --results-json``) as Markdown tables.

    python scripts/results_table.py .cache/lb-mini.json .cache/lb-seed.json > tables.md
    python scripts/results_table.py --causal-grid .cache/lb-causal-grid.json
    python scripts/results_table.py --diff base.json new.json   # how far a change moved them

One table per dataset and ALL: precision and recall (%) at every k for each strategy of
every file given (a later file's run of the same strategy replaces an earlier one), the
paper's published row beside them, and latency p50/p95; "yes" marks a strategy at or above
the paper at every k. ``--causal-grid`` prints CausalRAG's k x s parameter study instead;
``--diff`` compares two runs of the same strategies (e.g. two encoders): ALL P@1 and R@64 of
each, its largest ALL change at any k, and how many cells (strategy x dataset x P/R x k)
moved by more than ``--tolerance`` points.
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


def print_diff(base_path: str, new_path: str, tolerance: float) -> None:
    ks, base_runs = load_runs([base_path])
    _, new_runs = load_runs([new_path])
    new = {_label(run): run for run in new_runs}
    print(f"| strategy | ALL P@1 (base -> new) | ALL R@64 (base -> new) | largest ALL change, "
          f"any k | dataset cells > {tolerance} points | largest dataset change |")
    print("|---" * 6 + "|")
    moved = total = 0
    for run in base_runs:
        label = _label(run)
        if label not in new or _scores(run, "ALL") is None or _scores(new[label], "ALL") is None:
            continue
        changes = {}
        for name in [*DATASETS, "ALL"]:
            for metric, old_values, new_values in zip(
                    "PR", _scores(run, name), _scores(new[label], name)):
                for k, old, now in zip(ks, old_values, new_values):
                    changes[(name, f"{metric}@{k}")] = (old, now)
        per_dataset = {key: now - old for key, (old, now) in changes.items() if key[0] != "ALL"}
        over = sum(abs(d) > tolerance for d in per_dataset.values())
        moved, total = moved + over, total + len(per_dataset)
        at_all = {key[1]: now - old for key, (old, now) in changes.items() if key[0] == "ALL"}
        worst_all = max(at_all, key=lambda cell: abs(at_all[cell]))
        worst = max(per_dataset, key=lambda key: abs(per_dataset[key]))
        (p_old, p_new), (r_old, r_new) = changes[("ALL", "P@1")], changes[("ALL", f"R@{ks[-1]}")]
        print(f"| {label} | {p_old:.2f} -> {p_new:.2f} ({p_new - p_old:+.2f}) | {r_old:.2f} -> "
              f"{r_new:.2f} ({r_new - r_old:+.2f}) | {worst_all} {at_all[worst_all]:+.2f} | "
              f"{over} of {len(per_dataset)} | {worst[0]} {worst[1]} {per_dataset[worst]:+.2f} |")
    print(f"\nPer dataset, {moved} of {total} cells moved by more than {tolerance} points.")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="--results-json files of batch_evaluate.py")
    parser.add_argument("--causal-grid", action="store_true", help="print the k x s study")
    parser.add_argument("--diff", action="store_true",
                        help="compare two results files (base, new) strategy by strategy")
    parser.add_argument("--tolerance", type=float, default=0.5,
                        help="--diff: count the cells that moved by more (points, 0.5)")
    args = parser.parse_args(argv)
    if args.diff:
        if len(args.results) != 2:
            raise SystemExit("error: --diff takes two results files: base new")
        print_diff(*args.results, args.tolerance)
    else:
        (print_causal_grid if args.causal_grid else print_tables)(args.results)


if __name__ == "__main__":
    main()
