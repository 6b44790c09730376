"""Definition entries under a heading that announces them in other words than "Definitions"
("Words and Meanings", "Specific meaning", "Glossary"): an unquoted term ("Hospital refers
to ...") is a definition only inside such a section, never in the body of the terms."""

from __future__ import annotations

import pytest

from clausegraph.models import Document, Page
from clausegraph.segment import segment
from clausegraph.segment.definitions import mentions_definitions

POLICY = """Employee Health Plan
{heading}
{n}1 Hospital {verb} any institution established for in-patient care and day care treatment.
{n}2 Day Care Treatment {verb} medical treatment needing less than 24 hours of hospitalisation.
{n}3 Portability {verb} the right to transfer the credit gained for waiting periods to another insurer.
{body}
{m}1 Hospital {verb} to be read as the network hospital chosen under {n}1 for cashless claims.
{m}2 We will pay the medical expenses of in-patient hospitalisation up to the sum insured.
"""


def _clauses(text: str) -> list:
    document = Document(doc_id="0" * 16, key="plan", source_path="plan.txt", title="plan",
                        media_type="text", text=text,
                        pages=[Page(number=1, start=0, end=len(text))])
    return segment(document)


@pytest.mark.parametrize(("heading", "n", "body", "m"), [
    ("Article 1 Words and Meanings", "1.", "Article 2 Cover", "2."),
    ("1. SPECIFIC MEANING", "1.", "2. BENEFITS", "2."),
    ("Part I: Glossary", "1.", "Part II: Benefits", "2."),
    ("SECTION A: DEFINITIONS", "A", "SECTION B: BENEFITS", "B"),
])
@pytest.mark.parametrize("verb", ["refers to", "means", "shall mean"])
def test_unquoted_terms_under_a_heading_announcing_meanings_are_definitions(
        heading, n, body, m, verb):
    clauses = _clauses(POLICY.format(heading=heading, n=n, body=body, m=m, verb=verb))
    defined = {t for c in clauses if c.kind == "definition" for t in c.defined_terms}
    assert defined == {"Hospital", "Day Care Treatment", "Portability"}, [
        (c.clause_id, c.kind, c.text[:40]) for c in clauses]


def test_headings_that_announce_definitions():
    for heading in ("DEFINITIONS", "Defined Terms", "Words and Meanings", "Specific meaning",
                    "Glossary of terms", "Meaning of words"):
        assert mentions_definitions(heading), heading
    for heading in ("Benefits", "General Conditions", "Claims Procedure", "Exclusions"):
        assert not mentions_definitions(heading), heading


# A glossary entry whose line is its term and a colon, the definition below it in words
# other than "means" ("15. Emergency Treatment outside area of cover:-" / "Emergency
# treatment outside area of cover is treatment for ...", a Bajaj Allianz wording): the term
# is read whatever the case of its words; a lead-in ending in a colon is none (a sentence,
# or a phrase opened by a preposition: "In this Agreement:", two CUAD dev contracts).
GLOSSARY = """Global Health Care Policy
{heading}
{n}1 Emergency Care{colon}
Emergency care is management for an illness which results in symptoms which occur suddenly.
{n}2 Emergency Treatment outside area of cover{colon}
Emergency treatment outside area of cover is treatment for medical emergencies which occur
during business or holiday trips outside your area of cover, for up to six weeks per trip.
{n}3 The following are not hospitals{colon}
a) a nursing home run for the aged.
{n}4 In this Policy, unless the context otherwise requires{colon}
a) words in the singular include the plural.
{n}5 For the purposes of this section{colon}
a) a day is a calendar day.
{body}
{m}1 We will pay the medical expenses of in-patient hospitalisation up to the sum insured.
"""


@pytest.mark.parametrize(("heading", "n", "body", "m"), [
    ("SECTION B DEFINITIONS - SPECIFIC DEFINITIONS", "", "SECTION C BENEFITS", ""),
    ("2. DEFINITIONS", "2.", "3. BENEFITS", "3."),
    ("Part I: Glossary", "1.", "Part II: Benefits", "2."),
])
@pytest.mark.parametrize("colon", [":-", ":", " :- "])
def test_a_glossary_term_alone_on_its_line_with_a_colon_is_defined(heading, n, body, m,
                                                                   colon):
    numbered = n or "1."
    text = GLOSSARY.format(heading=heading, n=numbered if n else "", body=body, m=m,
                           colon=colon)
    if not n:  # the entries numbered 14., 15., 16. under a section heading
        text = text.replace("\n1 Emergency Care", "\n14. Emergency Care").replace(
            "\n2 Emergency Treatment", "\n15. Emergency Treatment").replace(
            "\n3 The following", "\n16. The following")
    clauses = _clauses(text)
    defined = {t for c in clauses if c.kind == "definition" for t in c.defined_terms}
    assert defined == {"Emergency Care", "Emergency Treatment outside area of cover"}, [
        (c.clause_id, c.kind, c.text[:40]) for c in clauses]
