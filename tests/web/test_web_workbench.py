"""The analyst's workbench in a real browser (issue 27 items 3-8), each at desktop size and
on a phone (390x844): Playwright driving Debian's Chromium against a real server.

Set CLAUSEGRAPH_SCREENSHOTS=DIR to keep a screenshot of each step there.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
from pathlib import Path

import pymupdf
import pytest

from clausegraph.web.app import create_app
from tests.web.web_support import CHROMIUM, ServerThread, launched_chromium, uploaded_files

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)",
)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect
expect.set_options(timeout=30_000)  # a page drawn on a busy machine

QUESTION = "What are the payment terms for product invoices?"
OTHER_QUESTION = "Can either party terminate the agreement for convenience?"
SIZES = {"desktop": {"width": 1400, "height": 1000}, "phone": {"width": 390, "height": 844}}
TIMEOUT_MS = 90_000
PAGES = ("/", "/documents", "/compare", "/history", "/docs")


@pytest.fixture(scope="module")
def server(web_index):
    with ServerThread(create_app(web_index)) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with launched_chromium(sync_api) as launched:
        yield launched


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param


def _page(browser, size: str):
    context = browser.new_context(viewport=SIZES[size], accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.errors = []
    page.warnings = []  # shown when a page is not drawn (the viewer warns why)
    page.streams = []  # every question asked (not shown from the history)
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("console", lambda m: page.warnings.append(m.text) if m.type == "warning" else None)
    page.on("request", lambda r: page.streams.append(r.url) if "/ask/stream" in r.url else None)
    return page


def _shot(page, name: str) -> None:
    folder = os.environ.get("CLAUSEGRAPH_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def _ask(page, question: str) -> None:
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.wait_for_selector("#group-exception")
    expect(page).to_have_url(re.compile(r"[?&]a="))


def _expect_drawn(page, frame) -> None:
    try:
        expect(frame).to_have_attribute("data-drawn", "true")
    except AssertionError as error:
        raise AssertionError(f"{error}\nthe browser's warnings: {page.warnings}") from None


def _open_citation(page) -> None:
    several = page.locator("#direct-by-document li").count()
    page.click("#direct-by-document li:first-child .cite" if several else "#direct-cite")
    page.wait_for_selector("#viewer:not([hidden]) .highlight")


def _no_sideways_scroll(page, size: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], (page.url, width)


# -- 8: messages, the question box, Esc -----------------------------------------------------


def test_question_box_is_focused_shows_its_limit_and_esc_closes_the_viewer(browser, server, size):
    page = _page(browser, size)
    page.goto(server.url + "/")
    expect(page.locator("#question")).to_be_focused()
    expect(page.locator("#question-limit")).to_have_text("Up to 2,000 characters.")
    page.fill("#question", "x" * 1900)
    expect(page.locator("#question-limit")).to_have_text("1,900 of 2,000 characters.")
    page.fill("#question", "z" * 2000)
    expect(page.locator("#question-limit")).to_contain_text("the limit is reached")
    expect(page.locator("#question-limit")).to_have_class("hint limit error")
    _shot(page, f"8-limit-{size}")
    _ask(page, QUESTION)
    _open_citation(page)
    page.keyboard.press("Escape")
    expect(page.locator("#viewer")).to_be_hidden()
    # an error in words, without the server's paths
    page.goto(server.url + "/?q=" + "w" * 2100)
    expect(page.locator("#status")).to_have_text(
        "The question is too long: at most 2000 characters.")
    _shot(page, f"8-error-{size}")
    assert page.errors == []


# -- 6: history that is history -----------------------------------------------------------


def test_each_answer_has_its_own_address_and_is_shown_again_without_asking(
        browser, server, size):
    page = _page(browser, size)
    page.goto(server.url + "/")
    _ask(page, QUESTION)
    first_url, first_answer = page.url, page.inner_text("#answer-card .direct")
    assert len(page.streams) == 1
    page.reload()
    page.wait_for_selector("#group-exception")
    assert page.inner_text("#answer-card .direct") == first_answer
    expect(page.locator("#status")).to_contain_text("not asked again")
    assert len(page.streams) == 1 and page.input_value("#question") == QUESTION
    _ask(page, OTHER_QUESTION)
    second_url = page.url
    assert second_url != first_url and len(page.streams) == 2
    page.go_back()
    expect(page).to_have_url(first_url)
    expect(page.locator("#answer-card .direct")).to_have_text(first_answer)
    assert page.input_value("#question") == QUESTION
    page.go_forward()
    expect(page).to_have_url(second_url)
    expect(page.locator("#answer-question")).to_have_text(OTHER_QUESTION)
    assert len(page.streams) == 2  # Back, Forward and reload asked nothing
    page.goto(server.url + "/history")
    rows = page.locator("#history tbody tr")
    expect(rows).to_have_count(2)
    assert rows.nth(0).locator(".history-question").inner_text() == OTHER_QUESTION
    _shot(page, f"6-history-{size}")
    rows.nth(1).locator(".history-question").click()
    expect(page.locator("#answer-card .direct")).to_have_text(first_answer)
    assert len(page.streams) == 2
    # an address whose answer the server no longer has says so, and asks nothing
    page.goto(server.url + "/?a=000000000000&q=" + QUESTION)
    expect(page.locator("#status")).to_contain_text("no longer stored")
    assert page.input_value("#question") == QUESTION and len(page.streams) == 2
    # (Chromium logs the 404 of that look-up itself)
    assert [e for e in page.errors if "status of 404" not in e] == []


# -- 4: the phone layout --------------------------------------------------------------------


def test_no_page_scrolls_sideways_and_the_viewer_opens_in_view(browser, server, size):
    page = _page(browser, size)
    for path in PAGES:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        _no_sideways_scroll(page, size)
    page.goto(server.url + "/")
    _ask(page, QUESTION)
    _no_sideways_scroll(page, size)
    if page.locator("#chain-card").is_visible():
        # on a phone the chain is a list of steps; on a desktop a drawn graph
        steps = page.locator("#chain .chain-steps li")
        assert (steps.count() > 0) == (size == "phone")
        assert (page.locator("#chain .chain-svg").count() > 0) == (size == "desktop")
    _shot(page, f"4-ask-{size}")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator(".clause-card .cite").last.click()
    page.wait_for_selector("#viewer:not([hidden]) .highlight")
    viewer = page.locator("#viewer").bounding_box()
    height = SIZES[size]["height"]
    assert 0 <= viewer["y"] < height / 2 and viewer["y"] + viewer["height"] <= height + 1
    assert viewer["x"] >= 0 and viewer["x"] + viewer["width"] <= SIZES[size]["width"] + 1
    mark = page.locator("#viewer .highlight").first.bounding_box()
    assert 0 <= mark["y"] <= height, mark  # the cited span is in view, not below the page
    _no_sideways_scroll(page, size)
    _shot(page, f"4-viewer-{size}")
    page.goto(server.url + "/compare")
    page.fill("#question", QUESTION)
    page.press("#question", "Enter")
    page.wait_for_selector("#compare-table tbody tr")
    cell = page.locator("#compare-table tbody td").first
    display = cell.evaluate("td => getComputedStyle(td).display")
    assert display == ("block" if size == "phone" else "table-cell")
    _no_sideways_scroll(page, size)
    _shot(page, f"4-compare-{size}")
    assert page.errors == []


# -- 3: the PDF viewer --------------------------------------------------------------------


def test_the_whole_pdf_opens_at_the_cited_page_with_the_span_highlighted(browser, server, size):
    page = _page(browser, size)
    page.goto(server.url + "/")
    _ask(page, QUESTION)
    _open_citation(page)
    mark = page.locator("#viewer .pdf-page .highlight").first
    frame = page.locator("#viewer .pdf-page", has=page.locator(".highlight")).first
    number = int(frame.get_attribute("data-page"))
    expect(page.locator("#viewer-page")).to_have_value(str(number))
    count = int(page.inner_text("#viewer-count"))
    assert count == page.locator("#viewer .pdf-page").count() > 1  # the whole document
    _expect_drawn(page, frame)
    # the highlight is drawn where pymupdf finds the quoted words on that page
    title = page.inner_text("#viewer-title")
    doc = next(d for d in page.request.get(f"{server.url}/api/v1/documents").json()
               if d["title"] == title)
    original = page.request.get(f"{server.url}/api/v1/documents/{doc['doc_id']}/original").body()
    pdf_page = pymupdf.open(stream=original, filetype="pdf")[number - 1]
    rect = pymupdf.Rect(*map(float, mark.get_attribute("data-rect").split(",")))
    box, frame_box = mark.bounding_box(), frame.bounding_box()
    scale = frame_box["width"] / pdf_page.rect.width
    assert abs((box["x"] - frame_box["x"]) / scale - rect.x0) < 2
    assert abs((box["y"] - frame_box["y"]) / scale - rect.y0) < 2
    body = page.locator("#viewer-body").bounding_box()
    assert body["y"] <= box["y"] <= body["y"] + body["height"]  # scrolled into view
    # the text is selectable: the text layer holds the page's words
    layer_text = " ".join(frame.locator(".textLayer span").all_inner_texts())
    words = pdf_page.get_text("text", clip=rect).split()
    assert words and words[0] in layer_text
    frame.locator(".textLayer span").first.dblclick()
    assert page.evaluate("getSelection().toString().trim()")
    _shot(page, f"3-viewer-{size}")
    # page navigation and zoom
    if number < count:
        page.click("#viewer-next")
        expect(page.locator("#viewer-page")).to_have_value(str(number + 1))
        page.click("#viewer-prev")
        expect(page.locator("#viewer-page")).to_have_value(str(number))
    page.fill("#viewer-page", "1")
    page.press("#viewer-page", "Enter")
    first = page.locator("#viewer .pdf-page").first
    _expect_drawn(page, first)
    body = page.locator("#viewer-body").bounding_box()
    assert body["y"] - 1 <= first.bounding_box()["y"] <= body["y"] + body["height"]  # jumped to
    before = page.locator("#viewer .pdf-page").first.bounding_box()["width"]
    zoom = page.inner_text("#viewer-zoom")
    page.click("#viewer-zoom-in")
    expect(page.locator("#viewer-zoom")).not_to_have_text(zoom)
    after = page.locator("#viewer .pdf-page").first.bounding_box()["width"]
    assert after == pytest.approx(before * 1.25, rel=0.03)
    _shot(page, f"3-zoomed-{size}")
    # the server's page image stays as the fallback view
    page.click("#viewer-mode")
    page.wait_for_selector("#viewer .page-image")
    expect(page.locator("#viewer .page-frame .highlight").first).to_be_visible()
    assert page.errors == []


# -- 5: document choice and Compare export --------------------------------------------------


def test_documents_can_be_chosen_and_a_comparison_downloaded(browser, server, size, tmp_path):
    page = _page(browser, size)
    page.goto(server.url + "/compare")
    page.click("#doc-picker summary")
    options = page.locator("#doc-options input")
    expect(options).to_have_count(3)
    options.nth(1).check()
    chosen = page.locator("#doc-options li").nth(1).locator(".doc-option-title").inner_text()
    expect(page.locator("#doc-picker-summary")).to_have_text(chosen)
    page.fill("#question", QUESTION)
    page.click("#compare-form button")
    expect(page.locator("#compare-table tbody tr")).to_have_count(1)
    assert page.locator("#compare-table .doc-title").inner_text() == chosen
    _shot(page, f"5-compare-{size}")
    with page.expect_download() as download:
        page.click("#export-csv")
    saved = tmp_path / "compare.csv"
    download.value.save_as(saved)
    rows = list(csv.DictReader(saved.open(encoding="utf-8")))
    assert [row["document"] for row in rows] == [chosen]
    # the choice is remembered for Ask, and limits its evidence to that document
    page.goto(server.url + "/")
    expect(page.locator("#doc-picker-summary")).to_have_text(chosen)
    _ask(page, QUESTION)
    cited = page.locator("#evidence .clause-card .cite").all_inner_texts()
    assert cited and all(c.startswith(chosen) for c in cited)
    page.click("#doc-picker summary")
    page.click("#doc-picker-clear")
    expect(page.locator("#doc-picker-summary")).to_have_text("all 3")
    assert page.errors == []


# -- 7: an upload across a restart --------------------------------------------------------

RESTART_TEXT = ("RESTART TEST AGREEMENT\n\n1. Term\n\n1.1 This Agreement runs for two years "
                "from the Effective Date.\n\n2. Termination\n\n2.1 Either party may terminate "
                "on ninety days notice in writing.\n")


def test_an_upload_shows_a_lost_connection_and_finishes_after_a_restart(
        browser, web_index, tmp_path, size):
    index = tmp_path / "index"
    shutil.copytree(web_index, index)
    upload = tmp_path / f"restart-{size}.txt"
    upload.write_text(RESTART_TEXT.replace("RESTART", f"RESTART {size.upper()}"), encoding="utf-8")
    page = _page(browser, size)
    first = ServerThread(create_app(index, warm=False)).__enter__()
    port = first.port
    try:
        page.goto(first.url + "/documents")
        page.set_input_files("#files", str(upload))
        page.click("#upload-button")
        page.wait_for_selector("#job-files li")
    finally:
        first.__exit__(None, None, None)  # the server stops while the page follows the job
    expect(page.locator("#upload-status")).to_contain_text("Lost the connection", timeout=30_000)
    _no_sideways_scroll(page, size)
    _shot(page, f"7-lost-{size}")
    with ServerThread(create_app(index, warm=False), port=port):
        expect(page.locator("#upload-status")).to_contain_text("Done", timeout=600_000)
        # the page says "Done." and then reloads the document list: wait for the list
        expect(page.locator("#documents tbody .doc-title").filter(
            has_text=f"RESTART {size.upper()} TEST AGREEMENT")).to_have_count(1, timeout=30_000)
        _shot(page, f"7-done-{size}")
    # failed fetches while the server was down are the browser's, not the page's errors
    assert not [e for e in page.errors if "Failed to fetch" not in e
                and "ERR_CONNECTION_REFUSED" not in e]
    # the uploads folder keeps the new document's original and nothing else
    leftovers = [p.name for p in uploaded_files(index / ".uploads")]
    assert leftovers == [upload.name], leftovers


# -- stored answers across a restart, and saved document sets --------------------------------


def test_an_answer_is_shown_again_after_the_server_restarts(browser, web_index, tmp_path, size):
    index = tmp_path / "index"
    shutil.copytree(web_index, index)
    page = _page(browser, size)
    first = ServerThread(create_app(index, warm=False)).__enter__()
    port = first.port
    try:
        page.goto(first.url + "/")
        _ask(page, QUESTION)
        answer_url, answer = page.url, page.inner_text("#answer-card .direct")
    finally:
        first.__exit__(None, None, None)
    with ServerThread(create_app(index, warm=False), port=port) as second:
        page.reload()  # the answer's own address, now served by a new process
        page.wait_for_selector("#group-exception")
        expect(page.locator("#answer-card .direct")).to_have_text(answer)
        expect(page.locator("#status")).to_contain_text("not asked again")
        assert page.url == answer_url and page.input_value("#question") == QUESTION
        _shot(page, f"9-restarted-{size}")
        page.goto(second.url + "/history")
        expect(page.locator("#history tbody tr")).to_have_count(1)
        page.locator(".history-question").click()
        expect(page.locator("#answer-card .direct")).to_have_text(answer)
        assert len(page.streams) == 1  # asked once, before the restart
    assert page.errors == []


def test_a_set_saved_on_ask_is_picked_on_compare(browser, server, size):
    name = f"Zwei Verträge – {size}"  # a label: any Unicode
    page = _page(browser, size)
    page.goto(server.url + "/")
    page.click("#doc-picker summary")
    options = page.locator("#doc-options input")
    expect(options).to_have_count(3)
    chosen = [page.locator("#doc-options .doc-option-title").nth(i).inner_text() for i in (0, 2)]
    options.nth(0).check()
    options.nth(2).check()
    page.click("#doc-set-new")
    expect(page.locator("#doc-set-name")).to_be_focused()
    page.press("#doc-set-name", "Enter")  # no name yet: said in words, the box stays open
    expect(page.locator("#doc-set-status")).to_have_text("The set name is empty: type one first.")
    expect(page.locator("#doc-set-name")).to_be_visible()
    _no_sideways_scroll(page, size)
    page.fill("#doc-set-name", name)
    _shot(page, f"10-name-{size}")
    page.press("#doc-set-name", "Enter")
    saved = f"Saved the set “{name}” (2 documents)."
    expect(page.locator("#doc-set-status")).to_have_text(saved)
    expect(page.locator("#doc-set-form")).to_be_hidden()
    expect(page.locator("#doc-set")).to_have_value(name)
    expect(page.locator("#doc-picker-summary")).to_have_text(f"{name} (2)")
    _shot(page, f"10-saved-{size}")
    # on Compare, with the ticks cleared, the set ticks its documents again
    page.goto(server.url + "/compare")
    page.click("#doc-picker summary")
    page.click("#doc-picker-clear")
    expect(page.locator("#doc-picker-summary")).to_have_text("all 3")
    expect(page.locator("#doc-set")).to_have_value("")
    page.select_option("#doc-set", name)
    expect(page.locator("#doc-options input:checked")).to_have_count(2)
    expect(page.locator("#doc-picker-summary")).to_have_text(f"{name} (2)")
    page.fill("#question", QUESTION)
    page.click("#compare-form button")
    expect(page.locator("#compare-table tbody tr")).to_have_count(2)
    assert sorted(page.locator("#compare-table .doc-title").all_inner_texts()) == sorted(chosen)
    _no_sideways_scroll(page, size)
    _shot(page, f"10-compare-{size}")
    # unticking one leaves the set; saving with nothing ticked says what to do; delete
    options.nth(0).uncheck()
    expect(page.locator("#doc-set")).to_have_value("")
    expect(page.locator("#doc-set-delete")).to_be_hidden()
    page.select_option("#doc-set", name)
    page.click("#doc-set-delete")
    expect(page.locator("#doc-set-status")).to_contain_text(f"Deleted the set “{name}”")
    expect(page.locator("#doc-set option", has_text=name)).to_have_count(0)
    page.click("#doc-picker-clear")
    page.click("#doc-set-new")
    expect(page.locator("#doc-set-status")).to_have_text("Tick the documents of the set first.")
    expect(page.locator("#doc-set-form")).to_be_hidden()
    # (Chromium logs the 400 of the nameless save itself)
    assert [e for e in page.errors if "status of 400" not in e] == []
