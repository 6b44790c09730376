"""LeSeGR's fit on LegalBench-RAG: a labelled split of the queries, the clauses that
overlap their gold spans, and the grid search of :func:`clausegraph.strategies.lesegr.fit_weights`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from clausegraph.config import Settings
from clausegraph.eval.benchmark import BenchmarkQuery, sample_evenly
from clausegraph.eval.metric import overlaps
from clausegraph.strategies.lesegr import fit_weights


def split_for_fit(
    selected: dict[str, list[BenchmarkQuery]], fraction: float
) -> tuple[dict[str, list[BenchmarkQuery]], dict[str, list[BenchmarkQuery]]]:
    """(labelled, held-out): ``fraction`` of each dataset's queries, spread evenly, to fit on."""
    if not 0.0 < fraction < 1.0:
        raise ValueError(f"--fit-fraction must be between 0 and 1, got {fraction}")
    labelled, held_out = {}, {}
    for dataset, queries in selected.items():
        chosen = sample_evenly(queries, max(1, math.ceil(fraction * len(queries))))
        picked = {id(q) for q in chosen}
        labelled[dataset] = chosen
        held_out[dataset] = [q for q in queries if id(q) not in picked]
    return labelled, held_out


def relevant_clauses(graph: Any, query: BenchmarkQuery, doc_of: dict[str, str]) -> list[str]:
    """Ids of the clauses whose spans overlap a gold snippet of ``query`` (the fit's labels)."""
    index = graph.index
    found: list[str] = []
    for snippet in query.snippets:
        doc_id = doc_of.get(snippet.file_path)
        if doc_id is None or doc_id not in index.entries():
            continue
        for clause in index.clauses.document_clauses(doc_id):
            if overlaps(clause.span, snippet.span) and clause.clause_id not in found:
                found.append(clause.clause_id)
    return found


def fit_lesegr(
    graph: Any,
    labelled: dict[str, list[BenchmarkQuery]],
    key_of: dict[str, str],
    path: str | Path,
    settings: Settings,
) -> dict[str, Any]:
    """Fit LeSeGR's weights on the labelled queries and save them to ``path``."""
    doc_of = {key: doc_id for doc_id, key in key_of.items()}
    pairs = [
        (q.query, relevant_clauses(graph, q, doc_of)) for qs in labelled.values() for q in qs
    ]
    weights = fit_weights(graph, [p for p in pairs if p[1]], path=path, config=settings.retrieval)
    return {
        "path": str(path),
        "labelled_queries": {d: len(qs) for d, qs in labelled.items()},
        "weights": weights,
    }
