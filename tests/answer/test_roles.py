"""A clause's role (definition, base rule, exception) comes from its wording and its
headings' wording: the same wording gets the same role in every document and every answer,
whatever the heading's letter case or phrasing, and whatever else a question retrieved."""

from __future__ import annotations

import itertools

import pytest
from synthetic_index import read_texts

from clausegraph.answer.extractive import assign_groups
from clausegraph.models import RetrievedClause

REFUSAL = "We will not pay for cosmetic or aesthetic treatment of any description."
GRANT = "We will pay for day care treatment taken in a hospital."
ITEM = "Cosmetic or aesthetic treatment of any description."

# the same exclusion heading as issuers write it
EXCLUSION_HEADINGS = ["WHAT IS NOT COVERED", "What is not covered", "What we don't pay for",
                      "What We Do Not Cover", "General Exclusions", "EXCEPTIONS"]
COVER_HEADINGS = ["WHAT IS COVERED", "What we pay for", "Benefits", "Section B: Cover"]
NUMBERINGS = [("4.", "4.1", "4.2"), ("I.", "(a)", "(b)"), ("Section 4", "4.1", "4.2"),
              ("1.", "(a)", "(b)")]


def _retrieved(clause) -> RetrievedClause:
    return RetrievedClause(clause=clause, score=1.0, sim=1.0, bm25=1.0, dense=1.0,
                           centrality=0.0, path_support=0.0, origin="seed")


def _roles(tmp_path, text: str) -> dict[str, str]:
    """Role by clause text (the first words) for a one-document index of ``text``."""
    reader = read_texts(tmp_path, {"policy.txt": text})
    clauses = reader.clauses.document_clauses(next(iter(reader.entries())))
    roles = assign_groups([_retrieved(c) for c in clauses], [], reader)
    return {c.text: roles[c.clause_id] for c in clauses}


def _role_of(roles: dict[str, str], words: str) -> str:
    found = [role for text, role in roles.items() if words in text]
    assert found, (words, roles)
    return found[-1]


@pytest.mark.parametrize("heading,numbering",
                         list(itertools.product(EXCLUSION_HEADINGS, NUMBERINGS)))
def test_items_under_an_exclusion_heading_are_exceptions_in_any_style(tmp_path, heading,
                                                                      numbering):
    top, first, second = numbering
    text = (f"{top} {heading}\n{first} {ITEM}\n"
            f"{second} Treatment taken outside the country of residence.\n")
    roles = _roles(tmp_path, text)
    assert _role_of(roles, "Cosmetic or aesthetic") == "exception", roles
    assert _role_of(roles, "outside the country") == "exception", roles


@pytest.mark.parametrize("heading", COVER_HEADINGS)
def test_a_refusal_is_an_exception_under_any_heading(tmp_path, heading):
    """Its own words refuse cover: the heading above it does not make it a base rule."""
    text = f"4. {heading}\n4.1 {GRANT}\n4.2 {REFUSAL}\n"
    roles = _roles(tmp_path, text)
    assert _role_of(roles, "We will not pay") == "exception", roles
    assert _role_of(roles, "We will pay for day care") == "base_rule", roles


def test_the_same_clause_has_the_same_role_whatever_else_is_retrieved(tmp_path):
    reader = read_texts(tmp_path, {"policy.txt": (
        "1. Definitions\n1.1 Day Care Treatment means treatment completed within 24 hours.\n"
        f"2. Benefits\n2.1 {GRANT}\n2.2 {REFUSAL}\n")})
    clauses = reader.clauses.document_clauses(next(iter(reader.entries())))
    alone = {c.clause_id: assign_groups([_retrieved(c)], [], reader)[c.clause_id]
             for c in clauses}
    together = assign_groups([_retrieved(c) for c in clauses], [], reader)
    assert alone == together
    by_text = {c.text: together[c.clause_id] for c in clauses}
    assert _role_of(by_text, "Day Care Treatment means") == "definition"


def test_a_clause_that_defines_a_term_in_passing_is_not_a_definition(tmp_path):
    roles = _roles(tmp_path, (
        'This Licence Agreement (the "Agreement") is made between Alpha Ltd ("Licensor") and '
        'Beta Inc ("Licensee").\n'
        "1. Grant\n1.1 Licensor grants Licensee a licence to use the Software under this "
        "Agreement.\n"))
    assert _role_of(roles, "is made between") == "base_rule", roles
