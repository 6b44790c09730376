"""Plain text and Markdown files: the canonical text is the decoded file itself."""

from __future__ import annotations

from pathlib import Path

from clausegraph.errors import IngestError

# ---------------------------------------------------------------------------- text files


def decode_text(path: Path, data: bytes) -> str:
    """Decode like ``open(path, encoding="utf-8").read()``: BOM kept, universal newlines."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad_byte = data[error.start]
        raise IngestError(
            path,
            f"not valid UTF-8 text (byte 0x{bad_byte:02x} at position {error.start}); "
            "convert it to UTF-8",
        ) from error
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.lstrip("\ufeff").strip():
        raise IngestError(path, "no text (the file holds only whitespace)")
    return text



