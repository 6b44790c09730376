"""Audit reports: Markdown, HTML, PDF and JSON writers, escaping, batches, re-derivation."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pymupdf
import pytest
from sample_evidence import KEY, injected_clause, sample_answer
from stub_servers import ModelStub, StubServer
from test_llm_providers import GOOD_REPLY, make_provider

from clausegraph.answer.generate import generate_answer
from clausegraph.report.render import render_html, render_markdown
from clausegraph.report import (
    Report,
    build_report,
    chain_mermaid,
    chain_svg,
    load_report,
    read_questions,
    rederive,
    rederive_check,
    write_batch,
    write_html,
    write_json,
    write_markdown,
    write_pdf,
    write_report,
)

MANIFEST = {"format": "clausegraph-index", "version": 1, "generation": 4,
            "embedding_model": "all-MiniLM-L6-v2", "documents": {}}
WHEN = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture(scope="module")
def llm_answer():
    reply = json.loads(json.dumps(GOOD_REPLY))
    reply["claims"].append({"text": "End-of-life termination of a Product is possible.",
                            "citations": [f"{KEY}:2.5"],
                            "quotes": ["may terminate its obligations to supply a particular "
                                       "Product"]})
    with StubServer(ModelStub(lambda s, u: json.dumps(reply))) as server:
        return generate_answer(sample_answer(extra=[injected_clause()]),
                               make_provider("gemini", server.url))


def manifest_for(answer) -> dict:
    documents = {e.doc_id: {"key": KEY} for e in answer.evidence}
    return dict(MANIFEST, documents=documents)


@pytest.fixture(scope="module")
def report(llm_answer) -> Report:
    return build_report(llm_answer, manifest=manifest_for(llm_answer), index_path="idx",
                        created_at=WHEN)


def test_report_records_what_an_auditor_needs(report, llm_answer):
    assert report.question == llm_answer.question
    assert report.mode == "gemini" and report.model == "gemini:gemini-2.5-flash"
    assert report.verdict == "warnings"  # missed exception (2.6 over 2.5) + injected text
    assert {i.kind for i in report.verification.issues} == {"missed_exception",
                                                            "instructions_in_document"}
    assert report.index.generation == 4 and report.index.version == 1
    assert report.index.embedding_model == "all-MiniLM-L6-v2"
    assert report.retrieval["top_k"] == 8
    assert set(report.template_hashes) == {"answer_system.md.j2", "answer_user.md.j2",
                                           "context.md.j2"}
    assert [d.doc_id for d in report.documents] == [llm_answer.evidence[0].doc_id]
    clause = next(e for e in report.evidence if e.clause_id == f"{KEY}:7.2")
    assert clause.cited and clause.pages == [6] and clause.span == (15436, 15697)
    (start, end), = clause.highlights
    assert clause.text[start:end].startswith("fails to cure such breach within thirty (30)")
    assert clause.text_sha256 == hashlib.sha256(clause.text.encode()).hexdigest()[:16]
    assert not next(e for e in report.evidence if e.clause_id == f"{KEY}:2.6").cited
    assert re.fullmatch(r"[0-9a-f]{16}", report.report_id)
    later = build_report(llm_answer, manifest=manifest_for(llm_answer), index_path="idx")
    assert later.report_id == report.report_id  # content hash, not time


def test_extractive_report_is_checked_too():
    report = build_report(sample_answer())
    assert report.mode == "extractive" and report.model is None
    assert report.verdict == "verified", report.verification.issues
    assert set(report.template_hashes) == {"context.md.j2", "answer_extractive.md.j2"}
    assert all(e.highlights for e in report.evidence)  # each quote highlighted in its clause


def test_all_writers(report, tmp_path):
    paths = {fmt: write_report(report, tmp_path / f"r.{fmt}") for fmt in ("md", "html", "pdf",
                                                                          "json")}
    for path in paths.values():
        assert path.is_file() and path.stat().st_size > 1000
    assert load_report(paths["json"]) == report
    assert paths["pdf"].read_bytes().startswith(b"%PDF")
    with pytest.raises(ValueError, match="unknown report format"):
        write_report(report, tmp_path / "r.docx")


def test_html_escapes_document_text(report, tmp_path):
    page = write_html(report, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert page.count("<svg") == 1  # ours: the chain diagram
    assert "<mark>fails to cure such breach within thirty (30) days" in page
    assert 'id="clause-photronics-7-2"' in page and 'href="#clause-photronics-7-2"' in page
    markdown = write_markdown(report, tmp_path / "r.md").read_text(encoding="utf-8")
    assert "<script" not in markdown and "&lt;script&gt;" in markdown
    assert "```mermaid" in markdown and "-->|OVERRIDES|" in markdown


def test_html_escapes_markup_in_every_field(tmp_path):
    answer = sample_answer(question="Is <b>bold</b> & <img src=x onerror=alert(1)> covered?")
    answer.evidence[0].heading = "<iframe>Definitions</iframe>"
    answer.evidence[0].document = "Evil <svg onload=alert(1)> Corp"
    page = write_html(build_report(answer), tmp_path / "e.html").read_text(encoding="utf-8")
    for raw in ("<b>bold", "<img src=x", "<iframe>", "<svg onload"):
        assert raw not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_pdf_has_the_question_and_the_audit_trail(report, tmp_path):
    path = write_pdf(report, tmp_path / "r.pdf")
    document = pymupdf.open(path)
    first = " ".join(document[0].get_text().split())
    assert report.question in first
    assert "WARNINGS" in first and f"Report {report.report_id}" in first
    assert f"Page 1 of {document.page_count}" in first
    everything = " ".join(" ".join(p.get_text().split()) for p in document)
    assert "OVERRIDES" in everything  # the chain diagram is vector, its text is real text
    assert "<script>alert('x')</script>" in everything  # shown as text, not run
    assert "Index generation 4" in everything
    assert document.metadata["subject"] == report.question
    assert document.page_count >= 2


def test_chain_pictures_escape_labels():
    answer = sample_answer()
    answer.evidence[0].label = "<b>x</b>"
    answer.chain[0].source_label = "<b>x</b>"
    report = build_report(answer)
    svg = chain_svg(report)
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg
    assert svg.startswith("<svg") and svg.count("<polygon") == len(answer.chain)
    assert "<b>" not in chain_mermaid(report)
    assert chain_svg(build_report(sample_answer().model_copy(update={"chain": []}))) == ""


# -- re-derivation ---------------------------------------------------------------------------


class FakeGraph:
    """The parts of ClauseGraph that reports use, answering from fixed evidence."""

    def __init__(self, answer, manifest):
        self.answer = answer
        self.store = SimpleNamespace(location="fake-index")
        self.index_record = lambda: manifest
        self.calls: list[tuple] = []

    def retrieve(self, question, documents=None, **overrides):
        self.calls.append((question, documents, overrides))
        return [SimpleNamespace(clause=SimpleNamespace(clause_id=e.clause_id, text=e.text),
                                score=e.score)
                for e in self.answer.evidence]

    def ask(self, question, documents=None, **overrides):
        self.calls.append((question, documents, overrides))
        if "fail" in question:
            from clausegraph.errors import ClauseGraphError

            raise ClauseGraphError("the question is empty")
        return sample_answer(question)


def test_json_report_rederives(report, llm_answer, tmp_path):
    path = write_json(report, tmp_path / "r.json")
    graph = FakeGraph(llm_answer, manifest_for(llm_answer))
    assert rederive(path, graph)
    question, _, overrides = graph.calls[0]
    assert question == report.question and overrides == report.retrieval

    changed = llm_answer.model_copy(deep=True)
    changed.evidence[1].text += " (amended)"
    result = rederive_check(path, FakeGraph(changed, manifest_for(llm_answer)))
    assert not result.same and any("changed" in p for p in result.problems)

    fewer = llm_answer.model_copy(update={"evidence": llm_answer.evidence[:-1]})
    assert not rederive(path, FakeGraph(fewer, manifest_for(llm_answer)))
    assert not rederive(json.loads(path.read_text()), FakeGraph(llm_answer, MANIFEST))


# -- batches ---------------------------------------------------------------------------------


def test_batch_from_csv_and_yaml(tmp_path):
    csv_file = tmp_path / "questions.csv"
    csv_file.write_text('id,question,documents\nq1,"Can a party terminate?",\n'
                        'q2,How long is the term?,photronics\nq3,this will fail,\n',
                        encoding="utf-8")
    yaml_file = tmp_path / "questions.yaml"
    yaml_file.write_text("questions:\n  - Can a party terminate?\n"
                         "  - {id: t, question: 'How long is the term?', documents: [photronics]}\n",
                         encoding="utf-8")
    assert [q.documents for q in read_questions(csv_file)] == [None, ["photronics"], None]
    assert [q.id for q in read_questions(yaml_file)] == ["001", "t"]

    graph = FakeGraph(sample_answer(), MANIFEST)
    result = write_batch(csv_file, graph, tmp_path / "out", formats=("html", "json", "md"))
    assert [e.verdict for e in result.entries[:2]] == ["verified", "verified"]
    assert result.entries[2].error == "the question is empty" and len(result.failed) == 1
    for entry in result.entries[:2]:
        for name in entry.files.values():
            assert (tmp_path / "out" / name).is_file()
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "Can a party terminate?" in index and "ERROR" in index
    assert result.entries[0].files["html"] in index
    assert (tmp_path / "out" / "index.md").is_file()

    result = write_batch(yaml_file, graph, tmp_path / "out2", formats=("pdf",))
    assert all(name.endswith(".pdf") for e in result.entries for name in e.files.values())

    # --doc and --strategy reach every question; a question's own documents win.
    graph.calls.clear()
    write_batch(yaml_file, graph, tmp_path / "out3", formats=("md",), documents=["audible"],
                strategy="e2rag")
    assert [(docs, kw["strategy"]) for _, docs, kw in graph.calls] == [
        (["audible"], "e2rag"), (["photronics"], "e2rag")]


def test_questions_file_errors(tmp_path):
    bad = tmp_path / "q.csv"
    bad.write_text("text\nhello\n", encoding="utf-8")
    with pytest.raises(ValueError, match="'question' column"):
        read_questions(bad)
    with pytest.raises(ValueError, match=".csv, .yaml"):
        read_questions(tmp_path / "q.txt")


# -- against a real index ------------------------------------------------------------------


@pytest.mark.slow
def test_report_from_a_real_index_rederives(sample_graph, tmp_path):
    from clausegraph.report import report_for

    report = report_for(sample_graph, "Can the agreement be terminated for breach?")
    assert report.evidence and report.index.generation is not None
    path = write_json(report, tmp_path / "real.json")
    write_pdf(report, tmp_path / "real.pdf")
    assert rederive(path, sample_graph)
    changed = load_report(path)
    changed.retrieval["top_k"] = max(1, changed.retrieval["top_k"] - 3)
    assert not rederive(changed, sample_graph)


def test_offline_answer_has_no_verified_badge_and_says_not_found():
    """An extractive answer's check is about quotes only: no green VERIFIED badge, the
    report names the check for what it is, gives a confidence and says "not found"."""
    offline = sample_answer()
    report = build_report(offline, manifest=manifest_for(offline), index_path="idx",
                          created_at=WHEN)
    assert report.verdict == "verified"  # every quote is the source's own text
    md = render_markdown(report)
    html = render_html(report)
    assert "QUOTES MATCH THE SOURCE" in md and "Verification: VERIFIED" not in md
    assert "Not found in the indexed documents" in md and "confidence 0.00" in md
    assert 'class="badge v-quotes"' in html and 'class="badge v-verified"' not in html
    found = sample_answer().model_copy(update={
        "found": True, "direct_answer": "Either Party may terminate.", "confidence": 0.8})
    md = render_markdown(build_report(found, manifest=manifest_for(found), created_at=WHEN))
    assert "**Answer** (confidence 0.80): Either Party may terminate." in md


@pytest.mark.parametrize("blank", ["September __, 2018", "___ day of _________, 2004",
                                   "Name: ________ Title: ________"])
def test_a_blank_to_fill_in_stays_as_written_in_html(blank):
    """Underscores a form leaves blank are text, not Markdown italics; ClauseGraph's own
    italic note still is one."""
    from clausegraph.report.render import _answer_html

    html_text = str(_answer_html(f"**Verdict:** {blank} (the day left blank)\n"
                                 "_Extractive answer: quoted clause text._"))
    assert blank in html_text
    assert html_text.count("<em>") == 1
    assert "<em>Extractive answer: quoted clause text.</em>" in html_text
