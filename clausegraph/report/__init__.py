"""Audit reports: one question, its answer, the evidence and everything needed to redo it.

A :class:`Report` records the question, the answer and its verification verdict, every
evidence clause (document, pages, character span, text with the cited or quoted part
highlighted), the reasoning chain, the retrieval parameters, the model, the prompt
template hashes, the documents' content hashes (doc ids) and the index generation.

Writers: :func:`write_markdown` (chain as Mermaid), :func:`write_html` (chain as inline
SVG; every piece of document text is HTML-escaped by Jinja autoescape, so a document
carrying ``<script>`` renders inert), :func:`write_pdf` (the same HTML laid out by
``pymupdf.Story``), :func:`write_json` (the Report itself, loadable with
:func:`load_report`). :func:`write_batch` answers a CSV/YAML list of questions into one
report per question plus an index page. :func:`rederive` re-runs retrieval with the
report's recorded parameters and says whether the same evidence comes back.
"""

from __future__ import annotations

import csv
import hashlib
import html
import json
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import jinja2
from markupsafe import Markup, escape
from pydantic import BaseModel, Field

from clausegraph.answer.extractive import GROUP_TITLES, GROUPS
from clausegraph.answer.verify import INLINE_CITATION, Claim, Verification, locate, verify
from clausegraph.config import PROMPTS_DIR
from clausegraph.models import Answer
from clausegraph.text.templates import template_hash

REPORT_VERSION = 1
Format = Literal["md", "html", "pdf", "json"]
FORMATS: tuple[str, ...] = ("md", "html", "pdf", "json")
TYPE_COLOURS = {
    "Defines": "#2563eb", "RefersTo": "#64748b", "Entails": "#059669",
    "Overrides": "#dc2626", "Causes": "#d97706", "SameSection": "#94a3b8",
}
GROUP_COLOURS = {  # fill, stroke
    "definition": ("#eff6ff", "#2563eb"),
    "base_rule": ("#f8fafc", "#334155"),
    "exception": ("#fef2f2", "#dc2626"),
}
VERDICT_TEXT = {
    "verified": "VERIFIED", "warnings": "WARNINGS", "failed": "FAILED",
}


# -- the model -----------------------------------------------------------------------------


class ReportClause(BaseModel):
    clause_id: str
    group: str
    group_title: str
    label: str
    heading: str | None
    section: str
    document: str
    doc_id: str
    source_path: str
    pages: list[int]
    span: tuple[int, int]
    score: float
    reason: str
    origin: str
    text: str
    cited: bool = Field(description="cited by the answer (claim citation or quote)")
    highlights: list[tuple[int, int]] = Field(
        default_factory=list, description="offsets inside text of quoted/cited phrases")
    text_sha256: str

    @property
    def anchor(self) -> str:
        return anchor(self.clause_id)

    def pieces(self) -> list[tuple[str, bool]]:
        """The text cut into (piece, highlighted) runs; line breaks become spaces."""
        flat = self.text.replace("\r", " ").replace("\n", " ")
        pieces, position = [], 0
        for start, end in self.highlights:
            if start > position:
                pieces.append((flat[position:start], False))
            pieces.append((flat[start:end], True))
            position = end
        if position < len(flat):
            pieces.append((flat[position:], False))
        return pieces


class ReportLink(BaseModel):
    type: str
    source: str
    target: str
    source_label: str
    target_label: str
    sentence: str
    confidence: float
    rule_id: str
    evidence: str


class ReportDocument(BaseModel):
    doc_id: str = Field(description="sha256 of the file bytes (first 16 hex): content hash")
    title: str
    source_path: str
    clauses_cited: int = 0


class IndexInfo(BaseModel):
    path: str | None = None
    format: str | None = None
    version: int | None = None
    generation: int | None = None
    embedding_model: str | None = None
    documents: int | None = None


class Report(BaseModel):
    """Everything an auditor needs to read, check and re-derive one answer."""

    report_version: int = REPORT_VERSION
    report_id: str = ""
    created_at: str
    clausegraph_version: str
    question: str
    answer: str
    mode: str
    model: str | None = None
    answer_found: bool | None = None
    claims: list[Claim] = Field(default_factory=list)
    verification: Verification
    evidence: list[ReportClause]
    chain: list[ReportLink]
    retrieval: dict[str, Any]
    documents_filter: list[str] | None = None
    documents: list[ReportDocument]
    index: IndexInfo = Field(default_factory=IndexInfo)
    template_hashes: dict[str, str] = Field(default_factory=dict)
    usage: dict[str, Any] = Field(default_factory=dict)
    strategy_notes: dict[str, str] = Field(
        default_factory=dict, description="what the retrieval strategy produced (causal summary, "
        "HyDE clause, saved files)",
    )

    @property
    def verdict(self) -> str:
        return self.verification.verdict

    def group(self, name: str) -> list[ReportClause]:
        return [e for e in self.evidence if e.group == name]

    def content_hash(self) -> str:
        """sha256 (16 hex) of the report without its id and timestamp."""
        data = self.model_dump(mode="json", exclude={"report_id", "created_at"})
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def anchor(clause_id: str) -> str:
    return "clause-" + re.sub(r"[^A-Za-z0-9]+", "-", clause_id).strip("-")


