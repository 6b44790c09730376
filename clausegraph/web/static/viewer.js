// The source viewer. A PDF is shown whole with PDF.js (vendored in /static/pdfjs, nothing
// fetched elsewhere): page navigation, zoom, selectable text, opened at the cited page with
// the span highlighted by the rectangles the server computed from the clause's characters.
// Where PDF.js cannot run, the cited pages are shown as images the server renders; a text
// document is shown as text with the span marked.
"use strict";

const Viewer = {
  mode: "pdf",          // "pdf" (PDF.js, the whole document) or "image" (the cited pages)
  pdfjs: null,          // the PDF.js module once loaded
  pdf: null,            // the open document (PDFDocumentProxy)
  docId: null,          // whose PDF is open
  sizes: [],            // each page's [width, height] in PDF points
  scale: null,          // CSS pixels per PDF point
  fit: true,            // the scale follows the viewer's width
  rendered: new Map(),  // page number -> the scale it was drawn at
  observer: null,
  last: null,           // the highlight data shown, to redraw on a mode change
};
const PDFJS = "/static/pdfjs/pdf.min.mjs";
const PDFJS_WORKER = "/static/pdfjs/pdf.worker.min.mjs";
const ZOOM_STEP = 1.25, MIN_SCALE = 0.3, MAX_SCALE = 4;
// a smooth scroll to a page ends well within this; after it the page in view counts again
// (also when no "scrollend" comes, as when the page is already in place)
const SCROLL_SETTLE_MS = 1500;

function $(id) { return document.getElementById(id); }

Viewer.open = async function (clauseId, start, end) {
  const box = $("viewer");
  box.hidden = false;
  document.body.classList.add("viewer-open");
  $("viewer-pages").replaceChildren(CG.el("p", { class: "hint", text: "Loading the page…" }));
  $("viewer-text").hidden = true;
  $("viewer-tools").hidden = true;
  Viewer.note("");
  box.scrollIntoView({ block: "nearest" });  // beside the answer, or over it on a phone
  let query = "clause=" + encodeURIComponent(clauseId);
  if (start !== undefined && end !== undefined) query += "&start=" + start + "&end=" + end;
  let data;
  try {
    data = await CG.api("/api/v1/highlight?" + query);
  } catch (error) {
    $("viewer-pages").replaceChildren(CG.el("p", { class: "error", text: error.message }));
    return;
  }
  Viewer.last = data;
  $("viewer-title").textContent = data.document;
  const pageWords = data.pages.length ? " · " + CG.pages(data.pages.map((p) => p.number)) : "";
  $("viewer-sub").textContent = data.label + pageWords + " · chars " + data.span[0] + "–" + data.span[1];
  $("viewer-close").focus({ preventScroll: true });
  await Viewer.show(data);
};

Viewer.show = async function (data) {
  if (data.text) return Viewer.showText(data);
  if (Viewer.mode === "pdf") {
    try {
      await Viewer.showPdf(data);
      return;
    } catch (error) {
      console.warn("PDF.js could not show the document:", error);
      if (!Viewer.pdfjsUsable) Viewer.mode = "image";
      Viewer.note("The page is shown as an image: the document viewer could not open this PDF.");
    }
  }
  Viewer.showImages(data);
};

Viewer.note = function (text) {
  $("viewer-note").textContent = text;
  $("viewer-note").hidden = !text;
};

Viewer.close = function () {
  const box = $("viewer");
  if (!box || box.hidden) return;
  box.hidden = true;
  document.body.classList.remove("viewer-open");
};

Viewer.showText = function (data) {
  const textView = $("viewer-text");
  $("viewer-pages").replaceChildren();
  textView.replaceChildren(
    data.text.before, CG.el("mark", { class: "span-mark", text: data.text.marked }),
    data.text.after);
  textView.hidden = false;
  Viewer.reveal(textView.querySelector("mark"));
};

