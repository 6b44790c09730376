"""Retrieval evaluation: LegalBench-RAG character-span precision/recall and docs/dataset QA.

Two modes share one harness (``clausegraph evaluate``; ``scripts/batch_evaluate.py`` calls it):

**LegalBench-RAG** (``evaluate_legalbench``). One index is built over every document the
benchmark queries cite (always all queries of the given files, also under ``--limit``, so
the retrieval corpus is the paper's). Each strategy retrieves the top ``max(k)`` clauses
once per query; the prefixes of that ranking are scored at every k. A retrieved item is the
clause's character span ``clause.span`` in its source ``.txt`` file.

The metric is LegalBench-RAG's (ZeroEntropy ``legalbenchrag/run_benchmark.py``,
``QAResult.precision`` / ``QAResult.recall``, averaged with equal weights per query):

- precision = characters of the retrieved spans R that overlap gold spans G *in the same
  file* / total characters of R;
- recall = characters of G covered by R / total characters of G;
- files are compared by their path relative to the corpus folder (``cuad/x.txt``); a
  retrieved span in another file contributes only to the denominator of precision;
- an empty retrieval scores precision 0 and recall 0 (the reference returns 0 when a
  denominator is 0);
- **overlapping retrieved spans are merged first** (R and G are treated as sets of
  characters). The reference sums pairwise overlaps, so it would count a character twice
  when two retrieved spans overlap (and recall could exceed 1); its own baseline cannot
  produce overlaps (disjoint 500-character chunks), so on disjoint spans the two agree
  exactly. Clause retrieval can return overlapping spans (a heading and its sub-clauses),
  and counting the same characters twice would reward redundancy;
- per dataset the metric is the plain mean over queries; "ALL" is the plain mean of the
  datasets (as in the paper's table).

**docs/dataset** (``evaluate_dataset``). Questions written for the bundled CUAD PDFs
(``docs/dataset/questions.yaml``) name a document and one or more verbatim excerpts of the
expected clause(s). Each excerpt is located in the document's canonical text with
whitespace-, quote- and dash-insensitive matching; a retrieved clause is relevant when its
span overlaps a located excerpt. Per question: Recall@k = share of expected excerpts hit by
the top k; nDCG@k with binary clause relevance, the ideal ranking putting all of the
document's relevant clauses (those overlapping an excerpt) first; MRR = 1/rank of the first
relevant clause within the retrieved depth (0 if none). Per document the mean over its
questions; "ALL" is the plain mean of the documents.

Both modes report per-strategy latency (p50/p95 of one retrieve call per query, model and
index loaded, one warm-up query not counted), peak RSS, and indexing time, chars/s and the
share of indexing time spent in the embedder.

Outputs go to ``--out-dir`` (default: a new ``runs/<UTC time>/``): ``eval_metrics.csv``
(long format, see ``CSV_COLUMNS``) and ``plots/``; optional ``--dump`` JSONL of every
ranking and ``--results-json``. The tracked results in ``docs/`` change only with
``--out-dir docs``.

Modules: ``metric`` (the two metrics, pure functions), ``benchmark`` (LegalBench-RAG files),
``dataset`` (docs/dataset questions and mode), ``legalbench`` (LegalBench-RAG mode),
``harness`` (variants, timed runs), ``index`` (cached, timed index build), ``lesegr_fit``,
``models`` (results), ``outputs`` (CSV, tables), ``plots``, ``run`` (one CLI run).
"""

from clausegraph.eval.benchmark import (
    LEGALBENCH_DIR_ENV,
    PUBLISHED_RCTS,
    Benchmark,
    BenchmarkQuery,
    GoldSnippet,
    dataset_name,
    default_benchmarks,
    default_legalbench_dir,
    load_benchmark,
    load_published,
    sample_evenly,
)
from clausegraph.eval.dataset import (
    DEFAULT_DATASET_DIR,
    DatasetQuestion,
    document_label,
    evaluate_dataset,
    load_questions,
    locate_excerpt,
    normalise_with_offsets,
)
from clausegraph.eval.harness import (
    DEFAULT_GRID,
    causal_grid_variants,
    default_variants,
    edge_type_variants,
    grid_variants,
    parse_grid,
    peak_rss_mb,
)
from clausegraph.eval.index import (
    DEFAULT_CACHE_DIR,
    build_index,
    index_cache_dir,
    pipeline_fingerprint,
)
from clausegraph.eval.legalbench import evaluate_legalbench
from clausegraph.eval.lesegr_fit import fit_lesegr, relevant_clauses, split_for_fit
from clausegraph.eval.metric import (
    K_VALUES,
    FileSpan,
    Span,
    merge_spans,
    precision_recall,
    precision_recall_at_k,
    rank_metrics,
    span_overlap,
)
from clausegraph.eval.models import (
    ORACLE,
    DatasetResult,
    Hit,
    LegalBenchResult,
    MetricRow,
    Variant,
)
from clausegraph.eval.outputs import CSV_COLUMNS, read_metrics_csv, write_metrics_csv
from clausegraph.eval.plots import plot_dataset, plot_latency, plot_legalbench

__all__ = [
    "CSV_COLUMNS", "DEFAULT_CACHE_DIR", "DEFAULT_DATASET_DIR", "DEFAULT_GRID", "K_VALUES",
    "LEGALBENCH_DIR_ENV", "ORACLE", "PUBLISHED_RCTS", "Benchmark", "BenchmarkQuery",
    "DatasetQuestion", "DatasetResult", "FileSpan", "GoldSnippet", "Hit", "LegalBenchResult",
    "MetricRow", "Span", "Variant", "build_index", "causal_grid_variants", "dataset_name",
    "default_benchmarks", "default_legalbench_dir", "default_variants", "document_label",
    "edge_type_variants", "evaluate_dataset", "evaluate_legalbench", "fit_lesegr",
    "grid_variants", "index_cache_dir", "load_benchmark", "load_published", "load_questions",
    "locate_excerpt", "merge_spans", "normalise_with_offsets", "parse_grid", "peak_rss_mb",
    "pipeline_fingerprint", "plot_dataset", "plot_latency", "plot_legalbench",
    "precision_recall", "precision_recall_at_k", "rank_metrics", "read_metrics_csv",
    "relevant_clauses", "sample_evenly", "span_overlap", "split_for_fit", "write_metrics_csv",
]
