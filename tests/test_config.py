"""Settings: documented defaults, strict validation, ``--set section.field=value`` overrides."""

from __future__ import annotations

import pytest

from clausegraph.config import PROMPTS_DIR, RULES_DIR, RetrievalConfig, Settings
from clausegraph.models import RelationType


def test_overrides_are_parsed_and_validated() -> None:
    settings = Settings().with_overrides(["retrieval.hops=2", "retrieval.alpha=0.5",
                                          "segment.max_clause_chars=900"])
    assert settings.retrieval.hops == 2 and settings.retrieval.alpha == 0.5
    assert settings.segment.max_clause_chars == 900
    assert Settings().retrieval.hops == 1  # the original is unchanged


@pytest.mark.parametrize(("override", "message"), [
    ("retrieval.hopz=2", "unknown setting 'retrieval.hopz'"),
    ("nowhere.hops=2", "unknown setting 'nowhere.hops'"),
    ("retrieval.hops", "not of the form section.field=value"),
])
def test_unknown_or_malformed_overrides_are_errors(override: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings().with_overrides([override])


def test_values_out_of_range_are_rejected() -> None:
    with pytest.raises(ValueError, match="hops"):
        Settings().with_overrides(["retrieval.hops=9"])
    with pytest.raises(ValueError):
        RetrievalConfig(bm25_weight=1.5)
    with pytest.raises(ValueError):
        RetrievalConfig(top_k=5, topk=3)  # a typo is an error, not a silent default


def test_edge_types_accept_a_comma_separated_list() -> None:
    settings = Settings().with_overrides(["retrieval.edge_types=Defines, Overrides"])
    assert settings.retrieval.edge_types == [RelationType.DEFINES, RelationType.OVERRIDES]
    with pytest.raises(ValueError):
        Settings().with_overrides(["retrieval.edge_types=Defines,Likes"])


def test_rules_and_prompts_are_found() -> None:
    assert (RULES_DIR / "refers_to.yaml").is_file() or any(RULES_DIR.glob("*.yaml"))
    assert (PROMPTS_DIR / "context.md.j2").is_file()
