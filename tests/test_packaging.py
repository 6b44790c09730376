"""A built wheel carries rules/, prompts/ and the demo documents inside the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_build_copies_resources_into_the_package(tmp_path):
    pytest.importorskip("setuptools")
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = tmp_path / "clausegraph" / "_data"
    for name in ("rules", "prompts", "docs/dataset"):
        shipped = sorted(p.relative_to(REPO / name) for p in (REPO / name).rglob("*")
                         if p.is_file() and "__pycache__" not in p.parts)
        copied = sorted(p.relative_to(data / name) for p in (data / name).rglob("*") if p.is_file())
        assert shipped and copied == shipped, name
    weights = data / "docs" / "lesegr_weights.json"  # lesegr-fitted's default weights
    assert weights.read_bytes() == (REPO / "docs" / "lesegr_weights.json").read_bytes()
    web = tmp_path / "clausegraph" / "web"  # the web app's pages and scripts (package data)
    assert (web / "templates" / "ask.html").is_file() and (web / "static" / "ask.js").is_file()
    calibration = "embed/data/all-MiniLM-L6-v2-smoothquant.npz"  # embedding.quantize=int8
    assert (tmp_path / "clausegraph" / calibration).read_bytes() == \
        (REPO / "clausegraph" / calibration).read_bytes()
    # the learned parts' weights: clause types, the review's span ranker, its novelty stage
    # and its presence threshold, the answer gates (for typed questions and not)
    for learned in ("classify/data/clause_types.npz", "review/data/span_ranker.npz",
                    "review/data/span_novelty.npz", "review/data/type_presence.json", "answer/data/answer_gate.json",
                    "answer/data/answer_gate_untyped.json"):
        assert (tmp_path / "clausegraph" / learned).read_bytes() == \
            (REPO / "clausegraph" / learned).read_bytes(), learned
    # The package finds them there (it prefers _data/ over a checkout beside it).
    probe = ("import clausegraph.config as c; "
             "print(c.RULES_DIR); print(c.PROMPTS_DIR); print(c.DATASET_DIR); "
             "print(c.StrategySettings().lesegr_weights)")
    found = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                           text=True, timeout=120, env={"PYTHONPATH": str(tmp_path)})
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == [str(data / "rules"), str(data / "prompts"),
                                    str(data / "docs" / "dataset"), str(weights)]
