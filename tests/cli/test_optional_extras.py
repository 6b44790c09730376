"""The default install leaves out SciPy, FAISS, networkx, matplotlib and the LLM clients: the
main job runs without them, and a feature that needs one stops with one line naming the
extra that installs it.

Each test runs the real CLI in a fresh interpreter where those packages cannot be imported
(``sys.modules[name] = None`` is how Python marks a module as not importable), which is
what a venv without them gives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TEST_DATA = Path(__file__).resolve().parents[1] / "data"
REPO = Path(__file__).resolve().parents[2]
OPTIONAL = ("scipy", "faiss", "networkx", "matplotlib", "openai", "google")

WITHOUT = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
from clausegraph.cli import app
app(sys.argv[2:])
"""


def run_without(missing: tuple[str, ...], *arguments: str,
                **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT, ",".join(missing), *arguments],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
                          env=dict(os.environ, COLUMNS="200", **env))


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An index ingested without any of the optional packages."""
    root = str(tmp_path_factory.mktemp("extras") / "index")
    ingest = run_without(OPTIONAL, "ingest", str(TEST_DATA / "cuad_ofg_conversion_services.txt"),
                         "--index", root)
    assert ingest.returncode == 0, ingest.stderr[-800:]
    return root


def test_ingest_and_ask_need_none_of_the_optional_packages(index: str) -> None:
    asked = run_without(OPTIONAL, "ask", "What does Conversion Services mean?",
                        "--index", index, "--json")
    assert asked.returncode == 0, asked.stderr[-800:]
    answer = json.loads(asked.stdout)
    assert answer["evidence"] and answer["mode"] == "extractive"


def _one_line_error(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.stdout[-300:], done.stderr[-800:])
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_provider_without_its_client_library_names_the_llm_extra(index: str) -> None:
    gemini = _one_line_error(run_without(OPTIONAL, "ask", "What is the term?", "--index", index,
                                         "--llm", "gemini", GEMINI_API_KEY="not-used"))
    assert gemini.startswith("error: gemini: the google-genai package is not installed")
    assert "install clausegraph[llm]" in gemini
    openai = _one_line_error(run_without(OPTIONAL, "ask", "What is the term?", "--index", index,
                                         "--llm", "openai", "--base-url",
                                         "http://127.0.0.1:9/v1"))
    assert openai.startswith("error: openai: the openai package is not installed")
    assert "install clausegraph[llm]" in openai


def test_evaluate_without_matplotlib_stops_before_running(tmp_path: Path) -> None:
    line = _one_line_error(run_without(("matplotlib",), "evaluate", "--limit", "1",
                                       "--out-dir", str(tmp_path / "run")))
    assert "install clausegraph[plots]" in line and "--no-plots" in line
    assert not (tmp_path / "run").exists()  # nothing was run or written
