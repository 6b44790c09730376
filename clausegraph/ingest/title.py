"""A document's title and its short key."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from clausegraph.ingest.running import PAGE_NUMBER_LINE
from clausegraph.models import Span

MAX_TITLE_CHARS = 120
MAX_KEY_SLUG_CHARS = 24

# Title search: lines that are never a title (exhibit labels, version stamps), words that
# name a kind of document, and signs that a line is a sentence or a party's name.
_NOT_A_TITLE = re.compile(
    r"""^(?:
        (?:exhibits?|ex-?)\s*[\w.\-()]*
      | (?:execution|final|conformed)\s+(?:version|copy)
      | confidential(?:\s+treatment\s+requested)?
      | table\s+of\s+contents(?:\s+page)?
      | (?:appendix|schedule|annex(?:ure)?|attachment)\s+[\w.\-]{1,6}
      | draft
      | source:.*                                  # EDGAR attribution footer (CUAD)
      | (?:contract|policy|agreement|certificate|reference|ref)\.?\s*
        (?:no\b\.?|number|\#)\s*:?.*                # "Contract No.: DDCX ...": a number
      | (?:effective\s+|commencement\s+)?date\s*:.*  # "Effective Date: July 1, 2019"
    )\W*$""",
    re.IGNORECASE | re.VERBOSE,
)
_TITLE_KEYWORD = re.compile(
    r"\b(?:agreement|contract|policy|policies|amendment|plan|terms|license|licence|lease|"
    r"addendum|deed|memorandum|wordings?|certificate|charter|bylaws|notice|nda|"
    r"prospectus|conditions|insurance|cover)\b",
    re.IGNORECASE,
)
_SENTENCE_LIKE = re.compile(
    r"^(?:this|these|the following|whereas|now,? therefore|in consideration|we|you)\b"
    r"|[\"\u201c\u201d]|\(this\b|[a-z]{2}[.;]\s+\w",  # ". " ends a sentence, not "U.S. "
    re.IGNORECASE,
)
_COMPANY_NAME = re.compile(
    r"\b(?:company|limited|ltd|inc|incorporated|corp|corporation|llc|plc|co|l\.?p)\.?,?$",
    re.IGNORECASE,
)
_MAX_TITLE_WORDS = 16
_DANGLING_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to"}
    | {"upto", "with"}
)
_WIDE_GAP = re.compile(r"\s{3,}")
_SENTENCE_START = re.compile(r"\s+(?=(?:THIS|This)\s)")
_SECTION_HEADING = re.compile(
    r"^(?:section|article|clause|part|chapter)\s+\w{1,4}\b", re.IGNORECASE
)
_EXHIBIT_PREFIX = re.compile(r"^(?:exhibits?|ex-?)\s*\d[\w.\-]*\s+(?=\S)", re.IGNORECASE)
_META_TITLE_JUNK = re.compile(
    r"^(?:untitled|document\d*|microsoft\s+word\b.*|slide\s*\d*|title|\W*)$"
    r"|\.(?:docx?|pdf|cdr|indd|rtf|odt|pages|xlsx?|pptx?|tmp|qxd)\s*$",
    re.IGNORECASE,
)
# Words of an EDGAR-style file name that say nothing about the document.
_KEY_NOISE_WORDS = frozenset(
    {"a", "an", "and", "the", "of", "for", "on", "ex", "exhibit", "inc", "corp", "co", "ltd"}
    | {"llc", "lp", "plc", "qa", "drsa"}
)



def document_key(path: str | Path, doc_id: str) -> str:
    """Short, id-safe handle: a slug of the file name plus the first 6 digits of ``doc_id``.

    >>> document_key("PhotronicsInc_20171219_10-QA_EX-10.28_Outsourcing Agreement.pdf",
    ...              "3fa2b1c4d5e6f708")
    'photronics-outsourcing-3fa2b1'
    """
    return f"{_slug(Path(path).stem)}-{doc_id[:6]}"



def choose_title(
    text: str, excluded: Sequence[Span], metadata_title: str | None, path: Path
) -> str:
    """Best short title: a meaningful PDF metadata title, else a title-like line, else stem."""
    if metadata_title and _is_meaningful_metadata_title(metadata_title, text):
        return _shorten(metadata_title)
    line = _title_line(text, excluded)
    return _shorten(line) if line else _shorten(unquote(path.stem).replace("_", " "))



# ---------------------------------------------------------------------------- titles, keys


def _is_meaningful_metadata_title(title: str, text: str) -> bool:
    """A real title: not a file name or placeholder, and its words occur in the text.

    Producers often leave a template's title in place (an "Easy Health" wording titled
    "GOLDEN YEARS INSURANCE PLAN"), so every word of 4+ letters outside parentheses
    (which hold abbreviations like "(ASP-N)") must appear in the document.
    """
    cleaned = " ".join(title.split())
    if sum(ch.isalpha() for ch in cleaned) < 4 or _META_TITLE_JUNK.search(cleaned):
        return False
    title_words = set(re.findall(r"[^\W\d_]{4,}", re.sub(r"\([^)]*\)", " ", cleaned).casefold()))
    text_words = set(re.findall(r"[^\W\d_]{4,}", text.casefold()))
    return title_words <= text_words


class _TitleCandidate(NamedTuple):
    """A piece of one of the first lines, and whether it lies in a running header/footer."""

    text: str
    excluded: bool


def _title_line(text: str, excluded: Sequence[Span], max_lines: int = 40) -> str | None:
    """A title-like line from the start of the text.

    In order of preference: a short line naming a kind of document ("OUTSOURCING
    AGREEMENT"), the same inside a running header (insurance wordings repeat the product
    name there), the name the opening sentence gives ("THIS LICENSE AGREEMENT is made"),
    a heading-like line, a short line that is not a sentence. None if all
    fail: the file name is then a better title than a confidentiality notice.
    """
    candidates = [c for c in _leading_pieces(text, excluded, max_lines) if _is_substantial(c.text)]
    if candidates and candidates[0].excluded and _is_title_like(candidates[0].text) \
            and _TITLE_KEYWORD.search(candidates[0].text):
        # a running header that opens the document and names a kind of document is its
        # title ("Well Baby Well Mother- Add On Wordings"), before a section's heading
        # below it that only names cover ("Air Ambulance Cover")
        return candidates[0].text
    body = [c.text for c in candidates if not c.excluded]
    header = [c.text for c in candidates if c.excluded]
    choices = (
        [line for line in body if _is_title_like(line) and _TITLE_KEYWORD.search(line)],
        [line for line in header if _is_title_like(line) and _TITLE_KEYWORD.search(line)],
        [title for title in map(_opening_title, body) if title],
        [line for line in body if _is_title_like(line)],
        [line for line in body if _is_short_statement(line)],
    )
    return next((lines[0] for lines in choices if lines), None)


_OPENING = re.compile(r"^this\s+", re.IGNORECASE)


def _opening_title(line: str) -> str | None:
    """The name an opening sentence gives the document when no line of its own does:
    "THIS LICENSE AND RESELLER AGREEMENT dated as of ..." -> "LICENSE AND RESELLER
    AGREEMENT": the capitalised words after "This", up to the last that names a kind of
    document; at least two words ("This Agreement" names nothing)."""
    opening = _OPENING.match(line)
    if opening is None:
        return None
    words: list[str] = []
    for word in line[opening.end():].split():
        letters = [ch for ch in word if ch.isalpha()]
        if not letters or not (letters[0].isupper() or word.casefold() in _DANGLING_WORDS):
            break
        words.append(word)
    while words and not _TITLE_KEYWORD.fullmatch(words[-1].strip(",;:")):
        words.pop()
    return " ".join(words) if len(words) >= 2 else None


def _is_substantial(line: str) -> bool:
    return (
        len(line) >= 8
        and len(line.split()) >= 2
        and sum(ch.isalpha() for ch in line) >= 5
        and not _NOT_A_TITLE.match(line)
        and not PAGE_NUMBER_LINE.match(line)
    )


def _is_short_statement(line: str) -> bool:
    """Short, and not a sentence, a definition ("Term: meaning") or a footer ("Source: ...")."""
    return (
        len(line.split()) <= _MAX_TITLE_WORDS
        and ":" not in line
        and unicodedata.normalize("NFKC", line[-1]) not in ".,;"
        and not _SENTENCE_LIKE.search(line)
    )


def _is_title_like(line: str) -> bool:
    """Short, mostly capitalised, and neither a sentence (part) nor a company name."""
    words = [word for word in line.split() if any(ch.isalpha() for ch in word)]
    capitalised = [word for word in words if next(ch for ch in word if ch.isalpha()).isupper()]
    return (
        bool(words)
        and len(line.split()) <= _MAX_TITLE_WORDS
        and 2 * len(capitalised) >= len(words)
        # NFKC: PDFs use look-alikes such as U+037E GREEK QUESTION MARK for ";".
        and unicodedata.normalize("NFKC", line[-1]) not in ".,;"
        and words[-1].casefold() not in _DANGLING_WORDS  # a sentence running on
        and not _SENTENCE_LIKE.search(line)
        and not _SECTION_HEADING.match(line)
        and not _COMPANY_NAME.search(line)
    )


def _leading_pieces(text: str, excluded: Sequence[Span], max_lines: int) -> list[_TitleCandidate]:
    """Pieces of the first non-blank lines, whitespace collapsed.

    CUAD-style text joins a title and the first sentence on one line, so runs of 3+
    spaces and a following "This ..." sentence split a line, and a leading exhibit label
    is dropped ("Exhibit 10.16 CONSULTING AGREEMENT This Consulting Agreement ..."
    gives "CONSULTING AGREEMENT"). An upper-case line without a document-kind word is
    joined with the next upper-case line ("COLLABORATIVE RESEARCH, ..." + "AGREEMENT").
    """
    pieces: list[_TitleCandidate] = []
    offset = 0
    for raw_line in text[: 300 * max_lines].split("\n"):
        start, offset = offset, offset + len(raw_line) + 1
        line = raw_line.strip().lstrip("\ufeff#").strip()
        if not line:
            continue
        in_excluded = any(low <= start < high for low, high in excluded)
        for part in _title_pieces(line):
            pieces.append(_TitleCandidate(part, in_excluded))
        if len(pieces) >= max_lines:
            break
    return _join_split_titles(pieces)


def _title_pieces(line: str) -> list[str]:
    """A line cut at wide gaps and where "This ..." follows a document-kind word."""
    pieces: list[str] = []
    for part in _WIDE_GAP.split(line):
        for match in _SENTENCE_START.finditer(part):
            if _TITLE_KEYWORD.search(part[: match.start()].rsplit(None, 1)[-1]):
                pieces.append(part[: match.start()])
                part = part[match.end() :]
                break
        pieces.append(part)
    cleaned = (" ".join(_EXHIBIT_PREFIX.sub("", piece).split()) for piece in pieces)
    return [piece for piece in cleaned if piece]


def _join_split_titles(pieces: Sequence[_TitleCandidate]) -> list[_TitleCandidate]:
    joined: list[_TitleCandidate] = []
    for piece in pieces:
        if joined and _continues_title(joined[-1], piece):
            joined[-1] = _TitleCandidate(f"{joined[-1].text} {piece.text}", piece.excluded)
        else:
            joined.append(piece)
    return joined


def _continues_title(previous: _TitleCandidate, piece: _TitleCandidate) -> bool:
    """``piece`` ends an upper-case title that ``previous`` begins."""
    return (
        previous.excluded == piece.excluded
        and _is_upper(previous.text)
        and _is_upper(piece.text)
        and sum(ch.isalpha() for ch in previous.text) >= 5
        and not _NOT_A_TITLE.match(previous.text)
        and not _COMPANY_NAME.search(previous.text)
        and _is_title_like(f"{previous.text} {piece.text}")
        and not _TITLE_KEYWORD.search(previous.text)
        and bool(_TITLE_KEYWORD.search(piece.text))
    )


def _is_upper(line: str) -> bool:
    letters = [ch for ch in line if ch.isalpha()]
    return bool(letters) and all(ch.isupper() for ch in letters)


def _shorten(title: str) -> str:
    """Whitespace collapsed and cut at a word boundary to ``MAX_TITLE_CHARS``."""
    title = " ".join(title.split())
    if len(title) <= MAX_TITLE_CHARS:
        return title
    cut = title[: MAX_TITLE_CHARS - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-") + "…"


def _slug(stem: str) -> str:
    """Lowercase ASCII words of a file name, noise and numbers dropped, cut at a word."""
    words = [word for word in _name_words(stem) if _is_key_word(word)]
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > MAX_KEY_SLUG_CHARS:
            break
        slug = candidate
    if not slug and words:
        slug = words[0][:MAX_KEY_SLUG_CHARS]
    return slug or "doc"


def _name_words(stem: str) -> list[str]:
    ascii_stem = (
        unicodedata.normalize("NFKD", unquote(stem)).encode("ascii", "ignore").decode("ascii")
    )
    # Split CamelCase ("PhotronicsInc" -> "Photronics Inc") before lowercasing.
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", ascii_stem)
    return [word.lower() for word in re.findall(r"[A-Za-z0-9]+", spaced)]


def _is_key_word(word: str) -> bool:
    letters = sum(ch.isalpha() for ch in word)
    if word in _KEY_NOISE_WORDS or letters == 0:
        return False
    # "qa", "k" from form names are noise; codes like "bajhlip23020v012223" are names.
    return letters >= 4 if any(ch.isdigit() for ch in word) else len(word) >= 2