// Scroll the viewer (not the whole page) so that ``element`` sits in its upper third.
Viewer.reveal = function (element, smooth) {
  const body = $("viewer-body");
  if (!element || !body) return;
  const top = element.getBoundingClientRect().top - body.getBoundingClientRect().top + body.scrollTop;
  body.scrollTo({ top: Math.max(top - body.clientHeight / 3, 0), behavior: smooth === false ? "auto" : "smooth" });
};

// -- the server's page images (the fallback) ----------------------------------------------

Viewer.showImages = function (data) {
  $("viewer-tools").hidden = data.pages.length === 0;
  for (const id of ["viewer-prev", "viewer-next", "viewer-zoom-out", "viewer-zoom-in", "viewer-fit"]) $(id).hidden = true;
  document.querySelector("#viewer-tools .page-of").hidden = true;
  $("viewer-zoom").hidden = true;
  $("viewer-mode").textContent = "Whole document";
  $("viewer-mode").hidden = !Viewer.pdfjsUsable;
  $("viewer-pages").replaceChildren(...data.pages.map((page) => Viewer.imagePage(data.doc_id, page)));
};

Viewer.imagePage = function (docId, page) {
  const frame = CG.el("div", { class: "page-frame", "data-page": page.number });
  const img = CG.el("img", {
    class: "page-image",
    alt: "Page " + page.number,
    src: "/api/v1/documents/" + encodeURIComponent(docId) + "/pages/" + page.number + ".png",
  });
  frame.append(img, ...Viewer.highlights(page));
  img.addEventListener("load", () => Viewer.reveal(frame.querySelector(".highlight")));
  return CG.el("div", { class: "page-block" },
    CG.el("p", { class: "page-label", text: "Page " + page.number }), frame);
};

// The highlight boxes of one page, in % of the page so they follow it at any size.
Viewer.highlights = function (page) {
  return page.rects.map(([x0, y0, x1, y1]) => {
    const box = CG.el("div", { class: "highlight" });
    box.style.left = (100 * x0 / page.width) + "%";
    box.style.top = (100 * y0 / page.height) + "%";
    box.style.width = (100 * (x1 - x0) / page.width) + "%";
    box.style.height = (100 * (y1 - y0) / page.height) + "%";
    box.dataset.rect = [x0, y0, x1, y1].join(",");
    return box;
  });
};

// -- the whole document with PDF.js -------------------------------------------------------

Viewer.pdfjsUsable = true;

Viewer.loadPdf = async function (docId) {
  if (!Viewer.pdfjs) {
    try {
      Viewer.pdfjs = await import(PDFJS);
    } catch (error) {
      Viewer.pdfjsUsable = false;
      throw error;
    }
    Viewer.pdfjs.GlobalWorkerOptions.workerSrc = PDFJS_WORKER;
  }
  if (Viewer.docId === docId && Viewer.pdf) return;
  if (Viewer.pdf) { Viewer.pdf.destroy(); Viewer.pdf = null; }
  Viewer.docId = null;
  const url = "/api/v1/documents/" + encodeURIComponent(docId) + "/original";
  // no eval (the page's policy forbids it), nothing fetched but the document itself
  const pdf = await Viewer.pdfjs.getDocument({ url: url, isEvalSupported: false,
    withCredentials: true, enableXfa: false, stopAtErrors: false }).promise;
  const sizes = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    sizes.push([viewport.width, viewport.height]);
  }
  Viewer.pdf = pdf;
  Viewer.sizes = sizes;
  Viewer.docId = docId;
  Viewer.fit = true;
  Viewer.buildPages();
};

Viewer.fitScale = function () {
  const body = $("viewer-body");
  const widest = Math.max(...Viewer.sizes.map((s) => s[0]));
  return Math.min(Math.max((body.clientWidth - 4) / widest, MIN_SCALE), MAX_SCALE);
};

