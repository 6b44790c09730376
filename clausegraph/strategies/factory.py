"""Named retrieval strategies, selectable with ``--strategy`` everywhere.

The registry maps a name to a strategy class (or preset) and is filled here, explicitly.
Parameterised names are aliases parsed into a config, never special cases inside a
strategy: ``causal-k{K}-s{S}`` is ``causal`` with ``k=K, s=S`` (CausalRAG's grid), and
``lesegr-fitted`` is ``lesegr`` with the weights file of the settings
(``strategies.lesegr_weights``, default ``docs/lesegr_weights.json``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from pydantic import ValidationError

from clausegraph.config import StrategySettings
from clausegraph.strategies.base import Strategy
from clausegraph.strategies.causal import CausalStrategy
from clausegraph.strategies.causal_search import CausalSearchStrategy
from clausegraph.strategies.e2rag import E2RAGStrategy
from clausegraph.strategies.lesegr import LeSeGRStrategy
from clausegraph.strategies.presets import PRESETS, PresetStrategy

_REGISTRY: dict[str, Callable[..., Strategy]] = {
    **{name: partial(PresetStrategy, name, fixed) for name, fixed in PRESETS.items()},
    "causal": CausalStrategy,
    "causal-search": CausalSearchStrategy,
    "e2rag": E2RAGStrategy,
    "lesegr": LeSeGRStrategy,
}
_CAUSAL_GRID = re.compile(r"causal-k(\d+)-s(\d+)")
FITTED_LESEGR = "lesegr-fitted"


def register(name: str, factory: Callable[..., Strategy]) -> None:
    """Make a strategy available by name (a plug-in strategy from outside the package)."""
    _REGISTRY[name] = factory


def strategy_names() -> list[str]:
    """The registered names (aliases such as ``causal-k2-s4`` are not listed)."""
    return sorted(_REGISTRY)


def causal_grid(
    k_values: Iterable[int] = range(1, 6), s_values: Iterable[int] | None = None
) -> list[str]:
    """The ``causal-k{k}-s{s}`` names for every k and s (1..5 by default)."""
    k_values = list(k_values)
    s_values = list(s_values) if s_values is not None else k_values
    return [f"causal-k{k}-s{s}" for k in k_values for s in s_values]


def resolve_alias(name: str, settings: StrategySettings | None = None) -> tuple[str, dict[str, Any]]:
    """The registered strategy behind ``name`` and the parameters the name stands for."""
    settings = settings or StrategySettings()
    grid = _CAUSAL_GRID.fullmatch(name)
    if grid and name not in _REGISTRY:
        return "causal", {"k": int(grid.group(1)), "s": int(grid.group(2))}
    if name == FITTED_LESEGR:
        return "lesegr", {"weights_file": settings.lesegr_weights, "name": FITTED_LESEGR}
    if name == "causal-search" and settings.causal_dir is not None:
        return name, {"output_dir": settings.causal_dir}
    return name, {}


def create_strategy(name: str, settings: StrategySettings | None = None, **params: Any) -> Strategy:
    """The strategy called ``name`` with ``params`` (fields of its config) on top of what
    the name and ``settings`` imply; ``ValueError`` lists the known names or says which
    parameter is wrong."""
    base, implied = resolve_alias(name, settings)
    if base not in _REGISTRY:
        raise ValueError(f"unknown strategy {name!r}; choose one of: {', '.join(strategy_names())}"
                         f" (or causal-k<K>-s<S>, {FITTED_LESEGR})")
    if base in PRESETS and params:
        raise ValueError(f"strategy {name!r} takes no parameters (got {', '.join(params)})")
    try:
        return _REGISTRY[base](**{**implied, **params})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])) or "config"
        raise ValueError(f"strategy {name!r}: {where}: {first['msg']}") from exc
