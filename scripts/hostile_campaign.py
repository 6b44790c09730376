#!/usr/bin/env python
"""Hostile-input campaign: hostile files, kills in the commit window, concurrent writers,
full and read-only disks, hostile names. Every part is bounded in time.

    python scripts/hostile_campaign.py --out docs/hostile_campaign.json
    python scripts/hostile_campaign.py --parts kills --kills 2     # one part, quicker

The CLI runs in this process (typer's runner: the model loads once) except where a
separate process is the point: the writers that are killed and the concurrent writers.

Parts (each prints one line per case and counts held / failed):

* inputs: each hostile file is ingested through the CLI next to one good real PDF (the
  first two pages of a CUAD contract in docs/dataset), in a fresh index. Held = the good PDF is indexed, the hostile file gets
  the expected outcome (a one-line error with the expected words, or a correct ingest),
  exit code 1 when something failed, no traceback, no raw control character printed,
  no index folder when nothing was stored.
* kills: ``clausegraph ingest`` runs as a child process and is killed with SIGKILL at a
  moment aimed at the commit window (when a temporary global-index folder or the
  temporary manifest appears, after a random delay). Held = the index opens afterwards,
  holds exactly the old or exactly the new set of documents, and answers a question.
* concurrency: two writers start together on one index while a reader asks in a loop.
  Held = both writers succeed (the second waits for the lock), the index holds both
  documents, every ask succeeded.
* disk: a 64 KiB tmpfs (needs root and mount; skipped otherwise) that fills up, and the
  same index remounted read-only. Held = one-line error, no traceback, nothing left
  behind on the full disk, the read-only index still answers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.hostile_inputs import (  # noqa: E402
    DATASET,
    TERMINAL_ATTACK,
    numbered_lines,
    pdf_cut_before_fonts,
)

SOURCE_PDF = next(DATASET.glob("PhotronicsInc_*.pdf"))
SECOND_PDF = next(DATASET.glob("BellringBrandsInc_*.pdf"))
GOOD_PDF = SOURCE_PDF  # replaced in main() by its first two pages (fast to embed)
CONTROL = set("\x1b\x07\x9b\x9d")
QUESTION = "Can the agreement be terminated early?"


@dataclass
class Case:
    part: str
    name: str
    held: bool
    seconds: float
    detail: str = ""


@dataclass
class Campaign:
    cases: list[Case] = field(default_factory=list)

    def record(self, part: str, name: str, started: float, held: bool, detail: str = "") -> None:
        case = Case(part, name, held, round(time.monotonic() - started, 2), detail[:300])
        self.cases.append(case)
        mark = "held" if held else "FAILED"
        print(f"{part:12} {mark:6} {case.seconds:7.1f}s  {name}  {detail[:120]}", flush=True)

    def summary(self) -> dict[str, str]:
        parts: dict[str, list[Case]] = {}
        for case in self.cases:
            parts.setdefault(case.part, []).append(case)
        return {p: f"{sum(c.held for c in cs)} of {len(cs)}" for p, cs in parts.items()}


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str) -> Run:
    """The CLI in this process; a crash shows as a traceback in ``stderr``."""
    import traceback

    from typer.testing import CliRunner

    from clausegraph.cli import app

    result = CliRunner().invoke(app, list(args))
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "Traceback\n" + "".join(traceback.format_exception(result.exception))
    return Run(result.exit_code, result.stdout, stderr)


def cli_process(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "clausegraph.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})


# ----------------------------------------------------------------------------- inputs


def _pdf_pages(path: Path, pages: int) -> None:
    import pymupdf

    pdf = pymupdf.open()
    for number in range(1, pages + 1):
        page = pdf.new_page()
        page.insert_text((72, 72), f"Clause {number}. The insurer pays costs of event {number}.")
    pdf.save(path)


def _scanned_pdf(path: Path) -> None:
    import pymupdf

    pdf = pymupdf.open()
    page = pdf.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 200), False)
    pix.clear_with(200)
    page.insert_image(page.rect, pixmap=pix)
    pdf.save(path)


def _encrypted_pdf(path: Path) -> None:
    import pymupdf

    pdf = pymupdf.open(GOOD_PDF)
    pdf.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")


def _deep(path: Path) -> Path:
    folder = path
    for level in range(40):
        folder = folder / f"level{level}"
    folder.mkdir(parents=True)
    (folder / "deep.txt").write_text(numbered_lines(3), encoding="utf-8")
    return path


# name -> (builder(folder) -> path, expected: "ok" or words the error must hold)
def hostile_inputs(max_mb_case: bool) -> dict[str, tuple[Callable[[Path], Path], str]]:
    def write(name: str, data: bytes | str) -> Callable[[Path], Path]:
        def build(folder: Path) -> Path:
            path = folder / name
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
            return path
        return build

    def made(name: str, maker: Callable[[Path], object]) -> Callable[[Path], Path]:
        def build(folder: Path) -> Path:
            path = folder / name
            result = maker(path)
            return result if isinstance(result, Path) else path
        return build

    good = GOOD_PDF.read_bytes()
    cases: dict[str, tuple[Callable[[Path], Path], str]] = {
        "empty pdf": (write("empty.pdf", b""), "empty file"),
        "random bytes pdf": (write("random.pdf", os.urandom(20_000)), "not a readable pdf"),
        "random bytes txt": (write("random.txt", bytes(range(256)) * 40), "binary"),
        "pdf cut in half": (write("half.pdf", good[: len(good) // 2]), "truncated"),
        "pdf cut before its fonts": (write("fontless.pdf", pdf_cut_before_fonts()),
                                     "not language"),
        "encrypted pdf": (made("locked.pdf", _encrypted_pdf), "password"),
        "scanned pdf": (made("scan.pdf", _scanned_pdf), "ocr"),
        "unsupported .docx": (write("c.docx", b"PK\x03\x04"), "unsupported file type"),
        "missing file": (lambda folder: folder / "nowhere.pdf", "file not found"),
        "directory named .pdf": (made("dir.pdf", lambda p: p.mkdir()), "ok-skip"),
        "named pipe": (made("pipe.txt", os.mkfifo), "named pipe"),
        "socket": (made("sock.md", lambda p: socket.socket(socket.AF_UNIX).bind(str(p))),
                   "socket"),
        "symlink loop": (made("loop.pdf", lambda p: p.symlink_to(p.name)), "symbolic link loop"),
        "broken symlink": (made("gone.txt", lambda p: p.symlink_to("missing.txt")),
                           "broken symbolic link"),
        "character device": (made("zero.txt", lambda p: p.symlink_to("/dev/zero")),
                             "character device"),
        "NUL bytes in text": (write("nul.txt", "1. Term.\x00 The lease runs two years.\n" * 20),
                              "ok"),
        "UTF-16 text": (write("utf16.txt", b"\xff\xfe" + numbered_lines(5).encode("utf-16-le")),
                        "ok"),
        "Latin-1 text": (write("latin1.txt", ("1. Clé. Le bailleur répare le toit.\n" * 5)
                               .encode("latin-1")), "ok"),
        "ANSI/OSC in text": (write("ansi.txt", f"1. Price. The price is {TERMINAL_ATTACK} due "
                                   "within thirty days of the invoice date.\n"), "ok"),
        "markup in name [draft]": (write("Lease [draft] v2.pdf", b""),
                                   "Lease [draft] v2.pdf: empty file"),
        "markup in name [/]": (lambda folder: folder / "Q3 [/] empty.pdf", "file not found"),
        "escape in name": (write("\x1b]0;title\x07name.txt", b""), "empty file"),
        "newline in name": (write("two\nlines.txt", b""), "empty file"),
        "2,000 numbered clauses": (write("schedule.txt", numbered_lines(2000)), "ok"),
        "100-page pdf": (made("long.pdf", lambda p: _pdf_pages(p, 100)), "ok"),
        "40-level deep folder": (made("deep", _deep), "ok"),
        "hidden file only": (write(".hidden.txt", "1. Hidden.\n"), "ok-skip"),
    }
    if max_mb_case:
        cases["file over the size cap"] = (write("big.txt", "x " * 600_000), "larger than")
    return cases


def run_inputs(campaign: Campaign, work: Path) -> None:
    for name, (build, expected) in hostile_inputs(True).items():
        started = time.monotonic()
        folder = Path(tempfile.mkdtemp(dir=work))
        try:
            hostile = build(folder)
        except OSError as exc:
            campaign.record("inputs", name, started, False, f"could not build: {exc}")
            continue
        index = folder / "idx"
        extra = ["--set", "ingest.max_file_mb=1"] if "size cap" in name else []
        signal.alarm(900)  # a hang fails the case instead of the campaign
        try:
            done = cli("ingest", str(hostile), str(GOOD_PDF), "--index", str(index), *extra)
        except TimeoutError:
            campaign.record("inputs", name, started, False, "hung (900 s)")
            continue
        finally:
            signal.alarm(0)
        output = done.stdout + done.stderr
        problems = []
        if "Traceback" in output:
            problems.append("traceback")
        if CONTROL & set(output):
            problems.append("raw control character printed")
        if "photronics" not in cli("stats", "--index", str(index), "--json").stdout:
            problems.append("good PDF not indexed")
        errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
        if expected.startswith("ok"):
            if done.returncode != 0:
                problems.append(f"exit {done.returncode}: {errors[:1]}")
        else:
            if done.returncode != 1:
                problems.append(f"exit {done.returncode}, expected 1")
            if not any(expected.lower() in line.lower() for line in errors):
                problems.append(f"no error line with {expected!r}: {errors[:2]}")
        campaign.record("inputs", name, started, not problems,
                        "; ".join(problems) or (errors[0] if errors else "ingested"))
        shutil.rmtree(folder, ignore_errors=True)


# ------------------------------------------------------------------------------ kills


def _doc_set(index: Path) -> frozenset[str] | None:
    try:
        manifest = json.loads((index / "clausegraph-index.json").read_text())
        return frozenset(manifest["documents"])
    except (OSError, ValueError):
        return None


def _temp_names(index: Path, stage: str) -> set[str]:
    """Temporary names of a writer in ``stage``: 'document' (a .tmp- folder under docs/)
    or 'commit' (the temporary global-index folder or the temporary manifest)."""
    try:
        names = os.listdir(index / "docs") if stage == "document" else os.listdir(index)
    except OSError:
        return set()
    if stage == "document":
        return {n for n in names if n.startswith(".tmp-")}
    return {n for n in names if n.startswith(".tmp-global") or n.endswith(".json.tmp")}


def run_kills(campaign: Campaign, work: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    index = work / "kill-idx"
    cli("ingest", str(GOOD_PDF), "--index", str(index))
    old = _doc_set(index)
    for attempt in range(kills):
        started = time.monotonic()
        child = cli_process("ingest", str(SECOND_PDF), "--index", str(index))
        delay = rng.uniform(0, 0.05)
        stage = ("document", "commit")[attempt % 2]
        where = f"no {stage} window seen"
        stale = _temp_names(index, stage)  # leftovers of the previous kill
        deadline = time.monotonic() + 600
        while child.poll() is None and time.monotonic() < deadline:
            if _temp_names(index, stage) - stale:
                time.sleep(delay)
                where = f"{delay * 1000:.0f} ms into the {stage} window"
                break
            time.sleep(0.002)
        child.send_signal(signal.SIGKILL)
        child.wait()
        after = _doc_set(index)
        asked = cli("ask", QUESTION, "--index", str(index), "--json")
        # exactly the old documents, or the old ones plus the one being added
        consistent = after == old or (after is not None and old is not None and after > old
                                      and len(after) == len(old) + 1)
        held = consistent and asked.returncode == 0
        state = "new" if after and after != old else "old"
        campaign.record("kills", f"kill {attempt + 1}", started, held,
                        f"{where}; index is the {state} one; ask exit {asked.returncode}")
        if after != old:  # back to the old state for the next attempt
            cli("remove", SECOND_PDF.name, "--index", str(index))


# ------------------------------------------------------------------------ concurrency


def run_concurrency(campaign: Campaign, work: Path) -> None:
    started = time.monotonic()
    index = work / "conc-idx"
    cli("ingest", str(GOOD_PDF), "--index", str(index))
    copies = []
    for name in ("one", "two"):
        copy = work / f"{name}.txt"
        copy.write_text(numbered_lines(50).replace("fixture", f"{name} fixture"), encoding="utf-8")
        copies.append(copy)
    writers = [cli_process("ingest", str(c), "--index", str(index)) for c in copies]
    asks = []
    while any(w.poll() is None for w in writers) and time.monotonic() - started < 600:
        asks.append(cli("ask", QUESTION, "--index", str(index), "--json").returncode)
    outputs = [w.communicate()[1] for w in writers]
    codes = [w.returncode for w in writers]
    documents = _doc_set(index) or frozenset()
    waited = any("waiting up to" in err for err in outputs)
    held = codes == [0, 0] and len(documents) == 3 and all(code == 0 for code in asks)
    campaign.record("concurrency", "two writers and a reader", started, held,
                    f"writer exits {codes}; second waited: {waited}; {len(documents)} documents;"
                    f" {len(asks)} asks during ingest, {asks.count(0)} answered")


# ------------------------------------------------------------------------------- disk


def run_disk(campaign: Campaign, work: Path) -> None:
    mount = work / "tiny"
    mount.mkdir()
    started = time.monotonic()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                             capture_output=True).returncode == 0
    if not mounted:
        campaign.record("disk", "tmpfs", started, True, "skipped: cannot mount a tmpfs here")
        return
    try:
        (mount / "filler").write_bytes(b"\0" * 56_000)
        done = cli("ingest", str(GOOD_PDF), "--index", str(mount / "idx"))
        output = done.stdout + done.stderr
        left = sorted(p.name for p in mount.iterdir())
        held = (done.returncode in (1, 2) and "no space left" in output
                and "Traceback" not in output and left == ["filler"])
        campaign.record("disk", "full disk", started, held,
                        f"exit {done.returncode}; left behind {left}; "
                        f"{[l for l in output.splitlines() if 'error' in l][:1]}")
        started = time.monotonic()
        (mount / "filler").unlink()
        source = work / "small.txt"
        source.write_text(numbered_lines(5), encoding="utf-8")
        cli("ingest", str(source), "--index", str(mount / "idx"))
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        done = cli("ingest", str(GOOD_PDF), "--index", str(mount / "idx"))
        asked = cli("ask", "Who keeps fixture 3 in repair?", "--index", str(mount / "idx"))
        output = done.stdout + done.stderr
        held = (done.returncode == 2 and "read-only file system" in output
                and "Traceback" not in output and asked.returncode == 0)
        campaign.record("disk", "read-only index", started, held,
                        f"ingest exit {done.returncode}, ask exit {asked.returncode}; "
                        f"{output.strip().splitlines()[-1:]}")
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _expire(*_: object) -> None:
    raise TimeoutError("hung")


def _first_pages(source: Path, target: Path, pages: int) -> Path:
    import pymupdf

    pdf = pymupdf.open(source)
    pdf.select(list(range(pages)))
    pdf.save(target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=4, help="kill attempts (4)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--parts", default="inputs,kills,concurrency,disk",
                        help="which parts to run, comma-separated (all four)")
    parser.add_argument("--out", type=Path, help="write the cases and figures as JSON here")
    args = parser.parse_args(argv)
    campaign = Campaign()
    started = time.monotonic()
    signal.signal(signal.SIGALRM, _expire)
    global GOOD_PDF
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        work = Path(tmp)
        GOOD_PDF = _first_pages(SOURCE_PDF, work / "photronics-outsourcing.pdf", 2)
        parts = {part.strip() for part in args.parts.split(",")}
        if "inputs" in parts:
            run_inputs(campaign, work)
        if "kills" in parts:
            run_kills(campaign, work, args.kills, args.seed)
        if "concurrency" in parts:
            run_concurrency(campaign, work)
        if "disk" in parts:
            run_disk(campaign, work)
    summary = campaign.summary()
    total = f"{sum(c.held for c in campaign.cases)} of {len(campaign.cases)}"
    print(f"\nheld: {total} ({', '.join(f'{k} {v}' for k, v in summary.items())}); "
          f"{time.monotonic() - started:.0f} s")
    if args.out:
        args.out.write_text(json.dumps({
            "command": "python scripts/hostile_campaign.py " + " ".join(argv or sys.argv[1:]),
            "held": total, "parts": summary,
            "seconds": round(time.monotonic() - started, 1),
            "cases": [asdict(c) for c in campaign.cases],
        }, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    return 0 if all(c.held for c in campaign.cases) else 1


if __name__ == "__main__":
    sys.exit(main())
