"""The answer stage's hand-set constants varied one at a time, measured on dev.

Each variant sets one constant of ``clausegraph.answer.direct`` (or one retrieval setting)
and runs the two dev benchmarks in a fresh process: the CUAD dev asks
(scripts/bench_cuad_dev.py: hit@1, hit@5, the value answers, not-found precision and
recall) and the 15 ``policies-dev`` wordings (scripts/bench_policies.py, the folder's
figures: hit@1, hit@5, direct answers, not-found right; the gate fitted on these questions
among others, so not out of sample). The evidence docs/answer_constants.md gives for the
constants that were set on the labelled sets.

    python scripts/sweep_answer_constants.py --cuad-index DEV_INDEX \\
        --policy-index-dir POLICY_IDX --out docs/answer_constants_sweep.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# (constant of answer/direct.py or "retrieval.<setting>", values to try beside the shipped)
VARIANTS = [
    ("_RANK_PRIOR", [0.0, 0.24]),
    ("_VALUE_FIT", [0.15, 0.6]),
    ("_MISSING_VALUE_COST", [0.2, 0.9]),
    ("_TITLE_BONUS", [0.05, 0.3]),  # it divides the title share: not 0
    ("_PAIR_DISCOUNT", [0.8, 1.0]),
    ("_EXCLUSION_DISCOUNT", [0.6, 1.0]),
    ("FOCUS_VALUE_BONUS", [0.0, 0.7]),
    ("CANDIDATE_CLAUSES", [3, 8]),
    ("retrieval.focus_weight", [0.2, 0.5]),
]
# runs a benchmark script with one constant of answer/direct.py set
_RUN = """
import runpy, sys
import clausegraph.answer.direct as direct
name, value, script = sys.argv[1], sys.argv[2], sys.argv[3]
if name != "-":
    setattr(direct, name, type(getattr(direct, name))(value))
sys.argv = [script, *sys.argv[4:]]
sys.path.insert(0, script.rsplit("/", 1)[0])  # as running the script puts its folder first
runpy.run_path(script, run_name="__main__")
"""


def run(name: str, value: str, args: argparse.Namespace, folder: Path) -> dict:
    """The dev figures with ``name`` set to ``value`` ("-": as shipped)."""
    overrides = []
    constant = name
    if name.startswith("retrieval."):
        overrides, constant = ["--set", f"{name}={value}"], "-"
    cuad_out, policy_out = folder / "cuad.json", folder / "policies.json"
    base = [sys.executable, "-c", _RUN, constant, str(value)]
    for script, options in (
            ("bench_cuad_dev.py", ["--index", str(args.cuad_index), "--out", str(cuad_out)]),
            ("bench_policies.py", ["--index-dir", str(args.policy_index_dir), "--no-ingest",
                                   "--out", str(policy_out)])):
        done = subprocess.run([*base, str(ROOT / "scripts" / script), *options, *overrides],
                              capture_output=True, text=True, cwd=ROOT, check=False)
        if done.returncode:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise SystemExit(f"{script} with {name}={value} failed: {last}")
    cuad = json.loads(cuad_out.read_text(encoding="utf-8"))["overall"]
    policies = json.loads(policy_out.read_text(encoding="utf-8"))["by_folder"]["policies-dev"]
    return {
        "cuad_dev": {k: round(100 * cuad[k], 1) for k in (
            "hit_at_1", "hit_at_5", "answer_accuracy", "not_found_precision",
            "not_found_recall")},
        "policies_dev": {k: policies[k] for k in ("hit@1", "hit@5", "direct_answer",
                                                  "not_found_right")},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cuad-index", type=Path, required=True)
    parser.add_argument("--policy-index-dir", type=Path, required=True)
    parser.add_argument("--only", help="comma-separated constants to vary (default: all)")
    parser.add_argument("--rows", type=Path, help="rows of an earlier run (JSON lines, as "
                        "printed) to keep: their variants are not run again")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    rows = [json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines()
            if line.startswith("{")] if args.rows else []
    done = {(r["constant"], r["value"]) for r in rows}
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        if ("(shipped)", None) not in done:
            rows.append({"constant": "(shipped)", "value": None,
                         **run("-", "0", args, Path(tmp))})
            print(json.dumps(rows[-1]), flush=True)
        for name, values in VARIANTS:
            if (wanted is not None and name not in wanted) or \
                    all((name, value) in done for value in values):
                continue
            for value in values:
                if (name, value) in done:
                    continue
                rows.append({"constant": name, "value": value,
                             **run(name, str(value), args, Path(tmp))})
                print(json.dumps(rows[-1]), flush=True)
        seconds = round(time.perf_counter() - started)
    args.out.write_text(json.dumps({
        "command": "python scripts/sweep_answer_constants.py --cuad-index DEV_INDEX "
                   "--policy-index-dir POLICY_IDX --out docs/answer_constants_sweep.json",
        "seconds": seconds, "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
