"""Document scoping over the profile terms kept in the database (no document is loaded)."""

from __future__ import annotations

from clausegraph.retrieve.scope import DocumentScoper, name_words
from clausegraph.store.postgres.store import PostgresIndex
from clausegraph.text.tokenize import tokenize


class PostgresScoper(DocumentScoper):
    """``DocumentScoper``'s decisions, each answered by a query: BM25 over the stored
    document profiles, then the name-word tests against the stored name tokens."""

    def __init__(self, index: PostgresIndex, min_margin: float = 1.3) -> None:
        self.index = index
        self.min_margin = min_margin
        self._count = index.document_count()

    @property
    def document_count(self) -> int:
        return self._count

    def named_doc_id(self, text: str) -> str | None:
        top = self.index.bm25_top(tokenize(text), None, 2, field="profile")
        if not top:
            return None
        best, score = top[0]
        runner_up = top[1][1] if len(top) > 1 else 0.0
        if score <= 0 or score < self.min_margin * max(runner_up, 1e-9):
            return None
        title, names = self.index.name_tokens(best)
        words = name_words(text, title)
        return best if any(self._distinctive(w, names) for w in words) else None

    def names_word(self, word: str, doc_id: str) -> bool:
        return self._distinctive(word, self.index.name_tokens(doc_id)[1])

    def _distinctive(self, word: str, names: set[str]) -> bool:
        """As ``DocumentScoper._is_distinctive_name_word``, counting holders in SQL."""
        inside = len(word) >= 4
        in_name = word in names or (inside and any(word in t for t in names))
        if len(word) < 3 or not in_name:
            return False
        most = max(1, self._count // 50)
        return self.index.documents_named_with(word, inside) <= most
