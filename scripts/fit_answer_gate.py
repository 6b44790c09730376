"""Fit the answer gate (clausegraph/answer/gate.py) on the 22 policies and the CUAD dev asks,
score it out of sample, and ship the weights fitted on all of them.

1. Collect (``--collect``; needs the indexes): every policy question of
   benchmarks/policies/questions.yaml and every CUAD dev ask (positives and hard negatives of
   benchmarks/cuad_dev/questions.yaml) is asked with the gate off, so that every question
   with a sentence to quote is answered; each row holds the features the gate reads and
   whether that answer is right, judged as the benchmarks judge it
   (scripts/bench_policies.py ``gate_rows``: the direct answer states one of the answer
   patterns, an unanswerable question is always wrong to answer; scripts/bench_cuad_dev.py
   ``run_asks`` with clausegraph/eval/cuad_bench.py ``judge_answer``: a positive is right to
   answer, a value category's only when the answer states CUAD's value; a hard negative is
   wrong to answer). The rows (numbers, ids and outcomes, no document text) go to ``--rows``.
2. Score out of sample: each policy's questions by a gate fitted without that policy (on the
   other 21 and all CUAD asks: leave one document out), each CUAD contract's asks by a gate
   fitted without its fold (5 folds by contract, on the other folds and all policies); the
   threshold is fitted inside each fold too. The same rows give the old constant thresholds
   (the ``constants_pass`` feature) and the gate off, so the three are compared on the same
   answers.
3. Fit on all rows and write the shipped weights (clausegraph/answer/data/answer_gate.json),
   the JSON report (docs/answer_gate.json) and docs/answer_gate.md.

    python scripts/fit_answer_gate.py --collect --policy-index-dir /work/idx/policies \\
        --cuad-index /work/idx/cuad_dev --rows /tmp/answer_gate/rows.jsonl
    python scripts/fit_answer_gate.py --rows /tmp/answer_gate/rows.jsonl --write
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from bench_answers import share  # noqa: E402
from bench_cuad_dev import commit  # noqa: E402
from bench_policies import (  # noqa: E402
    gate_rows,
    leave_one_out_folds,
    load_questions,
    review_read,
)

from clausegraph.answer.gate import (  # noqa: E402
    FEATURES,
    SHIPPED,
    SHIPPED_TYPED,
    SHIPPED_UNTYPED,
    TREE_PARAMS,
    TYPED_FEATURES,
    AnswerGate,
    AnyGate,
    fit_gate,
    fit_split_gate,
)
from clausegraph.eval.cuad_bench import AskOutcome, summarise  # noqa: E402

CUAD_FOLDS = 5
MARKER = "<!-- real runs: written by hand, kept by --write -->"
REPORT = ROOT / "docs" / "answer_gate.json"
NOTE = ROOT / "docs" / "answer_gate.md"
Decide = Callable[[dict[str, Any]], bool]


# -- collecting ----------------------------------------------------------------------------

def collect_policies(index_dir: Path) -> list[dict[str, Any]]:
    from clausegraph import ClauseGraph

    documents, items = load_questions()
    folders = sorted({documents[i["document"]]["folder"] for i in items})
    graphs = {folder: ClauseGraph.open(index_dir / folder) for folder in folders}
    return gate_rows(graphs, documents, items)


def collect_cuad(index: Path, limit_docs: int | None) -> list[dict[str, Any]]:
    from bench_cuad_dev import QUESTIONS, run_asks

    from clausegraph import ClauseGraph
    from clausegraph.answer.gate import using_gate
    from clausegraph.eval.cuad import load_cuad_labels, load_cuad_questions

    dev = load_cuad_labels(None, split="dev").contracts
    contracts = dev[:limit_docs] if limit_docs else dev
    rows: list[dict[str, Any]] = []

    def keep(ask: Any, answer: Any, outcome: AskOutcome) -> None:
        rows.append({
            "source": "cuad", "group": outcome.contract,
            "id": f"{outcome.contract}|{outcome.category}",
            "label": cuad_label(outcome), "answerable": outcome.gold == "positive",
            "features": answer.direct.gate_features if answer.direct else None,
            "review_present": review_read(answer.direct),
            "outcome": outcome.model_dump(mode="json", exclude={"direct_answer"}),
        })

    with using_gate(None):
        run_asks(ClauseGraph.open(index), contracts, load_cuad_questions(QUESTIONS), dev,
                 None, False, on_answer=keep)
    return rows


# options whose value is a machine path, recorded by the name the docs use for it
_PATH_NAMES = {"--rows": "ROWS.jsonl", "--policy-index-dir": "POLICY_INDEXES",
               "--cuad-index": "DEV_INDEX"}


def recorded_command(argv: Sequence[str]) -> str:
    """The command line as the report records it: paths by their names in the docs."""
    shown = list(argv)
    for i, arg in enumerate(shown):
        name = arg.split("=", 1)[0]
        if name in _PATH_NAMES:
            if "=" in arg:
                shown[i] = f"{name}={_PATH_NAMES[name]}"
            elif i + 1 < len(shown):
                shown[i + 1] = _PATH_NAMES[name]
    return "python scripts/fit_answer_gate.py " + " ".join(shown)


def cuad_label(outcome: AskOutcome) -> int:
    """1 when answering is right: a positive, a value category's only when the answer states
    CUAD's value (``answer_right``); a hard negative is wrong to answer."""
    if outcome.gold == "negative":
        return 0
    return int(outcome.answer_right) if outcome.answer_right is not None else 1