# -- building ------------------------------------------------------------------------------


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def extractive_claims(answer: Answer) -> list[Claim]:
    """The quotes of an extractive answer as claims (text = quote, cited = its clause)."""
    return [Claim(text=q.text, citations=[q.clause_id], quotes=[q.text]) for q in answer.quotes]


def build_report(
    answer: Answer,
    *,
    manifest: dict[str, Any] | None = None,
    index_path: str | Path | None = None,
    documents_filter: Sequence[str] | None = None,
    graph_edges: Sequence[Any] = (),
    created_at: datetime | None = None,
) -> Report:
    """A Report for ``answer`` (extractive or :class:`~clausegraph.generate.LLMAnswer`).

    ``manifest`` (the index manifest) supplies the index version, generation and
    embedding model; ``graph_edges`` lets verification look beyond the evidence.
    """
    from clausegraph import __version__

    claims: list[Claim] = list(getattr(answer, "claims", []) or [])
    verification: Verification | None = getattr(answer, "verification", None)
    if verification is None:
        # Extractive answers quote verbatim; checking them still runs the exception checks.
        claims = claims or extractive_claims(answer)
        verification = verify(claims, answer.evidence, answer.chain, graph_edges,
                              answer_found=bool(answer.evidence))
    cited = {c for claim in claims for c in claim.cited_ids()}
    phrases: dict[str, list[tuple[int, int]]] = {}
    for check in verification.located:
        if check.clause_id and check.start is not None and check.end is not None:
            phrases.setdefault(check.clause_id, []).append((check.start, check.end))
    by_id = {e.clause_id: e for e in answer.evidence}
    for quote in answer.quotes:
        item = by_id.get(quote.clause_id)
        span = locate(quote.text, item.text) if item else None
        if span:
            phrases.setdefault(quote.clause_id, []).append(span)
    evidence = [
        ReportClause(
            **e.model_dump(include={"clause_id", "group", "label", "heading", "section",
                                    "document", "doc_id", "source_path", "pages", "span",
                                    "score", "reason", "origin", "text"}),
            group_title=GROUP_TITLES.get(e.group, e.group),
            cited=e.clause_id in cited,
            highlights=_merge(phrases.get(e.clause_id, [])),
            text_sha256=hashlib.sha256(e.text.encode()).hexdigest()[:16],
        )
        for e in answer.evidence
    ]
    chain = [
        ReportLink(type=link.type.value, source=link.source, target=link.target,
                   source_label=link.source_label, target_label=link.target_label,
                   sentence=link.sentence(), confidence=link.confidence,
                   rule_id=link.rule_id, evidence=link.evidence)
        for link in answer.chain
    ]
    documents: dict[str, ReportDocument] = {}
    for e in evidence:
        doc = documents.setdefault(e.doc_id, ReportDocument(
            doc_id=e.doc_id, title=e.document, source_path=e.source_path))
        doc.clauses_cited += int(e.cited)
    hashes = dict(getattr(answer, "template_hashes", {}) or {})
    if not hashes:
        names = ["context.md.j2"] + (["answer_extractive.md.j2"]
                                     if answer.mode == "extractive" else [])
        hashes = {name: template_hash(name) for name in names}
    report = Report(
        created_at=(created_at or datetime.now(UTC)).isoformat(timespec="seconds"),
        clausegraph_version=__version__,
        question=answer.question,
        answer=answer.answer,
        mode=answer.mode,
        model=getattr(answer, "model", None) or (
            None if answer.mode == "extractive" else answer.mode),
        answer_found=getattr(answer, "answer_found", None),
        claims=claims if answer.mode != "extractive" else [],
        verification=verification,
        evidence=evidence,
        chain=chain,
        retrieval=dict(answer.retrieval),
        strategy_notes=dict(answer.strategy_notes),
        documents_filter=list(documents_filter) if documents_filter else None,
        documents=list(documents.values()),
        index=_index_info(manifest, index_path),
        template_hashes=hashes,
        usage=dict(getattr(answer, "usage", {}) or {}),
    )
    report.report_id = report.content_hash()
    return report


def _root_of(graph: Any) -> str | None:
    store = getattr(graph, "store", None)
    location = getattr(store, "location", None)
    if location is None:
        return None
    return location if "://" in location else str(Path(location).resolve())


