"""The commands a user types, against a real PostgreSQL: concurrent ingests, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
FILES = [DATA / "cuad_bloom_definitions.txt", DATA / "cuad_king_schedules.txt",
         DATA / "maud_capstead_article_vi.txt"]


def _cli(*args: str, index: str, **popen) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), CLAUSEGRAPH_INDEX=index)
    return subprocess.Popen([sys.executable, "-m", "clausegraph.cli", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def _run(*args: str, index: str) -> subprocess.CompletedProcess:
    process = _cli(*args, index=index)
    out, err = process.communicate(timeout=600)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.slow
def test_two_ingest_commands_at_once_store_every_document_once(pg_url):
    first = _cli("ingest", "--json", *map(str, FILES), index=pg_url)
    second = _cli("ingest", "--json", *map(str, reversed(FILES)), index=pg_url)
    results = [p.communicate(timeout=900) for p in (first, second)]
    assert first.returncode == 0 and second.returncode == 0, results
    stats = _run("stats", "--json", index=pg_url)
    assert stats.returncode == 0, stats.stderr
    data = json.loads(stats.stdout)
    assert sorted(Path(d["source_path"]).name for d in data["documents"]) == sorted(
        f.name for f in FILES)
    from clausegraph.store.postgres.store import PostgresIndex

    counts = PostgresIndex(pg_url).counts()
    assert counts["documents"] == 3 and counts["clauses"] == data["clauses"]
    # a third run finds nothing to do
    again = _run("ingest", "--json", *map(str, FILES), index=pg_url)
    assert [o["status"] for o in json.loads(again.stdout)] == ["unchanged"] * 3


@pytest.mark.parametrize("problem", ["refused", "password"])
def test_connection_problems_are_one_line_naming_the_server(pg_server, problem):
    from clausegraph.store.postgres.embedded import free_port

    if problem == "refused":
        url, expected = f"postgresql://u:p@127.0.0.1:{free_port()}/db", "connection refused"
    else:
        url = pg_server.url(password="wrong")
        expected = "password authentication failed for user clausegraph"
    done = _run("stats", index=url)
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and expected in lines[0] and "127.0.0.1" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and "wrong" not in lines[0].replace(expected, "")
