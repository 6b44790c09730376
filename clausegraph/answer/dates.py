"""The dates a document's term may count from: its effective date and the date of the
agreement, read from the clauses the clause-type model (classify/model.py) gives those CUAD
types, else from the document's opening. A verdict on when a term ends ("three (3) years
from the Effective Date") counts from them (``clausegraph.text.term``)."""

from __future__ import annotations

from collections.abc import Sequence

from clausegraph.models import Clause
from clausegraph.store.base import IndexReader
from clausegraph.text.term import (AGREEMENT_DATE, EFFECTIVE_DATE, SIGNATURE_DATE, defined_dates,
                                   full_dates, named_date)

# the clauses of a type read for its date, most probable first
TYPED_CLAUSES = 3
# the opening clauses read for the date of the agreement when no clause is typed as it
OPENING_CLAUSES = 3
# the closing clauses read for the date the parties signed (the signature block)
CLOSING_CLAUSES = 5


class DocumentDates(dict):
    """{name: ISO or None} with ``where``: the label of the clause each date was read from
    (what a verdict cites beside the date)."""

    def __init__(self) -> None:
        super().__init__()
        self.where: dict[str, str] = {}
        # the dates the document defines by name ("April 1, 2018 (the "Effective Date")"),
        # kept apart: the typed clause's date may be another (the preamble's)
        self.defined: dict[str, str] = {}
        self.defined_where: dict[str, str] = {}

    def found(self, name: str, iso: str | None, clause: Clause | None) -> None:
        self[name] = iso
        if iso and clause is not None:
            self.where[name] = clause.label


def document_dates(index: IndexReader, doc_id: str) -> DocumentDates:
    """{EFFECTIVE_DATE: ISO or None, AGREEMENT_DATE: ISO or None, and every other date the
    document defines by name ("Commencement Date"): ISO} of the stored document."""
    clauses = sorted(index.clauses.document_clauses(doc_id), key=lambda c: c.order)
    dates = DocumentDates()
    defined = first_definitions(clauses)
    for name, (iso, clause) in defined.items():
        dates.found(name, iso, clause)
    dates.defined = {name: iso for name, (iso, _) in defined.items()}
    dates.defined_where = dict(dates.where)
    for name in (EFFECTIVE_DATE, AGREEMENT_DATE):
        typed = _typed_date(clauses, name)
        dates.found(name, *(typed or defined.get(name) or (None, None)))
    if dates[AGREEMENT_DATE] is None:
        dated = ((d, c) for c in clauses[:OPENING_CLAUSES]
                 if (d := named_date(c.text, AGREEMENT_DATE)))
        dates.found(AGREEMENT_DATE, *next(dated, (None, None)))
    # the last party to sign makes it binding: the latest date of the signature block
    signed = [(iso, c) for c in clauses[-CLOSING_CLAUSES:] for iso in full_dates(c.text)]
    dates.found(SIGNATURE_DATE, *max(signed, key=lambda item: item[0], default=(None, None)))
    return dates


def first_definitions(clauses: Sequence[Clause]) -> dict[str, tuple[str, Clause]]:
    """Each date the clauses define by name ("April 1, 2018 (the "Effective Date")"): its
    ISO form and the clause of its first definition, in document order."""
    defined: dict[str, tuple[str, Clause]] = {}
    for clause in sorted(clauses, key=lambda c: c.order):
        for name, iso in defined_dates(clause.text).items():
            defined.setdefault(name, (iso, clause))
    return defined


def _typed_date(clauses: list[Clause], name: str) -> tuple[str, Clause] | None:
    typed = sorted(((t.probability, c.order, c) for c in clauses for t in c.clause_types
                    if t.label == name), key=lambda item: (-item[0], item[1]))
    for _, _, clause in typed[:TYPED_CLAUSES]:
        found = named_date(clause.text, name)
        if found:
            return found, clause
    return None
