"""Write real Word files with automatic numbering, as Word itself stores it.

python-docx has no API for list definitions, so this adds ``w:abstractNum`` / ``w:num``
elements to the document's numbering part and points paragraphs at them with
``w:numPr``; the numbers themselves are NOT in the paragraph text, exactly as in a
Word-made file. Used by tests/ingest/test_docx.py and scripts/bench_formats.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn

# (numFmt, lvlText, start[, isLgl]) per level: "ARTICLE I", "1.1", "(a)", "(i)"; isLgl on
# level 1 makes Word show the article's counter as decimal there ("1.1", not "I.1").
CONTRACT_LEVELS: tuple[tuple, ...] = (
    ("upperRoman", "ARTICLE %1", 1),
    ("decimal", "%1.%2", 1, True),
    ("lowerLetter", "(%3)", 1),
    ("lowerRoman", "(%4)", 1),
)
# "1.", "1.1", "1.1.1": a plain decimal outline whose level 0 counts articles as 1, 2, ...
DECIMAL_LEVELS: tuple[tuple, ...] = (
    ("decimal", "%1.", 1),
    ("decimal", "%1.%2", 1),
    ("lowerLetter", "(%3)", 1),
    ("lowerRoman", "(%4)", 1),
)


def add_list_definition(document: docx.document.Document, abstract_id: int,
                        levels: Sequence[tuple],
                        restart_never: Sequence[int] = ()) -> None:
    """Add ``w:abstractNum`` ``abstract_id`` with the given levels to the numbering part."""
    numbering = document.part.numbering_part.element
    lvls = []
    for ilvl, (fmt, text, start, *legal) in enumerate(levels):
        restart = '<w:lvlRestart w:val="0"/>' if ilvl in restart_never else ""
        is_legal = "<w:isLgl/>" if legal and legal[0] else ""
        lvls.append(
            f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/>{restart}{is_legal}'
            f'<w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/>'
            f'<w:pPr><w:ind w:left="{720 * (ilvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>'
        )
    abstract = parse_xml(
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abstract_id}">'
        f'<w:multiLevelType w:val="multilevel"/>{"".join(lvls)}</w:abstractNum>'
    )
    first_num = numbering.find(qn("w:num"))
    if first_num is not None:  # the schema wants every abstractNum before the nums
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)


def add_list_instance(document: docx.document.Document, num_id: int, abstract_id: int,
                      start_overrides: dict[int, int] | None = None) -> None:
    """Add ``w:num`` ``num_id`` using ``abstract_id`` (with optional restarts)."""
    overrides = "".join(
        f'<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{start}"/></w:lvlOverride>'
        for ilvl, start in (start_overrides or {}).items()
    )
    document.part.numbering_part.element.append(parse_xml(
        f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/>'
        f"{overrides}</w:num>"
    ))


def add_numbered_paragraph(document: docx.document.Document, text: str, num_id: int,
                           level: int, style: str | None = None):
    """A paragraph Word numbers automatically (list ``num_id``, level ``level``)."""
    paragraph = document.add_paragraph(text, style=style)
    paragraph._p.get_or_add_pPr().append(parse_xml(
        f'<w:numPr {nsdecls("w")}><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr>'
    ))
    return paragraph


def numbered_contract(path: Path, items: Sequence[tuple[int, str]],
                      levels: Sequence[tuple] = CONTRACT_LEVELS,
                      title: str | None = None) -> Path:
    """A Word file whose ``items`` (level, text) are one automatically numbered list.

    Level -1 is an unnumbered body paragraph.
    """
    document = docx.Document()
    if title:
        document.add_heading(title, level=1)
    add_list_definition(document, 10, levels)
    add_list_instance(document, 10, 10)
    for level, text in items:
        if level < 0:
            document.add_paragraph(text)
        else:
            add_numbered_paragraph(document, text, 10, level)
    document.save(path)
    return path


def add_footnotes(document: docx.document.Document, notes: Sequence[tuple[object, str]]) -> None:
    """Footnotes as Word stores them: a footnotes part, and a reference run per paragraph.

    ``notes`` pairs a python-docx paragraph with its footnote's text (ids from 1).
    """
    from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    bodies = "".join(
        f'<w:footnote w:id="{number}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/>'
        f'</w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r>'
        f"</w:p></w:footnote>"
        for number, (_, text) in enumerate(notes, start=1)
    )
    xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes {nsdecls("w")}>'
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
        f"</w:footnote>{bodies}</w:footnotes>"
    )
    part = Part(PackURI("/word/footnotes.xml"), CONTENT_TYPE.WML_FOOTNOTES, xml.encode(),
                document.part.package)
    document.part.relate_to(part, RELATIONSHIP_TYPE.FOOTNOTES)
    for number, (paragraph, _) in enumerate(notes, start=1):
        paragraph._p.append(parse_xml(
            f'<w:r {nsdecls("w")}><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
            f'<w:footnoteReference w:id="{number}"/></w:r>'
        ))


def add_tracked_paragraph(document: docx.document.Document, kept: str, inserted: str,
                          deleted: str, tail: str):
    """A paragraph with tracked changes: ``kept`` + inserted run + deleted run + ``tail``."""
    paragraph = document.add_paragraph(kept)
    for xml in (
        f'<w:ins {nsdecls("w")} w:id="1" w:author="Counsel" w:date="2026-01-01T00:00:00Z">'
        f'<w:r><w:t xml:space="preserve">{inserted}</w:t></w:r></w:ins>',
        f'<w:del {nsdecls("w")} w:id="2" w:author="Counsel" w:date="2026-01-01T00:00:00Z">'
        f'<w:r><w:delText xml:space="preserve">{deleted}</w:delText></w:r></w:del>',
        f'<w:r {nsdecls("w")}><w:t xml:space="preserve">{tail}</w:t></w:r>',
    ):
        paragraph._p.append(parse_xml(xml))
    return paragraph


def add_rendered_page_break(paragraph) -> None:
    """Mark where Word's last layout started a new page: inside ``paragraph``, before its text."""
    run = paragraph.runs[0]._r if paragraph.runs else paragraph._p.add_r()
    run.insert(0, parse_xml(f'<w:lastRenderedPageBreak {nsdecls("w")}/>'))
