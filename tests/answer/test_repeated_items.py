"""The same item in another part's list is no exception to the answer.

"Is gestational surrogacy covered?" of a policy with a domestic and an international part,
each with its own exclusions list naming the same item under another label ("c.
Gestational Surrogacy" in one, "d. Gestational Surrogacy" in the other). The answer quotes
one; the other says the same and is not listed after it as an exception ("except: c.
Gestational Surrogacy"). Written with other items and list labels.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

ITEMS = [("Gestational Surrogacy", "gestational surrogacy"),
         ("Hormone Replacement Therapy", "hormone replacement therapy"),
         ("Reversal of Sterilization", "reversal of sterilization")]
LABELS = [(("a.", "b.", "c."), ("a.", "b.", "c.", "d.")),
          (("(i)", "(ii)", "(iii)"), ("(i)", "(ii)", "(iii)", "(iv)")),
          (("1)", "2)", "3)"), ("1)", "2)", "3)", "4)"))]
VARIANTS = list(zip(ITEMS, LABELS, strict=True))


def policy(item: str, domestic: tuple[str, ...], international: tuple[str, ...]) -> str:
    return f"""<html><head><title>Global Health Policy</title></head><body>
<h1>GLOBAL HEALTH CARE POLICY WORDING</h1>
<p>This Policy is a contract between You and Us. We will cover the medical expenses of
hospitalisation described in this wording, subject to its terms and exclusions.</p>
<h2>SECTION D) EXCLUSIONS APPLICABLE TO PART A - DOMESTIC COVER</h2>
<p>17) Sterility and Infertility (Code - Excl17) Expenses related to sterility and
infertility. This includes:</p>
<p>{domestic[0]} Any type of contraception</p>
<p>{domestic[1]} Assisted reproduction services including artificial insemination</p>
<p>{domestic[2]} {item}</p>
<h2>SECTION E) EXCLUSIONS APPLICABLE TO PART B - INTERNATIONAL COVER</h2>
<p>12) Sterility and Infertility (Code - Excl12) Expenses related to sterility and
infertility. This includes:</p>
<p>{international[0]} Any type of contraception</p>
<p>{international[1]} Assisted reproduction services including artificial insemination</p>
<p>{international[2]} In vitro fertilisation of any kind</p>
<p>{international[3]} {item}</p>
<h2>SECTION F) CLAIMS</h2>
<p>1. You must tell Us of a claim within seven days of discharge from the hospital.</p>
</body></html>"""


@pytest.fixture(scope="module")
def repeated_graph(tmp_path_factory):
    texts = [policy(item[0], *labels) for item, labels in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("repeated-items"), texts, suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_same_item_elsewhere_is_no_exception(repeated_graph, variant):
    (item, asked), _ = VARIANTS[variant]
    answer = ask_variant(repeated_graph, variant, f"Is {asked} covered?", suffix=".html")
    assert answer.direct.found
    assert item in (answer.direct_answer or ""), answer.direct_answer
    excepts = [" ".join(line.text.split()) for line in answer.direct.exceptions]
    assert not [text for text in excepts if text.endswith(item)], excepts
