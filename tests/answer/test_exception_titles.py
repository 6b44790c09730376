"""An exception is quoted by what it states, not by its title line alone.

"Is there a waiting period for hernia?" of a policy whose exclusions section holds three
waiting periods, each a numbered title line over the rule it names ("3. 30-day waiting
period (Code - Excl03)" / "a) Expenses related to the treatment of any illness within 30
days ... shall be excluded ..."). The answer quotes the specified-disease rule; the other
waiting periods are listed after it as exceptions. The title line matches the question's
words best ("waiting period"), but quoted alone it says nothing an analyst can use: the
exception line quotes the title with the rule after it. Written with other labels, titles
and periods.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, variant_graph

STYLES = [("1.", "2.", "3.", "a)", "b)"), ("(1)", "(2)", "(3)", "(i)", "(ii)"),
          ("A.", "B.", "C.", "1)", "2)")]
TITLES = [("30-day waiting period (Code - Excl03)", "within 30 days"),
          ("Initial waiting period - Code Excl03", "within thirty days"),
          ("First 30 days exclusion (Excl03)", "within 30 days")]
VARIANTS = list(zip(STYLES, TITLES, strict=True))


def policy(style: tuple[str, ...], title: str, within: str) -> str:
    first, second, third, item, other = style
    return f"""<html><head><title>Health Insurance Policy</title></head><body>
<h1>HEALTH INSURANCE POLICY WORDING</h1>
<p>This Policy is a contract between You and Us. We will cover the medical expenses of
hospitalisation described in this wording, subject to its terms and exclusions.</p>
<h2>SECTION D) EXCLUSIONS - WAITING PERIODS</h2>
<p>{first} Pre-existing diseases waiting period (Code - Excl01)</p>
<p>{item} Expenses related to the treatment of a pre-existing disease and its direct
complications shall be excluded until the expiry of 36 months of continuous coverage.</p>
<p>{second} Specified disease/procedure waiting period (Code - Excl02)</p>
<p>{item} Expenses related to the treatment of hernia, cataract, piles and fistula shall be
excluded until the expiry of 24 months of continuous coverage.</p>
<p>{other} This exclusion shall not apply to claims arising due to an accident.</p>
<p>{third} {title}</p>
<p>{item} Expenses related to the treatment of any illness {within} from the first policy
commencement date shall be excluded except claims arising due to an accident.</p>
<h2>SECTION E) CLAIMS</h2>
<p>1. You must tell Us of a claim within seven days of discharge from the hospital.</p>
</body></html>"""


@pytest.fixture(scope="module")
def titled_graph(tmp_path_factory):
    texts = [policy(style, *title) for style, title in VARIANTS]
    return variant_graph(tmp_path_factory.mktemp("exception-titles"), texts, suffix=".html")


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_an_exception_title_is_quoted_with_what_it_states(titled_graph, variant):
    _, (title, within) = VARIANTS[variant]
    answer = ask_variant(titled_graph, variant, "Is there a waiting period for hernia?",
                         suffix=".html")
    assert answer.direct.found
    assert "24 months" in (answer.direct_answer or ""), answer.direct_answer
    excepts = [" ".join(line.text.split()) for line in answer.direct.exceptions]
    stated = {title: within, "Pre-existing diseases waiting period (Code - Excl01)": "36 months"}
    titled = [(text, said) for text in excepts for named, said in stated.items() if named in text]
    assert titled, excepts
    assert all(said in text for text, said in titled), excepts
