"""An item far down a long exclusions section is read under the section's heading.

"Is gestational surrogacy covered?" of a policy whose exclusions section runs to many
numbered exclusions, each with lettered items, the asked one among the last ("17) Sterility
and Infertility (Code -Excl17) ... c. Gestational Surrogacy"): the item names what is asked
and states no refusal of its own; the section's heading ("SECTION D) EXCLUSIONS - STANDARD
EXCLUSIONS", dozens of clauses above it, and written in the section path without the mark
after its number) refuses it. The answer quotes that heading with the item and says
"No: excluded". Written with other heading styles (a bracket after a letter or a number,
a colon), numbering schemes and items.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

HEADINGS = ["SECTION D) EXCLUSIONS - STANDARD EXCLUSIONS APPLICABLE TO THE DOMESTIC COVER",
            "PART 4: WHAT IS NOT COVERED UNDER THIS POLICY",
            "Section 5) What we will not pay for"]
NUMBERS = [("{n})", ("a.", "b.", "c.", "d.")), ("{n}.", ("(i)", "(ii)", "(iii)", "(iv)")),
           ("({n})", ("(a)", "(b)", "(c)", "(d)"))]
ITEMS = [("Gestational Surrogacy", "gestational surrogacy"),
         ("Hormone replacement therapy", "hormone replacement therapy"),
         ("Freezing of eggs or sperm", "freezing of eggs")]
VARIANTS = list(zip(HEADINGS, NUMBERS, ITEMS, strict=True))
FILLER = ["Investigation and evaluation", "Rest cure and rehabilitation", "Obesity treatment",
          "Change of gender treatments", "Cosmetic or plastic surgery", "Hazardous sports",
          "Breach of law", "Excluded providers", "Drug and alcohol abuse", "Nursing homes",
          "Dietary supplements", "Refractive error", "Unproven treatments", "War and terrorism",
          "Nuclear hazards", "Self-inflicted injury"]


def policy(heading: str, numbers: tuple[str, tuple[str, ...]], item: str) -> str:
    number, letters = numbers
    sections = []
    for n, title in enumerate(FILLER, start=1):
        items = "".join(f"<p>{letter} Expenses of the {word} kind related to {title.lower()} "
                        f"attract no payment in any event.</p>"
                        for letter, word in zip(letters[:3], ("first", "second", "third"),
                                                strict=True))
        sections.append(f"<p>{number.format(n=n)} {title} (Code - {n:02d}) Expenses related "
                        f"to {title.lower()}. This includes:</p>{items}")
    last = number.format(n=len(FILLER) + 1)
    return f"""<html><head><title>Health Insurance Policy</title></head><body>
<h1>HEALTH INSURANCE POLICY WORDING</h1>
<p>This Policy is a contract between You and Us. We will cover the medical expenses of
hospitalisation described in this wording, subject to its terms and exclusions.</p>
<h2>SECTION C) BENEFITS</h2>
<p>1. We will pay the medical expenses of in-patient care in a hospital up to the sum
insured.</p>
<h2>{heading}</h2>
{"".join(sections)}
<p>{last} Sterility and Infertility (Code - 17) Expenses related to sterility and
infertility. This includes:</p>
<p>{letters[0]} Any type of contraception, sterilization</p>
<p>{letters[1]} Assisted reproduction services including artificial insemination</p>
<p>{letters[2]} {item}</p>
<p>{letters[3]} Reversal of sterilization</p>
<h2>SECTION E) CLAIMS</h2>
<p>1. You must tell Us of a claim within seven days of discharge from the hospital.</p>
</body></html>"""


@pytest.fixture(scope="module")
def exclusions_graph(tmp_path_factory):
    texts = [policy(heading, numbers, item[0]) for heading, numbers, item in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("far-exclusion-headings"), texts,
                         suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_item_far_below_its_exclusions_heading_is_excluded(exclusions_graph, variant):
    _, _, (item, asked) = VARIANTS[variant]
    answer = ask_variant(exclusions_graph, variant, f"Is {asked} covered?", suffix=".html")
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found
    assert item in text, text
    assert answer.verdict is not None and answer.verdict.text.startswith("No: excluded"), \
        (answer.verdict, text)
