"""The Python API. The CLI is a thin layer over this class.

>>> from clausegraph import ClauseGraph
>>> graph = ClauseGraph.open("my-index", create=True)  # doctest: +SKIP
>>> graph.ingest(["docs/dataset"])  # doctest: +SKIP
>>> answer = graph.ask("Can the agreement be terminated for convenience?")  # doctest: +SKIP
>>> print(answer.answer)  # doctest: +SKIP
"""

from __future__ import annotations

import os
import time
from collections import ChainMap, Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from clausegraph.config import RetrievalConfig, Settings
from clausegraph.embed import Embedder, create_embedder, embedding_mismatch
from clausegraph.errors import ClauseGraphError, IndexStoreError, IngestError, NotFoundError
from clausegraph.llm import (
    LLMAuthError,
    LLMConfigError,
    LLMError,
    LLMModelNotFoundError,
    LLMProvider,
    create_provider,
)
from clausegraph.models import Clause, Edge, RetrievedClause, TypeCheck
from clausegraph.store import DocumentArtifacts, DocumentEntry, IndexReader, create_store
from clausegraph.store.factory import is_url

# The pipeline stages are imported where they run: `stats`, `show` and `remove` then start
# without PDF, NLP or model libraries (PyMuPDF alone takes seconds to import).
if TYPE_CHECKING:
    import numpy as np

    from clausegraph.answer.extractive import Answer
    from clausegraph.answer.waiting import WaitingEvidence
    from clausegraph.review import ClauseReviewer, Review
    from clausegraph.relate.rules import RuleSet
    from clausegraph.retrieve.hybrid import Retriever
    from clausegraph.strategies.base import Strategy, StrategyResult

ProgressCallback = Callable[[str, int, int], None]
"""Called as ``progress(file_name, files_done, files_total)``."""

# A question that names no document is answered inside each of its best documents, up to
# this many (one retrieval each, tens of milliseconds).
PER_DOCUMENT_ANSWERS = 3
# An answer's candidates take, of each document, the clauses BM25 ranks best for the
# question's rarest word alone (Retriever.rarest_word_hits). One was not enough: "cataract"
# of the HDFC ERGO group wording is in a claim-documents item ("lens sticker ... in cataract
# Surgery") that BM25 puts before the row of the listed conditions; two or three gave the
# same 290 policy answers and 2,645 CUAD dev asks (docs/policies_bench.md, session 41).
RAREST_WORD_HITS = 2
# the contract review's best clause for the type a question asks about is shown by this place
# in the evidence when retrieval ranks it lower or misses it: the first five are what the
# benchmarks score and an analyst reads first (CUAD dev hit@5 90.2 -> 92.5, docs/cuad_dev.md,
# session 23)
REVIEW_SHOWN_BY = 5


class IngestOutcome(BaseModel):
    """What happened to one input file."""

    path: str
    status: str = Field(description="ingested | unchanged | replaced | failed")
    doc_id: str | None = None
    key: str | None = None
    pages: int = 0
    clauses: int = 0
    edges: dict[str, int] = Field(default_factory=dict)
    unresolved: int = 0
    seconds: float = 0.0
    error: str | None = None
    same_as: str | None = Field(
        None, description="an unchanged file's twin: the file indexed with the same content"
    )
    warnings: list[str] = Field(
        default_factory=list, description="what reading changed or left out: OCR'd pages, "
        "tracked changes, illegible pages (one line each)"
    )


class IngestReport(BaseModel):
    outcomes: list[IngestOutcome]

    @property
    def failed(self) -> list[IngestOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]


class ClauseDetail(BaseModel):
    """A clause with its document and every edge that touches it."""

    clause: Clause
    document: str
    source_path: str
    outgoing: list[Edge]
    incoming: list[Edge]
    clause_types_note: str | None = Field(
        None, description="why the clause shows no types: its document was indexed before "
        "clause types (and how to add them); None when it was typed")


class ComparisonRow(BaseModel):
    """One document's answer to the compared question."""

    doc_id: str
    document: str = Field(description="document title")
    file: str = Field(description="file name")
    found: bool
    answer: str | None = Field(description="the direct answer, None when not found")
    citations: list[str] = Field(default_factory=list, description="clause ids quoted")
    labels: list[str] = Field(default_factory=list, description="clause labels, pages")
    exceptions: list[str] = Field(default_factory=list, description="one line per exception")
    confidence: float = 0.0
    nearest: list[str] = Field(default_factory=list, description="nearest clause labels "
                               "when not found")


class Comparison(BaseModel):
    """The same question answered for every document, side by side."""

    question: str
    rows: list[ComparisonRow]


class IndexStats(BaseModel):
    index: str
    embedding_model: str
    documents: list[dict[str, Any]]
    clauses: int
    edges_by_type: dict[str, int]
    unresolved_references: int
    #: this version's reader and segmenter (``segment.version``), and the documents that
    #: other code cut (their clauses may differ from what this version cuts)
    segmenter: str = ""
    cut_by_other_segmenter: list[str] = []


