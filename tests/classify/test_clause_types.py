"""The clause-type model: its features, its shipped weights on real CUAD clauses, fitting,
and clause types through ingest, storage, ``show`` and ``reembed``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from clausegraph.api import ClauseGraph
from clausegraph.classify import (
    CUAD_CATEGORIES,
    STORED_TYPE_FLOOR,
    ClauseTypeModel,
    clause_types_from,
    load_clause_type_model,
    model_id,
)
from clausegraph.classify.features import hashed_terms, tfidf_rows
from clausegraph.cli import app
from tests.conftest import TEST_DATA

# A CUAD dev contract (not in the training split): its clauses are typed by a model that
# never saw them.
SPONSORSHIP = (TEST_DATA / "legalbench_sample" / "corpus" / "cuad"
               / "CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt")
GOVERNING_LAW = ("11. Governing Law. This Agreement shall be governed by and construed in "
                 "accordance with the laws of the State of Texas")


def test_categories_are_cuads_41_in_label_file_order() -> None:
    assert len(CUAD_CATEGORIES) == 41 == len(set(CUAD_CATEGORIES))
    assert CUAD_CATEGORIES[:3] == ("Document Name", "Parties", "Agreement Date")
    assert CUAD_CATEGORIES[-1] == "Third Party Beneficiary"
    assert load_clause_type_model().categories == list(CUAD_CATEGORIES)


def test_hashed_features_need_no_vocabulary_and_do_not_depend_on_the_process() -> None:
    # Python's str hash changes per process; the buckets must not (no vocabulary is shipped)
    probe = ("from clausegraph.classify.features import hashed_terms; "
             f"print(sorted(hashed_terms({GOVERNING_LAW!r}, 4096).items()))")
    runs = {subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(Path.cwd())},
                           check=True).stdout for seed in ("1", "2")}
    assert runs == {f"{sorted(hashed_terms(GOVERNING_LAW, 4096).items())}\n"}
    # bigrams keep word order: the same words in another order share only the unigrams
    assert hashed_terms("governed by the laws", 4096) != hashed_terms("laws governed by the", 4096)
    idf = np.ones(4096, dtype=np.float32)
    (ids, values), = tfidf_rows([GOVERNING_LAW], idf)
    assert len(ids) == len(set(ids.tolist())) and np.isclose(np.linalg.norm(values), 1.0)


def test_stored_types_are_those_above_the_floor_most_probable_first() -> None:
    row = np.zeros(41, dtype=np.float32)
    row[[7, 18, 0]] = [0.35, 0.9, STORED_TYPE_FLOOR / 2]
    (types,) = clause_types_from(row[None, :])
    assert [(t.label, t.probability) for t in types] == [("Anti-Assignment", 0.9),
                                                         ("Governing Law", 0.35)]


def test_fit_learns_categories_from_real_clause_wording(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    texts = [  # real CUAD wordings (tests/data and the shipped sample contracts)
        "This Agreement shall be governed by the laws of the State of Texas.",
        "This Agreement shall be governed by and construed under the laws of New York.",
        "The laws of the State of Delaware govern this Agreement.",
        "Neither party may assign this Agreement without the prior written consent of the other.",
        "This Agreement may not be assigned by either party without written consent.",
        "Any attempted assignment without such consent shall be void.",
        "The Company shall produce the Program for broadcast each week.",
        "Sponsor shall pay the fees within thirty days of invoice.",
    ]
    labels = np.zeros((len(texts), 41), dtype=np.int8)
    labels[:3, CUAD_CATEGORIES.index("Governing Law")] = 1
    labels[3:6, CUAD_CATEGORIES.index("Anti-Assignment")] = 1
    model = ClauseTypeModel(features="lexical", buckets=2**12).fit(
        texts, np.zeros((len(texts), 384), np.float32), labels)
    held_out = ["This Agreement is governed by the laws of California.",
                "Licensee may not assign this Agreement without consent."]
    scores = model.predict_proba(held_out, np.zeros((2, 384), np.float32))
    law, assign = CUAD_CATEGORIES.index("Governing Law"), CUAD_CATEGORIES.index("Anti-Assignment")
    assert scores[0, law] > scores[0, assign] and scores[1, assign] > scores[1, law]
    model.save(tmp_path / "m.npz")
    again = ClauseTypeModel.load(tmp_path / "m.npz")
    assert np.allclose(again.predict_proba(held_out, np.zeros((2, 384), np.float32)), scores,
                       atol=1e-3)  # float16 weights in the file


def test_a_file_that_is_not_a_model_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "weights.npz"
    np.savez(bad, something=np.zeros(3))
    with pytest.raises(ValueError, match="weights.npz: not a clause-type model"):
        ClauseTypeModel.load(bad)


@pytest.fixture(scope="module")
def sponsorship(tmp_path_factory: pytest.TempPathFactory) -> ClauseGraph:
    """An index of the CUAD dev excerpt (real segmenter, encoder and clause-type model)."""
    folder = tmp_path_factory.mktemp("types")
    source = folder / "sponsorship.txt"
    shutil.copy(SPONSORSHIP, source)
    graph = ClauseGraph.open(folder / "index", create=True)
    assert not graph.ingest([source]).failed
    return graph


def _clause_starting(graph: ClauseGraph, prefix: str):
    return next(c for d in graph.index.clauses.document_ids()
                for c in graph.index.clauses.document_clauses(d) if c.text.startswith(prefix))


@pytest.mark.slow
def test_ingest_types_a_governing_law_clause_as_governing_law(sponsorship: ClauseGraph) -> None:
    clause = _clause_starting(sponsorship, "11. Governing Law")
    assert clause.clause_types and clause.clause_types[0].label == "Governing Law"
    probabilities = [t.probability for t in clause.clause_types]
    assert probabilities == sorted(probabilities, reverse=True)
    assert min(probabilities) >= STORED_TYPE_FLOOR
    force_majeure = _clause_starting(sponsorship, "10. Force Majeure")
    assert "Governing Law" not in [t.label for t in force_majeure.clause_types]
    assert {e.clause_types for e in sponsorship.index.entries().values()} == {model_id()}


@pytest.mark.slow
def test_show_prints_the_types_and_ask_json_carries_them(sponsorship: ClauseGraph) -> None:
    runner = CliRunner()
    root = str(sponsorship.store.root)
    clause = _clause_starting(sponsorship, "11. Governing Law")
    shown = runner.invoke(app, ["show", clause.clause_id, "--index", root])
    assert shown.exit_code == 0, shown.output
    top = clause.clause_types[0]
    assert f"types: Governing Law {top.probability:.2f}" in shown.stdout
    asked = runner.invoke(app, ["ask", "Which state's law governs the agreement?",
                                "--index", root, "--json"])
    evidence = {e["clause_id"]: e for e in json.loads(asked.stdout)["evidence"]}
    assert evidence[clause.clause_id]["clause_types"][0]["label"] == "Governing Law"


@pytest.mark.slow
def test_an_old_index_says_so_and_reembed_types_it(sponsorship: ClauseGraph,
                                                   tmp_path: Path) -> None:
    old = tmp_path / "old-index"
    shutil.copytree(sponsorship.store.root, old)
    # as written before clause types: no clause_types in the clause files or the manifest
    for clauses_file in old.glob("docs/*/clauses.json"):
        raw = json.loads(clauses_file.read_text(encoding="utf-8"))
        clauses_file.write_text(json.dumps([{k: v for k, v in c.items() if k != "clause_types"}
                                            for c in raw]), encoding="utf-8")
    manifest = json.loads((old / "clausegraph-index.json").read_text(encoding="utf-8"))
    for entry in manifest["documents"].values():
        del entry["clause_types"]
    (old / "clausegraph-index.json").write_text(json.dumps(manifest), encoding="utf-8")
    clause = _clause_starting(sponsorship, "11. Governing Law")

    graph = ClauseGraph.open(old)
    assert graph.index.clauses.clause(clause.clause_id).clause_types == []
    with pytest.raises(Exception, match="no clause types.*clausegraph reembed --index"):
        graph.check_clause_types()
    shown = CliRunner().invoke(app, ["show", clause.clause_id, "--index", str(old)])
    assert "clause types not computed for this document" in shown.stdout

    assert graph.reembed() == sponsorship.index.clauses.count()
    graph = ClauseGraph.open(old)
    graph.check_clause_types()
    assert graph.index.clauses.clause(clause.clause_id).clause_types == clause.clause_types
