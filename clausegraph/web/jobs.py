"""Uploads that outlive the server process: a journal of ingest jobs, and no orphaned files.

Each job is written to ``<uploads>/.jobs/<job_id>.json`` (its progress and the stored path
of each accepted file) when it is accepted, as each file starts, and when it ends. A
server stopped in the middle leaves the journal of an unfinished job; the next start
finds it and ingests its files again (ingest is idempotent: a document already committed
comes back ``unchanged``), so the page polling ``/jobs/{id}`` sees the job finish. A file
kept in the uploads folder is the original of an indexed document or belongs to a job not
yet finished; anything else (a failed file, a copy of a document already indexed from
elsewhere, a half-written ``.part``) is deleted after its job and swept at start; the
app's own records beside them (this journal, the question history, the saved document
sets) are never swept.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from clausegraph.web.history import HISTORY_FOLDER
from clausegraph.web.sets import SETS_FILE

log = logging.getLogger("clausegraph.web")
JOURNAL_FOLDER = ".jobs"
# the app's own records in the uploads folder: never an uploaded file to sweep
APP_RECORDS = frozenset({JOURNAL_FOLDER, HISTORY_FOLDER, SETS_FILE})


class JobJournal:
    """The job records of one workspace's uploads folder."""

    def __init__(self, uploads: Path, keep: int) -> None:
        self.folder = uploads / JOURNAL_FOLDER
        self.keep = keep

    def save(self, job: dict[str, Any], files: list[tuple[int, Path]]) -> None:
        """Write the job (atomically: a stop mid-write leaves the previous record)."""
        record = {"job": job, "files": [[position, str(path)] for position, path in files]}
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.folder / f"{job['job_id']}.json"
        partial = target.with_suffix(".json.part")
        partial.write_text(json.dumps(record), encoding="utf-8")
        os.replace(partial, target)

    def load(self) -> list[tuple[dict[str, Any], list[tuple[int, Path]]]]:
        """Every readable record, oldest first; the oldest beyond ``keep`` are deleted."""
        if not self.folder.is_dir():
            return []
        paths = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for stale in paths[:-self.keep] if len(paths) > self.keep else []:
            stale.unlink(missing_ok=True)
        records = []
        for path in paths[-self.keep:]:
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                files = [(int(position), Path(stored)) for position, stored in record["files"]]
                records.append((record["job"], files))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.warning("skipping the unreadable job record %s: %s", path.name, exc)
                path.unlink(missing_ok=True)
        for partial in self.folder.glob("*.part"):
            partial.unlink(missing_ok=True)
        return records


def delete_unused_uploads(uploads: Path, used: Iterable[str | Path],
                          candidates: Iterable[Path] | None = None) -> list[Path]:
    """Delete the stored uploads (``candidates``, or every file under ``uploads``) that no
    indexed document and no unfinished job uses; returns what was deleted."""
    keep = {os.path.realpath(path) for path in used}
    if candidates is None:
        if not uploads.is_dir():
            return []
        candidates = [p for p in uploads.rglob("*")
                      if p.is_file() and p.relative_to(uploads).parts[0] not in APP_RECORDS]
    deleted = []
    for path in candidates:
        if os.path.realpath(path) in keep or not path.is_file():
            continue
        path.unlink(missing_ok=True)
        deleted.append(path)
        folder = path.parent
        if folder != uploads and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return deleted
