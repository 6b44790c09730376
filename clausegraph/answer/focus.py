"""The retrieved clauses reordered for an answer: by how well their best sentence answers.

Retrieval ranks whole clauses; an answer lives in one sentence. Before the answer is built,
the retrieved clauses (and the items of a retrieved list heading, which may answer without
repeating the heading's words) are reordered by their retrieval score blended with the share
of the question's weight their best sentence holds (``answer.direct.focus_scores``).
"""

from __future__ import annotations

from clausegraph.answer.direct import DocumentTerms, focus_scores, terms_for
from clausegraph.config import RetrievalConfig
from clausegraph.models import RetrievedClause
from clausegraph.store.base import IndexReader

# The items of a list heading among an answer's best clauses are candidates too, at this
# share of the heading's score.
LIST_HEADINGS_OPENED = 10
LIST_ITEM_SHARE = 0.9


def focus_results(
    index: IndexReader, question: str, results: list[RetrievedClause], config: RetrievalConfig
) -> list[RetrievedClause]:
    """Reorder by retrieval score blended with the best-sentence match; keep ``top_k``."""
    if config.focus_weight <= 0 or not results:
        return results[: config.top_k]
    results = results + list_items(terms_for(index), results)
    focus = focus_scores(index, question, [r.clause for r in results])
    top = max(r.score for r in results) or 1.0
    weight = config.focus_weight
    blended = [((1 - weight) * r.score / top + weight * f, r) for f, r in zip(focus, results)]
    blended.sort(key=lambda item: -item[0])
    return [r for _, r in blended[: config.top_k]]


def list_items(terms: DocumentTerms, results: list[RetrievedClause]) -> list[RetrievedClause]:
    """The items under a retrieved list heading ("ii. Specified disease waiting period"):
    the item that answers ("a) ... excluded until 24 months") may not repeat the heading's
    words, so it joins the candidates at a little below its heading's score."""
    present = {r.clause_id for r in results}
    added = []
    for result in results[:LIST_HEADINGS_OPENED]:
        for item in terms.list_items(result.clause):
            if item.clause_id not in present:
                present.add(item.clause_id)
                added.append(result.model_copy(update={
                    "clause": item, "score": result.score * LIST_ITEM_SHARE,
                    "origin": "expanded", "seed_rank": None, "via": [],
                    "via_seed": result.clause_id}))
    return added


def lead_with(results: list[RetrievedClause], lead: RetrievedClause,
              top_k: int) -> list[RetrievedClause]:
    """``lead`` first, then the other retrieved clauses in their order (``top_k`` in all),
    then the definitions and exceptions that govern them."""
    rest = [r for r in results if r.clause_id != lead.clause_id]
    hits = [r for r in rest if r.origin != "governing"]
    return [lead] + hits[: max(top_k - 1, 0)] + [r for r in rest if r.origin == "governing"]
