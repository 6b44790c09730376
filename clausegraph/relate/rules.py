"""Relation rules: the regex patterns of ``rules/*.yaml``, loaded, validated and compiled.

Rules are data so that a lawyer can read, test and extend them without touching Python.
Each relation type has one file::

    type: Overrides                      # a RelationType value
    description: ...
    confidence: 0.3                      # optional file default (SameSection has no patterns)
    settings: {overlap_top_k: 3}         # optional numeric knobs read by relate.py
    patterns:
      - id: overrides.notwithstanding_ref
        pattern: '(?i:notwithstanding)\\s+(?P<ref>{{REF}})'
        confidence: 0.9
        target: ref                      # how the other end of the edge is found
        direction: out                   # out: this clause -> target; in: target -> this clause
        requires: [notwithstanding]      # every match contains one of these (lower-cased)
        description: ...
        examples:
          - text: "Notwithstanding Section 5.2, ..."
            expect: {ref: "Section 5.2"}

Targets: ``ref`` resolves the ``(?P<ref>...)`` group to clauses; ``previous`` is the clause
before (sibling, else parent); ``enclosing`` is "this Section"; ``sibling`` is "paragraph (b)";
``term`` is a Defines term (``(?P<term>...)``); ``overlap`` links to clauses whose headings match
``target_where`` by shared words; ``external`` records an unresolved reference to another
instrument; ``ignore`` blocks other rules on text that only looks like a reference; ``none`` is
a cue that is counted, never linked. ``where`` restricts a rule to clauses whose headings or
section path match; ``max_start`` to matches that start near the clause start.

``{{NAME}}`` in a pattern is replaced by the (non-capturing) macro ``NAME`` of
``rules/macros.yaml``; macros keep the long cross-reference grammar in one place.
``expect`` maps group names (or ``match`` for the whole match) to the text that some match
of the pattern in ``text`` must capture; ``counter_examples`` must not match at all.
Examples are checked when the rules are loaded, so every rule file tests itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from clausegraph.config import RULES_DIR
from clausegraph.errors import ClauseGraphError
from clausegraph.models import RelationType

MACROS_FILE = "macros.yaml"
# Entity shapes live beside the rules but are loaded by clausegraph.entities.
ENTITIES_FILE = "entities.yaml"
_MACRO = re.compile(r"\{\{([A-Z][A-Z0-9_]*)\}\}")
_MAX_MACRO_DEPTH = 5
_FLAGS = {"IGNORECASE": re.IGNORECASE, "MULTILINE": re.MULTILINE, "DOTALL": re.DOTALL}

Target = Literal[
    "ref", "previous", "enclosing", "sibling", "term", "overlap", "external", "ignore", "none"
]
Direction = Literal["out", "in"]

# The id prefix every rule of a type must carry, e.g. "refers_to.section".
ID_PREFIXES: dict[RelationType, str] = {
    RelationType.DEFINES: "defines",
    RelationType.REFERS_TO: "refers_to",
    RelationType.OVERRIDES: "overrides",
    RelationType.ENTAILS: "entails",
    RelationType.CAUSES: "causes",
    RelationType.SAME_SECTION: "same_section",
}
# Which named group each target needs in the pattern.
_REQUIRED_GROUP: dict[str, str] = {"ref": "ref", "external": "ref", "term": "term"}


class RuleFileError(ClauseGraphError):
    """A rule file is missing, unreadable or invalid; names the file and the rule."""

    def __init__(self, path: str | Path, problem: str, rule_id: str | None = None) -> None:
        self.path = str(path)
        self.rule_id = rule_id
        self.problem = problem
        where = f"{self.path}: rule {rule_id!r}" if rule_id else self.path
        super().__init__(f"{where}: {problem}")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RuleExample(_Strict):
    """A real sentence and what the pattern must capture from it."""

    text: str = Field(min_length=1)
    expect: dict[str, str | None] = Field(
        min_length=1, description="group name (or 'match') -> captured text; null = not set"
    )


class Rule(_Strict):
    """One pattern of a relation type, with its provenance and how its edge is built."""

    id: str = Field(pattern=r"^[a-z_]+\.[a-z0-9_]+$")
    pattern: str = Field(min_length=1)
    confidence: float = Field(ge=0.0, le=1.0)
    description: str = Field(min_length=1)
    target: Target = "ref"
    direction: Direction = "out"
    flags: list[Literal["IGNORECASE", "MULTILINE", "DOTALL"]] = Field(default_factory=list)
    max_start: int | None = Field(
        default=None, ge=0, description="the match must start within this many clause chars"
    )
    where: str | None = Field(
        default=None, description="regex the clause's headings/section path must match"
    )
    target_where: str | None = Field(
        default=None, description="regex the target clause's headings must match (overlap)"
    )
    split_terms: bool = Field(
        default=False, description="split unquoted terms like 'Age / Aged' into alternatives"
    )
    requires: list[str] = Field(
        default_factory=list,
        description="lower-case strings one of which every match contains: a fast pre-check "
        "that skips the regex on clauses holding none of them (checked on the examples)",
    )
    examples: list[RuleExample] = Field(min_length=1)
    counter_examples: list[str] = Field(default_factory=list)

    _regex: re.Pattern[str] = PrivateAttr()
    _where: re.Pattern[str] | None = PrivateAttr(default=None)
    _target_where: re.Pattern[str] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check_target(self) -> Rule:
        if self.target == "overlap" and not self.target_where:
            raise ValueError("target 'overlap' needs target_where")
        if any(not item or item != item.lower() for item in self.requires):
            raise ValueError("requires entries must be non-empty and lower-case")
        return self

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern (macros expanded)."""
        return self._regex

    @property
    def where_regex(self) -> re.Pattern[str] | None:
        """The compiled ``where`` (None when the rule applies everywhere)."""
        return self._where

    def applies_to(self, scope: str) -> bool:
        """Whether a clause whose headings/section path read ``scope`` is in this rule's reach."""
        return self._where is None or self._where.search(scope) is not None

    def target_allowed(self, scope: str) -> bool:
        """Whether a clause whose headings read ``scope`` may be the target (overlap rules)."""
        return self._target_where is None or self._target_where.search(scope) is not None

    def compile(self, macros: dict[str, str]) -> None:
        """Expand macros and compile; raises ValueError with the regex problem."""
        flags = 0
        for name in self.flags:
            flags |= _FLAGS[name]
        self._regex = _compile(expand_macros(self.pattern, macros), flags, "pattern")
        required = _REQUIRED_GROUP.get(self.target)
        if required and required not in self._regex.groupindex:
            raise ValueError(f"target {self.target!r} needs a (?P<{required}>...) group")
        if self.where:
            self._where = _compile(self.where, 0, "where")
        if self.target_where:
            self._target_where = _compile(self.target_where, 0, "target_where")

    def check_examples(self) -> list[str]:
        """Problems with this rule's examples and counter-examples (empty when all hold)."""
        problems = [p for example in self.examples if (p := self._check_example(example))]
        for text in self.counter_examples:
            match = self._regex.search(text)
            if match:
                problems.append(f"counter-example {text[:60]!r} matches {match.group(0)!r}")
        return problems

    def _check_example(self, example: RuleExample) -> str | None:
        found: list[dict[str, str | None]] = []
        for match in self._regex.finditer(example.text):
            text = match.group(0).lower()
            if self.requires and not any(item in text for item in self.requires):
                return f"match {match.group(0)!r} contains none of requires {self.requires}"
            captured = {name: _group(match, name) for name in example.expect}
            if captured == example.expect and self.start_ok(match.start()):
                return None
            found.append(captured)
        seen = f"captured {found}" if found else "no match"
        return f"example {example.text[:60]!r}: expected {example.expect}, {seen}"

    def start_ok(self, start: int) -> bool:
        return self.max_start is None or start <= self.max_start


