"""Constants and helpers shared by the web tests."""

from contextlib import contextmanager
from pathlib import Path

from clausegraph.web.jobs import APP_RECORDS

TOKEN = "test-token-0123456789abcdef"
TEAM_TOKEN = "team-token-0123456789abcdef"
HOSTILE_TEXT = (
    "HOSTILE TEST AGREEMENT\n\n"
    "1. Definitions\n\n"
    "1.1 \"Widget\" means any gadget supplied under this Agreement.\n\n"
    "2. Termination\n\n"
    "2.1 Either party may terminate this Agreement for convenience "
    "<script>window.__pwned = 1</script> on thirty days notice "
    "<img src=x onerror=\"window.__pwned = 2\"> in writing to the other party.\n\n"
    "2.2 The Supplier may not terminate for convenience during the first year.\n"
)

CHROMIUM = "/usr/bin/chromium"
# Debian's Chromium as root in a container, on a machine without internet access.
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


@contextmanager
def launched_chromium(sync_api):
    """Debian's Chromium driven by Playwright (``sync_api``: playwright.sync_api)."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def uploaded_files(uploads: Path) -> list[Path]:
    """The files under ``uploads`` but the app's own records (job journal, question
    history, saved sets)."""
    return [p for p in uploads.rglob("*")
            if p.is_file() and p.relative_to(uploads).parts[0] not in APP_RECORDS]


class ServerThread:
    """A real uvicorn server for ``app`` on a free loopback port, in a daemon thread."""

    def __init__(self, app, port: int | None = None) -> None:
        import socket
        import threading

        import uvicorn

        if port is None:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
        self.port = port
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "ServerThread":
        import time

        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"the test server did not start on port {self.port}")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