// One frame per page, sized at the current scale; each is drawn when it scrolls into view.
Viewer.buildPages = function () {
  Viewer.rendered = new Map();
  if (Viewer.observer) Viewer.observer.disconnect();
  Viewer.observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) Viewer.drawPage(Number(entry.target.dataset.page));
    }
  }, { root: $("viewer-body"), rootMargin: "400px 0px" });
  Viewer.frames = Viewer.sizes.map((size, i) => {
    const frame = CG.el("div", { class: "page-frame pdf-page", "data-page": i + 1 },
      CG.el("canvas", { class: "page-canvas", "aria-label": "Page " + (i + 1) }),
      CG.el("div", { class: "highlight-layer" }),
      CG.el("div", { class: "textLayer" }));
    return frame;
  });
  Viewer.blocks = Viewer.frames.map((frame, i) => CG.el("div", { class: "page-block" },
    CG.el("p", { class: "page-label", text: "Page " + (i + 1) + " of " + Viewer.sizes.length }), frame));
};

Viewer.sizeFrames = function () {
  Viewer.frames.forEach((frame, i) => {
    const [w, h] = Viewer.sizes[i];
    frame.style.width = Math.floor(w * Viewer.scale) + "px";
    frame.style.height = Math.floor(h * Viewer.scale) + "px";
    frame.style.setProperty("--total-scale-factor", String(Viewer.scale));
    frame.style.setProperty("--scale-round-x", "1px");
    frame.style.setProperty("--scale-round-y", "1px");
  });
  $("viewer-zoom").textContent = Math.round(Viewer.scale * 100) + "%";
};

Viewer.drawPage = async function (number) {
  const scale = Viewer.scale;
  if (Viewer.rendered.get(number) === scale) return;
  Viewer.rendered.set(number, scale);
  const frame = Viewer.frames[number - 1];
  const pdf = Viewer.pdf;
  try {
    const page = await pdf.getPage(number);
    const viewport = page.getViewport({ scale: scale });
    const ratio = window.devicePixelRatio || 1;
    const canvas = CG.el("canvas", { class: "page-canvas", "aria-label": "Page " + number });
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    await page.render({ canvasContext: canvas.getContext("2d"), canvas: canvas, viewport: viewport,
                        transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : null }).promise;
    if (Viewer.scale !== scale || Viewer.pdf !== pdf) return;  // zoomed or closed meanwhile
    frame.querySelector("canvas").replaceWith(canvas);
    const layer = CG.el("div", { class: "textLayer" });
    frame.querySelector(".textLayer").replaceWith(layer);
    await new Viewer.pdfjs.TextLayer({ textContentSource: page.streamTextContent(),
                                       container: layer, viewport: viewport }).render();
    frame.dataset.drawn = "true";
  } catch (error) {
    Viewer.rendered.delete(number);
    if (Viewer.pdf === pdf) console.warn("page " + number + " could not be drawn:", error);
  }
};

Viewer.showPdf = async function (data) {
  await Viewer.loadPdf(data.doc_id);
  const pages = $("viewer-pages");
  pages.replaceChildren(...Viewer.blocks);
  for (const id of ["viewer-prev", "viewer-next", "viewer-zoom-out", "viewer-zoom-in", "viewer-fit", "viewer-zoom"]) $(id).hidden = false;
  document.querySelector("#viewer-tools .page-of").hidden = false;
  $("viewer-mode").hidden = false;
  $("viewer-mode").textContent = "Page image";
  $("viewer-tools").hidden = false;
  $("viewer-count").textContent = String(Viewer.sizes.length);
  $("viewer-page").max = String(Viewer.sizes.length);
  if (Viewer.fit || !Viewer.scale) Viewer.scale = Viewer.fitScale();
  Viewer.sizeFrames();
  for (const layer of pages.querySelectorAll(".highlight-layer")) layer.replaceChildren();
  for (const page of data.pages) {
    const frame = Viewer.frames[page.number - 1];
    if (frame) frame.querySelector(".highlight-layer").append(...Viewer.highlights(page));
  }
  for (const frame of Viewer.frames) Viewer.observer.observe(frame);
  const first = data.pages.length ? data.pages[0].number : 1;
  const mark = pages.querySelector(".highlight");
  if (mark) Viewer.reveal(mark, false);
  else Viewer.goTo(first, false);
  Viewer.setPageNumber(first);
  await Viewer.drawPage(first);
};

