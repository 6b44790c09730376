"""All tunable parameters in one place, with the defaults the pipeline ships with.

Every field can be overridden from the CLI (``--set retrieval.alpha=0.6``) or from
Python (``RetrievalConfig(alpha=0.6)``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from clausegraph.llm.base import LLMConfig
from clausegraph.models import RelationType

PACKAGE_DIR = Path(__file__).resolve().parent


def _resource_dir(name: str) -> Path:
    """Find ``rules/`` or ``prompts/``: shipped inside the package, or in a source checkout."""
    inside = PACKAGE_DIR / "_data" / name
    return inside if inside.is_dir() else PACKAGE_DIR.parent / name


RULES_DIR = _resource_dir("rules")
PROMPTS_DIR = _resource_dir("prompts")
DOCS_DIR = _resource_dir("docs")


class StrictModel(BaseModel):
    """Config models reject unknown keys so a typo is an error, not a silent default."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class IngestConfig(StrictModel):
    """How files are read: limits, OCR, and waiting for the index (docs/formats.md,
    docs/reliability.md)."""

    ocr: bool = Field(
        True, description="OCR PDF pages without a text layer (needs Tesseract installed)"
    )
    max_file_mb: float = Field(
        200, gt=0, description="larger input files are refused unread (a bounded read)"
    )
    lock_wait_seconds: float = Field(
        300, ge=0, description="how long a writer waits for another writer of the same index"
    )


class SegmentConfig(StrictModel):
    """How documents are cut into clauses."""

    max_clause_chars: int = Field(
        2000, ge=200, description="longer clauses are split into sentence windows"
    )
    # 1000: a group of rows the packaged MiniLM reads whole (256 word pieces; a table row
    # repeats its column names); at 2000 the second half of a group was unread by the
    # dense vector: "All types Hernia" of the ICICI specified-disease table ranked 75th
    # dense, 8th at 1000 (docs/policies_bench.md, session 41)
    max_table_chars: int | None = Field(
        1000, ge=200, description="longer tables are cut into groups of whole rows "
        "(None: as max_clause_chars)"
    )
    min_clause_chars: int = Field(
        40, ge=0, description="shorter fragments merge into their neighbour"
    )
    style_headings: bool = Field(
        False, description="PDFs: headings told by font size and weight against the body "
        "text (Document.line_styles) rather than by letter case alone (docs/segmentation.md)"
    )
    # on since session 44: the segmentation audit's items that carry their list's lead-in or
    # heading 39 -> 54 of 86 (a second reader, strict); the 22 policies' figures unchanged,
    # LegalBench-RAG mini P@1 30.44 -> 31.05, R@64 94.93 -> 94.89; CUAD dev hit@1 81.4 ->
    # 81.1, hit@5 92.5 -> 92.6, yes found 91.3 -> 91.7 (docs/segmentation.md, session 44)
    lead_in_paths: bool = Field(
        True, description="an unheaded list's lead-in sentence (\"... a waiting period of 36 "
        "months:\") names it in its items' section_path, which retrieval text carries"
    )
    title_paths: bool = Field(
        False, description="an unheaded numbered clause whose first line reads as a title "
        "(\"2.\" / \"Specified disease waiting period\") is named by it in its items' "
        "section_path, which retrieval text carries"
    )
    # on: no CUAD dev, policy or LegalBench-RAG mini figure moved, and the evidence quotes
    # "14. Hernia" as its own clause, not "Hernia 15." inside item 12 (docs/segmentation.md)
    keep_worded_items: bool = Field(
        True, description="a numbered list item with a word of its own (\"14. Hernia\") is a "
        "clause however short; off: items under 15 characters merge into their sibling"
    )
    more_containers: bool = Field(
        False, description="'Chapter', 'Paragraph' and 'Rule' open containers like 'Article' "
        "and 'Section'"
    )


class EntityConfig(StrictModel):
    """Where spaCy NER runs (see clausegraph/entities.py); patterns always run everywhere."""

    ner: Literal["opening", "all", "off"] = Field(
        "opening",
        description="'opening' = names from the document's opening matched in every clause; "
        "'all' = NER on every clause (about half the embedding time again); 'off' = patterns only",
    )
    opening_chars: int = Field(
        5000, ge=0, description="how much of a document's start NER reads in 'opening' mode"
    )


class EmbeddingConfig(StrictModel):
    """The dense model. ``model`` is a local path or the packaged MiniLM ('minilm')."""

    backend: Literal["onnx", "sentence-transformers"] = Field(
        "onnx",
        description="'onnx' = ONNX Runtime, no torch (BERT models with safetensors weights); "
        "'sentence-transformers' = torch, any model it loads (pip install 'clausegraph[torch]')",
    )
    model: str = Field(
        "minilm",
        description="'minilm' = packaged all-MiniLM-L6-v2, 'gemini[:<model>]' = Gemini "
        "embeddings (needs GEMINI_API_KEY), or a local model path",
    )
    quantize: Literal["none", "int8"] = Field(
        "none",
        description="onnx backend: 'none' = fp32 graph; 'int8' = SmoothQuant + dynamic int8 "
        "graph of the packaged MiniLM (less CPU, cosine >= 0.99 to fp32, docs/embedding.md; "
        "its indexes are told apart from fp32 ones). Other backends ignore it",
    )
    batch_size: int = Field(64, ge=1)
    max_chars: int = Field(
        2000, ge=100, description="text beyond this is not embedded (MiniLM reads 256 tokens)"
    )


