// The Compare page: one question, each document's own answer, as a table.
"use strict";

async function compare(question) {
  CG.setStatus("Asking each document…");
  const table = document.getElementById("compare-table");
  try {
    const result = await CG.postJSON("/api/v1/compare", { question: question });
    const body = table.querySelector("tbody");
    body.replaceChildren(...result.rows.map((row) => CG.el("tr", { class: row.found ? "" : "not-found", "data-doc": row.doc_id },
      CG.el("td", {}, CG.el("div", { class: "doc-title", text: row.document }),
        CG.el("div", { class: "sub", text: row.key })),
      CG.el("td", { class: "compare-answer" },
        CG.el("div", { class: "clamp", title: row.answer, text: row.answer })),
      CG.el("td", {}, row.clause_id
        ? CG.el("button", { type: "button", class: "cite", "data-clause": row.clause_id,
            text: row.citation ? row.citation.split(", chars")[0] : row.clause_id,
            onclick: () => Viewer.open(row.clause_id, row.span && row.span[0], row.span && row.span[1]) })
        : CG.el("span", { class: "sub", text: "—" })))));
    table.hidden = false;
    CG.setStatus(result.rows.length + " documents compared.");
  } catch (error) {
    CG.setStatus(error.message, true);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("compare-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const question = document.getElementById("question").value.trim();
    if (question) compare(question);
  });
});
