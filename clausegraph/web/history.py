"""Each browser session's questions and answers, kept on disk so they outlive the server.

A session's history is one file, ``<uploads>/.history/<sha256 of the session>.json`` (the
cookie itself is never written: a file name would hand it to anyone who can list the
folder), holding its newest ``per_session`` entries with their whole answers, so that a
History link, a reload or Back/Forward after a restart shows the stored answer without
asking again. Files are read when a session first needs them, written atomically (a stop
mid-write leaves the previous file), and at most ``sessions`` of them are kept: the least
recently written go first. A full session's file is about 1.5 MB (50 answers with their
evidence), rewritten on each question. A file that cannot be read (cut short, or from a
version whose answers no longer validate) is skipped with a warning in the log; the
session starts afresh and the next question overwrites it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path

from pydantic import BaseModel, ValidationError

from clausegraph.models import Answer

log = logging.getLogger("clausegraph.web")
HISTORY_FOLDER = ".history"
# sessions held in memory as well (a full one is about 1.5 MB of answers); the rest are
# read from their files again when asked for
CACHED_SESSIONS = 32


class HistoryEntry(BaseModel):
    id: str
    question: str
    asked_at: str
    documents: list[str] | None = None
    seconds: float
    answer: Answer


class HistoryStore:
    """The question history of one workspace's sessions (newest entry first)."""

    def __init__(self, uploads: Path, per_session: int, sessions: int) -> None:
        self.folder = uploads / HISTORY_FOLDER
        self.per_session = per_session
        self.sessions = sessions
        self._lock = threading.Lock()
        # file stem -> entries, for the sessions read or written since the start
        self._loaded: OrderedDict[str, list[HistoryEntry]] = OrderedDict()

    def add(self, session: str, entry: HistoryEntry) -> None:
        stem = _stem(session)
        with self._lock:
            entries = [entry, *self._entries(stem)][:self.per_session]
            self._loaded[stem] = entries
            try:
                self._write(stem, entries)
            except OSError as exc:  # the answer is still shown; only a restart loses it
                log.warning("could not store the question history %s: %s", stem[:12], exc)

    def entries(self, session: str) -> list[HistoryEntry]:
        with self._lock:
            return list(self._entries(_stem(session)))

    def entry(self, session: str, entry_id: str) -> HistoryEntry | None:
        return next((e for e in self.entries(session) if e.id == entry_id), None)

    def _entries(self, stem: str) -> list[HistoryEntry]:
        if stem not in self._loaded:
            self._loaded[stem] = self._read(self.folder / f"{stem}.json")
        self._loaded.move_to_end(stem)
        while len(self._loaded) > CACHED_SESSIONS:
            self._loaded.popitem(last=False)
        return self._loaded[stem]

    def _read(self, path: Path) -> list[HistoryEntry]:
        if not path.is_file():
            return []
        try:
            records = json.loads(path.read_text(encoding="utf-8"))["entries"]
            return [HistoryEntry.model_validate(record) for record in records]
        except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
            log.warning("skipping the unreadable question history %s: %s", path.name,
                        str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            return []

    def _write(self, stem: str, entries: list[HistoryEntry]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.folder / f"{stem}.json"
        new = not target.exists()
        partial = target.with_suffix(".json.part")
        data = {"entries": [entry.model_dump(mode="json") for entry in entries]}
        partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(partial, target)
        if new:
            self._prune()

    def _prune(self) -> None:
        """Keep the ``sessions`` most recently written files (and forget the others), and
        no half-written file of a server stopped mid-write."""
        paths = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for stale in paths[:-self.sessions]:
            stale.unlink(missing_ok=True)
            self._loaded.pop(stale.stem, None)
        for partial in self.folder.glob("*.part"):
            partial.unlink(missing_ok=True)


def _stem(session: str) -> str:
    return hashlib.sha256(session.encode("utf-8")).hexdigest()[:32]