class RetrievalConfig(StrictModel):
    """Hybrid retrieval, graph expansion and reranking (seed 004, section 4.4)."""

    top_k: int = Field(8, ge=1, description="clauses returned")
    seed_k: int = Field(5, ge=1, description="fused BM25+dense hits that seed expansion")
    candidate_k: int = Field(50, ge=1, description="hits taken from each of BM25 and dense")
    rrf_k: int = Field(60, ge=1, description="reciprocal-rank-fusion constant")
    bm25_weight: float = Field(0.4, ge=0.0, le=1.0, description="share of BM25 in fused sim")
    hops: int = Field(1, ge=0, le=4, description="graph expansion depth")
    edge_types: list[RelationType] = Field(
        default_factory=lambda: [
            RelationType.DEFINES,
            RelationType.REFERS_TO,
            RelationType.OVERRIDES,
            RelationType.ENTAILS,
            RelationType.CAUSES,
        ],
        description="edge types followed during expansion",
    )
    max_expanded: int = Field(20, ge=0, description="cap on clauses added by expansion")
    alpha: float = Field(0.7, ge=0.0, description="weight of similarity in the rerank")
    beta: float = Field(0.1, ge=0.0, description="weight of graph centrality")
    gamma: float = Field(0.2, ge=0.0, description="weight of path support")
    type_weight: float = Field(
        default_factory=lambda: _shipped_type_weight(), ge=0.0,
        description="weight of the clause's CUAD type affinity with the question (fitted on "
        "CUAD train by scripts/fit_type_lift.py; 0 turns the lift off)")
    path_decay: float = Field(0.5, gt=0.0, le=1.0, description="path support factor per hop")
    min_edge_confidence: float = Field(0.5, ge=0.0, le=1.0)
    complete_k: int = Field(
        4, ge=0, description="answers (not ranked retrieval) add up to this many definitions "
        "and exceptions that govern the returned clauses, found through Defines/Overrides edges",
    )
    focus_weight: float = Field(
        0.35, ge=0.0, le=1.0, description="answers (ask, not ranked retrieval): share of the "
        "best-sentence match (question words in one sentence, weighted by rarity in the "
        "document) in the final order of the retrieved clauses",
    )
    # 1.6: of 0, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2 fitted on CUAD train (319 contracts, CUAD's
    # descriptions as questions; docs/cuad_dev.md, "Answer type prior"), the smaller of the
    # two best by the mean of hit@1, value answers, yes found and not-found precision
    answer_type_prior: float = Field(
        1.6, ge=0.0, description="answers: weight of a clause's CUAD type affinity with the "
        "question when the direct answer chooses the sentence it quotes")
    # 'hand' kept (docs/answer_sentences.md, session 29): 'learned' gives the policies out of
    # sample hit@1 64.7 -> 66.1, direct right 69.2 -> 69.7, not-found right 81.2 -> 79.7,
    # CUAD dev within half a point, and answers about four times slower
    answer_sentences: Literal["learned", "hand"] = Field(
        "hand", description="answers: how the direct answer chooses the sentence it quotes: "
        "'learned', the answer-sentence ranker fitted on the policy questions and CUAD train "
        "(answer/sentences.py: the hand score's parts and each sentence's cosine with the "
        "question, over the hand score's best few); 'hand', the hand score plus "
        "answer_type_prior times the clause's type affinity")
    # on, absent_refuses off: CUAD dev answer accuracy 74.2 -> 83.0, not-found precision /
    # recall 79.9 / 74.7 -> 88.4 / 68.6; refusing on absence too gave 86.9 / 77.9 but refused
    # questions near a type and not of it (docs/cuad_dev.md, session 13)
    answer_type_check: bool = Field(
        True, description="answers: when the question asks about CUAD clause types and the "
        "contract review finds them in the document (threshold fitted on CUAD train), the "
        "answer is given even where the answer gate would refuse it")
    answer_type_absent_refuses: bool = Field(
        False, description="answers: with answer_type_check, also say not found when the "
        "review finds none of the types asked (unless the gate is sure of its answer)")
    answer_review_first: bool = Field(
        True, description="answers: with answer_type_check, the review's best clause for the "
        "types asked leads the evidence and gives the quote, when retrieval found it too")
    focus_pool: int = Field(
        24, ge=1, description="answers: clauses retrieved before the sentence-match reorder "
        "keeps the best top_k",
    )
    scope_documents: bool = Field(
        True,
        description="when part of the query names one indexed document, search only that "
        "document, with the rest of the query",
    )
    scope_margin: float = Field(
        1.3, ge=1.0, description="a query part names a document when its match beats the next "
        "document's by this factor",
    )

    @field_validator("edge_types", mode="before")
    @classmethod
    def _split_edge_types(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value


class ReviewConfig(StrictModel):
    """Contract review against CUAD's 41 categories (``clausegraph review``, docs/review.md:
    each default is the choice measured there on the CUAD dev contracts)."""

    # None: each category's own threshold, fitted on CUAD train (review/found.py). Until
    # session 27 one threshold, 0.35, chosen on dev for session 10's ranker: with the
    # refitted ranker it gave Agreement / Effective Date answers 80.2 / 73.4 on dev against
    # 85.4 / 88.6 with the thresholds per category (docs/review.md, session 27)
    found_threshold: float | None = Field(
        None, ge=0.0, le=1.0, description="a category is found when its best span's "
        "confidence reaches this; unset: each category's threshold fitted on CUAD train")
    max_clauses: int = Field(20, ge=1, description="clauses listed per category, best first")
    min_candidate: float = Field(
        0.0, ge=0.0, le=1.0, description="clauses below this probability are not listed "
        "(the best one always is)")
    granularity: Literal["clause", "sentence"] = Field(
        "sentence", description="report the whole clause, or its sentence(s) that the "
        "clause-type model scores highest for the category")
    extra_sentences: int = Field(
        0, ge=0, description="more sentences of each listed clause reported as spans of "
        "their own, at the clause's probability times their score's share of the best")
    sentence_vectors: Literal["encode", "clause"] = Field(
        "clause", description="how sentences are scored: each embedded on its own, or "
        "with its clause's stored vector (only the words differ; nothing is embedded)")
    sentence_share: float = Field(
        0.8, ge=0.0, le=1.0, description="sentences next to the best one are reported "
        "with it while their score is at least this share of the best")
    # 0.01: on the 105 dev contracts the spans below it are 89% of those listed (about 1.3 MB
    # of a contract's review JSON) and worth 0.2 AUPR points (57.1 -> 56.9), no change in
    # precision at 80% recall (docs/review.md, session 10)
    min_span_confidence: float = Field(
        0.01, ge=0.0, le=1.0, description="spans below this confidence are not listed (a "
        "category's best span always is)")
    span_confidence: Literal["learned", "rule"] = Field(
        "learned", description="how a reported span's confidence is set: 'learned', the "
        "span ranker fitted on CUAD train (every sentence of a listed clause and the whole "
        "clause are candidates); 'rule', the clause's probability times the span's share of "
        "its best sentence's score (the narrowed span and extra_sentences only)")
    span_novelty: bool = Field(
        True, description="with 'learned' span confidence, list a category's spans with the "
        "probability that each matches a highlight no span above it matches (the span "
        "novelty model fitted on CUAD train), not the ranker's probability that it matches "
        "one; the category is found by the ranker's either way")


class StrategySettings(StrictModel):
    """Files and folders the retrieval strategies use (see clausegraph/strategies/)."""

    lesegr_weights: Path = Field(
        DOCS_DIR / "lesegr_weights.json",
        description="weights of the 'lesegr-fitted' strategy (written by "
        "'clausegraph evaluate --fit-lesegr FILE')",
    )
    causal_dir: Path | None = Field(
        None, description="where 'causal-search' saves its files (default: env "
        "CLAUSEGRAPH_CAUSAL_DIR, else .clausegraph-causal/)",
    )


class Settings(StrictModel):
    """The full configuration of a ClauseGraph instance."""

    ingest: IngestConfig = Field(default_factory=IngestConfig)
    segment: SegmentConfig = Field(default_factory=SegmentConfig)
    entities: EntityConfig = Field(default_factory=EntityConfig)
    embedding: EmbeddingConfig = Field(default_factory=EmbeddingConfig)
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    strategies: StrategySettings = Field(default_factory=StrategySettings)
    review: ReviewConfig = Field(default_factory=ReviewConfig)

    def with_overrides(self, overrides: list[str]) -> "Settings":
        """Return a copy with ``section.field=value`` overrides applied and validated.

        >>> Settings().with_overrides(["retrieval.alpha=0.5"]).retrieval.alpha
        0.5
        """
        data = self.model_dump()
        for item in overrides:
            if "=" not in item:
                raise ValueError(f"override {item!r} is not of the form section.field=value")
            dotted, value = item.split("=", 1)
            section, _, name = dotted.strip().partition(".")
            if section not in data or not name or name not in data[section]:
                raise ValueError(f"unknown setting {dotted!r}")
            data[section][name] = value
        return Settings.model_validate(data)

# The main job's embedded defaults: the bundled sample contracts and a question about them.
DATASET_DIR = DOCS_DIR / "dataset"
SAMPLE_QUESTION = "Can a party terminate the agreement for breach, and what exceptions apply?"


def _shipped_type_weight() -> float:
    """The type lift's weight as fitted on CUAD train (classify/data/question_types.json)."""
    from clausegraph.classify.questions import shipped_parameters

    return float(shipped_parameters()["type_weight"])
