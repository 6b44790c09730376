// The reasoning chain as a small graph: one box per clause (number + document key),
// columns by role (definitions, base rules, exceptions), typed arrows between them.
"use strict";

const Chain = {};
const SVG_NS = "http://www.w3.org/2000/svg";
const EDGE_COLOURS = {
  Defines: "#2563eb", RefersTo: "#6b7280", Entails: "#059669",
  Overrides: "#dc2626", Causes: "#7c3aed", SameSection: "#9ca3af",
};
const MAX_EDGES = 16;
const NARROW_PX = 560;  // below this width the drawn graph's labels are too small to read

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function clip(text, limit) {
  return text.length > limit ? text.slice(0, limit - 1) + "…" : text;
}

function sentence(link) {
  if (link.type === "Defines" && link.term) {
    return link.source_label + " defines \u201c" + link.term + "\u201d used in " + link.target_label;
  }
  return link.source_label + " " + link.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() +
    " " + link.target_label;
}

// Spread the ends of the edges on one side of a box over its height (sorted by the
// other end's height), so arrows into one clause do not meet in one point.
function ports(ends, boxH) {
  const bySide = {};
  for (const end of ends) (bySide[end.key] = bySide[end.key] || []).push(end);
  for (const list of Object.values(bySide)) {
    list.sort((a, b) => a.otherY - b.otherY);
    list.forEach((end, i) => { end.offset = boxH * (i + 1) / (list.length + 1); });
  }
}

