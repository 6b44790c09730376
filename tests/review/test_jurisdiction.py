"""The governing law's jurisdiction, as CUAD's normalised answers write it, from the many
ways contracts name it."""

from __future__ import annotations

import pytest

from clausegraph.review.jurisdiction import governing_jurisdiction

WORDINGS = [
    ("This Agreement shall be governed by the laws of the State of New York.", "New York"),
    ("governed by and construed in accordance with the laws of the state of Delaware, "
     "without regard to its conflict of laws principles", "Delaware"),
    ("THIS AGREEMENT SHALL BE GOVERNED BY THE LAWS OF THE STATE OF NEW YORK, WITHOUT "
     "REFERENCE TO ITS CONFLICT OF LAW PROVISIONS.", "New York"),
    ("THIS AGREEMENT SHALL BE GOVERNED IN ALL RESPECTS BY THE LAWS OF THE STATE OF DELAWARE "
     "APPLICABLE TO CONTRACTS EXECUTED AND TO BE PERFORMED WHOLLY THEREIN.", "Delaware"),
    ("construed under the laws of the Commonwealth of Pennsylvania.", "Pennsylvania"),
    ("governed by the laws of the Commonwealth of Massachusetts", "Massachusetts"),
    ("shall be governed by the laws of the People's Republic of China.",
     "People's Republic of China"),
    ("The validity of this Agreement shall be governed by the laws of PRC.",
     "People's Republic of China"),
    ("shall be governed by the PRC Law.", "People's Republic of China"),
    ("This Agreement is governed by the laws of England and Wales.", "England and Wales"),
    ("This Agreement shall be construed in accordance with English law.", "England"),
    ("This Agreement shall be governed by Delaware law.", "Delaware"),
    ("governed by the laws in force in the Province of Ontario (excluding any conflict of "
     "laws rule)", "Ontario"),
    ("governed by the laws of the State of Minnesota, United States of America, "
     "disregarding its conflicts of law rules.", "Minnesota"),
    ("governed by the laws of the State of Texas, U.S.A. without regard to its conflicts "
     "of laws rules", "Texas"),
    ("governed by the laws of Hong Kong.", "Hong Kong"),
    ("governed by the laws of the Federal Republic of Germany excluding the United Nations "
     "Convention on Contracts for the International Sale of Goods", "Federal Republic of Germany"),
    ("governed by the internal laws of the State of Illinois applicable to agreements made "
     "and to be performed wholly within that State", "Illinois"),
    ("This Agreement shall be governed by the laws of the United States and, to the extent "
     "not inconsistent therewith, by the laws of the Commonwealth of Kentucky", "Kentucky"),
    ("This Agreement shall be governed by the laws of the United States of America.",
     "United States"),
    ("without giving effect to the conflict of laws of any other jurisdiction, this "
     "Agreement shall be governed by the laws of the State of California.", "California"),
    ("The Laws of the State of Delaware (without reference to its principles of conflicts "
     "of law) shall govern the construction of this Agreement.", "Delaware"),
    ("This agreement shall be governed by the laws of the District of Columbia.",
     "District of Columbia"),
    ("governed by the laws of the State of North Carolina.", "North Carolina"),
]


@pytest.mark.parametrize(("text", "expected"), WORDINGS)
def test_the_jurisdiction_of_each_wording(text: str, expected: str) -> None:
    assert governing_jurisdiction(text) == expected


@pytest.mark.parametrize("text", [
    "All notices shall be in writing and delivered by courier.",
    "Each party shall comply with all applicable laws and regulations.",
    "This Agreement shall be governed by the laws of [***], without regard to conflicts.",
])
def test_no_jurisdiction_when_none_is_named(text: str) -> None:
    assert governing_jurisdiction(text) is None
