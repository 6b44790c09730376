"""The review's answer for Parties and Document Name: the names a preamble introduces, each
with its defined name, and the title as found.

Before, both answers were empty (CUAD's answer to them is the text itself). Preambles are
written here in the styles contracts use: one party per line or in one sentence, "between"
or "by and among", a defined name as ("Club"), (the "Company") or (hereinafter referred to
as "Consultant"), names in capitals or with their legal form after a comma, an address or a
state of incorporation between a name and its defined name, and a defined name that names
the document, not a party.
"""

from __future__ import annotations

import pytest

from clausegraph.eval.cuad_bench import ReviewItem, party_names_of, span_answer_right
from clausegraph.review.answers import normalised_answer
from clausegraph.review.parties import document_name, party_names

PREAMBLES = [
    (('This Sponsorship Agreement (the "Agreement") is entered into as of November 27, 2017 '
      'by and between Jacksonville Jaguars, LLC ("Club") and The ARC Group, Inc. ("Sponsor").'),
     [("Jacksonville Jaguars, LLC", "Club"), ("The ARC Group, Inc.", "Sponsor")]),
    (('THIS DISTRIBUTION AGREEMENT is made on 1 March 2019 BETWEEN ACME WIDGETS LIMITED, a '
      'company incorporated in England, whose registered office is at 12 High Street, London '
      '(the "Supplier"), AND NORTHWIND TRADERS GMBH, of Berlin, Germany (the "Distributor").'),
     [("ACME WIDGETS LIMITED", "Supplier"), ("NORTHWIND TRADERS GMBH", "Distributor")]),
    (('This Consulting Agreement is entered into on January 13, 2005 between Pivotal '
      'Biosciences, Inc., a Delaware corporation with offices at 100 Main Street, Suite 4, '
      'Boston, MA 02110 (hereinafter referred to as "Company"), and Maria Lopez, an '
      'individual (hereinafter referred to as "Consultant").'),
     [("Pivotal Biosciences, Inc.", "Company"), ("Maria Lopez", "Consultant")]),
    (('This Supply Agreement is made by and among Orion Pharma Corp. ("Orion"), Helix Labs '
      'LLC ("Helix") and Delta Logistics Co., Ltd. ("Delta").\n\nWHEREAS, Orion makes drugs.'),
     [("Orion Pharma Corp.", "Orion"), ("Helix Labs LLC", "Helix"),
      ("Delta Logistics Co., Ltd.", "Delta")]),
]


@pytest.mark.parametrize(("text", "parties"), PREAMBLES)
def test_the_parties_and_their_defined_names(text, parties):
    names = party_names(text)
    for name, defined in parties:
        assert f'{name} ("{defined}")' in names, names
    # the document's own defined name ("Agreement") is no party
    assert not any("Agreement" in name for name in names), names


def test_a_numbered_company_and_a_role_without_quotes():
    """A company named by its registration number is no postal code; "(as Distributor)"
    defines a role as a quoted name does; "(as amended)" defines none."""
    text = ('This Agreement is made between Diversinet Corp. ("Diversinet"), an Ontario '
            'corporation, and 2205925 Ontario Limited, with its principal place of business '
            'at 111 Main Street West, North Bay (the "Reseller"), under the Master Agreement '
            '(as amended).')
    assert party_names(text) == ['Diversinet Corp. ("Diversinet")',
                                 '2205925 Ontario Limited ("Reseller")']
    roles = party_names("This Agreement is made between Kestrel Aviation Ltd (as Distributor) "
                        "and Orbital Parts GmbH (as Supplier).")
    assert roles == ['Kestrel Aviation Ltd ("Distributor")', 'Orbital Parts GmbH ("Supplier")']


def test_a_name_wrapped_onto_the_next_line_is_read_whole():
    text = ('This Agreement is made between HIGH SPEED NET\nSOLUTIONS, INC. ("HSNS") and '
            'E.PIPHANY, INC. ("E.piphany").')
    names = party_names(text)
    assert 'HIGH SPEED NET SOLUTIONS, INC. ("HSNS")' in names, names


@pytest.mark.parametrize(("address", "name"), [
    ("4002 Westminster Avenue, Santa Ana, CA 92703", "PREMIER NUTRITION CORPORATION"),
    ("12 High Street, London", "Premier Nutrition Limited"),
    ("Suite 240, 2028 Ben White Blvd., Austin, TX 78741", "PREMIER\nNUTRITION CORPORATION"),
])
def test_a_name_after_the_other_partys_address(address, name):
    """The second party's name in capitals runs on from the first party's address ("... CA
    92703 and PREMIER NUTRITION CORPORATION"): the name is read without the address."""
    text = (f"This Agreement is made between Stremicks Heritage Foods, LLC (the \u201cHeritage"
            f"\u201d), a company with an address of {address} and {name} (\u201cPremier\u201d), "
            "a Delaware corporation.")
    assert party_names(text) == ['Stremicks Heritage Foods, LLC ("Heritage")',
                                 f'{" ".join(name.split())} ("Premier")']


