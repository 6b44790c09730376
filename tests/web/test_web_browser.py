"""The pages in a real browser: Playwright driving Debian's Chromium against a real server.

Skipped, with the reason shown, where /usr/bin/chromium or Playwright is missing
(`.ci/run` installs Chromium so that CI runs them).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from clausegraph.web.app import create_app
from tests.conftest import dataset_pdf
from tests.web.web_support import (
    CHROMIUM,
    HOSTILE_TEXT,
    TOKEN,
    ServerThread,
    launched_chromium,
)

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)",
)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

UPLOAD_TOKEN = "browser-upload-token-0123456789"
QUESTION = "What are the payment terms for product invoices?"
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def server(web_index):
    app = create_app(web_index, tokens={TOKEN: "default", UPLOAD_TOKEN: "browser"})
    with ServerThread(app) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with launched_chromium(sync_api) as launched:
        yield launched


def _page(browser, server, token: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/documents?token={token}")  # sets the cookie, drops the token
    assert page.url == f"{server.url}/documents"
    page.errors = errors
    return page


def test_ask_shows_answer_groups_chain_and_the_highlighted_page(browser, server):
    page = _page(browser, server, TOKEN)
    page.goto(f"{server.url}/?q={QUESTION}")
    page.wait_for_selector("#group-exception")
    assert page.inner_text("#direct-answer").strip()
    headings = page.locator(".group h2").all_inner_texts()
    assert [h.split("\n")[0].strip() for h in headings] == ["Definitions", "Base rules",
                                                            "Exceptions"]
    if page.locator("#chain-card").is_visible():
        assert page.locator(".chain-node").count() >= 2
    # one answer with its citation, or one per document (several answer equally well),
    # each with its own: the first one's citation opens its clause
    several = page.locator("#direct-by-document li").count()
    assert several != 1 and page.is_visible("#direct-cite") == (several == 0)
    quote = "#direct-by-document li:first-child span" if several else "#direct-answer"
    page.click("#direct-by-document li:first-child .cite" if several else "#direct-cite")
    page.wait_for_selector(".highlight")
    # the whole PDF (PDF.js), its cited page drawn with the highlight over it
    frame = page.locator(".page-frame", has=page.locator(".highlight")).first
    sync_api.expect(frame).to_have_attribute("data-drawn", "true", timeout=TIMEOUT_MS)
    number = int(frame.get_attribute("data-page"))
    rects = [pymupdf.Rect(*map(float, r.split(","))) for r in
             frame.locator(".highlight").evaluate_all("els => els.map(e => e.dataset.rect)")]
    # the cited words, found on the same page by pymupdf, lie under a drawn rectangle
    title = page.inner_text("#viewer-title")
    documents = page.request.get(f"{server.url}/api/v1/documents").json()
    doc = next(d for d in documents if d["title"] == title)
    original = page.request.get(f"{server.url}/api/v1/documents/{doc['doc_id']}/original").body()
    pdf_page = pymupdf.open(stream=original, filetype="pdf")[number - 1]
    words = page.inner_text(quote).lstrip("…").split()[:4]  # "…": cut from a longer sentence
    hits = pdf_page.search_for(" ".join(words))
    assert hits and any(r.intersects(hit) for r in rects for hit in hits), (words, rects, hits)
    # and each box is drawn where its rectangle says, over the rendered page
    image = frame.locator(".page-canvas").bounding_box()
    box = frame.locator(".highlight").first.bounding_box()
    scale = image["width"] / pdf_page.rect.width
    assert abs((box["x"] - image["x"]) / scale - rects[0].x0) < 2
    assert abs((box["y"] - image["y"]) / scale - rects[0].y0) < 2
    assert page.errors == []


def test_upload_then_compare_and_a_hostile_document_stays_inert(browser, server, tmp_path):
    page = _page(browser, server, UPLOAD_TOKEN)
    hostile = tmp_path / "<img src=x onerror=window.__pwned=9>.txt"
    hostile.write_text(HOSTILE_TEXT, encoding="utf-8")
    page.set_input_files("#files", [str(dataset_pdf("Photronics")), str(hostile)])
    page.click("#upload-button")
    # (locators, not wait_for_function: the page's CSP forbids the eval that needs)
    sync_api.expect(page.locator("#documents tbody tr")).to_have_count(2, timeout=600_000)
    titles = page.locator("#documents tbody .doc-title").all_inner_texts()
    assert "OUTSOURCING AGREEMENT" in titles and "HOSTILE TEST AGREEMENT" in titles
    assert page.locator(".job-file .file-name").all_inner_texts()[1] == hostile.name

    page.goto(f"{server.url}/?q=Can either party terminate for convenience?")
    page.wait_for_selector("#group-exception")
    texts = " ".join(page.locator(".clause-text").all_inner_texts())
    # shown as text, not run
    assert "<script>window.__pwned = 1</script>" in texts
    assert '<img src=x onerror="window.__pwned = 2">' in texts
    hostile_cite = page.locator(".cite", has_text="HOSTILE TEST AGREEMENT").first
    hostile_cite.click()
    page.wait_for_selector("#viewer-text mark")
    assert "terminate" in page.inner_text("#viewer-text mark")

    page.goto(f"{server.url}/compare")
    page.fill("#question", "Can either party terminate for convenience?")
    page.click("#compare-form button")
    page.wait_for_selector("#compare-table tbody tr")
    rows = page.locator("#compare-table tbody tr")
    assert rows.count() == 2
    assert set(rows.locator(".doc-title").all_inner_texts()) == set(titles)
    for url in ("/documents", "/", "/compare", "/history"):
        page.goto(server.url + url)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__pwned") is None, url
        assert page.locator("img[src='x'], script:not([src])").count() == 0, url
    assert page.errors == []


def test_a_wrong_token_gets_401(browser, server):
    context = browser.new_context()
    page = context.new_page()
    assert page.goto(f"{server.url}/?token=wrong-token").status == 401
    assert "Access token needed" in page.inner_text("h1")
    assert page.goto(f"{server.url}/api/v1/health").status == 401
    context.close()
