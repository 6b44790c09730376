"""Segment stage: cut a document's canonical text into clauses, the retrieval units.

One linear pass over the visible lines (``parser.py``) finds labels at line starts --
``ARTICLE IV``, ``Section 5``, ``4.2``, ``(b)``, ``ii.``, ``A.``, bullets, ``Schedule B``,
insurance codes such as ``Excl01`` (``labels.py``) -- plus unnumbered headings
(``headings.py``) and definition entries (``definitions.py``), and places each in an
outline with a stack (``outline.py``). Contents tables (``contents.py``), lists of the
schedules (``schedules.py``), signature blocks (``signatures.py``), tables
(``tables.py``) and flattened page-long lines (``inline.py``) are told apart on the way.
The units are then merged (``merge.py``) and become clauses (``clauses.py``), long ones
cut into windows (``windows.py``).

Choices made here, which later stages can rely on:

* ``clause_id`` is ``"<document key>:<path>"``. Dotted numbers carry their parents, so
  ``4.2(b)`` not ``4/4.2/(b)``; lettered and roman items hang off their parent's number
  (``7.1(b)(ii)``, always written in parentheses whatever the source used: ``a.``,
  ``a)``); containers are joined with ``/`` (``ARTICLE IV/Section 5``, ``Schedule B/3``)
  unless the number already names the article (``Section 4.2`` under ``ARTICLE IV`` is
  ``4.2``). ``Section 6.1`` is written ``6.1``; a bare ``Section 5`` keeps its word.
  Unnumbered clauses (paragraphs, headings, bullets, definitions without a number) are
  ``<nearest numbered ancestor>¶N``; top-level ones before the first numbered label (or
  the second capitalised heading) are ``preamble¶N``; a table of contents near the start is
  ``contents``. Repeats get ``~2``, ``~3`` in reading order.
* A table (``Document.tables``) is one clause of kind ``table`` (``Table N``, see
  ``tables.py``); a long table is cut into groups of whole rows (``Table N#w1``); tables
  never merge with a neighbour.
* ``number`` is the last ``/`` part of the path, ``None`` for unnumbered clauses;
  ``section_path`` lists the ancestors' labels, root first, each as number plus heading.
* Long clauses are cut into sentence windows (``4.2#w1``).
* Every visible non-space character lands in exactly one clause.
* The running header and footer (``Document.excluded``, page numbers aside) are one more
  clause, last, of kind ``running`` (``<key>:header-footer``, ``running.py``): each
  distinct line once, where it first appears.
"""

from __future__ import annotations

from clausegraph.config import SegmentConfig
from clausegraph.models import Clause, Document
from clausegraph.segment.clauses import build_clauses
from clausegraph.segment.merge import merge_headings, merge_lead_in_lists, merge_tiny
from clausegraph.segment.parser import Parser
from clausegraph.segment.running import running_clause

__all__ = ["segment"]


def segment(document: Document, config: SegmentConfig | None = None) -> list[Clause]:
    """Cut ``document`` into clauses in reading order (see the module docstring)."""
    config = config or SegmentConfig()
    units = Parser(document, config).run()
    units = merge_headings(units)
    units = merge_tiny(units, config.min_clause_chars,
                       document.text if config.keep_worded_items else None)
    units = merge_lead_in_lists(units, document.text, config.max_clause_chars // 2)
    clauses = build_clauses(
        document, units, config.max_clause_chars, config.lead_in_paths,
        config.title_paths, config.max_table_chars,
    )
    running = running_clause(document, len(clauses))
    return clauses if running is None else [*clauses, running]
