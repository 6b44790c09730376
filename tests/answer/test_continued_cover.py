"""Cover stated as going on answers "Does coverage continue ...?".

The US plan document says "During a FMLA Leave, coverage will be maintained in accordance
with the same Plan conditions ..." (Evergreen's SPD); asked "Does coverage continue during
FMLA leave?", the answer was "Not found": the sentence held none of the verbs that grant
cover, so the gate read it as holding no answer. Cover that "will be maintained", "shall
continue" or "will remain in force" now states cover, and the verdict line reads "Yes". The
wording is written with three verbs, two nouns and two heading styles, asked two ways; a
wording that ends cover during the leave is not read as going on.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

HEADINGS = ["CONTINUATION OF COVERAGE", "7. Continuation of Coverage"]
GOES_ON = ["coverage will be maintained", "cover shall continue",
           "coverage will remain in force"]
VARIANTS = [(heading, goes_on) for heading in HEADINGS for goes_on in GOES_ON]


def wording(heading: str, goes_on: str) -> str:
    return f"""{heading}
Continuation During Family and Medical Leave Act (FMLA) Leave
The Plan shall at all times comply with FMLA. During a FMLA Leave, {goes_on} in accordance with the same Plan conditions as if the Employee had been continuously at work.
Termination of Coverage
The coverage of any Employee under this Plan will terminate on the last day of the month in which employment ends.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("continued"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "Does coverage continue during FMLA leave?",
    "Is cover maintained during FMLA leave?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_cover_that_goes_on_answers_yes(wordings, variant, question):
    answer = ask_variant(wordings, variant, question)
    assert answer.found, [line.text for line in answer.direct.nearest]
    assert VARIANTS[variant][1] in direct_text(answer)
    assert answer.verdict.text == "Yes"


def test_cover_that_ends_is_not_read_as_going_on(tmp_path):
    text = wording(HEADINGS[0], GOES_ON[0]).replace(
        "coverage will be maintained in accordance with the same Plan conditions as if the "
        "Employee had been continuously at work",
        "coverage will not continue unless the Employee pays the full cost")
    graph = variant_graph(tmp_path, [text])
    answer = ask_variant(graph, 0, "Does coverage continue during FMLA leave?")
    assert not (answer.found and answer.verdict and answer.verdict.text == "Yes")
