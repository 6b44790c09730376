"""Plain text and Markdown files: the canonical text is the decoded file itself."""

from __future__ import annotations

from pathlib import Path

from clausegraph.errors import IngestError
from clausegraph.ingest.files import decode_bytes

# ---------------------------------------------------------------------------- text files


def decode_text(path: Path, data: bytes) -> tuple[str, str]:
    """The text and its encoding (BOM, UTF-8, else a detected charset; a BOM is kept as
    U+FEFF), with universal newlines."""
    text, encoding = decode_bytes(path, data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.lstrip("\ufeff").strip():
        raise IngestError(path, "no text (the file holds only whitespace)")
    return text, encoding