# -- figures -------------------------------------------------------------------------------

def policy_figures(rows: Sequence[dict[str, Any]], answered: Decide) -> dict[str, Any]:
    """bench_policies' direct answer and not-found figures of ``rows`` answered as
    ``answered`` says (a gate changes whether an answer is given, never its text)."""
    answerable = [r for r in rows if not r["outcome"]["not_found"]]
    missing = [r for r in rows if r["outcome"]["not_found"]]
    return {
        "questions": len(rows), "answerable": len(answerable), "not_found_questions": len(missing),
        "direct_answer": share([bool(r["label"]) and answered(r) for r in answerable]),
        "not_found_right": share([not answered(r) for r in missing]),
        "answerable_wrongly_not_found": sum(not answered(r) for r in answerable),
        "wrong_answers_given": sum(answered(r) and not r["label"] for r in answerable),
    }


def cuad_outcomes(rows: Sequence[dict[str, Any]], answered: Decide) -> list[AskOutcome]:
    """The CUAD asks as judged had they been answered as ``answered`` says."""
    outcomes = []
    for row in rows:
        outcome = AskOutcome(**row["outcome"])
        if not answered(row):
            outcome.found = False
            if outcome.answer_right is not None:
                outcome.answer_right = False
        outcomes.append(outcome)
    return outcomes


def cuad_figures(rows: Sequence[dict[str, Any]], answered: Decide) -> dict[str, Any]:
    s = summarise(cuad_outcomes(rows, answered))
    pct = lambda v: None if v is None else round(100 * v, 1)  # noqa: E731
    return {"positives": s.positives, "negatives": s.negatives,
            "hit@1": pct(s.hit_at_1), "hit@5": pct(s.hit_at_5),
            "value_answers": s.value_answers, "value_answer_accuracy": pct(s.value_answer_accuracy),
            "yes_answers": s.yes_answers, "yes_found": pct(s.yes_found),
            "not_found_precision": pct(s.not_found_precision),
            "not_found_recall": pct(s.not_found_recall),
            "not_found_on_negative": s.not_found_true, "not_found_on_positive": s.not_found_false}


