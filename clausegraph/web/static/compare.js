// The Compare page: one question, each chosen document's own answer, as a table (rows
// stack on a phone), and the same comparison as CSV, Markdown or HTML.
"use strict";

function exportLinks(question, documents) {
  const params = new URLSearchParams({ question: question });
  for (const id of documents) params.append("documents", id);
  for (const fmt of ["csv", "md", "html"]) {
    const link = document.getElementById("export-" + fmt);
    link.href = "/api/v1/compare/export?" + params.toString() + "&format=" + fmt;
    link.setAttribute("download", "clausegraph-compare." + fmt);
  }
  document.getElementById("compare-exports").hidden = false;
}

function compareRow(row) {
  return CG.el("tr", { class: row.found ? "" : "not-found", "data-doc": row.doc_id },
    CG.el("td", {}, CG.el("div", { class: "doc-title", text: row.document }),
      CG.el("div", { class: "sub", text: row.key })),
    CG.el("td", { class: "compare-answer" },
      CG.el("div", { class: "clamp", title: row.answer, text: row.answer })),
    CG.el("td", {}, row.clause_id
      ? CG.el("button", { type: "button", class: "cite", "data-clause": row.clause_id,
          text: row.citation ? row.citation.split(", chars")[0] : row.clause_id,
          onclick: () => Viewer.open(row.clause_id, row.span && row.span[0], row.span && row.span[1]) })
      : CG.el("span", { class: "sub", text: "—" })));
}

async function compare(question, documents) {
  CG.setStatus("Asking each document…");
  const table = document.getElementById("compare-table");
  document.getElementById("compare-exports").hidden = true;
  try {
    const body = { question: question };
    if (documents.length) body.documents = documents;
    const result = await CG.postJSON("/api/v1/compare", body);
    table.querySelector("tbody").replaceChildren(...result.rows.map(compareRow));
    CG.labelCells(table);
    table.hidden = false;
    const found = result.rows.filter((row) => row.found).length;
    const count = (n, one, many) => n + " " + (n === 1 ? one : many);
    CG.setStatus(count(result.rows.length, "document", "documents") + " compared; " +
                 count(found, "answers", "answer") + " the question.");
    if (result.rows.length) exportLinks(question, documents);
  } catch (error) {
    CG.setStatus(error.message, true);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("compare-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const question = document.getElementById("question").value.trim();
    if (question) compare(question, Picker.selected());
  });
});
