"""The evaluation index: a cache key that changes with the pipeline, and a timed build."""

from __future__ import annotations

import hashlib
import inspect
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from clausegraph import api
from clausegraph.config import PACKAGE_DIR, RULES_DIR, Settings
from clausegraph.eval.models import IndexingStats
from clausegraph.ingest import document_id

DEFAULT_CACHE_DIR = Path(".cache")


BUILD_RECORD = ".eval-build.json"


# Sources whose changes change what an index contains: part of the cache key, so a cached
# index is never silently reused after the segmenter, relation rules or embedder change.
# From api.py only the functions that build a document's artifacts count (api.py changes for
# many other reasons).
_PIPELINE_SOURCES = (
    "ingest",
    "segment",
    "relate",
    "entities.py",
    "text",
    "embed",
    "store",
    "models",
)


_API_BUILD_FUNCTIONS = ("build_artifacts", "_embedding_text", "_manifest_entry")


def pipeline_fingerprint() -> str:
    """Hash of the sources and rule files that determine an index's contents."""
    digest = hashlib.sha256()
    digest.update(_api_build_source().encode())
    for name in _PIPELINE_SOURCES:
        root = PACKAGE_DIR / name
        paths = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for path in (p for p in paths if p.is_file()):
            relative = str(path.relative_to(PACKAGE_DIR))
            digest.update(relative.encode() + b"\0" + path.read_bytes())
    if RULES_DIR.is_dir():
        for path in sorted(p for p in RULES_DIR.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(RULES_DIR)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _api_build_source() -> str:
    try:
        parts = []
        for name in _API_BUILD_FUNCTIONS:
            obj = getattr(api.ClauseGraph, name, None) or getattr(api, name, None)
            parts.append(inspect.getsource(obj) if obj is not None else f"<no {name}>")
        return "\n".join(parts)
    except (OSError, TypeError):  # no source (a frozen install): hash the whole file
        path = PACKAGE_DIR / "api.py"
        return path.read_text(encoding="utf-8") if path.is_file() else ""


def index_cache_dir(
    files: Iterable[str | Path], settings: Settings, cache_dir: str | Path = DEFAULT_CACHE_DIR
) -> Path:
    """``<cache_dir>/eval-index-<hash>``, the hash of the sorted file list, the segment and
    embedding settings and :func:`pipeline_fingerprint` (documents inside the index are
    content-addressed, so a changed file is re-ingested; an unchanged one is not)."""
    payload = {
        "files": sorted(str(Path(f).resolve()) for f in files),
        "segment": settings.segment.model_dump(mode="json"),
        "entities": settings.entities.model_dump(mode="json"),
        "embedding": settings.embedding.model_dump(mode="json"),
        "pipeline": pipeline_fingerprint(),
    }
    key = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]
    return Path(cache_dir) / f"eval-index-{key}"


@contextmanager
def _timed_encode(embedder: Any, sink: Callable[[float], None]) -> Iterator[None]:
    """Time every ``embedder.encode`` call (an instance attribute shadows the method)."""
    original = embedder.encode

    def encode(texts: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(texts)
        finally:
            sink(time.perf_counter() - started)

    embedder.encode = encode
    try:
        yield
    finally:
        try:
            del embedder.encode
        except AttributeError:
            embedder.encode = original


def build_index(
    graph: Any,
    files: Sequence[Path],
    *,
    batch_size: int = 8,
    progress: Any = None,
) -> IndexingStats:
    """Ingest ``files`` into ``graph`` (unchanged documents are skipped) and measure it.

    Files are committed in batches of ``batch_size`` so an interrupted build keeps its
    progress. Per-document build time and embedding time are recorded next to the index
    (``.eval-build.json``) so a cache hit can still report how long the build took.
    """
    started = time.perf_counter()
    embedder = graph.embedder  # load the model outside the timed region
    model_load = time.perf_counter() - started
    root = graph.store.cache_dir()  # None for a database: the record is then not kept
    record_path = Path(root) / BUILD_RECORD if root is not None else None
    record: dict[str, dict[str, float]] = {}
    if record_path is not None and record_path.is_file():
        try:
            record = json.loads(record_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            record = {}
    embed_by_file: dict[str, float] = {}
    current: list[str] = [""]

    def sink(seconds: float) -> None:
        embed_by_file[current[0]] = embed_by_file.get(current[0], 0.0) + seconds

    task = progress.add_task("indexing", total=len(files)) if progress is not None else None
    failed: list[str] = []
    ingested_now = 0
    wall_started = time.perf_counter()
    with _timed_encode(embedder, sink):
        for offset in range(0, len(files), batch_size):
            batch = list(files[offset : offset + batch_size])

            def report(name: str, done: int, total: int, offset: int = offset) -> None:
                current[0] = name  # ingest reports each file by name before building it
                if task is not None:
                    progress.update(
                        task,
                        completed=offset + done,
                        description=f"indexing {name}"[:50] if name else "indexing",
                    )

            result = graph.ingest(batch, progress=report)
            for outcome in result.outcomes:
                if outcome.status == "failed":
                    failed.append(f"{outcome.path}: {outcome.error}")
                elif outcome.status in ("ingested", "replaced") and outcome.doc_id:
                    ingested_now += 1
                    record[outcome.doc_id] = {
                        "seconds": outcome.seconds,
                        "embed_seconds": embed_by_file.get(Path(outcome.path).name, 0.0),
                    }
            if ingested_now and record_path is not None:
                record_path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    wall = time.perf_counter() - wall_started
    if task is not None:
        progress.update(task, completed=len(files), description="indexing done")
    return _indexing_stats(graph, record, ingested_now, failed, wall, model_load)


def _indexing_stats(
    graph: Any,
    record: dict[str, dict[str, float]],
    ingested_now: int,
    failed: list[str],
    wall: float,
    model_load: float,
) -> IndexingStats:
    documents = ({k: e.model_dump() for k, e in graph.store.entries().items()}
                 if graph.store.exists() else {})
    stats = IndexingStats(
        index_dir=graph.store.location,
        documents=len(documents),
        clauses=sum(int(e.get("clauses", 0)) for e in documents.values()),
        chars=sum(int(e.get("chars", 0)) for e in documents.values()),
        ingested_now=ingested_now,
        failed=failed,
        wall_seconds=round(wall, 3),
        model_load_seconds=round(model_load, 3),
    )
    if documents and all(doc_id in record for doc_id in documents):
        build = sum(record[d]["seconds"] for d in documents)
        embed = sum(record[d]["embed_seconds"] for d in documents)
        stats.build_seconds, stats.embed_seconds = build, embed
        stats.embed_share = embed / build if build else None
        stats.source = "measured" if ingested_now == len(documents) else "recorded"
    elif documents:
        stats.build_seconds = sum(float(e.get("ingest_seconds", 0.0)) for e in documents.values())
        stats.source = "manifest"
    if stats.build_seconds:
        stats.chars_per_second = stats.chars / stats.build_seconds
    return stats


def content_ids(files: Iterable[tuple[str, Path]]) -> dict[str, str]:
    """doc id (sha256 of the bytes, as the index computes it) -> file key."""

    return {document_id(path.read_bytes()): key for key, path in files}
