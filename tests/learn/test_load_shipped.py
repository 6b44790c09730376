"""A damaged shipped model file gives one clear error naming the file and how to rebuild it,
whatever the loader (NumPy's npz reader, JSON, a missing key)."""

import io

import numpy as np
import pytest

from clausegraph.answer.gate import AnswerGate, TreeAnswerGate
from clausegraph.answer.kinds import QuestionKindModel
from clausegraph.answer.sentences import SentenceRanker
from clausegraph.classify.model import ClauseTypeModel
from clausegraph.classify.questions import _read_parameters
from clausegraph.errors import ClauseGraphError
from clausegraph.learn import load_shipped
from clausegraph.review.found import FoundThresholds
from clausegraph.review.presence import TypePresence
from clausegraph.review.ranker import SpanNovelty, SpanRanker
from clausegraph.review.words import SpanWords

LOADERS = {
    "clause types": (ClauseTypeModel.load, "npz"), "span ranker": (SpanRanker.load, "npz"),
    "span novelty": (SpanNovelty.load, "npz"), "span words": (SpanWords.load, "npz"),
    "gate trees": (TreeAnswerGate.load, "npz"), "found": (FoundThresholds.load, "json"),
    "presence": (TypePresence.load, "json"), "gate": (AnswerGate.load, "json"),
    "sentence ranker": (SentenceRanker.load, "json"),
    "question types": (_read_parameters, "json"),
    "question kinds": (QuestionKindModel.load, "npz"),
}


def _foreign_npz() -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, weights=np.zeros(3))
    return buffer.getvalue()


DAMAGE = {
    "empty": lambda suffix: b"",
    "garbage": lambda suffix: b"\x00\x17 not a model \xff" * 10,
    "truncated": lambda suffix: (_foreign_npz()[:40] if suffix == "npz" else b'{"format": "clau'),
    "foreign": lambda suffix: _foreign_npz() if suffix == "npz" else b'{"weights": [1, 2]}',
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("name", sorted(LOADERS))
def test_damaged_file_names_itself_and_the_script(tmp_path, name, damage):
    load, suffix = LOADERS[name]
    path = tmp_path / f"model.{suffix}"
    path.write_bytes(DAMAGE[damage](suffix))
    with pytest.raises(ClauseGraphError) as error:
        load_shipped(load, path, f"the {name}", "scripts/rebuild_it.py")
    message = str(error.value)
    assert message.startswith(f"{path}: the {name} cannot be read (")
    assert "scripts/rebuild_it.py" in message
    assert "\n" not in message


def test_missing_file_says_missing(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing from the package"):
        load_shipped(SpanWords.load, tmp_path / "absent.npz", "the span words", "x.py")


def test_a_good_file_loads(tmp_path):
    path = tmp_path / "found.json"
    FoundThresholds(min_present=1).fit(["Parties"] * 4, [0.1, 0.2, 0.6, 0.7],
                                       [False, False, True, True]).save(path)
    loaded = load_shipped(FoundThresholds.load, path, "found", "x.py")
    assert 0.2 < loaded.threshold("Parties") <= 0.6
