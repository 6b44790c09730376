"""Word (.docx) files: paragraphs in order with their automatic numbers, tables, footnotes.

python-docx opens the package (``docs/formats.md`` says why it, not docx2python); the
text is read from the WordprocessingML itself because python-docx neither draws list
numbers nor resolves tracked changes:

* Automatic numbering is rendered as Word shows it, from ``numbering.xml``: the level's
  ``lvlText`` ("%1.%2", "(%3)", "Article %1") with each counter in its ``numFmt``
  (decimal, lowerLetter, upperRoman, ...), ``start``, ``lvlRestart`` and a numbering
  instance's ``startOverride``; numbering set by a paragraph style counts too.
* Tracked changes are resolved to the accepted text: ``w:ins`` kept, ``w:del`` and
  ``w:moveFrom`` dropped; the document carries a warning saying so.
* Pages: where Word stored its layout (``w:lastRenderedPageBreak``) pages follow it;
  otherwise explicit page breaks do; a file with neither is one page.
* Footnotes follow the body as "[n] text"; their reference marks read "[n]".
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from clausegraph.errors import IngestError
from clausegraph.ingest.blocks import PAGE_BREAK, BlockWriter, StructuredText

# A .docx is a zip: refuse one that unpacks to more than this (a "zip bomb").
MAX_UNPACKED_BYTES = 512 * 1024 * 1024
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # encrypted Office files and old .doc

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


# the rows below a table row its setting is compared with (a header over a few rows)
_ROWS_COMPARED = 3
# fills that are no shading: Word's "auto" and white
_NO_FILL = frozenset({"AUTO", "FFFFFF"})
# the tblLook bit that applies a table style's first-row formatting (ECMA-376 17.4.56)
_FIRST_ROW_LOOK = 0x0020


def _w(tag: str) -> str:
    return f"{{{W}}}{tag}"


def _val(element: etree._Element | None, attribute: str = "val") -> str | None:
    return None if element is None else element.get(_w(attribute))


# Subtrees whose text a reader does not see: deleted text, field codes, the
# compatibility copy of a drawing, nested paragraphs of text boxes.
_SKIPPED = {_w("del"), _w("moveFrom"), _w("instrText"), _w("delInstrText"), _w("pPr"),
            _w("rPr"), _MC_FALLBACK, _w("txbxContent")}


def read_docx(path: Path, data: bytes) -> StructuredText:
    """Canonical text, pages and blocks of a Word file, or an ``IngestError``."""
    _check_package(path, data)
    import docx  # python-docx; imported here so PDFs and text need no Word support

    try:
        word = docx.Document(io.BytesIO(data))
    except Exception as error:  # python-docx raises KeyError, ValueError, XMLSyntaxError...
        raise IngestError(path, f"not a readable Word file: {_reason(error)}") from error
    reader = _DocxReader(word)
    result = reader.read()
    if not result.text.strip():
        raise IngestError(path, "no text (the Word file holds no paragraphs or tables)")
    return result


def _check_package(path: Path, data: bytes) -> None:
    """Refuse encrypted files, non-zips and zip bombs before anything is unpacked."""
    if data.startswith(_OLE_MAGIC):
        raise IngestError(
            path,
            "password-protected (encrypted) or old binary Word file; save it as an "
            "unprotected .docx",
        )
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        raise IngestError(path, f"not a readable Word file: {_reason(error)}") from error
    with package:
        unpacked = sum(info.file_size for info in package.infolist())
        if unpacked > MAX_UNPACKED_BYTES:
            raise IngestError(
                path,
                f"refused: unpacks to {unpacked / 2**20:,.0f} MB, over the "
                f"{MAX_UNPACKED_BYTES / 2**20:,.0f} MB limit (zip bomb?)",
            )
        if "word/document.xml" not in package.namelist():
            raise IngestError(path, "not a readable Word file: no word/document.xml inside")


def _reason(error: Exception) -> str:
    message = " ".join(str(error).split())
    return message or type(error).__name__


# ------------------------------------------------------------------------------ numbering

_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def _roman(number: int) -> str:
    out = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def format_number(value: int, fmt: str) -> str:
    """A counter as Word draws it in ``numFmt`` (unknown formats fall back to decimal)."""
    if fmt in ("lowerLetter", "upperLetter"):
        # Word: a..z, then aa..zz, then aaa..
        letter = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)
        return letter if fmt == "lowerLetter" else letter.upper()
    if fmt in ("lowerRoman", "upperRoman"):
        roman = _roman(value)
        return roman if fmt == "lowerRoman" else roman.upper()
    if fmt == "decimalZero":
        return f"{value:02d}"
    if fmt in ("none", "bullet"):
        return ""
    if fmt == "ordinal":
        suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
            value % 10, "th")
        return f"{value}{suffix}"
    return str(value)


@dataclass
class _Level:
    start: int = 1
    fmt: str = "decimal"
    text: str = ""
    restart: int | None = None  # lvlRestart: 0 = never; n = after level n; None = any higher
    style: str | None = None
    legal: bool = False  # isLgl: every counter shown as decimal


@dataclass
class _Instance:
    abstract: str
    start_overrides: dict[int, int] = field(default_factory=dict)


class Numbering:
    """Counters of Word's automatic numbering, advanced paragraph by paragraph."""

    def __init__(self, numbering_xml: etree._Element | None) -> None:
        self.abstract: dict[str, dict[int, _Level]] = {}
        self.instances: dict[str, _Instance] = {}
        self.counters: dict[str, dict[int, int]] = {}
        self.started: set[str] = set()
        if numbering_xml is not None:
            self._load(numbering_xml)

    def _load(self, root: etree._Element) -> None:
        for abstract in root.iter(_w("abstractNum")):
            levels = {}
            for lvl in abstract.iter(_w("lvl")):
                levels[int(_val(lvl, "ilvl") or 0)] = _parse_level(lvl)
            self.abstract[_val(abstract, "abstractNumId") or ""] = levels
        for num in root.iter(_w("num")):
            instance = _Instance(abstract=_val(num.find(_w("abstractNumId"))) or "")
            for override in num.iter(_w("lvlOverride")):
                start = _val(override.find(_w("startOverride")))
                if start is not None:
                    instance.start_overrides[int(_val(override, "ilvl") or 0)] = int(start)
            self.instances[_val(num, "numId") or ""] = instance

    def level_of_style(self, num_id: str, style_id: str | None) -> int:
        """The level a style-numbered paragraph sits at (the ``lvl`` naming its style)."""
        instance = self.instances.get(num_id)
        levels = self.abstract.get(instance.abstract, {}) if instance else {}
        return next((i for i, lvl in levels.items() if style_id and lvl.style == style_id), 0)

    def label(self, num_id: str, ilvl: int) -> str | None:
        """Advance the counter of (``num_id``, ``ilvl``) and return the drawn label."""
        instance = self.instances.get(num_id)
        if instance is None or instance.abstract not in self.abstract:
            return None
        levels = self.abstract[instance.abstract]
        if ilvl not in levels:
            return None
        counters = self.counters.setdefault(instance.abstract, {})
        if num_id not in self.started:  # a new instance restarts overridden levels; a
            self.started.add(num_id)       # shallower one shows its value in "%1.%2"
            for level, start in instance.start_overrides.items():
                if level < ilvl:
                    counters[level] = start
                else:
                    counters.pop(level, None)
        starts = {i: instance.start_overrides.get(i, lvl.start) for i, lvl in levels.items()}
        counters[ilvl] = counters[ilvl] + 1 if ilvl in counters else starts[ilvl]
        for deeper, level in levels.items():
            restart = deeper if level.restart is None else level.restart
            if deeper > ilvl and ilvl < restart:
                counters.pop(deeper, None)
        return self._draw(levels, levels[ilvl], counters, starts)

    @staticmethod
    def _draw(levels: dict[int, _Level], level: _Level, counters: dict[int, int],
              starts: dict[int, int]) -> str | None:
        if level.fmt == "bullet":
            return "\u2022"
        text = level.text
        for index in range(9, 0, -1):  # %10 does not exist; go down so %1 never eats %1x
            placeholder = f"%{index}"
            if placeholder in text:
                shown = levels.get(index - 1, _Level())
                value = counters.get(index - 1, starts.get(index - 1, 1))
                fmt = "decimal" if level.legal and shown.fmt != "none" else shown.fmt
                text = text.replace(placeholder, format_number(value, fmt))
        return text.strip() or None


