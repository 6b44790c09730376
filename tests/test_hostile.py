"""Hostile inputs, failing disks and hostile terminals (issue 14): each input is built here.

Every case asserts what a user sees: a one-line error naming the file and the problem,
the good file beside it still ingested, nothing half-written, nothing raw on the terminal.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import stat
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from clausegraph.api import ClauseGraph
from clausegraph.cli import app
from clausegraph.config import SegmentConfig, Settings
from clausegraph.errors import ClauseGraphError, IndexStoreError, IngestError
from clausegraph.ingest import iter_input_files, load_document
from clausegraph.report import write_markdown
from clausegraph.segment import segment
from clausegraph.store.local.folder import FolderStore
from clausegraph.text.safe import markup, plain
from tests.conftest import DATASET
from tests.hostile_inputs import TERMINAL_ATTACK, numbered_lines, pdf_cut_before_fonts

runner = CliRunner()
GOOD_TEXT = (
    "LEASE AGREEMENT\n\n"
    "1. Term. The lease runs for two years from the start date agreed by the parties.\n"
    "2. Rent. The tenant pays the rent monthly in advance on the first day of the month.\n"
    "3. Repairs. The landlord keeps the roof and the structure of the building in repair.\n"
)


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging: a blocked read on a FIFO would otherwise stop the suite."""
    def expire(*_: object) -> None:
        raise TimeoutError(f"still blocked after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def one_line_error(path: Path, *words: str) -> IngestError:
    with pytest.raises(IngestError) as caught:
        load_document(path)
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    for word in words:
        assert word.lower() in message.lower(), message
    return caught.value


# ---------------------------------------------------------------- 1. gibberish PDF text


def test_pdf_cut_before_its_fonts_is_refused_not_indexed_as_glyph_codes(tmp_path: Path) -> None:
    path = tmp_path / "cut.pdf"
    path.write_bytes(pdf_cut_before_fonts())
    assert path.read_bytes().rstrip().endswith(b"%%EOF")  # the old truncation check passes
    pdf = pymupdf.open(path)
    glyph_codes = pdf[0].get_text()
    assert "\x00" in glyph_codes and "EXHIBIT" not in glyph_codes  # MuPDF gives codes, not text
    error = one_line_error(path, "not language", "fonts are missing")
    assert "13 of 13 pages" in error.problem


def test_one_illegible_page_is_left_out_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdf"
    pdf = pymupdf.open()
    body = GOOD_TEXT.splitlines()
    for number in range(1, 4):
        page = pdf.new_page()
        for row, line in enumerate(body * 3):
            page.insert_text((50, 60 + 16 * row), f"{line} (page {number})", fontsize=9)
    spaced = pdf.new_page()  # a page whose text came out one glyph per word
    for row in range(30):
        spaced.insert_text((50, 60 + 16 * row), "P H D Q V   D Q \\   D Q G   W K H   W H Q D Q W")
    pdf.save(path)
    document = load_document(path)
    assert len(document.pages) == 4
    assert "P H D Q V" not in document.text and "page 3" in document.text
    assert len(document.warnings) == 1
    assert document.warnings[0].startswith("page 4 left out") and "single characters" in (
        document.warnings[0])


@pytest.mark.parametrize("pdf", sorted(DATASET.glob("*.pdf")), ids=lambda p: p.name[:20])
def test_real_pdfs_are_not_taken_for_gibberish(pdf: Path) -> None:
    document = load_document(pdf)
    assert document.warnings == []
    assert len(document.text) > 10_000


# ------------------------------------------------ 2./3. FIFOs, sockets, loops, big files


def test_named_pipe_is_refused_without_being_read(tmp_path: Path) -> None:
    fifo = tmp_path / "contract.txt"
    os.mkfifo(fifo)
    with deadline(20):  # opening a FIFO for reading blocks until a writer comes
        one_line_error(fifo, "named pipe")


def test_socket_and_symlink_loop_and_broken_link_are_one_line_errors(tmp_path: Path) -> None:
    sock_path = tmp_path / "s.md"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    try:
        one_line_error(sock_path, "socket")
    finally:
        server.close()
    loop = tmp_path / "loop.pdf"
    loop.symlink_to(loop.name)
    one_line_error(loop, "symbolic link loop")
    broken = tmp_path / "gone.txt"
    broken.symlink_to("missing.txt")
    one_line_error(broken, "broken symbolic link")
    listed = iter_input_files([tmp_path, loop])  # no RuntimeError: Symlink loop
    assert {p.name for p in listed} == {"s.md", "loop.pdf", "gone.txt"}


def test_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text(GOOD_TEXT * 200, encoding="utf-8")
    with pytest.raises(IngestError, match="larger than the 0.01 MB limit"):
        load_document(path, max_bytes=10_000)


# --------------------------------------------------------------- 12. text encodings


@pytest.mark.parametrize(
    ("encoding", "bom", "recorded"),
    [("utf-16-le", b"\xff\xfe", "utf-16-le (BOM)"), ("utf-16-be", b"\xfe\xff", "utf-16-be (BOM)"),
     ("latin-1", b"", "cp1252")],
)
def test_utf16_and_latin1_text_is_read_with_its_encoding(
    tmp_path: Path, encoding: str, bom: bytes, recorded: str
) -> None:
    text = GOOD_TEXT.replace("tenant", "locataire résident") + "4. Clé. Le bailleur répare.\r\n"
    path = tmp_path / f"{encoding}.txt"
    path.write_bytes(bom + text.encode(encoding))
    document = load_document(path)
    assert document.encoding == recorded
    expected = ("\ufeff" if bom else "") + text.replace("\r\n", "\n")
    assert document.text == expected
    clauses = segment(document, SegmentConfig())
    assert any("résident" in c.text for c in clauses)
    for clause in clauses:  # offsets slice the canonical text
        assert "\n".join(document.text[a:b] for a, b in clause.segments) == clause.text


# ---------------------------------------------------------- 4. numbering beyond 300


def test_two_thousand_numbered_clauses_are_two_thousand_clauses(tmp_path: Path) -> None:
    path = tmp_path / "schedule.txt"
    path.write_text(numbered_lines(2000), encoding="utf-8")
    clauses = segment(load_document(path), SegmentConfig())
    assert len(clauses) == 2000
    assert clauses[1499].text.startswith("1500. ") and clauses[-1].text.startswith("2000. ")


def test_a_year_after_clause_two_does_not_open_a_clause(tmp_path: Path) -> None:
    path = tmp_path / "years.txt"
    path.write_text("1. Term. The lease starts on 1 May.\n2. Rent. The rent is due monthly.\n"
                    "2019. was the year of the old lease, which no longer applies.\n"
                    "3. Repairs. The tenant repairs the interior.\n", encoding="utf-8")
    clauses = segment(load_document(path), SegmentConfig())
    assert [c.text.split(".")[0] for c in clauses] == ["1", "2", "3"]
    assert "2019." in clauses[1].text


# ---------------------------------------------------------- 5./6. terminal escaping


def test_plain_strips_escape_sequences_and_shows_other_controls() -> None:
    shown = plain(f"Rent{TERMINAL_ATTACK} is due\r\n\tmonthly\u202e")
    assert not any(ch in shown for ch in "\x1b\x07\x9b\r\u202e")
    assert "hidden text" in shown and "click here" in shown  # hidden text made visible
    assert "evil.example" not in shown and "\n\tmonthly" in shown
    assert markup("Q3 [/] [bold]x[/bold] [***]") == "Q3 \\[/] \\[bold]x\\[/bold] [***]"


def test_file_and_index_names_with_markup_are_printed_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("Lease [draft] v2.pdf").write_bytes(b"")
    result = runner.invoke(app, ["ingest", "Lease [draft] v2.pdf", "Q3 [/] empty.pdf",
                                 "--index", "idx [/bold] markup"])
    assert result.exit_code == 1, result.output
    assert "Lease [draft] v2.pdf: empty file" in result.output
    assert "Q3 [/] empty.pdf: file not found" in result.output
    assert "Traceback" not in result.output and not Path("idx [/bold] markup").exists()
    result = runner.invoke(app, ["stats", "--index", "idx [/bold] markup"])
    assert result.exit_code == 2
    assert "index idx [/bold] markup: does not exist" in result.output


@pytest.fixture(scope="module")
def hostile_index(tmp_path_factory: pytest.TempPathFactory):
    """One index over a good text, a document with terminal and HTML attacks, and
    UTF-16 / Latin-1 files, ingested next to a FIFO, a socket and a symlink loop."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "good.txt").write_text(GOOD_TEXT, encoding="utf-8")
    (folder / "attack.txt").write_text(
        "SUPPLY AGREEMENT\n\n1. Price. The price per unit is [***] and "
        f"{TERMINAL_ATTACK} is payable within thirty days of invoice by wire transfer.\n"
        "2. Notes. The supplier may add <script>alert(1)</script> <img src=x "
        "onerror=alert(2)> and [a link](javascript:alert(3)) to its invoices.\n",
        encoding="utf-8",
    )
    (folder / "utf16.txt").write_bytes(b"\xff\xfe" + GOOD_TEXT.replace("Rent", "Loyer").encode(
        "utf-16-le"))
    os.mkfifo(folder / "pipe.txt")
    (folder / "loop.pdf").symlink_to("loop.pdf")
    index = tmp_path_factory.mktemp("index") / "idx"
    graph = ClauseGraph.open(index, create=True)
    with deadline(600):
        report = graph.ingest([folder])
    return graph, index, report


def _clause_with(graph: ClauseGraph, words: str):
    store = graph.index.clauses
    return next(c for c in store.clauses(store.clause_ids()) if words in c.text)


def test_good_files_ingest_beside_a_fifo_and_a_symlink_loop(hostile_index) -> None:
    graph, index, report = hostile_index
    status = {Path(o.path).name: o.status for o in report.outcomes}
    assert status == {"attack.txt": "ingested", "good.txt": "ingested", "utf16.txt": "ingested",
                      "loop.pdf": "failed", "pipe.txt": "failed"}
    errors = sorted(o.error for o in report.failed)
    assert "symbolic link loop" in errors[0] and "named pipe" in errors[1]
    stored = {Path(d["source_path"]).name: d["doc_id"] for d in graph.stats().documents}
    assert graph.index.clauses.document(stored["utf16.txt"]).encoding == "utf-16-le (BOM)"


def test_show_and_ask_print_document_text_without_terminal_sequences(hostile_index) -> None:
    graph, index, _ = hostile_index
    clause = _clause_with(graph, "payable")
    assert "\x1b" in clause.text  # stored as the document has it
    for args in (["show", clause.clause_id], ["ask", "What is the price per unit?"]):
        result = runner.invoke(app, [*args, "--index", str(index)])
        assert result.exit_code == 0, result.output
        assert not any(ch in result.output for ch in "\x1b\x07\x9b"), args
        assert "hidden text" in result.output and "[***]" in result.output
        assert "evil.example" not in result.output


def test_markdown_report_carries_no_live_html(hostile_index, tmp_path: Path) -> None:
    from markdown_it import MarkdownIt

    graph, _, _ = hostile_index
    report = graph.report("What may the supplier add to its invoices?", top_k=3)
    report.strategy_notes = {"note": "<img src=y onerror=alert(4)> [x](javascript:alert(5))"}
    text = write_markdown(report, tmp_path / "r.md").read_text(encoding="utf-8")
    html = MarkdownIt("commonmark", {"html": True}).render(text)
    assert "&lt;script&gt;alert(1)" in html  # shown as text
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html


# ------------------------------------------- 7./10./11. failing disks, umask, empty input


def _small_text_graph(tmp_path: Path) -> tuple[ClauseGraph, Path]:
    source = tmp_path / "lease.txt"
    source.write_text(GOOD_TEXT, encoding="utf-8")
    return ClauseGraph.open(tmp_path / "idx", create=True), source


def test_disk_full_while_storing_is_one_clear_error_and_nothing_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, source = _small_text_graph(tmp_path)
    real_write = os.write

    def full_disk(fd: int, data: bytes) -> int:
        if len(data) > 100:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    report = graph.ingest([source])
    monkeypatch.undo()
    (failed,) = report.failed
    assert "no space left on the device" in failed.error and "\n" not in failed.error
    assert not (tmp_path / "idx").exists()  # no temp folders, no empty index


def test_disk_full_during_commit_keeps_the_previous_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, source = _small_text_graph(tmp_path)
    graph.ingest([source])
    before = graph.stats()
    second = tmp_path / "second.txt"
    second.write_text(GOOD_TEXT.replace("two years", "five years"), encoding="utf-8")
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")) if b'"generation"' in bytes(data)
        else real_write(fd, data))
    with pytest.raises(IndexStoreError, match="nothing was committed.*no space left"):
        graph.ingest([second])
    monkeypatch.undo()
    assert ClauseGraph.open(tmp_path / "idx").stats() == before
    assert not [p for p in (tmp_path / "idx").rglob(".*tmp*")]


def _mount_tmpfs(path: Path, options: str) -> bool:
    path.mkdir(exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                          capture_output=True)
    return done.returncode == 0


@pytest.fixture
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "mnt"
    if os.geteuid() != 0 or not _mount_tmpfs(mount, "size=64k"):
        pytest.skip("cannot mount a tmpfs here (needs root); the os.write tests cover ENOSPC")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_really_full_disk_is_reported_by_the_cli(tiny_tmpfs: Path, tmp_path: Path) -> None:
    (tiny_tmpfs / "filler").write_bytes(b"\0" * 56_000)
    source = tmp_path / "lease.txt"
    source.write_text(GOOD_TEXT * 30, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(source), "--index", str(tiny_tmpfs / "idx")])
    assert result.exit_code == 1
    assert "no space left on the device" in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in tiny_tmpfs.iterdir()) == ["filler"]


def test_read_only_index_is_a_clear_error_and_still_answers(tiny_tmpfs: Path) -> None:
    graph, source = _small_text_graph(tiny_tmpfs)
    graph.ingest([source])
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_tmpfs)], check=True)
    result = runner.invoke(app, ["ingest", str(source), "--index", str(tiny_tmpfs / "idx")])
    assert result.exit_code == 2
    assert "read-only file system" in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["ask", "Who repairs the roof?", "--index",
                                 str(tiny_tmpfs / "idx")])
    assert result.exit_code == 0 and "roof" in result.output


def test_index_folders_follow_the_umask_not_0700(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        graph, source = _small_text_graph(tmp_path)
        graph.ingest([source])
    finally:
        os.umask(old)
    folders = [p for p in (tmp_path / "idx").rglob("*") if p.is_dir()]
    assert folders and all(stat.S_IMODE(p.stat().st_mode) == 0o755 for p in folders)


def test_unreadable_index_says_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, source = _small_text_graph(tmp_path)
    graph.ingest([source])
    # Tests run as root, which reads a 0000 file anyway: the OS answer is injected instead.
    real_read = Path.read_bytes

    def denied(path: Path) -> bytes:
        if path.name == "clauses.json":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_read(path)

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(IndexStoreError) as caught:
        ClauseGraph.open(tmp_path / "idx").show("x")
    message = str(caught.value)
    assert "permission denied reading" in message and "clauses.json" in message
    assert "damaged" not in message


def test_empty_folder_or_the_index_itself_has_no_supported_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["ingest", str(empty), "--index", str(tmp_path / "idx")])
    assert result.exit_code == 2 and "no supported files in" in result.output
    assert not (tmp_path / "idx").exists()
    graph, source = _small_text_graph(tmp_path)
    graph.ingest([source])
    with pytest.raises(ClauseGraphError, match="no supported files in"):
        graph.ingest([tmp_path / "idx"])


# ------------------------------------------------------------- 8. a second writer waits


def test_second_writer_waits_for_the_lock_and_says_so(tmp_path: Path) -> None:
    store = FolderStore(tmp_path / "idx")
    held = threading.Event()
    release = threading.Event()

    def first_writer() -> None:
        with store.write_lock():
            held.set()
            release.wait(10)

    thread = threading.Thread(target=first_writer)
    thread.start()
    held.wait(10)
    told: list[str] = []
    threading.Timer(0.6, release.set).start()
    started = time.monotonic()
    with FolderStore(tmp_path / "idx").write_lock(wait_seconds=10, on_wait=told.append):
        waited = time.monotonic() - started
    thread.join()
    assert 0.5 <= waited < 10
    assert len(told) == 1 and "waiting up to 10 s" in told[0]
    with store.write_lock():
        with pytest.raises(IndexStoreError, match="after waiting 0.3 s.*--wait SECONDS"):
            with FolderStore(tmp_path / "idx").write_lock(wait_seconds=0.3):
                pass


def test_cli_wait_option_reaches_the_lock(tmp_path: Path) -> None:
    graph, source = _small_text_graph(tmp_path)
    graph.ingest([source])
    with graph.store.write_lock():
        result = runner.invoke(app, ["remove", "lease.txt", "--index", str(tmp_path / "idx"),
                                     "--wait", "0.5"])
    assert result.exit_code == 2
    assert "waiting up to 0.5 s" in result.output and "after waiting 0.5 s" in result.output


def test_json_output_escapes_c1_controls(hostile_index) -> None:
    graph, index, _ = hostile_index
    clause = _clause_with(graph, "payable")
    result = runner.invoke(app, ["show", clause.clause_id, "--index", str(index), "--json"])
    assert result.exit_code == 0 and "\x9b" not in result.output
    assert json.loads(result.output)["clause"]["text"] == clause.text


def test_ingest_limits_are_settings() -> None:
    settings = Settings().with_overrides(["ingest.max_file_mb=5", "ingest.lock_wait_seconds=0"])
    assert settings.ingest.max_file_mb == 5 and settings.ingest.lock_wait_seconds == 0
