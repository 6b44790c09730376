"""Error messages as a web user should read them.

The Python API's errors are written for the command line: they name the server's index
folder and suggest CLI commands and flags ("create it with 'clausegraph ingest'", "use
--llm none"). A web user can act on neither, and the server's paths are not theirs to see,
so the web app says "the index" for the index, names a file by its name alone and drops
command-line advice. Request validation errors become a sentence about the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# an absolute path (not a URL: "://" never precedes it), up to a space, quote or ":"
_PATH = re.compile(r"(?<![\w:/.])/(?:[^\s'\"():;,]+/)*[^\s'\"():;,/]+/?")
_INDEX_PATH = re.compile(
    r"\bindex\s+['\"]?(?:[a-z][a-z0-9+]*://\S+?|/[^\s'\":;,]+)['\"]?(?=:\s|[\s;,]|$)")
_CLI_ADVICE = re.compile(r"'clausegraph [a-z]|\bclausegraph [a-z]+ |(?<![\w-])--[a-z]")
_PARENTHESES = re.compile(r"\s*\([^()]*\)")

FIELD_NAMES = {"question": "the question", "documents": "the document list",
               "strategy": "the strategy", "format": "the format"}


def for_web_user(message: str) -> str:
    """``message`` without server paths or command-line advice, on one line."""
    text = " ".join(message.split())
    text = _INDEX_PATH.sub("the index", text).replace("the index: ", "the index ")
    text = _PATH.sub(lambda m: m.group().rstrip("/").rsplit("/", 1)[-1], text)
    kept = [part for part in re.split(r";\s+", text) if not _CLI_ADVICE.search(part)]
    text = "; ".join(_drop_cli_asides(part) for part in kept) if kept else ""
    return text.strip(" ;,") or "the request could not be completed"


def _drop_cli_asides(part: str) -> str:
    """'... (or ingest with --reembed), or ...' -> '..., or ...'."""
    return _PARENTHESES.sub(lambda m: "" if _CLI_ADVICE.search(m.group()) else m.group(), part)


def validation_message(errors: Iterable[Mapping[str, Any]]) -> str:
    """FastAPI's validation errors as sentences: 'The question is too long: at most 2000
    characters.' instead of 'question: String should have at most 2000 characters'."""
    sentences = [_sentence(error) for error in errors]
    return " ".join(dict.fromkeys(sentences)) or "The request is not valid."


def _sentence(error: Mapping[str, Any]) -> str:
    kind = str(error.get("type", ""))
    location = [str(part) for part in error.get("loc", ())[1:] if not isinstance(part, int)]
    field = FIELD_NAMES.get(location[-1], location[-1].replace("_", " ")) if location else ""
    context = error.get("ctx") or {}
    if kind == "json_invalid":
        return "The request body is not valid JSON."
    if not field:
        return 'The request body must be a JSON object, such as {"question": "..."}.'
    if kind == "missing":
        return f"{field.capitalize()} is missing."
    if kind == "string_too_short":
        return f"{field.capitalize()} is empty: type one first."
    if kind == "string_too_long":
        return (f"{field.capitalize()} is too long: at most "
                f"{context.get('max_length', 'the allowed number of')} characters.")
    if kind == "list_type":
        return f"{field.capitalize()} must be a list."
    if kind in ("literal_error", "enum"):
        return f"{field.capitalize()} must be one of {context.get('expected', 'the listed values')}."
    message = str(error.get("msg", "is not valid"))
    return f"{field.capitalize()}: {message[0].lower() + message[1:]}."
