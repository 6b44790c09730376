"""docs/dataset mode: Recall@k, nDCG@k and MRR per document and strategy on questions
written for the bundled CUAD PDFs (see the package doc)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field

from clausegraph.config import Settings
from clausegraph.eval.benchmark import sample_evenly
from clausegraph.eval.harness import (
    Harness,
    check_strategies,
    console_for,
    default_variants,
    index_location,
    open_graph,
    peak_rss_mb,
    progress_bar,
)
from clausegraph.eval.index import DEFAULT_CACHE_DIR, build_index, content_ids, index_cache_dir
from clausegraph.eval.metric import Span, overlaps, rank_metrics
from clausegraph.eval.models import (
    DatasetResult,
    DatasetRun,
    Hit,
    LatencyStats,
    MemoryStats,
    RankScores,
    Variant,
)
from clausegraph.store.base import IndexReader

DEFAULT_DATASET_DIR = Path("docs/dataset")


DEFAULT_QUESTIONS = DEFAULT_DATASET_DIR / "questions.yaml"


class DatasetQuestion(BaseModel):
    """One docs/dataset question: the document it is about and the expected excerpt(s)."""

    id: str
    document: str = Field(description="file name of the PDF inside the dataset folder")
    question: str
    expected: list[str] = Field(min_length=1, description="verbatim excerpts of the answer clauses")
    category: str | None = None


def load_questions(path: str | Path) -> list[DatasetQuestion]:
    """Read ``questions.yaml``: ``documents: [{file, questions: [{id, question, expected}]}]``.

    ``expected`` may be one string or a list of strings.
    """
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    questions: list[DatasetQuestion] = []
    seen: set[str] = set()
    for document in data.get("documents", []):
        for i, item in enumerate(document.get("questions", []), start=1):
            expected = item["expected"]
            qid = str(item.get("id") or f"{Path(document['file']).stem[:20]}-{i:02d}")
            if qid in seen:
                raise ValueError(f"{path}: duplicate question id {qid!r}")
            seen.add(qid)
            questions.append(
                DatasetQuestion(
                    id=qid,
                    document=document["file"],
                    question=item["question"],
                    expected=[expected] if isinstance(expected, str) else list(expected),
                    category=item.get("category"),
                )
            )
    return questions


_CHAR_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u00ad": None,
        "\u200b": None,
        "\ufeff": None,
    }
)


def normalise_with_offsets(text: str) -> tuple[str, list[int]]:
    """Lower-cased text with whitespace runs collapsed to one space, quotes, dashes and
    compatibility characters (ligatures) folded; ``offsets[i]`` is the index in ``text``
    of normalised character ``i``."""
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            if chars and chars[-1] != " ":
                chars.append(" ")
                offsets.append(i)
            continue
        folded = unicodedata.normalize("NFKC", ch).translate(_CHAR_FOLD).lower()
        for c in folded:
            if c.isspace():
                if chars and chars[-1] != " ":
                    chars.append(" ")
                    offsets.append(i)
            else:
                chars.append(c)
                offsets.append(i)
    return "".join(chars), offsets


def locate_excerpt(text: str, excerpt: str, _cache: dict[int, Any] | None = None) -> Span | None:
    """Span of ``excerpt`` in ``text`` under whitespace-/quote-/case-insensitive matching.

    >>> locate_excerpt("A  term\\nmeans “X”.", 'term means "x"')
    (3, 17)
    """
    if _cache is not None and id(text) in _cache:
        norm_text, offsets = _cache[id(text)]
    else:
        norm_text, offsets = normalise_with_offsets(text)
        if _cache is not None:
            _cache[id(text)] = (norm_text, offsets)
    needle = normalise_with_offsets(excerpt)[0].strip()
    if not needle:
        return None
    at = norm_text.find(needle)
    if at < 0:
        return None
    return offsets[at], offsets[at + len(needle) - 1] + 1


def document_label(file_name: str) -> str:
    """Short, stable name of a dataset PDF: the file name up to its first '_'."""
    return Path(file_name).stem.split("_", 1)[0]


@dataclass
class _Questions:
    """The questions by document, their located excerpts and how many clauses are relevant."""

    by_doc: dict[str, list[DatasetQuestion]]
    labels: dict[str, str]
    doc_of: dict[str, str] = field(default_factory=dict)  # PDF name -> doc id
    located: dict[str, list[Span]] = field(default_factory=dict)  # question id -> spans
    n_relevant: dict[str, int] = field(default_factory=dict)
    unlocated: list[str] = field(default_factory=list)

    def locate(self, index: IndexReader) -> None:
        """Find every expected excerpt in its document's text (see :func:`locate_excerpt`)."""
        entries = index.entries()
        for document, qs in self.by_doc.items():
            doc_id = self.doc_of[document]
            if doc_id not in entries:
                self.unlocated += [f"{q.id}: document was not indexed" for q in qs]
                continue
            text = index.clauses.document(doc_id).text
            clauses = index.clauses.document_clauses(doc_id)
            cache: dict[int, Any] = {}
            for q in qs:
                spans = []
                for excerpt in q.expected:
                    span = locate_excerpt(text, excerpt, cache)
                    if span is None:
                        self.unlocated.append(f"{q.id}: {excerpt[:60]!r}")
                    else:
                        spans.append(span)
                if spans:
                    self.located[q.id] = spans
                    self.n_relevant[q.id] = sum(
                        1 for c in clauses if any(overlaps(c.span, e) for e in spans))


