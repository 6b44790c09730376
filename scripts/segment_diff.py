"""What a segmentation change does to indexed documents, before anything is re-ingested.

Each document of each index is cut again by this checkout's ``segment()`` (with the index's
own stored text, pages and line styles) and compared with the clauses the index stored: a
document is listed when a clause id, section path or clause start differs. ``--show`` prints
the changed lines (``-`` stored, ``+`` now), to be read one by one. The ids of the changed
documents go to ``--ids`` (one per line), for removing and ingesting those files again.

    python scripts/segment_diff.py --index IDX [--index IDX2 ...] [--show] [--ids FILE]
    python scripts/segment_diff.py --index IDX --set lead_in_paths=true   # a setting instead

Used in session 15 (docs/segmentation.md): every changed path of the wrapped-reference,
dash, spelled-number and lettered-number rules was read this way.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clausegraph import ClauseGraph  # noqa: E402
from clausegraph.config import SegmentConfig  # noqa: E402
from clausegraph.models import Clause  # noqa: E402
from clausegraph.segment import segment  # noqa: E402


def described(clauses: list[Clause]) -> list[str]:
    """One line per clause: its path in the document, its section path, its opening words."""
    return [f"{c.clause_id.split(':', 1)[1]} | {' > '.join(c.section_path)} | {c.text[:50]!r}"
            for c in clauses]


def changed_lines(stored: list[Clause], now: list[Clause]) -> list[str]:
    return [line for line in difflib.unified_diff(described(stored), described(now),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def settings(pairs: list[str]) -> SegmentConfig:
    """The segment settings with ``KEY=VALUE`` overrides (pydantic converts the values)."""
    return SegmentConfig(**dict(pair.split("=", 1) for pair in pairs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", action="append", required=True, help="an index folder")
    parser.add_argument("--show", action="store_true", help="print the changed clause lines")
    parser.add_argument("--limit", type=int, default=20, help="changed lines shown per document")
    parser.add_argument("--ids", type=Path, help="write the ids of the changed documents here")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE", help="a segment setting to cut with")
    args = parser.parse_args()
    config = settings(args.overrides)
    changed: list[str] = []
    total = 0
    for index in args.index:
        clauses = ClauseGraph.open(index).index.clauses
        for doc_id in clauses.document_ids():
            total += 1
            document = clauses.document(doc_id)
            stored = clauses.document_clauses(doc_id)
            now = segment(document, config)
            lines = changed_lines(stored, now)
            if not lines:
                continue
            changed.append(doc_id)
            print(f"## {document.title[:60]!r} ({doc_id}, {Path(document.source_path).name}): "
                  f"{len(stored)} -> {len(now)} clauses, {len(lines)} changed lines")
            if args.show:
                for line in lines[:args.limit]:
                    print("   ", line[:200])
    print(f"{len(changed)} of {total} documents changed")
    if args.ids:
        args.ids.write_text("".join(f"{doc_id}\n" for doc_id in changed), encoding="utf-8")


if __name__ == "__main__":
    main()
