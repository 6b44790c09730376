"""Which files this code cuts differently from the code at a git ref.

Every file is read and segmented twice, once by the working tree's ``clausegraph`` and once
by the one at ``--ref`` (exported with ``git archive`` to a temporary folder), each in its
own process; a document changes when its clause ids, section paths or spans differ. The
check a segmentation rule needs before it lands: what else it touches, on files that are in
no index (scripts/segment_diff.py compares indexed documents with their stored clauses).

    python scripts/segment_ref_diff.py --ref HEAD~1 ../shared/data/policies-dev/*.pdf
    python scripts/segment_ref_diff.py --ref main --jobs 2 ../shared/data/legalbench-rag/corpus/*/*
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# run in a child process with PYTHONPATH set to the code to test
_DUMP = """
import json, sys
from clausegraph.ingest import load_document
from clausegraph.segment import segment
out = {}
for path in sys.argv[1:]:
    try:
        clauses = segment(load_document(path))
    except Exception as exc:  # a file neither code can read is reported, not compared
        out[path] = {"error": f"{type(exc).__name__}: {exc}"}
        continue
    out[path] = [[c.clause_id, c.section_path, list(c.span)] for c in clauses]
json.dump(out, sys.stdout)
"""


def cut(code: Path, files: list[str]) -> dict:
    """Each file's clauses as the ``clausegraph`` package under ``code`` cuts them."""
    env = dict(os.environ, PYTHONPATH=str(code), PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", _DUMP, *files], env=env, cwd=code,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"segmenting with the code in {code} failed: {last}")
    return json.loads(done.stdout)


def export(ref: str, folder: Path) -> Path:
    """The ``clausegraph`` package at ``ref``, extracted under ``folder``."""
    archive = folder / "ref.tar"
    with archive.open("wb") as handle:
        done = subprocess.run(["git", "archive", ref, "clausegraph"], cwd=ROOT, stdout=handle,
                              stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"git ref {ref!r}: {done.stderr.strip() or 'cannot be exported'}")
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--ref", default="HEAD", help="git ref of the code to compare with")
    parser.add_argument("--jobs", type=int, default=1, help="processes per side")
    args = parser.parse_args()
    files = [str(Path(f).resolve()) for f in args.files]
    chunks = [files[i::args.jobs] for i in range(args.jobs)]
    with tempfile.TemporaryDirectory() as tmp:
        before_code = export(args.ref, Path(tmp))
        with ProcessPoolExecutor(args.jobs) as pool:
            before = {k: v for part in pool.map(cut, [before_code] * len(chunks), chunks)
                      for k, v in part.items()}
            after = {k: v for part in pool.map(cut, [ROOT] * len(chunks), chunks)
                     for k, v in part.items()}
    changed = [f for f in files if before[f] != after[f]]
    for f in changed:
        old, new = before[f], after[f]
        sizes = "error" if isinstance(old, dict) or isinstance(new, dict) else \
            f"{len(old)} -> {len(new)} clauses"
        print(f"changed: {Path(f).name} ({sizes})")
    print(f"{len(changed)} of {len(files)} documents cut differently from {args.ref}")


if __name__ == "__main__":
    main()
