"""A cover question is answered by the clause titled with what it asks about.

"Is theft of the vehicle covered?" of a motor wording with a clause titled "Theft, including
car hacking" ("The insurance covers loss or damage caused by theft ... of the car") and one
titled "Personal belongings in the vehicle", whose sentences say "vehicle" and, of the
belongings, "Theft is only insured if these items were locked inside the vehicle". Both
grant cover and name theft; the one titled with it is about it. (The wording names the
vehicle in other parts too, as a motor policy does, so that theft is the rarer word.)
Written with other numbering, perils and ways of asking.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

NUMBERS = [("2.1", "2.6"), ("2.1", "6."), ("Article 4", "Article 9")]
PERILS = [("Theft, including car hacking", "theft or attempted theft", "Theft", "theft"),
          ("Vandalism", "vandalism or malicious damage", "Vandalism", "vandalism"),
          ("Fire and explosion", "fire, explosion or lightning", "Fire", "fire")]
VARIANTS = list(zip(NUMBERS, PERILS, strict=True))


def wording(numbers: tuple[str, str], peril: tuple[str, str, str, str]) -> str:
    own, belongings = numbers
    title, covered, named, _ = peril
    return f"""<html><head><title>Motor Insurance</title></head><body>
<h1>MOTOR INSURANCE - GENERAL INSURANCE CONDITIONS</h1>
<h2>Part A Liability</h2>
<p>The insurance covers claims for damages brought against you for injury or damage caused by
the use of the vehicle on public roads.</p>
<h2>Part B Comprehensive cover</h2>
<h3>{own} {title}</h3>
<p>The insurance covers loss or damage caused by {covered} of the car, including its
accessories while they are fitted to it.</p>
<h3>{belongings} Personal belongings in the vehicle</h3>
<p>The insurance covers damage to or destruction of personal belongings inside the vehicle and
items worn by the driver or a passenger if the vehicle sustains damage. {named} is only
insured if these items were locked inside or permanently attached to the vehicle.</p>
<h2>Part C Claims</h2>
<p>You must report a claim to us without delay and let us inspect the vehicle before it is
repaired. The vehicle must not be driven if it is no longer roadworthy.</p>
</body></html>"""


@pytest.fixture(scope="module")
def titled_graph(tmp_path_factory):
    texts = [wording(numbers, peril) for numbers, peril in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("cover-titled"), texts, suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("asked", ["Is {} of the vehicle covered?",
                                   "Does the policy cover {} of the vehicle?"])
def test_the_clause_titled_with_the_subject_answers(titled_graph, variant, asked):
    _, (title, covered, _, word) = VARIANTS[variant]
    answer = ask_variant(titled_graph, variant, asked.format(word), suffix=".html")
    text = " ".join((answer.direct_answer or "").split())
    assert answer.direct.found
    assert title in text and covered in text, text
    assert "Personal belongings" not in text, text