def _manifest_of(graph: Any) -> dict[str, Any] | None:
    """What the graph's loaded index records: its facts and its documents' entries."""
    return graph._report_manifest() if hasattr(graph, "_report_manifest") else None


def _index_info(manifest: dict[str, Any] | None, path: str | Path | None) -> IndexInfo:
    if not manifest:
        return IndexInfo(path=str(path) if path else None)
    return IndexInfo(
        path=str(path) if path else None, format=manifest.get("format"),
        version=manifest.get("version"), generation=manifest.get("generation"),
        embedding_model=manifest.get("embedding_model"),
        documents=len(manifest.get("documents", {})),
    )


def report_for(graph: Any, question: str, *, provider: Any = None,
               documents: Sequence[str] | None = None, **overrides: Any) -> Report:
    """Ask ``graph`` (a ClauseGraph), optionally through ``provider``, and build the report."""
    answer = graph.ask(question, documents=documents, **overrides)
    edges: list[Any] = []
    if provider is not None and answer.mode == "extractive":
        from clausegraph.answer.generate import generate_answer

        index = graph.index
        lookup = index.clauses.clause
        for doc_id in dict.fromkeys(e.doc_id for e in answer.evidence):
            edges += index.graph.document_edges(doc_id)
        answer = generate_answer(answer, provider, clause_lookup=lookup, graph_edges=edges)
    return build_report(answer, manifest=_manifest_of(graph), index_path=_root_of(graph),
                        documents_filter=documents, graph_edges=edges)


# -- the chain as a picture ------------------------------------------------------------------


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return lines


def _chain_layout(report: Report) -> tuple[dict[str, tuple[int, int]], dict[str, Any]]:
    """Column (role) and row of every clause in the chain.

    Base rules take rows in evidence order; a definition or exception sits on the mean
    row of the base rules it is linked to, pushed down when the row is taken, so most
    arrows run straight across.
    """
    by_id = {e.clause_id: e for e in report.evidence}
    ids = list(dict.fromkeys(i for link in report.chain for i in (link.source, link.target)))
    order = {e.clause_id: n for n, e in enumerate(report.evidence)}
    ids.sort(key=lambda i: order.get(i, len(order)))
    group_of = {i: (by_id[i].group if i in by_id else "base_rule") for i in ids}
    grid: dict[str, tuple[int, int]] = {}
    base = [i for i in ids if group_of[i] == "base_rule"]
    for row, clause_id in enumerate(base):
        grid[clause_id] = (1, row)
    neighbours: dict[str, list[str]] = {i: [] for i in ids}
    for link in report.chain:
        neighbours[link.source].append(link.target)
        neighbours[link.target].append(link.source)
    for column, group in ((0, "definition"), (2, "exception")):
        members = [i for i in ids if group_of[i] == group]
        wanted = []
        for clause_id in members:
            rows = [grid[n][1] for n in neighbours[clause_id] if n in grid and grid[n][0] == 1]
            wanted.append((sum(rows) / len(rows) if rows else float(len(base)), clause_id))
        taken = -1
        for desired, clause_id in sorted(wanted):
            row = max(int(round(desired)), taken + 1)
            grid[clause_id] = (column, row)
            taken = row
    return grid, by_id


