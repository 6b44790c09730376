"""Segmentation audit: does a list item or table row carry its heading into retrieval?

For a seeded random sample of list items (lines that start with a list marker: "(a)",
"ii.", "3)", a bullet) and table rows in each of the 22 policies (the 7 of
``insurance-policies`` and the 15 of ``policies-dev`` in the shared data), prints the
item and what its clause carries with it: the last two ``section_path`` entries (what
``ClauseGraph`` puts before a clause's text when it embeds and BM25-indexes it), the
clause's heading, and the clause's text before the item. A reader then judges, item by
item, whether the heading or lead-in the item sits under is there ("does "(ii) knee
replacement" carry "waiting period of 36 months"?"). The sample is drawn from the
document's text, not from its clauses, so two segmenter settings are judged on the same
items.

    python scripts/segment_audit.py                                   # defaults
    python scripts/segment_audit.py --set style_headings=true --set lead_in_paths=true
    python scripts/segment_audit.py --items 3 --rows 1 --seed 26 --out audit.txt
    python scripts/segment_audit.py --context 400     # more of the clause before each item

The counts judged by hand are in docs/segmentation.md.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clausegraph.config import SegmentConfig
from clausegraph.eval.data import shared_data_dir
from clausegraph.ingest import load_document
from clausegraph.models import Clause, Document
from clausegraph.segment import segment

# Folders of the shared data: the policies rules were developed on, then those they are
# checked on.
GROUPS = {"insurance-policies": "develop", "policies-dev": "check"}
_LIST_MARKER_RE = re.compile(
    r"(?:\((?:[a-zA-Z]{1,4}|\d{1,3})\)|(?:[a-zA-Z]|[ivxIVX]{1,5}|\d{1,2})[.)]"
    r"|[•●▪◦○■□➢►▶✓✔·∙\uf0b7\uf0a7\uf0d8\uf076\uf0fc\u2023\u2043\-–])\s+\S"
)
_SHOWN = 110


def policy_files(data: Path) -> list[tuple[str, Path]]:
    """(group, file) of every policy PDF, the development group first."""
    return [
        (group, path)
        for folder, group in GROUPS.items()
        for path in sorted((data / folder).glob("*.pdf"))
    ]


def candidate_lines(document: Document) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(start, end) of the document's list-item lines and of its table rows."""
    excluded = sorted(document.excluded)
    tables = [(t.start, t.end) for t in document.tables]
    items: list[tuple[int, int]] = []
    rows: list[tuple[int, int]] = []
    for match in re.finditer(r"[^\n]+", document.text):
        start = match.start() + len(match.group()) - len(match.group().lstrip())
        end = match.end()
        if start >= end or any(a <= start < b for a, b in excluded):
            continue
        if any(a <= start < b for a, b in tables):
            rows.append((start, end))
        elif _LIST_MARKER_RE.match(document.text, start):
            items.append((start, end))
    return items, rows


def clause_at(clauses: list[Clause], offset: int) -> Clause | None:
    for clause in clauses:
        if any(start <= offset < end for start, end in clause.segments):
            return clause
    return None


def clause_offset(clause: Clause, offset: int) -> int:
    """Where document ``offset`` falls in ``clause.text`` (its segments joined): the item's
    own place, not the first place its words recur ("ii." or a bullet recurs often)."""
    found = clause.text_offset(offset)
    return 0 if found is None else found


def describe(document: Document, clauses: list[Clause], kind: str, line: tuple[int, int],
             context: int = 140) -> str:
    """The item and what its clause carries, a few lines for a reader to judge; ``context``
    characters of the clause's text before the item."""
    start, end = line
    shown = " ".join(document.text[start:end].split())[:_SHOWN]
    page = document.page_of(start)
    clause = clause_at(clauses, start)
    if clause is None:
        return f"  [{kind}] p.{page} {shown!r}\n      (in no clause)"
    before = " ".join(clause.text[: clause_offset(clause, start)].split())
    parts = [
        f"  [{kind}] p.{page} {shown!r}",
        f"      clause:  {clause.clause_id.split(':', 1)[1]} ({clause.kind})",
        f"      path:    {' > '.join(clause.section_path[-2:]) or '-'}",
        f"      heading: {clause.heading or '-'}",
    ]
    if before:
        parts.append(f"      before:  ...{before[-context:]!r}")
    return "\n".join(parts)


def audit_document(
    document: Document, config: SegmentConfig, items: int, rows: int, seed: int,
    context: int = 140,
) -> str:
    clauses = segment(document, config)
    item_lines, row_lines = candidate_lines(document)
    rng = random.Random(f"{seed}:{Path(document.source_path).name}")
    chosen = [("item", line) for line in rng.sample(item_lines, min(items, len(item_lines)))]
    chosen += [("row", line) for line in rng.sample(row_lines, min(rows, len(row_lines)))]
    chosen.sort(key=lambda pair: pair[1])
    return "\n".join(describe(document, clauses, kind, line, context) for kind, line in chosen)


def parse_settings(pairs: list[str]) -> SegmentConfig:
    """``--set style_headings=true`` pairs as a SegmentConfig (a typo is an error)."""
    values: dict[str, str] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        values[key.removeprefix("segment.")] = value
    return SegmentConfig.model_validate(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=3, help="list items per document")
    parser.add_argument("--rows", type=int, default=1, help="table rows per document")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a segment setting, e.g. style_headings=true")
    parser.add_argument("--context", type=int, default=140,
                        help="characters of the clause's text shown before the item")
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args()
    config = parse_settings(args.set)
    data = shared_data_dir()
    files = policy_files(data)
    if not files:
        sys.exit(f"no policies under {data}: set $CLAUSEGRAPH_SHARED_DATA")
    out = [f"segment settings: {config.model_dump()}"]
    for group, path in files:
        started = time.perf_counter()
        document = load_document(path)
        seconds = time.perf_counter() - started
        out.append(f"\n## {path.name} ({group}; ingest {seconds:.1f} s)")
        out.append(audit_document(document, config, args.items, args.rows, args.seed,
                                  args.context))
        print("\n".join(out[-2:]), flush=True)
    if args.out:
        args.out.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
