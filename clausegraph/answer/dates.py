"""The dates a document's term may count from: its effective date and the date of the
agreement, read from the clauses the clause-type model (classify/model.py) gives those CUAD
types, else from the document's opening. A verdict on when a term ends ("three (3) years
from the Effective Date") counts from them (``clausegraph.text.term``)."""

from __future__ import annotations

from clausegraph.models import Clause
from clausegraph.store.base import IndexReader
from clausegraph.text.term import AGREEMENT_DATE, EFFECTIVE_DATE, defined_dates, named_date

# the clauses of a type read for its date, most probable first
TYPED_CLAUSES = 3
# the opening clauses read for the date of the agreement when no clause is typed as it
OPENING_CLAUSES = 3


def document_dates(index: IndexReader, doc_id: str) -> dict[str, str | None]:
    """{EFFECTIVE_DATE: ISO or None, AGREEMENT_DATE: ISO or None, and every other date the
    document defines by name ("Commencement Date"): ISO} of the stored document."""
    clauses = index.clauses.document_clauses(doc_id)
    defined: dict[str, str] = {}
    for clause in sorted(clauses, key=lambda c: c.order):
        for name, iso in defined_dates(clause.text).items():
            defined.setdefault(name, iso)
    dates: dict[str, str | None] = dict(defined)
    for name in (EFFECTIVE_DATE, AGREEMENT_DATE):
        dates[name] = _typed_date(clauses, name) or defined.get(name)
    if dates[AGREEMENT_DATE] is None:
        opening = sorted(clauses, key=lambda c: c.order)[:OPENING_CLAUSES]
        dates[AGREEMENT_DATE] = next(
            (d for c in opening if (d := named_date(c.text, AGREEMENT_DATE))), None)
    return dates


def _typed_date(clauses: list[Clause], name: str) -> str | None:
    typed = sorted(((t.probability, c.order, c) for c in clauses for t in c.clause_types
                    if t.label == name), key=lambda item: (-item[0], item[1]))
    for _, _, clause in typed[:TYPED_CLAUSES]:
        found = named_date(clause.text, name)
        if found:
            return found
    return None
