"""The command line over the bundled PDFs: every command, its JSON and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
from typer.testing import CliRunner

from clausegraph.api import ClauseGraph
from clausegraph.cli import app
from clausegraph.config import SAMPLE_QUESTION
from clausegraph.models import RelationType
from tests.conftest import DATASET, dataset_pdf

runner = CliRunner()


def test_cli_ask_json_carries_evidence_with_spans_and_reasons(sample_graph: ClauseGraph) -> None:
    result = runner.invoke(app, ["ask", SAMPLE_QUESTION, "--index", str(sample_graph.store.root),
                                 "--json", "--top-k", "6"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    origins = [item["origin"] for item in payload["evidence"]]
    # six ranked clauses, plus the definitions/exceptions that govern them (at most complete_k)
    assert len([o for o in origins if o != "governing"]) == 6
    assert len(origins) <= 6 + payload["retrieval"]["complete_k"]
    for item in payload["evidence"]:
        assert {"clause_id", "group", "text", "document", "pages", "span", "reason"} <= set(item)
        assert item["group"] in ("definition", "base_rule", "exception")


def test_cli_stats_and_show(sample_graph: ClauseGraph) -> None:
    root = str(sample_graph.store.root)
    stats = json.loads(runner.invoke(app, ["stats", "--index", root, "--json"]).stdout)
    assert len(stats["documents"]) == 3
    assert stats["clauses"] == sample_graph.index.clauses.count()
    assert set(stats["edges_by_type"]) >= {"Defines", "RefersTo", "Overrides", "SameSection"}
    clause_id = next(e.source for d in sample_graph.index.clauses.document_ids()
                     for e in sample_graph.index.graph.document_edges(d)
                     if e.type is RelationType.OVERRIDES)
    shown = runner.invoke(app, ["show", clause_id, "--index", root, "--json"])
    assert shown.exit_code == 0
    detail = json.loads(shown.stdout)
    assert any(e["type"] == "Overrides" for e in detail["outgoing"])


def test_cli_bad_inputs_fail_clearly_and_the_rest_ingest(tmp_path: Path) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    good = dataset_pdf("Photronics")
    (folder / good.name).write_bytes(good.read_bytes())
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n garbage that is not a pdf")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 4)  # no text encoding
    scanned = pymupdf.open()
    page = scanned.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 50, 50), False)
    pix.clear_with(200)
    page.insert_image(page.rect, pixmap=pix)
    scanned.save(folder / "scanned.pdf")
    encrypted = pymupdf.open(good)
    encrypted.save(folder / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                   user_pw="secret", owner_pw="owner")
    index = tmp_path / "idx"
    result = runner.invoke(app, ["ingest", str(folder), "--index", str(index)])
    assert result.exit_code == 1
    for name in ("corrupt.pdf", "empty.txt", "binary.txt", "scanned.pdf", "locked.pdf"):
        lines = [line for line in result.stderr.splitlines() if name in line]
        assert len(lines) == 1, (name, result.stderr)
    assert "Traceback" not in result.output
    stats = json.loads(runner.invoke(app, ["stats", "--index", str(index), "--json"]).stdout)
    assert [Path(d["source_path"]).name for d in stats["documents"]] == [good.name]


def test_cli_unknown_option_and_missing_index(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["ask", "anything", "--index", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
    unknown = runner.invoke(app, ["ask", "anything", "--frobnicate"])
    assert unknown.exit_code == 2 and "frobnicate" in unknown.output + unknown.stderr
    bad_setting = runner.invoke(app, ["ask", "x", "--index", str(tmp_path), "--set", "retrieval.nope=1"])
    assert bad_setting.exit_code == 2 and "unknown setting" in bad_setting.stderr


def test_demo_prints_a_cited_answer(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "--index", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    # grouped evidence: the rules and the exceptions to them (the sample question asks both)
    assert "Base rules" in result.stdout and "Exceptions" in result.stdout
    assert "chars " in result.stdout
    assert DATASET.name in result.stdout or "dataset" in result.stdout


def test_cli_ask_takes_a_strategy(sample_graph: ClauseGraph) -> None:
    root = str(sample_graph.store.root)
    result = runner.invoke(app, ["ask", SAMPLE_QUESTION, "--index", root, "--json",
                                 "--strategy", "dense", "--top-k", "3"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["retrieval"]["strategy"] == "dense"
    ranked = [e for e in payload["evidence"] if e["origin"] != "governing"]
    assert len(ranked) == 3 and all("BM25" in e["reason"] for e in ranked)
    unknown = runner.invoke(app, ["ask", SAMPLE_QUESTION, "--index", root, "--strategy", "nope"])
    assert unknown.exit_code == 2 and "unknown strategy 'nope'" in unknown.stderr