def chain_svg(report: Report, width: int = 720) -> str:
    """The reasoning chain drawn as SVG: clauses in role columns, typed arrows between.

    Arrows leaving or entering the same side of a box get their own attachment points;
    with more than five edges only Overrides and Causes arrows carry a label, the rest
    are told apart by colour (legend underneath). Arrowheads are polygons (not
    ``marker``) and fonts a generic family, so MuPDF draws it as a browser does. All
    text is escaped.
    """
    if not report.chain:
        return ""
    grid, by_id = _chain_layout(report)
    box_w, box_h, row_gap, top, margin = 186, 44, 24, 30, 10
    col_x = [margin + c * (width - 2 * margin - box_w) / 2 for c in range(3)]
    pos = {i: (col_x[c], top + r * (box_h + row_gap)) for i, (c, r) in grid.items()}
    rows = max(r for _, r in grid.values()) + 1
    legend_y = top + rows * (box_h + row_gap) - row_gap + 22
    height = legend_y + 14
    links = [link for link in report.chain if link.source in pos and link.target in pos]
    labelled = {"Overrides", "Causes"} if len(links) > 5 else set(TYPE_COLOURS)

    # Where each arrow leaves and enters: (clause, side) -> ordered list of link indexes.
    def sides(link: ReportLink) -> tuple[str, str]:
        (sx, _), (tx, _) = pos[link.source], pos[link.target]
        if abs(sx - tx) < 1:
            return "right", "right"
        return ("right", "left") if tx > sx else ("left", "right")

    ports: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for n, link in enumerate(links):
        out_side, in_side = sides(link)
        ports.setdefault((link.source, out_side), []).append((pos[link.target][1], n))
        ports.setdefault((link.target, in_side), []).append((pos[link.source][1], n + 0.5))

    def port_y(clause_id: str, side: str, key: float) -> float:
        members = sorted(ports[(clause_id, side)])
        index = [k for _, k in members].index(key)
        step = (box_h - 12) / max(len(members), 1)
        return pos[clause_id][1] + 6 + step * (index + 0.5)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
        f'viewBox="0 0 {width} {height:.0f}">',
        f'<rect x="0" y="0" width="{width}" height="{height:.0f}" fill="#ffffff"/>',
    ]
    for column, group in enumerate(GROUPS):
        x = col_x[column] + box_w / 2
        out.append(_svg_text(x, 16, GROUP_TITLES[group].upper(), 10, "#64748b", bold=True,
                             anchor="middle"))
    edges_svg, labels_svg, placed = [], [], []
    for n, link in enumerate(links):
        colour = TYPE_COLOURS.get(link.type, "#334155")
        (sx, _), (tx, _) = pos[link.source], pos[link.target]
        out_side, in_side = sides(link)
        sy = port_y(link.source, out_side, n)
        ty = port_y(link.target, in_side, n + 0.5)
        if out_side == in_side:  # same column: arc out on the right
            x1 = x2 = sx + box_w
            bend = x1 + 30 + 6 * (n % 3)
            path = f"M{x1:.0f},{sy:.0f} C{bend:.0f},{sy:.0f} {bend:.0f},{ty:.0f} {x2:.0f},{ty:.0f}"
            sign = -1.0
            mid = [x1 + 24, (sy + ty) / 2]
        else:
            forward = tx > sx
            x1 = sx + box_w if forward else sx
            x2 = tx if forward else tx + box_w
            dx = (x2 - x1) / 2
            path = (f"M{x1:.0f},{sy:.0f} C{x1 + dx:.0f},{sy:.0f} {x2 - dx:.0f},{ty:.0f} "
                    f"{x2:.0f},{ty:.0f}")
            sign = 1.0 if forward else -1.0
            mid = [(x1 + x2) / 2, (sy + ty) / 2]
        edges_svg.append(f'<path d="{path}" stroke="{colour}" stroke-width="1.5" fill="none"/>')
        bx = x2 - 8 * sign
        edges_svg.append(f'<polygon points="{x2:.0f},{ty:.1f} {bx:.0f},{ty - 4:.1f} '
                         f'{bx:.0f},{ty + 4:.1f}" fill="{colour}"/>')
        if link.type not in labelled:
            continue
        verb = re.sub(r"(?<!^)([A-Z])", r" \1", link.type).upper()
        label_w = 6.2 * len(verb) + 10
        while any(abs(mid[0] - x) < (label_w + w) / 2 and abs(mid[1] - y) < 16
                  for x, y, w in placed):
            mid[1] += 16  # keep labels from covering each other
        placed.append((mid[0], mid[1], label_w))
        labels_svg.append(
            f'<rect x="{mid[0] - label_w / 2:.0f}" y="{mid[1] - 7.5:.0f}" width="{label_w:.0f}" '
            f'height="15" rx="3" fill="#ffffff" stroke="{colour}" stroke-width="0.8"/>'
            + _svg_text(mid[0], mid[1] + 3.5, verb, 9, colour, bold=True, anchor="middle"))
    for clause_id, (x, y) in pos.items():
        item = by_id.get(clause_id)
        group = item.group if item else "base_rule"
        fill, stroke = GROUP_COLOURS.get(group, GROUP_COLOURS["base_rule"])
        title = item.label if item else clause_id.split(":", 1)[-1]
        subtitle = (item.heading if item and item.heading != item.label else None) or (
            item.section.split(" > ")[-1] if item and item.section else None) or (
            item.document if item else clause_id)
        out.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="{box_w}" height="{box_h}" rx="5" '
                   f'fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>')
        out.append(_svg_text(x + 10, y + 18, _clip(title, 26), 12, "#0f172a", bold=True))
        out.append(_svg_text(x + 10, y + 34, _clip(subtitle, 32), 9.5, "#475569"))
    legend, x = [], float(margin)
    for kind in dict.fromkeys(link.type for link in links):
        colour = TYPE_COLOURS.get(kind, "#334155")
        legend.append(f'<line x1="{x:.0f}" y1="{legend_y - 3:.0f}" x2="{x + 18:.0f}" '
                      f'y2="{legend_y - 3:.0f}" stroke="{colour}" stroke-width="2"/>')
        legend.append(_svg_text(x + 23, legend_y, kind, 9, "#475569"))
        x += 36 + 5.5 * len(kind)
    out += edges_svg + labels_svg + legend + ["</svg>"]
    return "".join(out)


