"""Rows of one table that hold the same question words: the row asked about is quoted.

A scale of compensation lists "Loss of two limbs or sight of two eyes or one limb and sight
of one eye | 100%" above "Loss of one limb or sight of one eye | 50%": both hold "loss",
"one" and "limb", and score alike. The direct answer quotes the row with fewer words the
question does not name. The table is written in HTML with three label styles and two ways
of writing the share.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

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
    text = " ".join((answer.direct_answer or "").split())
    assert "Loss of one limb or sight of one eye" in text, text
    assert shares[1] in text and "two limbs" not in text, text
