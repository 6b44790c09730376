"""Characters drawn by a font on another code (₹ on the backtick, Wingdings bullets) come
out as the font draws them, decided by the font, not by the file; letters a font uses for
its ligatures are read as the ligatures, decided by the document's words (ingest/glyphs.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from clausegraph.eval.data import shared_data_dir
from clausegraph.ingest.glyphs import (
    base_font_name,
    font_character_map,
    ligature_stand_ins,
    page_character_map,
)
from clausegraph.ingest.pdf import pdf_text
from clausegraph.text.nlp import english_words


def _pdf_with_fonts(lines: list[tuple[str, bytes]]) -> bytes:
    """A one-page PDF showing each (font base name, bytes) on its own line; the fonts are
    not embedded, as in many generated policy PDFs, so MuPDF reports the stored codes."""
    fonts = sorted({font for font, _ in lines})
    number = {font: 5 + i for i, font in enumerate(fonts)}
    content = b"BT\n"
    for row, (font, data) in enumerate(lines):
        shown = data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        content += b"/F%d 12 Tf 1 0 0 1 72 %d Tm (%s) Tj\n" % (number[font], 750 - 30 * row, shown)
    content += b"ET\n"
    resources = b" ".join(b"/F%d %d 0 R" % (n, n) for n in number.values())
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << " + resources + b" >> >> >>",
               b"<< /Length %d >>\nstream\n%sendstream" % (len(content), content)]
    for font in fonts:
        # a symbol font has no text encoding: its codes are its glyphs
        encoding = b"" if "Wingdings" in font else b" /Encoding /WinAnsiEncoding"
        objects.append(b"<< /Type /Font /Subtype /TrueType /BaseFont /" + font.encode()
                       + encoding + b" >>")
    out, offsets = b"%PDF-1.4\n", []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return out


def test_rupee_font_backtick_and_wingdings_bullet_become_the_drawn_characters(tmp_path):
    data = _pdf_with_fonts([
        ("Helvetica", b"Sum insured up to"),
        ("ABCDEF+RupeeForadian", b"` 1,00,000"),
        ("Wingdings", b"\x9f \x6e"),  # a bullet and a black square, as Wingdings draws them
        ("Helvetica", b"A quoted `term` in an ordinary font"),
    ])
    path = tmp_path / "generated.pdf"
    read = pdf_text(path, data, ocr=False)
    text = read.text
    assert "\u20b9 1,00,000" in text
    # the lines keep their style (size, weight) though their text changed
    assert "\u20b9 1,00,000" in [text[s.start:s.end] for s in read.line_styles]
    assert "\u2022 \u25a0" in text
    # the same backtick in an ordinary font is a backtick
    assert "A quoted `term` in an ordinary font" in text


def test_font_maps_are_by_font_name():
    assert base_font_name("IQGRKY+RupeeForadian") == "RupeeForadian"
    assert base_font_name("Mulish-Regular") == "Mulish-Regular"
    assert font_character_map("IQGRKY+RupeeForadian") == {"`": "\u20b9"}
    assert font_character_map("Rupee Foradian")["`"] == "\u20b9"
    assert font_character_map("ArialMT") == {} and font_character_map("Calibri") == {}
    assert font_character_map("SymbolMT")["\uf0b7"] == "\u2022"
    # Symbol's own letters stay: only its unmapped (Private Use) codes move
    assert "\u00b7" not in font_character_map("Symbol")
    # text without its font (a table's words) is mapped only where the page agrees
    spans = [("RupeeForadian", "` 5,000"), ("Wingdings", "\uf0a7"), ("ArialMT", "Sum")]
    assert page_character_map(spans) == {"`": "\u20b9", "\uf0a7": "\u25aa"}
    assert "`" not in page_character_map([*spans, ("ArialMT", "a `quoted` word")])


POLICIES = shared_data_dir() / "insurance-policies"


@pytest.mark.skipif(not (POLICIES / "ICIHLIP22012V012223.pdf").is_file(),
                    reason="needs ../shared/data/insurance-policies")
@pytest.mark.parametrize("name", ["ICIHLIP22012V012223.pdf", "CHOTGDP23004V012223.pdf"])
def test_real_policies_show_rupees_and_bullets(name):
    path = Path(POLICIES / name)
    text = pdf_text(path, path.read_bytes(), ocr=False).text
    assert not re.search("[\uf000-\uf0ff]", text)  # no missing-glyph boxes
    if name.startswith("ICI"):  # this insurer's rupee font
        assert re.search("\u20b9 ?[0-9]", text) and not re.search("` ?[0-9]", text)


# Letters a font uses for its ligatures, as SBI General's motor wording has them; the
# sentences are written here, in other words than that policy's.
_FI, _FFI, _FL = "\u0124", "\u0126", "\u0125"  # Ĥ Ħ ĥ
_GARBLED = ("The Ĥrst beneĤciary named in the CertiĤcate is notiĤed by the oĦcer. "
            "A Ĥre or ĥood that reĥects on the vehicle is deĤned in Section 2. "
            "The insurer's oĦces conĤrm the ĥeet's Ĥtness within the speciĤed period. "
            "An eĦcient and suĦcient inĥuence is required").replace(
                "Ĥ", _FI).replace("Ħ", _FFI).replace("ĥ", _FL)


def test_letters_standing_for_ligatures_are_read_from_the_documents_words():
    assert ligature_stand_ins([_GARBLED], english_words) == {_FI: "fi", _FFI: "ffi", _FL: "fl"}
    # the same words under other letters: the words decide, not the code
    swapped = _GARBLED.replace(_FI, "\u0123").replace(_FL, "\u00fe")
    assert ligature_stand_ins([swapped], english_words) == {"\u0123": "fi", _FFI: "ffi",
                                                            "\u00fe": "fl"}
    # real accented letters in English text are no ligatures, nor is a letter seen twice
    accented = ("José Müller of Zürich signed the café's lease; the Société Générale "
                "and Crédit Agricole were named. Señor Peña paid. " + _GARBLED.replace(_FL, "é"))
    found = ligature_stand_ins([accented], english_words)
    assert "é" not in found and "ü" not in found and "ñ" not in found
    assert ligature_stand_ins(["Plain English words only, no odd letters."], _no_words) == {}


def _no_words() -> list[str]:
    raise AssertionError("the word list is read only when a letter is in doubt")


def test_a_pdf_whose_font_maps_ligatures_to_other_letters_reads_as_english(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    # MuPDF's CJK font has these Latin Extended letters (and is always in the wheel)
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)
    for row, sentence in enumerate(_GARBLED.split(". ")):
        page.insert_text((72, 72 + 20 * row), sentence, fontname="F0", fontsize=10)
    doc.subset_fonts()
    path = tmp_path / "ligatures.pdf"
    read = pdf_text(path, doc.tobytes(garbage=3, deflate=True), ocr=False)
    assert "The first beneficiary named in the Certificate is notified by the officer" in read.text
    assert "a fire or flood".lower() in read.text.lower() and "fleet's fitness" in read.text
    assert not re.search(f"[{_FI}{_FFI}{_FL}]", read.text)
    # every line keeps its style: offsets were taken on the repaired text
    styled = [read.text[s.start:s.end] for s in read.line_styles]
    assert len(styled) == 4 and styled[0].startswith("The first beneficiary")


SBI_MOTOR = shared_data_dir() / "policies-dev" / "SBIGeneral_Bundled_Private_Car_Motor.pdf"


@pytest.mark.skipif(not SBI_MOTOR.is_file(), reason="needs ../shared/data/policies-dev")
def test_real_policy_with_ligature_letters_reads_as_english():
    text = pdf_text(SBI_MOTOR, SBI_MOTOR.read_bytes(), ocr=False).text
    assert not re.search("[\u0123-\u0126]", text)
    assert "beneficiary" in text and "Office" in text and "influence" in text


@pytest.mark.parametrize("text", [
    "Le présent contrat est conclu entre la société et le bénéficiaire. La durée de la période "
    "d'essai est fixée à trois mois; toute modification sera notifiée par écrit. Élu, réglé, "
    "créé, déclaré, été, école, épargne, état, événement.",
    "Die Kündigungsfrist beträgt drei Monate. Für Schäden haftet der Versicherer gemäß den "
    "Bedingungen; über Änderungen wird schriftlich informiert. Größe, Höhe, Straße, Gebühr, "
    "Tür, Übergabe, Öffnung, zurück, natürlich, möglich, später.",
    "El año de vigencia comienza en la fecha señalada. España, niño, señor, mañana, pequeño, "
    "diseño, sueño, compañero.",
    "Ubezpieczyciel płaci świadczenie w ciągu miesiąca. Właściciel pojazdu był zobowiązany do "
    "złożenia wniosku. Mały, człowiek, żółty, źródło, łatwy, ściana, będzie, miał, stał, dał.",
])
def test_letters_of_other_languages_are_no_ligatures(text):
    assert ligature_stand_ins([text], english_words) == {}