def test_a_place_in_an_address_is_no_party():
    """"Denver, CO 80202" ends in what reads as a legal form, and "Ballsbridge 4 Co. Dublin"
    holds one: both are where a party is."""
    denver = ('This Agreement is made between Gold Resource Corporation ("GRC"), of 1700 '
              'Lincoln Street, Denver, CO 80202, and Orbital Parts GmbH ("Orbital").')
    assert party_names(denver) == ['Gold Resource Corporation ("GRC")',
                                   'Orbital Parts GmbH ("Orbital")']
    dublin = ('This Agreement is made between Zynga Inc. ("Zynga US") and ZYNGA GAME IRELAND '
              'LIMITED, having its registered office at 160 Shelbourne Road Ballsbridge 4 Co. '
              'Dublin Ireland ("Zynga Ireland").')
    assert party_names(dublin) == ['Zynga Inc. ("Zynga US")',
                                   'ZYNGA GAME IRELAND LIMITED ("Zynga Ireland")']


@pytest.mark.parametrize("brand", ["e-centives, Inc.", "i3 Integrative Solutions, LLC",
                                   "bw-3 Franchise Systems, Inc.", "theglobe.com, Inc."])
def test_a_name_written_in_lower_case_as_a_brand(brand):
    text = ('This Agreement is entered into by and between the At Home Corporation ("Excite"), '
            f'located at 450 Broadway, Redwood City, California 94063, and {brand} '
            '("Provider"), a Delaware corporation.')
    assert party_names(text) == ['At Home Corporation ("Excite")', f'{brand} ("Provider")']


def test_a_street_and_an_initial_are_no_party():
    """"offices at 6564 Loisdale Court" names a street and "1st Ave N." an initial: the
    defined name after them is the person's or company's before them."""
    text = ('This Consulting Agreement is made by and between Global Technologies, Ltd (the '
            '"Company"), whose address is 501 1st Ave N., Suite 901, St. Petersburg, FL 33701 '
            'and Timothy Cabrera (the "Consultant"), an individual having offices at 6564 '
            'Loisdale Court, Springfield.')
    assert party_names(text) == ['Global Technologies, Ltd ("Company")',
                                 'Timothy Cabrera ("Consultant")']


@pytest.mark.parametrize(("second", "alias"), [
    ("RICK SMITH ENTERPRISES", '("Smith")'),
    ("Paul Silas", '("Celebrity)'),  # the closing quote left out
    ("Maria Lopez, an individual,", '(the "Consultant")'),
])
def test_a_party_without_a_legal_form_owns_the_defined_name_after_it(second, alias):
    """A person or a trading name spaCy does not tag: the capitalised words after the last
    "and" before the defined name."""
    text = ("This Agreement is made as of August 6, 2004 by and between TEKNIK DIGITAL ARTS "
            'INC., a Nevada corporation with offices at 7377 E. Doubletree Ranch Road, Suite '
            f'270, Scottsdale, Arizona 85258 ("TDA") and {second} {alias}.')
    names = party_names(text)
    assert names[0] == 'TEKNIK DIGITAL ARTS INC. ("TDA")'
    name = second.split(",")[0]
    assert names[1].startswith(f"{name} (") and alias.strip('()"').split('"')[-1] in names[1]


@pytest.mark.parametrize("reference", ["(each of Loop and Joint Venture Company is a \u201cParty\u201d)",
                                       '(Loop and the "Joint Venture Company", each a "Party")',
                                       "(each of Joint Venture Company or Loop, a Party)"])
def test_a_defined_name_used_again_is_no_further_party(reference):
    """"Joint Venture Company" is how the preamble names Indorama once defined: reading it
    again (with its legal-form word "Company") is the same party, not a third."""
    text = ("This Marketing Agreement is made as of September 4, 2018 between Loop Industries, "
            "Inc., a Nevada corporation (\u201cLoop\u201d), and Indorama Loop Technologies, LLC, "
            f"a Delaware limited liability company (\u201cJoint Venture Company\u201d) {reference}.")
    assert party_names(text) == ['Loop Industries, Inc. ("Loop")',
                                 'Indorama Loop Technologies, LLC ("Joint Venture Company")']


