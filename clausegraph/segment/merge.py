"""Units (clauses in the making) and the merges after parsing.

A clause that is only a heading merges into the clause right after it when that one is
its descendant (``ARTICLE I THE MERGER`` joins ``1.1``); clauses shorter than
``min_clause_chars`` merge into the clause before them in reading order (or after, when
first), never across a top-level boundary; a definition ending in a colon keeps the list
under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from clausegraph.models import Span
from clausegraph.segment.lines import total_size
from clausegraph.segment.outline import Node

# A numbered item at least this long stays a clause of its own ("6. Ectopic pregnancy").
_SHORT_ITEM_CHARS = 15
# a word of an item's own after its label ("14. Hernia"): three letters or more
_OWN_WORD = re.compile(r"[^\W\d_]{3,}")


@dataclass(slots=True)
class Unit:
    """A clause in the making: a node's pieces, possibly merged with neighbours'."""

    node: Node
    pieces: list[Span]
    size: int
    terms: list[str] = field(default_factory=list)
    lead_open: bool = False  # a lead-in clause ("... as under:") that took its list items

    @classmethod
    def of(cls, node: Node) -> Unit:
        return cls(node, node.pieces, total_size(node.pieces), list(node.terms))


def _joined(first: Unit, second: Unit, keep: Node) -> Unit:
    """One unit holding both units' text (in reading order) under ``keep``'s identity."""
    pieces = first.pieces + second.pieces
    return Unit(keep, pieces, total_size(pieces), first.terms + second.terms)


def merge_headings(units: list[Unit]) -> list[Unit]:
    """Fold heading-only units into the unit after them when it is their descendant."""
    out: list[Unit] = []
    carry: list[Unit] = []
    for unit in units:
        # Only a run of headings that are all ancestors of this unit can join it; the
        # others have nothing below them and stay heading clauses.
        keep = len(carry)
        while keep > 0 and unit.node.descends_from(carry[keep - 1].node):
            keep -= 1
        out.extend(carry[:keep])
        carry = carry[keep:]
        if not unit.node.has_body and unit.node.family != "toc":
            carry.append(unit)
            continue
        for held in reversed(carry):
            unit = _joined(held, unit, unit.node)
        carry = []
        out.append(unit)
    out.extend(carry)
    for position, unit in enumerate(out):
        if not unit.node.has_body and unit.node.family != "toc" and \
                not _bare_list_item(out, position):
            unit.node.kind = "heading"
    return out


# the families whose labels number containers ("ARTICLE V", "SCHEDULE 2"): one left without
# a body is a heading with nothing under it, not an item
_CONTAINER_FAMILIES = frozenset({"article", "schedule", "root", "heading", "para", "table"})


def _bare_list_item(units: list[Unit], position: int) -> bool:
    """Whether the body-less unit at ``position`` is an item of a list that only names
    things ("6. Hysterectomy" between "5. Cataract" and "7. Hernia", "c. Gestational
    Surrogacy" between two items that have a sentence): a numbered sibling of its style
    stands next to it. It heads nothing, so it is a clause, not a heading."""
    node = units[position].node
    if not node.numbered or node.family in _CONTAINER_FAMILIES:
        return False
    neighbours = [units[i].node for i in (position - 1, position + 1) if 0 <= i < len(units)]
    return any(other.parent is node.parent and other.style == node.style and other.numbered
               for other in neighbours)


def merge_tiny(units: list[Unit], min_chars: int, text: str | None = None) -> list[Unit]:
    """Fold units under ``min_chars`` into their neighbour within the same top-level zone.

    A tiny numbered item joins the unit before it only when that unit is its ancestor or
    its sibling; a tiny item that heads a list ("iii. Two years waiting period" over "a.
    Cataract") or follows a deeper item of another branch joins the unit after it instead,
    so no list item ends up under a heading it does not sit under. A table is a clause
    of its own whatever its size: it neither takes in nor joins a neighbour. Given the
    document ``text``, a numbered item with a word of its own after its label stays a clause
    whatever its length ("14. Hernia" in a list of conditions); without it, only items of
    ``_SHORT_ITEM_CHARS`` or more do.
    """
    out: list[Unit] = []
    pending: Unit | None = None
    for position, unit in enumerate(units):
        if pending is not None:
            if pending.node.zone == unit.node.zone and unit.node.family != "table":
                heads = unit.node.descends_from(pending.node)
                unit = _joined(pending, unit, pending.node if heads else unit.node)
            else:
                out.append(pending)
            pending = None
        if unit.size < min_chars and unit.node.family not in ("toc", "table"):
            following = units[position + 1] if position + 1 < len(units) else None
            # a numbered item over its sub-items, or a short paragraph over the bullets
            # it opens ("What is covered under this plan:" / "- Acupuncture"): it joins
            # what it heads, not the list before it
            heads_list = (
                (unit.node.numbered or unit.node.family == "para")
                and following is not None
                and following.node.descends_from(unit.node)
            )
            if unit.node.numbered and not heads_list and (
                    unit.size >= _SHORT_ITEM_CHARS if text is None else _has_own_word(unit, text)):
                out.append(unit)  # "6. Ectopic pregnancy": a short item, but an item
                continue
            if out and not heads_list and _may_absorb(out[-1].node, unit.node):
                out[-1] = _joined(out[-1], unit, out[-1].node)
                continue
            pending = unit
            continue
        out.append(unit)
    if pending is not None:
        out.append(pending)
    return out


def _has_own_word(unit: Unit, text: str) -> bool:
    """Whether a numbered unit says something after its label: a word of three letters or
    more past its first token ("14. Hernia", "(a) Nil"; not "4.", "(iv) 2", "5. 50%")."""
    own = " ".join(text[start:end] for start, end in unit.pieces).split(maxsplit=1)
    return len(own) == 2 and _OWN_WORD.search(own[1]) is not None


def _may_absorb(previous: Node, tiny: Node) -> bool:
    """Whether a tiny unit may join the unit before it: same zone, no table or contents,
    and for a numbered one its ancestor or its sibling."""
    if previous.zone != tiny.zone or previous.family in ("toc", "table"):
        return False
    if not tiny.numbered:
        return True
    return tiny.descends_from(previous) or previous.parent is tiny.parent


def merge_lead_in_lists(units: list[Unit], text: str, max_chars: int) -> list[Unit]:
    """A definition that ends in a colon ("Hospital means ... all minimum criteria as
    under:") keeps the list items under it, up to ``max_chars``: a definition without its
    criteria does not answer what the term means."""
    out: list[Unit] = []
    for unit in units:
        lead = out[-1] if out else None
        if (
            lead is not None
            and lead.node.kind == "definition"
            and _ends_with_colon(text, lead)
            and unit.node.numbered
            and unit.node.kind != "definition"
            and unit.node.descends_from(lead.node)
            and lead.size + unit.size <= max_chars
        ):
            out[-1] = _joined(lead, unit, lead.node)
            out[-1].lead_open = True
            continue
        out.append(unit)
    return out


def _ends_with_colon(text: str, unit: Unit) -> bool:
    if unit.lead_open:
        return True
    last = unit.pieces[-1][1] if unit.pieces else 0
    tail = text[max(0, last - 3) : last].rstrip()
    return tail.endswith((":", ":-", "—", "–"))
