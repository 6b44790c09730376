// The document choice of Ask and Compare: tick documents to ask only them (none: all), or
// pick a saved set. The ticks are kept in this browser (localStorage) for both pages; the
// named sets are the workspace's, kept on the server (/api/v1/document-sets).
"use strict";

// sets: as the server lists them; current: the name of the set the ticks are (or "")
const Picker = { documents: [], sets: [], current: "", ready: null };
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
  const set = Picker.matchSet();
  const byId = Object.fromEntries(Picker.documents.map((d) => [d.doc_id, d]));
  const summary = document.getElementById("doc-picker-summary");
  summary.textContent = set && ids.length ? set.name + " (" + ids.length + ")"
    : !ids.length ? "all " + Picker.documents.length
    : ids.length === 1 ? byId[ids[0]].title : ids.length + " of " + Picker.documents.length;
};

// -- saved sets ------------------------------------------------------------------------------

const sameIds = (a, b) => a.slice().sort().join("\n") === b.slice().sort().join("\n");

// The set the ticks are: the one last picked while they still are its documents, else
// any set of exactly those documents. The select and the delete button follow it.
Picker.matchSet = function () {
  const ids = Picker.selected();
  let set = Picker.sets.find((s) => s.name === Picker.current);
  if (!set || !sameIds(set.documents, ids)) {
    set = ids.length ? Picker.sets.find((s) => sameIds(s.documents, ids)) : undefined;
  }
  Picker.current = set ? set.name : "";
  const select = document.getElementById("doc-set");
  if (select) {
    select.value = Picker.current;
    document.getElementById("doc-set-delete").hidden = !set;
  }
  return set;
};

Picker.setStatus = function (text, isError) {
  const status = document.getElementById("doc-set-status");
  status.textContent = text || "";
  status.classList.toggle("error", Boolean(isError));
};

const documentCount = (n) => n === 1 ? "1 document" : n + " documents";

Picker.loadSets = async function () {
  try {
    Picker.sets = await CG.api("/api/v1/document-sets");
  } catch (error) {
    Picker.sets = [];
    Picker.setStatus("The saved sets could not be loaded: " + error.message, true);
  }
  const select = document.getElementById("doc-set");
  select.replaceChildren(
    CG.el("option", { value: "", text: Picker.sets.length ? "Choose a set…" : "No saved sets yet" }),
    // "name (2)", as the summary says it: a phone's select shows few characters
    ...Picker.sets.map((set) => CG.el("option", { value: set.name,
      text: set.name + " (" + (set.documents.length || "none left") + ")" })));
  select.disabled = !Picker.sets.length;
};

Picker.pick = function (name) {
  const set = Picker.sets.find((s) => s.name === name);
  if (!set) { Picker.matchSet(); return; }
  Picker.current = set.name;
  Picker.set(set.documents);
  Picker.changed();
  Picker.setStatus(set.documents.length ? ""
    : "None of the documents of \u201c" + set.name + "\u201d is in the index any more.", !set.documents.length);
};

Picker.showForm = function (shown) {
  const form = document.getElementById("doc-set-form");
  form.hidden = !shown;
  if (!shown) return;
  const input = document.getElementById("doc-set-name");
  input.value = Picker.current;
  input.focus();
  input.select();
};

Picker.saveSet = async function () {
  const name = document.getElementById("doc-set-name").value;
  const ids = Picker.selected();
  try {
    const saved = await CG.api("/api/v1/document-sets/" + encodeURIComponent(name), {
      method: "PUT", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ documents: ids }) });
    await Picker.loadSets();
    Picker.current = saved.name;
    Picker.changed(false);
    Picker.showForm(false);
    Picker.setStatus("Saved the set \u201c" + saved.name + "\u201d (" + documentCount(ids.length) + ").");
  } catch (error) {
    Picker.setStatus(error.message, true);
  }
};

Picker.deleteSet = async function () {
  const name = Picker.current;
  if (!name) return;
  try {
    await CG.api("/api/v1/document-sets/" + encodeURIComponent(name), { method: "DELETE" });
    await Picker.loadSets();
    Picker.changed(false);
    Picker.setStatus("Deleted the set \u201c" + name + "\u201d; the ticks are as they were.");
  } catch (error) {
    Picker.setStatus(error.message, true);
  }
};

Picker.wireSets = function () {
  document.getElementById("doc-set").addEventListener("change", (event) => Picker.pick(event.target.value));
  document.getElementById("doc-set-delete").addEventListener("click", Picker.deleteSet);
  document.getElementById("doc-set-new").addEventListener("click", () => {
    if (!Picker.selected().length) {
      Picker.setStatus("Tick the documents of the set first.", true);
      return;
    }
    Picker.setStatus("");
    Picker.showForm(true);
  });
  document.getElementById("doc-set-cancel").addEventListener("click", () => {
    Picker.showForm(false);
    Picker.setStatus("");
  });
  const form = document.getElementById("doc-set-form");
  form.addEventListener("submit", (event) => { event.preventDefault(); Picker.saveSet(); });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.stopPropagation(); Picker.showForm(false); }
  });
};

// "Title (file.pdf)": two policies titled alike are told apart by their files.
Picker.name = function (doc) {
  return doc.title === doc.file_name ? doc.title : doc.title + " (" + doc.file_name + ")";
};

Picker.load = async function () {
  const list = document.getElementById("doc-options");
  if (!list) return;
  const sets = Picker.loadSets();
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
  await sets;
  Picker.set(Picker.stored());
};

document.addEventListener("DOMContentLoaded", () => {
  if (document.getElementById("doc-set")) Picker.wireSets();
  Picker.ready = Picker.load();
  const clear = document.getElementById("doc-picker-clear");
  if (clear) clear.addEventListener("click", () => { Picker.set([]); Picker.changed(); });
});
