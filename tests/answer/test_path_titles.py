"""A section path entry's title, without its container word and label.

The segmenter names a container by its word, its label and its title ("SECTION 3(C)
Specific Exclusions", "PART B What is not covered"); the page writes the title under
another label ("C. Specific Exclusions"). The answer looks the title up on the page to quote
it above an item of the list: with the container's word kept, "SECTION 3(C) Specific
Exclusions" was found nowhere and SBI General's "15. Dental treatment or Surgery of any kind
unless requiring Hospitalisation" was quoted alone ("Cannot tell from the quote", session
44). Written with other container words and label styles.
"""

from __future__ import annotations

import pytest

from clausegraph.answer.direct import path_title_of


@pytest.mark.parametrize(("entry", "title"), [
    ("SECTION 3(C) Specific Exclusions", "Specific Exclusions"),
    ("Section C BENEFITS COVERED UNDER THE POLICY", "BENEFITS COVERED UNDER THE POLICY"),
    ("PART B What is not covered", "What is not covered"),
    ("ARTICLE IV Exclusions", "Exclusions"),
    ("Chapter 2 – Exclusions", "Exclusions"),
    ("Endorsement 11 TOTAL LOSS OF CHECKED-IN BAGGAGE", "TOTAL LOSS OF CHECKED-IN BAGGAGE"),
    ("Annexure I", ""),
    ("6.3(f)(i) 24 Months waiting period", "24 Months waiting period"),
    ("Section headings are for convenience", "Section headings are for convenience"),
    ("Part of the premium", "Part of the premium"),
])
def test_a_path_title_is_read_without_its_container_and_label(entry, title):
    assert path_title_of(entry) == title
