"""From retrieved clauses to a cited answer: roles, the reasoning chain, templates.

Clauses are grouped by the role they play for the question (seed 004, 4.4 step 4):
definitions -> base rules -> exceptions. The chain lists the typed edges that join the
retrieved clauses ("7.1(b) OVERRIDES 4.2"). With no LLM configured the answer is
extractive: the sentences of the governing clauses that best match the question,
quoted verbatim and cited by document, section, page and character span.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from clausegraph.answer.direct import (EXCEPTION_HEADING, NOT_FOUND, REFUSES_COVER_RULE,
                                       LIST_TITLE_CHARS, REFUSING_HEADING,
                                       DocumentTerms, SentenceSimilarity,
                                       direct_answer, is_ancestor, refuses_cover,
                                       refusing_close, split_sentences, terms_for,
                                       token_set,
                                       word_overlap_rules)
from clausegraph.answer.dates import document_dates
from clausegraph.answer.defined import (DEFINED_BY, DEFINITION_HEADING, LEAD_TERM, PRONOUNS,
                                        definition_terms, past_term_line)
from clausegraph.answer.waiting import WaitingEvidence, waiting_link, with_waiting
from clausegraph.answer.verdict import (attach_verdicts, misses_stated_figure, stated_answer,
                                        states_no_amount)
from clausegraph.models import (
    Answer,
    ChainLink,
    Clause,
    DirectAnswer,
    Edge,
    EvidenceClause,
    Quote,
    RelationType,
    RetrievedClause,
    Span,
    TypeCheck,
)
from clausegraph.store.base import IndexReader
from clausegraph.text.abbreviations import ends_with_abbreviation
from clausegraph.text.templates import render
from clausegraph.text.tokenize import tokenize

GROUPS = ("definition", "base_rule", "exception")
# Per-document answers within this much of the best one's confidence answer "equally well"
# (confidence is a heuristic share of the question's words: a few hundredths are noise).
EQUAL_ANSWER_MARGIN = 0.05
GROUP_TITLES = {"definition": "Definitions", "base_rule": "Base rules", "exception": "Exceptions"}
# Section wordings that make their clauses exceptions, in any letter case ("WHAT IS NOT
# COVERED", "What we don't pay for", "General Exclusions", "Limitation of Liability").
# A list heading that ends by refusing what follows ("...; We will not cover:"): its items
# are exclusions, whatever the section is called.
# a lead-in whose items are the conditions of cover, not what it refuses ("We will not pay
# ... unless:")
_CONDITIONAL = re.compile(r"\b(?:unless|except|provided|only\s+if|subject\s+to)\b", re.I)
# A sentence ends at . ; or : followed by space and a capital/number/bracket; the look-behind
# skips common abbreviations so "U.S. Dollars" or "Inc. shall" do not end a sentence.
_SENTENCE_END = re.compile(r"[.;](?=\s+[A-Z(\"0-9])")
# what a list item opens with: "4.", "(b).", "iv.", "A."
_LABEL_ONLY = re.compile(r"\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-zA-Z]|[ivxlIVXL]{1,6})\)?\.")


# -- roles and chain ----------------------------------------------------------------------


def _section_text(clause: Clause) -> str:
    return " ".join([*clause.section_path, clause.heading or ""])


def _refuses_items(parent: Clause | None) -> bool:
    """Whether ``parent`` refuses the list under it: it ends by refusing ("...; We will not
    cover:"), its lead-in sentence refuses however long it runs ("We will not pay for any
    claim ... arising from any of the following:"), or its title line names what is not
    covered ("SECTION 4 - What we will not pay for"; a title found by its words, not its
    letter case)."""
    if parent is None:
        return False
    if refusing_close(parent) is not None:
        return True
    spans = split_sentences(parent.text)
    lead_in = parent.text[spans[-1][0]:spans[-1][1]].rstrip() if spans else ""
    if lead_in.endswith(":") and _CONDITIONAL.search(lead_in) is None \
            and refuses_cover(lead_in):
        return True
    title = parent.text.split("\n", 1)[0].strip()
    return len(title) <= LIST_TITLE_CHARS and REFUSING_HEADING.search(title) is not None


def assign_groups(
    results: list[RetrievedClause], edges: list[Edge], index: IndexReader | None = None
) -> dict[str, str]:
    """Role of each retrieved clause (``clause_role``), from the edges drawn from it: those
    in ``edges`` and its ``via`` and, given the ``index``, all of its document's."""
    terms = terms_for(index) if index is not None else None
    roles = {}
    for result in results:
        clause = result.clause
        # the edges retrieval walked from it are graph edges too (the same in every answer)
        out = [edge for edge in (*edges, *result.via) if edge.source == clause.clause_id]
        if index is not None:
            out += [edge for _, edge in _edges_by_source(index, clause.doc_id).get(
                clause.clause_id, ())]
        holder = terms.list_holder(clause) if terms is not None else None
        roles[clause.clause_id] = clause_role(clause, out, holder)
    return roles


def clause_role(clause: Clause, out_edges: list[Edge], parent: Clause | None = None) -> str:
    """A clause's role (definition, base rule or exception) from its own wording, the
    wording of its section headings and list lead-in (``parent``: the clause it is an item
    of, or the one announcing its list), and the edges the relation rules drew from it
    (``out_edges``, themselves read from its wording).

    Never from which other clauses a question retrieved, nor from letter case or layout:
    the same clause plays the same role in every answer, and the same wording under the
    same heading plays it in every document."""
    section = _section_text(clause)
    if clause.kind == "definition" or DEFINITION_HEADING.search(section) or any(
            edge.type is RelationType.DEFINES and _opens_with(clause.text, edge.term)
            for edge in out_edges):
        return "definition"
    if EXCEPTION_HEADING.search(section) or _refuses_items(parent) or \
            refuses_cover(_first_sentence(clause.text)) or any(
                edge.type is RelationType.OVERRIDES and edge.rule_id != REFUSES_COVER_RULE
                for edge in out_edges):
        return "exception"
    return "base_rule"


def _first_sentence(text: str) -> str:
    """What a clause says first: a grant that ends with a limit ("We will pay for air
    ambulance ... We will not pay for the return journey") is a rule, one that opens by
    refusing ("Cosmetic surgery is not covered ...") an exception. The Overrides edges the
    refusal rule draws from a refusal anywhere in a clause (``REFUSES_COVER_RULE``) do not
    decide either; those of an exclusions section do."""
    spans = split_sentences(text)
    return text[: spans[0][1]] if spans else text


def _opens_with(text: str, term: str | None) -> bool:
    """Whether ``text`` opens by defining ``term`` ("Affiliate" means ..., "2.9 Term: ..."):
    a clause that defines a term in passing (THIS AGREEMENT (the "Agreement") ...) or only
    opens with it ("Newly born child shall be covered ...") is not a definition."""
    match = LEAD_TERM.match(text)
    return bool(term) and match is not None and \
        match.group("term").strip().lower() == term.strip().lower()


_EDGES_BY_SOURCE: weakref.WeakKeyDictionary[IndexReader, dict[str, dict]] = \
    weakref.WeakKeyDictionary()


def _edges_by_source(index: IndexReader, doc_id: str) -> dict[str, list[tuple[int, Edge]]]:
    """A document's edges by source clause, each with its place in the document's list
    (a loaded index never changes; built once per document, not scanned per answer).
    Not ``GraphStore.out_edges``: that keeps one edge per (source, target, type) and may
    be a database query per clause; the chain lists every stored edge in stored order."""
    documents = _EDGES_BY_SOURCE.setdefault(index, {})
    if doc_id not in documents:
        by_source: dict[str, list[tuple[int, Edge]]] = {}
        for place, edge in enumerate(index.graph.document_edges(doc_id)):
            by_source.setdefault(edge.source, []).append((place, edge))
        documents[doc_id] = by_source
    return documents[doc_id]


def chain_edges(index: IndexReader, results: list[RetrievedClause]) -> list[Edge]:
    """Typed edges (not SameSection) whose both ends are retrieved, plus walked paths."""
    ids = {r.clause_id for r in results}
    seen: set[tuple[str, str, str]] = set()
    edges: list[Edge] = []
    candidates = [edge for result in results for edge in result.via]
    for doc_id in dict.fromkeys(r.clause.doc_id for r in results):
        by_source = _edges_by_source(index, doc_id)
        # in the document's edge order, as a scan of all its edges would list them
        found = sorted((pair for source in ids for pair in by_source.get(source, ())
                        if pair[1].target in ids), key=lambda pair: pair[0])
        candidates += [edge for _, edge in found]
    for edge in candidates:
        key = (edge.type.value, edge.source, edge.target)
        if edge.type is RelationType.SAME_SECTION or key in seen:
            continue
        seen.add(key)
        edges.append(edge)
    order = {RelationType.DEFINES: 0, RelationType.REFERS_TO: 1, RelationType.ENTAILS: 2,
             RelationType.CAUSES: 3, RelationType.OVERRIDES: 4}
    return sorted(edges, key=lambda e: (order.get(e.type, 9), -e.confidence))


# -- extractive answer ------------------------------------------------------------------


def sentence_spans(text: str) -> list[Span]:
    """Rough sentence boundaries inside a clause (good enough to pick a quote). A list
    label is no sentence of its own: "4. Uterine Polyps" is one.

    >>> sentence_spans("A is covered. B is not.")
    [(0, 13), (14, 23)]
    >>> sentence_spans("14. Hernia")
    [(0, 10)]
    """
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if _LABEL_ONLY.fullmatch(text, start, match.end()) \
                or ends_with_abbreviation(text, match.start()):
            continue
        spans.append((start, match.end()))
        start = match.end()
        while start < len(text) and text[start].isspace():
            start += 1
    if start < len(text.rstrip()):
        spans.append((start, len(text.rstrip())))
    return [s for s in spans if text[s[0]:s[1]].strip()]


@lru_cache(maxsize=8192)
def _sentence_spans(text: str) -> tuple[Span, ...]:
    """Cached: the same retrieved clauses are quoted in answer after answer."""
    return tuple(sentence_spans(text))


def best_quote(clause: Clause, query_tokens: set[str]) -> Quote:
    """The clause sentence sharing most query words (ties: the earlier sentence)."""
    best: tuple[float, Span] | None = None
    for start, end in _sentence_spans(clause.text):
        tokens = token_set(clause.text[start:end])
        # a bare heading ("10.4 Company Termination.") says nothing worth quoting
        substance = 1.0 if len(tokens) >= 6 else 0.1
        score = substance * (0.1 + len(tokens & query_tokens)) / (1.0 + 0.02 * len(tokens))
        if best is None or score > best[0]:
            best = (score, (start, end))
    start, end = best[1] if best else (0, len(clause.text))
    text = clause.text[start:end].strip()
    return Quote(clause_id=clause.clause_id, text=text, span=clause.document_span(start, end))


def definition_quote(clause: Clause) -> Quote | None:
    """A definition's quote: its first sentence that defines ("X means ...", "X shall
    mean ...", "X is defined as ..."), without a term line above it that the sentence
    repeats. The words a question shares with the clause pick a fragment of a long
    definition instead ("The court-ordered termination date of coverage. d." of a
    definition of "Dependent"); None when no sentence defines (the words then choose)."""
    # the answer's sentences: a list item on its own line starts one, so a definition that
    # introduces a list ("... one or more of the following person(s):") ends at its colon
    for start, end in split_sentences(clause.text):
        if DEFINED_BY.search(clause.text, start, end):
            start = past_term_line(clause.text, start, end)
            return Quote(clause_id=clause.clause_id, text=clause.text[start:end].strip(),
                         span=clause.document_span(start, end))
    return None


def evidence_quote(clause: Clause, group: str, query_tokens: set[str]) -> Quote:
    """The quote an evidence clause is shown by: a definition's defining sentence, else the
    sentence sharing most of the question's words."""
    return (definition_quote(clause) if group == "definition" else None) or \
        best_quote(clause, query_tokens)


# -- rendering ---------------------------------------------------------------------------


def build_answer(
    index: IndexReader,
    question: str,
    results: list[RetrievedClause],
    retrieval_settings: dict,
    asked: str | None = None,
    by_document: dict[str, list[RetrievedClause]] | None = None,
    question_types: np.ndarray | None = None,
    type_check: Callable[[str], TypeCheck | None] | None = None,
    sentence_similarity: SentenceSimilarity | None = None,
    waiting: WaitingEvidence | None = None,
) -> Answer:
    """Group, chain and quote the retrieved clauses into the offline extractive answer.

    ``by_document``: a document's own evidence (a search inside it), when the question
    named no document; its direct answer is then taken from that, not from the few
    clauses of it in ``results``. ``question_types``: the CUAD clause types the question
    asks about (classify/questions.py), read by the answer gate. ``type_check(doc_id)``:
    whether the document has a clause of those types (review/presence.py; see
    ``answer.direct.direct_answer``). ``sentence_similarity``: the cosines of sentences
    with the question, read by the learned sentence choice. ``waiting``: what retrieval
    found for the waiting period of a cover question asked of a time from the start of
    cover (answer/waiting.py), whose answer leads where it states one."""
    edges = chain_edges(index, results)
    groups = assign_groups(results, edges, index)
    # Evidence stays in rank order (retrieved clauses best first, then the definitions and
    # exceptions that govern them): a reader takes the first clause as the answer's source.
    evidence = [_evidence(index, r, groups[r.clause_id]) for r in results]
    labels = {e.clause_id: e.label for e in evidence}
    chain = [_link(edge, labels) for edge in edges if edge.source in labels and edge.target in labels]
    query_tokens = set(tokenize(question))
    by_id = {r.clause_id: r.clause for r in results}
    quotes = [evidence_quote(by_id[e.clause_id], e.group, query_tokens) for e in evidence]
    answer = Answer(
        question=question,
        answer="",
        mode="extractive",
        quotes=quotes,
        evidence=evidence,
        chain=chain,
        retrieval=retrieval_settings,
    )
    _attach_direct(answer, index, results, asked or question, by_document or {},
                   question_types, type_check, sentence_similarity, waiting)
    _add_cited(answer, index, by_document or {})
    if waiting is not None:
        _add_cited(answer, index, {doc_id: waiting.of_document(doc_id)
                                   for doc_id in answer.direct_answer_documents})
    explain(answer, index)
    # a term counted from the effective date ends by that date (only an end question reads it)
    attach_verdicts(answer, asked or question, lambda doc_id: document_dates(index, doc_id))
    answer.direct_answer = stated_answer(answer)
    if answer.found:
        # the clause that decides the answer is the one to read first
        cited = set(answer.direct_answer_citations)
        answer.evidence.sort(key=lambda e: e.clause_id not in cited)
    values = template_values(answer)
    answer.context = render("context.md.j2", **values)
    answer.answer = render("answer_extractive.md.j2", **values).strip()
    return answer


# -- evidence that explains the answer ----------------------------------------------------


def governing_ids(answer: Answer) -> list[str]:
    """The clauses the answer rests on: those the direct answer quotes and the exceptions
    it names; when nothing was found, the top clause (what the reader looks at first)."""
    ids = list(answer.direct_answer_citations)
    for document in answer.per_document if answer.found else ():
        ids += [line.clause_id for line in document.exceptions]
    if not ids and answer.evidence:
        ids.append(answer.evidence[0].clause_id)
    return list(dict.fromkeys(ids))


def explain(answer: Answer, index: IndexReader) -> None:
    """Keep beside the answer only what explains it (issue 27): definitions of terms the
    question or a governing clause uses, the items of the answer's own list marked as such
    (not as exceptions to it), and the chain links that lead to the answering clause."""
    governing = governing_ids(answer)
    by_id = {e.clause_id: e for e in answer.evidence}
    drafted = "\n".join(by_id[c].text for c in governing if c in by_id)
    terms = {link.source: link.term for link in answer.chain if link.term}
    answer.evidence = [
        e for e in answer.evidence
        if e.group != "definition" or e.clause_id in governing or any(
            uses_term(term, answer.question, drafted) for term in
            definition_terms(index.clauses.clause(e.clause_id), terms.get(e.clause_id)))]
    anchors = list(answer.direct_answer_citations) if answer.found else governing[:1]
    _mark_list_neighbours(answer, index, anchors)
    kept = {e.clause_id for e in answer.evidence}
    answer.quotes = [q for q in answer.quotes if q.clause_id in kept]
    answer.chain = chain_to(anchors, [link for link in answer.chain
                                      if link.source in kept and link.target in kept])


def uses_term(term: str, question: str, drafted: str) -> bool:
    """Whether the question uses a defined term, in any case ("is the policy ..."), or the
    governing clauses do, as drafted: "Policy" (the defined term), not "policy" (the word).
    A defined pronoun counts only when the question writes it as the term ("Who is 'We'?")."""
    word = rf"(?<!\w){re.escape(term)}(?!\w)"
    if term.lower() in PRONOUNS:
        return re.search(rf"[\"“‘']{word}[\"”’']", question) is not None
    return re.search(word, question, re.I) is not None or re.search(word, drafted) is not None


def _mark_list_neighbours(answer: Answer, index: IndexReader, anchors: list[str]) -> None:
    """An item of the same list as the answering clause, or the heading of that list, is
    context for the answer, not an exception to it (the same test as the direct answer's
    exception lines, ``direct.governs``), unless an Overrides edge says it limits it."""
    answering = [index.clauses.clause(c) for c in anchors]
    overriding = {(link.source, link.target) for link in answer.chain
                  if link.type is RelationType.OVERRIDES}
    for evidence in answer.group("exception"):
        clause = index.clauses.clause(evidence.clause_id)
        for target in answering:
            if clause.clause_id == target.clause_id or clause.doc_id != target.doc_id or \
                    (clause.clause_id, target.clause_id) in overriding:
                continue
            if clause.section_path == target.section_path:
                note = f"in the same list as {target.label}"
            elif is_ancestor(clause, target):
                note = f"heads the list {target.label} is in"
            else:
                continue
            evidence.group, evidence.context_note = "base_rule", note
            break


def chain_to(roots: list[str], links: list[ChainLink]) -> list[ChainLink]:
    """The links on a path to one of ``roots`` (edges read either way), in their order: a
    chain that starts at the answering clause, not every edge among the evidence. A
    definition ends a path: "Sum Insured" defined for the answer does not bring in every
    other clause that uses the term."""
    reached, grown = set(roots), True
    paths = [link for link in links if link.type is not RelationType.DEFINES]
    while grown:
        grown = False
        for link in paths:
            if (link.source in reached) != (link.target in reached):
                reached |= {link.source, link.target}
                grown = True
    return [link for link in links if link.target in reached and (
        link.source in reached or link.type is RelationType.DEFINES)]


def _attach_direct(
    answer: Answer, index: IndexReader, results: list[RetrievedClause], asked: str,
    by_document: dict[str, list[RetrievedClause]], question_types: np.ndarray | None = None,
    type_check: Callable[[str], TypeCheck | None] | None = None,
    sentence_similarity: SentenceSimilarity | None = None,
    waiting: WaitingEvidence | None = None,
) -> None:
    """One direct answer per document of the evidence; the best-answering document leads.

    ``asked`` is the question without the document name it may contain (the scope)."""
    doc_order = list(dict.fromkeys(r.clause.doc_id for r in results if r.origin != "governing"))
    terms = terms_for(index)
    trusted = float(answer.retrieval.get("min_edge_confidence", 0.5))
    for doc_id in doc_order:
        own = by_document.get(doc_id) or [r for r in results if r.clause.doc_id == doc_id]
        answer.per_document.append(_document_answer(
            index, terms, asked, own, trusted, question_types,
            float(answer.retrieval.get("answer_type_prior", 0.0)),
            answer.retrieval.get("answer_sentences") == "learned",
            type_check(doc_id) if type_check is not None else None,
            bool(answer.retrieval.get("answer_type_absent_refuses", False)),
            sentence_similarity=sentence_similarity))
        found_waiting = waiting.of_document(doc_id) if waiting is not None else []
        if found_waiting:
            # asked of a time from the start of cover: the waiting period decides
            waited = _document_answer(
                index, terms, waiting.question, found_waiting, trusted,
                waiting.question_types, sentence_similarity=sentence_similarity)
            cover = answer.per_document[-1]
            answer.per_document[-1] = with_waiting(asked, cover, waited, waiting.question)
            link = waiting_link(answer.per_document[-1], cover)
            if link is not None:  # "6.3(f)(i)/9 OVERRIDES 4.3" in the reasoning chain
                answer.chain.append(link)
    # the document that answers best leads (ties: the best-ranked document)
    lead = max((d for d in answer.per_document if d.found), key=lambda d: d.confidence,
               default=None)
    lead = lead or (answer.per_document[0] if answer.per_document else None)
    answer.direct = lead
    if lead is not None and lead.found:
        # Documents that answer as well as the lead, in rank order: nothing tells which one
        # the asker means, so the answer is each one's (one line per document).
        equal = [d for d in answer.per_document
                 if d.found and d.confidence >= lead.confidence - EQUAL_ANSWER_MARGIN]
        answer.found = True
        answer.direct_answer_documents = [d.doc_id for d in equal]
        # the direct answer itself states the verdicts too, once they are read (build_answer)
        answer.direct_quote = lead.text if len(equal) == 1 else "\n".join(
            d.named(d.text) for d in equal)
        answer.direct_answer_citations = [c for d in equal for c in d.citations()]
    if lead is not None:
        answer.confidence = lead.confidence


def _add_cited(
    answer: Answer, index: IndexReader, by_document: dict[str, list[RetrievedClause]]
) -> None:
    """A clause the direct answer cites is always in the evidence (found by a search
    inside its document, it may not be in the shared top-k)."""
    missing = set(answer.direct_answer_citations) - {e.clause_id for e in answer.evidence}
    for results in by_document.values():
        found = [r for r in results if r.clause_id in missing]
        if not found:
            continue  # the usual case: grouping this document's evidence again is not needed
        groups = assign_groups(results, chain_edges(index, results), index)
        for result in found:
            answer.evidence.append(_evidence(index, result, groups[result.clause_id]))
            answer.quotes.append(evidence_quote(result.clause, groups[result.clause_id],
                                                set(tokenize(answer.question))))
            missing.discard(result.clause_id)


def _document_answer(
    index: IndexReader, terms: DocumentTerms, asked: str, results: list[RetrievedClause],
    trusted: float = 0.5, question_types: np.ndarray | None = None, type_prior: float = 0.0,
    learned_choice: bool = False, checked: TypeCheck | None = None,
    absent_refuses: bool = False, *, sentence_similarity: SentenceSimilarity | None = None,
) -> DirectAnswer:
    """The direct answer of one document from its evidence (ranked clauses, then the
    definitions and exceptions that govern them). An Overrides edge makes its source an
    exception to the answer only at the confidence retrieval follows edges (``trusted``):
    below it are the word-overlap guesses of the exclusion rules (rules/overrides.yaml),
    which link every exclusion of a list to clauses that merely share words with it."""
    edges = chain_edges(index, results)
    groups = assign_groups(results, edges, index)
    # a clause only the review found is shown, not quoted (api.ClauseGraph._review_first)
    ranked = [r.clause for r in results if r.origin not in ("governing", "review")]
    exceptions = [r.clause for r in results if groups[r.clause_id] == "exception"]
    overrides = frozenset((e.source, e.target) for e in edges
                          if e.type is RelationType.OVERRIDES and e.confidence >= trusted
                          and not _exclusion_beside_exclusion(index, e))
    similarity = {r.clause_id: r.dense for r in results if r.origin != "governing"}
    direct = direct_answer(index, terms, asked, ranked, exceptions, overrides, similarity,
                           question_types, type_prior, learned_choice, checked, absent_refuses,
                           sentence_similarity=sentence_similarity,
                           definitions=[r.clause for r in results
                                        if groups[r.clause_id] == "definition"])
    if direct.found and (states_no_amount(asked, direct) or
                         misses_stated_figure(asked, direct)):
        # asked "how much", the quote states no amount; or asked of a figure ("a two-year
        # waiting period", "a 45-year-old") the quote does not state: it does not answer
        # (its lines are the nearest clauses shown with "Not found")
        return direct.model_copy(update={"found": False, "text": None, "lines": [],
                                         "exceptions": [], "nearest": direct.lines})
    return direct


def _exclusion_beside_exclusion(index: IndexReader, edge: Edge) -> bool:
    """A word-overlap Overrides edge whose target itself refuses cover: two exclusions of one
    list ("sterility and infertility" and the pre-existing disease exclusion), neither an
    exception to the other."""
    return edge.rule_id in word_overlap_rules() and \
        refuses_cover(index.clauses.clause(edge.target).text)


def template_values(answer: Answer) -> dict:
    """The values every answer template renders: the extractive answer, the context
    block and the LLM prompts (clausegraph.answer.generate) all see the same evidence."""
    answering = _answering_clause(answer)
    return {
        "question": answer.question,
        "groups": [(GROUP_TITLES[g], answer.group(g)) for g in GROUPS],
        "chain": answer.chain,
        "quotes": {q.clause_id: q for q in answer.quotes},
        "direct": answer.direct,
        "per_document": answer.per_document,
        "answering_documents": answer.answering_documents(),
        "not_found": NOT_FOUND,
        "answering": answering,
        "answering_span": _answering_span(answer, answering),
        "verdict": answer.verdict if answer.found else None,
    }


def _answering_clause(answer: Answer) -> EvidenceClause | None:
    """The evidence clause the direct answer quotes (None when nothing was found)."""
    if not answer.found:
        return None
    # the clause of the first line that answers (a waiting period's list item before the
    # benefit it defers), else the first the answer cites
    line = answer.direct.answering_line() if answer.direct else None
    deciding = next((e for e in answer.evidence
                     if line is not None and e.clause_id == line.clause_id), None)
    cited = set(answer.direct_answer_citations)
    return deciding or next((e for e in answer.evidence if e.clause_id in cited), None)


def _answering_span(answer: Answer, clause: EvidenceClause | None) -> Span | None:
    """Where the answering ``clause`` says what the answer quotes from it: its first quoted
    line that is not a heading read above the answer (None when it is quoted only as one)."""
    if clause is None or answer.direct is None:
        return None
    return next((line.span for line in answer.direct.lines
                 if line.clause_id == clause.clause_id and not line.heads), None)


def _evidence(index: IndexReader, result: RetrievedClause, group: str) -> EvidenceClause:
    clause = result.clause
    document = index.clauses.document(clause.doc_id)
    return EvidenceClause(
        clause_id=clause.clause_id,
        group=group,
        label=clause.label,
        heading=clause.heading,
        section=" > ".join(clause.section_path),
        text=clause.text,
        document=document.title,
        source_path=document.source_path,
        doc_id=document.doc_id,
        pages=clause.pages,
        span=clause.span,
        score=round(result.score, 4),
        reason=result.reason(),
        origin=result.origin,
        paragraphs=document.paragraphs_of(clause.span),
        low_confidence=document.is_low_confidence(clause.span),
        clause_types=clause.clause_types,
    )


def _link(edge: Edge, labels: dict[str, str]) -> ChainLink:
    return ChainLink(
        type=edge.type,
        source=edge.source,
        target=edge.target,
        source_label=labels[edge.source],
        target_label=labels[edge.target],
        confidence=edge.confidence,
        rule_id=edge.rule_id,
        evidence=edge.evidence,
        term=edge.term,
    )