class RuleFile(_Strict):
    """The content of one ``rules/<type>.yaml`` file."""

    type: RelationType
    description: str = Field(min_length=1)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    settings: dict[str, float] = Field(default_factory=dict)
    patterns: list[Rule] = Field(default_factory=list)


@dataclass
class RuleSet:
    """All relation rules, by type, compiled and checked."""

    files: dict[RelationType, RuleFile] = field(default_factory=dict)
    sources: dict[RelationType, Path] = field(default_factory=dict)
    macros: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, rules_dir: Path | str = RULES_DIR, check_examples: bool = True) -> RuleSet:
        """Load every ``*.yaml`` rule file of ``rules_dir``; raise RuleFileError on a bad one."""
        directory = Path(rules_dir)
        if not directory.is_dir():
            raise RuleFileError(directory, "rules directory not found")
        macros = _load_macros(directory / MACROS_FILE)
        ruleset = cls(macros=macros)
        seen_ids: dict[str, Path] = {}
        for path in sorted(directory.glob("*.yaml")):
            if path.name in (MACROS_FILE, ENTITIES_FILE):
                continue
            rule_file = _load_rule_file(path, macros, check_examples)
            if rule_file.type in ruleset.files:
                other = ruleset.sources[rule_file.type]
                raise RuleFileError(path, f"type {rule_file.type.value} already defined in {other}")
            for rule in rule_file.patterns:
                if rule.id in seen_ids:
                    other = seen_ids[rule.id]
                    raise RuleFileError(path, f"duplicate id (also in {other})", rule.id)
                seen_ids[rule.id] = path
            ruleset.files[rule_file.type] = rule_file
            ruleset.sources[rule_file.type] = path
        return ruleset

    def for_type(self, relation: RelationType) -> list[Rule]:
        """The rules of one relation type, in file order (empty if it has no file)."""
        rule_file = self.files.get(relation)
        return list(rule_file.patterns) if rule_file else []

    def confidence(self, relation: RelationType, default: float) -> float:
        """The file-level confidence of a relation type (e.g. SameSection)."""
        rule_file = self.files.get(relation)
        if rule_file is None or rule_file.confidence is None:
            return default
        return rule_file.confidence

    def setting(self, relation: RelationType, name: str, default: float) -> float:
        """A numeric knob from a rule file's ``settings`` block."""
        rule_file = self.files.get(relation)
        return rule_file.settings.get(name, default) if rule_file else default

    def rule(self, rule_id: str) -> Rule:
        """The rule with this id; KeyError if there is none."""
        for rule_file in self.files.values():
            for rule in rule_file.patterns:
                if rule.id == rule_id:
                    return rule
        raise KeyError(rule_id)

    def macro(self, name: str) -> str | None:
        """A macro of ``macros.yaml`` with nested macros expanded (None if undefined)."""
        if name not in self.macros:
            return None
        return expand_macros(self.macros[name], self.macros)

    def all_rules(self) -> list[Rule]:
        """Every rule of every type."""
        return [rule for rule_file in self.files.values() for rule in rule_file.patterns]


