"""The rule files under rules/: every rule's own examples hold, and bad files fail clearly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from clausegraph.config import RULES_DIR
from clausegraph.models import RelationType
from clausegraph.relate.rules import ID_PREFIXES, MACROS_FILE, Rule, RuleFileError, RuleSet

RULES = RuleSet.load(RULES_DIR, check_examples=False)
ALL_RULES = RULES.all_rules()


@pytest.mark.parametrize("rule", ALL_RULES, ids=[rule.id for rule in ALL_RULES])
def test_rule_examples_match_as_declared(rule: Rule) -> None:
    """Each example sentence yields the declared captures; counter-examples do not match."""
    assert rule.check_examples() == []


def test_every_pattern_relation_has_a_rule_file() -> None:
    for relation in RelationType:
        assert relation in RULES.files, f"no rule file for {relation.value}"
    assert RULES.for_type(RelationType.SAME_SECTION) == []
    assert RULES.confidence(RelationType.SAME_SECTION, 0.9) == 0.3


def test_rule_ids_are_unique_and_prefixed_by_their_type() -> None:
    ids = [rule.id for rule in ALL_RULES]
    assert len(ids) == len(set(ids))
    for relation, rule_file in RULES.files.items():
        for rule in rule_file.patterns:
            assert rule.id.startswith(ID_PREFIXES[relation] + ".")


def test_for_type_keeps_file_order() -> None:
    ids = [rule.id for rule in RULES.for_type(RelationType.OVERRIDES)]
    assert ids[0] == "overrides.notwithstanding_ref"
    assert "overrides.subject_to" in ids


def test_macros_are_expanded_in_patterns() -> None:
    pattern = RULES.rule("refers_to.section").regex.pattern
    assert "{{" not in pattern
    assert "Sections 11.1 and 11.5" == RULES.rule("refers_to.section").regex.search(
        "Notwithstanding the obligations set forth in Sections 11.1 and 11.5, a Party may"
    ).group("ref")


# ----------------------------------------------------------------------------- bad files


def _copy_rules(tmp_path: Path) -> Path:
    target = tmp_path / "rules"
    shutil.copytree(RULES_DIR, target)
    return target


def _edit_rule(rules_dir: Path, file_name: str, rule_id: str, **changes: object) -> None:
    path = rules_dir / file_name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for rule in data["patterns"]:
        if rule["id"] == rule_id:
            for key, value in changes.items():
                if value is None:
                    rule.pop(key, None)
                else:
                    rule[key] = value
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def _load_error(rules_dir: Path) -> RuleFileError:
    with pytest.raises(RuleFileError) as caught:
        RuleSet.load(rules_dir)
    return caught.value


def test_invalid_regex_names_file_and_rule(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    _edit_rule(rules_dir, "overrides.yaml", "overrides.subject_to", pattern="(?P<ref>Section [0-9")
    error = _load_error(rules_dir)
    assert error.path.endswith("overrides.yaml")
    assert error.rule_id == "overrides.subject_to"
    assert "not a valid regex" in str(error)
    assert "overrides.yaml: rule 'overrides.subject_to'" in str(error)


def test_missing_confidence_names_the_rule(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    _edit_rule(rules_dir, "entails.yaml", "entails.pursuant_to", confidence=None)
    error = _load_error(rules_dir)
    assert error.rule_id == "entails.pursuant_to"
    assert "confidence" in str(error)


def test_confidence_out_of_range_is_rejected(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    _edit_rule(rules_dir, "causes.yaml", "causes.breach_of", confidence=1.5)
    error = _load_error(rules_dir)
    assert error.rule_id == "causes.breach_of" and "confidence" in str(error)


def test_example_that_no_longer_matches_is_an_error(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    # A real sentence with a different captured section than the rule file declares.
    examples = [{"text": "subject to Section 9.19 hereof, neither Party shall be liable",
                 "expect": {"ref": "Section 9.2"}}]
    _edit_rule(rules_dir, "overrides.yaml", "overrides.subject_to", examples=examples)
    error = _load_error(rules_dir)
    assert error.rule_id == "overrides.subject_to"
    assert "Section 9.19" in str(error) and "Section 9.2" in str(error)


def test_ref_target_without_ref_group_is_an_error(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    examples = [{"text": "pursuant to Section 14", "expect": {"match": "pursuant to"}}]
    _edit_rule(rules_dir, "entails.yaml", "entails.pursuant_to", pattern="pursuant to",
               examples=examples)
    error = _load_error(rules_dir)
    assert error.rule_id == "entails.pursuant_to" and "(?P<ref>" in str(error)


def test_unknown_macro_is_an_error(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    _edit_rule(rules_dir, "causes.yaml", "causes.breach_of", pattern="breach of (?P<ref>{{NOPE}})")
    error = _load_error(rules_dir)
    assert error.rule_id == "causes.breach_of" and "NOPE" in str(error)


def test_wrong_id_prefix_is_an_error(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    _edit_rule(rules_dir, "causes.yaml", "causes.breach_of", id="entails.breach_of")
    error = _load_error(rules_dir)
    assert error.rule_id == "entails.breach_of" and "causes." in str(error)


def test_unknown_key_is_an_error(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    _edit_rule(rules_dir, "defines.yaml", "defines.means", confidnce=0.4)
    error = _load_error(rules_dir)
    assert error.rule_id == "defines.means" and "confidnce" in str(error)


def test_bad_yaml_names_the_file(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    (rules_dir / "entails.yaml").write_text("type: Entails\npatterns: [\n", encoding="utf-8")
    error = _load_error(rules_dir)
    assert error.path.endswith("entails.yaml") and "invalid YAML" in str(error)


def test_two_files_for_one_type_is_an_error(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    shutil.copy(rules_dir / "causes.yaml", rules_dir / "causes_copy.yaml")
    error = _load_error(rules_dir)
    assert "Causes" in str(error)


def test_unknown_relation_type_is_an_error(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    path = rules_dir / "causes.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("type: Causes", "type: Causez"))
    error = _load_error(rules_dir)
    assert error.path.endswith("causes.yaml") and "type" in str(error)


def test_missing_directory_is_an_error(tmp_path: Path) -> None:
    error = _load_error(tmp_path / "nowhere")
    assert "not found" in str(error)


def test_macros_file_must_hold_a_mapping(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    (rules_dir / MACROS_FILE).write_text("macros: [REF]\n", encoding="utf-8")
    error = _load_error(rules_dir)
    assert error.path.endswith(MACROS_FILE)


def test_requires_must_hold_for_every_example_match(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    # The pre-check words must occur in every match, or relate.py would skip real matches.
    _edit_rule(rules_dir, "overrides.yaml", "overrides.subject_to", requires=["notwithstanding"])
    error = _load_error(rules_dir)
    assert error.rule_id == "overrides.subject_to" and "requires" in str(error)


def test_requires_must_be_lower_case(tmp_path: Path) -> None:
    rules_dir = _copy_rules(tmp_path)
    _edit_rule(rules_dir, "overrides.yaml", "overrides.subject_to", requires=["Subject"])
    error = _load_error(rules_dir)
    assert error.rule_id == "overrides.subject_to" and "lower-case" in str(error)