def _load(dataset: Path, questions_path: Path, limit: int | None) -> _Questions:
    all_questions = load_questions(questions_path)
    documents = sorted({q.document for q in all_questions})
    missing = [d for d in documents if not (dataset / d).is_file()]
    if missing:
        raise ValueError(f"questions name documents not in {dataset}: {', '.join(missing)}")
    by_doc = {
        d: sample_evenly([q for q in all_questions if q.document == d], limit) for d in documents
    }
    labels = {d: document_label(d) for d in documents}
    if len(set(labels.values())) != len(labels):
        labels = {d: Path(d).stem for d in documents}
    return _Questions(by_doc, labels)


def evaluate_dataset(
    dataset_dir: str | Path | None = None,
    questions: str | Path | None = None,
    *,
    strategies: Sequence[str] | None = None,
    variants: Sequence[Variant] | None = None,
    settings: Settings | None = None,
    limit: int | None = None,
    k: int = 5,
    depth: int = 10,
    scope: str = "document",
    index_dir: str | Path | None = None,
    cache_dir: str | Path = DEFAULT_CACHE_DIR,
    dump: str | Path | None = None,
    progress: bool = False,
    console: Any = None,
    settings_overrides: Sequence[str] = (),
) -> DatasetResult:
    """Recall@k, nDCG@k and MRR per document and strategy on the docs/dataset questions.

    ``scope="document"`` searches only the question's document (``ask --doc``);
    ``"corpus"`` searches all documents, and a clause from another document is never relevant.
    ``limit`` caps the questions per document.
    """
    dataset = Path(dataset_dir) if dataset_dir else DEFAULT_DATASET_DIR
    questions_path = Path(questions) if questions else dataset / "questions.yaml"
    if scope not in ("document", "corpus"):
        raise ValueError("scope must be 'document' or 'corpus'")
    settings = settings or Settings()
    qs = _load(dataset, questions_path, limit)
    runs_for = list(default_variants(strategies) if strategies or not variants else [])
    runs_for += list(variants or [])
    check_strategies(runs_for, settings)
    console = console_for(console)

    file_paths = [dataset / d for d in qs.by_doc]
    root = index_location(index_dir) if index_dir else index_cache_dir(file_paths, settings, cache_dir)
    graph = open_graph(root, settings)
    with progress_bar(progress, console) as bar:
        indexing = build_index(graph, file_paths, progress=bar)
        key_of = content_ids(zip(qs.by_doc, file_paths))
        qs.doc_of = {name: doc_id for doc_id, name in key_of.items()}
        qs.locate(graph.index)
        if qs.unlocated:
            console.print(
                f"[yellow]warning:[/] {len(qs.unlocated)} expected excerpt(s) not found "
                "in their document; those excerpts are skipped:",
                highlight=False,
            )
            for line in qs.unlocated[:20]:
                console.print(f"  {line}", highlight=False, markup=False)
        with open(dump, "w", encoding="utf-8") if dump else nullcontext() as dump_file:
            harness = Harness(graph, key_of, dump_file)
            runs = [_run(harness, variant, qs, k, depth, scope, bar) for variant in runs_for]
    return DatasetResult(
        k=k,
        depth=depth,
        scope=scope,
        documents=[qs.labels[d] for d in qs.by_doc],
        questions=sum(len(q) for q in qs.by_doc.values()),
        unlocated=qs.unlocated,
        runs=runs,
        indexing=indexing,
        memory=MemoryStats(peak_rss_mb=peak_rss_mb(),
                           retrieval_peak_rss_mb=harness.retrieval_peak),
        settings_overrides=list(settings_overrides),
    )


