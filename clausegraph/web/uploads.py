"""Uploaded files: limits, type by content, and a storage path that no client chooses.

The client's file name is only ever a label: the stored path is
``<uploads>/<sha256 prefix of the bytes>/<slug>.<suffix>``, where the slug keeps only
letters, digits, dot, dash, underscore and space from the name (so the document key
and title still read like the file) and the suffix comes from the content.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
import unicodedata
from pathlib import Path

from pydantic import BaseModel

MB = 1024 * 1024
_SLUG_BAD = re.compile(r"[^A-Za-z0-9._ -]+")


class UploadLimits(BaseModel):
    max_file_bytes: int = 50 * MB
    max_files: int = 20


class UploadRejected(ValueError):
    """The file is refused before it is stored; the message names the file and why."""


def sniff_kind(data: bytes) -> str | None:
    """'pdf', 'docx', 'html' or 'text' from the bytes themselves, or None otherwise.

    A PDF starts with ``%PDF-`` (readers accept it within the first KiB); a Word file is
    a zip holding ``word/document.xml``; HTML is text that opens with a doctype or an
    ``<html>``/``<body>`` tag; text is UTF-8 without NUL bytes. An executable or a zip of
    anything else renamed to .pdf or .docx is refused.
    """
    if b"%PDF-" in data[:1024]:
        return "pdf"
    if data[:4] == b"PK\x03\x04":
        return "docx" if _is_word(data) else None
    if b"\x00" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "html" if _HTML_START.match(text) else "text"


_HTML_START = re.compile(r"\A(?:\ufeff)?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b",
                         re.I | re.S)


def _is_word(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "word/document.xml" in archive.namelist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return False


def display_name(name: str | None) -> str:
    """The client's name reduced to a short label (never a path)."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = unicodedata.normalize("NFKC", base)
    base = "".join(ch for ch in base if ch.isprintable())
    return base[:200] or "unnamed file"


def slug(name: str) -> str:
    """A safe file stem from a label: 'Policy (2023)/../x.pdf' -> 'Policy _2023_ .. x'."""
    stem = display_name(name)
    stem = stem.rsplit(".", 1)[0] if "." in stem else stem
    stem = _SLUG_BAD.sub("_", stem).strip(" ._-")[:80]
    return stem or "document"


def check_upload(name: str, data: bytes, limits: UploadLimits) -> str:
    """The suffix to store ``data`` under ('.pdf', '.docx', '.html', '.txt', '.md'), or
    ``UploadRejected``."""
    label = display_name(name)
    if not data:
        raise UploadRejected(f"{label}: empty file (0 bytes)")
    if len(data) > limits.max_file_bytes:
        raise UploadRejected(
            f"{label}: {len(data) / MB:.1f} MB is over the upload limit of "
            f"{limits.max_file_bytes / MB:.0f} MB"
        )
    kind = sniff_kind(data)
    if kind is None:
        raise UploadRejected(f"{label}: not a PDF, Word (.docx), HTML or UTF-8 text file "
                             "(checked by content)")
    if kind in ("pdf", "docx", "html"):
        return f".{kind}"
    return ".md" if label.lower().endswith(".md") else ".txt"


def store_upload(uploads: Path, name: str, data: bytes, suffix: str) -> Path:
    """Write ``data`` under ``uploads`` (content-addressed folder); returns the path."""
    folder = uploads / hashlib.sha256(data).hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{slug(name)}{suffix}"
    if not path.exists():
        tmp = folder / f".{path.name}.part"
        tmp.write_bytes(data)
        tmp.replace(path)
    return path
