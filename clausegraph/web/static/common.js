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

CG.api = async function (path, options) {
  const response = await fetch(path, Object.assign({ credentials: "same-origin" }, options));
  if (!response.ok) {
    let detail = response.status + " " + response.statusText;
    try { detail = (await response.json()).detail || detail; } catch (e) { /* not JSON */ }
    throw new Error(detail);
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
CG.citation = function (item) {
  return item.document + ", " + item.label + ", " + CG.pages(item.pages);
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
