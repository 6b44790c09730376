// The Ask page: streams the answer and the evidence over server-sent events.
"use strict";

const GROUP_HINTS = {
  definition: "What the words of the rule mean.",
  base_rule: "The rules that answer the question.",
  exception: "Exclusions, limits and overrides that can change the answer.",
};

let source = null;
let evidenceById = {};
let chainLinks = [];

function evidenceCard(item) {
  const text = CG.el("p", { class: "clause-text", text: item.text });
  const more = CG.el("button", { type: "button", class: "plain more", text: "Show all" });
  more.addEventListener("click", () => {
    text.classList.toggle("expanded");
    more.textContent = text.classList.contains("expanded") ? "Show less" : "Show all";
  });
  return CG.el("article", { class: "clause-card", "data-clause": item.clause_id },
    CG.el("div", { class: "clause-head" },
      CG.el("span", { class: "clause-label", text: item.label }),
      item.heading ? CG.el("span", { class: "clause-heading", text: item.heading }) : null,
      CG.el("span", { class: "score", title: item.reason, text: ORIGIN_WORDS[item.origin] || item.origin })),
    item.context_note ? CG.el("p", { class: "context-note", text: item.context_note }) : null,
    text,
    CG.el("div", { class: "clause-foot" },
      CG.el("button", { type: "button", class: "cite", "data-clause": item.clause_id,
                        text: CG.citation(item), onclick: () => Viewer.open(item.clause_id) }),
      item.text.length > 420 ? more : null));
}

function showGroup(data) {
  const section = CG.el("section", { class: "group group-" + data.group, id: "group-" + data.group },
    CG.el("h2", {}, data.title, CG.el("span", { class: "count", text: String(data.clauses.length) })),
    CG.el("p", { class: "hint", text: GROUP_HINTS[data.group] }));
  if (!data.clauses.length) section.append(CG.el("p", { class: "empty", text: "None found." }));
  for (const item of data.clauses) {
    evidenceById[item.clause_id] = item;
    section.append(evidenceCard(item));
  }
  document.getElementById("evidence").append(section);
}

// One document's answer when several answer equally well: its text and its own citation.
// why a clause is shown, in words (the API's origin: seed / hit / expanded / governing /
// review / rare-word)
const ORIGIN_WORDS = {
  seed: "matches the question",
  hit: "matches the question",
  expanded: "linked to a match",
  governing: "governs a match",
  review: "the review's clause of the type asked",
  "rare-word": "names the question's rarest word",
};

function documentAnswer(item) {
  const span = item.span || [];
  // the document leads the line; the button names the clause and page
  const where = item.citation.slice(item.document.length + 2).split(", chars")[0];
  const cite = CG.el("button", { type: "button", class: "cite", text: where });
  cite.dataset.clause = item.clause_id;
  cite.onclick = () => Viewer.open(item.clause_id, span[0], span[1]);
  return CG.el("li", {}, CG.el("strong", { text: item.document + ": " }),
    item.verdict ? CG.el("strong", { class: "verdict-inline", text: item.verdict + ". " }) : null,
    CG.el("span", { text: (item.shown || item.text) + " " }), cite);
}

function showAnswer(data) {
  const card = document.getElementById("answer-card");
  card.hidden = false;
  const direct = data.direct || {};
  const several = (direct.by_document || []).length > 1;
  document.getElementById("answer-question").textContent = data.question || "";
  document.getElementById("direct-answer").textContent = several
    ? direct.by_document.length + " documents answer this equally well and the question names none of them:"
    : direct.shown || direct.text || "Not found in the indexed documents.";
  const verdict = document.getElementById("direct-verdict");
  verdict.textContent = several ? "" : direct.verdict || "";
  verdict.hidden = !verdict.textContent;
  document.getElementById("direct-by-document").replaceChildren(
    ...(several ? direct.by_document.map(documentAnswer) : []));
  const cite = document.getElementById("direct-cite");
  cite.parentElement.hidden = several || !direct.clause_id;
  if (direct.clause_id && !several) {
    cite.textContent = direct.citation.split(", chars")[0];
    cite.dataset.clause = direct.clause_id;
    const span = direct.span || [];
    cite.onclick = () => Viewer.open(direct.clause_id, span[0], span[1]);
  }
  document.getElementById("full-answer").textContent = data.answer;
  document.getElementById("report-links").replaceChildren(...CG.reportLinks(data.id));
  card.dataset.historyId = data.id;
}

