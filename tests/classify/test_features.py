"""The clause-type model's lexical features (clausegraph/classify/features.py)."""

from __future__ import annotations

import pytest

from clausegraph.classify.features import hashed_terms, spelled_dates


@pytest.mark.parametrize("written", ["2024-03-01", "3/1/2024", "03/01/2024"])
def test_a_date_in_digits_reads_as_its_month_name_form(written: str) -> None:
    # 3/1/2024 is read month first, as CUAD's US contracts write it
    text = f"This Agreement commences on {written} and continues for two (2) years."
    assert spelled_dates(text) == \
        "This Agreement commences on March 1, 2024 and continues for two (2) years."
    spelled = "This Agreement commences on March 1, 2024 and continues for two (2) years."
    assert hashed_terms(text, 2 ** 18) == hashed_terms(spelled, 2 ** 18)


@pytest.mark.parametrize("text", [
    "This Agreement commences on March 1, 2024.",     # names its month already
    "on the 1st day of March, 2019",
    "Version 1.2.3 of the software",                   # not a date
    "Schedule 3/1/2 applies",
    "a fee of $1,500.00 per month",
])
def test_other_text_is_left_as_written(text: str) -> None:
    assert spelled_dates(text) == text