def _svg_text(x: float, y: float, text: str, size: float, fill: str, bold: bool = False,
              anchor: str = "start") -> str:
    """One escaped SVG text node; the font is set on the node (MuPDF does not inherit it)."""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}"'
            f'{weight} fill="{fill}" text-anchor="{anchor}">{html.escape(text)}</text>')


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def chain_mermaid(report: Report) -> str:
    """The reasoning chain as a Mermaid flowchart (for Markdown viewers)."""
    if not report.chain:
        return ""
    by_id = {e.clause_id: e for e in report.evidence}
    ids = list(dict.fromkeys(i for link in report.chain for i in (link.source, link.target)))
    names = {clause_id: f"n{n}" for n, clause_id in enumerate(ids)}

    def label(clause_id: str) -> str:
        item = by_id.get(clause_id)
        text = item.label if item else clause_id
        if item and item.heading and item.heading != item.label:
            text += f" {item.heading}"
        return re.sub(r'["<>\[\]{}|]', "", text)[:40]

    lines = ["flowchart LR"]
    for clause_id in ids:
        lines.append(f'  {names[clause_id]}["{label(clause_id)}"]')
    for link in report.chain:
        verb = re.sub(r"(?<!^)([A-Z])", r"_\1", link.type).upper()
        lines.append(f"  {names[link.source]} -->|{verb}| {names[link.target]}")
    return "\n".join(lines)


# -- rendering ---------------------------------------------------------------------------





def _answer_html(text: str) -> Markup:
    """The answer's light Markdown (bold, bullets, citations) as HTML; escaped first."""
    out: list[str] = []
    in_list = False
    for raw in text.splitlines():
        line = str(escape(raw.strip()))
        line = re.sub(r"(?<![*\[])\*\*(?![*\]])(.+?)(?<![*\[])\*\*(?![*\]])",
                      r"<strong>\1</strong>", line)
        line = re.sub(r"(?<![\w*])_(.+?)_(?![\w*])", r"<em>\1</em>", line)
        line = INLINE_CITATION.sub(
            lambda m: f'<a class="cite" href="#{anchor(m.group(1))}">[{m.group(1)}]</a>', line)
        if line.startswith("- "):
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{line[2:]}</li>")
            continue
        if in_list and raw.startswith("  ") and out:
            out[-1] = out[-1][:-5] + f"<br/>{line}</li>"
            continue
        if in_list:
            out.append("</ul>")
            in_list = False
        if line:
            out.append(f"<p>{line}</p>")
    if in_list:
        out.append("</ul>")
    return Markup("\n".join(out))


def _md_text(text: str) -> str:
    """Document text safe inside Markdown: HTML and Markdown syntax neutralised."""
    text = html.escape(text.replace("\n", " "), quote=False)
    return re.sub(r"([\\`*_\[\]#|])", r"\\\1", text)


@lru_cache(maxsize=2)
def _environment(prompts_dir: str = str(PROMPTS_DIR)) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(prompts_dir),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                            default_for_string=True, default=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = _md_text
    env.filters["answer_html"] = _answer_html
    env.filters["anchor"] = anchor
    return env


def _context(report: Report, target: str) -> dict[str, Any]:
    issues_by_claim: dict[int, list[tuple[str, str]]] = {}
    for issue in report.verification.issues:
        if issue.claim is not None:
            issues_by_claim.setdefault(issue.claim, []).append((issue.severity, issue.kind))
    svg = chain_svg(report) if target in ("html", "pdf") else ""
    size = _svg_size(svg) if svg else (0.0, 0.0)
    scale = PDF_DIAGRAM_WIDTH / size[0] if size[0] else 1.0
    return {
        "r": report,
        "target": target,
        "groups": [(g, GROUP_TITLES[g], report.group(g)) for g in GROUPS],
        "verdict_text": VERDICT_TEXT.get(report.verdict, report.verdict.upper()),
        "issues_by_claim": issues_by_claim,
        "chain_svg": Markup(svg),
        "chain_mermaid": chain_mermaid(report),
        "diagram_size": (round(size[0] * scale), round(size[1] * scale)),
        "group_tags": {"definition": "DEFINITION", "base_rule": "BASE RULE",
                       "exception": "EXCEPTION"},
        "css": Markup(_css(target)),
        "type_colours": TYPE_COLOURS,
        "retrieval_rows": _retrieval_rows(report.retrieval),
        "usage_text": _usage_text(report.usage),
    }


PDF_DIAGRAM_WIDTH = 480  # points: the A4 text width less the diagram frame
DIAGRAM_ID = "chain-diagram"
_BLANK_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>'


def _svg_size(svg: str) -> tuple[float, float]:
    match = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
    return (float(match.group(1)), float(match.group(2))) if match else (0.0, 0.0)


