"""A row of a table captioned as a list states its list's value.

"What is the waiting period for hernia?" of a policy whose specified-disease section states
its rule in a sentence of its own ("Expenses related to the treatment of the listed
conditions ... shall be excluded until the expiry of 24 months") and then lists the
conditions in a two-column table under "List of specific diseases/procedures is as below":
the row naming hernia holds no figure, and another sentence of the section states one for
something else ("90 days waiting period ... for all claims under Physiotherapy"). The answer
is the row read with its list's rule, not the figure of the other benefit. The same wording
is written with other captions, periods, list markers and conditions; rows that say "is"
("unless it is necessitated by an accident") are still items.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

CAPTIONS = ["List of specific diseases/procedures is as below",
            "The following are the listed conditions:",
            "List of Specified Diseases"]
PERIODS = [("24 months", "24 months"), ("two (2) years", "2 years"),
           ("thirty six months", "36 months")]
MARKERS = [("a.", "b.", "c."), ("(i)", "(ii)", "(iii)"), ("1)", "2)", "3)")]
CONDITIONS = [("Hernia of all types", "hernia"), ("Stones in the urinary system", "kidney stones"),
              ("Varicose veins", "varicose veins")]
VARIANTS = list(zip(CAPTIONS, PERIODS, MARKERS, CONDITIONS, strict=True))


def policy(caption: str, period: str, markers: tuple[str, str, str], condition: str) -> str:
    first, second, third = markers
    return f"""<html><head><title>Health Policy Wording</title></head><body>
<h1>HEALTH INSURANCE POLICY WORDING</h1>
<p>This Policy is a contract between You and Us. We will cover the medical expenses of
hospitalisation described in this wording, subject to its terms and exclusions.</p>
<h2>6. Specified disease/procedure waiting period</h2>
<p>{first} Expenses related to the treatment of the listed conditions, surgeries or
treatments shall be excluded until the expiry of {period} of continuous coverage after the
date of inception of the first policy with Us.</p>
<p>{second} During the first year of the policy, a 90 days waiting period would be applicable
for all claims under the Physiotherapy benefit except those arising out of an accident.</p>
<p>{third} {caption}</p>
<table>
<tr><td>1. Any type of gastrointestinal ulcers</td><td>2. Cataracts</td></tr>
<tr><td>3. Any type of fistula</td><td>4. Macular degeneration</td></tr>
<tr><td>5. Benign prostatic hypertrophy</td><td>6. {condition}</td></tr>
<tr><td>7. All types of sinuses</td><td>8. Fissure in ano</td></tr>
<tr><td>9. Surgery for vertebral column disorders, unless it is necessitated by an
accident</td><td>10. Correction of eye sight, where the refractive error is 7.5 or more</td></tr>
</table>
<h2>7. Claims</h2>
<p>7.1 You must tell Us of a claim within thirty days of discharge from the hospital.</p>
</body></html>"""


@pytest.fixture(scope="module")
def listed_graph(tmp_path_factory):
    texts = [policy(caption, period[0], markers, condition[0])
             for caption, period, markers, condition in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("listed-table-rows"), texts, suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("asked", ["What is the waiting period for {}?",
                                   "Is there a waiting period for {}?"])
def test_a_listed_row_states_its_lists_period(listed_graph, variant, asked):
    _, (written, value), _, (row, name) = VARIANTS[variant]
    question = asked.format(row.split()[0].lower() if name == "hernia" else row.lower())
    answer = ask_variant(listed_graph, variant, question, suffix=".html")
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found, question
    assert written in text and row in text, text
    assert "Physiotherapy" not in text, text
    verdict = answer.verdict.text if answer.verdict else ""
    assert value.split()[0] in verdict and "90" not in verdict, verdict