Viewer.goTo = function (number, smooth) {
  if (!Viewer.frames || Viewer.mode !== "pdf") return;
  number = Math.min(Math.max(1, number), Viewer.sizes.length);
  const block = Viewer.blocks[number - 1];
  const body = $("viewer-body");
  const top = block.getBoundingClientRect().top - body.getBoundingClientRect().top + body.scrollTop;
  // While the scroll runs, the page asked for is the current one: Next/Prev step from it and
  // the scroll handler does not show the pages passed on the way.
  Viewer.target = number;
  clearTimeout(Viewer.targetTimer);
  Viewer.targetTimer = setTimeout(() => { Viewer.target = null; }, SCROLL_SETTLE_MS);
  body.scrollTo({ top: top, behavior: smooth === false ? "auto" : "smooth" });
  Viewer.setPageNumber(number);
  // The page asked for is drawn now, not when the scroll brings it into view: a smooth scroll
  // a busy browser does not animate, or one that passes many pages, would leave it blank.
  Viewer.drawPage(number);
};

// the page Next/Prev step from: the one being scrolled to, else the one in view
Viewer.steppingFrom = function () {
  return Viewer.target || Viewer.currentPage();
};

Viewer.setPageNumber = function (number) {
  $("viewer-page").value = String(number);
};

// The page whose frame covers the upper part of the viewer.
Viewer.currentPage = function () {
  const body = $("viewer-body");
  const line = body.getBoundingClientRect().top + body.clientHeight / 3;
  let current = 1;
  (Viewer.blocks || []).forEach((block, i) => {
    if (block.getBoundingClientRect().top <= line) current = i + 1;
  });
  return current;
};

Viewer.zoom = function (scale) {
  if (!Viewer.pdf) return;
  const page = Viewer.currentPage();
  Viewer.scale = Math.min(Math.max(scale, MIN_SCALE), MAX_SCALE);
  Viewer.sizeFrames();
  Viewer.goTo(page, false);
  for (const frame of Viewer.frames) { Viewer.observer.unobserve(frame); Viewer.observer.observe(frame); }
};

document.addEventListener("DOMContentLoaded", () => {
  if (!$("viewer")) return;
  $("viewer-close").addEventListener("click", Viewer.close);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("viewer").hidden) { event.preventDefault(); Viewer.close(); }
  });
  $("viewer-prev").addEventListener("click", () => Viewer.goTo(Viewer.steppingFrom() - 1));
  $("viewer-next").addEventListener("click", () => Viewer.goTo(Viewer.steppingFrom() + 1));
  $("viewer-body").addEventListener("scrollend", () => { Viewer.target = null; });
  // a page typed in is jumped to, as PDF.js's own viewer does, not scrolled through
  $("viewer-page").addEventListener("change", () => Viewer.goTo(Number($("viewer-page").value), false));
  $("viewer-zoom-in").addEventListener("click", () => { Viewer.fit = false; Viewer.zoom(Viewer.scale * ZOOM_STEP); });
  $("viewer-zoom-out").addEventListener("click", () => { Viewer.fit = false; Viewer.zoom(Viewer.scale / ZOOM_STEP); });
  $("viewer-fit").addEventListener("click", () => { Viewer.fit = true; Viewer.zoom(Viewer.fitScale()); });
  $("viewer-mode").addEventListener("click", () => {
    Viewer.mode = Viewer.mode === "pdf" ? "image" : "pdf";
    Viewer.note("");
    if (Viewer.last) Viewer.show(Viewer.last);
  });
  let pending = null;
  $("viewer-body").addEventListener("scroll", () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      if (Viewer.mode === "pdf" && Viewer.pdf && !Viewer.target &&
          document.activeElement !== $("viewer-page")) {
        Viewer.setPageNumber(Viewer.currentPage());
      }
    }, 120);
  });
});