def _parse_level(lvl: etree._Element) -> _Level:
    restart = _val(lvl.find(_w("lvlRestart")))
    return _Level(
        start=int(_val(lvl.find(_w("start"))) or 1),
        fmt=_val(lvl.find(_w("numFmt"))) or "decimal",
        text=_val(lvl.find(_w("lvlText"))) or "",
        restart=int(restart) if restart is not None else None,
        style=_val(lvl.find(_w("pStyle"))),
        legal=lvl.find(_w("isLgl")) is not None,
    )


# ---------------------------------------------------------------------------------- reader


class _DocxReader:
    def __init__(self, word) -> None:  # noqa: ANN001 - python-docx's Document
        self.word = word
        self.body = word.element.body
        self.numbering = Numbering(_numbering_xml(word))
        self.styles = _Styles(word.styles.element)
        self.rendered_pages = next(self.body.iter(_w("lastRenderedPageBreak")), None) is not None
        self.footnote_marks: dict[str, int] = {}
        self.writer = BlockWriter()

    def read(self) -> StructuredText:
        for element in self._body_elements(self.body):
            if element.tag == _w("p"):
                self._paragraph(element)
            elif element.tag == _w("tbl"):
                self.writer.add_table(self._table_rows(element),
                                      self._rows_set_apart(element))
        self._footnotes()
        title = (self.word.core_properties.title or "").strip() or None
        return self.writer.result(title=title, warnings=self._warnings())

    def _body_elements(self, parent: etree._Element) -> Iterator[etree._Element]:
        for child in parent:
            if child.tag in (_w("p"), _w("tbl")):
                yield child
            elif child.tag in (_w("sdt"), _w("sdtContent"), _w("customXml")):
                yield from self._body_elements(child)

    def _paragraph(self, p: etree._Element) -> None:
        style_id = _val(p.find(f"{_w('pPr')}/{_w('pStyle')}"))
        text = self._text(p)
        label = self._number_label(p, style_id) if text.strip() else None
        if self._breaks_before(p):
            text = PAGE_BREAK + text
        level = self.styles.heading_level(style_id, p)
        kind = "heading" if level is not None else "paragraph"
        self.writer.add(kind, text, label=label, level=level)

    def _number_label(self, p: etree._Element, style_id: str | None) -> str | None:
        num_pr = p.find(f"{_w('pPr')}/{_w('numPr')}")
        num_id = _val(num_pr.find(_w("numId"))) if num_pr is not None else None
        ilvl_text = _val(num_pr.find(_w("ilvl"))) if num_pr is not None else None
        if num_id is None:
            num_id, style_ilvl = self.styles.numbering(style_id)
            ilvl_text = ilvl_text or style_ilvl
        if not num_id or num_id == "0":
            return None
        ilvl = int(ilvl_text) if ilvl_text else self.numbering.level_of_style(num_id, style_id)
        return self.numbering.label(num_id, ilvl)

    def _breaks_before(self, p: etree._Element) -> bool:
        flag = p.find(f"{_w('pPr')}/{_w('pageBreakBefore')}")
        return not self.rendered_pages and flag is not None and _val(flag) not in ("0", "false")

    def _text(self, element: etree._Element) -> str:
        """Visible, accepted text of a paragraph (or any element), in document order."""
        parts: list[str] = []
        stack = [element]
        while stack:
            node = stack.pop()
            tag = node.tag
            if node is not element and (tag in _SKIPPED or _is_hidden_run(node)):
                continue
            if tag == _w("t"):
                parts.append(node.text or "")
            elif tag == _w("tab"):
                parts.append("\t")
            elif tag in (_w("br"), _w("cr")):
                page = _val(node, "type") == "page"
                parts.append(PAGE_BREAK if page and not self.rendered_pages else "\n")
            elif tag == _w("lastRenderedPageBreak"):
                parts.append(PAGE_BREAK)
            elif tag == _w("noBreakHyphen"):
                parts.append("-")
            elif tag == _w("footnoteReference"):
                parts.append(f"[{self._footnote_mark(_val(node, 'id') or '')}]")
            stack.extend(reversed(node))
        return "".join(parts)

    def _footnote_mark(self, footnote_id: str) -> int:
        return self.footnote_marks.setdefault(footnote_id, len(self.footnote_marks) + 1)

    def _table_rows(self, table: etree._Element) -> list[list[str | None]]:
        """Cell texts; None where a cell merged across columns covers the grid position
        (the one table format, ``blocks.render_table``); a cell merged down repeats the
        text above it."""
        rows: list[list[str | None]] = []
        for tr in table.findall(_w("tr")):
            row: list[str | None] = []
            for tc in tr.findall(_w("tc")):
                span = int(_val(tc.find(f"{_w('tcPr')}/{_w('gridSpan')}")) or 1)
                merge = tc.find(f"{_w('tcPr')}/{_w('vMerge')}")
                if merge is not None and _val(merge) in (None, "continue") and rows:
                    column = len(row)
                    text = (rows[-1][column] if column < len(rows[-1]) else None) or ""
                else:
                    paragraphs = tc.findall(f".//{_w('p')}")
                    text = " ".join(self._text(p).strip() for p in paragraphs)
                row.extend([text] + [None] * (span - 1))
            rows.append(row)
        return rows

    def _rows_set_apart(self, table: etree._Element) -> list[bool | None]:
        """Per row, whether it is set apart from the rows below it as a header is (True) or
        set like them (False), for ``blocks.render_table``'s header reading: marked to
        repeat as the header row on each page, the first row of a table whose style sets
        its first row apart, in bold where the rows below are not, or on a shading of its
        own. None for the last row (nothing below to compare)."""
        looks = [self._row_look(tr) for tr in table.findall(_w("tr"))]
        styled_first = self.styles.sets_first_row_apart(table)
        apart: list[bool | None] = []
        for index, (repeated, bold, fill) in enumerate(looks):
            below = looks[index + 1:index + 1 + _ROWS_COMPARED]
            if repeated or (index == 0 and styled_first):
                apart.append(True)
            elif not below:
                apart.append(None)
            else:
                body_bold = any(row_bold for _, row_bold, _ in below)
                apart.append((bold and not body_bold) or fill != below[0][2])
        return apart

    def _row_look(self, tr: etree._Element) -> tuple[bool, bool, str | None]:
        """(marked as a header row, every run with text in bold, the first cell's fill)."""
        flag = tr.find(f"{_w('trPr')}/{_w('tblHeader')}")
        repeated = flag is not None and _val(flag) not in ("0", "false")
        runs = [(r, p) for p in tr.iter(_w("p")) for r in p.iter(_w("r"))
                if "".join(t.text or "" for t in r.iter(_w("t"))).strip()]
        bold = bool(runs) and all(self.styles.run_bold(r, p) for r, p in runs)
        shading = tr.find(f"{_w('tc')}/{_w('tcPr')}/{_w('shd')}")
        fill = _val(shading, "fill") if shading is not None else None
        return repeated, bold, None if fill is None or fill.upper() in _NO_FILL else fill.upper()

    def _footnotes(self) -> None:
        notes = _footnotes_xml(self.word)
        if notes is None or not self.footnote_marks:
            return
        by_id = {_val(note, "id"): note for note in notes.iter(_w("footnote"))}
        for footnote_id, mark in sorted(self.footnote_marks.items(), key=lambda item: item[1]):
            note = by_id.get(footnote_id)
            if note is not None:
                text = " ".join(self._text(p).strip() for p in note.iter(_w("p")))
                self.writer.add("footnote", f"[{mark}] {text.strip()}")

    def _warnings(self) -> list[str]:
        inserted = sum(1 for _ in self.body.iter(_w("ins"), _w("moveTo")))
        deleted = sum(1 for _ in self.body.iter(_w("del"), _w("moveFrom")))
        if not inserted and not deleted:
            return []
        return [
            f"tracked changes resolved to the accepted text: {inserted} insertion(s) kept, "
            f"{deleted} deletion(s) dropped"
        ]