class ClauseGraph:
    """One index directory: ingest documents into it, ask questions against it."""

    def __init__(self, index_dir: str | Path, settings: Settings | None = None) -> None:
        self.store = create_store(index_dir)
        self.settings = settings or Settings()
        self._index: IndexReader | None = None
        self._embedder: Embedder | None = None
        self._rules: RuleSet | None = None
        self._llm: LLMProvider | None = None
        self._llm_ready = False
        self._llm_relations = False
        self._retriever: Retriever | None = None
        # per index snapshot read: the review's (confidence, clause id) by (document,
        # category), and each document's pervasive types by (document, None)
        self._presence: tuple[IndexReader | None, dict] = (None, {})

    @classmethod
    def open(
        cls, index_dir: str | Path, settings: Settings | None = None, create: bool = False
    ) -> ClauseGraph:
        """Open an index (a folder, or a ``postgresql://`` URL); with ``create=True`` a
        missing or empty location becomes a new index."""
        graph = cls(index_dir, settings)
        if create:
            graph.store.ensure_writable()
        else:
            graph.store.check_readable()  # fails early, with a clear message, on a bad index
        return graph

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = create_embedder(self.settings.embedding)
        return self._embedder

    @property
    def llm(self) -> LLMProvider | None:
        """The configured language model (``settings.llm`` + environment); None = offline."""
        if not self._llm_ready:
            self._llm = create_provider(self.settings.llm)
            self._llm_ready = True
        return self._llm

    @property
    def index(self) -> IndexReader:
        """The current snapshot. Reading clauses and edges needs no encoder, so none is
        loaded here; searching checks that the vectors come from the configured model."""
        if self._index is None:
            self._index = self.store.open_reader()
        return self._index

    def check_embedding_model(self, info: Mapping[str, Any] | None = None) -> None:
        """Refuse to mix vectors of two encoders in one index; says how to fix it."""
        info = self.store.info() if info is None else info
        problem = embedding_mismatch(info, self.embedder)
        if problem:
            raise IndexStoreError(
                self.store.location,
                f"{problem}; re-embed its clauses with 'clausegraph reembed --index "
                f"{self.store.location}' (or ingest with --reembed), or configure that model")

    def reembed(self, progress: ProgressCallback | None = None) -> int:
        """Embed every stored clause again with the configured encoder and record it as the
        index's model, then type every clause again from its vector; the clauses, edges and
        BM25 stay. When the stored vectors already come from the configured encoder only the
        clause types are recomputed (from the stored vectors: an index written before clause
        types gets them this way). An encoder the clause-type model was not fitted on leaves
        the clauses untyped. Returns the number of clauses."""
        from clausegraph.classify import clause_types_from, fits_encoder, load_clause_type_model

        typed = fits_encoder(self.embedder.name, self.embedder.dim)
        with self.store.write_lock():
            self.store.check_readable()
            reader = self.store.open_reader()
            same_encoder = embedding_mismatch(reader.info(), self.embedder) is None
            doc_ids = list(reader.entries())
            vectors, types = {}, {}
            for done, doc_id in enumerate(doc_ids):
                if progress:
                    progress(doc_id, done, len(doc_ids))
                clauses = reader.clauses.document_clauses(doc_id)
                texts = [_embedding_text(c) for c in clauses]
                vectors[doc_id] = (reader.vectors.vectors([c.clause_id for c in clauses])
                                   if same_encoder else self.embedder.encode(texts))
                types[doc_id] = (clause_types_from(load_clause_type_model().predict_proba(
                    texts, vectors[doc_id])) if typed else [[] for _ in clauses])
            reader.close()
            if not same_encoder:
                self.store.replace_embeddings(vectors, self.embedder.name, self.embedder.dim,
                                              self.embedder.fingerprint or "")
            self.store.replace_clause_types(types, self.clause_type_model if typed else None)
            self._index = None
        if progress:
            progress("", len(doc_ids), len(doc_ids))
        return sum(len(v) for v in vectors.values())

    @property
    def clause_type_model(self) -> str | None:
        """The clause-type model this configuration types clauses with (``classify.model_id``),
        None when the configured encoder is not the one it was fitted on."""
        from clausegraph.classify import fits_encoder, model_id

        return model_id() if fits_encoder(self.embedder.name, self.embedder.dim) else None

    def check_clause_types(self) -> None:
        """Refuse to use clause types an index does not have (documents ingested before
        clause types existed, or typed by other weights); says how to fix it."""
        from clausegraph.classify import model_id

        stale = [entry.key for entry in self.index.entries().values()
                 if entry.clause_types != model_id()]
        if stale:
            raise IndexStoreError(
                self.store.location,
                f"{len(stale)} document(s) have no clause types from this version's model "
                f"({', '.join(stale[:3])}{' ...' if len(stale) > 3 else ''}); compute them with "
                f"'clausegraph reembed --index {self.store.location}'")

    # -- writing -----------------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[str | Path],
        progress: ProgressCallback | None = None,
        llm_relations: bool = False,
        on_wait: Callable[[str], None] | None = None,
    ) -> IngestReport:
        """Add files (folders are searched recursively); unchanged files are skipped.

        A file that fails is reported and skipped; the others are still committed.
        The index changes atomically, once, at the end. If storing fails (disk full,
        read-only), the files not yet stored are reported as failed and what was stored
        is committed if that still works; else an ``IndexStoreError`` says nothing was.
        A second writer waits up to ``settings.ingest.lock_wait_seconds`` (``on_wait``
        is told). A first ingest that stores nothing leaves no index behind. With
        ``llm_relations`` the configured LLM also proposes typed edges (validated
        against the clauses, merged with the rule edges as ``rule_id='llm:<model>'``,
        cached by content hash under ``<index>/.llm-cache``). Documents already in the
        index keep their edges: remove and re-ingest one to add LLM edges to it.
        """
        if llm_relations and self.llm is None:
            raise ClauseGraphError(
                "--llm-relations needs a language model: choose one with --llm gemini|openai "
                "(or CLAUSEGRAPH_LLM_PROVIDER)"
            )
        from clausegraph.ingest import SUPPORTED_SUFFIXES, iter_input_files

        self._llm_relations = llm_relations
        skipped = None if is_url(self.store.location) else Path(self.store.location)
        files = iter_input_files([Path(p) for p in paths], exclude=skipped)
        if not files:
            shown = ", ".join(str(p) for p in paths) or "(no paths given)"
            raise ClauseGraphError(
                f"no supported files in {shown} (supported: {', '.join(SUPPORTED_SUFFIXES)})"
            )
        self.store.ensure_writable()
        try:
            with self.store.write_lock(self.settings.ingest.lock_wait_seconds, on_wait):
                return self._ingest_locked(files, progress)
        finally:
            self.store.remove_if_unused()

    def _ingest_locked(
        self, files: Sequence[Path], progress: ProgressCallback | None
    ) -> IngestReport:
        stored = self.store.entries() if self.store.exists() else {}
        if stored:
            self.check_embedding_model()
        by_path = {e.source_path: k for k, e in stored.items()}
        outcomes, added, replaced = [], [], []
        # Files added earlier in this call count as indexed: a byte-identical copy
        # ("contract(1).txt") is then reported as unchanged, not built twice.
        indexed: ChainMap[str, DocumentEntry] = ChainMap({}, stored)
        storage_error: IndexStoreError | None = None
        for done, path in enumerate(files):
            if progress:
                progress(path.name, done, len(files))
            if storage_error is not None:
                outcomes.append(IngestOutcome(
                    path=str(path), status="failed",
                    error=f"{path}: not stored ({storage_error.problem})"))
                continue
            try:
                outcome, entry = self._ingest_one(path, indexed, by_path)
            except IndexStoreError as exc:  # the disk, not the file: stop building
                storage_error = exc
                outcomes.append(IngestOutcome(path=str(path), status="failed", error=str(exc)))
                continue
            outcomes.append(outcome)
            if entry is not None:
                added.append((outcome.doc_id, entry))
                indexed[outcome.doc_id] = entry  # a ChainMap writes to its first map
                old = by_path.get(entry.source_path)
                if old and old != outcome.doc_id:
                    replaced.append(old)
        if progress:
            progress("", len(files), len(files))
        if added or replaced:
            # The model is loaded here only because something was embedded.
            self.store.commit(added, replaced, self.embedder.name, self.embedder.dim,
                              self.embedder.fingerprint or "")
            self._index = None
        return IngestReport(outcomes=outcomes)

    def _ingest_one(
        self, path: Path, indexed: Mapping[str, Any], by_path: dict[str, str]
    ) -> tuple[IngestOutcome, DocumentEntry | None]:
        """Build and store one file unless a file with the same content is ``indexed``."""
        from clausegraph.ingest import document_id
        from clausegraph.ingest.files import read_regular_file

        started = time.perf_counter()
        try:
            # Read only to compare with what is indexed (a first ingest reads once).
            doc_id = document_id(read_regular_file(path, self._max_bytes)) if indexed else None
            if doc_id and doc_id in indexed:
                entry = indexed[doc_id]
                real = os.path.realpath(path)  # Path.resolve raises on a symlink loop
                twin = entry.source_path if entry.source_path != real else None
                return IngestOutcome(path=str(path), status="unchanged", doc_id=doc_id,
                                     key=entry.key, same_as=twin,
                                     warnings=self._segment_drift(path, entry)), None
            artifacts = self.build_artifacts(path)
        except IngestError as exc:
            return IngestOutcome(path=str(path), status="failed", error=str(exc)), None
        except (OSError, ValueError, RuntimeError) as exc:
            # Anything else a malformed file can provoke still fails only this file.
            error = f"{path}: {type(exc).__name__}: {exc}"
            return IngestOutcome(path=str(path), status="failed", error=error), None
        self.store.stage(artifacts)
        seconds = time.perf_counter() - started
        entry = DocumentEntry.of(artifacts, seconds).model_copy(
            update={"segment_settings": self.settings.segment.model_dump(mode="json"),
                    "segmenter": _segmenter_version()})
        status = "replaced" if entry.source_path in by_path else "ingested"
        outcome = IngestOutcome(
            path=str(path), status=status, doc_id=artifacts.document.doc_id,
            key=artifacts.document.key, pages=entry.pages, clauses=entry.clauses,
            edges=entry.edges_by_type, unresolved=entry.unresolved, seconds=seconds,
            warnings=[f"{path}: {w}" for w in artifacts.document.warnings],
        )
        return outcome, entry

    def _segment_drift(self, path: Path, entry: DocumentEntry) -> list[str]:
        """A warning when an unchanged file was cut into clauses with other segment settings
        than the current ones, or by other reader and segmenter code (an upgrade): skipping
        it keeps the old clauses (the index is content addressed), which a user who changed
        a setting or upgraded should be told."""
        warnings = []
        if entry.segmenter != _segmenter_version():
            cut_by = "code from before versions were recorded" if entry.segmenter is None \
                else f"other ClauseGraph code (reader and segmenter {entry.segmenter})"
            warnings.append(f"{path}: unchanged, so not segmented again: its clauses were cut "
                            f"by {cut_by}, not by this version ({_segmenter_version()}), and "
                            "may differ from what it cuts; remove it ('clausegraph remove') "
                            "and ingest it again to cut it with this version")
        stored = entry.segment_settings
        if stored is None:
            return warnings
        current = self.settings.segment.model_dump(mode="json")
        changed = [f"{name}={stored.get(name)!r} (now {value!r})"
                   for name, value in current.items() if stored.get(name, value) != value]
        if changed:
            warnings.append(
                f"{path}: unchanged, so not segmented again: its clauses were cut with "
                f"segment.{', segment.'.join(changed)}; remove it ('clausegraph remove') and "
                "ingest it again to apply the current settings")
        return warnings

    @property
    def _max_bytes(self) -> int:
        return int(self.settings.ingest.max_file_mb * 1_000_000)

    def build_artifacts(self, path: Path) -> DocumentArtifacts:
        """Run ingest -> segment -> relate -> embed for one file (nothing is stored).

        ``stage_seconds`` of the result says how long each stage took
        (``scripts/profile_stages.py`` sums them over a corpus).
        """
        from clausegraph.classify import assign_clause_types
        from clausegraph.entities import annotate_entities
        from clausegraph.ingest import load_document
        from clausegraph.relate import relate
        from clausegraph.segment import segment
        from clausegraph.text.tokenize import tokenize

        seconds: dict[str, float] = {}

        def timed(stage: str, call: Callable[[], Any]) -> Any:
            started = time.perf_counter()
            result = call()
            seconds[stage] = seconds.get(stage, 0.0) + time.perf_counter() - started
            return result

        document = timed("load", lambda: load_document(path, self._max_bytes,
                                                       ocr=self.settings.ingest.ocr))
        clauses = timed("segment", lambda: segment(document, self.settings.segment))
        if not clauses:
            raise IngestError(path, "no clauses could be segmented from the text")
        timed("entities", lambda: annotate_entities(clauses, document, self.settings.entities))
        graph = timed("relate", lambda: relate(document, clauses, self.rules))
        if self._llm_relations and self.llm is not None:
            from clausegraph.relate.llm import extract_llm_edges, merge_edges

            cache = (self.store.cache_dir() or Path(".")) / ".llm-cache" / "relations"
            llm_edges = timed("llm_relations",
                              lambda: extract_llm_edges(document, clauses, self.llm, cache))
            graph.edges = merge_edges(graph.edges, llm_edges)
        texts = [_embedding_text(c) for c in clauses]
        embeddings = timed("embed", lambda: self.embedder.encode(texts))
        types_model = self.clause_type_model  # None: an encoder the types were not fitted on
        if types_model:
            timed("classify", lambda: assign_clause_types(clauses, texts, embeddings))
        tokens = timed("tokenize", lambda: [tokenize(text) for text in texts])
        return DocumentArtifacts(document, clauses, graph, embeddings, tokens, seconds,
                                 clause_types_model=types_model)

    @property
    def rules(self) -> RuleSet:
        if self._rules is None:
            from clausegraph.relate.rules import RuleSet

            self._rules = RuleSet.load()
        return self._rules

    def remove(
        self, document: str, on_wait: Callable[[str], None] | None = None
    ) -> list[str]:
        """Remove a document named by doc id, key, file path or file name; returns its ids."""
        with self.store.write_lock(self.settings.ingest.lock_wait_seconds, on_wait):
            self.store.check_readable()
            matches = _match_documents(self.store.entries(), document)
            if not matches:
                raise NotFoundError(f"no document {document!r} in index {self.store.location}")
            self.store.commit([], matches)
            self._index = None
        return matches

    # -- reading -----------------------------------------------------------------------------

    def retrieval_config(self, **overrides: Any) -> RetrievalConfig:
        data = self.settings.retrieval.model_dump()
        data.update({k: v for k, v in overrides.items() if v is not None})
        return RetrievalConfig.model_validate(data)

    def make_strategy(self, name: str, **params: Any) -> Strategy:
        """The strategy called ``name`` (``params``: fields of its config), with this
        graph's strategy settings and, for a strategy with an LLM stage, its model."""
        from clausegraph.strategies.factory import create_strategy

        try:
            chosen = create_strategy(name, self.settings.strategies, **params)
        except ValueError as exc:
            raise ClauseGraphError(str(exc).splitlines()[0]) from exc
        if chosen.uses_llm and chosen.llm is None:
            chosen.llm = self.llm  # the paper's LLM stage when a model is configured
        return chosen

    def search(
        self,
        question: str,
        documents: Sequence[str] | None = None,
        strategy: str | Strategy = "clausegraph",
        **overrides: Any,
    ) -> StrategyResult:
        """The ranked clauses for ``question`` and the strategy's notes (a causal summary,
        saved files ...); ``overrides`` are RetrievalConfig fields."""
        from clausegraph.strategies.base import Strategy

        if not question.strip():
            raise ClauseGraphError("the question is empty")
        chosen = strategy if isinstance(strategy, Strategy) else self.make_strategy(strategy)
        config = self.retrieval_config(**overrides)
        doc_ids = self._resolve_documents(documents) if documents else None
        return chosen.retrieve(self.retriever, question, config, doc_ids)

    def retrieve(
        self,
        question: str,
        documents: Sequence[str] | None = None,
        strategy: str | Strategy = "clausegraph",
        **overrides: Any,
    ) -> list[RetrievedClause]:
        """The best clauses for ``question``; ``overrides`` are RetrievalConfig fields.

        ``documents`` limits the search to documents named by id, key, path or file name.
        """
        return self.search(question, documents, strategy, **overrides).hits

    def evidence(
        self,
        question: str,
        documents: Sequence[str] | None = None,
        strategy: str | Strategy = "clausegraph",
        **overrides: Any,
    ) -> list[RetrievedClause]:
        """What an answer is built from: the ranked clauses, then the definitions and
        exceptions that govern them (``complete_k``), in that order."""
        config = self.retrieval_config(**overrides)
        pool = dict(overrides, top_k=max(config.top_k, config.focus_pool))
        found = self.search(question, documents, strategy, **pool)
        return self._evidence(question, found, overrides)

    def _evidence(
        self, question: str, found: StrategyResult, overrides: dict[str, Any]
    ) -> list[RetrievedClause]:
        """The hits reordered by best-sentence match (answers only), then the definitions
        and exceptions that govern them."""
        from clausegraph.answer.focus import focus_results

        config = self.retrieval_config(**overrides)
        asked = self._asked(question)
        hits = found.hits
        if config.focus_weight > 0:
            hits = hits + self.retriever.rarest_word_hits(asked, hits, RAREST_WORD_HITS)
        hits = focus_results(self.index, asked, hits, config)
        return hits + self.retriever.governing(hits, config)

    def _sentence_similarity(self, question_vector: np.ndarray
                             ) -> Callable[[Sequence[str]], np.ndarray]:
        """The cosines of sentences with the question (its vector from the retriever's
        encoder, which ``retriever`` checked is the index's), read by the learned sentence
        choice (``answer_sentences='learned'``)."""
        embedder = self.embedder

        def cosines(texts: Sequence[str]) -> np.ndarray:
            return embedder.encode(list(texts)) @ question_vector
        return cosines

    def _waiting_evidence(
        self, asked: str, results: list[RetrievedClause], strategy: str | Strategy,
        pool: dict[str, Any], overrides: dict[str, Any],
    ) -> WaitingEvidence | None:
        """What retrieval finds, in the documents of ``results``, for the waiting period of
        a cover question asked of a time from the start of cover; None for any other
        question."""
        from clausegraph.answer.waiting import WaitingEvidence, waiting_question

        question = waiting_question(asked)
        doc_ids = list(dict.fromkeys(r.clause.doc_id for r in results
                                     if r.origin != "governing"))[:PER_DOCUMENT_ANSWERS]
        if question is None or not doc_ids:
            return None
        scope = self.retriever.last_scope  # the question's own scope, which this search resets
        found = self.search(question, doc_ids, strategy, **pool)
        self.retriever.last_scope = scope
        vector = self.retriever.query_vector(question)
        return WaitingEvidence(question, self._evidence(question, found, overrides),
                               self.retriever.question_types(vector, question))

    def _asked(self, question: str) -> str:
        """The question without the document name the scope took out of it, or the frame
        that says where to look ("According to the policy, ...")."""
        from clausegraph.retrieve.scope import reframe

        scope = self.retriever.last_scope
        return scope.question if scope else reframe(question)

    @property
    def retriever(self) -> Retriever:
        index = self.index
        if self._retriever is None or self._retriever.index is not index:
            from clausegraph.retrieve.hybrid import Retriever

            self.check_embedding_model(index.info())
            self._retriever = Retriever(index, self.embedder)
        return self._retriever

    def ask(
        self,
        question: str,
        documents: Sequence[str] | None = None,
        strategy: str | Strategy = "clausegraph",
        *,
        llm: LLMProvider | str | None = None,
        on_chunk: Callable[[str], None] | None = None,
        strict: bool = False,
        **overrides: Any,
    ) -> Answer:
        """Retrieve, group and answer with citations.

        Extractive (offline) unless a language model is configured (``settings.llm``)
        or given as ``llm``; ``llm="none"`` forces extractive. An LLM answer is an
        ``LLMAnswer`` with ``claims`` and a ``verification`` verdict; ``on_chunk``
        receives the model's reply as it streams. When the model's reply cannot be used
        (no usable JSON, timeout, server unavailable, prompt too long) the offline answer
        comes back with ``mode='extractive-fallback'`` and the reason in ``warnings``;
        ``strict=True`` raises the :class:`LLMError` instead. Settings the user must fix
        (no key, rejected key, wrong URL or model) always raise.
        """
        config = self.retrieval_config(**overrides)
        pool = dict(overrides, top_k=max(config.top_k, config.focus_pool))
        found = self.search(question, documents, strategy, **pool)
        results = self._evidence(question, found, overrides)
        asked = self._asked(question)
        scoped = documents is not None or self.retriever.last_scope is not None
        by_document = None if scoped else self._per_document_evidence(
            asked, results, strategy, overrides)
        name = strategy if isinstance(strategy, str) else strategy.name
        settings = dict(self.retrieval_config(**overrides).model_dump(mode="json"),
                        strategy=name)
        from clausegraph.answer.extractive import build_answer

        # the CUAD clause types the question asks about: the answer gate reads how far the
        # document's clauses are of them (the question's vector is cached by the search)
        vector = self.retriever.query_vector(asked)
        types = self.retriever.question_types(vector, asked)
        similarity = self.retriever.question_type_similarity(vector)
        check = self._type_checker(asked, types, similarity) if config.answer_type_check \
            else None
        if check is not None and config.answer_review_first:
            results = self._review_first(results, check, config.top_k)
            by_document = by_document and {
                doc_id: self._review_first(own, check, config.top_k)
                for doc_id, own in by_document.items()}
        # asked whether something is covered at a time from the start of cover: its waiting
        # period is searched for too (answer/waiting.py)
        waiting = self._waiting_evidence(asked, results, strategy, pool, overrides)
        answer = build_answer(self.index, question, results, settings, asked=asked,
                              by_document=by_document, question_types=types, type_check=check,
                              sentence_similarity=self._sentence_similarity(vector),
                              waiting=waiting)
        answer.strategy_notes = dict(found.notes)
        provider = None if llm == "none" else (llm if llm is not None else self.llm)
        if provider is None or not answer.evidence:
            return answer
        from clausegraph.answer.generate import generate_answer

        edges = [
            edge
            for doc_id in dict.fromkeys(e.doc_id for e in answer.evidence)
            for edge in self.index.graph.document_edges(doc_id)
        ]
        try:
            return generate_answer(answer, provider, on_chunk=on_chunk,
                                   clause_lookup=self.index.clauses.clause, graph_edges=edges)
        except (LLMAuthError, LLMConfigError, LLMModelNotFoundError):
            raise
        except LLMError as exc:
            if strict:
                raise
            return fallback_answer(answer, exc, provider)

    def _type_checker(self, question: str, question_types: np.ndarray, similarity: float,
                      ) -> Callable[[str], TypeCheck | None] | None:
        """Whether a document has a clause of the CUAD types the question asks about, read by
        the review (review/presence.py); None when it asks about none, when it asks what a
        term means (no CUAD type is a definition: "How is Affiliate defined?" is not about
        affiliate licences), or when the index's vectors are not those the clause-type model
        reads."""
        from clausegraph.answer.direct import question_kind
        from clausegraph.classify import fits_encoder
        from clausegraph.review.presence import shipped_presence

        if not question_types.any() or question_kind(question) == "definition" or \
                not fits_encoder(self.embedder.name, self.embedder.dim):
            return None
        presence = shipped_presence()
        checks: dict[str, TypeCheck | None] = {}  # one check per document and question

        def check(doc_id: str) -> TypeCheck | None:
            if doc_id not in checks:
                checks[doc_id] = presence.check(
                    question_types, similarity,
                    lambda categories: self._review_confidences(doc_id, categories),
                    self._pervasive_types(doc_id))
            return checks[doc_id]
        return check

    def _review_first(self, results: list[RetrievedClause],
                      check_of: Callable[[str], TypeCheck | None],
                      top_k: int) -> list[RetrievedClause]:
        """One document's evidence with the contract review's best clause for the type the
        question most probably asks about (review/presence.py): first, when retrieval found
        that clause and the review finds some type asked there (not only when it finds every
        one: CUAD dev hit@1 79.4 -> 79.7); otherwise shown by the ``REVIEW_SHOWN_BY``-th
        place (when only the review found it, as evidence the answer does not quote).

        The type most asked, not the one the review is surest of: "Does either party have
        exclusive rights ...?" also asks about the Parties, which every contract names with
        near certainty, and led with the preamble (with the quote from the same clause,
        CUAD dev hit@1 76.9 -> 79.4, docs/cuad_dev.md, session 23). The clause retrieval
        missed is not quoted: quoting it gained CUAD dev hit@1 and value answers, but a
        question near a type and not of it ("Can a party terminate the agreement for
        breach?", typed Termination for Convenience) then quoted a clause on ending
        insurance cover (sessions 13 and 23)."""
        from clausegraph.answer.focus import lead_with

        doc_ids = {r.clause.doc_id for r in results if r.origin != "governing"}
        check = check_of(doc_ids.pop()) if len(doc_ids) == 1 else None
        if check is None or check.lead_clause_id is None:
            return results
        lead = next((r for r in results if r.clause_id == check.lead_clause_id), None)
        if check.present is not False and lead is not None:
            return lead_with(results, lead, top_k)
        hits = [r for r in results if r.origin != "governing"]
        if any(r.clause_id == check.lead_clause_id for r in hits[:REVIEW_SHOWN_BY]):
            return results
        shown = lead or RetrievedClause(
            clause=self.index.clauses.clause(check.lead_clause_id), score=0.0, sim=0.0,
            bm25=0.0, dense=0.0, centrality=0.0, path_support=0.0, origin="review")
        rest = [r for r in hits if r.clause_id != check.lead_clause_id]
        place = REVIEW_SHOWN_BY - 1
        return [*rest[:place], shown, *rest[place:top_k - 1],
                *(r for r in results if r.origin == "governing")]

    def _pervasive_types(self, doc_id: str) -> frozenset[str]:
        """The clause types that name the document rather than a clause of it
        (review/presence.pervasive_types), read once per document and index snapshot."""
        from clausegraph.review.presence import pervasive_types

        index = self.index
        if self._presence[0] is not index:
            self._presence = (index, {})
        known = self._presence[1]
        if (doc_id, None) not in known:
            known[(doc_id, None)] = pervasive_types(
                [c.clause_types for c in index.clauses.document_clauses(doc_id)])
        return known[(doc_id, None)]

    def _review_confidences(self, doc_id: str, categories: list[str],
                            ) -> dict[str, tuple[float, str | None]]:
        """The review's best span confidence for each category of one document, and that
        span's clause (the categories not known yet reviewed together, once per index
        snapshot)."""
        index = self.index
        if self._presence[0] is not index:
            self._presence = (index, {})
        known = self._presence[1]
        todo = [c for c in categories if (doc_id, c) not in known]
        if todo:
            # only the first span and the category's confidence are read: the ranker's,
            # which the novelty stage leaves as they are (it lists the later spans)
            reviewer = self.reviewer(novelty=False)
            for item in reviewer.review(index, doc_id, categories=todo)[0].items:
                known[(doc_id, item.category)] = (
                    item.confidence, item.clauses[0].clause_id if item.clauses else None)
        return {c: known[(doc_id, c)] for c in categories}

    def _per_document_evidence(
        self, asked: str, results: list[RetrievedClause], strategy: str | Strategy,
        overrides: dict[str, Any],
    ) -> dict[str, list[RetrievedClause]] | None:
        """Each leading document's own evidence, when a question that names no document
        draws on several: the shared top-k holds only a few clauses of each, so each
        document's answer is taken from a search inside that document alone."""
        doc_order = list(dict.fromkeys(r.clause.doc_id for r in results
                                       if r.origin != "governing"))
        if len(doc_order) < 2:
            return None
        config = self.retrieval_config(**overrides)
        pool = dict(overrides, top_k=max(config.top_k, config.focus_pool))
        by_document = {}
        for doc_id in doc_order[:PER_DOCUMENT_ANSWERS]:
            found = self.search(asked, [doc_id], strategy, **pool)
            by_document[doc_id] = self._evidence(asked, found, overrides)
        return by_document

    def compare(
        self,
        question: str,
        documents: Sequence[str] | None = None,
        strategy: str = "clausegraph",
        **overrides: Any,
    ) -> Comparison:
        """Ask ``question`` of every document (or of ``documents``) separately.

        Each row is the document's direct answer (offline, no LLM) with its citations and
        exceptions, so a reader can compare policies or contracts on one point.
        """
        entries = self.index.entries()
        doc_ids = self._resolve_documents(documents) if documents else list(entries)
        rows = []
        for doc_id in doc_ids:
            answer = self.ask(question, [doc_id], strategy, llm="none", **overrides)
            direct = answer.direct
            entry = entries[doc_id]
            rows.append(ComparisonRow(
                doc_id=doc_id, document=entry.title, file=Path(entry.source_path).name,
                found=answer.found, answer=answer.direct_answer,
                citations=answer.direct_answer_citations,
                labels=[line.citation() for line in direct.lines] if direct else [],
                exceptions=[f"{line.text} ({line.citation()})"
                            for line in (direct.exceptions if direct else [])],
                confidence=answer.confidence,
                nearest=[line.citation() for line in (direct.nearest if direct else [])],
            ))
        return Comparison(question=question, rows=rows)

    def report(
        self,
        question: str,
        documents: Sequence[str] | None = None,
        strategy: str = "clausegraph",
        *,
        llm: LLMProvider | str | None = None,
        strict: bool = False,
        **overrides: Any,
    ) -> Any:
        """An audit :class:`~clausegraph.report.Report` for ``question``."""
        from clausegraph.report import build_report

        answer = self.ask(question, documents, strategy, llm=llm, strict=strict, **overrides)
        return build_report(answer, manifest=self.index_record(),
                            index_path=self.store.location,
                            documents_filter=documents)

    def review(self, documents: Sequence[str]) -> Review:
        """Review documents (named by id, key, file name or path, as ``ask --doc`` names
        them) against CUAD's 41 clause categories: for each, found or not, the clauses
        that state it with page, span and confidence, and the normalised answer."""
        from clausegraph.review import Review

        if not documents:
            raise ClauseGraphError("name at least one document to review")
        doc_ids = self._resolve_documents(documents)
        reviewer = self.reviewer()
        return Review(documents=[reviewer.review(self.index, d)[0] for d in doc_ids],
                      threshold=self.settings.review.found_threshold, model=reviewer.model_name)

    def reviewer(self, novelty: bool = True) -> ClauseReviewer:
        """The clause-type model with this graph's encoder and review settings (``novelty``
        false: without the span novelty stage, whatever the settings say)."""
        from clausegraph.classify import CUAD_CATEGORIES, load_clause_type_model, model_id
        from clausegraph.review import ClauseReviewer

        self.check_embedding_model(self.index.info())
        ranker = None
        if self.settings.review.span_confidence == "learned":
            from clausegraph.review.ranker import shipped_review_ranker

            ranker = shipped_review_ranker(novelty and self.settings.review.span_novelty)
        return ClauseReviewer(load_clause_type_model(), CUAD_CATEGORIES, self.settings.review,
                              _embedding_text, self.embedder.encode, model_name=model_id(),
                              ranker=ranker)

    def index_record(self) -> dict[str, Any]:
        """What a report records of the index: its facts (format, generation, embedding
        model) and its documents' entries, as of the loaded snapshot."""
        entries = {k: e.model_dump(mode="json") for k, e in self.index.entries().items()}
        return dict(self.index.info(), documents=entries)

    def show(self, clause_id: str) -> ClauseDetail:
        from clausegraph.classify import model_id

        clause = self.index.clauses.clause(clause_id)
        document = self.index.clauses.document(clause.doc_id)
        entry = self.index.entries().get(clause.doc_id)
        typed = entry is not None and entry.clause_types == model_id()
        return ClauseDetail(
            clause=clause,
            document=document.title,
            source_path=document.source_path,
            outgoing=self.index.graph.out_edges(clause_id),
            incoming=self.index.graph.in_edges(clause_id),
            clause_types_note=None if typed else (
                "clause types not computed for this document (indexed before clause types "
                f"or by other weights): run 'clausegraph reembed --index {self.store.location}'"),
        )

    def stats(self) -> IndexStats:
        """Counts from the stored entries alone, so they are instant even on a large index."""
        self.store.check_readable()
        documents = [dict(doc_id=k, **e.model_dump(mode="json"))
                     for k, e in self.store.entries().items()]
        edges: Counter[str] = Counter()
        for entry in documents:
            edges.update(entry["edges_by_type"])
        return IndexStats(
            index=self.store.location,
            embedding_model=str(self.store.info().get("embedding_model", "")),
            documents=documents,
            clauses=sum(d["clauses"] for d in documents),
            edges_by_type=dict(sorted(edges.items())),
            unresolved_references=sum(d["unresolved"] for d in documents),
            segmenter=_segmenter_version(),
            cut_by_other_segmenter=[d["doc_id"] for d in documents
                                    if d.get("segmenter") != _segmenter_version()],
        )

    def _resolve_documents(self, names: Sequence[str]) -> list[str]:
        entries = self.index.entries()
        doc_ids: list[str] = []
        for name in names:
            matches = _match_documents(entries, name)
            if not matches:
                raise NotFoundError(f"no document {name!r} in index {self.store.location}")
            doc_ids += matches
        return list(dict.fromkeys(doc_ids))


