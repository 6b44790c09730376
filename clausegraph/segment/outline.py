"""The outline being built: its nodes, the stack of open ones, and where a label goes.

A label whose style is already open becomes a sibling of that node, any other label a
child of the deepest open node (dotted numbers nest by their digits, ``ARTICLE`` and
``Schedule`` close everything below them). A label that is the next item of an open
sequence continues that sequence even when a deeper list of the same style was opened
since; when two open sequences fit, the one whose label is written alike wins, else the
deeper one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clausegraph.models import Span

# how a sentence that announces a list ends
_LEAD_IN_ENDS = ":—–-"
# Families of nodes that hold running text, never a heading or a table.
TEXT_FAMILIES = ("para", "bullet", "def")


@dataclass(slots=True)
class Label:
    """A label found at a line start."""

    family: str  # schedule | article | decimal | list | code | bullet
    style: str  # hierarchy key: nodes of one style are siblings
    comp: str | None  # path component; None for unnumbered (bullets)
    end: int  # offset in the line where the label ends
    value: int = 0
    tup: tuple[int, ...] = ()
    rank: int | None = None  # fixed outline rank (schedule 0, article 1), else dynamic


@dataclass(eq=False)
class Node:
    """An outline node; becomes one clause (or several windows)."""

    style: str
    family: str
    parent: Node | None
    comp: str | None = None
    path: str = ""
    heading: str | None = None
    value: int = 0
    tup: tuple[int, ...] = ()
    rank: int | None = None
    kind: str = "clause"
    pieces: list[Span] = field(default_factory=list)
    has_body: bool = False
    in_defs: bool = False
    terms: list[str] = field(default_factory=list)
    counter: int = 0  # running count of unnumbered children (for ¶N)
    child_styles: set[str] = field(default_factory=set)
    zone: int = 0
    last_char: str = ""
    preamble: bool = False  # opened before any numbered label (a title, not a section)
    shape: str = ""  # how the label is written: "head" (alone or with a caps heading), "text"
    # an unlabelled heading's type (size, bold) where the page gave it: a heading set as
    # large or larger closes it
    prominence: tuple[float, bool] | None = None

    @property
    def numbered(self) -> bool:
        return self.comp is not None

    @property
    def unlabelled_heading(self) -> bool:
        return self.family == "heading"

    def descends_from(self, ancestor: Node) -> bool:
        current = self.parent
        while current is not None:
            if current is ancestor:
                return True
            current = current.parent
        return False


class Outline:
    """The nodes in reading order and the stack of open ones (the root at the bottom)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.root = Node(style="root", family="root", parent=None)
        self.stack: list[Node] = [self.root]
        self.nodes: list[Node] = []
        self.paths: dict[str, int] = {}
        self.zone = 0
        self.preamble_count = 0
        self.seen_body_label = False  # any numbered label yet (else Exhibit 10.1 is a header)

    @property
    def top(self) -> Node:
        return self.stack[-1]

    def in_defs(self) -> bool:
        return any(node.in_defs for node in self.stack[-3:])

    # ---- finding open nodes

    def find_style(self, style: str) -> Node | None:
        """The innermost open node of ``style`` below the innermost ARTICLE or Schedule."""
        for node in reversed(self.stack):
            if node.style == style:
                return node
            if node.rank is not None:
                return None
        return None

    def open_fits(self, label: Label) -> list[int]:
        """Stack indices (deepest first) of open nodes ``label`` is the very next item of.

        For a decimal that is an open number of the same depth and prefix, one less
        ("5." after "4.", "4.3" after "4.2"); for a list item, an open item of the same
        style one less ("(f)" after "(e)"). Only nodes below the innermost ARTICLE or
        Schedule count.
        """
        fits: list[int] = []
        for index in range(len(self.stack) - 1, 0, -1):
            node = self.stack[index]
            if node.rank is not None:
                break
            if node.style != label.style or label.value != node.value + 1:
                continue
            if label.family == "decimal" and (
                    node.tup[:-1] != label.tup[:-1]
                    # "SECTION NO. 3" continues "SECTION NO. 2", not a list item "2."
                    or not _numbered_alike(node.comp, label.comp)):
                continue
            fits.append(index)
        return fits

    def displaced_sibling(self, label: Label) -> Node | None:
        """The closed list item ``label`` is the very next item of, when the list it ends
        was closed by a list of another numbering opened inside it and its parent is still
        open: "2) Specified disease waiting period ... 1. Cataract ... 35. Genetic
        disorders" then "3) 30-day waiting period" (the numbered list closed "2)" by
        climbing to the section, so "3)" finds no open "2)").

        Only the last node of the label's style counts, and none when an ARTICLE or
        Schedule opened since."""
        if label.value < 2:
            return None  # a list's first item continues nothing
        for node in reversed(self.nodes):
            if node.rank is not None:
                return None
            if node.style != label.style:
                continue
            if label.value != node.value + 1 or node in self.stack \
                    or node.parent not in self.stack:
                return None
            return node
        return None

    def continues_article(self, label: Label) -> bool:
        """Is ``label`` the next article (or chapter) after one open now?"""
        return any(
            node.style == label.style and label.value == node.value + 1 for node in self.stack
        )

    # ---- placing a label

    def parent_for(self, label: Label, shape: str = "") -> Node:
        """Pop the stack to where ``label`` belongs and return its parent."""
        stack = self.stack
        if label.rank is not None:
            while len(stack) > 1 and (stack[-1].rank is None or stack[-1].rank >= label.rank):
                stack.pop()
            return stack[-1]
        fits = self.open_fits(label) if label.comp is not None else []
        if fits:
            index = self._pick_fit(fits, shape) - 1
        elif label.family == "decimal":
            index = self._decimal_parent_index(label.tup, label.comp)
        elif label.family == "list" and (displaced := self.displaced_sibling(label)):
            assert displaced.parent is not None  # a closed node is never the root
            return self._capture(self.stack.index(displaced.parent), label.style, False)
        else:
            index = self._style_parent_index(label)
        # "SECTION NO. 3" is a section of its own, never an item of the heading above it
        adoptable = not (label.family == "decimal" and _word(label.comp) is not None)
        return self._capture(index, label.style, adoptable)

    def _pick_fit(self, fits: list[int], shape: str) -> int:
        """Of several open sequences a label continues, the one written like it, else the deepest.

        After "1. BASIC TERMS ... (e) ... 1. Weekly report", a "2." continues both lists;
        "2." alone on its line above a heading continues the outer one, "2. Monthly
        report" the inner one.
        """
        for index in fits:
            if self.stack[index].shape == shape:
                return index
        return fits[0]

    def _decimal_parent_index(self, tup: tuple[int, ...], comp: str | None = None) -> int:
        depth, word = len(tup), _word(comp)
        top = self.stack[-1]
        if tup == (1,) and (
            any(node.family == "decimal" for node in self.stack)
            # "A) Conditions precedent to contract" then "1.": the heading's own list
            or (top.family == "list" and top.heading is not None and not top.has_body)
        ):
            return len(self.stack) - 1  # "1." inside a numbered section starts a sub-list
        for index in range(len(self.stack) - 1, 0, -1):
            node = self.stack[index]
            if node.rank is not None:
                if word is not None and _word(node.comp) == word:
                    continue  # "SECTION NO. 3" after "SECTION G": a peer, not a part
                return index
            if node.family != "decimal":
                continue
            node_depth = len(node.tup)
            if node_depth < depth and tup[:node_depth] == node.tup:
                return index
            if node_depth == depth and node.tup[:-1] == tup[:-1] \
                    and _numbered_alike(node.comp, comp):
                # "SECTION NO. 3" is no sibling of the item "45." of a list in section G
                return index - 1
        return 0

    def _style_parent_index(self, label: Label) -> int:
        top = len(self.stack) - 1
        for index in range(top, 0, -1):
            node = self.stack[index]
            if node.rank is not None:
                break
            if node.style == label.style:
                if label.family == "list" and label.value <= node.value:
                    # A new "(a)": a sub-list when the open item announced one, else a restart.
                    if index == top and node.last_char not in _LEAD_IN_ENDS:
                        return index - 1
                    return top
                return index - 1
        return top

    def _capture(self, index: int, style: str, adoptable: bool = True) -> Node:
        """Pop to ``stack[index]``, letting a just-closed unnumbered heading adopt the label."""
        heading = self.stack[index + 1] if index + 1 < len(self.stack) else None
        if (
            adoptable
            and heading is not None
            and heading.unlabelled_heading
            and not heading.preamble
            and (not heading.child_styles or heading.child_styles == {style})
        ):
            index += 1
        del self.stack[index + 1 :]
        return self.stack[index]

    def sibling_parent_index(self, style: str) -> int:
        """Stack index of the parent for an unnumbered node of ``style``: that of the open
        node of the same style (a sibling), else the top."""
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].rank is not None:
                break
            if self.stack[index].style == style:
                return index - 1
        return len(self.stack) - 1

    def pop_to(self, node: Node) -> None:
        while self.stack[-1] is not node and len(self.stack) > 1:
            self.stack.pop()

    def pop_text_nodes(self) -> None:
        """Close open paragraphs, bullets and definitions (a heading or table follows)."""
        while len(self.stack) > 1 and self.stack[-1].family in TEXT_FAMILIES:
            self.stack.pop()

    # ---- new nodes

    def new_node(
        self,
        parent: Node,
        style: str,
        family: str,
        comp: str | None,
        path: str | None = None,
        label: Label | None = None,
    ) -> Node:
        node = Node(style=style, family=family, parent=parent, comp=comp)
        if label is not None:
            node.value, node.tup, node.rank = label.value, label.tup, label.rank
        node.in_defs = parent.in_defs
        parent.child_styles.add(style)
        if parent is self.root and family != "para":
            self.zone += 1  # a new top-level unit: tiny fragments never merge across it
        node.zone = self.zone
        node.path = self._unique(path or self._path_for(node))
        self.stack.append(node)
        self.nodes.append(node)
        return node

    def numbered_anchor(self, node: Node) -> Node:
        """The nearest numbered node at or above ``node`` (the root when none)."""
        while node is not self.root and not node.numbered:
            node = node.parent
        return node

    def _path_for(self, node: Node) -> str:
        anchor = node.parent
        while anchor is not None and anchor is not self.root and not anchor.numbered:
            anchor = anchor.parent
        base = anchor.path if anchor is not None and anchor is not self.root else ""
        if node.comp is None:
            if not base and not self.seen_body_label:
                self.preamble_count += 1
                return f"preamble¶{self.preamble_count}"
            holder = anchor if anchor is not None else self.root
            holder.counter += 1
            return f"{base}¶{holder.counter}"
        if not base:
            return node.comp
        if node.family == "decimal" and anchor is not None:
            carried = anchor.tup and node.tup[: len(anchor.tup)] == anchor.tup
            if carried and len(node.tup) > len(anchor.tup) and "." in node.comp:
                return node.comp
            if anchor.family == "decimal" and carried and "." in node.comp:
                return node.comp
        if (
            node.family == "list"
            and anchor is not None
            and anchor.family not in ("article", "schedule")
        ):
            return base + node.comp
        return f"{base}/{node.comp}"

    def _unique(self, path: str) -> str:
        count = self.paths.get(path, 0) + 1
        self.paths[path] = count
        return path if count == 1 else f"{path}~{count}"

    # ---- text of nodes

    def append(self, node: Node, start: int, end: int, body: bool = False) -> None:
        if end <= start:
            return
        node.pieces.append((start, end))
        node.last_char = self.text[end - 1]
        node.has_body = node.has_body or body

    def trim_last_piece(self, node: Node) -> None:
        if not node.pieces:
            return
        start, end = node.pieces[-1]
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if end > start:
            node.pieces[-1] = (start, end)
        else:
            node.pieces.pop()


def _word(comp: str | None) -> str | None:
    """The word a path component carries before its number, case folded ("section" of
    "SECTION 3" or "Section G"; None for "3")."""
    return comp.split()[0].casefold() if comp is not None and " " in comp else None


def _numbered_alike(comp: str | None, other: str | None) -> bool:
    """Whether two decimal components are both worded ("SECTION 3") or both plain ("3")."""
    return (_word(comp) is None) == (_word(other) is None)
