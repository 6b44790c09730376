"""ONNX Runtime's thread count (embed/onnx.py)."""

from __future__ import annotations

import os


def test_onnx_threads_follow_the_environment(monkeypatch):
    from clausegraph.embed.onnx import compute_threads

    monkeypatch.setenv("CLAUSEGRAPH_THREADS", "1")
    assert compute_threads() == 1
    monkeypatch.setenv("CLAUSEGRAPH_THREADS", "many")
    assert compute_threads() == max(1, os.cpu_count() or 1)
    monkeypatch.delenv("CLAUSEGRAPH_THREADS")
    assert compute_threads() == max(1, os.cpu_count() or 1)
