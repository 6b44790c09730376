"""A document's title from its first lines: when no line of its own names the document, the
opening sentence does ("THIS LICENSE AND RESELLER AGREEMENT dated as of ..."), in any letter
case, and never a party's description."""

from __future__ import annotations

from pathlib import Path

import pytest

from clausegraph.ingest import choose_title

PARTIES = """BETWEEN:
EHAVE, INC., a company incorporated under the laws of the Province of Ontario, Canada
("Ehave");
- and -
COMPANION HEALTHCARE TECHNOLOGIES CORP, a company incorporated under the laws of Delaware
("Companion")."""


@pytest.mark.parametrize(("opening", "title"), [
    ("THIS LICENSE AND RESELLER AGREEMENT dated as of October 30, 2018 is made",
     "LICENSE AND RESELLER AGREEMENT"),
    ("This License and Reseller Agreement dated as of 30 October 2018 is made",
     "License and Reseller Agreement"),
    ("THIS MASTER SERVICES AGREEMENT AND STATEMENT OF WORK is made on 5 March 2019",
     "MASTER SERVICES AGREEMENT"),
    ("This Agreement of Lease is made this 1st day of May, 2020", "Agreement of Lease"),
])
def test_the_opening_sentence_names_a_document_without_a_title_line(opening, title):
    text = f"Exhibit 4.44\n{opening}\n{PARTIES}\n1. Definitions\n"
    assert choose_title(text, [], None, Path("ex-4.44.pdf")) == title


def test_an_opening_that_names_no_kind_of_document_gives_no_title():
    text = f"Exhibit 4.44\nThis Agreement is made on 5 March 2019\n{PARTIES}\n"
    assert choose_title(text, [], None, Path("ex-4.44.pdf")) != "Agreement"


def test_a_title_line_still_comes_first():
    text = ("Exhibit 10.2\nRESELLER AGREEMENT\nTHIS LICENSE AND RESELLER AGREEMENT dated as "
            f"of October 30, 2018 is made\n{PARTIES}\n")
    assert choose_title(text, [], None, Path("ex-10.2.pdf")) == "RESELLER AGREEMENT"


def _header_spans(text: str, header: str) -> list[tuple[int, int]]:
    start = 0
    spans = []
    while (found := text.find(header, start)) >= 0:
        spans.append((found, found + len(header) + 1))
        start = found + len(header)
    return spans


@pytest.mark.parametrize(("header", "section"), [
    ("Well Baby Well Mother- Add On Wordings", "Air Ambulance Cover"),
    ("AUTO SECURE - PRIVATE CAR PACKAGE POLICY", "SECTION I - OWN DAMAGE COVER"),
    ("Group Health Insurance (UIN: ABC/12/34-56)", "Terms & Conditions of the Policy"),
])
def test_a_running_header_that_opens_the_document_and_names_it_is_the_title(header, section):
    text = (f"{header}\n{section}\nIn consideration of the premium we will cover the costs.\n"
            f"{header}\nWe will not cover any other costs.\n")
    assert choose_title(text, _header_spans(text, header), None, Path("x.pdf")) == header


def test_a_running_header_below_a_title_line_does_not_replace_it():
    header = "Policy Wording - Page Header"
    text = (f"OUTSOURCING AGREEMENT\n{header}\nThis Agreement is made on 5 March 2019.\n"
            f"{header}\n")
    spans = _header_spans(text, header)
    assert choose_title(text, spans, None, Path("x.pdf")) == "OUTSOURCING AGREEMENT"


@pytest.mark.parametrize("reference", [
    "Contract No.: DDCX S DG KC 201812130044", "Agreement Number 12965", "Policy No: 4/2020",
    "Contract Number:", "Effective Date: July 1, 2019", "Date: 5 March 2019",
])
def test_a_reference_number_or_a_date_field_is_no_title(reference):
    text = f"{reference}\nWIRELESS CONTENT LICENSE AGREEMENT\nThis Agreement is made by us.\n"
    assert choose_title(text, [], None, Path("x.pdf")) == "WIRELESS CONTENT LICENSE AGREEMENT"
