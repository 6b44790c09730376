"""Which code cut a document into clauses: a digest of the reader's and the segmenter's
source and of the tokenizer that made its clauses' BM25 tokens, stored with every document
at ingest (``DocumentEntry.segmenter``).

The index is content addressed, so an unchanged file is not cut again when ClauseGraph is
upgraded; a document whose stored digest differs from :func:`segmenter_version` may have
other clauses than this code would cut, and ``ingest`` and ``stats`` say so."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

# the packages whose code decides a document's text and clauses, and the module that
# decides the words its clauses are searched by
PACKAGES = ("ingest", "segment")
MODULES = ("text/tokenize.py",)


def source_digest(root: Path, packages: Sequence[str], modules: Sequence[str] = ()) -> str:
    """12 hex digits of the SHA-256 of every ``.py`` file under ``root/package`` for each
    package, then of each of ``modules`` (relative names and bytes, in name order)."""
    digest = hashlib.sha256()
    paths = [path for package in packages for path in sorted((root / package).rglob("*.py"))]
    for path in paths + [root / module for module in modules]:
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@lru_cache(maxsize=1)
def segmenter_version() -> str:
    """The digest of this installation's ``clausegraph.ingest``, ``clausegraph.segment`` and
    tokenizer."""
    return source_digest(Path(__file__).resolve().parents[1], PACKAGES, MODULES)