def test_the_recitals_name_no_party():
    text = (PREAMBLES[3][0] + " WHEREAS, Orion wishes to buy from Sunrise Holdings, Inc. "
            '("Sunrise") under the Master Agreement.')
    assert not any("Sunrise" in name for name in party_names(text))


def test_the_review_answers_with_the_parties_and_the_title():
    text = PREAMBLES[0][0]
    answer = normalised_answer("Parties", True, [text])
    assert answer == 'Jacksonville Jaguars, LLC ("Club"); The ARC Group, Inc. ("Sponsor")'
    assert normalised_answer("Parties", False, [text]) is None
    assert normalised_answer("Document Name", True, [("  JACKSONVILLE JAGUARS\nSPONSORSHIP "
                                                     "AGREEMENT ")]) == \
        "JACKSONVILLE JAGUARS SPONSORSHIP AGREEMENT"
    assert document_name("Services Agreement.\n") == "Services Agreement"


def test_one_party_found_is_no_answer():
    """A contract has two parties at least: a reading that finds one missed one, and the
    next Parties clause is read instead."""
    one = 'This Agreement is made by Acme Tools Inc. ("Acme") for its customers.'
    assert normalised_answer("Parties", True, [one]) is None
    assert normalised_answer("Parties", True, [one, PREAMBLES[0][0]]).startswith(
        "Jacksonville Jaguars")


def test_cuad_answers_name_their_parties_without_joint_references():
    gold = ('[ * * * ] ("Provider"); TELCOSTAR PTE, LTD.; Ability Computer & Software '
            'Industries Ltd; TELCOSTAR PTE, LTD. and Ability Computer & Software Industries '
            'Ltd (each and both of them "Recipient"); Each of the foregoing parties is '
            'referred to herein as a "Party"')
    assert party_names_of(gold) == ["TELCOSTAR PTE, LTD", "Ability Computer & Software Industries Ltd"]


@pytest.mark.parametrize(("category", "gold", "answer", "right"), [
    ("Parties", 'Newegg Inc. ("Newegg"); Allied Esports International, Inc. ("Allied")',
     'Newegg Inc. ("Newegg"); Allied Esports International, Inc. ("Allied")', True),
    ("Parties", 'Newegg Inc. ("Newegg"); Allied Esports International, Inc. ("Allied")',
     'Newegg Inc. ("Newegg")', False),
    ("Document Name", "EVENT SPONSORSHIP AGREEMENT", "Event Sponsorship Agreement", True),
    ("Document Name", "EVENT SPONSORSHIP AGREEMENT", "SPONSORSHIP AGREEMENT", False),
])
def test_span_answers_are_judged_against_cuads(category, gold, answer, right):
    item = ReviewItem(category=category, found=True, confidence=0.9, answer=answer, clauses=[])
    assert span_answer_right(category, gold, item) is right


# English drafting introduces the parties one per numbered item; the segmenter makes each
# item a clause of its own, so the clause the review lists for Parties holds one of them
NUMBERED_PARTIES = """SERVICE AGREEMENT

This agreement is dated 1 April 2020.

PARTIES
{first} {employer} is a company registered in England and Wales whose registered office
is at 12 High Street, London (the "Employer"); and
{second} {executive} of 4 Mill Lane, Leeds (the "Executive").

AGREED TERMS
1. Definitions
1.1 In this agreement the following terms have the following meanings.
2. Term
2.1 The appointment shall continue until terminated by either party on three months' notice.
"""
MARKERS = [("(1)", "(2)"), ("1.", "2."), ("1)", "2)")]
PARTIES = [("Northwind Traders Limited", "Jane Marlow"),
           ("Tallis Components Ltd", "Omar Haddad")]


@pytest.mark.parametrize("markers", MARKERS)
@pytest.mark.parametrize("names", PARTIES)
def test_parties_numbered_one_per_clause_are_read_together(tmp_path, markers, names):
    from clausegraph.ingest import load_document
    from clausegraph.review.parties import parties_answer, party_list
    from clausegraph.segment import segment

    employer, executive = names
    path = tmp_path / "service.txt"
    path.write_text(NUMBERED_PARTIES.format(first=markers[0], second=markers[1],
                                            employer=employer, executive=executive),
                    encoding="utf-8")
    texts = [c.text for c in segment(load_document(path))]
    holding = [k for k, t in enumerate(texts) if employer in t or executive in t]
    assert len(holding) == 2  # each item a clause: read alone, neither names two parties
    assert all(parties_answer([texts[k]]) is None for k in holding)
    for k in holding:
        answer = parties_answer([party_list(texts, k)])
        assert answer == f'{employer} ("Employer"); {executive} ("Executive")'
    # a clause that is no item of a list of parties is read as it is
    term = next(k for k, t in enumerate(texts) if "three months" in t)
    assert party_list(texts, term) == texts[term]


