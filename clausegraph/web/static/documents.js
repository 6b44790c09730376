// The Documents page: upload (with progress), ingest progress per file, list, remove.
"use strict";

function formatEdges(row) {
  return Object.entries(row.edges_by_type).map(([k, v]) => k + " " + v).join(", ");
}

async function loadDocuments() {
  const rows = await CG.api("/api/v1/documents");
  const body = document.querySelector("#documents tbody");
  body.replaceChildren(...rows.map((row) => CG.el("tr", { "data-doc": row.doc_id },
    CG.el("td", {}, CG.el("div", { class: "doc-title", text: row.title }),
      CG.el("div", { class: "sub", text: row.key })),
    CG.el("td", {}, CG.el("a", { class: "file-link", href: "/api/v1/documents/" + encodeURIComponent(row.doc_id) + "/original",
                                 text: row.file_name })),
    CG.el("td", { class: "num", text: String(row.pages) }),
    CG.el("td", { class: "num", text: String(row.clauses) }),
    CG.el("td", { class: "num", title: formatEdges(row), text: String(row.edges) }),
    CG.el("td", {}, CG.el("a", { class: "review-link", href: "/documents/" + encodeURIComponent(row.doc_id) + "/review",
                                 text: "Review" }), " ",
      CG.el("button", { type: "button", class: "danger", text: "Remove",
      onclick: () => removeDocument(row) })))));
  CG.labelCells(document.getElementById("documents"));
  document.getElementById("documents-empty").hidden = rows.length > 0;
}

async function removeDocument(row) {
  if (!confirm("Remove " + row.title + " from the index?")) return;
  try {
    await CG.api("/api/v1/documents/" + encodeURIComponent(row.doc_id), { method: "DELETE" });
    setUploadStatus("Removed " + row.title + ".");
  } catch (error) {
    setUploadStatus(error.message, true);
  }
  loadDocuments();
}

function setUploadStatus(text, isError) {
  const status = document.getElementById("upload-status");
  status.textContent = text;
  status.classList.toggle("error", Boolean(isError));
}

const STATUS_WORDS = {
  queued: "waiting", ingesting: "indexing…", ingested: "indexed", unchanged: "already indexed",
  replaced: "re-indexed", failed: "failed", rejected: "refused",
};

function showJob(job) {
  const list = document.getElementById("job-files");
  list.replaceChildren(...job.files.map((file) => {
    const ok = ["ingested", "unchanged", "replaced"].includes(file.status);
    const bad = ["failed", "rejected"].includes(file.status);
    const details = ok && file.status !== "unchanged"
      ? file.pages + " pages, " + file.clauses + " clauses, " + file.edges + " edges" : "";
    return CG.el("li", { class: "job-file " + (bad ? "bad" : ok ? "ok" : "busy"), "data-status": file.status },
      CG.el("span", { class: "file-name", text: file.name }),
      CG.el("span", { class: "file-status", text: STATUS_WORDS[file.status] || file.status }),
      details ? CG.el("span", { class: "sub", text: details }) : null,
      file.error ? CG.el("div", { class: "error", text: file.error }) : null);
  }));
  const progress = document.getElementById("upload-progress");
  if (job.total) progress.value = 50 + 50 * job.done / job.total;
}

const JOB_KEY = "clausegraph.job";  // the upload being followed, to follow it after a reload
const RETRY_MS = [700, 1500, 3000, 5000];

// Poll the job until it is done. A lost connection is said as such and polling goes on:
// the server keeps a journal of its jobs, so after a restart it finishes (or reports) them.
async function followJob(jobId) {
  localStorage.setItem(JOB_KEY, jobId);
  document.getElementById("upload-progress").hidden = false;
  const deadline = Date.now() + 30 * 60 * 1000;
  let failures = 0;
  while (Date.now() < deadline) {
    let job;
    try {
      job = await CG.api("/api/v1/jobs/" + encodeURIComponent(jobId));
      failures = 0;
    } catch (error) {
      if (error.status === 404) {
        localStorage.removeItem(JOB_KEY);
        setUploadStatus("The server no longer knows this upload (it was restarted and its " +
                        "record is gone). Check the list below and upload again what is missing.", true);
        document.getElementById("upload-progress").hidden = true;
        loadDocuments().catch(() => {});
        return;
      }
      failures += 1;
      setUploadStatus(error.offline
        ? "Lost the connection to the server. Still trying… (the upload resumes when the server is back)"
        : error.message, true);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
      continue;
    }
    showJob(job);
    if (job.state === "done") {
      localStorage.removeItem(JOB_KEY);
      const failed = job.files.filter((f) => ["failed", "rejected"].includes(f.status)).length;
      setUploadStatus((job.note ? job.note + " " : "") +
        (failed ? failed + " of " + job.files.length + " files could not be indexed." : "Done."), failed > 0);
      document.getElementById("upload-progress").hidden = true;
      loadDocuments().catch((error) => setUploadStatus(error.message, true));
      return;
    }
    setUploadStatus((job.note ? job.note + " " : "") + (job.state === "queued"
      ? "Waiting to index " + job.total + (job.total === 1 ? " file…" : " files…")
      : "Indexing " + Math.min(job.done + 1, job.total) + " of " + job.total + "…"));
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS[0]));
  }
}

function upload(files) {
  const data = new FormData();
  for (const file of files) data.append("files", file, file.name);
  const progress = document.getElementById("upload-progress");
  progress.hidden = false;
  progress.value = 0;
  setUploadStatus("Uploading…");
  const request = new XMLHttpRequest();
  request.open("POST", "/api/v1/documents");
  request.upload.addEventListener("progress", (event) => {
    if (event.lengthComputable) progress.value = 50 * event.loaded / event.total;
  });
  request.addEventListener("load", () => {
    let body = {};
    try { body = JSON.parse(request.responseText); } catch (e) { /* not JSON */ }
    if (request.status !== 202) {
      setUploadStatus(body.detail || ("Upload failed (" + request.status + ")"), true);
      progress.hidden = true;
      return;
    }
    showJob(body);
    followJob(body.job_id);
  });
  request.addEventListener("error", () => {
    progress.hidden = true;
    setUploadStatus("The upload did not reach the server (the connection was lost): " +
                    "nothing was stored. Upload again when the server is back.", true);
  });
  request.send(data);
}

document.addEventListener("DOMContentLoaded", () => {
  const input = document.getElementById("files");
  document.getElementById("upload-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.files.length) upload(input.files);
    else setUploadStatus("Choose one or more files first.", true);
  });
  const drop = document.querySelector(".drop");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    if (event.dataTransfer.files.length) upload(event.dataTransfer.files);
  });
  input.addEventListener("change", () => {
    drop.querySelector("span").textContent = input.files.length
      ? Array.from(input.files).map((f) => f.name).join(", ")
      : "Choose PDF or text files (or drop them here)";
  });
  loadDocuments().catch((error) => setUploadStatus(error.message, true));
  const following = localStorage.getItem(JOB_KEY);
  if (following) followJob(following);
});
