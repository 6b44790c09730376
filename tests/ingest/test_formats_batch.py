"""A folder of Word and HTML files, some broken: the good ones are indexed and cited by
paragraph, each bad one fails with one line naming it, and nothing half-written stays."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from docx_builder import numbered_contract
from test_html import EDGAR_EXHIBIT

import clausegraph.ingest.docx as ingest_docx
from clausegraph.api import ClauseGraph

pytestmark = pytest.mark.slow  # loads the embedding model

ITEMS = [
    (0, "TERM AND TERMINATION"),
    (1, "This Agreement runs for five years from the Effective Date unless ended earlier."),
    (1, "Either party may terminate this Agreement on ninety days' written notice to the "
        "other party."),
    (2, "Termination does not affect payment obligations accrued before it."),
]


def test_good_files_ingest_and_bad_ones_fail_one_line_each(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(ingest_docx, "MAX_UNPACKED_BYTES", 4 * 2**20)
    folder = tmp_path / "inbox"
    folder.mkdir()
    good = numbered_contract(folder / "supply.docx", ITEMS, title="SUPPLY AGREEMENT")
    (folder / "loan.htm").write_text(EDGAR_EXHIBIT, encoding="utf-8")
    (folder / "corrupt.docx").write_bytes(good.read_bytes()[:700])
    with zipfile.ZipFile(good) as source, \
            zipfile.ZipFile(folder / "bomb.docx", "w", zipfile.ZIP_DEFLATED) as bomb:
        for item in source.infolist():
            bomb.writestr(item, source.read(item))
        bomb.writestr("word/media/padding.bin", bytes(8 * 2**20))
    (folder / "deep.html").write_text("<div>" * 100_000, encoding="utf-8")
    (folder / "empty.html").write_bytes(b"")
    (folder / "~$supply.docx").write_bytes(b"Word's lock file")

    index = tmp_path / "index"
    graph = ClauseGraph.open(index, create=True)
    result = graph.ingest([folder])

    assert sorted(Path(o.path).name for o in result.outcomes if o.status == "ingested") == [
        "loan.htm", "supply.docx"
    ]
    errors = {Path(o.path).name: o.error for o in result.failed}
    assert sorted(errors) == ["bomb.docx", "corrupt.docx", "deep.html", "empty.html"]
    for name, error in errors.items():
        assert error.startswith(str(folder / name) + ": ") and "\n" not in error, error

    reopened = ClauseGraph.open(index)  # only complete documents were written
    assert len(reopened.index.clauses.document_ids()) == 2
    answer = reopened.ask("Can a party terminate on notice?")
    evidence = next(e for e in answer.evidence if e.source_path.endswith("supply.docx"))
    assert evidence.paragraphs and "para" in evidence.citation()
