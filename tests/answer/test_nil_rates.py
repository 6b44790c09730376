""""Nil" states a rate or an amount of zero: a depreciation schedule's "Glass | Nil" answers
"What depreciation is applied to glass parts?" as "30%" answers it for fibre glass. Written
in three cases of the word and with the schedule as a table or as prose lines."""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

NILS = ["Nil", "NIL", "nil"]


def policy(nil: str, table: bool) -> str:
    rows = [("Rubber, nylon and plastic parts, tyres and tubes", "50%"),
            ("Fibre glass components", "30%"), ("All parts made of glass", nil)]
    schedule = "\n".join(f"{part} | {rate}" if table else f"For {part.lower()}: {rate}."
                         for part, rate in rows)
    return f"""MOTOR PACKAGE POLICY

SECTION 1. LOSS OF OR DAMAGE TO THE VEHICLE
The Company will indemnify the insured against loss or damage to the vehicle insured.

2. Depreciation
Subject to a deduction for depreciation at the rates mentioned below in respect of parts
replaced:
{schedule}

3. Towing
The Company will bear the reasonable cost of removal of the vehicle to the nearest repairer.
"""


VARIANTS = [(nil, table) for nil in NILS for table in (True, False)]


@pytest.fixture(scope="module")
def nil_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("nil"), [policy(*v) for v in VARIANTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_nil_rate_answers_the_rate_asked(nil_graph, variant):
    nil, _ = VARIANTS[variant]
    answer = ask_variant(nil_graph, variant, "What depreciation is applied to glass parts?")
    assert f"glass | {nil}" in direct_text(answer) or f"glass: {nil}" in direct_text(answer)


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_numbered_rate_still_answers_its_own_row(nil_graph, variant):
    answer = ask_variant(nil_graph, variant, "What depreciation applies to fibre glass components?")
    assert "30%" in direct_text(answer)
