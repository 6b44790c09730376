"""Rows of one table that hold the same question words: the row asked about is quoted.

A scale of compensation lists "Loss of two limbs or sight of two eyes or one limb and sight
of one eye | 100%" above "Loss of one limb or sight of one eye | 50%": both hold "loss",
"one" and "limb", and score alike. The direct answer quotes the row with fewer words the
question does not name. The table is written in HTML with three label styles and two ways
of writing the share.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, motor_policy_html, variant_graph, written_graph

from clausegraph.answer.gate import using_gate

LABELS = [("(i)", "(ii)", "(iii)", "(iv)"), ("a.", "b.", "c.", "d."), ("1", "2", "3", "4")]
SHARES = [("100%", "50%", "25%"), ("100 per cent", "50 per cent", "25 per cent")]
VARIANTS = [(labels, shares) for labels in LABELS for shares in SHARES]


def policy(labels: tuple[str, ...], shares: tuple[str, ...]) -> str:
    rows = [("Death", shares[0]),
            ("Loss of two limbs or sight of two eyes or one limb and sight of one eye",
             shares[0]),
            ("Loss of one limb or sight of one eye", shares[1]),
            ("Permanent total disablement from injuries other than named above", shares[2])]
    return motor_policy_html(
        "Section III. Personal accident cover for the owner-driver",
        "The Company undertakes to pay compensation as per the following scale for bodily "
        "injury sustained by the owner-driver in direct connection with the insured vehicle.",
        ("Details of injury", "Scale of compensation"),
        [(f"{label} {nature}", share) for label, (nature, share) in zip(labels, rows, strict=True)])


@pytest.fixture(scope="module")
def tables_graph(tmp_path_factory):
    """The compensation scales and the bonus scales below, one HTML file each."""
    return written_graph(tmp_path_factory.mktemp("table-rows"), {
        **{f"scale-{i}.html": policy(*variant) for i, variant in enumerate(VARIANTS)},
        **{f"bonus-{i}.html": bonus_policy(*variant) for i, variant in enumerate(BONUS)},
        **{f"refund-{i}.html": refund_policy(rates) for i, rates in enumerate(REFUNDS)}})


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_row_with_fewer_other_words_is_quoted(tables_graph, variant):
    _, shares = VARIANTS[variant]
    answer = tables_graph.ask("What compensation is paid to the owner-driver for loss of one limb?",
                              documents=[f"scale-{variant}.html"])
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


# An age the question states is met by the band that holds it: "Exceeding 1 year but not
# exceeding 2 years" for an 18-month-old car (read with the row above it, the band's quote
# had stated two bands, and an 18-month-old was "Exceeding 6 months" as well).
AGES = [("What depreciation applies to a car that is 18 months old?", 2),
        ("What depreciation applies to a 3 month old car?", 0),
        ("What depreciation applies to a car that is 4.5 years old?", 5)]


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(INLINE)))
@pytest.mark.parametrize(("question", "band"), AGES)
def test_the_band_that_holds_the_age_asked_is_quoted(inline_graph, variant, question, band):
    _, rates = INLINE[variant]
    with using_gate(None):
        text = direct_text(ask_variant(inline_graph, variant, question))
    assert BANDS[band] in text and rates[band] in text, text
    assert not any(BANDS[other] in text for other in range(len(BANDS)) if other != band), text


# A no-claim-bonus scale lists one row per number of claim-free years; the rows share every
# word but the number, so "after five claim-free years" quotes the row of 5 (or "five")
# years, whichever way the table and the question write the number.
YEARS = [("full year", "2 consecutive years", "3 consecutive years", "4 consecutive years",
          "5 consecutive years"),
         ("one year", "two consecutive years", "three consecutive years",
          "four consecutive years", "five consecutive years")]
BONUS_SHARES = [("20%", "25%", "35%", "45%", "50%"), ("20 per cent", "25 per cent", "35 per cent",
                                                       "45 per cent", "50 per cent")]
BONUS = [(years, shares) for years in YEARS for shares in BONUS_SHARES]
BONUS_QUESTIONS = [("What is the no claim bonus after five claim-free years?", 4),
                   ("How much no claim bonus is given after 3 claim-free years?", 2)]


def bonus_policy(years: tuple[str, ...], shares: tuple[str, ...]) -> str:
    return motor_policy_html(
        "No claim bonus",
        "The insured is entitled to a No Claim Bonus on the own damage premium as per the "
        "following table.",
        ("Period of insurance without claim", "% of discount on own damage premium"),
        [(f"No claim made or pending during the preceding {span} of insurance", share)
         for span, share in zip(years, shares, strict=True)])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(BONUS)))
@pytest.mark.parametrize(("question", "row"), BONUS_QUESTIONS)
def test_the_row_of_the_figure_asked_is_quoted(tables_graph, variant, question, row):
    years, shares = BONUS[variant]
    text = direct_text(tables_graph.ask(question, documents=[f"bonus-{variant}.html"]))
    assert years[row] in text and shares[row] in text, text


# A short-period refund scale: the question names no period, so no row answers alone; the
# rows are quoted in the table's order (the last one, "Nil", had been quoted by itself).
REFUNDS = [("75%", "50%", "25%", "Nil"), ("75 per cent", "50 per cent", "25 per cent", "NIL"),
           ("Rs. 750", "Rs. 500", "Rs. 250", "Nil")]
PERIODS = ("Up to one month", "Up to three months", "Up to six months", "Exceeding six months")


def refund_policy(rates: tuple[str, ...]) -> str:
    return motor_policy_html(
        "Cancellation",
        "The insured may cancel this policy by giving 15 days written notice, and the Company "
        "shall refund premium on short period rates as detailed below.",
        ("Period on risk", "Rate of premium refunded"),
        list(zip(PERIODS, rates, strict=True)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(REFUNDS)))
def test_rows_the_question_picks_none_of_are_quoted_in_order(tables_graph, variant):
    # which rows are quoted, not whether to answer: the gate, fitted on real wordings,
    # doubts a page this small (P(right) 0.22)
    with using_gate(None):
        text = direct_text(tables_graph.ask("What refund is paid on cancellation by the insured?",
                                            documents=[f"refund-{variant}.html"]))
    places = [text.find(period) for period in PERIODS]
    assert all(place >= 0 for place in places) and places == sorted(places), text
    assert all(rate in text for rate in REFUNDS[variant]), text



# A table under a condition that names every row's label and points to the schedule ("...
# i.e. Half Yearly, Quarterly or Monthly, as mentioned in the policy schedule": the HDFC ERGO
# group wording): each row is read with the condition's words, so every row held every
# question word, all were quoted as parallel rows and the first row's period led ("30 days"
# for monthly). The row whose own words name what is asked is quoted alone.
INSTALMENTS = [(("Half Yearly", "Quarterly", "Monthly"), ("30 days", "30 days", "15 days")),
               (("Half-yearly", "Quarterly", "Monthly"),
                ("thirty (30) days", "thirty (30) days", "fifteen (15) days")),
               (("Semi-annual", "Quarterly", "Monthly"), ("31 days", "31 days", "2 weeks"))]


def instalment_policy(options: tuple[str, ...], periods: tuple[str, ...]) -> str:
    """The table under the numbered condition that names its rows, as its item."""
    rows = "\n".join(f"<tr><td>{option}</td><td>{period}</td></tr>"
                     for option, period in zip(options, periods, strict=True))
    return f"""<html><head><title>Group Health Insurance Policy</title></head><body>
