"""The harness both modes share: which runs to make (variants), one strategy object per
run, timed retrieval calls, memory sampling, progress bars and the --dump file."""

from __future__ import annotations

import itertools
import json
import resource
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from clausegraph.api import ClauseGraph
from clausegraph.config import Settings
from clausegraph.eval.models import ORACLE, Hit, Variant
from clausegraph.models import RelationType
from clausegraph.strategies.base import Strategy
from clausegraph.strategies.factory import causal_grid, create_strategy, strategy_names

DEFAULT_GRID: dict[str, list[float]] = {
    "alpha": [0.5, 0.7, 0.9],
    "beta": [0.0, 0.1, 0.2],
    "gamma": [0.0, 0.2, 0.4],
}


def default_variants(strategies: Sequence[str] | None = None) -> list[Variant]:
    return [Variant(strategy=s) for s in (strategies or strategy_names())]


def grid_variants(
    grid: dict[str, Sequence[float]] | None = None, strategy: str = "clausegraph"
) -> list[Variant]:
    """One clausegraph variant per combination of the grid's alpha/beta/gamma values."""
    grid = grid or DEFAULT_GRID
    names = list(grid)
    variants = []
    for values in itertools.product(*(grid[n] for n in names)):
        overrides = dict(zip(names, values))
        label = ",".join(f"{n}={v:g}" for n, v in overrides.items())
        variants.append(Variant(strategy=strategy, name=f"grid:{label}", overrides=overrides))
    return variants


def edge_type_variants(
    settings: Settings | None = None, strategy: str = "clausegraph"
) -> list[Variant]:
    """The clausegraph strategy expanding over one edge type at a time."""
    hops = max(1, (settings or Settings()).retrieval.hops)
    return [
        Variant(
            strategy=strategy,
            name=f"edges:{t.value}",
            overrides={"edge_types": [t.value], "hops": hops},
        )
        for t in RelationType
    ]


def parse_grid(spec: str) -> dict[str, list[float]]:
    """``"alpha=0.5,0.7;beta=0,0.1"`` -> ``{"alpha": [0.5, 0.7], "beta": [0.0, 0.1]}``."""
    grid: dict[str, list[float]] = {}
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        name, _, values = part.partition("=")
        if not values:
            raise ValueError(f"grid part {part!r} is not name=v1,v2,...")
        grid[name.strip()] = [float(v) for v in values.split(",") if v.strip()]
    return grid


def causal_grid_variants(values: Sequence[int] = range(1, 6)) -> list[Variant]:
    """CausalRAG's parameter study: ``causal-k{k}-s{s}`` for every k and s in ``values``."""
    return [Variant(strategy=name) for name in causal_grid(values, values)]


def console_for(console: Any = None) -> Console:
    return console or Console(stderr=True)


def progress_bar(enabled: bool, console: Any) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not enabled,
        transient=False,
    )


def rss_mb() -> float:
    try:
        import psutil  # optional: without it memory is not sampled

        return psutil.Process().memory_info().rss / 2**20
    except Exception:  # noqa: BLE001 - psutil missing or unsupported: skip sampling
        return 0.0


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024.0


def index_location(index: str | Path) -> str | Path:
    """An index folder as a Path; a database URL as is (a Path would mangle its '//')."""
    from clausegraph.store import is_url

    return str(index) if is_url(index) else Path(index)


def open_graph(index_dir: str | Path, settings: Settings) -> ClauseGraph:
    return ClauseGraph.open(index_dir, settings, create=True)


def check_strategies(variants: Sequence[Variant], settings: Settings | None = None) -> None:
    """Fail before indexing if a strategy is unknown or cannot be made (e.g. a missing file)."""
    strategy_settings = (settings or Settings()).strategies
    for name in sorted({v.strategy for v in variants} - {ORACLE}):
        create_strategy(name, strategy_settings)  # ValueError naming the problem


class Harness:
    """Runs variants against one graph: a strategy object per variant (strategies keep no
    per-query state, so one serves every query), timed calls, the retrieval-time memory
    peak and the --dump lines."""

    def __init__(self, graph: ClauseGraph, key_of: dict[str, str], dump_file: TextIO | None,
                 strategy_params: dict[str, dict[str, Any]] | None = None) -> None:
        self.graph = graph
        self.key_of = key_of
        self.dump_file = dump_file
        self.strategy_params = strategy_params or {}
        self.retrieval_peak = rss_mb()

    def strategy(self, variant: Variant) -> Strategy | None:
        """The variant's strategy (None for the oracle)."""
        if variant.strategy == ORACLE:
            return None
        params = self.strategy_params.get(variant.strategy, {})
        return self.graph.make_strategy(variant.strategy, **params)

    def retrieve(self, strategy: Strategy, variant: Variant, query: str, top_k: int,
                 documents: list[str] | None = None) -> list[Hit]:
        results = self.graph.retrieve(query, documents=documents, strategy=strategy,
                                      top_k=top_k, **variant.overrides)
        return [
            Hit(self.key_of.get(r.clause.doc_id, r.clause.doc_id), r.clause.span[0],
                r.clause.span[1], float(r.score), r.clause.clause_id, r.clause.doc_id)
            for r in results[:top_k]
        ]

    def timed(self, latencies: list[float], fetch: Callable[[], list[Hit]]) -> list[Hit]:
        """``fetch()``, its wall time appended to ``latencies``, memory sampled after it."""
        started = time.perf_counter()
        hits = fetch()
        latencies.append(time.perf_counter() - started)
        self.retrieval_peak = max(self.retrieval_peak, rss_mb())
        return hits

    def dump(self, variant: Variant, query: str, hits: list[Hit], **extra: Any) -> None:
        """One --dump JSONL line: the query, the strategy, its ranking and ``extra``."""
        if self.dump_file is None:
            return
        record: dict[str, Any] = {"query": query, "strategy": variant.strategy,
                                  "results": [h.as_json() for h in hits], **extra}
        if variant.name != "default":
            record["variant"] = variant.name
        self.dump_file.write(json.dumps(record, ensure_ascii=False) + "\n")