def _is_hidden_run(node: etree._Element) -> bool:
    if node.tag != _w("r"):
        return False
    vanish = node.find(f"{_w('rPr')}/{_w('vanish')}")
    return vanish is not None and _val(vanish) not in ("0", "false")


def _numbering_xml(word) -> etree._Element | None:  # noqa: ANN001
    return _related_xml(word, "/numbering")


def _footnotes_xml(word) -> etree._Element | None:  # noqa: ANN001
    return _related_xml(word, "/footnotes")


def _related_xml(word, reltype_suffix: str) -> etree._Element | None:  # noqa: ANN001
    for rel in word.part.rels.values():
        if rel.reltype.endswith(reltype_suffix) and not rel.is_external:
            part = rel.target_part
            element = getattr(part, "element", None)
            if element is not None:
                return element
            return etree.fromstring(part.blob, parser=etree.XMLParser(resolve_entities=False))
    return None


class _Styles:
    """Paragraph styles: heading levels and numbering, following ``basedOn``."""

    def __init__(self, styles_xml: etree._Element) -> None:
        self.by_id = {_val(s, "styleId"): s for s in styles_xml.iter(_w("style"))}

    def _chain(self, style_id: str | None) -> Iterator[etree._Element]:
        seen: set[str] = set()
        while style_id and style_id not in seen and style_id in self.by_id:
            seen.add(style_id)
            style = self.by_id[style_id]
            yield style
            style_id = _val(style.find(_w("basedOn")))

    def heading_level(self, style_id: str | None, p: etree._Element) -> int | None:
        outline = _val(p.find(f"{_w('pPr')}/{_w('outlineLvl')}"))
        for style in self._chain(style_id):
            name = (_val(style.find(_w("name"))) or "").lower()
            if name == "title":
                return 1
            if name.startswith("heading ") and name[8:].strip().isdigit():
                return int(name[8:])
            outline = outline or _val(style.find(f"{_w('pPr')}/{_w('outlineLvl')}"))
        if outline is not None and outline.isdigit() and int(outline) < 9:
            return int(outline) + 1
        return None

    def run_bold(self, r: etree._Element, p: etree._Element) -> bool:
        """Whether a run is set in bold: its own setting, else its character style's, else
        its paragraph style's."""
        own = r.find(f"{_w('rPr')}/{_w('b')}")
        if own is not None:
            return _val(own) not in ("0", "false")
        styles = [_val(r.find(f"{_w('rPr')}/{_w('rStyle')}")),
                  _val(p.find(f"{_w('pPr')}/{_w('pStyle')}"))]
        for style_id in styles:
            for style in self._chain(style_id):
                bold = style.find(f"{_w('rPr')}/{_w('b')}")
                if bold is not None:
                    return _val(bold) not in ("0", "false")
        return False

    def sets_first_row_apart(self, table: etree._Element) -> bool:
        """Whether the table's style formats its first row on its own (a ``firstRow``
        condition with bold or shading) and the table applies it (``tblLook``: its
        ``firstRow`` flag; Word writes it by default)."""
        look = table.find(f"{_w('tblPr')}/{_w('tblLook')}")
        if look is not None:
            flag = _val(look, "firstRow")
            hex_flags = _val(look)
            if flag is not None:
                on = flag in ("1", "true", "on")
            else:
                try:
                    on = hex_flags is None or bool(int(hex_flags, 16) & _FIRST_ROW_LOOK)
                except ValueError:  # a malformed flag: Word's default applies the first row
                    on = True
            if not on:
                return False
        for style in self._chain(_val(table.find(f"{_w('tblPr')}/{_w('tblStyle')}"))):
            for condition in style.findall(_w("tblStylePr")):
                if _val(condition, "type") == "firstRow" and (
                        condition.find(f"{_w('rPr')}/{_w('b')}") is not None
                        or condition.find(f"{_w('tcPr')}/{_w('shd')}") is not None):
                    return True
        return False

    def numbering(self, style_id: str | None) -> tuple[str | None, str | None]:
        for style in self._chain(style_id):
            num_pr = style.find(f"{_w('pPr')}/{_w('numPr')}")
            if num_pr is not None:
                return _val(num_pr.find(_w("numId"))), _val(num_pr.find(_w("ilvl")))
        return None, None
