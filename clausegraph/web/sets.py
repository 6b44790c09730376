"""Named document sets: a choice of documents saved under a name, per workspace.

Ask and Compare offer "pick documents, or a saved set". The sets are the workspace's, not
the browser's (a colleague with the same token sees them), so they live on the server in
``<uploads>/.sets.json``, written atomically. A name is a label, any Unicode up to
``MAX_NAME_CHARS``; names differ by more than case (saving "Q1 policies" over "q1
policies" replaces it). A set lists doc ids; a document removed from the index drops out
of its sets when they are listed (the file keeps the id, so nothing is written on a read).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import unicodedata
from collections.abc import Collection
from pathlib import Path

from pydantic import BaseModel

from clausegraph.errors import ClauseGraphError, NotFoundError

log = logging.getLogger("clausegraph.web")
SETS_FILE = ".sets.json"
MAX_NAME_CHARS = 80
MAX_SETS = 200


class DocumentSet(BaseModel):
    name: str
    documents: list[str]


class SetRejected(ClauseGraphError):
    """A set that cannot be saved; the message says why in words."""


def _normal(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split())


def clean_name(name: str) -> str:
    """The name as stored: NFC, whitespace runs as one space, trimmed; or ``SetRejected``."""
    text = _normal(name)
    if not text:
        raise SetRejected("The set name is empty: type one first.")
    if len(text) > MAX_NAME_CHARS:
        raise SetRejected(f"The set name is too long: at most {MAX_NAME_CHARS} characters.")
    if not text.isprintable():
        raise SetRejected("The set name holds an invisible or control character: "
                          "use letters, digits, spaces and punctuation.")
    return text


class DocumentSets:
    """The saved sets of one workspace's uploads folder."""

    def __init__(self, uploads: Path) -> None:
        self.path = uploads / SETS_FILE
        self._lock = threading.Lock()

    def list(self, known: Collection[str]) -> list[DocumentSet]:
        """Every set by name, with only the documents still in ``known``."""
        with self._lock:
            stored = self._read()
        return [DocumentSet(name=name, documents=[d for d in ids if d in known])
                for name, ids in sorted(stored.items(), key=lambda item: item[0].casefold())]

    def save(self, name: str, documents: list[str], known: Collection[str]) -> DocumentSet:
        name = clean_name(name)
        ids = list(dict.fromkeys(documents))
        if not ids:
            raise SetRejected("A set needs at least one document: tick some first.")
        unknown = [d for d in ids if d not in known]
        if unknown:
            raise SetRejected(f"No document {unknown[0]!r} in this workspace (it may have been "
                              "removed): choose the set's documents from the list again.")
        with self._lock:
            stored = self._read()
            same = _named(stored, name)
            if not same and len(stored) >= MAX_SETS:
                raise SetRejected(f"There are already {MAX_SETS} saved sets: delete one first.")
            for old in same:
                del stored[old]
            stored[name] = ids
            self._write(stored)
        return DocumentSet(name=name, documents=ids)

    def delete(self, name: str) -> None:
        with self._lock:
            stored = self._read()
            same = _named(stored, name)
            if not same:
                raise NotFoundError(f"No saved set named {_normal(name)!r}.")
            for old in same:
                del stored[old]
            self._write(stored)

    def _read(self) -> dict[str, list[str]]:
        if not self.path.is_file():
            return {}
        try:
            stored = json.loads(self.path.read_text(encoding="utf-8"))["sets"]
            return {str(name): [str(d) for d in ids] for name, ids in stored.items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            # the next save writes a good file over it
            log.warning("skipping the unreadable document sets file %s: %s", SETS_FILE, exc)
            return {}

    def _write(self, stored: dict[str, list[str]]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(SETS_FILE + ".part")
            partial.write_text(json.dumps({"sets": stored}, ensure_ascii=False, indent=1),
                               encoding="utf-8")
            os.replace(partial, self.path)
        except OSError as exc:  # the server's path is for its log, not for the page
            log.error("could not write the document sets file %s: %s", self.path, exc)
            raise ClauseGraphError("The sets could not be saved on the server: try again, "
                                   "or tell whoever runs it.") from exc


def _named(stored: dict[str, list[str]], name: str) -> list[str]:
    """The stored names that are ``name`` up to case and spacing."""
    key = _normal(name).casefold()
    return [n for n in stored if n.casefold() == key]
