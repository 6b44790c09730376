"""Boxes of bullets, one after the other: each box's opening line heads its own bullets.

A summary of benefits sets two boxes side by side or one under the other: "Services Your
Plan Generally Does NOT Cover (...)" over its bullets, then "Other Covered Services (...)"
over its own. Read as lines, the second opening followed the first box's last bullet after
a blank line and was taken for more of that bullet's text ("• Routine foot care" / "Other
Covered Services ..."), so the second box's bullets sat under the first box; a short opening
ending in a colon ("What is covered under this plan:") was folded into the first box as a
tiny fragment. Written with three bullet styles and two opening styles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clausegraph.ingest import load_document
from clausegraph.segment import segment

MARKERS = ["•", "-", "▪"]
OPENINGS = [("Services Your Plan Generally Does NOT Cover (Check your plan document.)",
             "Other Covered Services (Limitations may apply to these services.)"),
            ("What this plan does not cover:", "What is covered under this plan:")]
NOT_COVERED = ["Cosmetic surgery", "Long-term care", "Routine foot care"]
COVERED = ["Acupuncture", "Bariatric surgery", "Hearing aids"]


def summary(marker: str, openings: tuple[str, str]) -> str:
    first = "\n".join(f"{marker} {item}" for item in NOT_COVERED)
    second = "\n".join(f"{marker} {item}" for item in COVERED)
    return f"""SUMMARY OF BENEFITS AND COVERAGE

Your share of the cost is stated in the plan document.

{openings[0]}
{first}

{openings[1]}
{second}

Your rights to continue coverage are described in the plan document.
"""


@pytest.mark.parametrize("openings", OPENINGS)
@pytest.mark.parametrize("marker", MARKERS)
def test_each_box_keeps_its_own_bullets(tmp_path: Path, marker: str, openings) -> None:
    path = tmp_path / "summary.txt"
    path.write_text(summary(marker, openings), encoding="utf-8")
    clauses = segment(load_document(path))

    def holding(words: str):
        return next(c for c in clauses if words in c.text)

    second = holding(openings[1])
    assert openings[0] not in second.text, second.text
    assert not any(item in second.text for item in NOT_COVERED), second.text
    # each covered item is in the second box's clause, or in a clause under it
    for item in COVERED:
        clause = holding(item)
        assert clause is second or second.clause_id.split(":")[-1] in clause.section_path, \
            (item, clause.clause_id, clause.section_path)
    for item in NOT_COVERED:
        assert openings[1] not in holding(item).text, holding(item).text


def test_a_bullet_still_wraps_onto_its_next_line(tmp_path: Path) -> None:
    """A bullet's text that goes on after a phrase left open ("... expenses of the") is no
    new paragraph, whatever space the page leaves."""
    path = tmp_path / "wrapped.txt"
    path.write_text("""HEALTH POLICY

The following are not covered:
• Cosmetic surgery
• Expenses of the

Hospital stay for rest cure
• Long-term care
""", encoding="utf-8")
    clauses = segment(load_document(path))
    wrapped = next(c for c in clauses if "Expenses of the" in c.text)
    assert "Hospital stay for rest cure" in wrapped.text, [c.text for c in clauses]