def by_group(rows: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[row["group"]].append(row)
    return dict(sorted(groups.items()))


# -- out of sample -------------------------------------------------------------------------

def cuad_fold(contract: str, contracts: Sequence[str]) -> int:
    return sorted(contracts).index(contract) % CUAD_FOLDS


def out_of_sample(rows: Sequence[dict[str, Any]], C: float, features: Sequence[str],
                  fitter: Callable[..., AnyGate] = fit_split_gate, **options: Any,
                  ) -> tuple[dict[str, tuple[bool, float | None]], dict[str, float]]:
    """Each row's decision (answer?, P(right)) by a gate fitted (``fitter``) without its
    policy (leave one document out) or its CUAD fold, and each fold's threshold (of the
    untyped questions' gate, for a split gate)."""
    policy = [r for r in rows if r["source"] == "policy"]
    cuad = [r for r in rows if r["source"] == "cuad"]
    contracts = sorted({r["group"] for r in cuad})
    decisions: dict[str, tuple[bool, float | None]] = {}
    thresholds: dict[str, float] = {}

    def score(gate: AnyGate, test: Sequence[dict[str, Any]]) -> None:
        for row in test:
            decisions[row["id"]] = gate.answers(row["features"]) if row["features"] \
                else (False, None)

    items = [dict(r, document=r["group"]) for r in policy]
    for held_out, train, test in leave_one_out_folds(items):
        gate = fitter([*train, *cuad], C, features, **options)
        thresholds[held_out] = round(gate.threshold_, 4)
        score(gate, test)
    for fold in range(CUAD_FOLDS):
        test = [r for r in cuad if cuad_fold(r["group"], contracts) == fold]
        if not test:
            continue
        train = [r for r in cuad if cuad_fold(r["group"], contracts) != fold]
        gate = fitter([*policy, *train], C, features, **options)
        thresholds[f"cuad fold {fold}"] = round(gate.threshold_, 4)
        score(gate, test)
    return decisions, thresholds


def review_present(row: dict[str, Any]) -> bool:
    """Whether the contract review finds every CUAD type the question asks about: the answer
    is then given whatever the gate says (answer/direct.py)."""
    return bool(row["features"]) and row.get("review_present") is True


def with_review(result: dict[str, Any], rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A variant's figures when the review's presence answers too, as the product decides."""
    decisions = result["decisions"]
    return evaluate(rows, lambda r: decisions[r["id"]][0] or review_present(r))


def constants(row: dict[str, Any]) -> bool:
    return bool(row["features"]) and row["features"]["constants_pass"] == 1.0


def gate_off(row: dict[str, Any]) -> bool:
    return bool(row["features"])


def evaluate(rows: Sequence[dict[str, Any]], decide: Decide) -> dict[str, Any]:
    policy = [r for r in rows if r["source"] == "policy"]
    cuad = [r for r in rows if r["source"] == "cuad"]
    return {"policies": policy_figures(policy, decide),
            "policies_per_document": {doc: policy_figures(group, decide)
                                      for doc, group in by_group(policy).items()},
            "cuad": cuad_figures(cuad, decide) if cuad else None}


def variant(rows: Sequence[dict[str, Any]], C: float, features: Sequence[str],
            **options: Any) -> dict[str, Any]:
    """Out-of-sample figures of a gate fitted with ``fitter(..., **options)`` (the split
    gate unless ``fitter`` says otherwise)."""
    decisions, thresholds = out_of_sample(rows, C, features, **options)
    result = evaluate(rows, lambda r: decisions[r["id"]][0])
    result["thresholds"] = thresholds
    result["decisions"] = decisions
    return result


def one_gate(**trees: Any) -> Callable[..., AnyGate]:
    """A fitter of one gate for every question: logistic, or boosted trees with ``trees``."""
    return lambda rows, C, features, **options: fit_gate(rows, C, features,
                                                         trees=trees or None, **options)


# -- report --------------------------------------------------------------------------------

def summary_line(name: str, result: dict[str, Any]) -> str:
    p, c = result["policies"], result["cuad"] or {}
    return (f"| {name} | {p['direct_answer']} | {p['not_found_right']} | "
            f"{p['answerable_wrongly_not_found']} | {c.get('not_found_precision')} | "
            f"{c.get('not_found_recall')} | {c.get('value_answer_accuracy')} | "
            f"{c.get('yes_found')} |")


SUMMARY_HEADER = ("| | policies: direct right | NF right | answerable said NF | CUAD dev: "
                  "NF precision | NF recall | value answers | yes found |\n"
                  "|---|---|---|---|---|---|---|---|")


def document_table(before: dict[str, Any], after: dict[str, Any]) -> str:
    lines = ["| document | questions (answerable / not) | direct right: constants -> gate "
             "| NF right: constants -> gate | answerable said NF: constants -> gate |",
             "|---|---|---|---|---|"]
    for doc, b in before["policies_per_document"].items():
        a = after["policies_per_document"][doc]
        lines.append(f"| {doc} | {b['questions']} ({b['answerable']} / {b['not_found_questions']})"
                     f" | {b['direct_answer']} -> {a['direct_answer']} | {b['not_found_right']} "
                     f"-> {a['not_found_right']} | {b['answerable_wrongly_not_found']} -> "
                     f"{a['answerable_wrongly_not_found']} |")
    return "\n".join(lines)


def write_note(report: dict[str, Any], path: Path) -> None:
    chosen = report["out_of_sample"]
    comparison = "\n".join([SUMMARY_HEADER,
                            summary_line("old constants", report["constants"]),
                            summary_line("gate off (always answer)", report["gate_off"]),
                            summary_line("gate, out of sample", chosen),
                            summary_line("**gate + the review's presence (as shipped)**",
                                         report["out_of_sample_with_review"]),
                            summary_line("session 13: gate without review_* + the review's "
                                         "presence", report["without_review_features_with_review"]),
                            *(summary_line(f"variant: {name}", v)
                              for name, v in report["variants"].items())])
    gate, typed = report["shipped"], report["shipped_typed"]
    typed_params = ", ".join(f"{k} {v}" for k, v in typed["params"].items()
                             if k != "random_state")
    shipped = report["out_of_sample_with_review"]["cuad"]
    target_p, target_r = shipped["not_found_precision"], shipped["not_found_recall"]
    met = "met" if target_p >= 90 and target_r >= 70 else "not met"
    kept_note = "; kept by `--keep-logistic`: refitted on these rows it answered more policy " \
        "questions in sample, none of them right (below, session 22)" \
        if gate.get("commit", report["commit"]) != report["commit"] else ""
    weights = "\n".join(f"| {name} | {gate['coef'][name]:+.3f} | {gate['mean'][name]:.3f} |"
                        for name in gate["features"])
    text = f"""# The answer gate (issues 25 and 26)

`clausegraph/answer/direct.py::direct_answer` answers "Not found in the indexed documents"
when the answer gate (`clausegraph/answer/gate.py`) gives its best sentence a probability of
being right below the gate's threshold. The gate reads what the direct answer already has
(features and why: the module's docstring) and is two models since session 22: a question
like one of CUAD's 41 clause categories (`asks_type` 1) is decided by boosted trees
(`answer_gate_typed.npz`, {typed_params}), every other question by a logistic regression
(`answer_gate.json`), both fitted by `scripts/fit_answer_gate.py` on the 22 policies of
`benchmarks/policies/questions.yaml` and the CUAD dev asks of
`benchmarks/cuad_dev/questions.yaml` together. It replaces the hand thresholds
`MIN_DOCUMENT_COVERAGE`, `MIN_SENTENCE_SCORE`, `MIN_CONFIDENCE`, which remain as one feature
(`constants_pass`).

When a question asks about CUAD clause types, the contract review (`clausegraph/review/
presence.py`) reads the whole document for them. Since session 14 its confidence is a feature
of the gate (`review_margin`, `review_quoted`), and when the review finds
every type asked the answer is given whatever the gate says (as in session 13); the table
shows both, the shipped decision in bold. A caller that does not type the question (an index
embedded by another model) is answered by a second gate fitted without the four
question-type features (`answer_gate_untyped.json`; the variant "without question types").

## Commands

```bash
# 1. ask everything with the gate off, keep features and judged outcomes (no text)
python scripts/fit_answer_gate.py --collect --policy-index-dir POLICY_INDEXES \\
    --cuad-index DEV_INDEX --rows ROWS.jsonl
# 2. out-of-sample figures, then the shipped weights fitted on all rows
python scripts/fit_answer_gate.py --rows ROWS.jsonl --write
# the policy benchmark with real asks, each document under a gate fitted without it
python scripts/bench_policies.py --index-dir POLICY_INDEXES --no-ingest --leave-one-out \\
    --gate-rows ROWS.jsonl
```

Rows: {report['rows']['policy']} policy questions, {report['rows']['cuad']} CUAD dev asks
({report['rows']['cuad_contracts']} contracts); commit {report['commit']}.

## Out of sample

Every figure of the gate below is out of sample: a policy's questions are decided by a gate
(and threshold) fitted without that policy (leave one document out, on the other 21 and all
CUAD asks); a CUAD contract's asks by one fitted without its fold ({CUAD_FOLDS} folds by
contract, on the other folds and all policies). "Old constants" and "gate off" are decided on
the same collected answers (the gate decides whether an answer is given, never its text).
Percentages; "NF": not found.

{comparison}

Hit@1 / hit@5 are not in this table: which definitions an answer keeps in its evidence
depends on whether it found an answer, so they move a little with the gate and are measured
by real runs of the benchmarks (below), not simulated here.

Thresholds fitted per fold: {min(chosen['thresholds'].values()):.3f} to
{max(chosen['thresholds'].values()):.3f}.

What these figures do and do not show. The weights and thresholds behind every gate figure
are out of sample. The design is not: three choices were made after seeing earlier versions
of this table (on these same rows): (1) the threshold objective (first: weighted accuracy on
"the answer is right", which said not found for 66-70 answerable policy questions; now:
not-found decisions right as the benchmarks count them, a wrong answer to an answerable
question counting as answered right, `unsure_gain` 1); (2) the features `asks_type` /
`type_match` (added after the first version reached CUAD not-found precision 63.6%); (3)
the variants listed, of which the default (C 1, all features) was kept, not the best row.
Session 22 chose the split design and its trees on this table too (the variants "one
logistic gate" and "boosted trees for every question" and the split's tree sizes). Session
24 chose the review's presence threshold's criterion on these rows too ("absent" right 93%
of the time on CUAD train, was 90%; the threshold itself is fitted on train,
`scripts/fit_type_presence.py`; docs/cuad_dev.md, session 24). The
issue's CUAD target (not-found precision >= 90% at recall >= 70%), out of sample with the
review's presence as shipped: precision {target_p}, recall {target_r}: **{met}** (on dev, where
the design was chosen).

## Per policy (out of sample)

{document_table(report['constants'], chosen)}

## The shipped gates (fitted on all rows)

Typed questions: {typed['trees']} boosted trees, threshold {typed['threshold']:.3f}.
Other questions: the logistic gate, threshold {gate['threshold']:.3f}, C {gate['params']['C']}
(fitted at commit {gate.get('commit', report['commit'])}{kept_note}).
Its weights on standardised features (unknown features read as the mean):

| feature | weight | mean |
|---|---|---|
{weights}
"""
    # what was measured by hand (real benchmark runs) stays below the marker
    kept = path.read_text(encoding="utf-8").partition(MARKER)[2] if path.is_file() else ""
    path.write_text(text + "\n" + MARKER + kept, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=Path, required=True, help="the collected rows (JSONL)")
    parser.add_argument("--collect", action="store_true", help="ask everything with the gate "
                        "off and write --rows (needs the indexes)")
    parser.add_argument("--policy-index-dir", type=Path, default=Path("/tmp/clausegraph-policies"),
                        help="bench_policies' --index-dir (one index per folder)")
    parser.add_argument("--cuad-index", type=Path, help="an index of the CUAD dev PDFs")
    parser.add_argument("--limit-docs", type=int, help="only the first N CUAD dev contracts")
    parser.add_argument("--C", type=float, default=1.0, help="inverse L2 strength")
    parser.add_argument("--drop", default="", help="comma-separated features to leave out")
    parser.add_argument("--keep-logistic", action="store_true", help="with --write, keep the "
                        "shipped logistic gates (typed and untyped) and write only the trees")
    parser.add_argument("--write", action="store_true", help="write the shipped weights, "
                        f"{REPORT.relative_to(ROOT)} and {NOTE.relative_to(ROOT)}")
    args = parser.parse_args()
    if args.collect:
        rows = collect_policies(args.policy_index_dir)
        if args.cuad_index:
            rows += collect_cuad(args.cuad_index, args.limit_docs)
        args.rows.parent.mkdir(parents=True, exist_ok=True)
        args.rows.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    rows = [json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines()
            if line]
    dropped = {f for f in args.drop.split(",") if f}
    features = [f for f in FEATURES if f not in dropped]
    chosen = variant(rows, args.C, features)
    variants = {
        "one logistic gate for every question (sessions 11-21)": variant(
            rows, args.C, features, fitter=one_gate()),
        "boosted trees for every question": variant(
            rows, args.C, features, fitter=one_gate(**TREE_PARAMS)),
    } | {
        f"split, trees of {leaves} leaves, {n} trees": variant(
            rows, args.C, features, trees=dict(TREE_PARAMS, max_iter=n, max_leaf_nodes=leaves))
        for n, leaves in ((100, 7), (400, 15), (300, 4))
    } | {
        f"C={C}": variant(rows, C, features) for C in (0.1, 10.0) if C != args.C
    } | {
        f"without {name}": variant(rows, args.C, [f for f in features if f not in group])
        for name, group in (("dense_top, dense_best", {"dense_top", "dense_best"}),
                            ("constants_pass", {"constants_pass"}),
                            ("asks_type, type_match", {"asks_type", "type_match"}),
                            ("kind_*", {f for f in features if f.startswith("kind_")}),
                            ("review_*", {f for f in features if f.startswith("review_")}),
                            ("question types (the untyped gate)", set(TYPED_FEATURES)))
        if name != "question types (the untyped gate)"
    } | {
        # a caller that does not type the question gets the logistic gate without them
        "question types left out (the untyped gate)": variant(
            rows, args.C, [f for f in features if f not in TYPED_FEATURES], fitter=one_gate()),
    } | {
        "wrong answers to answerable questions left out of the fit": variant(
            rows, args.C, features, fit_unsure=False),
        "threshold: a wrong answer to an answerable question gains half": variant(
            rows, args.C, features, unsure_gain=0.5),
        "threshold: a wrong answer to an answerable question gains nothing": variant(
            rows, args.C, features, unsure_gain=0.0),
        # fitted as if every CUAD positive were right to answer (a wrong value too)
        "CUAD positives all labelled right": variant(
            [dict(r, label=1) if r["source"] == "cuad" and r["outcome"]["gold"] == "positive"
             else r for r in rows], args.C, features),
    }
    # the shipped decision adds the review's presence: the designs compared alike
    for name in ("one logistic gate for every question (sessions 11-21)",
                 "boosted trees for every question"):
        variants[f"{name} + the review's presence"] = with_review(variants[name], rows)
    report: dict[str, Any] = {
        "command": recorded_command(sys.argv[1:]),
        "commit": commit(), "C": args.C, "features": features,
        "rows": {"policy": sum(r["source"] == "policy" for r in rows),
                 "cuad": sum(r["source"] == "cuad" for r in rows),
                 "cuad_contracts": len({r["group"] for r in rows if r["source"] == "cuad"}),
                 "without_features": sum(not r["features"] for r in rows)},
        "constants": evaluate(rows, constants), "gate_off": evaluate(rows, gate_off),
        "out_of_sample": chosen,
        "out_of_sample_with_review": with_review(chosen, rows),
        "without_review_features_with_review": with_review(variants["without review_*"], rows),
        "variants": {name: {k: v for k, v in result.items()
                            if k not in ("decisions", "policies_per_document")}
                     for name, result in variants.items()},
    }
    print(SUMMARY_HEADER)
    print(summary_line("old constants", report["constants"]))
    print(summary_line("gate off", report["gate_off"]))
    print(summary_line("gate, out of sample", chosen))
    print(summary_line("gate + review presence (shipped)", report["out_of_sample_with_review"]))
    print(summary_line("without review_* + review presence (session 13)",
                       report["without_review_features_with_review"]))
    for name, result in variants.items():
        print(summary_line(name, result))
    print()
    print(document_table(report["constants"], chosen))
    split = fit_split_gate(rows, args.C, features)
    gate, typed = split.other, split.typed
    untyped = fit_gate(rows, args.C, [f for f in features if f not in TYPED_FEATURES])
    if args.keep_logistic:
        gate, untyped = AnswerGate.load(SHIPPED), AnswerGate.load(SHIPPED_UNTYPED)
    report["shipped"] = gate.to_dict(**{k: v for k, v in gate.header.items()
                                        if k in ("fitted_on", "command", "commit")})
    report["shipped_typed"] = {"params": typed.params(), "threshold": typed.threshold_,
                               "trees": len(typed.roots_), "features": typed.features}
    report["shipped_untyped"] = untyped.to_dict()
    probabilities = [p for _, p in chosen["decisions"].values() if p is not None]
    print(f"\nshipped threshold {gate.threshold_:.3f}; out-of-sample P(right) "
          f"median {np.median(probabilities):.3f}")
    if args.write:
        written = [(typed, SHIPPED_TYPED)]
        if not args.keep_logistic:
            written += [(gate, SHIPPED), (untyped, SHIPPED_UNTYPED)]
        for model, path in written:
            model.save(path, fitted_on={k: report["rows"][k] for k in ("policy", "cuad")},
                       command=report["command"], commit=report["commit"])
        del chosen["decisions"]  # per ask: in --rows' order, refitted in seconds
        REPORT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        write_note(report, NOTE)
        print(f"wrote {', '.join(path.name for _, path in written)}, "
              f"{REPORT.relative_to(ROOT)}, "
              f"{NOTE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