def expand_macros(pattern: str, macros: dict[str, str]) -> str:
    """Replace ``{{NAME}}`` by ``(?:<macro>)``, recursively; unknown names are an error."""
    for _ in range(_MAX_MACRO_DEPTH):
        if not _MACRO.search(pattern):
            return pattern
        pattern = _MACRO.sub(lambda m: f"(?:{_macro(macros, m.group(1))})", pattern)
    raise ValueError(f"macros nested deeper than {_MAX_MACRO_DEPTH} levels")


def _macro(macros: dict[str, str], name: str) -> str:
    if name not in macros:
        raise ValueError(f"unknown macro {{{{{name}}}}} (not in {MACROS_FILE})")
    return macros[name]


def _compile(pattern: str, flags: int, what: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, flags)
    except re.error as exc:
        raise ValueError(f"{what} is not a valid regex: {exc}") from exc


def _group(match: re.Match[str], name: str) -> str | None:
    if name == "match":
        return match.group(0)
    if name not in match.re.groupindex:
        return f"<no group {name!r}>"
    return match.group(name)


def read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFileError(path, f"cannot read: {exc}") from exc
    except yaml.YAMLError as exc:
        raise RuleFileError(path, f"invalid YAML: {exc}") from exc


def _load_macros(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    data = read_yaml(path)
    macros = data.get("macros") if isinstance(data, dict) else None
    if not isinstance(macros, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in macros.items()
    ):
        raise RuleFileError(path, "expected a 'macros' mapping of NAME -> regex string")
    for name, body in macros.items():
        try:
            _compile(expand_macros(body, macros), 0, f"macro {name}")
        except ValueError as exc:
            raise RuleFileError(path, str(exc)) from exc
    return macros


def _load_rule_file(path: Path, macros: dict[str, str], check_examples: bool) -> RuleFile:
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise RuleFileError(path, "expected a mapping with type, description and patterns")
    try:
        rule_file = RuleFile.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(path, data, exc) from exc
    prefix = ID_PREFIXES[rule_file.type]
    for rule in rule_file.patterns:
        _prepare_rule(path, rule, prefix, macros, check_examples)
    return rule_file


def _prepare_rule(
    path: Path, rule: Rule, prefix: str, macros: dict[str, str], check_examples: bool
) -> None:
    if not rule.id.startswith(prefix + "."):
        raise RuleFileError(path, f"id must start with {prefix + '.'!r}", rule.id)
    if prefix == "defines" and rule.target != "term":
        raise RuleFileError(path, "Defines rules need target: term", rule.id)
    try:
        rule.compile(macros)
    except ValueError as exc:
        raise RuleFileError(path, str(exc), rule.id) from exc
    problems = rule.check_examples() if check_examples else []
    if problems:
        raise RuleFileError(path, "; ".join(problems), rule.id)


def _validation_error(path: Path, data: dict[str, Any], exc: ValidationError) -> RuleFileError:
    """Turn pydantic's error into one line naming the rule id when the error is inside one."""
    first = exc.errors()[0]
    loc = first["loc"]
    rule_id = None
    if len(loc) >= 2 and loc[0] == "patterns" and isinstance(loc[1], int):
        patterns = data.get("patterns") or []
        entry = patterns[loc[1]] if loc[1] < len(patterns) else None
        rule_id = entry.get("id") if isinstance(entry, dict) else None
        rule_id = rule_id or f"patterns[{loc[1]}]"
        loc = loc[2:]
    where = ".".join(str(part) for part in loc) or "file"
    extra = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return RuleFileError(path, f"{where}: {first['msg']}{extra}", rule_id)
