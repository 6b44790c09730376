"""The reasoning chain as a picture: SVG for HTML/PDF, Mermaid for Markdown."""

from __future__ import annotations

import html
import re
from typing import Any

from clausegraph.answer.extractive import GROUP_TITLES, GROUPS
from clausegraph.report.models import Report, ReportLink

TYPE_COLOURS = {
    "Defines": "#2563eb", "RefersTo": "#64748b", "Entails": "#059669",
    "Overrides": "#dc2626", "Causes": "#d97706", "SameSection": "#94a3b8",
}
GROUP_COLOURS = {  # fill, stroke
    "definition": ("#eff6ff", "#2563eb"),
    "base_rule": ("#f8fafc", "#334155"),
    "exception": ("#fef2f2", "#dc2626"),
}
# -- the chain as a picture ------------------------------------------------------------------


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