def _segmenter_version() -> str:
    """This installation's reader and segmenter digest (``segment/version.py``), imported
    when first needed: answering a question does not load the segment package."""
    from clausegraph.segment import version

    return version.segmenter_version()


def fallback_answer(answer: Answer, error: Exception, provider: LLMProvider) -> Answer:
    """The offline answer standing in for a model reply that could not be used."""
    reason = str(error).replace("; use --llm none for the extractive answer", "")
    notes = [n for n in provider.notes if n not in answer.warnings]
    return answer.model_copy(update={
        "mode": "extractive-fallback",
        "warnings": [*answer.warnings, *notes,
                     f"the model's answer could not be used, so this is the offline "
                     f"extractive answer: {reason}"],
    })


def _embedding_text(clause: Clause) -> str:
    """What a clause is embedded and BM25-indexed as: its heading context, then its text."""
    context = " > ".join(clause.section_path[-2:])
    return f"{context}\n{clause.text}" if context else clause.text


def _match_documents(entries: Mapping[str, DocumentEntry], name: str) -> list[str]:
    """Doc ids whose id, key, resolved path or file name equals ``name``; failing those, whose
    file name without its extension is ``name``'s: a contract named by its text copy
    ("cuad/Acme - Supply Agreement.txt", as LegalBench-RAG names it) or its bare name finds
    the PDF of that name."""
    resolved = os.path.realpath(name)
    exact = [
        doc_id
        for doc_id, entry in entries.items()
        if name in (doc_id, entry.key, Path(entry.source_path).name)
        or resolved == entry.source_path
    ]
    if exact:
        return exact
    # the name as given, or less its extension ("... EX-10.1-STRATEGIC ALLIANCE AGREEMENT"
    # has a dot and no extension)
    stems = {Path(name).name, Path(name).stem} - {""}
    return [doc_id for doc_id, entry in entries.items()
            if Path(entry.source_path).stem in stems]
