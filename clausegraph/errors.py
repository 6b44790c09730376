"""Errors a user can act on. Each names the file or index and the problem in one line."""

from __future__ import annotations

from pathlib import Path


class ClauseGraphError(Exception):
    """Base class: the message is meant to be shown to the user as is."""


class IngestError(ClauseGraphError):
    """A file could not be turned into a document (corrupt, encrypted, scanned, ...)."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class IndexStoreError(ClauseGraphError):
    """The index directory is missing, foreign, or of an unsupported version."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"index {self.path}: {problem}")


class NotFoundError(ClauseGraphError):
    """A clause or document named by the user is not in the index."""
