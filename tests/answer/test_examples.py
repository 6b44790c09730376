"""An illustration is one case of a rule, not the rule.

The US plan document states "COBRA Qualified Beneficiaries generally are eligible for group
coverage during a maximum of 18 months after Qualifying Events arising due to employment
termination" and, in the paragraph before, "For example, if a covered Employee becomes
entitled to Medicare eight months before the date on which his or her employment terminates,
COBRA Continuation Coverage for his or her spouse and Children can last up to 36 months
after the date of Medicare entitlement". The example holds more of "How long can COBRA
continuation coverage last after termination of employment?" and was quoted. An
illustration now weighs as a special case does (0.9). Written with four ways of opening an
example.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

OPENINGS = ["For example,", "For instance,", "E.g.", "By way of example,"]


def plan(opening: str) -> str:
    return f"""EVERGREEN HEALTH AND WELFARE PLAN

8. CONTINUATION OF COVERAGE

8.1 Length of continuation coverage
When the Qualifying Event is the end of employment, COBRA continuation coverage for the
spouse and children can last up to 36 months after the date of Medicare entitlement of the
employee. {opening} if a covered employee becomes entitled to Medicare eight months before
the date on which his or her employment terminates, COBRA continuation coverage for the
spouse and children can last up to 28 months after the termination of employment.

8.2 Maximum period
Qualified beneficiaries are generally eligible for COBRA continuation coverage during a
maximum of 18 months after the termination of employment.

8.3 Notice
The plan administrator must be notified of a qualifying event within 60 days.
"""


@pytest.fixture(scope="module")
def example_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("examples"), [plan(o) for o in OPENINGS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(OPENINGS)))
def test_the_rule_is_quoted_not_its_example(example_graph, variant):
    answer = ask_variant(example_graph, variant,
                         "How long can COBRA continuation coverage last after termination of "
                         "employment?")
    text = direct_text(answer)
    assert "maximum of 18 months" in text, text
    assert "28 months" not in text, text
