#!/usr/bin/env python
"""Benchmarks for the Word, HTML and OCR readers (numbers go to docs/formats.md).

    nice -n 5 python scripts/bench_formats.py --out docs/formats_bench.json

Parts (``--only ocr,recall,docx,html,throughput``):

* ocr: pages of 5 real CUAD PDFs (../shared/data/cuad-sample/pdf) rendered at 200 dpi
  into image-only PDFs, OCR'd by Tesseract (the CLI this project uses, and MuPDF's
  built-in Tesseract through ``page.get_textpage_ocr``) and by RapidOCR (ONNX models
  inside its wheel); character error rate (Levenshtein distance / reference length, on
  whitespace-collapsed text) against the original text layer, and seconds per page.
* recall: the docs/dataset questions (first 7 per contract, 21) on the three bundled PDFs
  and on image-only copies of them OCR'd at ingest: Recall@5 of the clausegraph strategy.
* docx: 5 CUAD contract texts written as Word files whose clause numbers are real
  automatic numbering (numbering.xml, no numbers in the text); numbering fidelity of
  python-docx + our renderer vs docx2python, read time, and clause ids compared with
  ingesting the same contract's PDF; Recall@5 of the docs/dataset questions on the Word
  copies of the two bundled contracts among them.
* html: the same texts as HTML; lxml vs selectolax parse+walk time, and nesting depth.
* throughput: ingest (load_document) pages/s per format.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ingest"))
from clausegraph.eval.data import shared_data_dir  # noqa: E402

import pymupdf  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
CUAD_PDF = DATA / "cuad-sample" / "pdf"
CUAD_TXT = DATA / "cuad-sample" / "txt"
if not CUAD_PDF.is_dir():  # a worktree sits one level deeper than the main checkout
    CUAD_PDF = shared_data_dir() / "cuad-sample" / "pdf"
    CUAD_TXT = shared_data_dir() / "cuad-sample" / "txt"
DATASET = REPO / "docs" / "dataset"
CONTRACTS = ["Xinhua", "Neoforma", "Photronics", "Audible", "RevolutionMedicines"]
OCR_PDFS = ["Photronics", "Bellring", "Xinhua", "Neoforma", "WestPharmaceutical"]
SCAN_DPI = 200


def find(folder: Path, fragment: str, suffix: str) -> Path:
    return next(p for p in sorted(folder.glob(f"{fragment}*{suffix}")))


def collapse(text: str) -> str:
    return " ".join(text.split())


def cer(reference: str, hypothesis: str) -> float:
    from rapidfuzz.distance import Levenshtein

    ref, hyp = collapse(reference), collapse(hypothesis)
    return Levenshtein.distance(ref, hyp) / max(len(ref), 1)


def words_cer(reference: str, hypothesis: str) -> float:
    """CER over letters and digits only (words kept apart by one space): leader dots of a
    table of contents, dash rules and quote shapes do not count."""
    return cer(re.sub(r"[^\w]+", " ", reference), re.sub(r"[^\w]+", " ", hypothesis))


def image_only_copy(source: Path, target: Path, pages: list[int] | None = None) -> Path:
    with pymupdf.open(source) as original, pymupdf.open() as scan:
        for index in pages if pages is not None else range(original.page_count):
            page = original[index]
            pixmap = page.get_pixmap(dpi=SCAN_DPI, colorspace=pymupdf.csGRAY)
            new = scan.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pixmap)
        scan.save(target, deflate=True)
    return target


# ----------------------------------------------------------------------------------- OCR


def bench_ocr(work: Path, pages_per_pdf: int, rapid_pages: int) -> dict:
    from clausegraph.ingest.ocr import ocr_page

    rows = []
    engines: dict[str, dict[str, list[float]]] = {}
    rapid = _rapid_engine()
    for fragment in OCR_PDFS:
        source = find(CUAD_PDF, fragment, ".pdf")
        with pymupdf.open(source) as original:
            chosen = [i for i in range(original.page_count)
                      if len(original[i].get_text().strip()) > 500][:pages_per_pdf]
            references = {i: original[i].get_text() for i in chosen}
        scan = image_only_copy(source, work / f"{fragment}-scan.pdf", chosen)
        with pymupdf.open(scan) as pdf:
            for position, index in enumerate(chosen):
                page = pdf[position]
                results = {"tesseract-cli": _timed(lambda: ocr_page(page).text)}
                results["mupdf-tesseract"] = _timed(lambda: _mupdf_ocr(page))
                if rapid is not None and position < rapid_pages:
                    results["rapidocr"] = _timed(lambda: _rapid_ocr(rapid, page))
                for engine, (text, seconds) in results.items():
                    error = cer(references[index], text)
                    word_error = words_cer(references[index], text)
                    values = engines.setdefault(engine, {"cer": [], "words_cer": [],
                                                         "seconds": []})
                    values["cer"].append(error)
                    values["words_cer"].append(word_error)
                    values["seconds"].append(seconds)
                    rows.append({"pdf": source.name[:40], "page": index + 1, "engine": engine,
                                 "cer": round(error, 4), "words_cer": round(word_error, 4),
                                 "seconds": round(seconds, 2)})
                    print(f"  {fragment} p{index + 1} {engine}: CER {error:.2%} "
                          f"(letters/digits {word_error:.2%}), {seconds:.1f} s", flush=True)
    summary = {}
    for engine, values in engines.items():
        n = len(values["cer"])
        summary[engine] = {
            "pages": n,
            "mean_cer": round(sum(values["cer"]) / n, 4),
            "median_cer": round(sorted(values["cer"])[n // 2], 4),
            "mean_words_cer": round(sum(values["words_cer"]) / n, 4),
            "seconds_per_page": round(sum(values["seconds"]) / n, 2),
        }
    rapid_pages_read = {(r["pdf"], r["page"]) for r in rows if r["engine"] == "rapidocr"}
    for engine in list(engines):  # every engine again on the pages RapidOCR read too
        same = [r for r in rows if r["engine"] == engine and (r["pdf"], r["page"]) in
                rapid_pages_read]
        if same and engine != "rapidocr":
            summary[f"{engine} (RapidOCR's pages)"] = {
                "pages": len(same),
                "mean_cer": round(sum(r["cer"] for r in same) / len(same), 4),
                "mean_words_cer": round(sum(r["words_cer"] for r in same) / len(same), 4),
                "seconds_per_page": round(sum(r["seconds"] for r in same) / len(same), 2),
            }
    return {"dpi_of_scan": SCAN_DPI, "summary": summary, "pages": rows}


def _timed(call):
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def _mupdf_ocr(page: pymupdf.Page) -> str:
    textpage = page.get_textpage_ocr(language="eng", dpi=300, full=True,
                                     tessdata=_tessdata())
    return page.get_text(textpage=textpage)


def _tessdata() -> str:
    found = sorted(Path("/usr/share/tesseract-ocr").glob("*/tessdata"))
    return str(found[-1]) if found else ""


def _rapid_engine():
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError:
        print("  rapidocr-onnxruntime not installed: RapidOCR skipped")
        return None
    return RapidOCR()


def _rapid_ocr(engine, page: pymupdf.Page) -> str:
    import numpy as np

    pixmap = page.get_pixmap(dpi=300, colorspace=pymupdf.csRGB)
    image = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.width, 3)
    result, _ = engine(image)
    return "\n".join(line[1] for line in result or [])


# -------------------------------------------------------------------------------- recall


def bench_recall(work: Path, per_document: int) -> dict:
    from clausegraph.eval import evaluate_dataset

    scans = work / "scanned-dataset"
    scans.mkdir(exist_ok=True)
    for pdf in sorted(DATASET.glob("*.pdf")):
        image_only_copy(pdf, scans / pdf.name)
    results = {}
    for label, folder in (("original", DATASET), ("ocr", scans)):
        started = time.perf_counter()
        result = evaluate_dataset(folder, DATASET / "questions.yaml", strategies=["clausegraph"],
                                  limit=per_document, k=5, cache_dir=work / f"cache-{label}")
        run = result.run("clausegraph")
        results[label] = {
            "questions": result.questions,
            "recall_at_5": round(run.documents["ALL"].recall, 4),
            "mrr": round(run.documents["ALL"].mrr, 4),
            "unlocated_excerpts": len(result.unlocated),
            "seconds_incl_ingest": round(time.perf_counter() - started, 1),
        }
        print(f"  {label}: {results[label]}", flush=True)
    return results


# ---------------------------------------------------------------------------------- DOCX

_LEVEL_PATTERNS = [
    (1, re.compile(r"^(\d+)\.(\d+)\.?\s+")),
    (0, re.compile(r"^(\d+)\.\s+")),
    (2, re.compile(r"^\(([a-z])\)\s+")),
    (3, re.compile(r"^\(((?:x|ix|iv|v?i{0,3}))\)\s+")),
]
OUTLINE = (("decimal", "%1.", 1), ("decimal", "%1.%2", 1), ("lowerLetter", "(%3)", 1),
           ("lowerRoman", "(%4)", 1))


def numbered_lines(text: str) -> list[tuple[int | None, tuple[int, ...], str, str | None]]:
    """(level or None, counter values, text without its number, source label) per line.

    Level 1 ("2.1") carries both counters (2, 1): "ARTICLE 2." headings are not list
    items, so the article's counter must come from the item itself.
    """
    from clausegraph.ingest.docx import _roman

    out = []
    last_letter = ""
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        for level, pattern in _LEVEL_PATTERNS:
            match = pattern.match(line)
            if not match or not line[match.end():].strip():
                continue  # a number alone on its line stays text
            token = match.group(match.lastindex)
            if level == 3 and last_letter and len(token) == 1 and \
                    ord(token[0]) == ord(last_letter) + 1:
                continue  # "(i)" after "(h)" is a letter
            if level == 2 and token in ("i", "v", "x") and last_letter != chr(ord(token) - 1):
                continue  # "(i)" with no "(h)" before it is a roman numeral
            if level < 2:
                values = tuple(int(group) for group in match.groups())
                last_letter = ""
            elif level == 2:
                values = (ord(token) - ord("a") + 1,)
                last_letter = token
            else:
                values = (next(n for n in range(1, 40) if _roman(n) == token),)
            out.append((level, values, line[match.end():], match.group(0).strip()))
            break
        else:
            out.append((None, (), line, None))
    return out


def write_docx(text: str, path: Path) -> list[str | None]:
    """The contract as a Word file with automatic numbering; returns the source labels.

    Where the source's numbers do not simply count on (a skipped number, "2.1" under an
    "ARTICLE 2." heading that is no list item), a new list instance restarts the levels
    at the source's values -- what Word's "Set Numbering Value" stores.
    """
    import docx
    from docx_builder import add_list_definition, add_list_instance, add_numbered_paragraph

    word = docx.Document()
    add_list_definition(word, 1, OUTLINE)
    add_list_instance(word, 1, 1)
    counters: dict[int, int] = {}
    num_id = next_num = 1
    labels = []
    for level, values, body, label in numbered_lines(text):
        labels.append(label)
        if level is None:
            word.add_paragraph(body)
            continue
        if level == 1:
            wanted = {0: values[0], 1: values[1]}
        else:
            wanted = {level: values[0]}
        drawn = {k: (counters.get(k, 0) + 1 if k == level else counters.get(k)) for k in wanted}
        if drawn != wanted:
            next_num += 1
            add_list_instance(word, next_num, 1, start_overrides=wanted)
            num_id = next_num
        counters.update(wanted)
        for deeper in [k for k in counters if k > level]:
            del counters[deeper]
        add_numbered_paragraph(word, body, num_id, level)
    word.save(path)
    return labels


def bench_docx(work: Path) -> dict:
    from docx2python import docx2python

    from clausegraph.ingest import load_document
    from clausegraph.segment import segment

    rows = []
    for fragment in CONTRACTS:
        txt = find(CUAD_TXT, fragment, ".txt")
        path = work / f"{txt.stem[:60]}.docx"
        labels = write_docx(txt.read_text(encoding="utf-8"), path)
        expected = [label for label in labels if label]
        started = time.perf_counter()
        document = load_document(path)
        ours_seconds = time.perf_counter() - started
        ours = [b.label for b in document.blocks if b.label]
        started = time.perf_counter()
        with docx2python(path) as extracted:
            theirs_text = extracted.text
        theirs_seconds = time.perf_counter() - started
        theirs = [m.group(1) for m in re.finditer(r"(?m)^\t*([^\t\n]+)\t", theirs_text)]
        pdf_document = load_document(find(CUAD_PDF, fragment, ".pdf"))
        docx_ids = {c.label for c in segment(document)}
        pdf_ids = {c.label for c in segment(pdf_document)}
        numbered = lambda ids: {i for i in ids if re.match(r"^\d", i)}  # noqa: E731
        rows.append({
            "contract": txt.stem[:50],
            "numbered_paragraphs": len(expected),
            "python_docx_label_match": round(_match(expected, ours), 4),
            "docx2python_label_match": round(_match(expected, theirs), 4),
            "python_docx_seconds": round(ours_seconds, 3),
            "docx2python_seconds": round(theirs_seconds, 3),
            "numbered_clause_ids_pdf": len(numbered(pdf_ids)),
            "numbered_clause_ids_docx": len(numbered(docx_ids)),
            "numbered_ids_shared": len(numbered(pdf_ids) & numbered(docx_ids)),
        })
        print(f"  {rows[-1]}", flush=True)
    recall = _docx_recall(work)
    return {"contracts": rows, "recall": recall}


def _match(expected: list[str], got: list[str]) -> float:
    hits = sum(a == b for a, b in zip(expected, got))
    return hits / max(len(expected), 1)


def _docx_recall(work: Path) -> dict:
    """Recall@5 of the docs/dataset questions on Word copies of the bundled contracts."""
    import yaml

    from clausegraph.eval import evaluate_dataset

    folder = work / "docx-dataset"
    folder.mkdir(exist_ok=True)
    data = yaml.safe_load((DATASET / "questions.yaml").read_text(encoding="utf-8"))
    kept = []
    for entry in data["documents"]:
        fragment = entry["file"].split("_")[0].replace("Inc", "")
        txts = sorted(CUAD_TXT.glob(f"{fragment}*.txt"))
        if not txts:
            continue
        name = Path(entry["file"]).with_suffix(".docx").name
        write_docx(txts[0].read_text(encoding="utf-8"), folder / name)
        kept.append({**entry, "file": name})
    questions = folder / "questions.yaml"
    questions.write_text(yaml.safe_dump({"documents": kept}), encoding="utf-8")
    pdf_questions = folder / "pdf-questions.yaml"
    pdf_questions.write_text(yaml.safe_dump({"documents": [
        {**e, "file": e["file"][:-5] + ".pdf"} for e in kept]}), encoding="utf-8")
    out = {}
    for label, dataset, qs in (("pdf", DATASET, pdf_questions), ("docx", folder, questions)):
        result = evaluate_dataset(dataset, qs, strategies=["clausegraph"], k=5,
                                  cache_dir=work / f"cache-docx-{label}")
        run = result.run("clausegraph")
        out[label] = {"questions": result.questions,
                      "recall_at_5": round(run.documents["ALL"].recall, 4),
                      "unlocated_excerpts": len(result.unlocated)}
        print(f"  {label}: {out[label]}", flush=True)
    return out


# ---------------------------------------------------------------------------------- HTML


def to_html(text: str) -> str:
    from html import escape

    paragraphs = "\n".join(f"<p>{escape(' '.join(line.split()))}</p>"
                           for line in text.splitlines() if line.strip())
    return f"<html><head><title>x</title></head><body>{paragraphs}</body></html>"


def bench_html(work: Path, depth: int) -> dict:
    from lxml import etree
    from selectolax.lexbor import LexborHTMLParser

    rows = []
    for fragment in CONTRACTS:
        html = to_html(find(CUAD_TXT, fragment, ".txt").read_text(encoding="utf-8"))
        data = html.encode("utf-8")
        lx = _best_of(3, lambda: "".join(
            etree.fromstring(data, etree.HTMLParser(huge_tree=True)).itertext()))
        sx = _best_of(3, lambda: LexborHTMLParser(html).body.text())
        rows.append({"contract": fragment, "kb": len(data) // 1024,
                     "lxml_seconds": round(lx, 4), "selectolax_seconds": round(sx, 4)})
        print(f"  {rows[-1]}", flush=True)
    deep = "<html><body>" + "<div>" * depth + "x" + "</div>" * depth + "</body></html>"
    nested = {
        "depth": depth,
        "lxml_seconds": round(_best_of(1, lambda: etree.fromstring(
            deep.encode(), etree.HTMLParser(huge_tree=True))), 3),
        "selectolax_seconds": round(_best_of(1, lambda: LexborHTMLParser(deep)), 3),
    }
    print(f"  nested: {nested}", flush=True)
    return {"documents": rows, "nested": nested}


def _best_of(repeats: int, call) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best


# ---------------------------------------------------------------------------- throughput


def bench_throughput(work: Path) -> dict:
    from clausegraph.ingest import load_document

    out: dict[str, dict] = {}
    for fragment in CONTRACTS:
        pdf = find(CUAD_PDF, fragment, ".pdf")
        txt = find(CUAD_TXT, fragment, ".txt")
        with pymupdf.open(pdf) as opened:
            pages = opened.page_count
        text = txt.read_text(encoding="utf-8")
        docx_path = work / f"{fragment}.docx"
        write_docx(text, docx_path)
        html_path = work / f"{fragment}.html"
        html_path.write_text(to_html(text), encoding="utf-8")
        for fmt, path in (("pdf", pdf), ("docx", docx_path), ("html", html_path), ("txt", txt)):
            seconds = _best_of(3, lambda path=path: load_document(path))
            entry = out.setdefault(fmt, {"pages": 0, "seconds": 0.0})
            entry["pages"] += pages  # the PDF's page count: the same contract's length
            entry["seconds"] += seconds
    for entry in out.values():
        entry["pages_per_second"] = round(entry["pages"] / entry["seconds"], 1)
        entry["seconds"] = round(entry["seconds"], 3)
    print(f"  {out}", flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="ocr,recall,docx,html,throughput")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "formats_bench.json")
    parser.add_argument("--pages-per-pdf", type=int, default=2)
    parser.add_argument("--rapid-pages", type=int, default=1,
                        help="pages per PDF RapidOCR reads (it is slow on 2 cores)")
    parser.add_argument("--questions-per-document", type=int, default=7)
    parser.add_argument("--nesting", type=int, default=20_000)
    args = parser.parse_args()
    if not CUAD_PDF.is_dir():
        parser.error(f"benchmark data not found: {CUAD_PDF}")
    results = json.loads(args.out.read_text()) if args.out.is_file() else {}
    parts = {
        "ocr": lambda w: bench_ocr(w, args.pages_per_pdf, args.rapid_pages),
        "recall": lambda w: bench_recall(w, args.questions_per_document),
        "docx": bench_docx,
        "html": lambda w: bench_html(w, args.nesting),
        "throughput": bench_throughput,
    }
    with tempfile.TemporaryDirectory(prefix="bench-formats-") as tmp:
        for name in args.only.split(","):
            print(f"{name}:", flush=True)
            work = Path(tmp) / name
            work.mkdir()
            results[name] = parts[name](work)
            args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
