"""The evaluation's inputs: LegalBench-RAG benchmark files, docs/dataset questions and
their excerpts, the paper's published curves."""

from __future__ import annotations

import json

import pytest

from clausegraph.eval.benchmark import load_benchmark, load_published, sample_evenly
from clausegraph.eval.dataset import load_questions, locate_excerpt
from tests.eval.conftest import DATASET, SAMPLE, SAMPLE_BENCHMARKS

# -- loaders -------------------------------------------------------------------------------


def test_load_sample_benchmarks():
    names = []
    for path in SAMPLE_BENCHMARKS:
        bench = load_benchmark(path, SAMPLE / "corpus")  # checks spans against answer text
        names.append(bench.dataset)
        assert len(bench.queries) == 2
        for q in bench.queries:
            assert q.query.startswith("Consider")
            assert all(s.file_path.startswith(bench.dataset + "/") for s in q.snippets)
    assert sorted(names) == ["contractnli", "cuad", "maud", "privacy_qa"]
    sizes = [p.stat().st_size for p in (SAMPLE / "corpus").rglob("*.txt")]
    assert len(sizes) == 4 and max(sizes) < 10_000


def test_load_benchmark_rejects_wrong_span(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "d.txt").write_text("hello world", encoding="utf-8")
    bench = tmp_path / "mini_x.json"
    bench.write_text(
        json.dumps(
            {
                "tests": [
                    {
                        "query": "q",
                        "snippets": [{"file_path": "c/d.txt", "span": [0, 5], "answer": "world"}],
                    }
                ]
            }
        )
    )
    with pytest.raises(ValueError, match="answer"):
        load_benchmark(bench, tmp_path)
    loaded = load_benchmark(bench)  # without a corpus nothing is checked
    assert loaded.dataset == "x" and loaded.queries[0].snippets[0].span == (0, 5)


def test_sample_evenly():
    assert sample_evenly(list(range(10)), 3) == [0, 3, 6]
    assert sample_evenly(list(range(3)), 10) == [0, 1, 2]
    assert sample_evenly(list(range(3)), None) == [0, 1, 2]
    assert sample_evenly(list(range(3)), 0) == []


def test_load_questions(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(
        "documents:\n"
        "  - file: a.pdf\n"
        "    questions:\n"
        "      - {id: a1, question: 'Is it?', expected: one excerpt}\n"
        "      - question: And this?\n"
        "        expected: [first, second]\n",
        encoding="utf-8",
    )
    questions = load_questions(path)
    assert [q.expected for q in questions] == [["one excerpt"], ["first", "second"]]
    assert questions[0].id == "a1" and questions[1].id == "a-02"
    path.write_text(path.read_text() + "      - {id: a1, question: x, expected: y}\n")
    with pytest.raises(ValueError, match="duplicate"):
        load_questions(path)


def test_locate_excerpt_normalises_whitespace_quotes_and_ligatures():
    text = "1.1  The “Term”\n  means the\tperiod;  eﬃcient — done."
    span = locate_excerpt(text, 'the "term" means THE period')
    assert span is not None and text[span[0] : span[1]] == "The “Term”\n  means the\tperiod"
    span = locate_excerpt(text, "efficient - done")
    assert text[span[0] : span[1]] == "eﬃcient — done"
    assert locate_excerpt(text, "not there") is None
    assert locate_excerpt(text, "   ") is None


def test_shipped_questions_file():
    questions = load_questions(DATASET / "questions.yaml")
    by_doc: dict[str, int] = {}
    for q in questions:
        by_doc[q.document] = by_doc.get(q.document, 0) + 1
    assert set(by_doc) == {p.name for p in DATASET.glob("*.pdf")}
    assert all(10 <= n <= 20 for n in by_doc.values())
    assert "ClauseGraph team" in (DATASET / "questions.yaml").read_text(encoding="utf-8")[:600]


@pytest.mark.slow
def test_shipped_excerpts_are_found_in_the_pdfs():
    from clausegraph.ingest import load_document

    texts: dict[str, str] = {}
    for q in load_questions(DATASET / "questions.yaml"):
        if q.document not in texts:
            texts[q.document] = load_document(DATASET / q.document).text
        for excerpt in q.expected:
            assert locate_excerpt(texts[q.document], excerpt) is not None, (q.id, excerpt)


def test_published_curves():
    published = load_published(None)
    assert set(published) == {"privacy_qa", "contractnli", "maud", "cuad", "ALL"}
    assert published["ALL"]["recall"][-1] == pytest.approx(0.6222, abs=1e-4)
    assert published["ALL"]["precision"][0] == pytest.approx(0.0641, abs=1e-4)


