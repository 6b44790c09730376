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
