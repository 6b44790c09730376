// The History page: this session's questions, each with report downloads.
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const body = document.querySelector("#history tbody");
  let items = [];
  try { items = await CG.api("/api/v1/history"); } catch (error) { CG.setStatus(error.message, true); }
  body.replaceChildren(...items.map((item) => CG.el("tr", { "data-id": item.id },
    CG.el("td", { class: "sub", text: item.asked_at.replace("T", " ").replace("+00:00", " UTC") }),
    CG.el("td", {}, CG.el("a", { href: "/?q=" + encodeURIComponent(item.question), text: item.question })),
    CG.el("td", { class: "history-answer", text: item.direct_answer || "No answer found." }),
    CG.el("td", { class: "exports" }, CG.reportLinks(item.id)))));
  document.getElementById("history-empty").hidden = items.length > 0;
  document.getElementById("history").hidden = items.length === 0;
});
