"""Which paths are read, and reading their bytes safely."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from clausegraph.errors import IngestError

SUPPORTED_SUFFIXES: tuple[str, ...] = (".pdf", ".txt", ".md")

# ------------------------------------------------------------------------ file handling


def checked_suffix(path: Path) -> str:
    """The file's lowercase suffix, after checking the path names a readable kind of file."""
    if not path.exists():
        raise IngestError(path, "file not found")
    if path.is_dir():
        raise IngestError(path, "is a directory, not a file")
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        shown = f"'{suffix}'" if suffix else "without a suffix"
        supported = ", ".join(SUPPORTED_SUFFIXES)
        raise IngestError(path, f"unsupported file type {shown}; supported: {supported}")
    return suffix


def read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise IngestError(path, f"cannot read file: {error.strerror or error}") from error
    if not data:
        raise IngestError(path, "empty file (0 bytes)")
    return data


def _supported_files_under(folder: Path) -> list[Path]:
    files = [
        path
        for path in folder.rglob("*")
        if path.is_file()
        and path.suffix.lower() in SUPPORTED_SUFFIXES
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    ]
    return sorted(files)


def _unique(paths: Iterable[Path]) -> list[Path]:
    seen: set[Path] = set()
    unique: list[Path] = []
    for path in paths:
        identity = path.resolve()
        if identity not in seen:
            seen.add(identity)
            unique.append(path)
    return unique



def iter_input_files(paths: Sequence[Path]) -> list[Path]:
    """Expand directories (recursively) to their supported files; keep other paths as given.

    Files named explicitly are kept even if unsupported or missing, so that
    ``load_document`` reports them. Directory contents are sorted; hidden files and
    folders inside a directory are skipped; a file reached twice is listed once.
    """
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(_supported_files_under(path))
        else:
            found.append(path)
    return _unique(found)

