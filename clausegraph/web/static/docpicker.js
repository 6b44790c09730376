// The document choice of Ask and Compare: tick documents to ask only them (none: all).
// The choice is kept in this browser (localStorage) for both pages.
"use strict";

const Picker = { documents: [], ready: null };
const PICKED_KEY = "clausegraph.documents";

Picker.stored = function () {
  try { return JSON.parse(localStorage.getItem(PICKED_KEY) || "[]"); } catch (e) { return []; }
};

// The ticked doc ids that are still in the index ([] = all documents).
Picker.selected = function () {
  return Array.from(document.querySelectorAll("#doc-options input:checked")).map((box) => box.value);
};

Picker.set = function (ids) {
  const wanted = new Set(ids || []);
  for (const box of document.querySelectorAll("#doc-options input")) box.checked = wanted.has(box.value);
  Picker.changed(false);
};

Picker.changed = function (save) {
  const ids = Picker.selected();
  if (save !== false) localStorage.setItem(PICKED_KEY, JSON.stringify(ids));
  const byId = Object.fromEntries(Picker.documents.map((d) => [d.doc_id, d]));
  const summary = document.getElementById("doc-picker-summary");
  summary.textContent = !ids.length ? "all " + Picker.documents.length
    : ids.length === 1 ? byId[ids[0]].title : ids.length + " of " + Picker.documents.length;
};

// "Title (file.pdf)": two policies titled alike are told apart by their files.
Picker.name = function (doc) {
  return doc.title === doc.file_name ? doc.title : doc.title + " (" + doc.file_name + ")";
};

Picker.load = async function () {
  const list = document.getElementById("doc-options");
  if (!list) return;
  try {
    Picker.documents = await CG.api("/api/v1/documents");
  } catch (error) {
    list.replaceChildren(CG.el("li", { class: "error", text: error.message }));
    return;
  }
  list.replaceChildren(...Picker.documents.map((doc) => CG.el("li", {},
    CG.el("label", {}, CG.el("input", { type: "checkbox", value: doc.doc_id,
                                        onchange: () => Picker.changed() }),
      CG.el("span", { class: "doc-option-title", text: doc.title }),
      doc.title !== doc.file_name ? CG.el("span", { class: "sub", text: doc.file_name }) : null))));
  if (!Picker.documents.length) list.append(CG.el("li", { class: "hint", text: "No documents yet." }));
  Picker.set(Picker.stored());
};

document.addEventListener("DOMContentLoaded", () => {
  Picker.ready = Picker.load();
  const clear = document.getElementById("doc-picker-clear");
  if (clear) clear.addEventListener("click", () => { Picker.set([]); Picker.changed(); });
});
