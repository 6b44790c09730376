"""An item of a list whose rule points to where its value is stated answers with that rule.

"Is there a waiting period for hysterectomy?" of a group policy whose specified-disease
section states its rule without a figure ("... shall be excluded until the expiry of number
of months of continuous coverage as mentioned in Certificate of Insurance") and then lists the
conditions in a table captioned "List of specific diseases/procedures is as below"; another
section states a figure for something else ("Expenses related to the treatment of any
illness within 30 days from the first policy commencement date shall be excluded"). The row
naming hysterectomy holds no figure; its list's rule gives one by pointing to the
certificate, as a sentence of its own would. The answer quotes the rule and the row, not the
30 days of the other section. Written with other pointers, captions, markers and conditions.
A limit asked of the same list ("Is there a limit on ... claims?") is not given by a pointer
for a number of months.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

POINTERS = ["as mentioned in Certificate of Insurance", "as specified in the Policy Schedule",
            "as stated in the Schedule of Benefits"]
CAPTIONS = ["List of specific diseases/procedures is as below",
            "The following are the listed conditions:",
            "List of Specified Diseases"]
MARKERS = [("a)", "b)", "c)"), ("(i)", "(ii)", "(iii)"), ("1.", "2.", "3.")]
CONDITIONS = [("Hysterectomy for Menorrhagia or Fibromyoma", "hysterectomy"),
              ("Surgery of Genito urinary system", "genito urinary surgery"),
              ("Tonsillectomy and adenoidectomy", "tonsillectomy")]
VARIANTS = list(zip(POINTERS, CAPTIONS, MARKERS, CONDITIONS, strict=True))


def policy(pointer: str, caption: str, markers: tuple[str, str, str], condition: str) -> str:
    first, second, third = markers
    return f"""<html><head><title>Group Mediclaim Policy</title></head><body>
<h1>GROUP MEDICLAIM INSURANCE POLICY</h1>
<p>This Policy is a contract between the Policyholder and Us. We will cover the medical
expenses of hospitalisation described in this wording, subject to its terms and
exclusions.</p>
<h2>1. Initial waiting period</h2>
<p>{first} Expenses related to the treatment of any illness within 30 days from the first
policy commencement date shall be excluded except claims arising due to an accident.</p>
<h2>2. Specified disease/procedure waiting period</h2>
<p>{first} Expenses related to the treatment of the listed conditions, surgeries or
treatments shall be excluded until the expiry of number of months of continuous coverage
{pointer} after the date of inception of the first policy with Us.</p>
<p>{second} The waiting period for listed conditions shall apply even if contracted after
the policy or declared and accepted without a specific exclusion.</p>
<p>{third} {caption}</p>
<table>
<tr><td>Cataract</td><td>Benign Prostatic Hypertrophy</td></tr>
<tr><td>{condition}</td><td>Hydrocele</td></tr>
<tr><td>Fistula in anus</td><td>Piles</td></tr>
</table>
<h2>3. Claims</h2>
<p>3.1 You must tell Us of a claim within seven days of discharge from the hospital.</p>
</body></html>"""


@pytest.fixture(scope="module")
def deferred_graph(tmp_path_factory):
    texts = [policy(pointer, caption, markers, condition[0])
             for pointer, caption, markers, condition in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("deferred-list-rules"), texts, suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_row_answers_with_the_rule_that_points_to_its_period(deferred_graph, variant):
    pointer, _, _, (row, name) = VARIANTS[variant]
    question = f"Is there a waiting period for {name}?"
    answer = ask_variant(deferred_graph, variant, question, suffix=".html")
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found, question
    assert row in text and pointer in text, text
    assert "30 days" not in text, text


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_pointer_for_months_gives_no_limit(deferred_graph, variant):
    pointer, _, _, (_, name) = VARIANTS[variant]
    answer = ask_variant(deferred_graph, variant, f"Is there a limit on {name} claims?",
                         suffix=".html")
    text = " ".join((answer.direct_answer or "").split())
    assert pointer not in text, text
