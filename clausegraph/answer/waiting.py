"""Cover asked of a time from the start of the policy is decided by a waiting period.

"Is cataract surgery covered in the first policy year?" is two questions: whether cataract
surgery is covered (a benefit clause: "4.3 Cataract Treatment ... up to 25% of the Sum
Insured") and how long its cover waits ("24 Months waiting period ... 9. Cataract"). The
benefit clause alone answers "Yes, up to 25%", which is wrong for the first year; the
waiting period overrides it. The answer stage asks the second question too
(:func:`waiting_question`, retrieved by ``ClauseGraph.ask``) and, where its answer states a
waiting period for what is asked about, lets that answer lead (:func:`with_waiting`): its
lines first, the benefit's after them, and the verdict compares the period with the time
asked ("No: 24-month waiting period").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from clausegraph.answer.direct import AFFIRMS_COVER, DEFERS_COVER, refuses_cover
from clausegraph.answer.verdict import asks_yes_no, excepts_accidents, names_subject, waiting_period
from clausegraph.models import AnswerLine, ChainLink, DirectAnswer, RelationType, RetrievedClause
from clausegraph.text.stopwords import ENGLISH_STOP_WORDS
from clausegraph.text.values import asked_time, extract_values

# the words that ask whether something is paid for, not what
_ASKS_COVER = re.compile(
    r"\b(?:covered|cover|covers|coverage|payable|paid|pay|pays|reimburs\w*|included|"
    r"indemnif\w*|claim\w*|admissible)\b", re.IGNORECASE)
# when cover starts, asked of what is covered: "When will cataract surgery be covered?", "How
# long until knee replacement is covered?", "After how many years is cataract covered?"
_ASKS_WHEN = re.compile(r"^\s*(?:when|how\s+(?:long|soon)|after\s+how\s+(?:long|many\s+\w+))\b"
                        r"(?:\s+(?:until|till|before|must\s+I\s+wait(?:\s+before)?))?", re.IGNORECASE)
# asked when what is covered: "... be covered?", "... claim for kidney stones?" (not "When
# must a claim be notified?")
_COVERED = re.compile(r"\b(?:covered|payable|paid|reimbursed|claim(?:ing)?\s+for)\b",
                      re.IGNORECASE)
# the words of a question that name neither what is asked about nor anything in a wording
_FRAME_WORDS = frozenset(ENGLISH_STOP_WORDS) | frozenset(
    "policy policies plan insurance insurer insurers company i my me we us you your "
    "expenses expense charges cost costs wait waiting claiming".split())
# what is done for a condition, not the condition ("cataract surgery", "hernia repair"):
# a waiting-period list names the condition ("9. Cataract", "Hernia of all types"), and a
# wording's every rule names surgery and treatment
_PROCEDURE_WORDS = frozenset(
    "treatment treatments surgery surgeries surgical operation operations procedure "
    "procedures repair therapy".split())
_WAITING = re.compile(r"\bwaiting\b", re.IGNORECASE)
# the rule id of the chain link a waiting period's answer draws to the benefit it defers
WAITING_RULE = "waiting-period-answer"


@dataclass
class WaitingEvidence:
    """What retrieval found for the waiting-period question of a cover question."""

    question: str
    results: list[RetrievedClause]
    question_types: np.ndarray | None = None

    def of_document(self, doc_id: str) -> list[RetrievedClause]:
        return [r for r in self.results if r.clause.doc_id == doc_id]


def waiting_question(question: str) -> str | None:
    """The question for the waiting period of what ``question`` asks to be covered at a
    time from the start of cover ("Is cataract surgery covered in the first policy year?"
    -> "What is the waiting period for cataract?"), or asks when it is covered ("How long
    until knee replacement is covered?"); None for any other question."""
    if _ASKS_COVER.search(question) is None:
        return None
    asked = asked_time(question)
    if asked is not None and asks_yes_no(question):
        start, end = asked.span
        rest = question[:start] + " " + question[end:]
    elif asked is None and _ASKS_WHEN.search(question) and _COVERED.search(question):
        rest = _ASKS_WHEN.sub(" ", question)  # "How long until knee replacement is covered?"
    elif asked is None and asks_yes_no(question) and _COVERED.search(question):
        rest = question  # "Is cataract surgery covered?": covered, after how long
    else:
        return None
    rest = _ASKS_COVER.sub(" ", rest)
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", rest)
             if w.lower() not in _FRAME_WORDS and w.lower().rstrip("'s") not in _FRAME_WORDS]
    # what is asked about, in the question's own words ("cataract", "knee replacement"),
    # without the procedure done for it unless that is all it names ("Is surgery covered
    # in the first month?")
    named = [w for w in words if w.lower() not in _PROCEDURE_WORDS] or words
    return f"What is the waiting period for {' '.join(named)}?" if named else None


