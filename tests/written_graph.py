"""An index of small documents written by a test (style variants of one wording)."""

from __future__ import annotations

from pathlib import Path


def written_graph(folder: Path, texts: dict[str, str]):
    """Write each ``file name -> text``, ingest them all into an index in ``folder``, and
    return the ``ClauseGraph`` (ingest must succeed for every file)."""
    from clausegraph.api import ClauseGraph

    files = []
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        files.append(path)
    graph = ClauseGraph.open(folder / "index", create=True)
    report = graph.ingest(files)
    assert not report.failed, [outcome.error for outcome in report.failed]
    return graph


def variant_graph(folder: Path, texts: list[str], suffix: str = ".txt"):
    """The index of ``texts`` written as ``policy-0{suffix}``, ``policy-1{suffix}``, ...:
    one wording in several styles, asked one by one with :func:`ask_variant`."""
    return written_graph(folder, {f"policy-{i}{suffix}": text for i, text in enumerate(texts)})


def ask_variant(graph, variant: int, question: str, suffix: str = ".txt"):
    """``question`` asked of variant ``variant`` of a :func:`variant_graph` alone."""
    return graph.ask(question, documents=[f"policy-{variant}{suffix}"])


def direct_text(answer) -> str:
    """The direct answer's text with its whitespace folded ("" when there is none)."""
    return " ".join((answer.direct_answer or "").split())


def motor_policy_html(heading: str, lead_in: str, header: tuple[str, str],
                      rows: list[tuple[str, str]]) -> str:
    """A motor policy page in HTML: one section of ``heading`` whose ``lead_in`` introduces
    a two-column table (``header``, then ``rows``), and a section of general exceptions
    after it (so the table is not the document's last clause)."""
    cells = "\n".join(f"<tr><td>{left}</td><td>{right}</td></tr>" for left, right in rows)
    return f"""<html><head><title>Private Car Package Policy</title></head><body>
<h1>PRIVATE CAR PACKAGE POLICY</h1>
<h2>{heading}</h2>
<p>{lead_in}</p>
<table>
<tr><th>{header[0]}</th><th>{header[1]}</th></tr>
{cells}
</table>
<h2>Section IV. General exceptions</h2>
<p>The Company shall not be liable for any accident occurring outside the geographical
area.</p>
</body></html>"""
