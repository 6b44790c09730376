"""Offline questions answered in worker processes, so that questions use every core.

An offline answer is ~30 ms of CPU, most of it Python (retrieval, sentence scoring,
grouping) holding the interpreter lock: on threads, eight simultaneous questions are
answered one at a time. Each worker process opens the index read-only with its own model
and answers whole questions; the server process keeps HTTP, uploads, ingest and history.

A worker reopens a workspace's index when the server says it changed (a version number
that the server raises after each ingest or removal), so answers never come from an index
older than the one the server process reads. Answers that call a language model stay on
the server's threads: they wait on the network, and their streamed text cannot cross a
process boundary.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from clausegraph.errors import ClauseGraphError

if TYPE_CHECKING:
    from clausegraph.api import ClauseGraph
    from clausegraph.config import Settings
    from clausegraph.models import Answer

# Per worker process: each workspace's graph (by index location) and the version it was
# opened at.
_GRAPHS: dict[str, tuple[int, ClauseGraph]] = {}
_SETTINGS: Settings | None = None
PARENT_CHECK_SECONDS = 1.0


def default_workers() -> int:
    """One worker per core (at most 4: memory grows with each copy of the index)."""
    return max(1, min(4, os.cpu_count() or 1))


def _start_worker(settings: Settings) -> None:
    """Each process gets one core's worth of threads: the parallelism is the processes'."""
    global _SETTINGS
    _SETTINGS = settings
    os.environ["CLAUSEGRAPH_THREADS"] = "1"  # ONNX Runtime intra-op threads (embed/onnx.py)
    single_threaded_blas()
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True,
                     name="parent-watch").start()


def _exit_with_parent(parent: int) -> None:
    """A worker outlives a server that was killed (SIGKILL, a crash): it then belongs to
    another parent, and leaves instead of holding its memory forever."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def single_threaded_blas() -> None:
    """One BLAS thread. A question's matrix products are small (one query vector against
    the clause matrix); OpenBLAS's worker threads only spin next to them, which doubled a
    question's CPU time here (65 ms instead of 34 ms; docs/web.md)."""
    import numpy  # noqa: F401 - loads OpenBLAS, so that there is a pool to limit
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def _graph(location: str, version: int) -> ClauseGraph:
    from clausegraph.api import ClauseGraph

    held = _GRAPHS.get(location)
    if held is None or held[0] != version:
        graph = ClauseGraph.open(location, _SETTINGS)
        if _GRAPHS:  # one embedding model for every workspace of this process
            graph._embedder = next(iter(_GRAPHS.values()))[1].embedder
        _GRAPHS[location] = (version, graph)
    return _GRAPHS[location][1]


def _ask(location: str, version: int, question: str, documents: list[str] | None,
         options: dict[str, Any]) -> Answer:
    try:
        return _graph(location, version).ask(question, documents=documents, llm="none",
                                             **options)
    except ClauseGraphError as exc:
        raise _portable(exc) from None


def _portable(exc: ClauseGraphError) -> ClauseGraphError:
    """The error as the server process can rebuild it: errors whose constructor takes more
    than the message (an index path and a problem) travel as their message alone."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any failure to rebuild means: send the message
        return ClauseGraphError(str(exc))


def _warm(location: str, version: int) -> int:
    _graph(location, version).ask("warm up", llm="none")
    return os.getpid()


class AskPool:
    """``workers`` processes answering offline questions against index locations."""

    def __init__(self, settings: Settings, workers: int) -> None:
        self.settings = settings
        self.workers = workers
        self._executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: the server process runs threads (ingest, uvicorn), and a forked
        # child would inherit their locks in whatever state they were
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(self.settings,))

    def ask(self, location: str, version: int, question: str,
            documents: list[str] | None = None, **options: Any) -> Answer:
        """The offline answer from a worker. A worker that died (killed, out of memory)
        breaks the pool: it is started anew and :class:`BrokenProcessPool` raised, for the
        caller to answer this question itself."""
        try:
            return self._executor.submit(_ask, location, version, question, documents,
                                         options).result()
        except BrokenProcessPool:
            self._restart()
            raise

    def warm(self, location: str, version: int) -> set[int]:
        """Start every worker and load the index in each; the workers' process ids. A pool
        a dead worker broke is started anew first (the executor notices a killed worker
        only after a while: a question may be answered by the others in between)."""
        try:
            return self._warm(location, version)
        except BrokenProcessPool:
            self._restart()
            return self._warm(location, version)

    def _warm(self, location: str, version: int) -> set[int]:
        futures = [self._executor.submit(_warm, location, version)
                   for _ in range(self.workers * 2)]
        return {future.result() for future in futures}

    def _restart(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._start()

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
