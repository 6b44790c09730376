"""Entity mentions: names from NER on the opening, matched everywhere; shapes by pattern.

Text: verbatim excerpts of the Allied Esports / Newegg Sponsorship Agreement (CUAD v1, The
Atticus Project, CC BY 4.0; see tests/data/ATTRIBUTION.md).
"""

from __future__ import annotations

import shutil

import pytest

from clausegraph.config import RULES_DIR, EntityConfig, Settings
from clausegraph.entities import EntityPatterns, annotate_entities
from clausegraph.ingest import load_document
from clausegraph.relate.rules import RuleFileError, RuleSet
from clausegraph.segment import segment

OPENING = (
    'This Event Sponsorship Agreement ("Agreement") is made and effective as of February 1, '
    '2019 (the "Effective Date"), by and between Newegg Inc. ("Newegg"), a Delaware '
    'corporation, and Allied Esports International, Inc., a Nevada corporation ("Allied").'
)
LATER = (
    "4.2 Newegg shall provide to Allied the Sponsorship Benefits set out in Schedule 3, "
    "including paying the Sponsorship Fee as provided therein."
)
TERM = (
    "3. Term of this Agreement. This Agreement shall be valid for five (5) years from "
    "February 1, 2019 through January 31, 2024."
)


@pytest.fixture()
def contract(tmp_path):
    # The opening, then enough of the agreement that clause 4.2 lies past a small opening.
    path = tmp_path / "sponsorship.txt"
    path.write_text("\n\n".join([OPENING, TERM, LATER]) + "\n", encoding="utf-8")
    document = load_document(path)
    return document, segment(document, Settings().segment)


def _names(clause, label=None):
    return {e.text for e in clause.entities if label is None or e.label == label}


def _clause_with(clauses, text):
    return next(c for c in clauses if text in c.text)


def test_every_shipped_pattern_matches_its_examples():
    patterns = EntityPatterns.load()
    assert {p.label for p in patterns.patterns} >= {"TIME", "LAW"}
    found = patterns.find("upon thirty (30) days notice, a fee of $150,000 and 5% thereafter")
    assert [(e.label, e.text) for e in found] == [
        ("DATE", "thirty (30) days"), ("MONEY", "$150,000"), ("PERCENT", "5%")
    ]


def test_values_are_entities_in_every_style():
    """Amounts, rates, dates and periods come from the value extractor, whatever the style."""
    patterns = EntityPatterns.load()
    found = patterns.find("within 30 (thirty) days pay £ 500 or INR 5 lakhs and ten percent, "
                          "from the 5th day of March, 2019, to persons 65 years of age")
    assert [(e.label, e.text) for e in found] == [
        ("DATE", "30 (thirty) days"), ("MONEY", "£ 500"), ("MONEY", "INR 5 lakhs"),
        ("PERCENT", "ten percent"), ("DATE", "5th day of March, 2019"),
        ("DATE", "65 years of age"),
    ]


def test_opening_names_are_found_in_later_clauses(contract):
    document, clauses = contract
    opening_end = document.text.index(TERM)
    annotate_entities(clauses, document, EntityConfig(ner="opening", opening_chars=opening_end))
    later = _clause_with(clauses, "4.2 Newegg")
    assert later.span[0] > opening_end  # NER never read this clause ...
    assert {"Newegg", "Allied"} <= _names(later, "ORG")  # ... yet the parties are tagged in it
    term = _clause_with(clauses, "Term of this Agreement")
    assert {"five (5) years", "February 1, 2019", "January 31, 2024"} <= _names(term, "DATE")
    for clause in clauses:
        for entity in clause.entities:
            assert document.text[entity.start : entity.end] == entity.text
            assert clause.span[0] <= entity.start < entity.end <= clause.span[1]


def test_ner_modes(contract):
    document, clauses = contract
    annotate_entities(clauses, document, EntityConfig(ner="off"))
    labels = {e.label for c in clauses for e in c.entities}
    assert "DATE" in labels and not labels & {"ORG", "PERSON", "GPE"}
    annotate_entities(clauses, document, EntityConfig(ner="all"))
    # NER on every clause: it reads clause 4.2 itself (and there, unlike the opening's
    # name list, misreads "Allied the Sponsorship Benefits" as one organisation).
    assert _names(_clause_with(clauses, "4.2 Newegg"), "ORG")
    # One entity per span even when NER and a pattern both find it.
    for clause in clauses:
        spans = [(e.start, e.end) for e in clause.entities]
        assert len(spans) == len(set(spans))


def test_a_broken_entity_pattern_names_the_file_and_pattern(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules)
    path = rules / "entities.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "expect: 'Internal Revenue Code of 1986'", "expect: 'Internal Revenue Code'"),
        encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        EntityPatterns.load(rules)
    assert "entities.yaml" in str(caught.value) and "entity.statute" in str(caught.value)
    RuleSet.load(rules)  # relation rules do not read the entity file
