"""Rows of one table that hold the same question words: the row asked about is quoted.

A scale of compensation lists "Loss of two limbs or sight of two eyes or one limb and sight
of one eye | 100%" above "Loss of one limb or sight of one eye | 50%": both hold "loss",
"one" and "limb", and score alike. The direct answer quotes the row with fewer words the
question does not name. The table is written in HTML with three label styles and two ways
of writing the share.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

LABELS = [("(i)", "(ii)", "(iii)", "(iv)"), ("a.", "b.", "c.", "d."), ("1", "2", "3", "4")]
SHARES = [("100%", "50%", "25%"), ("100 per cent", "50 per cent", "25 per cent")]
VARIANTS = [(labels, shares) for labels in LABELS for shares in SHARES]


def policy(labels: tuple[str, ...], shares: tuple[str, ...]) -> str:
    rows = [("Death", shares[0]),
            ("Loss of two limbs or sight of two eyes or one limb and sight of one eye",
             shares[0]),
            ("Loss of one limb or sight of one eye", shares[1]),
            ("Permanent total disablement from injuries other than named above", shares[2])]
    cells = "\n".join(f"<tr><td>{label} {nature}</td><td>{share}</td></tr>"
                      for label, (nature, share) in zip(labels, rows, strict=True))
    return f"""<html><head><title>Private Car Package Policy</title></head><body>
<h1>PRIVATE CAR PACKAGE POLICY</h1>
<h2>Section III. Personal accident cover for the owner-driver</h2>
<p>The Company undertakes to pay compensation as per the following scale for bodily injury
sustained by the owner-driver in direct connection with the insured vehicle.</p>
<table>
<tr><th>Details of injury</th><th>Scale of compensation</th></tr>
{cells}
</table>
<h2>Section IV. General exceptions</h2>
<p>The Company shall not be liable for any accident occurring outside the geographical
area.</p>
</body></html>"""


@pytest.fixture(scope="module")
def scale_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("table-rows"),
                         [policy(*variant) for variant in VARIANTS], ".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_row_with_fewer_other_words_is_quoted(scale_graph, variant):
    _, shares = VARIANTS[variant]
    answer = ask_variant(scale_graph, variant,
                         "What compensation is paid to the owner-driver for loss of one limb?",
                         ".html")
    text = direct_text(answer)
    assert "Loss of one limb or sight of one eye" in text, text
    assert shares[1] in text and "two limbs" not in text, text


# A table set inside a paragraph (a plain-text wording, or a PDF table the reader keeps in
# its block) reaches the clause as rendered rows, "band | column: value". Each row is one
# sentence: cut at the colon before a figure, a row's band was read with the next row's
# rate ("30%\nExceeding 3 years ... | % of Depreciation:"), and the last row with the
# prose after the table.
ROW_STYLES = [
    ("Age of the vehicle | % of Depreciation", "{band} | % of Depreciation: {rate}"),
    ("Age of the vehicle | Rate", "{band} | {rate}"),
]
RATES = [("5%", "15%", "20%", "30%", "40%", "50%"),
         ("5 per cent", "15 per cent", "20 per cent", "30 per cent", "40 per cent",
          "50 per cent")]
BANDS = ["Not exceeding 6 months", "Exceeding 6 months but not exceeding 1 year",
         "Exceeding 1 year but not exceeding 2 years",
         "Exceeding 2 years but not exceeding 3 years",
         "Exceeding 3 years but not exceeding 4 years",
         "Exceeding 4 years but not exceeding 5 years"]
INLINE = [(style, rates) for style in ROW_STYLES for rates in RATES]


def inline_schedule(style: tuple[str, str], rates: tuple[str, ...]) -> str:
    header, row = style
    rows = "\n".join(row.format(band=band, rate=rate)
                     for band, rate in zip(BANDS, rates, strict=True))
    return f"""PRIVATE CAR PACKAGE POLICY

SECTION I. LOSS OF OR DAMAGE TO THE VEHICLE

4. Sum insured - Insured's Declared Value (IDV)
The Insured's Declared Value (IDV) of the vehicle will be deemed to be the sum insured for
the purpose of this Policy. The IDV of the vehicle is to be fixed on the basis of the
manufacturer's listed selling price and adjusted for depreciation as per the schedule below:
{header}
{rows}
IDV of vehicles beyond 5 years of age is to be determined on the basis of an understanding
between the insurer and the insured.

5. Towing
In the event of the vehicle being disabled the Company will bear the reasonable cost of
removal to the nearest repairer up to Rs. 1500.
"""


def test_rows_inside_prose_are_sentences_of_their_own():
    from clausegraph.answer.direct import split_sentences

    text = inline_schedule(*INLINE[0])
    sentences = [text[start:end] for start, end in split_sentences(text)]
    row = "Exceeding 2 years but not exceeding 3 years | % of Depreciation: 30%"
    assert row in sentences, sentences
    last = "Exceeding 4 years but not exceeding 5 years | % of Depreciation: 50%"
    assert last in sentences, sentences


@pytest.fixture(scope="module")
def inline_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("inline-rows"),
                         [inline_schedule(*variant) for variant in INLINE])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(INLINE)))
def test_the_row_of_a_table_inside_prose_is_quoted(inline_graph, variant):
    _, rates = INLINE[variant]
    answer = ask_variant(inline_graph, variant,
                         "What depreciation rate applies to a vehicle between 2 and 3 years old?")
    text = direct_text(answer)
    assert "Exceeding 2 years but not exceeding 3 years" in text, text
    assert rates[3] in text, text
    assert rates[4] not in text and "beyond 5 years" not in text, text