def with_waiting(question: str, cover: DirectAnswer, waiting: DirectAnswer | None,
                 asked_wait: str) -> DirectAnswer:
    """One document's answer to a cover question asked of a time from the start of cover:
    the waiting period's answer (to ``asked_wait``, :func:`waiting_question`) leads where it
    states a period for what is asked about (the benefit's lines after it), else the cover
    answer as it is."""
    if waiting is None or not waiting.found or not waiting.lines:
        return cover
    if asked_time(question) is None and not _ASKS_WHEN.search(question):
        return _with_caveat(question, cover, waiting, asked_wait)
    granted = " ".join(line.text for line in cover.lines) if cover.found else ""
    cover_waits = _waits(granted)
    if cover_waits and names_subject(asked_wait, granted):
        return cover  # the cover answer is itself the wait for what is asked about
    said = " ".join(line.text for line in waiting.lines)
    if not _states_wait(said) and _WAITING.search(said) is None:
        return cover
    if not names_subject(asked_wait, said):
        return cover  # a waiting period for something else ("30 days ... any illness")
    if excepts_accidents(question, said):
        return cover  # the wait is for illness; an accident is covered from the start
    # the benefit the period defers is read after it ("4.3 Cataract Treatment ... up to 25%
    # of the Sum Insured"); a cover answer that itself refuses or waits says nothing more
    benefit = cover.lines if AFFIRMS_COVER.search(granted) and not refuses_cover(granted) \
        and not cover_waits and _WAITING.search(granted) is None else []
    shown = {_where(line) for line in waiting.lines}
    lines = [*waiting.lines, *(line for line in benefit if _where(line) not in shown)]
    return waiting.model_copy(update={
        "lines": lines, "exceptions": [*waiting.exceptions, *cover.exceptions],
        "confidence": max(waiting.confidence, cover.confidence if cover.found else 0.0),
        "verdict": None})


def _with_caveat(question: str, cover: DirectAnswer, waiting: DirectAnswer,
                 asked_wait: str) -> DirectAnswer:
    """Cover asked with no time ("Is cataract surgery covered?"): the cover answer, and
    after its lines the waiting period's where the cover answer grants cover and the
    waiting answer states a wait for every word asked about ("Yes, up to 25% ... after a
    24-month waiting period"); the waiting answer alone where the cover answer finds
    nothing or quotes the same listed item as a refusal (a waiting list set under the
    exclusions)."""
    said = " ".join(line.text for line in waiting.lines)
    # a wait for every word of what is asked ("day care" is not the "30 days" of the
    # initial waiting period, which any illness waits)
    if not _states_wait(said) or not names_subject(asked_wait, said, every=True):
        return cover
    if not cover.found or _listed_in_both(cover, waiting):
        # the item the cover answer quotes from a list under "Exclusions" is an item of a
        # waiting-period list, or nothing answers but the waiting list that names it: its
        # wait, not a refusal, is the answer
        return waiting.model_copy(update={"verdict": None})
    granted = " ".join(line.text for line in cover.lines)
    if not AFFIRMS_COVER.search(granted) or refuses_cover(granted) or _waits(granted) \
            or excepts_accidents(question, said):
        return cover
    shown = {_where(line) for line in cover.lines}
    lines = [*cover.lines, *(line for line in waiting.lines if _where(line) not in shown)]
    return cover.model_copy(update={
        "lines": lines, "exceptions": [*cover.exceptions, *waiting.exceptions],
        "verdict": None})


def _listed_in_both(cover: DirectAnswer, waiting: DirectAnswer) -> bool:
    """Whether the cover answer's answering line is an item the waiting answer quotes too
    (the same clause)."""
    answering = cover.answering_line()
    return answering is not None and any(line.clause_id == answering.clause_id
                                         for line in waiting.lines)


def waiting_link(answered: DirectAnswer, cover: DirectAnswer) -> ChainLink | None:
    """The reasoning chain's link from the waiting period that decided ``answered`` to the
    benefit of the cover answer it defers ("6.3(f)(i)/9 OVERRIDES 4.3"), when the answer
    quotes both; None otherwise. Its confidence is the gate's P(right) of the waiting
    answer (its share of the question's words when the gate is off)."""
    deciding = answered.answering_line()
    shown = {_where(line) for line in answered.lines}
    granted = {_where(line) for line in cover.lines}
    if deciding is not None and _where(deciding) in granted:
        # asked with no time, the benefit leads and the wait follows it ("Yes, up to 25%,
        # after a 24-month waiting period"): the wait's last line, its listed item, decides
        deciding = next((line for line in reversed(answered.lines)
                         if _where(line) not in granted and not line.heads), None)
    benefit = next((line for line in cover.lines if not line.heads and deciding is not None
                    and line.clause_id != deciding.clause_id and _where(line) in shown), None)
    if deciding is None or benefit is None:
        return None
    said = " ".join(line.text for line in answered.lines if _where(line) not in granted)
    confidence = answered.right_probability if answered.right_probability is not None \
        else answered.confidence
    return ChainLink(type=RelationType.OVERRIDES, source=deciding.clause_id,
                     target=benefit.clause_id, source_label=deciding.label,
                     target_label=benefit.label, confidence=round(confidence, 3),
                     rule_id=WAITING_RULE, evidence=said)


def _where(line: AnswerLine) -> tuple[str, tuple[int, int]]:
    """What a quoted line quotes: its clause and span."""
    return line.clause_id, tuple(line.span)


def _states_wait(text: str) -> bool:
    """Whether ``text`` states a period, or a wait whose length the wording leaves to the
    schedule ("excluded until the expiry of number of months as mentioned in the
    Certificate of Insurance")."""
    return _waits(text) or any(v.kind == "duration" for v in extract_values(text))


def _waits(text: str) -> bool:
    """Whether ``text`` holds cover back ("excluded until the expiry of ...", "covered
    after ...") or states a waiting period ("a 24-month waiting period applies"); a
    passing mention ("for calculation of waiting periods") does not."""
    return DEFERS_COVER.search(text) is not None or waiting_period(text) is not None
