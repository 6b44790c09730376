"""Words written with a full stop that ends no sentence: "subject to Rs. 2000", "Clause
No. 5", "M/s. Acme Pvt. Ltd.", "Sec. 3". Every sentence splitter of the answer stage reads
this one list, so a quote and a direct answer cut a clause at the same places."""

from __future__ import annotations

import re

# Case as written: "NO." or "ART." in capitals is as often a word ending a sentence (but
# "NO." before a number is the number sign: ``_NUMBER_SIGN``).
ABBREVIATIONS = ("No", "Nos", "Inc", "Co", "Ltd", "Pvt", "Rs", "Mr", "Ms", "Mrs", "Dr", "St",
                 "vs", "viz", "e.g", "i.e", "U.S", "Sr", "Jr", "Art", "Sec", "Cl", "para",
                 "approx", "P.O")
# an abbreviation as the last word before a full stop
ABBREVIATION = "|".join(re.escape(word) for word in ABBREVIATIONS)
_ENDS_WITH_ABBREVIATION = re.compile(rf"(?:^|[\s(/])(?:{ABBREVIATION})$")
# a number's "No." in any case when the number follows ("AMENDMENT NO. 1", "Policy NO. 12")
_NUMBER_SIGN = re.compile(r"(?:^|[\s(/])nos?$", re.IGNORECASE)
_NUMBER_AFTER = re.compile(r"\s*\d")


def ends_with_abbreviation(text: str, stop: int) -> bool:
    """Whether the full stop at ``text[stop]`` closes an abbreviation, not a sentence.

    >>> text = "subject to Rs. 2000 per day. Then"
    >>> ends_with_abbreviation(text, text.index(".")), ends_with_abbreviation(text, 27)
    (True, False)
    """
    if _ENDS_WITH_ABBREVIATION.search(text, max(0, stop - 8), stop) is not None:
        return True
    return _NUMBER_SIGN.search(text, max(0, stop - 4), stop) is not None \
        and _NUMBER_AFTER.match(text, stop + 1) is not None
