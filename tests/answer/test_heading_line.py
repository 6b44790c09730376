"""A clause's heading line is no answer by itself: the sentence after it is quoted with it.

An exclusion whose item opens with its heading ("3. 30-day waiting period (Excl03)") scores
its heading line as the best sentence for "Is there a 30-day waiting period ...?": every
asked word is in it. Quoted alone it names the rule without stating it; the direct answer
reads on into the sentence that states it ("... within 30 days from the first policy
commencement date shall be excluded ..."). Written with four heading label styles and three
ways of writing the exclusion code.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

LABELS = [("1.", "2.", "3.", "4."), ("4.1", "4.2", "4.3", "4.4"),
          ("(a)", "(b)", "(c)", "(d)"), ("I.", "II.", "III.", "IV.")]
CODES = ["({code})", "- Code {code}", ""]
VARIANTS = [(labels, code) for labels in LABELS for code in CODES]


def policy(labels: tuple[str, ...], code: str) -> str:
    def heading(label: str, title: str, number: int) -> str:
        return f"{label} {title} {code.format(code=f'Excl0{number}')}".rstrip()
    return f"""HEALTH GUARD POLICY

SECTION D. EXCLUSIONS

{heading(labels[0], "Pre-existing Diseases waiting period", 1)}
a) Expenses related to the treatment of a pre-existing disease and its direct complications
shall be excluded until the expiry of 36 months of continuous coverage after the date of
inception of the first policy.
b) Coverage after the expiry of 36 months for any pre-existing disease is subject to the
same being declared at the time of application.

{heading(labels[1], "Specified disease waiting period", 2)}
a) Expenses related to the treatment of the listed conditions shall be excluded until the
expiry of 24 months of continuous coverage.

{heading(labels[2], "30-day waiting period", 3)}
a) Expenses related to the treatment of any illness within 30 days from the first policy
commencement date shall be excluded except claims arising due to an accident.
b) This exclusion shall not apply if the insured has continuous coverage for more than
twelve months.

{heading(labels[3], "Investigation and Evaluation", 4)}
a) Expenses related to any admission primarily for diagnostics and evaluation purposes only
are excluded.
"""


@pytest.fixture(scope="module")
def heading_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("heading-line"),
                         [policy(*variant) for variant in VARIANTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_rule_under_a_heading_line_is_quoted(heading_graph, variant):
    answer = ask_variant(heading_graph, variant,
                         "Is there a 30-day waiting period at the start of the policy?")
    text = direct_text(answer)
    # the heading alone is no answer: the rule it titles is quoted
    assert "within 30 days from the first policy commencement date shall be excluded" \
        in text, text
