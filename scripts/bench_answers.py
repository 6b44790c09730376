"""Helpers shared by the answer benchmarks (scripts/bench_real_pdfs.py, scripts/bench_policies.py).

Both ask labelled questions through the Python API exactly as a user would and judge the
answer against a gold snippet (is it inside an evidence clause?) and answer patterns (does
the direct answer state the fact?). The helpers here are that judging, the index each
benchmark builds once and reuses, and the summary of a set of judged rows.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from clausegraph import ClauseGraph
from clausegraph.config import Settings

_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "`": "'"})
# ingest expands these ligatures in the clause text; labels read off PyMuPDF's page text may
# still hold them, so both sides are expanded before comparing
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl"})


def normalise(text: str | None) -> str:
    """Whitespace collapsed, curly quotes straightened, ligatures expanded, case folded."""
    return " ".join((text or "").translate(_QUOTES).translate(_LIGATURES).split()).casefold()


def open_index(name: str, folder: Path, index_dir: Path, fresh: bool,
               settings: Settings | None = None) -> ClauseGraph:
    """The index ``index_dir/name`` of every file in ``folder``: built once, then reused."""
    root = index_dir / name
    if fresh and root.exists():
        shutil.rmtree(root)
    graph = ClauseGraph.open(root, settings, create=True)
    started = time.perf_counter()
    report = graph.ingest([folder])
    built = [o for o in report.outcomes if o.status != "unchanged"]
    if built:
        print(f"[{name}] ingested {len(built)} files in {time.perf_counter() - started:.0f}s",
              file=sys.stderr)
    for failed in report.failed:
        print(f"[{name}] FAILED {failed.path}: {failed.error}", file=sys.stderr)
    return graph


# a table row's column name before its value ("| Network Provider (You will pay the least):
# $50 copay/visit"): clausegraph/ingest/blocks.py::render_table
_COLUMN_NAME = re.compile(r"\|(?:[^|:\n]{1,120}:(?=\s))?")


def cell_values(text: str) -> str:
    """A rendered table row without its column names and cell bars ("Specialist visit |
    Network Provider: $50 copay/visit" -> "Specialist visit $50 copay/visit"), so that a
    gold quote of a row as the page shows it (cells side by side) is found in the row."""
    return _COLUMN_NAME.sub(" ", text)


def states_fact(direct: str | None, facts: list[str], whole_words: bool = False) -> bool:
    """Does the direct answer contain one of the fact patterns?

    ``whole_words`` keeps a pattern from matching inside a longer token ("yes" in "eyes",
    "2%" in "12%"); a plural of the pattern's last word still states it ("Rs. 15 lakhs"
    for "15 lakh")."""
    said = normalise(direct)
    for fact in map(normalise, facts):
        if whole_words:
            plural = "(?:s|es)?" if fact[-1:].isalpha() else ""
            if re.search(rf"(?<!\w){re.escape(fact)}{plural}(?!\w)", said):
                return True
        elif fact in said:
            return True
    return False


def judge(answer: Any, item: dict[str, Any], whole_words: bool = False) -> dict[str, Any]:
    """One question's outcome from the answer as the Python API returns it.

    ``item`` holds ``gold`` (a snippet or a list of alternatives) and ``answer`` (fact
    patterns), optionally ``verdict`` (the label the verdict must have: yes, no,
    conditional), or ``not_found: true``."""
    texts = [normalise(e.text) + "\n" + normalise(cell_values(e.text)) for e in answer.evidence]
    direct = getattr(answer, "direct_answer", None)
    found = bool(getattr(answer, "found", direct is not None))
    row: dict[str, Any] = {
        "question": item["question"], "document": item.get("document"),
        "not_found": bool(item.get("not_found")), "found": found, "direct_answer": direct,
        "top": answer.evidence[0].label if answer.evidence else None,
    }
    if item.get("not_found"):
        row["not_found_ok"] = not found
        return row
    golds = item["gold"] if isinstance(item["gold"], list) else [item["gold"]]
    golds = [normalise(g) for g in golds]
    row["rank"] = next((i + 1 for i, t in enumerate(texts) if any(g in t for g in golds)), None)
    row["in_any"] = row["rank"] is not None
    row["r1"] = row["rank"] == 1
    row["r5"] = row["rank"] is not None and row["rank"] <= 5
    row["direct_ok"] = found and states_fact(direct, item.get("answer", []), whole_words)
    # a question labelled with the verdict it takes ("Can a 70-year-old buy this policy?":
    # no) is right only with that verdict, the figure it turns on stated as well
    expected = item.get("verdict")
    if expected is not None:
        read = getattr(answer, "verdict", None)
        row["direct_ok"] = row["direct_ok"] and read is not None and read.label == expected
    # the verbatim sentence alone, without the verdict the direct answer states before it
    quote = getattr(answer, "direct_quote", direct)
    row["quote_ok"] = found and states_fact(quote, item.get("answer", []), whole_words)
    return row


def share(values: list[bool]) -> float | None:
    """Percentage of true values, one decimal; None for no values."""
    return round(100.0 * sum(values) / len(values), 1) if values else None


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    answerable = [r for r in rows if not r["not_found"]]
    missing = [r for r in rows if r["not_found"]]
    return {
        "questions": len(rows), "answerable": len(answerable), "not_found_questions": len(missing),
        "recall@1": share([r["r1"] for r in answerable]),
        "recall@5": share([r["r5"] for r in answerable]),
        "direct_answer": share([r["direct_ok"] for r in answerable]),
        "not_found": share([r["not_found_ok"] for r in missing]),
    }
