// Shared helpers. Every piece of document text is put on the page with textContent,
// never as markup, so a document containing <script> or <img onerror> stays inert.
"use strict";

const CG = {};

CG.el = function (tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

CG.OFFLINE = "The server cannot be reached: check that it is running, then try again.";

CG.api = async function (path, options) {
  let response;
  try {
    response = await fetch(path, Object.assign({ credentials: "same-origin" }, options));
  } catch (error) {  // no response at all: the server stopped or the network is down
    const lost = new Error(CG.OFFLINE);
    lost.offline = true;
    throw lost;
  }
  if (!response.ok) {
    let detail = response.status + " " + response.statusText;
    try { detail = (await response.json()).detail || detail; } catch (e) { /* not JSON */ }
    const failed = new Error(detail);
    failed.status = response.status;
    throw failed;
  }
  return response.json();
};

CG.postJSON = function (path, body) {
  return CG.api(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
};

CG.pages = function (pages) {
  return (pages.length > 1 ? "pp. " : "p. ") + pages.join(", ");
};

// "Document, 4.2, p. 5" -- what a citation button says.
// The file name follows the title: two policies may both be titled "Policy Wording".
CG.citation = function (item) {
  const file = (item.source_path || "").split(/[\\/]/).pop();
  const document = file && file !== item.document ? item.document + " (" + file + ")" : item.document;
  return document + ", " + item.label + ", " + CG.pages(item.pages);
};

CG.setStatus = function (text, isError) {
  const status = document.getElementById("status");
  if (!status) return;
  status.textContent = text || "";
  status.classList.toggle("error", Boolean(isError));
};

CG.reportLinks = function (historyId) {
  const formats = [["html", "HTML"], ["pdf", "PDF"], ["md", "Markdown"], ["json", "JSON"]];
  return formats.map(([fmt, label]) => CG.el("a", {
    href: "/api/v1/history/" + encodeURIComponent(historyId) + "/report?format=" + fmt,
    download: "", class: "export", text: label,
  }));
};

// Under a stacked (phone) table each cell shows its column's name: data-label from <th>.
CG.labelCells = function (table) {
  const names = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent.trim());
  for (const row of table.querySelectorAll("tbody tr")) {
    Array.from(row.children).forEach((cell, i) => { if (names[i]) cell.dataset.label = names[i]; });
  }
};

// The question box: focused on load; its limit said as it nears, and when pasted text is cut.
CG.questionBox = function () {
  const input = document.getElementById("question");
  const note = document.getElementById("question-limit");
  if (!input || !note) return;
  const limit = Number(input.dataset.limit || input.maxLength);
  const words = (n) => n.toLocaleString("en");
  const plain = "Up to " + words(limit) + " characters.";
  let cut = false;
  const show = () => {
    const used = input.value.length;
    note.classList.toggle("error", cut || used >= limit);
    if (cut) note.textContent = "Only the first " + words(limit) + " characters were kept: a question can be at most " + words(limit) + " characters.";
    else if (used >= limit) note.textContent = words(used) + " of " + words(limit) + " characters: the limit is reached.";
    else if (used >= limit * 0.8) note.textContent = words(used) + " of " + words(limit) + " characters.";
    else note.textContent = plain;
  };
  input.addEventListener("paste", (event) => {
    const pasted = (event.clipboardData || window.clipboardData).getData("text") || "";
    const selected = (input.selectionEnd || 0) - (input.selectionStart || 0);
    cut = input.value.length - selected + pasted.length > limit;
    setTimeout(show, 0);
  });
  input.addEventListener("input", () => { if (input.value.length < limit) cut = false; show(); });
  show();
  if (document.activeElement === document.body || !document.activeElement) input.focus();
};

document.addEventListener("DOMContentLoaded", CG.questionBox);
