"""The review's found thresholds (review/found.py): one per category, fitted on train."""

from pathlib import Path

import pytest

from clausegraph.config import ReviewConfig
from clausegraph.review.found import FoundThresholds, best_threshold, shipped_found_thresholds
from clausegraph.review.select import found_threshold


def test_the_best_threshold_separates_present_from_absent() -> None:
    threshold, accuracy = best_threshold([0.1, 0.2, 0.6, 0.7], [False, False, True, True])
    assert accuracy == 1.0 and 0.2 < threshold <= 0.6
    # ties: the middle of the thresholds that do best, not the first or the last
    assert threshold == pytest.approx(0.4, abs=0.01)
    # a category every contract has is found from the lowest threshold tried
    assert best_threshold([0.02, 0.3, 0.9], [True, True, True]) == (0.01, 1.0)


def _pairs():
    categories, confidences, present = [], [], []
    for k in range(20):  # common: present from a low confidence
        categories.append("Agreement Date")
        confidences.append(0.05 + k / 100)
        present.append(True)
    for k in range(20):  # rare: present only when sure
        categories.append("Covenant Not to Sue")
        confidences.append(0.3 + k / 40)
        present.append(k >= 12)
    for k in range(4):  # too few present to fit its own
        categories.append("Price Restrictions")
        confidences.append(0.8)
        present.append(k == 0)
    return categories, confidences, present


def test_each_category_gets_its_own_threshold_unless_it_is_too_rare(tmp_path: Path) -> None:
    fitted = FoundThresholds(min_present=5).fit(*_pairs())
    assert fitted.threshold("Agreement Date") < 0.1
    assert 0.55 < fitted.threshold("Covenant Not to Sue") <= 0.6
    assert fitted.threshold("Price Restrictions") == fitted.pooled_
    assert fitted.threshold("Parties") == fitted.pooled_  # never seen
    assert fitted.evidence_["categories"]["Price Restrictions"]["own"] is False
    path = tmp_path / "found.json"
    fitted.save(path)
    loaded = FoundThresholds.load(path)
    assert loaded.thresholds_ == fitted.thresholds_ and loaded.pooled_ == fitted.pooled_
    (tmp_path / "other.json").write_text('{"format": "something else"}', encoding="utf-8")
    with pytest.raises(ValueError, match="other.json: not found thresholds"):
        FoundThresholds.load(tmp_path / "other.json")
    with pytest.raises(ValueError, match="not fitted"):
        FoundThresholds().threshold("Parties")


def test_the_shipped_thresholds_come_from_train_and_a_setting_overrides_them() -> None:
    shipped = shipped_found_thresholds()
    assert shipped.evidence_["split"] == "train"
    assert shipped.threshold("Agreement Date") < shipped.threshold("Covenant Not to Sue")
    assert found_threshold("Agreement Date", ReviewConfig()) == \
        shipped.threshold("Agreement Date")
    assert found_threshold("Agreement Date", ReviewConfig(found_threshold=0.5)) == 0.5