function showChain(data) {
  chainLinks = data.links;
  document.getElementById("chain-card").hidden = false;
  Chain.draw(document.getElementById("chain"), chainLinks, evidenceById, (id) => Viewer.open(id));
}

function reset() {
  evidenceById = {};
  chainLinks = [];
  document.getElementById("evidence").replaceChildren();
  document.getElementById("answer-card").hidden = true;
  document.getElementById("chain-card").hidden = true;
}

// Addresses: "/?q=...&doc=..." while a question is being answered, then "/?a=ID&q=..."
// for its stored answer, so Back, Forward, reload and History links show that answer
// again without asking (the question stays in the address to ask again if it is gone).
function questionUrl(question, documents) {
  const params = new URLSearchParams({ q: question });
  for (const id of documents || []) params.append("doc", id);
  return "/?" + params.toString();
}

function answerUrl(id, question) {
  return "/?" + new URLSearchParams({ a: id, q: question }).toString();
}

function ask(question, documents) {
  if (source) source.close();
  reset();
  const limit = Number(document.getElementById("question").dataset.limit);
  if (question.length > limit) {  // (an address can carry more than the box takes)
    CG.setStatus("The question is too long: at most " + limit + " characters.", true);
    return;
  }
  CG.setStatus("Searching the documents…");
  const button = document.getElementById("ask-button");
  button.disabled = true;
  let url = "/api/v1/ask/stream?question=" + encodeURIComponent(question);
  for (const id of documents || []) url += "&documents=" + encodeURIComponent(id);
  source = new EventSource(url);
  let streamed = "";
  const finish = () => { if (source) source.close(); source = null; button.disabled = false; };
  source.addEventListener("chunk", (event) => {
    streamed += JSON.parse(event.data).text;
    document.getElementById("answer-card").hidden = false;
    document.getElementById("direct-answer").textContent = streamed;
  });
  source.addEventListener("answer", (event) => {
    const data = JSON.parse(event.data);
    showAnswer(data);
    CG.setStatus("Answered in " + data.seconds.toFixed(2) + " s (" + data.mode + ").");
    history.replaceState({ answer: data.id }, "", answerUrl(data.id, question));
  });
  source.addEventListener("evidence", (event) => showGroup(JSON.parse(event.data)));
  source.addEventListener("chain", (event) => showChain(JSON.parse(event.data)));
  source.addEventListener("done", finish);
  source.addEventListener("error", async (event) => {
    finish();
    if (event.data) { CG.setStatus(JSON.parse(event.data).detail, true); return; }
    // no event: the stream was refused or cut; say which (the server's words if it answers)
    try {
      await CG.api("/api/v1/health");
      CG.setStatus("The answer stopped before it was complete: ask again.", true);
    } catch (error) {
      CG.setStatus(error.message, true);
    }
  });
}

// A stored answer, shown as it was streamed; never asked again.
async function showStored(id, question) {
  if (source) { source.close(); source = null; }
  reset();
  document.getElementById("ask-button").disabled = false;
  document.getElementById("question").value = question || "";
  CG.setStatus("Loading the stored answer…");
  let view;
  try {
    view = await CG.api("/api/v1/history/" + encodeURIComponent(id) + "/view");
  } catch (error) {
    if (error.status !== 404) { CG.setStatus(error.message, true); return; }
    CG.setStatus("This answer is no longer stored: the server keeps the newest answers of " +
                 "each browser, and this one is older or from another browser. Ask the " +
                 "question again to get a new one.", true);
    return;
  }
  document.getElementById("question").value = view.answer.question;
  if (view.answer.documents) {
    await Picker.ready;
    Picker.set(view.answer.documents);
  }
  showAnswer(view.answer);
  for (const group of view.evidence) showGroup(group);
  showChain(view.chain);
  CG.setStatus("The stored answer (answered in " + view.answer.seconds.toFixed(2) +
               " s; not asked again).");
}

function showAddress() {
  const params = new URLSearchParams(location.search);
  const input = document.getElementById("question");
  if (params.get("a")) return showStored(params.get("a"), params.get("q"));
  if (params.get("q")) {
    input.value = params.get("q");
    return ask(params.get("q"), params.getAll("doc"));
  }
  if (source) { source.close(); source = null; }
  reset();
  input.value = "";
  CG.setStatus("");
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("ask-form");
  const input = document.getElementById("question");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question) return;
    const documents = Picker.selected();
    history.pushState({ question: question }, "", questionUrl(question, documents));
    ask(question, documents);
  });
  window.addEventListener("popstate", () => { Viewer.close(); showAddress(); });
  showAddress();
});
