// The History page: this session's questions, each opening its stored answer (not asked
// again), one line per document where several answered, and report downloads.
"use strict";

function answerCell(item) {
  if (item.by_document && item.by_document.length > 1) {
    return CG.el("td", { class: "history-answer" },
      CG.el("p", { class: "sub", text: item.by_document.length + " documents answer equally well:" }),
      CG.el("ul", { class: "history-documents" }, item.by_document.map((line) => CG.el("li", {},
        CG.el("strong", { text: line.document + ": " }), line.text))));
  }
  return CG.el("td", { class: "history-answer", text: item.direct_answer || "No answer found." });
}

document.addEventListener("DOMContentLoaded", async () => {
  const table = document.getElementById("history");
  let items = [];
  try { items = await CG.api("/api/v1/history"); } catch (error) { CG.setStatus(error.message, true); }
  table.querySelector("tbody").replaceChildren(...items.map((item) => CG.el("tr", { "data-id": item.id },
    CG.el("td", { class: "sub", text: item.asked_at.replace("T", " ").replace("+00:00", " UTC") }),
    CG.el("td", {}, CG.el("a", { href: "/?" + new URLSearchParams({ a: item.id, q: item.question }).toString(),
                                 class: "history-question", text: item.question }),
      item.documents && item.documents.length
        ? CG.el("div", { class: "sub", text: "asked of " + item.documents.length + " chosen document" + (item.documents.length > 1 ? "s" : "") })
        : null),
    answerCell(item),
    CG.el("td", { class: "exports" }, CG.reportLinks(item.id)))));
  CG.labelCells(table);
  document.getElementById("history-empty").hidden = items.length > 0;
  table.hidden = items.length === 0;
});
