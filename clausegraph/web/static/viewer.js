// The source viewer: the cited PDF page rendered by the server, with the cited span
// highlighted by rectangles the server computed from the clause's character span.
"use strict";

const Viewer = {};

Viewer.open = async function (clauseId, start, end) {
  const box = document.getElementById("viewer");
  const pages = document.getElementById("viewer-pages");
  const textView = document.getElementById("viewer-text");
  box.hidden = false;
  document.body.classList.add("viewer-open");
  pages.replaceChildren(CG.el("p", { class: "hint", text: "Loading the page…" }));
  textView.hidden = true;
  let query = "clause=" + encodeURIComponent(clauseId);
  if (start !== undefined && end !== undefined) query += "&start=" + start + "&end=" + end;
  let data;
  try {
    data = await CG.api("/api/v1/highlight?" + query);
  } catch (error) {
    pages.replaceChildren(CG.el("p", { class: "error", text: error.message }));
    return;
  }
  document.getElementById("viewer-title").textContent = data.document;
  const pageWords = data.pages.length
    ? " · " + CG.pages(data.pages.map((p) => p.number)) : "";
  document.getElementById("viewer-sub").textContent =
    data.label + pageWords + " · chars " + data.span[0] + "–" + data.span[1];
  if (data.text) {
    pages.replaceChildren();
    textView.replaceChildren(
      data.text.before, CG.el("mark", { class: "span-mark", text: data.text.marked }),
      data.text.after);
    textView.hidden = false;
    Viewer.reveal(textView.querySelector("mark"));
    return;
  }
  pages.replaceChildren(...data.pages.map((page) => Viewer.page(data.doc_id, page)));
};

// Scroll the viewer (not the whole page) so that ``element`` sits in its upper third.
Viewer.reveal = function (element) {
  const box = document.getElementById("viewer");
  if (!element || !box) return;
  const top = element.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  box.scrollTo({ top: Math.max(top - box.clientHeight / 3, 0), behavior: "smooth" });
};

Viewer.page = function (docId, page) {
  const frame = CG.el("div", { class: "page-frame", "data-page": page.number });
  const img = CG.el("img", {
    class: "page-image",
    alt: "Page " + page.number,
    src: "/api/v1/documents/" + encodeURIComponent(docId) + "/pages/" + page.number + ".png",
  });
  frame.append(img);
  for (const [x0, y0, x1, y1] of page.rects) {
    // positions in % of the page, so the boxes follow the image at any width
    const box = CG.el("div", { class: "highlight" });
    box.style.left = (100 * x0 / page.width) + "%";
    box.style.top = (100 * y0 / page.height) + "%";
    box.style.width = (100 * (x1 - x0) / page.width) + "%";
    box.style.height = (100 * (y1 - y0) / page.height) + "%";
    box.dataset.rect = [x0, y0, x1, y1].join(",");
    frame.append(box);
  }
  img.addEventListener("load", () => Viewer.reveal(frame.querySelector(".highlight")));
  return CG.el("div", { class: "page-block" },
    CG.el("p", { class: "page-label", text: "Page " + page.number }), frame);
};

document.addEventListener("DOMContentLoaded", () => {
  const close = document.getElementById("viewer-close");
  if (close) close.addEventListener("click", () => {
    document.getElementById("viewer").hidden = true;
    document.body.classList.remove("viewer-open");
  });
});