<h1>GROUP HEALTH INSURANCE POLICY</h1>
<h2>Section G. General terms and conditions</h2>
<p>16. Free look period. The free look period shall be applicable on new policies.</p>
<p>17. Premium payment in instalments. If the insured person has opted for payment of the
premium on an instalment basis, i.e. {options[0]}, {options[1]} or {options[2]}, as
mentioned in the policy schedule, the following conditions shall apply:</p>
<p>i. A grace period as in the table below is given to pay the instalment premium due.</p>
<table>
<tr><th>Instalment premium option</th><th>Grace period applicable</th></tr>
{rows}
</table>
<p>ii. During the grace period, coverage will not be available from the due date of the
instalment premium till the date of its receipt.</p>
<p>18. Moratorium period. After eight continuous years no claim shall be contestable.</p>
</body></html>"""


@pytest.fixture(scope="module")
def instalments_graph(tmp_path_factory):
    return written_graph(tmp_path_factory.mktemp("instalment-rows"), {
        f"instalment-{i}.html": instalment_policy(*variant)
        for i, variant in enumerate(INSTALMENTS)})


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(INSTALMENTS)))
def test_the_row_the_question_names_is_quoted_alone(instalments_graph, variant):
    options, periods = INSTALMENTS[variant]
    with using_gate(None):
        text = direct_text(instalments_graph.ask(
            "What is the grace period for monthly premium instalments?",
            documents=[f"instalment-{variant}.html"]))
    assert f"{options[2]} | Grace period applicable: {periods[2]}" in text, text
    assert options[0] not in text.split("—", 1)[-1], text
