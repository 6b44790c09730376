"""Rebuild this sample from the LegalBench-RAG-mini data (developer tool, not a test).

    python tests/data/legalbench_sample/build_sample.py /path/to/legalbench-rag

Each document is cut to a window of whole lines around the gold spans of a few real
queries; the spans are shifted into the window and checked against the answer text.
The query text is kept verbatim. Licences: see tests/data/ATTRIBUTION.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# dataset -> (document, test positions in benchmarks/mini_<dataset>.json, window start, end)
PICKS = {
    "contractnli": ("contractnli/NDA-Seeed.txt", [38, 41], 0, 5000),
    "cuad": (
        "cuad/CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt",
        [20, 23],
        0,
        5000,
    ),
    "privacy_qa": ("privacy_qa/Keep.txt", [162, 158], 0, 4200),
    "maud": ("maud/Medallia_Inc_Thoma_Bravo_L_P.txt", [167, 165], 38400, 44000),
}


def main(source: Path) -> None:
    for dataset, (file_path, positions, want_start, want_end) in PICKS.items():
        text = (source / "corpus" / file_path).read_text(encoding="utf-8")
        start = text.rfind("\n", 0, want_start) + 1 if want_start else 0
        end = text.find("\n", want_end)
        end = len(text) if end < 0 else end + 1
        excerpt = text[start:end]
        tests = json.loads((source / "benchmarks" / f"mini_{dataset}.json").read_text())["tests"]
        out_tests = []
        for position in positions:
            test = tests[position]
            snippets = []
            for s in test["snippets"]:
                assert s["file_path"] == file_path, (dataset, position)
                a, b = s["span"][0] - start, s["span"][1] - start
                assert 0 <= a <= b <= len(excerpt), (dataset, position, s["span"])
                assert excerpt[a:b] == s["answer"]
                snippets.append({"file_path": file_path, "span": [a, b], "answer": s["answer"]})
            out_tests.append({"query": test["query"], "snippets": snippets})
        target = HERE / "corpus" / file_path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(excerpt, encoding="utf-8")
        note = (
            f"Sample of LegalBench-RAG-mini {dataset}: tests {positions}; the document is "
            f"characters {start}-{end} of {file_path}, spans shifted accordingly."
        )
        bench = HERE / "benchmarks" / f"sample_{dataset}.json"
        bench.parent.mkdir(parents=True, exist_ok=True)
        bench.write_text(
            json.dumps({"note": note, "tests": out_tests}, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        print(f"{dataset}: {len(excerpt)} chars, {len(out_tests)} queries")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
