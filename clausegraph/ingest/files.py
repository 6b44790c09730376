"""Which paths are read, and reading their bytes safely: regular files only, bounded
reads, known encodings.

Every input is treated as hostile. A named pipe would block ``read()`` forever (while
the index's write lock is held), a device never ends, a symlink loop raises deep inside
``pathlib``: each gets a one-line ``IngestError`` before anything is opened for reading.
Files are opened ``O_NONBLOCK`` and checked again on the open descriptor, so a file
swapped for a FIFO between the check and the open cannot hang ingest either.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from clausegraph.errors import IngestError

SUPPORTED_SUFFIXES: tuple[str, ...] = (".pdf", ".txt", ".md", ".docx", ".html", ".htm")

DEFAULT_MAX_FILE_MB = 200

_KINDS = (
    (stat.S_ISDIR, "is a directory, not a file"),
    (stat.S_ISFIFO, "is a named pipe (FIFO), not a regular file; it is not read"),
    (stat.S_ISSOCK, "is a socket, not a regular file; it is not read"),
    (stat.S_ISCHR, "is a character device, not a regular file; it is not read"),
    (stat.S_ISBLK, "is a block device, not a regular file; it is not read"),
)
# Byte order marks, longest first (the UTF-32-LE mark starts with the UTF-16-LE one).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Single-byte encodings a Western contract is most likely in, preferred among the
# equally good guesses of the detector (it cannot tell cp1250 from cp1252 on short text).
_PREFERRED_GUESSES = ("cp1252", "latin_1", "iso8859_15", "utf_8")


def os_problem(error: OSError) -> str:
    """A short description of an OS error for a one-line message."""
    if error.errno == errno.ELOOP:
        return "symbolic link loop (the link points back at itself)"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.ENOENT:
        return "file not found"
    return error.strerror or str(error)


def checked_stat(path: Path) -> os.stat_result:
    """``os.stat`` of an input file; an ``IngestError`` if it is not a regular file."""
    try:
        info = os.stat(path)
    except OSError as error:
        if error.errno == errno.ENOENT and os.path.islink(path):
            raise IngestError(path, "broken symbolic link (its target does not exist)") from error
        raise IngestError(path, os_problem(error)) from error
    _require_regular(path, info.st_mode)
    return info


def _require_regular(path: Path, mode: int) -> None:
    for is_kind, problem in _KINDS:
        if is_kind(mode):
            raise IngestError(path, problem)
    if not stat.S_ISREG(mode):
        raise IngestError(path, "is not a regular file; it is not read")


def read_regular_file(path: Path, max_bytes: int = DEFAULT_MAX_FILE_MB * 1_000_000) -> bytes:
    """All bytes of a regular file of at most ``max_bytes``, or an ``IngestError``."""
    info = checked_stat(path)
    _check_size(path, info.st_size, max_bytes)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise IngestError(path, f"cannot read file: {os_problem(error)}") from error
    try:
        _require_regular(path, os.fstat(fd).st_mode)  # swapped after the check?
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise IngestError(path, f"cannot read file: {os_problem(error)}") from error
    finally:
        os.close(fd)
    _check_size(path, size, max_bytes)  # the file grew while being read
    data = b"".join(chunks)
    if not data:
        raise IngestError(path, "empty file (0 bytes)")
    return data


def _check_size(path: Path, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise IngestError(
            path,
            f"file is larger than the {max_bytes / 1e6:g} MB limit "
            "(raise it with --set ingest.max_file_mb=N)",
        )


def decode_bytes(path: Path, data: bytes) -> tuple[str, str]:
    """The file's text and its encoding: BOM first, then UTF-8, then a detected charset.

    A byte order mark is kept as the character U+FEFF, whatever the encoding (benchmark
    offsets into UTF-8 files count it). Bytes that are no known text encoding (binary
    files) are refused, naming the first bad byte as UTF-8 sees it.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as error:
                raise IngestError(
                    path, f"not valid {encoding.upper()} text despite its byte order mark "
                    f"(bad bytes at position {error.start})"
                ) from error
            return text, f"{encoding} (BOM)"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as error:
        guessed = _guess(data)
        if guessed is None:
            bad = data[error.start]
            raise IngestError(
                path,
                f"not text in UTF-8 or another known encoding (byte 0x{bad:02x} at position "
                f"{error.start}); is it a binary file?",
            ) from error
        return guessed


def _guess(data: bytes) -> tuple[str, str] | None:
    """charset-normalizer's reading of ``data``, if it is clean text."""
    from charset_normalizer import from_bytes

    if b"\x00" in data:
        return None  # NUL bytes without a UTF-16/32 mark: binary
    matches = list(from_bytes(data))
    if not matches:
        return None
    best_chaos = min(match.chaos for match in matches)
    clean = [match for match in matches if match.chaos <= best_chaos + 0.01]
    chosen = next(
        (m for name in _PREFERRED_GUESSES for m in clean if name in m.could_be_from_charset),
        clean[0],
    )
    if chosen.chaos > 0.2:
        return None
    encoding = next((name for name in _PREFERRED_GUESSES if name in chosen.could_be_from_charset),
                    chosen.encoding)
    return data.decode(encoding), encoding


# ------------------------------------------------------------------------ which paths


def checked_suffix(path: Path) -> str:
    """The file's lowercase suffix, after checking the path names a readable kind of file."""
    checked_stat(path)  # missing, a loop, a directory, a FIFO ...: said before any read
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        shown = f"'{suffix}'" if suffix else "without a suffix"
        supported = ", ".join(SUPPORTED_SUFFIXES)
        raise IngestError(path, f"unsupported file type {shown}; supported: {supported}")
    return suffix


def _supported_files_under(folder: Path, exclude: Path | None = None) -> list[Path]:
    """Everything but folders with a supported suffix under ``folder``: a FIFO, a socket or
    a link that leads nowhere (a loop, a missing target) is listed so that ingest names it."""
    skipped = os.path.realpath(exclude) + os.sep if exclude is not None else None
    files = [
        path
        for path in folder.rglob("*")
        if path.suffix.lower() in SUPPORTED_SUFFIXES
        and not path.is_dir()  # regular files, and FIFOs, sockets, broken links: reported
        and not path.name.startswith("~$")  # Word's lock file beside an open document
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
        and not (skipped and os.path.realpath(path).startswith(skipped))
    ]
    return sorted(files)


def _unique(paths: Iterable[Path]) -> list[Path]:
    seen: set[str] = set()
    unique: list[Path] = []
    for path in paths:
        # os.path.realpath, unlike Path.resolve, does not raise on a symlink loop.
        identity = os.path.realpath(path)
        if identity not in seen:
            seen.add(identity)
            unique.append(path)
    return unique


def iter_input_files(paths: Sequence[Path], exclude: Path | None = None) -> list[Path]:
    """Expand directories (recursively) to their supported files; keep other paths as given.

    Files named explicitly are kept even if unsupported or missing, so that
    ``load_document`` reports them. Directory contents are sorted; hidden files and
    folders inside a directory are skipped, and so is the folder ``exclude`` (the index
    being written); a file reached twice is listed once.
    """
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(_supported_files_under(path, exclude))
        else:
            found.append(path)
    return _unique(found)