def test_a_list_not_numbered_in_sequence_is_not_joined():
    from clausegraph.review.parties import party_list

    texts = ["(1) Northwind Traders Limited (the \"Seller\"); and",
             "(3) Jane Marlow (the \"Buyer\").", "(2) Omar Haddad (the \"Agent\")."]
    assert party_list(texts, 0) == texts[0]
    assert party_list(texts, 2) == texts[2]  # (2) follows (3), not (1)
    # numbered sections of the terms, with no party's defined name, are no list of parties
    sections = ["1. Definitions. Terms have the meanings given.",
                '2. Term. This agreement (the "Agreement") runs for a year.']
    assert party_list(sections, 1) == sections[1]


# a preamble the segmenter cuts at its blank lines: each party in a clause of its own
SPLIT_PREAMBLE = """CONTENT LICENSING AGREEMENT

between

{first}, {first_address}
hereinafter referred to as "{first_alias}"

and

{second}, {second_address}
hereinafter referred to as "{second_alias}"

WHEREAS the Licensor owns certain content that the Licensee wishes to distribute.

1. Licence
1.1 The Licensor grants the Licensee a licence to distribute the content for {term}.
"""
SPLIT_PARTIES = [
    ("Data Vista Technologies, Inc.", "600 Kenrick, Suite B-12, Houston, Texas 77060",
     "Licensee", "Halden Media AG", "Schaafenstr. 25, 50676 Cologne, Germany", "Licensor",
     "two years"),
    ("Orchard Vale Ltd", "4 Mill Lane, Leeds LS1 4AB", "Supplier", "Kestrel Systems GmbH",
     "Hauptstrasse 9, 10115 Berlin", "Distributor", "36 months"),
]


@pytest.mark.parametrize("parties", SPLIT_PARTIES)
def test_a_preamble_cut_into_clauses_is_read_whole(tmp_path, parties):
    from clausegraph.ingest import load_document
    from clausegraph.review.parties import introduction, parties_answer
    from clausegraph.segment import segment

    fields = dict(zip(("first", "first_address", "first_alias", "second", "second_address",
                       "second_alias", "term"), parties, strict=True))
    first, second, term = fields["first"], fields["second"], fields["term"]
    path = tmp_path / "licence.txt"
    path.write_text(SPLIT_PREAMBLE.format(**fields), encoding="utf-8")
    texts = [c.text for c in segment(load_document(path))]
    at = next(k for k, t in enumerate(texts) if first in t)
    assert second not in texts[at] and parties_answer([texts[at]]) is None
    answer = parties_answer([introduction(texts, at)])
    assert answer is not None
    assert first.rstrip(".") in answer and second in answer
    # the terms after the recitals are not read as the introduction
    assert term not in introduction(texts, at)


@pytest.mark.parametrize("first, second", [
    ("Munksgaard A/S", "Blackwell Science Limited"),
    ("Azul Linhas Aereas Brasileiras S/A", "Avions de Transport Regional, G.I.E."),
    ("Vesa Equity Investment S.à r.l.", "Kestrel Systems GmbH & Co. KG"),
    ("Nordlys Energi ASA", "Tampere Paper Oyj"),
])
def test_legal_forms_of_other_jurisdictions_make_a_name_a_party(first, second):
    text = (f"This Agreement is made between {first}, a company incorporated in its home "
            f"country, and {second}, a company registered abroad.")
    names = party_names(text)
    assert len(names) == 2
    assert names[0] == first.rstrip(".") or names[0] == first
    assert second.split(",")[0].split(" & ")[0] in names[1]


@pytest.mark.parametrize("name", ["Orchard Lane Ltd", "Abbey Road Studios Limited",
                                  "Park Avenue Holdings, Inc."])
def test_a_company_named_after_a_street_is_a_party(name):
    """A street word a legal form ends names a company; an address holding a legal form
    ("160 Shelbourne Road Ballsbridge 4 Co. Dublin") is still no party."""
    text = (f'This Agreement is made between {name}, 4 Mill Lane, Leeds ("Supplier") and '
            'Kestrel Systems GmbH, 160 Shelbourne Road Ballsbridge 4 Co. Dublin '
            '("Distributor").')
    assert party_names(text) == [f'{name} ("Supplier")', 'Kestrel Systems GmbH ("Distributor")']