def _run(
    harness: Harness, variant: Variant, qs: _Questions, k: int, depth: int, scope: str, bar: Any
) -> DatasetRun:
    """One variant over every located question: ``depth`` clauses each, scored at ``k``."""
    strategy = harness.strategy(variant)
    task = bar.add_task(variant.label, total=sum(len(q) for q in qs.by_doc.values()))
    warm = next((q for questions in qs.by_doc.values() for q in questions), None)
    if warm is not None and strategy is not None:
        harness.retrieve(strategy, variant, warm.question, depth,
                         [warm.document] if scope == "document" else None)
    per_doc: dict[str, list[tuple[float, float, float]]] = {}
    latencies: list[float] = []
    for document, questions in qs.by_doc.items():
        scores = per_doc.setdefault(qs.labels[document], [])
        for q in questions:
            bar.advance(task)
            if q.id not in qs.located:
                continue
            expected = qs.located[q.id]
            if strategy is None:
                hits = harness.timed(latencies, lambda document=document, expected=expected:
                                     _oracle_hits(harness.graph.index, qs.doc_of[document],
                                                  document, expected))
            else:
                hits = harness.timed(latencies, lambda q=q, document=document: harness.retrieve(
                    strategy, variant, q.question, depth,
                    [document] if scope == "document" else None))
            ranked = [(h.start, h.end) if h.file_path == document else (-1, -1) for h in hits]
            scores.append(rank_metrics(ranked, expected, k, qs.n_relevant[q.id]))
            harness.dump(variant, q.question, hits, question_id=q.id, document=document)
    return DatasetRun(
        strategy=variant.strategy,
        variant=variant.name,
        overrides=variant.overrides,
        documents=_rank_summary(per_doc),
        latency=LatencyStats.from_seconds(latencies),
    )


def _oracle_hits(index: Any, doc_id: str, document: str, expected: list[Span]) -> list[Hit]:
    clauses = [c for c in index.clauses.document_clauses(doc_id)
               if any(overlaps(c.span, e) for e in expected)]
    return [Hit(document, c.span[0], c.span[1], 1.0, c.clause_id, doc_id) for c in clauses]


def _rank_summary(per_doc: dict[str, list[tuple[float, float, float]]]) -> dict[str, RankScores]:
    out: dict[str, RankScores] = {}
    for document, scores in per_doc.items():
        n = len(scores)
        out[document] = RankScores(
            n=n,
            recall=sum(s[0] for s in scores) / n if n else 0.0,
            ndcg=sum(s[1] for s in scores) / n if n else 0.0,
            mrr=sum(s[2] for s in scores) / n if n else 0.0,
        )
    present = [s for s in out.values() if s.n]
    if present:
        out["ALL"] = RankScores(
            n=sum(s.n for s in present),
            recall=sum(s.recall for s in present) / len(present),
            ndcg=sum(s.ndcg for s in present) / len(present),
            mrr=sum(s.mrr for s in present) / len(present),
        )
    return out