def _usage_text(usage: dict[str, Any]) -> str:
    """E.g. '1 request (no repair), 2 HTTP attempts, 812 in / 164 out tokens, 1.20 s'."""
    if not usage:
        return ""
    parts = []
    if usage.get("requests") is not None:
        requests = usage["requests"]
        parts.append(f"{requests} request{'s' * (requests != 1)} "
                     f"({'after a JSON repair' if usage.get('repaired') else 'no repair'})")
    if usage.get("attempts") is not None:
        parts.append(f"{usage['attempts']} HTTP attempt{'s' * (usage['attempts'] != 1)}")
    if usage.get("input_tokens") is not None or usage.get("output_tokens") is not None:
        parts.append(f"{usage.get('input_tokens') or 0} in / {usage.get('output_tokens') or 0} "
                     "out tokens")
    if usage.get("seconds") is not None:
        parts.append(f"{usage['seconds']:.2f} s")
    if usage.get("finish_reason"):
        parts.append(f"finish {usage['finish_reason']}")
    return ", ".join(parts)


def _retrieval_rows(retrieval: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    for key, value in retrieval.items():
        if isinstance(value, list):
            value = ", ".join(map(str, value))
        rows.append((key, str(value)))
    return rows


def _css(target: str) -> str:
    css = (PROMPTS_DIR / "report.css").read_text(encoding="utf-8")
    extra = "report_pdf.css" if target == "pdf" else "report_screen.css"
    return css + "\n" + (PROMPTS_DIR / extra).read_text(encoding="utf-8")


def render_html(report: Report, target: str = "html") -> str:
    return _environment().get_template("report.html.j2").render(**_context(report, target))


def render_markdown(report: Report) -> str:
    return _environment().get_template("report.md.j2").render(**_context(report, "md"))


# -- writers -------------------------------------------------------------------------------


def _target(path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def write_markdown(report: Report, path: str | Path) -> Path:
    path = _target(path)
    path.write_text(render_markdown(report), encoding="utf-8")
    return path


def write_html(report: Report, path: str | Path) -> Path:
    path = _target(path)
    path.write_text(render_html(report, "html"), encoding="utf-8")
    return path


def write_json(report: Report, path: str | Path) -> Path:
    path = _target(path)
    path.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    return path


def write_pdf(report: Report, path: str | Path) -> Path:
    """Lay out the report's HTML with ``pymupdf.Story``, then add running header/footer.

    The chain diagram is placed as vector graphics: the HTML holds a blank placeholder
    image of the diagram's size, and the SVG (converted to a PDF page by MuPDF) is drawn
    into the placeholder's rectangle, so its text stays sharp and selectable.
    """
    import pymupdf

    path = _target(path)
    tmp = path.with_name(path.name + ".tmp")
    page_rect = pymupdf.paper_rect("a4")
    body = page_rect + (48, 56, -48, -56)
    archive = pymupdf.Archive()
    archive.add(_BLANK_SVG, "chain-placeholder.svg")
    story = pymupdf.Story(html=render_html(report, "pdf"), archive=archive)
    diagram_rects: list[tuple[int, Any]] = []

    def record(position: Any) -> None:
        if position.id == DIAGRAM_ID and position.open_close & 1:
            diagram_rects.append((position.page, pymupdf.Rect(position.rect)))

    writer = pymupdf.DocumentWriter(str(tmp))
    more, page_number = True, 0
    while more:
        device = writer.begin_page(page_rect)
        more, _ = story.place(body)
        story.element_positions(record, {"page": page_number})
        story.draw(device)
        writer.end_page()
        page_number += 1
        if page_number > 500:  # a runaway layout must not fill the disk
            break
    writer.close()
    document = pymupdf.open(str(tmp))
    svg = chain_svg(report)
    if svg and diagram_rects:
        drawing = pymupdf.open("pdf", pymupdf.open(stream=svg.encode(), filetype="svg")
                               .convert_to_pdf())
        number, rect = diagram_rects[0]
        width, height = _svg_size(svg)
        scale = PDF_DIAGRAM_WIDTH / width
        left = rect.x0 + max(rect.width - width * scale, 0) / 2  # centred like the image
        target = pymupdf.Rect(left, rect.y0, left + width * scale, rect.y0 + height * scale)
        document[number].show_pdf_page(target, drawing, 0)
    _decorate_pages(document, report)
    document.set_metadata({
        "title": f"ClauseGraph audit report: {report.question[:120]}",
        "subject": report.question,
        "author": "ClauseGraph",
        "creator": f"ClauseGraph {report.clausegraph_version}",
        "producer": "PyMuPDF Story",
        "keywords": f"report {report.report_id}; verdict {report.verdict}",
    })
    document.save(str(path), garbage=3, deflate=True)
    document.close()
    tmp.unlink(missing_ok=True)
    return path


def _decorate_pages(document: Any, report: Report) -> None:
    """Running header (title, report id) and footer (hashes, page x of n)."""
    import pymupdf

    grey, rule = (0.39, 0.45, 0.55), (0.8, 0.83, 0.87)
    total = document.page_count
    generation = report.index.generation if report.index.generation is not None else "-"
    footer = (f"Index generation {generation}  |  documents "
              f"{', '.join(d.doc_id for d in report.documents)}  |  prompts "
              f"{', '.join(report.template_hashes.values())}")
    for number, page in enumerate(document, start=1):
        width, height = page.rect.width, page.rect.height
        page.draw_line((48, 40), (width - 48, 40), color=rule, width=0.6)
        page.insert_text((48, 34), "ClauseGraph audit report", fontsize=7.5, color=grey,
                         fontname="helv")
        right = f"Report {report.report_id}  |  {report.created_at}"
        page.insert_text((width - 48 - pymupdf.get_text_length(right, "helv", 7.5), 34),
                         right, fontsize=7.5, color=grey, fontname="helv")
        page.draw_line((48, height - 40), (width - 48, height - 40), color=rule, width=0.6)
        text = footer if pymupdf.get_text_length(footer, "helv", 6.5) < width - 170 else (
            footer[:110] + "...")
        page.insert_text((48, height - 30), text, fontsize=6.5, color=grey, fontname="helv")
        label = f"Page {number} of {total}"
        page.insert_text((width - 48 - pymupdf.get_text_length(label, "helv", 7.5),
                          height - 30), label, fontsize=7.5, color=grey, fontname="helv")


WRITERS: dict[str, Callable[[Report, str | Path], Path]] = {
    "md": write_markdown, "html": write_html, "pdf": write_pdf, "json": write_json,
}


def write_report(report: Report, path: str | Path, fmt: str | None = None) -> Path:
    """Write in ``fmt`` (default: from the file suffix: .md .html .pdf .json)."""
    fmt = (fmt or Path(path).suffix.lstrip(".")).lower()
    fmt = {"markdown": "md", "htm": "html"}.get(fmt, fmt)
    if fmt not in WRITERS:
        raise ValueError(f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}")
    return WRITERS[fmt](report, path)


def load_report(source: str | Path | dict[str, Any]) -> Report:
    """A Report from a JSON file path, a JSON string or a dict."""
    if isinstance(source, dict):
        return Report.model_validate(source)
    text = str(source)
    if text.lstrip().startswith("{"):
        return Report.model_validate_json(text)
    return Report.model_validate_json(Path(source).read_text(encoding="utf-8"))


# -- batches -------------------------------------------------------------------------------


class QuestionSpec(BaseModel):
    id: str
    question: str
    documents: list[str] | None = None


class BatchEntry(BaseModel):
    id: str
    question: str
    files: dict[str, str] = Field(default_factory=dict)
    verdict: str | None = None
    mode: str | None = None
    evidence: int = 0
    error: str | None = None


class BatchResult(BaseModel):
    out_dir: str
    index_files: dict[str, str]
    entries: list[BatchEntry]

    @property
    def failed(self) -> list[BatchEntry]:
        return [e for e in self.entries if e.error]


def _slug(text: str, limit: int = 48) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-") or "question"


def read_questions(path: str | Path) -> list[QuestionSpec]:
    """Questions from CSV (column ``question``; optional ``id``, ``documents`` separated by
    ';') or YAML (a list of strings, or of mappings with question/id/documents; or a
    mapping with a ``questions`` list)."""
    path = Path(path)
    raw: list[Any]
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            where = getattr(exc, "problem_mark", None)
            line = f" line {where.line + 1}" if where else ""
            raise ValueError(f"{path}:{line} invalid YAML ({getattr(exc, 'problem', exc)})") \
                from None
        raw = data.get("questions", []) if isinstance(data, dict) else (data or [])
    elif path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            if not reader.fieldnames or "question" not in [f.strip().lower()
                                                           for f in reader.fieldnames]:
                raise ValueError(f"{path}: the CSV needs a 'question' column")
            raw = [{k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
                   for row in reader]
    else:
        raise ValueError(f"{path}: questions file must be .csv, .yaml or .yml")
    specs: list[QuestionSpec] = []
    for n, item in enumerate(raw, start=1):
        if isinstance(item, str):
            item = {"question": item}
        if not isinstance(item, dict) or not str(item.get("question") or "").strip():
            continue
        documents = item.get("documents") or None
        if isinstance(documents, str):
            documents = [d.strip() for d in documents.split(";") if d.strip()] or None
        qid = str(item.get("id") or "").strip() or f"{n:03d}"
        specs.append(QuestionSpec(id=qid, question=str(item["question"]).strip(),
                                  documents=documents))
    if not specs:
        raise ValueError(f"{path}: no questions found")
    return specs


def write_batch(
    questions_file: str | Path,
    graph: Any,
    out_dir: str | Path,
    formats: Sequence[str] = ("html", "md", "json"),
    provider: Any = None,
    documents: Sequence[str] | None = None,
    **overrides: Any,
) -> BatchResult:
    """One report per question (in every format of ``formats``) plus index.html/index.md.

    ``documents`` limits every question to those documents, unless the questions file
    names documents for a question; ``overrides`` (strategy, top_k, ...) go to ``ask``.
    A question that fails (e.g. the provider is down) is listed with its error; the
    others are still written.
    """
    from clausegraph.errors import ClauseGraphError

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    entries: list[BatchEntry] = []
    reports: list[Report | None] = []
    for spec in read_questions(questions_file):
        stem = f"{_slug(spec.id, 16)}-{_slug(spec.question)}"
        entry = BatchEntry(id=spec.id, question=spec.question)
        try:
            report = report_for(graph, spec.question, provider=provider,
                                documents=spec.documents or documents, **overrides)
            for fmt in formats:
                written = write_report(report, out / f"{stem}.{fmt}", fmt)
                entry.files[fmt] = written.name
            entry.verdict, entry.mode, entry.evidence = (
                report.verdict, report.model or report.mode, len(report.evidence))
            reports.append(report)
        except (ClauseGraphError, ValueError, OSError) as exc:
            entry.error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            reports.append(None)
        entries.append(entry)
    manifest = _manifest_of(graph)
    env = _environment()
    values = {"entries": entries, "css": Markup(_css("html")),
              "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
              "index": _index_info(manifest, _root_of(graph)),
              "source": Path(questions_file).name}
    index_files = {}
    (out / "index.html").write_text(env.get_template("report_index.html.j2").render(**values),
                                    encoding="utf-8")
    index_files["html"] = "index.html"
    (out / "index.md").write_text(env.get_template("report_index.md.j2").render(**values),
                                  encoding="utf-8")
    index_files["md"] = "index.md"
    return BatchResult(out_dir=str(out), index_files=index_files, entries=entries)


# -- re-derivation -------------------------------------------------------------------------


class RederiveResult(BaseModel):
    same: bool
    problems: list[str] = Field(default_factory=list)
    expected: list[str] = Field(default_factory=list)
    found: list[str] = Field(default_factory=list)


def rederive_check(report: Report | str | Path | dict[str, Any], graph: Any) -> RederiveResult:
    """Re-run retrieval with the report's question, document filter and retrieval
    parameters; compare clause ids, clause text hashes and scores with the report."""
    report = report if isinstance(report, Report) else load_report(report)
    problems: list[str] = []
    manifest = ({**graph.store.info(), "documents": graph.store.entries()}
                if hasattr(graph, "store") else None)
    if manifest is not None:
        missing = [d.doc_id for d in report.documents if d.doc_id not in manifest["documents"]]
        if missing:
            problems.append(f"documents no longer in the index (changed or removed): "
                            f"{', '.join(missing)}")
        if report.index.embedding_model and manifest.get("embedding_model") not in (
                None, report.index.embedding_model):
            problems.append(f"embedding model changed: {report.index.embedding_model} -> "
                            f"{manifest.get('embedding_model')}")
    # ClauseGraph.evidence = ranked clauses + governing definitions/exceptions, as in ask()
    derive = getattr(graph, "evidence", None) or graph.retrieve
    results = derive(report.question, documents=report.documents_filter, **report.retrieval)
    found = {r.clause.clause_id: r for r in results}
    expected = {e.clause_id: e for e in report.evidence}
    if set(found) != set(expected):
        extra = sorted(set(found) - set(expected))
        lost = sorted(set(expected) - set(found))
        problems.append(f"evidence differs: missing {lost or '-'}, new {extra or '-'}")
    for clause_id in set(found) & set(expected):
        text_hash = hashlib.sha256(found[clause_id].clause.text.encode()).hexdigest()[:16]
        if text_hash != expected[clause_id].text_sha256:
            problems.append(f"text of {clause_id} changed")
        if abs(round(found[clause_id].score, 4) - expected[clause_id].score) > 1e-3:
            problems.append(f"score of {clause_id} changed: {expected[clause_id].score} -> "
                            f"{found[clause_id].score:.4f}")
    return RederiveResult(same=not problems, problems=problems,
                          expected=sorted(expected), found=sorted(found))


def rederive(report_json: Report | str | Path | dict[str, Any], graph: Any) -> bool:
    """True when ``graph`` returns the report's evidence for the report's parameters."""
    return rederive_check(report_json, graph).same
