"""Reports rendered as HTML or Markdown through the Jinja templates in prompts/."""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import Any

import jinja2
from markupsafe import Markup, escape

from clausegraph.answer.extractive import GROUP_TITLES, GROUPS
from clausegraph.answer.verify import INLINE_CITATION
from clausegraph.config import PROMPTS_DIR
from clausegraph.report.chain import TYPE_COLOURS, chain_mermaid, chain_svg
from clausegraph.report.models import Report, anchor

VERDICT_TEXT = {
    "verified": "VERIFIED", "warnings": "WARNINGS", "failed": "FAILED",
    "unanswered": "NOT ANSWERED",
}
# An offline answer is quoted, not reasoned: its check says only that every quote is the
# source's own text, never that the quotes answer the question (no green VERIFIED badge).
QUOTE_CHECK_TEXT = {
    "verified": "QUOTES MATCH THE SOURCE", "warnings": "QUOTES: WARNINGS",
    "failed": "QUOTES DO NOT MATCH",
}


# -- rendering ---------------------------------------------------------------------------





def _answer_html(text: str) -> Markup:
    """The answer's light Markdown (bold, bullets, citations) as HTML; escaped first."""
    out: list[str] = []
    in_list = False
    for raw in text.splitlines():
        line = str(escape(raw.strip()))
        line = re.sub(r"(?<![*\[])\*\*(?![*\]])(.+?)(?<![*\[])\*\*(?![*\]])",
                      r"<strong>\1</strong>", line)
        # italics open and close on a word, never inside a run of underscores: a form's
        # blank ("Name: ________", "___ day of ______, 2004") stays as written
        line = re.sub(r"(?<![\w*])_([^_\s](?:[^_]*?[^_\s])?)_(?![\w*])", r"<em>\1</em>", line)
        line = INLINE_CITATION.sub(
            lambda m: f'<a class="cite" href="#{anchor(m.group(1))}">[{m.group(1)}]</a>', line)
        if line.startswith("- "):
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{line[2:]}</li>")
            continue
        if in_list and raw.startswith("  ") and out:
            out[-1] = out[-1][:-5] + f"<br/>{line}</li>"
            continue
        if in_list:
            out.append("</ul>")
            in_list = False
        if line:
            out.append(f"<p>{line}</p>")
    if in_list:
        out.append("</ul>")
    return Markup("\n".join(out))


def _md_text(text: str) -> str:
    """Document text safe inside Markdown: HTML and Markdown syntax neutralised."""
    text = html.escape(text.replace("\n", " "), quote=False)
    return re.sub(r"([\\`*_\[\]#|])", r"\\\1", text)


def _md_block(text: str) -> str:
    """Markdown made by ClauseGraph around document text (the extractive answer, strategy
    notes): its bold and bullets stay, but raw HTML and link syntax from the quoted
    documents are neutralised (``<script>`` shows as text, ``[x](javascript:..)`` is no link)."""
    text = html.escape(text, quote=False)
    return re.sub(r"([\\`\[\]|])", r"\\\1", text)


@lru_cache(maxsize=2)
def _environment(prompts_dir: str = str(PROMPTS_DIR)) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(prompts_dir),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                            default_for_string=True, default=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = _md_text
    env.filters["md_block"] = _md_block
    env.filters["answer_html"] = _answer_html
    env.filters["anchor"] = anchor
    return env


def _context(report: Report, target: str) -> dict[str, Any]:
    issues_by_claim: dict[int, list[tuple[str, str]]] = {}
    for issue in report.verification.issues:
        if issue.claim is not None:
            issues_by_claim.setdefault(issue.claim, []).append((issue.severity, issue.kind))
    svg = chain_svg(report) if target in ("html", "pdf") else ""
    size = _svg_size(svg) if svg else (0.0, 0.0)
    scale = PDF_DIAGRAM_WIDTH / size[0] if size[0] else 1.0
    return {
        "r": report,
        "target": target,
        "groups": [(g, GROUP_TITLES[g], report.group(g)) for g in GROUPS],
        "verdict_text": (QUOTE_CHECK_TEXT if report.mode.startswith("extractive") else VERDICT_TEXT).get(
            report.verdict, report.verdict.upper()),
        "verdict_class": "quotes" if report.mode.startswith("extractive") else report.verdict,
        "issues_by_claim": issues_by_claim,
        "chain_svg": Markup(svg),
        "chain_mermaid": chain_mermaid(report),
        "diagram_size": (round(size[0] * scale), round(size[1] * scale)),
        "group_tags": {"definition": "DEFINITION", "base_rule": "BASE RULE",
                       "exception": "EXCEPTION"},
        "css": Markup(_css(target)),
        "type_colours": TYPE_COLOURS,
        "retrieval_rows": _retrieval_rows(report.retrieval),
        "usage_text": _usage_text(report.usage),
    }


PDF_DIAGRAM_WIDTH = 480  # points: the A4 text width less the diagram frame
DIAGRAM_ID = "chain-diagram"
_BLANK_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>'


def _svg_size(svg: str) -> tuple[float, float]:
    match = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
    return (float(match.group(1)), float(match.group(2))) if match else (0.0, 0.0)


def _usage_text(usage: dict[str, Any]) -> str:
    """E.g. '1 request (no repair), 2 HTTP attempts, 812 in / 164 out tokens, 1.20 s'."""
    if not usage:
        return ""
    parts = []
    if usage.get("requests") is not None:
        requests = usage["requests"]
        parts.append(f"{requests} request{'s' * (requests != 1)} "
                     f"({'after a JSON repair' if usage.get('repaired') else 'no repair'})")
    if usage.get("attempts") is not None:
        parts.append(f"{usage['attempts']} HTTP attempt{'s' * (usage['attempts'] != 1)}")
    if usage.get("input_tokens") is not None or usage.get("output_tokens") is not None:
        parts.append(f"{usage.get('input_tokens') or 0} in / {usage.get('output_tokens') or 0} "
                     "out tokens")
    if usage.get("seconds") is not None:
        parts.append(f"{usage['seconds']:.2f} s")
    if usage.get("finish_reason"):
        parts.append(f"finish {usage['finish_reason']}")
    return ", ".join(parts)


def _retrieval_rows(retrieval: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    for key, value in retrieval.items():
        if isinstance(value, list):
            value = ", ".join(map(str, value))
        rows.append((key, str(value)))
    return rows


def _css(target: str) -> str:
    css = (PROMPTS_DIR / "report.css").read_text(encoding="utf-8")
    extra = "report_pdf.css" if target == "pdf" else "report_screen.css"
    return css + "\n" + (PROMPTS_DIR / extra).read_text(encoding="utf-8")


def render_html(report: Report, target: str = "html") -> str:
    return _environment().get_template("report.html.j2").render(**_context(report, target))


def render_markdown(report: Report) -> str:
    return _environment().get_template("report.md.j2").render(**_context(report, "md"))


