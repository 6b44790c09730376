"""Jinja templates in ``prompts/``: answers, LLM prompts and reports all render through here."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import jinja2

from clausegraph.config import PROMPTS_DIR


@lru_cache(maxsize=4)
def template_environment(prompts_dir: str = str(PROMPTS_DIR)) -> jinja2.Environment:
    """Jinja environment over ``prompts/``; undefined variables are errors, not blanks."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(prompts_dir),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # PDF text breaks lines mid-sentence; quotes are shown on one line (spans stay exact).
    environment.filters["squash"] = lambda text: " ".join(str(text).split())
    return environment


def template_hash(name: str, prompts_dir: Path = PROMPTS_DIR) -> str:
    """sha256 (12 hex) of a template file, recorded in answers and reports."""
    return hashlib.sha256((prompts_dir / name).read_bytes()).hexdigest()[:12]


def render(name: str, **values: object) -> str:
    return template_environment().get_template(name).render(**values)