// links: ChainLink records; clauses: evidence by clause id (for group, document, heading)
Chain.draw = function (container, links, clauses, onClick) {
  container.replaceChildren();
  if (!links.length) {
    container.append(CG.el("p", { class: "hint", text: "No typed edges join these clauses." }));
    return;
  }
  if (container.clientWidth && container.clientWidth < NARROW_PX) {
    container.append(Chain.steps(links, onClick));  // a phone: the chain as a list
    return;
  }
  const shown = links.slice(0, MAX_EDGES);
  const ids = [];
  for (const link of shown) for (const id of [link.source, link.target]) if (!ids.includes(id)) ids.push(id);
  const columns = { definition: [], base_rule: [], exception: [] };
  for (const id of ids) columns[(clauses[id] && clauses[id].group) || "base_rule"].push(id);
  const boxW = 176, boxH = 44, gapX = 150, gapY = 14, padX = 56, padY = 10, headH = 22;
  const order = ["definition", "base_rule", "exception"].filter((g) => columns[g].length);
  const rows = Math.max(...order.map((g) => columns[g].length));
  const width = padX * 2 + order.length * boxW + (order.length - 1) * gapX;
  const height = padY * 2 + headH + rows * boxH + (rows - 1) * gapY;
  const root = svg("svg", { viewBox: "0 0 " + width + " " + height, class: "chain-svg",
                            role: "img", "aria-label": "Reasoning chain" });
  root.style.maxWidth = width + "px";  // shrink to the card, never grow past natural size
  const defs = svg("defs");
  for (const [type, colour] of Object.entries(EDGE_COLOURS)) {
    const marker = svg("marker", { id: "arrow-" + type, viewBox: "0 0 10 10", refX: 9, refY: 5,
                                   markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
    defs.append(marker);
  }
  root.append(defs);
  const titles = { definition: "Definitions", base_rule: "Base rules", exception: "Exceptions" };
  const position = {};
  order.forEach((group, col) => {
    const x = padX + col * (boxW + gapX);
    root.append(svg("text", { x: x + boxW / 2, y: padY + 12, "text-anchor": "middle",
                              class: "chain-col" }, titles[group]));
    // centre short columns vertically
    const top = padY + headH + (rows - columns[group].length) * (boxH + gapY) / 2;
    columns[group].forEach((id, row) => { position[id] = { x: x, y: top + row * (boxH + gapY) }; });
  });
  // which side of each box an edge leaves from / arrives at
  const ends = [];
  const geometry = shown.map((link) => {
    const a = position[link.source], b = position[link.target];
    const same = a.x === b.x;
    const sideA = same ? "L" : (a.x < b.x ? "R" : "L");
    const sideB = same ? "L" : (a.x < b.x ? "L" : "R");
    const from = { key: link.source + sideA, otherY: b.y }, to = { key: link.target + sideB, otherY: a.y };
    ends.push(from, to);
    return { link, a, b, same, sideA, sideB, from, to };
  });
  ports(ends, boxH);
  const edges = svg("g");
  for (const g of geometry) {
    const colour = EDGE_COLOURS[g.link.type] || "#6b7280";
    const x1 = g.sideA === "R" ? g.a.x + boxW : g.a.x, y1 = g.a.y + g.from.offset;
    const x2 = g.sideB === "R" ? g.b.x + boxW : g.b.x, y2 = g.b.y + g.to.offset;
    let d;
    if (g.same) {  // an arc left of the column
      const bulge = Math.min(padX - 6, 18 + Math.abs(y2 - y1) / 5);
      d = "M" + x1 + "," + y1 + " C" + (x1 - bulge) + "," + y1 + " " + (x2 - bulge) + "," + y2 + " " + x2 + "," + y2;
    } else {
      const mx = (x1 + x2) / 2;
      d = "M" + x1 + "," + y1 + " C" + mx + "," + y1 + " " + mx + "," + y2 + " " + x2 + "," + y2;
    }
    const path = svg("path", { d: d, fill: "none", stroke: colour, "stroke-width": 1.6,
                               "marker-end": "url(#arrow-" + g.link.type + ")",
                               class: "chain-edge", "data-type": g.link.type });
    path.append(svg("title", {}, sentence(g.link)));
    edges.append(path);
  }
  root.append(edges);
  for (const id of ids) {
    const p = position[id];
    const clause = clauses[id] || {};
    const node = svg("g", { class: "chain-node group-" + (clause.group || "base_rule"), tabindex: 0,
                            role: "button", "data-clause": id });
    node.append(svg("rect", { x: p.x, y: p.y, width: boxW, height: boxH, rx: 6 }));
    const key = id.split(":")[0];
    const label = clause.label || id.slice(key.length + 1);
    node.append(svg("text", { x: p.x + 10, y: p.y + 18, class: "chain-num" }, clip(label, 22)));
    // the second line says what the clause is about: its heading, else its document's title
    node.append(svg("text", { x: p.x + 10, y: p.y + 34, class: "chain-doc" },
                    clip(clause.heading || clause.document || key, 27)));
    node.append(svg("title", {}, (clause.document || key) + ", " + label +
                    (clause.heading ? " \u2014 " + clause.heading : "")));
    node.addEventListener("click", () => onClick(id));
    node.addEventListener("keydown", (event) => { if (event.key === "Enter") onClick(id); });
    root.append(node);
  }
  const used = [...new Set(shown.map((l) => l.type))];
  const legend = CG.el("p", { class: "chain-legend" }, used.map((type) => CG.el("span", {},
    CG.el("i", { class: "swatch", "data-type": type }), type)));
  const list = CG.el("details", { class: "chain-list" },
    CG.el("summary", { text: "The chain in words (" + links.length + " edges)" }),
    CG.el("ul", {}, links.map((link) => CG.el("li", { text: sentence(link) }))));
  container.append(legend, CG.el("div", { class: "chain-scroll" }, root), list);
  if (links.length > shown.length) {
    container.append(CG.el("p", { class: "hint",
      text: "The graph shows the " + shown.length + " strongest of " + links.length + " edges." }));
  }
};

// The chain as a numbered list of edges, each clause a button that opens it.
Chain.steps = function (links, onClick) {
  const clauseButton = (id, label) => CG.el("button", { type: "button", class: "cite", "data-clause": id,
                                                        text: label, onclick: () => onClick(id) });
  return CG.el("ol", { class: "chain-steps" }, links.map((link) => {
    const words = link.type === "Defines" && link.term
      ? " defines \u201c" + link.term + "\u201d used in "
      : " " + link.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() + " ";
    return CG.el("li", {}, clauseButton(link.source, link.source_label), words,
                 clauseButton(link.target, link.target_label));
  }));
};
